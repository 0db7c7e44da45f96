//===- Decode.h - what each PTX statement does in the protocol model --------------------===//
//
// Every statement of the kernel is decoded once into an `Op` and the few facts its
// interpretation needs (widths, comparison, variants). A statement whose opcode is not listed
// here is outside the model: decoding fails with the line and the opcode.
//
//===--------------------------------------------------------------------------------------===//

#ifndef TILEGEN_LIB_VERIFY_DECODE_H
#define TILEGEN_LIB_VERIFY_DECODE_H

#include "tilegen/Verify/PTX.h"

namespace tilegen::verify {

enum class Op : uint8_t {
  Label,
  // Pure: integer arithmetic the checker executes, or math whose result it does not know.
  Math, Mov, Add, Sub, MulLo, MulHi, MulWide, MadLo, Div, Rem, Min, Max, And, Or, Xor, Not,
  Shl, Shr, Bfe, Neg, Selp, Setp, Cvt, Cvta, Mapa,
  // Control flow.
  Bra, Ret,
  // Memory.
  LdParam, LdShared, StShared, LdMatrix, StMatrix, LdGlobal, StGlobal, LdAcquire, StFlag,
  // Synchronisation and asynchronous work.
  Nanosleep, BarSync, BarArrive, BarWarpSync, ClusterArrive, ClusterWait, MbarInit, MbarArrive,
  MbarExpectTx, MbarTryWait, FenceProxyAsync, FenceNoop, FenceMbarInit, TmaLoad, BulkLoad,
  TmaStore, BulkCommit, BulkWait, CpAsync, CpAsyncCommit, CpAsyncWait, CpAsyncArrive, WgmmaFence,
  Wgmma, WgmmaCommit, WgmmaWait, TcAlloc, TcDealloc, TcRelinquish, TcMma, TcCommit, TcLd,
  TcWaitLd, TcCp, Elect, Shfl, Vote, Setmaxnreg, PrefetchTensormap,
};

struct Decoded {
  Op op = Op::Label;
  unsigned bits = 32;     ///< operation width (destination for cvt)
  unsigned srcBits = 32;  ///< cvt / mul.wide source width
  bool isSigned = false;
  bool isFloat = false;   ///< setp on f32
  uint8_t cmp = 0;        ///< setp: 0 eq 1 ne 2 lt 3 le 4 gt 5 ge
  unsigned bytes = 0;     ///< memory access width per thread
  unsigned ctaGroup = 1;  ///< tcgen05 / TMA cta_group
  bool multicast = false; ///< tcgen05.commit / TMA with a CTA mask
  bool cluster = false;   ///< address is shared::cluster
  bool exec = true;       ///< pure op: a result is needed (see relevance in Simulator.cpp)
  bool expectTx = false;  ///< mbarrier.arrive.expect_tx: carries transaction bytes
  unsigned matrices = 0;  ///< ldmatrix/stmatrix .x1/.x2/.x4
  unsigned shflMode = 0;  ///< 0 idx 1 up 2 down 3 bfly
  unsigned voteMode = 0;  ///< vote.sync: 0 all 1 any 2 uni 3 ballot
  unsigned cvtaDir = 0;   ///< 0 param/shared to generic, 1 to shared
  bool aligned = false;   ///< executed by all threads of a warp together (.aligned, bar.sync)
  bool relaxed = false;   ///< barrier.cluster.arrive.relaxed: orders no earlier access
};

/// Decodes one statement; the error names the line and the instruction.
llvm::Expected<Decoded> decodeStatement(const Statement &s);

/// True for ops with no effect outside the thread's registers.
inline bool isPure(Op op) { return op >= Op::Math && op <= Op::Mapa; }

} // namespace tilegen::verify

#endif // TILEGEN_LIB_VERIFY_DECODE_H
