//===- Manifest.cpp - The kernel manifest (docs/manifest.md) --------------===//

#include "Manifest.h"
#include "Cubin.h"
#include "FileIO.h"
#include "Json.h"

#include <cerrno>
#include <cmath>
#include <numeric>

using namespace tilegen::run;
using json::Value;

static std::string quote(const std::string &S) { return json::quoteForMessage(S); }

const char *tilegen::run::layoutName(Layout L) {
  return L == Layout::Row ? "row" : "col";
}

const char *tilegen::run::dimName(Dim D) {
  return D == Dim::M ? "M" : D == Dim::N ? "N" : "K";
}

const char *tilegen::run::tensorName(Tensor T) {
  switch (T) {
  case Tensor::A:
    return "A";
  case Tensor::B:
    return "B";
  case Tensor::C:
    return "C";
  case Tensor::D:
    return "D";
  case Tensor::ScaleA:
    return "scale_a";
  case Tensor::ScaleB:
    return "scale_b";
  }
  return "?";
}

bool NVTarget::parse(const std::string &S, NVTarget &T) {
  if (S.size() < 5 || S.compare(0, 3, "sm_") != 0)
    return false;
  size_t I = 3;
  std::string Digits;
  while (I < S.size() && S[I] >= '0' && S[I] <= '9')
    Digits += S[I++];
  if (Digits.size() < 2 || Digits.size() > 3 || Digits[0] == '0')
    return false;
  char Suffix = 0;
  if (I < S.size()) {
    if (I + 1 != S.size() || (S[I] != 'a' && S[I] != 'f'))
      return false;
    Suffix = S[I];
  }
  T.Major = static_cast<unsigned>(std::stoi(Digits.substr(0, Digits.size() - 1)));
  T.Minor = static_cast<unsigned>(Digits.back() - '0');
  T.Suffix = Suffix;
  T.Name = S;
  return true;
}

bool NVTarget::runsOn(int DevMajor, int DevMinor) const {
  if (static_cast<int>(Major) != DevMajor)
    return false;
  if (Suffix == 'a' || Major == 9)
    return static_cast<int>(Minor) == DevMinor;
  return static_cast<int>(Minor) <= DevMinor;
}

unsigned Param::size() const {
  switch (Kind) {
  case ParamKind::Ptr:
  case ParamKind::Scratch:
    return 8;
  case ParamKind::I32:
  case ParamKind::F32:
    return 4;
  case ParamKind::TensorMap:
    return 128;
  }
  return 0;
}

unsigned Param::alignment() const {
  return Kind == ParamKind::TensorMap ? 64 : size();
}

std::string Problem::str() const {
  return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

namespace {

/// Reads typed fields out of the manifest's JSON, naming the file and the
/// dotted field path in every error.
class FieldReader {
public:
  explicit FieldReader(const std::string &Path) : Path(Path) {}

  Error error(const std::string &Field, const std::string &Msg) const {
    return usageError("manifest " + Path + ": field '" + Field + "': " + Msg);
  }

  Error expected(const std::string &Field, const std::string &What,
                 const Value &Found) const {
    return error(Field, "expected " + What + ", found " + describe(Found));
  }

  static std::string describe(const Value &V) {
    if (V.isString())
      return quote(V.getString());
    if (V.isNumber())
      return V.numberText();
    if (V.isBool())
      return V.getBool() ? "true" : "false";
    return V.kindName();
  }

  Error missing(const std::string &Field) const {
    return usageError("manifest " + Path + ": missing field '" + Field + "'");
  }

  Error member(const Value &Obj, const std::string &ObjField,
               const std::string &Key, const Value *&Out) const {
    std::string Field = ObjField.empty() ? Key : ObjField + "." + Key;
    Out = Obj.get(Key);
    if (!Out)
      return usageError("manifest " + Path + ": missing field '" + Field + "'");
    return Error::success();
  }

  static std::string join(const std::string &Obj, const std::string &Key) {
    return Obj.empty() ? Key : Obj + "." + Key;
  }

  Error getObject(const Value &Obj, const std::string &ObjField,
                  const std::string &Key, const Value *&Out) const {
    TG_TRY(member(Obj, ObjField, Key, Out));
    if (!Out->isObject())
      return expected(join(ObjField, Key), "an object", *Out);
    return Error::success();
  }

  Error getString(const Value &Obj, const std::string &ObjField,
                  const std::string &Key, std::string &Out) const {
    const Value *V;
    TG_TRY(member(Obj, ObjField, Key, V));
    if (!V->isString())
      return expected(join(ObjField, Key), "a string", *V);
    Out = V->getString();
    return Error::success();
  }

  Error checkInt(const Value &V, const std::string &Field, int64_t Min,
                 int64_t Max, int64_t &Out) const {
    std::string What = "an integer in [" + std::to_string(Min) + ", " +
                       std::to_string(Max) + "]";
    if (!V.isInteger() || V.getInteger() < Min || V.getInteger() > Max)
      return expected(Field, What, V);
    Out = V.getInteger();
    return Error::success();
  }

  Error getInt(const Value &Obj, const std::string &ObjField,
               const std::string &Key, int64_t Min, int64_t Max,
               int64_t &Out) const {
    const Value *V;
    TG_TRY(member(Obj, ObjField, Key, V));
    return checkInt(*V, join(ObjField, Key), Min, Max, Out);
  }

  /// A number the kernel can take as an f32 parameter: finite, and at most
  /// kMaxF32Scalar in magnitude (it rounds to a finite f32).
  Error getF32(const Value &Obj, const std::string &ObjField,
               const std::string &Key, double &Out) const {
    const Value *V;
    TG_TRY(member(Obj, ObjField, Key, V));
    if (!V->isNumber() || !std::isfinite(V->getNumber()) ||
        std::fabs(V->getNumber()) > kMaxF32Scalar)
      return expected(join(ObjField, Key),
                      "a number in the range of f32 (|x| <= 3.4028235e38)", *V);
    Out = V->getNumber();
    return Error::success();
  }

  /// A string that names something (a kernel, a file, a parameter): not empty,
  /// and without NUL or other control characters, which C APIs and terminals
  /// would cut or garble.
  Error getName(const Value &Obj, const std::string &ObjField,
                const std::string &Key, const std::string &What,
                std::string &Out) const {
    TG_TRY(getString(Obj, ObjField, Key, Out));
    if (Out.empty())
      return error(join(ObjField, Key), "expected " + What + ", found \"\"");
    if (json::holdsControlCharacter(Out))
      return error(join(ObjField, Key),
                   "expected " + What + ", found " + quote(Out) +
                       ", which holds a control character");
    return Error::success();
  }

  Error getArray(const Value &Obj, const std::string &ObjField,
                 const std::string &Key, const Value *&Out) const {
    TG_TRY(member(Obj, ObjField, Key, Out));
    if (!Out->isArray())
      return expected(join(ObjField, Key), "an array", *Out);
    return Error::success();
  }

  /// An array of exactly three integers in [1, Max].
  Error getDim3(const Value &Obj, const std::string &Key, int64_t Max,
                std::array<unsigned, 3> &Out) const {
    const Value *V;
    TG_TRY(member(Obj, "", Key, V));
    if (!V->isArray() || V->getArray().size() != 3)
      return expected(Key, "an array of 3 positive integers", *V);
    for (unsigned I = 0; I < 3; ++I) {
      int64_t X;
      TG_TRY(checkInt(V->getArray()[I], Key + "[" + std::to_string(I) + "]", 1,
                      Max, X));
      Out[I] = static_cast<unsigned>(X);
    }
    return Error::success();
  }

private:
  const std::string &Path;
};

bool parseDimName(const std::string &S, Dim &D) {
  if (S == "M")
    D = Dim::M;
  else if (S == "N")
    D = Dim::N;
  else if (S == "K")
    D = Dim::K;
  else
    return false;
  return true;
}

bool parseTensorName(const std::string &S, Tensor &T) {
  if (S == "A")
    T = Tensor::A;
  else if (S == "B")
    T = Tensor::B;
  else if (S == "C")
    T = Tensor::C;
  else if (S == "D")
    T = Tensor::D;
  else if (S == "scale_a")
    T = Tensor::ScaleA;
  else if (S == "scale_b")
    T = Tensor::ScaleB;
  else
    return false;
  return true;
}

/// The dims of tensor T in memory order, innermost first.
std::vector<Dim> memoryDims(Tensor T, Layout L) {
  Dim Rows = T == Tensor::B ? Dim::K : Dim::M;
  Dim Cols = T == Tensor::A ? Dim::K : Dim::N;
  if (L == Layout::Row)
    return {Cols, Rows};
  return {Rows, Cols};
}

std::string dimList(const std::vector<Dim> &Dims) {
  std::string S = "[";
  for (size_t I = 0; I < Dims.size(); ++I)
    S += std::string(I ? ", " : "") + "\"" + dimName(Dims[I]) + "\"";
  return S + "]";
}

const char *const ElemTypeList =
    "\"bf16\", \"f16\", \"tf32\", \"f32\", \"e4m3\" or \"e5m2\"";

Error readScale(const FieldReader &R, const Value &O, const std::string &Field,
                const char *Key, OperandInfo &Out) {
  const Value *S = O.get("scale");
  if (!S)
    return Error::success();
  std::string SField = Field + ".scale";
  if (std::string(Key) == "c")
    return R.error(SField, "C and D take no scale (only fp8 operands a and b "
                           "have one)");
  if (!isFp8(Out.Type) && Out.Type != ElemType::E2M1)
    return R.error(SField, std::string("a scale needs an fp8 operand (\"e4m3\" "
                                       "or \"e5m2\") or an e2m1 one, but operand ") +
                               Key + " is \"" + elemTypeName(Out.Type) + "\"");
  if (!S->isObject())
    return R.expected(SField, "an object", *S);
  std::string Type, Gran;
  TG_TRY(R.getString(*S, SField, "type", Type));
  // MXFP4, NVFP4: E8M0 scales per 1 x 32 or E4M3 per 1 x 16; MXFP8: E8M0 per 1 x 32 (the
  // blocks are checked below, after they are read).
  if (Out.Type == ElemType::E2M1 && Type != "e8m0" && Type != "e4m3")
    return R.error(SField + ".type",
                   "not supported yet: " + quote(Type) + " scales of an e2m1 operand "
                       "(tilegen-run runs MXFP4 and NVFP4, e2m1 with \"e8m0\" scales per 1 x "
                       "32 or \"e4m3\" scales per 1 x 16)");
  if (Type == "e4m3" && Out.Type != ElemType::E2M1)
    return R.error(SField + ".type",
                   std::string("not supported yet: \"e4m3\" block scales of an ") +
                       elemTypeName(Out.Type) +
                       " operand (tilegen-run runs e4m3 scales of e2m1 operands only: NVFP4)");
  Out.Scale.E8M0 = Type == "e8m0";
  Out.Scale.E4M3 = Type == "e4m3";
  if (Type != "f32" && !Out.Scale.blockScaled())
    return R.error(SField + ".type",
                   "expected \"f32\" (scales are 32-bit floats), found " + quote(Type));
  TG_TRY(R.getString(*S, SField, "granularity", Gran));
  const Value *Block = S->get("block");
  if (Gran == "tensor") {
    Out.Scale.Gran = ScaleGranularity::Tensor;
    if (Block)
      return R.error(SField + ".block", "a per-tensor scale has no block "
                                        "(only granularity \"block\" does)");
    return Error::success();
  }
  if (Gran != "block")
    return R.error(SField + ".granularity",
                   "expected \"tensor\" or \"block\", found " + quote(Gran));
  Out.Scale.Gran = ScaleGranularity::Block;
  const char *Outer = std::string(Key) == "a" ? "M" : "N";
  if (!Block)
    return R.missing(SField + ".block");
  if (!Block->isArray() || Block->getArray().size() != 2)
    return R.expected(SField + ".block",
                      std::string("an array [") + Outer +
                          " rows, K elements] of 2 positive integers",
                      *Block);
  TG_TRY(R.checkInt(Block->getArray()[0], SField + ".block[0]", 1, INT32_MAX,
                    Out.Scale.BlockOuter));
  TG_TRY(R.checkInt(Block->getArray()[1], SField + ".block[1]", 1, INT32_MAX,
                    Out.Scale.BlockK));
  if (Out.Scale.E8M0 && (Out.Scale.BlockOuter != 1 || Out.Scale.BlockK != 32))
    return R.error(SField + ".block",
                   "e8m0 scales cover 1 x 32 elements (OCP MX), found [" +
                       std::to_string(Out.Scale.BlockOuter) + ", " +
                       std::to_string(Out.Scale.BlockK) + "]");
  if (Out.Scale.E4M3 && (Out.Scale.BlockOuter != 1 || Out.Scale.BlockK != 16))
    return R.error(SField + ".block",
                   "e4m3 scales cover 1 x 16 elements (NVFP4), found [" +
                       std::to_string(Out.Scale.BlockOuter) + ", " +
                       std::to_string(Out.Scale.BlockK) + "]");
  return Error::success();
}

Error readOperand(const FieldReader &R, const Value &Ops, const char *Key,
                  OperandInfo &Out) {
  const Value *O;
  TG_TRY(R.getObject(Ops, "operands", Key, O));
  std::string Field = std::string("operands.") + Key;
  std::string Type, Lay;
  TG_TRY(R.getString(*O, Field, "type", Type));
  tilegen::mx::Format Narrow;
  if (!parseElemType(Type, Out.Type) && tilegen::mx::parseFormat(Type, Narrow) &&
      Narrow != tilegen::mx::Format::E8M0)
    return R.error(Field + ".type",
                   "not supported yet: block-scaled operand type " + quote(Type) +
                       " (tilegen-run generates such inputs, but runs only e2m1 (MXFP4) "
                       "block-scaled operands)");
  if (!parseElemType(Type, Out.Type))
    return R.error(Field + ".type", std::string("expected ") + ElemTypeList +
                                        ", found " + quote(Type));
  if ((Out.Type == ElemType::TF32 || isFp8(Out.Type) || Out.Type == ElemType::E2M1) &&
      std::string(Key) == "c")
    return R.error(Field + ".type", Type + " is an input type; C and D are "
                                           "\"bf16\", \"f16\" or \"f32\"");
  TG_TRY(R.getString(*O, Field, "layout", Lay));
  if (Lay == "row")
    Out.Lay = Layout::Row;
  else if (Lay == "col")
    Out.Lay = Layout::Col;
  else
    return R.error(Field + ".layout",
                   "expected \"row\" or \"col\", found " + quote(Lay));
  TG_TRY(readScale(R, *O, Field, Key, Out));
  if (Out.Type == ElemType::E2M1 && !Out.Scale.blockScaled())
    return R.error(Field + ".scale",
                   std::string("not supported yet: operand ") + Key +
                       " is e2m1 without e8m0 block scales (FP4 of kind::f8f6f4, loaded in "
                       "padded form); tilegen-run runs e2m1 only with e8m0 block scales");
  return Error::success();
}

Error readParam(const FieldReader &R, const Value &V, unsigned Index,
                const Manifest &M, Param &P) {
  std::string Field = "params[" + std::to_string(Index) + "]";
  if (!V.isObject())
    return R.expected(Field, "an object", V);
  TG_TRY(R.getName(V, Field, "name", "a parameter name", P.Name));
  std::string Kind;
  TG_TRY(R.getString(V, Field, "kind", Kind));
  auto readTensor = [&]() -> Error {
    std::string T;
    TG_TRY(R.getString(V, Field, "tensor", T));
    if (T == "scale_a_tensor")
      return R.error(Field + ".tensor",
                     "not supported yet: \"scale_a_tensor\", NVFP4's per-tensor f32 of A "
                     "(tilegen-run runs NVFP4 on B only)");
    if (T == "scale_b_tensor") {
      if (Kind != "ptr")
        return R.error(Field + ".kind", "\"scale_b_tensor\" is passed by a \"ptr\" parameter");
      P.Tens = Tensor::ScaleB;
      P.SecondLevel = true;
      return Error::success();
    }
    if (!parseTensorName(T, P.Tens))
      return R.error(Field + ".tensor", "expected \"A\", \"B\", \"C\", \"D\", "
                                        "\"scale_a\" or \"scale_b\", found " + quote(T));
    if (Kind == "tensormap" &&
        (P.Tens == Tensor::ScaleA || P.Tens == Tensor::ScaleB))
      return R.error(Field + ".tensor",
                     "not supported yet: \"" + T + "\" through a tensor map (the 128 x 4 "
                     "scale-atom layout of the native block-scaled kernels, which "
                     "tilegen-run does not generate); scale tensors are \"ptr\" parameters");
    return Error::success();
  };
  if (Kind == "ptr") {
    P.Kind = ParamKind::Ptr;
    return readTensor();
  }
  if (Kind == "scratch") {
    P.Kind = ParamKind::Scratch;
    int64_t Bytes;
    TG_TRY(R.getInt(V, Field, "bytes_per_cta", 1, int64_t(1) << 32, Bytes));
    P.BytesPerCta = static_cast<uint64_t>(Bytes);
    const Value *Z = V.get("zero");
    if (Z && !Z->isBool())
      return R.expected(Field + ".zero", "true or false", *Z);
    P.Zero = Z && Z->getBool();
    return Error::success();
  }
  if (Kind == "i32") {
    P.Kind = ParamKind::I32;
    TG_TRY(R.getString(V, Field, "value", P.ValueName));
    Dim D;
    if (!parseDimName(P.ValueName, D))
      return R.error(Field + ".value", "expected \"M\", \"N\" or \"K\" for an "
                                       "i32 parameter, found " + quote(P.ValueName));
    return Error::success();
  }
  if (Kind == "f32") {
    P.Kind = ParamKind::F32;
    TG_TRY(R.getString(V, Field, "value", P.ValueName));
    if (P.ValueName != "alpha" && P.ValueName != "beta")
      return R.error(Field + ".value", "expected \"alpha\" or \"beta\" for an "
                                       "f32 parameter, found " + quote(P.ValueName));
    return Error::success();
  }
  if (Kind != "tensormap")
    return R.error(Field + ".kind", "expected \"ptr\", \"i32\", \"f32\", \"tensormap\" or "
                                    "\"scratch\", found " + quote(Kind));

  P.Kind = ParamKind::TensorMap;
  TG_TRY(readTensor());
  std::string Elem;
  TG_TRY(R.getString(V, Field, "elem", Elem));
  if (!parseElemType(Elem, P.Elem))
    return R.error(Field + ".elem", std::string("expected ") + ElemTypeList +
                                        ", found " + quote(Elem));
  // The padded 6- and 4-bit forms (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B)
  // of .kind::f8f6f4 kernels (sm_120a, the sm_100a family).
  if (const Value *Form = V.get("smem_form"))
    return R.error(Field + ".smem_form",
                   "not supported yet: tensor maps of the padded form " +
                       (Form->isString() ? quote(Form->getString()) : std::string("?")) +
                       " (16 packed 4- or 6-bit elements per 16 bytes of shared memory); "
                       "tilegen-run encodes byte and 16-/32-bit tensor maps only");
  const OperandInfo &Op = M.operand(P.Tens);
  if (P.Elem != Op.Type)
    return R.error(Field + ".elem",
                   "\"" + Elem + "\" does not match tensor " +
                       tensorName(P.Tens) + "'s type \"" +
                       elemTypeName(Op.Type) + "\" (operands)");

  const Value *Dims;
  TG_TRY(R.getArray(V, Field, "dims", Dims));
  std::vector<Dim> Want = memoryDims(P.Tens, Op.Lay);
  for (size_t I = 0; I < Dims->getArray().size(); ++I) {
    const Value &D = Dims->getArray()[I];
    Dim X;
    if (!D.isString() || !parseDimName(D.getString(), X))
      return R.expected(Field + ".dims[" + std::to_string(I) + "]",
                        "\"M\", \"N\" or \"K\"", D);
    P.Dims.push_back(X);
  }
  if (P.Dims != Want)
    return R.error(Field + ".dims",
                   dimList(P.Dims) + " does not match tensor " +
                       tensorName(P.Tens) + " with layout \"" +
                       layoutName(Op.Lay) + "\": expected " + dimList(Want) +
                       " (innermost first)");

  const Value *Box;
  TG_TRY(R.getArray(V, Field, "box", Box));
  if (Box->getArray().size() != P.Dims.size())
    return R.error(Field + ".box",
                   "expected " + std::to_string(P.Dims.size()) +
                       " entries (one per dim), found " +
                       std::to_string(Box->getArray().size()));
  for (size_t I = 0; I < Box->getArray().size(); ++I) {
    int64_t B;
    TG_TRY(R.checkInt(Box->getArray()[I],
                      Field + ".box[" + std::to_string(I) + "]", 1, 256, B));
    P.Box.push_back(static_cast<uint32_t>(B));
  }
  unsigned InnerBytes = P.Box[0] * elemBits(P.Elem) / 8;
  if (P.Box[0] * elemBits(P.Elem) % 128 != 0)
    return R.error(Field + ".box[0]",
                   std::to_string(P.Box[0]) + " x " +
                       std::to_string(elemBits(P.Elem)) + " bits = " +
                       std::to_string(InnerBytes) +
                       " bytes is not a multiple of 16 (TMA needs the inner "
                       "box extent in 16-byte units)");

  int64_t Swizzle, L2;
  TG_TRY(R.getInt(V, Field, "swizzle", 0, 128, Swizzle));
  if (Swizzle != 0 && Swizzle != 32 && Swizzle != 64 && Swizzle != 128)
    return R.error(Field + ".swizzle", "expected 0, 32, 64 or 128, found " +
                                           std::to_string(Swizzle));
  P.Swizzle = static_cast<unsigned>(Swizzle);
  if (P.Swizzle && InnerBytes > P.Swizzle)
    return R.error(Field + ".box[0]",
                   "inner box extent " + std::to_string(InnerBytes) +
                       " bytes exceeds the swizzle span of " +
                       std::to_string(P.Swizzle) + " bytes");
  TG_TRY(R.getInt(V, Field, "l2_promotion", 0, 256, L2));
  if (L2 != 0 && L2 != 64 && L2 != 128 && L2 != 256)
    return R.error(Field + ".l2_promotion",
                   "expected 0, 64, 128 or 256, found " + std::to_string(L2));
  P.L2Promotion = static_cast<unsigned>(L2);
  std::string Oob;
  TG_TRY(R.getString(V, Field, "oob_fill", Oob));
  if (Oob != "zero" && Oob != "nan")
    return R.error(Field + ".oob_fill",
                   "expected \"zero\" or \"nan\", found " + quote(Oob));
  P.OobNan = Oob == "nan";
  // cuTensorMapEncodeTiled takes the NaN fill only for floating-point data, and
  // fp8 tensors are mapped as bytes (UINT8).
  if (P.OobNan && (isFp8(P.Elem) || P.Elem == ElemType::E2M1))
    return R.error(Field + ".oob_fill",
                   "\"nan\" needs a floating-point tensor map, but " +
                       std::string(elemTypeName(P.Elem)) +
                       " tensors are mapped as bytes (CU_TENSOR_MAP_DATA_TYPE_UINT8); "
                       "use \"zero\"");
  return Error::success();
}

} // namespace

Error tilegen::run::parseManifest(const std::string &Text,
                                  const std::string &Path, Manifest &M) {
  if (Text.size() > MaxManifestBytes)
    return usageError("manifest " + Path + " is " + std::to_string(Text.size()) + " bytes (" +
                      byteSizeText(Text.size()) + "), more than the " +
                      byteSizeText(MaxManifestBytes) + " a manifest may have");
  Value Root;
  std::string JsonErr;
  if (!json::parse(Text, Root, JsonErr))
    return usageError("manifest " + Path + ":" + JsonErr);
  FieldReader R(Path);
  if (!Root.isObject())
    return usageError("manifest " + Path + ": expected a JSON object, found " +
                      Root.kindName());

  std::string Format;
  TG_TRY(R.getString(Root, "", "format", Format));
  if (Format != "tilegen-manifest")
    return R.error("format", "expected \"tilegen-manifest\", found " + quote(Format));
  int64_t Version;
  TG_TRY(R.getInt(Root, "", "version", 1, INT32_MAX, Version));
  if (Version != 1)
    return R.error("version", "this tilegen-run reads version 1, found " +
                                  std::to_string(Version));
  M.Version = static_cast<int>(Version);
  TG_TRY(R.getString(Root, "", "tilegen_version", M.TilegenVersion));
  TG_TRY(R.getName(Root, "", "kernel", "the kernel's entry symbol", M.Kernel));
  TG_TRY(R.getName(Root, "", "cubin", "the cubin's file name", M.CubinName));
  // A file name in the manifest's folder (tilegen writes the name alone): no folder part, so
  // that a manifest cannot point a loader at a file elsewhere.
  if (M.CubinName.find('/') != std::string::npos || M.CubinName == "." ||
      M.CubinName == "..")
    return R.error("cubin", "expected the cubin's file name in the manifest's folder, found " +
                                quote(M.CubinName) + ", which names a folder too");
  std::string Target;
  TG_TRY(R.getString(Root, "", "target", Target));
  if (!NVTarget::parse(Target, M.Target))
    return R.error("target", "expected a target like \"sm_90a\" or "
                             "\"sm_120\", found " + quote(Target));

  TG_TRY(R.getDim3(Root, "block", 1024, M.Block));
  if (uint64_t(M.Block[0]) * M.Block[1] * M.Block[2] > 1024)
    return R.error("block", "a CTA has at most 1024 threads, found " +
                                std::to_string(uint64_t(M.Block[0]) *
                                               M.Block[1] * M.Block[2]));
  TG_TRY(R.getDim3(Root, "cluster", 16, M.Cluster));
  if (M.Cluster[1] != 1 || M.Cluster[2] != 1)
    return R.error("cluster", "the grid is 1-D, so only [x, 1, 1] clusters "
                              "can be launched, found [" +
                                  std::to_string(M.Cluster[0]) + ", " +
                                  std::to_string(M.Cluster[1]) + ", " +
                                  std::to_string(M.Cluster[2]) + "]");
  int64_t Smem;
  TG_TRY(R.getInt(Root, "", "dynamic_smem", 0, INT32_MAX, Smem));
  M.DynamicSmem = static_cast<uint64_t>(Smem);

  const Value *Grid;
  TG_TRY(R.getObject(Root, "", "grid", Grid));
  std::string Rule;
  TG_TRY(R.getString(*Grid, "grid", "rule", Rule));
  if (Rule == "tiles")
    M.Rule = GridRule::Tiles;
  else if (Rule == "persistent")
    M.Rule = GridRule::Persistent;
  else if (Rule == "stream_k")
    M.Rule = GridRule::StreamK;
  else
    return R.error("grid.rule", "expected \"tiles\", \"persistent\" or \"stream_k\", "
                                "found " + quote(Rule));
  int64_t X;
  TG_TRY(R.getInt(*Grid, "grid", "tile_m", 1, INT32_MAX, X));
  M.TileM = static_cast<unsigned>(X);
  TG_TRY(R.getInt(*Grid, "grid", "tile_n", 1, INT32_MAX, X));
  M.TileN = static_cast<unsigned>(X);
  // No NVIDIA GPU keeps more than 32 CTAs resident on one SM.
  TG_TRY(R.getInt(*Grid, "grid", "ctas_per_sm", 1, 32, X));
  M.CtasPerSM = static_cast<unsigned>(X);
  // Optional: the tiles a cluster takes at a time, covering its CTAs.
  M.ClusterTiles = {M.clusterSize(), 1};
  if (const Value *CT = Grid->get("cluster_tiles")) {
    if (!CT->isArray() || CT->getArray().size() != 2)
      return R.expected("grid.cluster_tiles", "an array of 2 positive integers", *CT);
    int64_t TX, TY;
    TG_TRY(R.checkInt(CT->getArray()[0], "grid.cluster_tiles[0]", 1, 16, TX));
    TG_TRY(R.checkInt(CT->getArray()[1], "grid.cluster_tiles[1]", 1, 16, TY));
    if (uint64_t(TX) * uint64_t(TY) != M.clusterSize())
      return R.error("grid.cluster_tiles",
                     "[" + std::to_string(TX) + ", " + std::to_string(TY) +
                         "] tiles do not match the cluster's " +
                         std::to_string(M.clusterSize()) + " CTAs (one tile each)");
    M.ClusterTiles = {unsigned(TX), unsigned(TY)};
  }

  const Value *Ops;
  TG_TRY(R.getObject(Root, "", "operands", Ops));
  TG_TRY(readOperand(R, *Ops, "a", M.A));
  TG_TRY(readOperand(R, *Ops, "b", M.B));
  TG_TRY(readOperand(R, *Ops, "c", M.C));
  if (isFp8(M.A.Type) != isFp8(M.B.Type)) {
    bool AIs = isFp8(M.A.Type);
    // kind::f8f6f4 and its block-scaled form pair an fp8 operand with a 6- or 4-bit one; the
    // native kernels that do are real, the runner only cannot launch them yet.
    ElemType Other = AIs ? M.B.Type : M.A.Type;
    if (Other == ElemType::E2M1)
      return R.error(AIs ? "operands.b.type" : "operands.a.type",
                     std::string("not supported yet: \"e2m1\" beside an fp8 operand ") +
                         (AIs ? "a" : "b") + " (\"" +
                         elemTypeName(AIs ? M.A.Type : M.B.Type) +
                         "\"), the mixed operands of kind::f8f6f4; tilegen-run runs fp8 "
                         "operands in pairs and e2m1 beside bf16");
    return R.error(AIs ? "operands.b.type" : "operands.a.type",
                   std::string("\"") + elemTypeName(AIs ? M.B.Type : M.A.Type) +
                       "\" with an fp8 operand " + (AIs ? "a" : "b") + " (\"" +
                       elemTypeName(AIs ? M.A.Type : M.B.Type) +
                       "\"): A and B are both fp8 (e4m3 or e5m2) or neither");
  }
  // One MMA applies one kind of scale: block scales of a block-scaled format on both scaled
  // operands, or f32 scales on both.
  if (M.A.Scale.present() && M.B.Scale.present() &&
      M.A.Scale.blockScaled() != M.B.Scale.blockScaled()) {
    bool ABlock = M.A.Scale.blockScaled();
    const ScaleInfo &Blk = ABlock ? M.A.Scale : M.B.Scale;
    return R.error(ABlock ? "operands.b.scale.type" : "operands.a.scale.type",
                   std::string("\"f32\" scales of operand ") + (ABlock ? "b" : "a") +
                       " beside \"" + (Blk.E8M0 ? "e8m0" : "e4m3") +
                       "\" block scales of operand " + (ABlock ? "a" : "b") +
                       ": give both operands block scales of one format, or both f32 scales");
  }
  std::string Acc;
  TG_TRY(R.getString(*Ops, "operands", "accumulator", Acc));
  if (Acc != "f32")
    return R.error("operands.accumulator",
                   "expected \"f32\" (the only accumulator tilegen-run checks "
                   "against), found " + quote(Acc));
  // FP8 kernels say how the tensor core's partial sums reach the f32 accumulators: "promoted"
  // (added in f32 every K block) or "fast" (the tensor core accumulates all of K); the
  // cuBLASLt baseline is timed with the same choice (CUBLASLT_MATMUL_DESC_FAST_ACCUM).
  if (Ops->get("accumulation")) {
    std::string How;
    TG_TRY(R.getString(*Ops, "operands", "accumulation", How));
    if (!isFp8(M.A.Type))
      return R.error("operands.accumulation",
                     "only fp8 kernels name their accumulation, but operand a is \"" +
                         std::string(elemTypeName(M.A.Type)) + "\"");
    if (How != "fast" && How != "promoted")
      return R.error("operands.accumulation",
                     "expected \"fast\" or \"promoted\", found " + quote(How));
    M.FastAccumulation = How == "fast";
  }

  const Value *Epi;
  TG_TRY(R.getObject(Root, "", "epilogue", Epi));
  TG_TRY(R.getF32(*Epi, "epilogue", "alpha", M.Alpha));
  TG_TRY(R.getF32(*Epi, "epilogue", "beta", M.Beta));

  const Value *Cons;
  TG_TRY(R.getArray(Root, "", "constraints", Cons));
  for (size_t I = 0; I < Cons->getArray().size(); ++I) {
    const Value &C = Cons->getArray()[I];
    std::string Field = "constraints[" + std::to_string(I) + "]";
    if (!C.isObject())
      return R.expected(Field, "an object", C);
    Constraint Con;
    std::string DimStr;
    TG_TRY(R.getString(C, Field, "dim", DimStr));
    if (!parseDimName(DimStr, Con.D))
      return R.error(Field + ".dim", "expected \"M\", \"N\" or \"K\", found " + quote(DimStr));
    TG_TRY(R.getInt(C, Field, "multiple", 1, INT32_MAX, Con.Multiple));
    TG_TRY(R.getString(C, Field, "reason", Con.Reason));
    M.Constraints.push_back(std::move(Con));
  }

  const Value *Params;
  TG_TRY(R.getArray(Root, "", "params", Params));
  if (Params->getArray().empty())
    return R.error("params", "expected at least one kernel parameter");
  // The parameter space of a launch: 32764 bytes (CUDA 12.1 and later on
  // sm_70 and newer), each parameter at its alignment.
  uint64_t ParamBytes = 0;
  for (size_t I = 0; I < Params->getArray().size(); ++I) {
    Param P;
    TG_TRY(readParam(R, Params->getArray()[I], static_cast<unsigned>(I), M, P));
    ParamBytes = (ParamBytes + P.alignment() - 1) / P.alignment() * P.alignment() + P.size();
    if (ParamBytes > MaxParamBytes)
      return R.error("params[" + std::to_string(I) + "]",
                     "the parameters up to this one take " + std::to_string(ParamBytes) +
                         " bytes, more than the " + std::to_string(MaxParamBytes) +
                         " bytes a kernel launch can pass");
    M.Params.push_back(std::move(P));
  }
  // A tensor map moves boxes of one CTA's tile: along M and N a box is at
  // most the tile.
  for (size_t I = 0; I < M.Params.size(); ++I) {
    const Param &P = M.Params[I];
    if (P.Kind != ParamKind::TensorMap)
      continue;
    for (size_t J = 0; J < P.Dims.size(); ++J) {
      if (P.Dims[J] == Dim::K)
        continue;
      const bool IsM = P.Dims[J] == Dim::M;
      const unsigned Tile = IsM ? M.TileM : M.TileN;
      if (P.Box[J] > Tile)
        return R.error("params[" + std::to_string(I) + "].box[" + std::to_string(J) + "]",
                       std::to_string(P.Box[J]) + " elements along " + dimName(P.Dims[J]) +
                           " exceed the tile (grid." + (IsM ? "tile_m" : "tile_n") + " = " +
                           std::to_string(Tile) + "): a box holds at most one tile");
    }
  }
  // The kernel reads A and B and writes D through a ptr or tensormap parameter.
  for (Tensor T : {Tensor::A, Tensor::B, Tensor::D}) {
    bool Passed = false;
    for (const Param &P : M.Params)
      Passed |= (P.Kind == ParamKind::Ptr || P.Kind == ParamKind::TensorMap) && P.Tens == T;
    if (!Passed)
      return R.error("params", std::string("no parameter passes tensor ") + tensorName(T) +
                                   ": expected a \"ptr\" or \"tensormap\" parameter with "
                                   "\"tensor\": \"" + tensorName(T) + "\"");
  }
  // Each scaled operand has exactly the ptr parameter that passes its scales.
  for (Tensor Op : {Tensor::A, Tensor::B}) {
    const bool IsA = Op == Tensor::A;
    const Tensor ST = IsA ? Tensor::ScaleA : Tensor::ScaleB;
    const std::string OpField = IsA ? "operands.a.scale" : "operands.b.scale";
    const char *SName = IsA ? "scale_a" : "scale_b";
    int Found = -1;
    for (size_t I = 0; I < M.Params.size(); ++I) {
      const Param &P = M.Params[I];
      if (P.Kind != ParamKind::Ptr || P.Tens != ST)
        continue;
      if (P.SecondLevel) {
        std::string PField = "params[" + std::to_string(I) + "].tensor";
        if (!M.B.Scale.E4M3)
          return R.error(PField, "\"scale_b_tensor\" is NVFP4's per-tensor f32, but operand "
                                 "b has no e4m3 block scales (field 'operands.b.scale')");
        if (M.B.Scale.SecondLevel)
          return R.error(PField, "\"scale_b_tensor\" is passed twice");
        M.B.Scale.SecondLevel = true;
        continue;
      }
      std::string PField = "params[" + std::to_string(I) + "].tensor";
      if (!M.operand(Op).Scale.present())
        return R.error(PField, std::string("\"") + SName +
                                   "\" passes the scales of operand " +
                                   (IsA ? "a" : "b") + ", but field '" +
                                   OpField + "' is absent");
      if (Found >= 0)
        return R.error(PField, std::string("\"") + SName +
                                   "\" is already passed by params[" +
                                   std::to_string(Found) + "]");
      Found = static_cast<int>(I);
    }
    if (M.operand(Op).Scale.present() && Found < 0)
      return R.error(OpField, std::string("operand ") + (IsA ? "a" : "b") +
                                  " has a scale, but no field 'params[i]' "
                                  "passes it: expected {\"kind\": \"ptr\", "
                                  "\"tensor\": \"" + SName + "\"}");
  }
  TG_TRY(R.getString(Root, "", "description", M.Description));
  return Error::success();
}

static bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

Error tilegen::run::loadManifest(const std::string &Arg, Manifest &M) {
  std::string Dir;
  size_t Slash = Arg.rfind('/');
  if (Slash != std::string::npos)
    Dir = Arg.substr(0, Slash + 1);
  bool ArgIsManifest = endsWith(Arg, ".json");
  std::string ManifestPath = Arg;
  if (!ArgIsManifest) {
    size_t Dot = Arg.rfind('.');
    std::string Stem = Dot != std::string::npos &&
                               (Slash == std::string::npos || Dot > Slash)
                           ? Arg.substr(0, Dot)
                           : Arg;
    ManifestPath = Stem + ".json";
  }
  std::string Text;
  int OpenErrno = 0;
  if (Error E = readInputFile(ManifestPath, "manifest", MaxManifestBytes,
                              /*RegularOnly=*/true, Text, &OpenErrno)) {
    if (ArgIsManifest || OpenErrno != ENOENT)
      return std::move(E).withKind(ErrorKind::Io);
    return usageError(E.message() + " (tilegen writes it beside " + Arg +
                          ", with the same stem)")
        .withKind(ErrorKind::Io);
  }
  M.Path = ManifestPath;
  TG_TRY(parseManifest(Text, ManifestPath, M).withKind(ErrorKind::Manifest));
  M.CubinPath = ArgIsManifest ? Dir + M.CubinName : Arg;
  TG_TRY(readInputFile(M.CubinPath, "cubin", MaxCubinBytes, /*RegularOnly=*/true,
                       M.CubinImage)
             .withKind(ErrorKind::Io));
  return checkCubinImage(M.CubinImage, M.CubinPath, M.Target.Name)
      .withKind(ErrorKind::Cubin);
}

uint64_t tilegen::run::tensorElems(Tensor T, const Problem &P) {
  switch (T) {
  case Tensor::A:
    return uint64_t(P.M) * uint64_t(P.K);
  case Tensor::B:
    return uint64_t(P.K) * uint64_t(P.N);
  default:
    return uint64_t(P.M) * uint64_t(P.N);
  }
}

void tilegen::run::tensorShape(Tensor T, const Problem &P, const Manifest &Man,
                               int64_t &Rows, int64_t &Cols, int64_t &Ld) {
  Rows = T == Tensor::B ? P.K : P.M;
  Cols = T == Tensor::A ? P.K : P.N;
  Ld = Man.operand(T).Lay == Layout::Row ? Cols : Rows;
}

static int64_t dimValue(Dim D, const Problem &P) {
  return D == Dim::M ? P.M : D == Dim::N ? P.N : P.K;
}

Error tilegen::run::checkProblem(const Manifest &Man, const Problem &P) {
  for (Dim D : {Dim::M, Dim::N, Dim::K}) {
    int64_t V = dimValue(D, P);
    if (V < 1 || V > INT32_MAX)
      return usageError(std::string("problem size ") + dimName(D) + " = " +
                        std::to_string(V) + " is out of range: expected 1 .. " +
                        std::to_string(INT32_MAX) +
                        " (the kernel takes it as i32)");
  }
  // The kernel numbers output tiles with 32-bit integers, and a 1-D grid has at
  // most 2^31 - 1 CTAs (the "tiles" rule launches one per tile, rounded up to
  // the cluster size).
  const uint64_t Tiles = tileCount(Man, P);
  const uint64_t Cl = Man.Cluster[0] ? Man.Cluster[0] : 1;
  const uint64_t TilesGrid = (Tiles + Cl - 1) / Cl * Cl;
  if (Tiles > uint64_t(INT32_MAX) ||
      (Man.Rule == GridRule::Tiles && TilesGrid > uint64_t(INT32_MAX)))
    return usageError("problem size " + P.str() + " has " + std::to_string(Tiles) +
                      " output tiles of " + std::to_string(Man.TileM) + " x " +
                      std::to_string(Man.TileN) + ", more than " +
                      std::to_string(INT32_MAX) +
                      " (the kernel numbers tiles with 32-bit integers, and a grid "
                      "has at most 2^31 - 1 CTAs)");
  for (const Constraint &C : Man.Constraints) {
    int64_t V = dimValue(C.D, P);
    if (V % C.Multiple != 0)
      return usageError(std::string("problem size ") + dimName(C.D) + " = " +
                        std::to_string(V) + " breaks a constraint of kernel " +
                        Man.Kernel + ": " + dimName(C.D) +
                        " must be a multiple of " + std::to_string(C.Multiple) +
                        " (" + C.Reason + ")");
  }
  for (Tensor T : {Tensor::A, Tensor::B, Tensor::C}) {
    uint64_t Bytes;
    if (!storageBytes(Man.operand(T).Type, tensorElems(T, P), Bytes))
      return usageError("problem size " + P.str() + ": tensor " + tensorName(T) +
                        " needs more than 2^64 bytes");
  }
  for (Tensor T : {Tensor::A, Tensor::B}) {
    uint64_t Bytes;
    if (!scaleTensorBytes(Man, T, P, Bytes))
      return usageError("problem size " + P.str() + ": the scale tensor of " +
                        tensorName(T) + " needs more than 2^64 bytes");
  }
  for (size_t I = 0; I < Man.Params.size(); ++I) {
    const Param &Pa = Man.Params[I];
    if (Pa.Kind != ParamKind::TensorMap)
      continue;
    // cuTensorMapEncodeTiled: every global dim at most 2^32, every stride a
    // multiple of 16 below 2^40. With M, N, K below 2^31 and 4-byte elements
    // at most, only the multiple of 16 can fail, but the limits are checked
    // as the driver states them.
    for (Dim D : Pa.Dims)
      if (uint64_t(dimValue(D, P)) > (uint64_t(1) << 32))
        return usageError(std::string("problem size ") + dimName(D) + " = " +
                          std::to_string(dimValue(D, P)) + " is too large for param '" +
                          Pa.Name + "': a tensor map dim is at most 2^32");
    // Rank 2: the one global stride is the extent of the inner dim in bytes.
    Dim Inner = Pa.Dims[0];
    int64_t Stride = dimValue(Inner, P) * int64_t(elemBits(Pa.Elem)) / 8;
    if (uint64_t(Stride) >= (uint64_t(1) << 40))
      return usageError(std::string("problem size ") + dimName(Inner) + " = " +
                        std::to_string(dimValue(Inner, P)) + " gives param '" + Pa.Name +
                        "' a stride of " + std::to_string(Stride) +
                        " bytes; a tensor map stride is below 2^40 bytes");
    if (Stride % 16 != 0)
      return usageError(
          std::string("problem size ") + dimName(Inner) + " = " +
          std::to_string(dimValue(Inner, P)) +
          " breaks the alignment TMA needs for param '" + Pa.Name + "' (" +
          tensorName(Pa.Tens) + ", " + elemTypeName(Pa.Elem) + ", " +
          layoutName(Man.operand(Pa.Tens).Lay) + " layout): its stride " +
          dimName(Inner) +
          (elemBits(Pa.Elem) % 8 == 0 ? " x " + std::to_string(elemBits(Pa.Elem) / 8) + " bytes"
                                      : " / " + std::to_string(8 / elemBits(Pa.Elem))) +
          " = " +
          std::to_string(Stride) + " bytes is not a multiple of 16; " +
          dimName(Inner) + " must be a multiple of " +
          std::to_string(128 / elemBits(Pa.Elem)));
  }
  return Error::success();
}

Error tilegen::run::paddedProblem(const Manifest &Man, const Problem &P, Problem &Out) {
  Out = P;
  int64_t Step[3] = {1, 1, 1}; // M, N, K
  auto require = [&](Dim D, int64_t Multiple) {
    int64_t &S = Step[static_cast<int>(D)];
    S = std::lcm(S, Multiple);
  };
  for (const Constraint &C : Man.Constraints)
    require(C.D, C.Multiple);
  for (const Param &Pa : Man.Params)
    if (Pa.Kind == ParamKind::TensorMap)
      require(Pa.Dims[0], 128 / elemBits(Pa.Elem));
  bool Changes = false;
  for (Dim D : {Dim::M, Dim::N, Dim::K}) {
    int64_t V = dimValue(D, P), S = Step[static_cast<int>(D)];
    // Sizes beyond the kernels' 32 bits are checkProblem's to name (and rounding them up
    // could overflow).
    if (V < 1 || V > INT32_MAX || S > INT32_MAX)
      return Error::success();
    int64_t R = (V + S - 1) / S * S;
    if (R > INT32_MAX)
      return usageError(std::string("problem size ") + dimName(D) + " = " +
                        std::to_string(V) + " padded to a multiple of " + std::to_string(S) +
                        " for kernel " + Man.Kernel + " is " + std::to_string(R) +
                        ", beyond the kernel's 32-bit sizes");
    Changes |= R != V;
    (D == Dim::M ? Out.M : D == Dim::N ? Out.N : Out.K) = R;
  }
  if (!Changes)
    return Error::success();
  for (Tensor T : {Tensor::A, Tensor::B})
    if (Man.operand(T).Type == ElemType::E2M1) {
      std::string Msg = "not supported yet: padding problem " + P.str() + " to " + Out.str() +
                        " for kernel " + Man.Kernel + ", whose " + tensorName(T) +
                        " is packed e2m1 (its padded copy is not written)";
      Out = P;
      return usageError(Msg);
    }
  for (Tensor T : {Tensor::A, Tensor::B})
    if (Man.operand(T).Scale.Gran == ScaleGranularity::Block && Out.K != P.K) {
      std::string Msg = std::string("kernel ") + Man.Kernel + " scales " + tensorName(T) +
                        " per block of K, so K = " + std::to_string(P.K) +
                        " cannot be padded to " + std::to_string(Out.K) +
                        " (the scale blocks would shift)";
      Out = P;
      return usageError(Msg);
    }
  return Error::success();
}

std::string tilegen::run::operandText(const OperandInfo &O) {
  std::string S = std::string(elemTypeName(O.Type)) + "/" + layoutName(O.Lay);
  if (O.Scale.Gran == ScaleGranularity::Tensor)
    S += "/scale=tensor";
  else if (O.Scale.Gran == ScaleGranularity::Block)
    S += "/scale=" + std::to_string(O.Scale.BlockOuter) + "x" +
         std::to_string(O.Scale.BlockK);
  return S;
}

std::string tilegen::run::describeInputs(const Manifest &Man,
                                         const InputDistribution &Dist) {
  std::string S = Dist.describe();
  if (Man.A.Scale.blockScaled() || Man.B.Scale.blockScaled())
    S += "; " + describeBlockScaled(Dist);
  else if (Man.A.Scale.present() || Man.B.Scale.present())
    S += "; " + describeScaledFp8(Dist);
  return S;
}

ScaledFp8 tilegen::run::scaledOperand(const Manifest &Man, Tensor Op,
                                      const Problem &P) {
  const OperandInfo &O = Man.operand(Op);
  ScaledFp8 S;
  S.Type = O.Type;
  S.Outer = Op == Tensor::A ? P.M : P.N;
  S.K = P.K;
  // A row and B col keep K contiguous.
  S.KContiguous = (Op == Tensor::A) == (O.Lay == Layout::Row);
  S.PerTensor = O.Scale.Gran != ScaleGranularity::Block;
  S.BlockOuter = O.Scale.BlockOuter;
  S.BlockK = O.Scale.BlockK;
  return S;
}

BlockScaledOperand tilegen::run::blockScaledOperand(const Manifest &Man, Tensor Op,
                                                    const Problem &P) {
  const OperandInfo &O = Man.operand(Op);
  BlockScaledOperand S;
  S.Elem = O.Type == ElemType::E4M3   ? tilegen::mx::Format::E4M3
           : O.Type == ElemType::E5M2 ? tilegen::mx::Format::E5M2
                                      : tilegen::mx::Format::E2M1;
  S.Scale = O.Scale.E4M3 ? tilegen::mx::Format::E4M3 : tilegen::mx::Format::E8M0;
  // NVFP4: the per-tensor f32 when the kernel takes one ("scale_b_tensor"), else 1.
  S.SecondLevel = O.Scale.SecondLevel;
  S.Outer = Op == Tensor::A ? P.M : P.N;
  S.K = P.K;
  S.Block = O.Scale.BlockK;
  S.KContiguous = (Op == Tensor::A) == (O.Lay == Layout::Row);
  return S;
}

bool tilegen::run::scaleTensorBytes(const Manifest &Man, Tensor Op,
                                    const Problem &P, uint64_t &Bytes) {
  const ScaleInfo &S = Man.operand(Op).Scale;
  Bytes = 0;
  if (!S.present())
    return true;
  if (S.Gran == ScaleGranularity::Tensor) {
    Bytes = 4;
    return true;
  }
  uint64_t Outer = uint64_t(Op == Tensor::A ? P.M : P.N);
  uint64_t OB = Outer / uint64_t(S.BlockOuter) + (Outer % uint64_t(S.BlockOuter) != 0);
  uint64_t KB = uint64_t(P.K) / uint64_t(S.BlockK) + (uint64_t(P.K) % uint64_t(S.BlockK) != 0);
  uint64_t Count;
  return !__builtin_mul_overflow(OB, KB, &Count) &&
         !__builtin_mul_overflow(Count, uint64_t(S.blockScaled() ? 1 : 4), &Bytes);
}

uint64_t tilegen::run::tileCount(const Manifest &Man, const Problem &P) {
  uint64_t TM = (uint64_t(P.M) + Man.TileM - 1) / Man.TileM;
  uint64_t TN = (uint64_t(P.N) + Man.TileN - 1) / Man.TileN;
  return TM * TN;
}

uint64_t tilegen::run::gridSize(const Manifest &Man, const Problem &P,
                                int SmCount) {
  uint64_t Tiles = tileCount(Man, P);
  uint64_t Cl = Man.Cluster[0];
  if (Man.Rule == GridRule::Tiles)
    return (Tiles + Cl - 1) / Cl * Cl;
  uint64_t X = uint64_t(SmCount) * Man.CtasPerSM;
  if (Man.Rule == GridRule::Persistent)
    X = std::min<uint64_t>(Tiles, X);
  X = X / Cl * Cl;
  return X < Cl ? Cl : X;
}
