//===- Manifest.h - The kernel manifest (docs/manifest.md) ------*- C++ -*-===//
//
// Reads and validates `<kernel>.json`, and checks a problem size against it,
// all without touching the GPU: every mistake a manifest or a size can carry is
// reported before the driver is loaded.
//
// parseManifest and checkProblem are pure functions of their inputs: they never
// abort, whatever the text, and need only Json.cpp, Numeric.cpp, FileIO.cpp and
// Cubin.cpp besides this file (the static library tilegen-run-manifest).
//
//===----------------------------------------------------------------------===//

#ifndef TILEGEN_RUN_MANIFEST_H
#define TILEGEN_RUN_MANIFEST_H

#include "Error.h"
#include "Numeric.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilegen {
namespace run {

enum class Layout { Row, Col };
const char *layoutName(Layout L);

enum class Dim { M, N, K };
const char *dimName(Dim D);

/// The four tensors of D = alpha * A x B + beta * C, and the f32 scale
/// tensors of fp8 operands A and B ("scale_a", "scale_b").
enum class Tensor { A, B, C, D, ScaleA, ScaleB };
const char *tensorName(Tensor T);

/// The scale of an fp8 operand: none, one f32 for the whole tensor, or one
/// f32 per block of BlockOuter rows (M for A, N for B) by BlockK elements of K,
/// stored at kb * ceil(outer / BlockOuter) + ob (docs/manifest.md).
enum class ScaleGranularity { None, Tensor, Block };

struct ScaleInfo {
  ScaleGranularity Gran = ScaleGranularity::None;
  int64_t BlockOuter = 1, BlockK = 1; ///< Block only
  /// OCP MX E8M0 block scales (one byte each, 2^(code - 127)) of an e2m1 or fp8 operand
  /// (MXFP4, MXFP8); E4M3 block scales (one byte each) of an e2m1 operand (NVFP4); otherwise
  /// f32 scales.
  bool E8M0 = false, E4M3 = false;
  /// NVFP4: the kernel also takes the per-tensor f32 (a "ptr" parameter with tensor
  /// "scale_b_tensor", Param::SecondLevel).
  bool SecondLevel = false;
  bool present() const { return Gran != ScaleGranularity::None; }
  /// Block scales of a block-scaled format (one byte each), not f32 scales.
  bool blockScaled() const { return E8M0 || E4M3; }
};

struct OperandInfo {
  ElemType Type = ElemType::BF16;
  Layout Lay = Layout::Row;
  ScaleInfo Scale; ///< A and B only
};

/// A ptxas target such as sm_90a: major 9, minor 0, suffix 'a'.
struct NVTarget {
  unsigned Major = 0, Minor = 0;
  char Suffix = 0; ///< 0, 'a' or 'f'
  std::string Name;
  static bool parse(const std::string &S, NVTarget &T);
  /// Whether a cubin for this target runs on a GPU of compute capability
  /// Major.Minor: same major, and the same minor for 'a' targets, at most the
  /// device's minor otherwise (sm_90/sm_90a cubins run only on 9.0).
  bool runsOn(int DevMajor, int DevMinor) const;
};

struct Constraint {
  Dim D = Dim::M;
  int64_t Multiple = 1;
  std::string Reason;
};

enum class ParamKind { Ptr, I32, F32, TensorMap, Scratch };

struct Param {
  std::string Name;
  ParamKind Kind = ParamKind::Ptr;
  Tensor Tens = Tensor::A; ///< ptr, tensormap
  /// ptr "scale_b_tensor": NVFP4's per-tensor f32 of B (Tens is ScaleB), GemmArgs::ScaleBTensor.
  bool SecondLevel = false;
  /// i32: "M", "N" or "K"; f32: "alpha" or "beta".
  std::string ValueName;
  // tensormap only.
  ElemType Elem = ElemType::BF16;
  std::vector<Dim> Dims;     ///< innermost first
  std::vector<uint32_t> Box; ///< innermost first, elements
  unsigned Swizzle = 0;      ///< bytes: 0, 32, 64, 128
  unsigned L2Promotion = 0;  ///< bytes: 0, 64, 128, 256
  bool OobNan = false;       ///< oob_fill "nan" (else "zero")
  // scratch only: a global buffer of grid x BytesPerCta bytes the kernel keeps to itself
  // (stream-K partial tiles and their flags); zeroed once when Zero.
  uint64_t BytesPerCta = 0;
  bool Zero = false;

  /// Bytes this parameter takes in the kernel's parameter space.
  unsigned size() const;
  unsigned alignment() const;
};

/// tiles: one CTA per output tile; persistent: min(tiles, SMs x ctas_per_sm); stream_k: SMs x
/// ctas_per_sm whatever the tile count (the kernel splits the K loop of the tiles among them).
enum class GridRule { Tiles, Persistent, StreamK };

/// A manifest file is at most this large (real ones are a few KiB).
constexpr uint64_t MaxManifestBytes = uint64_t(4) << 20;
/// The parameter bytes one launch can pass (CUDA 12.1+, sm_70 and newer).
constexpr uint64_t MaxParamBytes = 32764;

struct Manifest {
  std::string Path;       ///< the manifest file
  std::string CubinPath;  ///< the cubin to load
  std::string CubinImage; ///< its bytes, read and checked by loadManifest
  int Version = 0;
  std::string TilegenVersion, Kernel, CubinName, Description;
  NVTarget Target;
  std::array<unsigned, 3> Block{}, Cluster{};
  uint64_t DynamicSmem = 0;
  GridRule Rule = GridRule::Tiles;
  unsigned TileM = 0, TileN = 0, CtasPerSM = 1;
  /// The tiles one cluster takes at a time along M and N (grid.cluster_tiles; without it
  /// [cluster size, 1]: a cluster along M).
  std::array<unsigned, 2> ClusterTiles{1, 1};
  OperandInfo A, B, C; ///< D has C's type and layout
  ElemType Accumulator = ElemType::F32;
  /// fp8 only: operands.accumulation is "fast" (the tensor core accumulates all of K), so the
  /// cuBLASLt baseline is timed with fast accumulation too.
  bool FastAccumulation = false;
  double Alpha = 1, Beta = 0;
  std::vector<Constraint> Constraints;
  std::vector<Param> Params;

  const OperandInfo &operand(Tensor T) const {
    return T == Tensor::A ? A : T == Tensor::B ? B : C;
  }
  /// Whether A and B are fp8 (they are both or neither).
  bool fp8() const { return isFp8(A.Type); }
  unsigned clusterSize() const { return Cluster[0] * Cluster[1] * Cluster[2]; }
};

/// Finds the manifest for the command-line argument (a .cubin, whose manifest
/// is the .json of the same stem, or the .json itself), reads it, and reads
/// and checks the cubin (Cubin.h) into CubinImage.
Error loadManifest(const std::string &Arg, Manifest &M);

/// Parses a manifest from text (at most MaxManifestBytes); Path is used in
/// messages. Checks each field and the fields against each other.
Error parseManifest(const std::string &Text, const std::string &Path,
                    Manifest &M);

struct Problem {
  int64_t M = 0, N = 0, K = 0;
  std::string str() const; ///< "MxNxK"
  bool operator==(const Problem &O) const { return M == O.M && N == O.N && K == O.K; }
  bool operator!=(const Problem &O) const { return !(*this == O); }
};

/// Checks sizes against the kernel's limits (M, N, K and the tile count are
/// 32-bit), the manifest's constraints and what its tensor maps need (16-byte
/// strides below 2^40, dims up to 2^32), naming the dim, value and reason.
Error checkProblem(const Manifest &Man, const Problem &P);

/// The zero-padded problem a kernel runs in place of P (--pad, and dispatch tables for sizes no
/// kernel takes as they are): each of M, N and K rounded up to the least common multiple of
/// the kernel's constraints on it, and to 16 bytes of every tensor-map operand whose stride it
/// is. Padding adds zero rows and columns to A and B (which leave the product unchanged) and
/// rows and columns of D that are dropped. Fails, naming the reason, for kernels whose inputs
/// cannot be padded (block scales index K in blocks the padding would shift) or when a padded
/// size is out of range; Out == P when the problem needs no padding.
Error paddedProblem(const Manifest &Man, const Problem &P, Problem &Out);

/// Rows and columns of tensor T, and its leading dimension in elements.
void tensorShape(Tensor T, const Problem &P, const Manifest &Man,
                 int64_t &Rows, int64_t &Cols, int64_t &Ld);
/// "e4m3/row", with the scale when there is one: "e4m3/row/scale=tensor",
/// "e4m3/row/scale=1x128".
std::string operandText(const OperandInfo &O);

/// The input distribution of this manifest's operands, for headers and rows.
std::string describeInputs(const Manifest &Man, const InputDistribution &Dist);

/// Elements in tensor T (dense; A, B, C or D).
uint64_t tensorElems(Tensor T, const Problem &P);

/// Operand Op (A or B) of a problem as the scaled fp8 generator sees it:
/// Outer x K with its layout and scale blocks.
ScaledFp8 scaledOperand(const Manifest &Man, Tensor Op, const Problem &P);
/// The e2m1 operand Op with its e8m0 scales (Scale.E8M0), for fillBlockScaled and
/// blockScaledValue.
BlockScaledOperand blockScaledOperand(const Manifest &Man, Tensor Op, const Problem &P);

/// Bytes of the f32 scale tensor of operand Op (A or B; 0 when it has no
/// scale), with checked arithmetic: false if it does not fit in 64 bits.
bool scaleTensorBytes(const Manifest &Man, Tensor Op, const Problem &P,
                      uint64_t &Bytes);

/// Output tiles: ceil(M/tile_m) * ceil(N/tile_n).
uint64_t tileCount(const Manifest &Man, const Problem &P);
/// The 1-D grid size from the manifest's rule (see docs/manifest.md).
uint64_t gridSize(const Manifest &Man, const Problem &P, int SmCount);

} // namespace run
} // namespace tilegen

#endif // TILEGEN_RUN_MANIFEST_H
