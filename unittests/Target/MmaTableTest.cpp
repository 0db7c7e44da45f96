//===- MmaTableTest.cpp - the block-scaled rows vs the PTX ISA --------------===//
//
// The facts below are read from the PTX ISA 9.0 (CUDA 13.0) text cited next to them, not from
// the table under test: which target offers which block-scaled kind, each kind's K, scale type,
// block and scale_vec, which operand majors it reads, which operand pairs it takes, and that
// sizes of narrow types are never 0 bytes. Prints one line per failure and "N passed, M
// failed"; exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Target/MmaTable.h"
#include "tilegen/Target/NVTarget.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilegen;
using mlir::NVVM::MMABlockScaleKind;

static unsigned passed = 0, failed = 0;

static void expectTrue(bool ok, const char *what, int line) {
  if (!ok) {
    llvm::errs() << "FAIL line " << line << ": " << what << "\n";
    ++failed;
    return;
  }
  ++passed;
}
#define EXPECT_TRUE(expr) expectTrue((expr), #expr, __LINE__)

static NVTarget target(const char *name) { return *NVTarget::parse(name); }

/// Whether `t` offers any block-scaled row of `family`.
static bool offersBlockScaled(const NVTarget &t, MmaFamily family) {
  for (const MmaInstr &r : mmaTable())
    if (r.blockScaled && r.family == family && t.offers(r))
      return true;
  return false;
}

int main() {
  const Elem fp8f6f4[] = {Elem::E4M3, Elem::E5M2, Elem::E2M3, Elem::E3M2, Elem::E2M1};

  // Targets (9.7.16.10.9 tcgen05.mma, "Target ISA notes": the block_scale kinds need sm_100a
  // or sm_103a; 9.7.14.5.14 mma, "Target ISA notes": .block_scale needs sm_120a). Hopper's
  // wgmma has no block-scaled kind, and neither has the plain sm_120 target.
  for (const char *t : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_120"}) {
    EXPECT_TRUE(!offersBlockScaled(target(t), MmaFamily::Tcgen05));
    EXPECT_TRUE(!offersBlockScaled(target(t), MmaFamily::MmaSync));
    EXPECT_TRUE(!offersBlockScaled(target(t), MmaFamily::Wgmma));
  }
  for (const char *t : {"sm_100a", "sm_103a"}) {
    EXPECT_TRUE(offersBlockScaled(target(t), MmaFamily::Tcgen05));
    EXPECT_TRUE(!offersBlockScaled(target(t), MmaFamily::MmaSync));
  }
  EXPECT_TRUE(offersBlockScaled(target("sm_120a"), MmaFamily::MmaSync));
  EXPECT_TRUE(!offersBlockScaled(target("sm_120a"), MmaFamily::Tcgen05));

  // tcgen05 kinds (Table 39, "MMA-Kinds", dense K; 9.7.16.10.9, .scale_vec_size per kind).
  const MmaInstr *mxf4 = findBlockScaledMma(MmaFamily::Tcgen05, Elem::E2M1, Elem::E2M1,
                                            Elem::F32, Elem::E8M0, 32);
  EXPECT_TRUE(mxf4 && mxf4->blockKind == MMABlockScaleKind::MXF4 && mxf4->k == 64 &&
              mxf4->scaleVec == 2 && !mxf4->mnMajor);
  const MmaInstr *nvf4 = findBlockScaledMma(MmaFamily::Tcgen05, Elem::E2M1, Elem::E2M1,
                                            Elem::F32, Elem::E4M3, 16);
  EXPECT_TRUE(nvf4 && nvf4->blockKind == MMABlockScaleKind::MXF4NVF4 && nvf4->k == 64 &&
              nvf4->scaleVec == 4 && !nvf4->mnMajor);
  for (Elem a : fp8f6f4)
    for (Elem b : fp8f6f4) {
      if (a == Elem::E2M1 && b == Elem::E2M1)
        continue; // resolves to .kind::mxf4 (above)
      const MmaInstr *r =
          findBlockScaledMma(MmaFamily::Tcgen05, a, b, Elem::F32, Elem::E8M0, 32);
      // .kind::mxf8f6f4 transposes (9.7.16.10.1, Table 49), K = 32, scale_vec::1X.
      EXPECT_TRUE(r && r->blockKind == MMABlockScaleKind::MXF8F6F4 && r->k == 32 &&
                  r->scaleVec == 1 && r->mnMajor);
      // E4M3 scales per 16 are NVFP4's, for e2m1 x e2m1 only; E8M0 scales per 16 no kind's.
      EXPECT_TRUE(!findBlockScaledMma(MmaFamily::Tcgen05, a, b, Elem::F32, Elem::E4M3, 16));
      EXPECT_TRUE(!findBlockScaledMma(MmaFamily::Tcgen05, a, b, Elem::F32, Elem::E8M0, 16));
    }

  // mma.sync on sm_120a (9.7.14.5.14): m16n8k32 .kind::mxf8f6f4 .scale_vec::1X .ue8m0 with the
  // five types each; m16n8k64 .kind::mxf4nvf4 with .e2m1 and .scale_vec::2X .ue8m0 or
  // .scale_vec::4X .ue4m3; .row.col only.
  for (Elem a : fp8f6f4)
    for (Elem b : fp8f6f4) {
      if (a == Elem::E2M1 && b == Elem::E2M1)
        continue;
      const MmaInstr *r =
          findBlockScaledMma(MmaFamily::MmaSync, a, b, Elem::F32, Elem::E8M0, 32);
      EXPECT_TRUE(r && r->m == 16 && r->n == 8 && r->k == 32 && r->scaleVec == 1 &&
                  !r->mnMajor && target("sm_120a").offers(*r));
    }
  const MmaInstr *sync2x = findBlockScaledMma(MmaFamily::MmaSync, Elem::E2M1, Elem::E2M1,
                                              Elem::F32, Elem::E8M0, 32);
  const MmaInstr *sync4x = findBlockScaledMma(MmaFamily::MmaSync, Elem::E2M1, Elem::E2M1,
                                              Elem::F32, Elem::E4M3, 16);
  EXPECT_TRUE(sync2x && sync2x->k == 64 && sync2x->scaleVec == 2 &&
              sync2x->blockKind == MMABlockScaleKind::MXF4NVF4);
  EXPECT_TRUE(sync4x && sync4x->k == 64 && sync4x->scaleVec == 4 &&
              sync4x->blockKind == MMABlockScaleKind::MXF4NVF4);

  // The plain rows are unchanged by the block-scaled ones: findMma never returns a
  // block-scaled row, and the FP8 wgmma row is still the one for e4m3 x e4m3.
  const MmaInstr *plain = findMma(MmaFamily::Tcgen05, Elem::E4M3, Elem::E4M3, Elem::F32);
  EXPECT_TRUE(plain && !plain->blockScaled);
  EXPECT_TRUE(!findMma(MmaFamily::Tcgen05, Elem::E2M1, Elem::E2M1, Elem::F32));

  // Widths in bits and sizes in bytes, rounded up: never 0 for a narrow type.
  mlir::MLIRContext ctx;
  mlir::Type fp4 = mlir::Float4E2M1FNType::get(&ctx), fp6 = mlir::Float6E2M3FNType::get(&ctx),
             e8m0 = mlir::Float8E8M0FNUType::get(&ctx);
  EXPECT_TRUE(elemBits(fp4) == 4 && elemBits(fp6) == 6 && elemBits(e8m0) == 8);
  EXPECT_TRUE(elemBytes(1, fp4) == 1 && elemBytes(3, fp4) == 2 && elemBytes(64, fp4) == 32);
  EXPECT_TRUE(elemBytes(3, fp6) == 3);
  EXPECT_TRUE(!elemBytes(INT64_MAX, fp4)); // 4 x INT64_MAX bits overflows
  EXPECT_TRUE(manifestName(fp4) == "e2m1" && manifestName(e8m0) == "e8m0");
  EXPECT_TRUE(isSubByteFloat(fp4) && isSubByteFloat(fp6) && !isSubByteFloat(e8m0) &&
              !isNarrowFloat(e8m0));

  llvm::outs() << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}
