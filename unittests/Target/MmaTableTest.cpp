//===- MmaTableTest.cpp - the narrow-type rows vs the PTX ISA ---------------===//
//
// The facts below are read from the PTX ISA 9.0 (CUDA 13.0) text cited next to them, not from
// the table under test: which target offers which block-scaled kind, each kind's K, scale type,
// block and scale_vec, which operand majors it reads, which operand pairs it takes, the plain
// .kind::f8f6f4 rows with 6- and 4-bit operands (targets, K, majors, descriptor type codes, the
// TMA data types of their padded form), and that sizes of narrow types are never 0 bytes. Prints one line per failure and "N passed, M
// failed"; exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

#include "tilegen/Target/Descriptors.h"
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
      // .kind::mxf8f6f4 transposes (9.7.16.10.1, Table 49), but only its 8-bit operands
      // (9.7.16.10.3, Table 54: MN-major for 8-, 16- and 32-bit types; a 6- or 4-bit operand is
      // K-major); K = 32, scale_vec::1X.
      bool subByte = elemInfo(a).bits < 8 || elemInfo(b).bits < 8;
      EXPECT_TRUE(r && r->blockKind == MMABlockScaleKind::MXF8F6F4 && r->k == 32 &&
                  r->scaleVec == 1 && r->mnMajor == !subByte);
      // 9.7.16.4.3 / Table 39: every operand of .kind::mxf8f6f4 takes one byte of shared
      // memory (the 6- and 4-bit ones padded, 16 elements per 16 bytes: TMA's 16U6_ALIGN16B
      // = 15 and 16U4_ALIGN16B = 14), so one instruction's K = 32 is 32 bytes of each row.
      for (Elem e : {a, b}) {
        unsigned bits = elemInfo(e).bits;
        EXPECT_TRUE(r && smemElemBits(*r, e) == 8 && paddedSubByte(*r, e) == (bits < 8) &&
                    unsigned(tmaDataType(*r, e)) == (bits == 4 ? 14u : bits == 6 ? 15u : 0u));
      }
      EXPECT_TRUE(r && target("sm_100a").offers(*r) && target("sm_103a").offers(*r) &&
                  !target("sm_120a").offers(*r) && !target("sm_90a").offers(*r));
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
                  !r->mnMajor && target("sm_120a").offers(*r) && !target("sm_120").offers(*r));
      // The 6- and 4-bit operands sit in 8-bit containers (9.7.14.5.14: "with .kind::f8f6f4
      // or .kind::mxf8f6f4", e2m1 in bits 5..2, e3m2 / e2m3 in bits 5..0), written into shared
      // memory by the padded TMA forms and widened by ldmatrix's .b8x16 forms.
      for (Elem e : {a, b}) {
        unsigned bits = elemInfo(e).bits;
        EXPECT_TRUE(r && smemElemBits(*r, e) == 8 && paddedSubByte(*r, e) == (bits < 8) &&
                    unsigned(tmaDataType(*r, e)) == (bits == 4 ? 14u : bits == 6 ? 15u : 0u));
      }
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

  // Plain .kind::f8f6f4 with 6- and 4-bit operands. mma.sync (9.7.14.5.14, Syntax and Target ISA
  // notes): m16n8k32 .row.col .kind::f8f6f4 with A and B each one of .e4m3, .e5m2, .e3m2,
  // .e2m3, .e2m1; ".e3m2, .e2m3 and .e2m1 ... requires sm_120a"; PTX ISA 8.7. tcgen05.mma
  // (Table 39): .kind::f8f6f4 with the same five types each, K = 32; 6- and 4-bit operands
  // K-major only (9.7.16.10.3). Instruction-descriptor type codes (Table 42 for kind::f8f6f4):
  // E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5.
  const struct {
    Elem e;
    MmaElem desc;
    unsigned code;
  } codes[] = {{Elem::E4M3, MmaElem::E4M3, 0}, {Elem::E5M2, MmaElem::E5M2, 1},
               {Elem::E2M3, MmaElem::E2M3, 3}, {Elem::E3M2, MmaElem::E3M2, 4},
               {Elem::E2M1, MmaElem::E2M1, 5}};
  for (auto ca : codes)
    for (auto cb : codes) {
      bool subByte = elemInfo(ca.e).bits < 8 || elemInfo(cb.e).bits < 8;
      const MmaInstr *s = findMma(MmaFamily::MmaSync, ca.e, cb.e, Elem::F32);
      EXPECT_TRUE(s && s->m == 16 && s->n == 8 && s->k == 32 && !s->mnMajor);
      if (subByte) {
        EXPECT_TRUE(s && s->set == MmaSyncF8F6F4 && s->minPtx == 87 &&
                    llvm::StringRef(s->ptx).contains(".kind::f8f6f4"));
        EXPECT_TRUE(s && target("sm_120a").offers(*s));
        for (const char *t : {"sm_80", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_103a", "sm_120"})
          EXPECT_TRUE(s && !target(t).offers(*s));
      } else {
        EXPECT_TRUE(s && s->set == MmaSyncF8); // the plain e4m3/e5m2 form, sm_89+
      }
      const MmaInstr *t = findMma(MmaFamily::Tcgen05, ca.e, cb.e, Elem::F32);
      EXPECT_TRUE(t && t->k == 32 && t->tcgen05Kind == mlir::NVVM::Tcgen05MMAKind::F8F6F4 &&
                  t->tcgen05A == ca.desc && t->tcgen05B == cb.desc && t->mnMajor == !subByte);
      if (t) {
        auto desc = encodeTcgen05InstrDescF8F6F4(t->tcgen05A, t->tcgen05B, MmaElem::F32, 128, 256);
        EXPECT_TRUE(desc && ((*desc >> 7) & 7) == ca.code && ((*desc >> 10) & 7) == cb.code);
        if (!desc)
          llvm::consumeError(desc.takeError());
      }
      EXPECT_TRUE(t && target("sm_100a").offers(*t) && target("sm_103a").offers(*t) &&
                  !target("sm_120a").offers(*t));
      EXPECT_TRUE(!findMma(MmaFamily::Wgmma, ca.e, cb.e, Elem::F32) == subByte);
    }

  // How the operands reach shared memory (CUDA driver API, cuTensorMapEncodeTiled and
  // CUtensorMapDataType: UINT8 0, FLOAT16 6, FLOAT32 7, BFLOAT16 9, 16U4_ALIGN8B 13,
  // 16U4_ALIGN16B 14, 16U6_ALIGN16B 15): the 6- and 4-bit operands of kind::f8f6f4 and
  // kind::mxf8f6f4 in the padded 16-byte form (8 bits an element in shared memory), the packed
  // FP4 of kind::mxf4nvf4 and the 8-bit types as bytes.
  const MmaInstr *fp6fp4 = findMma(MmaFamily::MmaSync, Elem::E3M2, Elem::E2M1, Elem::F32);
  EXPECT_TRUE(fp6fp4 && unsigned(tmaDataType(*fp6fp4, Elem::E2M1)) == 14 &&
              unsigned(tmaDataType(*fp6fp4, Elem::E3M2)) == 15 &&
              smemElemBits(*fp6fp4, Elem::E2M1) == 8 && smemElemBits(*fp6fp4, Elem::E3M2) == 8 &&
              tmaPaddedFormName(tmaDataType(*fp6fp4, Elem::E2M1)) == "16u4_align16b" &&
              tmaPaddedFormName(tmaDataType(*fp6fp4, Elem::E3M2)) == "16u6_align16b");
  const MmaInstr *f8f4 = findMma(MmaFamily::Tcgen05, Elem::E4M3, Elem::E2M1, Elem::F32);
  EXPECT_TRUE(f8f4 && unsigned(tmaDataType(*f8f4, Elem::E4M3)) == 0 &&
              unsigned(tmaDataType(*f8f4, Elem::E2M1)) == 14 &&
              smemElemBits(*f8f4, Elem::E4M3) == 8 && paddedSubByte(*f8f4, Elem::E2M1) &&
              !paddedSubByte(*f8f4, Elem::E4M3));
  EXPECT_TRUE(sync4x && unsigned(tmaDataType(*sync4x, Elem::E2M1)) == 0 &&
              smemElemBits(*sync4x, Elem::E2M1) == 4 && !paddedSubByte(*sync4x, Elem::E2M1));
  const MmaInstr *bf16 = findMma(MmaFamily::MmaSync, Elem::BF16, Elem::BF16, Elem::F32);
  EXPECT_TRUE(bf16 && unsigned(tmaDataType(*bf16, Elem::BF16)) == 9 &&
              tmaPaddedFormName(tmaDataType(*bf16, Elem::BF16)).empty());

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
