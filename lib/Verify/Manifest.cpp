//===- Manifest.cpp - the fields of a tilegen manifest the protocol checker reads ------===//
//
// docs/manifest.md is the format. Tensor maps give the bytes of one box (the transaction
// bytes of a TMA load or store); the description gives the CTA tile's K depth.
//
//===--------------------------------------------------------------------------------------===//

#include "tilegen/Support/JsonDepth.h"
#include "tilegen/Verify/Protocol.h"

#include "llvm/Support/JSON.h"

using namespace tilegen::verify;

static llvm::Error bad(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "manifest: " + msg);
}

/// Bits of one element as a tensor map stores it (packed: two e2m1 per byte).
static unsigned elemBits(llvm::StringRef t) {
  if (t == "bf16" || t == "f16")
    return 16;
  if (t == "f32" || t == "tf32")
    return 32;
  if (t == "e4m3" || t == "e5m2" || t == "s8" || t == "u8" || t == "e8m0")
    return 8;
  if (t == "e2m3" || t == "e3m2")
    return 6;
  if (t == "e2m1")
    return 4;
  return 0;
}

llvm::Expected<KernelConfig> tilegen::verify::readManifest(llvm::StringRef json) {
  auto parsed = tilegen::parseJsonBounded(json);
  if (!parsed)
    return bad("not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return bad("not a JSON object");
  KernelConfig c;
  auto str = [&](const llvm::json::Object *o, llvm::StringRef key,
                 std::string &out) -> llvm::Error {
    auto v = o->getString(key);
    if (!v)
      return bad("missing string field '" + key + "'");
    out = v->str();
    return llvm::Error::success();
  };
  if (auto e = str(root, "kernel", c.kernel))
    return std::move(e);
  if (auto e = str(root, "target", c.target))
    return std::move(e);
  for (auto [key, dst] : {std::pair<const char *, unsigned *>{"block", c.block},
                          {"cluster", c.cluster}}) {
    const llvm::json::Array *a = root->getArray(key);
    if (!a || a->size() != 3)
      return bad(llvm::Twine("field '") + key + "' must be an array of 3 integers");
    for (unsigned i = 0; i < 3; ++i) {
      auto v = (*a)[i].getAsInteger();
      if (!v || *v < 1 || *v > 1024)
        return bad(llvm::Twine("field '") + key + "' has a value outside [1, 1024]");
      dst[i] = unsigned(*v);
    }
  }
  auto smem = root->getInteger("dynamic_smem");
  if (!smem || *smem < 0 || *smem > (1 << 20))
    return bad("missing or invalid 'dynamic_smem'");
  c.dynamicSmem = unsigned(*smem);
  const llvm::json::Object *grid = root->getObject("grid");
  if (!grid)
    return bad("missing 'grid'");
  if (auto e = str(grid, "rule", c.gridRule))
    return std::move(e);
  auto tm = grid->getInteger("tile_m"), tn = grid->getInteger("tile_n"),
       cps = grid->getInteger("ctas_per_sm");
  if (!tm || !tn || *tm < 1 || *tn < 1 || *tm > 4096 || *tn > 4096)
    return bad("'grid' needs tile_m and tile_n");
  c.tileM = unsigned(*tm);
  c.tileN = unsigned(*tn);
  c.ctasPerSm = cps && *cps >= 1 && *cps <= 32 ? unsigned(*cps) : 1;
  if (const llvm::json::Object *ep = root->getObject("epilogue")) {
    if (auto a = ep->getNumber("alpha"))
      c.alpha = *a;
    if (auto b = ep->getNumber("beta"))
      c.beta = *b;
  }
  // The tile's K depth from the description: "tile = [M, N, K]".
  if (auto desc = root->getString("description")) {
    size_t at = desc->find("tile = [");
    if (at != llvm::StringRef::npos) {
      llvm::StringRef rest = desc->drop_front(at + 8);
      llvm::SmallVector<llvm::StringRef> parts;
      rest.take_until([](char ch) { return ch == ']'; }).split(parts, ',');
      unsigned kDepth = 0;
      if (parts.size() == 3 && !parts[2].trim().getAsInteger(10, kDepth) && kDepth <= 4096)
        c.tileK = kDepth;
    }
  }
  const llvm::json::Array *params = root->getArray("params");
  if (!params)
    return bad("missing 'params'");
  for (const llvm::json::Value &v : *params) {
    const llvm::json::Object *p = v.getAsObject();
    if (!p)
      return bad("a parameter is not an object");
    KernelConfig::Param prm;
    if (auto e = str(p, "name", prm.name))
      return std::move(e);
    if (auto e = str(p, "kind", prm.kind))
      return std::move(e);
    if (auto val = p->getString("value"))
      prm.value = val->str();
    if (prm.kind == "tensormap") {
      std::string elem;
      if (auto e = str(p, "elem", elem))
        return std::move(e);
      unsigned bits = elemBits(elem);
      const llvm::json::Array *box = p->getArray("box");
      if (!bits || !box || box->empty())
        return bad("tensor map '" + prm.name + "' needs 'elem' and 'box'");
      uint64_t count = 1;
      for (const llvm::json::Value &b : *box) {
        auto n = b.getAsInteger();
        if (!n || *n < 1 || *n > 256)
          return bad("tensor map '" + prm.name + "' has a box size outside [1, 256]");
        count *= uint64_t(*n);
      }
      if (count * bits % 8 != 0)
        return bad("tensor map '" + prm.name + "' has a box of a fractional number of bytes");
      prm.boxBytes = unsigned(count * bits / 8);
      // The padded forms (16U4_ALIGN16B, 16U6_ALIGN16B) write each 6- or 4-bit element into a
      // byte of shared memory; the load completes the packed bytes.
      if (auto form = p->getString("smem_form")) {
        if (*form != "16u4_align16b" && *form != "16u6_align16b")
          return bad("tensor map '" + prm.name + "' has an unknown smem_form '" + form->str() +
                     "'");
        if (bits != (*form == "16u4_align16b" ? 4u : 6u))
          return bad("tensor map '" + prm.name + "' has smem_form '" + form->str() +
                     "' for elements of " + std::to_string(bits) + " bits");
        prm.smemBytes = unsigned(count);
      }
    }
    c.params.push_back(prm);
  }
  return c;
}
