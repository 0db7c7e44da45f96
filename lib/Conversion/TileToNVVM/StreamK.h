//===- StreamK.h - stream-K for the wgmma lowering --------------*- C++ -*-===//
//
// grid = stream_k (sm_90a): whole tiles in the persistent order for the full waves; the
// K-slices of the tiles left, when they fill at most half a wave, are split over the CTAs
// (with no full wave, every tile in the same whole number of parts), and the CTA holding a
// tile's first slice adds the others' f32 partial tiles (published through
// a global workspace and a release/acquire flag, brought into the idle ring by bulk copies,
// one per consumer thread) before the epilogue. StreamK.cpp has the schedule (setUp) and the
// partial tiles' protocol.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_LIB_CONVERSION_TILETONVVM_STREAMK_H
#define TILEGEN_LIB_CONVERSION_TILETONVVM_STREAMK_H

#include "Common.h"

namespace tilegen::lowering {

/// The stream-K schedule and partial tiles of a WgmmaEmitter; inactive (whole tiles) unless
/// enabled.
class StreamK {
public:
  explicit StreamK(KernelBuilder &b) : b(b) {}
  explicit operator bool() const { return enabled; }

  /// One unit of a CTA's work: K-slices [kb, ke) of output tile `tile` (all of them unless
  /// stream-K); `local` is the tile's index in the stream-K tail.
  struct Unit {
    mlir::Value tile, kb, ke, local;
  };

  /// The workspace and flags parameters (appended when enabled).
  void appendParams(llvm::SmallVectorImpl<KernelParam> &params, int64_t bm, int64_t bn);
  /// The schedule: turns the loops' units [bid, numTiles) step grid into this CTA's
  /// [0, whole tiles + tail tiles) step 1. `ws` and `flags` are the kernel's arguments,
  /// `ring` the ring (idle when partials arrive), `fixup` a barrier of its own.
  void setUp(mlir::Value &bid, mlir::Value &grid, mlir::Value &numTiles, mlir::Value kTiles,
             mlir::Value ws, mlir::Value flags, mlir::Value ring, mlir::Value fixup, int64_t bm,
             int64_t bn);
  /// Unit u of the CTA's loops.
  Unit unitAt(mlir::Value u, mlir::Value kTiles);
  /// Store this CTA's partial tile / add the partials of the CTAs after it (consumer
  /// warpgroup c, thread tInWg in it).
  void storePartial(llvm::ArrayRef<mlir::Value> values, mlir::Value c, mlir::Value tInWg);
  llvm::SmallVector<mlir::Value> addPartials(llvm::ArrayRef<mlir::Value> values, mlir::Value c,
                                             mlir::Value tInWg, mlir::Value local,
                                             mlir::Value ke, mlir::Value kTiles);

  bool enabled = false;
  int64_t threads = 256; ///< consumer threads: 128 per consumer warpgroup

private:
  KernelBuilder &b;
  int64_t bm = 0, bn = 0;
  mlir::Value ws, flags;           ///< stream-K partial tiles (f32) and their ready flags, per CTA
  mlir::Value ring;                ///< where a partial tile arrives
  mlir::Value fixup; ///< completes when a partial tile has arrived in shared memory
  mlir::Value r, S; ///< the tail's tiles and the CTAs splitting their K-slices
  /// This CTA's tail K-slices [start, stop), each as (tail tile, K-slice in it).
  mlir::Value startQ, startOff, stopQ, stopOff;
  mlir::Value dpTiles, tailBase, tailFirst; ///< whole tiles per CTA; first tail tile; ours
};

} // namespace tilegen::lowering

#endif // TILEGEN_LIB_CONVERSION_TILETONVVM_STREAMK_H
