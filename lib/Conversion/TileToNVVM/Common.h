//===- Common.h - shared pieces of the tile-to-NVVM lowerings ---*- C++ -*-===//

#ifndef TILEGEN_LIB_CONVERSION_TILETONVVM_COMMON_H
#define TILEGEN_LIB_CONVERSION_TILETONVVM_COMMON_H

#include "tilegen/Dialect/Tile/TileDialect.h"
#include "tilegen/Target/MmaTable.h"
#include "tilegen/Target/NVTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tilegen::lowering {

/// A tile.pipeline and the plan ops in its body, read once.
struct PipelineView {
  tile::PipelineOp op;
  tile::RingOp ring;
  tile::AccumulatorsOp accumulators;
  tile::RoleOp producer, mma, epilogue;
  tile::ScheduleOp schedule;
  tile::EpilogueOp epilogueOp;
  NVTarget target;
  tile::MmaInstrAttr instr; ///< what the mma role issues
  const MmaInstr *row;      ///< its row of the instruction table

  bool hasScales() { return instr.getScaleA() || instr.getScaleB(); }
  bool blockScales() {
    return instr.getScaleA() && !instr.getScaleA().isTensor();
  }

  static mlir::FailureOr<PipelineView> get(tile::PipelineOp op);
  int64_t tileM() { return schedule.getTile()[0]; }
  int64_t tileN() { return schedule.getTile()[1]; }
  int64_t sliceK() { return schedule.getSliceK(); }
  int64_t threads() { return op.getBlock()[0]; }
};

/// ImplicitLocOpBuilder with the integer and pointer arithmetic kernels need.
class KernelBuilder : public mlir::ImplicitLocOpBuilder {
public:
  using ImplicitLocOpBuilder::ImplicitLocOpBuilder;

  mlir::Type i1() { return getI1Type(); }
  mlir::Type i32() { return getI32Type(); }
  mlir::Type i64() { return getI64Type(); }
  mlir::Type f32() { return getF32Type(); }
  mlir::Type ptr(unsigned addrSpace) {
    return mlir::LLVM::LLVMPointerType::get(getContext(), addrSpace);
  }

  mlir::Value c32(int64_t v);
  mlir::Value c64(int64_t v);
  mlir::Value f32c(double v);
  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value add(mlir::Value a, int64_t b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, int64_t b);
  mlir::Value divu(mlir::Value a, int64_t b);
  mlir::Value divu(mlir::Value a, mlir::Value b);
  mlir::Value remu(mlir::Value a, int64_t b);
  mlir::Value remu(mlir::Value a, mlir::Value b);
  mlir::Value xori(mlir::Value a, mlir::Value b);
  mlir::Value andi(mlir::Value a, mlir::Value b);
  mlir::Value minu(mlir::Value a, mlir::Value b);
  mlir::Value ult(mlir::Value a, mlir::Value b);
  mlir::Value ult(mlir::Value a, int64_t b);
  mlir::Value eq(mlir::Value a, int64_t b);
  mlir::Value select(mlir::Value c, mlir::Value t, mlir::Value f);
  mlir::Value zext64(mlir::Value v);
  /// ceil(a / b) for unsigned a.
  mlir::Value ceilDiv(mlir::Value a, int64_t b);
  /// `base + byteOffset` (any integer offset type) in `base`'s address space.
  mlir::Value gep(mlir::Value base, mlir::Value byteOffset);
};

/// The kernel parameters of one lowering, recorded on the llvm.func for the manifest.
struct KernelParam {
  std::string name, kind, tensor, value;
  mlir::Type llvmType;
  /// More manifest fields (a tensor map's dims, box, swizzle ...).
  llvm::SmallVector<mlir::NamedAttribute> extra = {};
  /// A CUtensorMap passed by value: `ptr byval([128 x i8]) align 64` with nvvm.grid_constant.
  bool tensorMap = false;
};

/// Creates the kernel `llvm.func` with `nvvm.kernel`, `nvvm.maxntid` and the manifest
/// attributes (`tilegen.*`), and an entry block. The parameters become the function's arguments
/// in order.
mlir::LLVM::LLVMFuncOp createKernel(KernelBuilder &b, PipelineView &view,
                                    llvm::ArrayRef<KernelParam> params);

/// The tensor-map boxes of a TMA kernel (elements; innermost first as TMA wants): A and B are
/// K-major slices of `kSlice` x rows, D is stored in chunks of `dCols` x `dRows`.
struct TmaBoxes {
  int64_t kSlice, aRows, bRows, dCols, dRows;
};
/// The parameters of the TMA kernels (sm_90a, sm_100a), in order: tensor maps of A, B and D
/// (by value), pointers C and D, M, N, K, alpha, beta.
llvm::SmallVector<KernelParam> tmaKernelParams(KernelBuilder &b, PipelineView &v,
                                               const TmaBoxes &boxes);
/// The operand-scale parameters (`scale_a`, `scale_b`: device pointers to f32, see
/// docs/manifest.md for the layout of block scales), appended for the scales the MMA role's
/// instruction names; returns how many were appended.
unsigned appendScaleParams(KernelBuilder &b, PipelineView &v,
                           llvm::SmallVectorImpl<KernelParam> &params);
/// alpha x scale_a x scale_b with per-tensor scales (one f32 each, loaded at `scales`, in the
/// order appendScaleParams gave them); alpha itself without scales.
mlir::Value perTensorAlpha(KernelBuilder &b, PipelineView &v, mlir::Value alpha,
                           mlir::ValueRange scales);

/// A shared-memory matrix descriptor (wgmma or tcgen05): `high` holds every field but the start
/// address, which is (shared address >> 4) in bits 0-13, known only at run time.
mlir::Value smemDescriptor(KernelBuilder &b, mlir::Value ptr, uint64_t high);

/// An f32 value rounded to the output type (a no-op for f32).
mlir::Value convertOut(KernelBuilder &b, mlir::Type outType, mlir::Value x);

/// The constraints of kernels that load A and B (K-major) and store D with TMA: elements of
/// `elemBits` and `outBits` bits.
void addTmaConstraints(mlir::LLVM::LLVMFuncOp func, int64_t elemBits, int64_t outBits);

/// The dynamic shared-memory base of the module (declares the extern array once).
mlir::Value dynamicSmemBase(KernelBuilder &b, mlir::ModuleOp module);

/// Records the run-time constraints on M, N, K for the manifest.
void addConstraint(mlir::LLVM::LLVMFuncOp func, llvm::StringRef dim, int64_t multiple,
                   llvm::StringRef reason);

/// The output-tile order of the schedule: tile index -> (tile row, tile column), with groups of
/// `swizzle` tiles along the raster's minor axis.
std::pair<mlir::Value, mlir::Value> rasterTile(KernelBuilder &b, PipelineView &view,
                                               mlir::Value tile, mlir::Value tilesM,
                                               mlir::Value tilesN);

/// mbarrier and TMA helpers shared by the sm_90a and sm_100a rings.
struct Barriers {
  mlir::Value base; ///< shared address of the first barrier
  mlir::Value at(KernelBuilder &b, mlir::Value index) const; ///< base + 8 * index
  mlir::Value at(KernelBuilder &b, int64_t index) const;
};
/// Slice g of the CTA's sequence in an S-slot ring: its slot (g mod S), the parity of the full
/// barrier's phase a consumer waits for ((g / S) & 1), and the empty barrier's a producer waits
/// for (the opposite: a fresh barrier counts as having completed the phase before phase 0).
struct RingPosition {
  mlir::Value slot, fullParity, emptyParity;
};
RingPosition ringPosition(KernelBuilder &b, mlir::Value g, int64_t stages);

/// Spins on `bar` until the phase with parity `parity` has completed.
void waitBarrier(KernelBuilder &b, mlir::Value bar, mlir::Value parity);
/// The address of an mbarrier or shared buffer as the 32-bit shared-window offset.
mlir::Value sharedOffset(KernelBuilder &b, mlir::Value ptr);

/// Predicated stores of accumulator fragments in the m16n8 register layout shared by
/// mma.sync and wgmma: D = alpha * acc + beta * C (C read only when beta != 0), converted to
/// `outType`, row-major D and C with leading dimension N.
struct FragmentStore {
  mlir::Value C, D, M, N, alpha, beta;
  mlir::Type outType;
  mlir::Value rowBase, colBase; ///< this thread's first row and column
  mlir::Value tileRowEnd, tileColEnd; ///< one past the CTA tile's last row and column
  int64_t blocksM = 1, rowStride = 16, blocksN = 1;
  /// The caller has already branched on beta != 0: emit only the (checked) stores that read C.
  bool betaNonZero = false;
};
/// `acc` holds blocksM x blocksN fragments of four values, fragment-major.
void storeFragments(KernelBuilder &b, const FragmentStore &store, mlir::ValueRange acc);

/// The lowerings, one per family (MmaSync.cpp, SM90.cpp, SM100.cpp).
mlir::LogicalResult lowerMmaSync(PipelineView &view, mlir::ModuleOp module);
mlir::LogicalResult lowerWgmma(PipelineView &view, mlir::ModuleOp module);
mlir::LogicalResult lowerTcgen05(PipelineView &view, mlir::ModuleOp module);

} // namespace tilegen::lowering

#endif // TILEGEN_LIB_CONVERSION_TILETONVVM_COMMON_H
