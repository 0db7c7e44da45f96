//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILEGEN_DIALECT_TILE_TILEOPS_TD
#define TILEGEN_DIALECT_TILE_TILEOPS_TD

include "TileDialect.td"
include "TileAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"

//===----------------------------------------------------------------------===//
// Level 1: the description
//===----------------------------------------------------------------------===//

def Tile_GemmOp : Tile_Op<"gemm", [Symbol]> {
  let summary = "a GEMM pipeline description: D = alpha * A x B + beta * C";
  let description = [{
    One GEMM kernel, described by its pipeline. A is M x K, B is K x N, C and D are M x N; M, N
    and K are run-time values. Every field is written `name = value` inside braces; fields left
    out take the defaults shown below, and the printer always prints every field. The last column
    says which targets accept which values (`tile-check-target` rejects the rest, naming the
    field, the value, the target and the reason); the operand types are the four listed: f32
    operands would need a TF32 MMA, which tilegen does not have yet, and are rejected.

    | field | values | default | meaning | targets |
    |---|---|---|---|---|
    | `a`, `b` | `bf16 row`, `f16 col`, `f8E4M3FN row`, `f8E5M2 col`, `f6E2M3FN col`, `f6E3M2FN col`, `f4E2M1FN col` | required | operand element type and layout (`row`: the second index is contiguous); A and B share a type, except that the narrow formats (FP8, FP6, FP4) mix, and that with `upcast` a bf16 operand takes a narrow one | bf16, f16: every target. FP8: sm_89 and newer (mma.sync on sm_89, sm_90, sm_120, sm_120a; wgmma on sm_90a; tcgen05 on sm_100a, sm_103a), not sm_80, sm_86. `a = col` or `b = row`: bf16/f16 with mma.sync only. FP6, FP4 (with block scales): tcgen05 on sm_100a, sm_103a, mma.sync on sm_120a, `upcast` on sm_90a. f32 (TF32) operands: none yet |
    | `c` | `bf16 row`, `f16 row`, `f32 row` | required | type and layout of C and D | every target; `row` only (`col`: not supported yet) |
    | `accumulator` | `f32` | `f32` | accumulator element type | every target |
    | `scale_a`, `scale_b` | `f32 tensor`, `f32 [outer, k]` (each 1 to 2147483647); `f8E8M0FNU [1, 32]`; `f8E4M3FN [1, 16]`, optionally `* f32 tensor` | none | f32: FP8 operands only: one f32 scale per tensor, or per block of `outer` rows (M or N) by `k` elements of K; D = alpha * (scale_a A) x (scale_b B) + beta * C. `f8E8M0FNU [1, 32]`: OCP MX block scales, one power of two per 32 elements of K of each row, for FP8, FP6 and FP4 operands (MXFP8, MXFP6, MXFP4). `f8E4M3FN [1, 16] * f32 tensor`: NVFP4, one E4M3 per 16 elements of K of each row times one f32 per tensor, `f4E2M1FN` operands only. FP6 and FP4 operands need block scales; a bf16/f16 operand takes none; the tile's K is a multiple of the block | f32 per tensor: every target with FP8; f32 blocks: sm_90a (wgmma) only. E8M0/E4M3 blocks: block-scaled kinds (sm_100a, sm_103a tcgen05; sm_120a mma.sync) or `upcast` (sm_90a) |
    | `upcast` | `bf16` | none | block-scaled operands (MXFP8, MXFP4, NVFP4, and FP6) on a target without block-scaled MMA: the pipeline converts them, their block scales applied, to bf16 in shared memory and multiplies with the bf16 instruction; a 16-bit operand beside a narrow one (`a = bf16`, `b = f4E2M1FN`) must be of this type | sm_90a (wgmma); the sm_100a family and sm_120a have native block-scaled kinds |
    | `promotion` | 1 to 2147483647 | the tile's K | FP8 with per-tensor scales and `accumulation = promoted` on wgmma: K elements the tensor core accumulates between two promotions (a multiple of the tile's K) | sm_90a (FP8 wgmma) |
    | `accumulation` | `promoted`, `fast` | `promoted` (FP8 only) | FP8 operands only: `promoted` adds each K block (the scale block with block scales, else one K-slice) from the tensor core into f32 accumulators in registers; `fast` lets the tensor core accumulate all of K (wgmma: reduced precision; per-tensor scales only; on mma.sync and tcgen05, which accumulate FP8 products in f32, it is accepted with a warning and recorded as `promoted`) | `fast` takes effect on sm_90a (wgmma); elsewhere a warning, recorded as `promoted` |
    | `tile` | `[M, N, K]`, each 1 to 4096 | required | CTA tile; K is the depth of one K-slice | mma.sync (every target): M and N split into warps of multiples of 16; wgmma (sm_90a): M a multiple of 64, N a multiple of 8 up to 256; tcgen05 (sm_100a, sm_103a): 128 rows per CTA. K a multiple of the MMA K (16 for bf16/f16, 32 for FP8) |
    | `stages` | 1 to 16 or `auto` | `auto` | depth of the shared-memory ring | the ring (plus, with TMA, its barriers and the epilogue's staging buffers) must fit one block's shared memory (on wgmma, a depth given here that does not fit with the epilogue's 128-byte staging columns narrows them to 64 or 32 bytes when that fits): 163 KB on sm_80; 99 KB on sm_86, sm_89, sm_120, sm_120a; 227 KB on sm_90, sm_90a, sm_100a, sm_103a. Multistage mma.sync needs 2 or more |
    | `accumulators` | 1 or 2 | 1 | accumulator buffers (2: the epilogue of one tile overlaps the MMA of the next) | 2: warp-specialised schedules only (wgmma on sm_90a, tcgen05 on sm_100a, sm_103a; mma.sync ping-pong on sm_90, sm_120, sm_120a: two groups of consumer warps take tiles in turn, each group's warps splitting a whole tile) |
    | `schedule` | `auto`, `multistage`, `warp_specialized` | `auto` | warp roles: every warp loads and multiplies, or producer / MMA / epilogue roles | `multistage` (mma.sync, cp.async): every target; `warp_specialized`: wgmma on sm_90a, tcgen05 on sm_100a, sm_103a, and mma.sync wherever TMA exists (sm_90, sm_120, sm_120a, and with `mma = [16, 8, k]` on sm_90a and the sm_100a family): one TMA producer warp, consumer warps issuing ldmatrix + mma.sync from the 128-byte-swizzled slots, a TMA-store epilogue; it takes K-major operands (`a = row`, `b = col`), `c = row`, 16-byte alignment, K-slice rows of 128 bytes (tile K = 64 for bf16/f16, 128 for FP8) and tiles of at most 256 rows per operand. `auto`: the target's newest instruction set (wgmma on sm_90a, tcgen05 on sm_100a, sm_103a, else mma.sync); for mma.sync on sm_90, sm_120, sm_120a the warp-specialised schedule when the description meets its rules and its ring, staging and registers fit, else `multistage`; `multistage` when `alignment` is below 16 bytes |
    | `copy` | `auto`, `cp_async`, `tma` | `auto` | global-to-shared copy engine | `cp_async`: mma.sync with `schedule = multistage` (every target); `tma`: wgmma, tcgen05 and mma.sync with `schedule = warp_specialized` |
    | `warps` | `[WM, WN]`, each 1 to 32 | derived | layout of the MMA warps over the CTA tile (mma.sync: warps; wgmma: `[c, 1]`, c consumer warpgroups, by default 2, or 1 when a cooperative tile's M is not a multiple of 128; tcgen05: `[1, 1]`) | mma.sync: any layout that splits the tile (warp-specialised: the consumer warps, by default 2 x 4 for tiles of 128 x 128 and more, 2 x 2 per group with `accumulators = 2`; their accumulators plus at least 40 registers, 88 for FP8 on sm_90, must fit what a thread has with one CTA per SM: 16384 registers per SM quarter shared by ceil(warps / 4) warps, e.g. 168 for 8 consumer warps and the producer warp); wgmma: `[1, 1]` or `[2, 1]`; tcgen05: `[1, 1]` |
    | `mma` | `[m, n, k]`, each 1 to 1024 | derived | MMA instruction shape | m16n8k16 (FP8: m16n8k32) mma.sync on every target; `[64, N, k]` wgmma on sm_90a; `[M, N, k]` tcgen05 on sm_100a, sm_103a; N (and tcgen05's M) equal to the tile's |
    | `cluster` | `[X, Y, Z]`, each 1 to 16 | `[1, 1, 1]` | thread-block cluster shape | 1 CTA on sm_80, sm_86, sm_89, sm_120, sm_120a (GeForce Blackwell pins clusters to 1x1x1) and with mma.sync; `[2, 1, 1]`, `[1, 2, 1]` and `[2, 2, 1]` on sm_90a (CTAs along M share B, along N share A: `multicast = b`, `a`, `ab`; launched as a one-dimensional cluster of X Y CTAs) and `[2, 1, 1]` on sm_100a, sm_103a (with `cta_group = 2`) |
    | `multicast` | `none`, `a`, `b`, `ab` | `none` | operands multicast by TMA across the cluster | on sm_90a the cluster's: `b` with `[2, 1, 1]`, `a` with `[1, 2, 1]`, `ab` with `[2, 2, 1]`; `none` elsewhere (sm_120, sm_120a have no TMA multicast) |
    | `cache_a`, `cache_b` | `normal`, `evict_first`, `evict_last` | `normal` | L2 eviction priority of the operand's TMA loads (`cp.async.bulk.tensor` with `.L2::cache_hint`, the policy made by `createpolicy.fractional` over all of the operand's lines): `evict_first` for an operand that is read once and would push reused lines out of L2 (the weights of a GEMM with few rows of activations), `evict_last` for one that is read again. A hint, not a guarantee: how the L2 uses it is the hardware's | TMA-fed pipelines: wgmma (sm_90a), tcgen05 (sm_100a, sm_103a) and warp-specialised mma.sync (sm_90, sm_120, sm_120a); not with `cp.async` copies |
    | `cta_group` | 1 or 2 | 1 | tcgen05 CTA pair (sm_100a family) | 2: sm_100a, sm_103a |
    | `grid` | `tiles`, `persistent`, `stream_k` | `tiles` | one CTA per output tile; one per SM looping over tiles; or one per SM, which loops over whole tiles as `persistent` does and splits the K-slices of the tiles left over the CTAs when they fill at most half a wave: with no full wave every tile in the same whole number of parts (two or more), after full waves evenly over the CTAs (partial tiles summed through a global workspace; cooperative wgmma only) | `tiles`, `persistent`: every target; `stream_k`: sm_90a (cooperative wgmma, one accumulator, no cluster) |
    | `raster` | `row`, `col` | `row` | order of output tiles | every target |
    | `swizzle` | 1 to 65536 | 8 | tiles grouped along the raster's minor axis for L2 reuse (a group larger than the grid is the whole grid) | every target |
    | `alpha`, `beta` | finite numbers up to 3.4028235e38 in magnitude (the f32 range): integers (`2`, `-1`) or floats (`0.5`, `1.0e-3`; MLIR needs the dot before an exponent) | 1.0, 0.0 | epilogue scalars (run-time parameters; these are defaults) | every target |
    | `alignment` | `x` or `[xa, xb]`: powers of two, in elements, at most 16 bytes each | 16 bytes (8 elements of bf16/f16, 16 of FP8) | operand alignment, as CUTLASS's AlignmentA/B: every row of A (B) starts at a multiple of `xa` (`xb`) elements, so the contiguous dimension of A (B) must be a multiple of it (K for `a = row`, M for `a = col`; K for `b = col`, N for `b = row`). `x` gives both. Below 16 bytes only `schedule = multistage` runs it: copies of `x` elements (`cp.async` of 4 or 8 bytes, predicated `ld.global` + `st.shared` of 1 or 2 bytes); 1 runs any M, N, K. C and D need none: the mma.sync epilogue checks N at run time | below 16 bytes: mma.sync only (`schedule = multistage`, every target) |
    | `target` | `"sm_90a"` ... | none | optional; `--target` overrides | sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_103a, sm_120, sm_120a |

    The name after `@` is the kernel's PTX entry name: a letter, then letters, digits, `_` and
    `$`, or `_`/`$` followed by at least one of those; at most 1024 characters; `WARP_SZ` (predefined in PTX)
    and names starting with `__tilegen` or `__cuda` are reserved. The bounds above are the description's own; what a target can
    run is narrower (shared memory, registers, instruction shapes) and is checked per target.
    `tilegen` refuses input nested more than 64 brackets deep before parsing it.

    Example:

    ```mlir
    tile.gemm @gemm_bf16 {
      a = bf16 row, b = bf16 col, c = bf16 row, accumulator = f32,
      tile = [128, 128, 32], stages = 4, schedule = multistage
    }
    ```
  }];

  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttr:$a_type, Tile_LayoutAttr:$a_layout,
    TypeAttr:$b_type, Tile_LayoutAttr:$b_layout,
    TypeAttr:$c_type, Tile_LayoutAttr:$c_layout,
    TypeAttr:$acc_type,
    OptionalAttr<Tile_ScaleAttr>:$scale_a,
    OptionalAttr<Tile_ScaleAttr>:$scale_b,
    OptionalAttr<Tile_AccumulationAttr>:$accumulation,
    OptionalAttr<TypeAttr>:$upcast,
    OptionalAttr<I64Attr>:$promotion,
    OptionalAttr<DenseI64ArrayAttr>:$alignment,
    DenseI64ArrayAttr:$tile,
    I64Attr:$stages,
    I64Attr:$accumulators,
    Tile_ScheduleAttr:$schedule,
    Tile_CopyAttr:$copy,
    DenseI64ArrayAttr:$warps,
    DenseI64ArrayAttr:$mma,
    DenseI64ArrayAttr:$cluster,
    Tile_MulticastAttr:$multicast,
    OptionalAttr<Tile_CacheHintAttr>:$cache_a,
    OptionalAttr<Tile_CacheHintAttr>:$cache_b,
    I64Attr:$cta_group,
    Tile_GridAttr:$grid,
    Tile_RasterAttr:$raster,
    I64Attr:$swizzle,
    F64Attr:$alpha,
    F64Attr:$beta,
    OptionalAttr<StrAttr>:$target
  );

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// `stages = auto` is stored as 0.
    bool hasAutoStages() { return getStages() == 0; }
    int64_t getTileM() { return getTile()[0]; }
    int64_t getTileN() { return getTile()[1]; }
    int64_t getTileK() { return getTile()[2]; }
    /// Alignment of A and B in elements: the field's values, or 16 bytes' worth when absent.
    int64_t getAlignmentA();
    /// The operand-type and scale rules of the verifier (TileOps.cpp).
    ::mlir::LogicalResult verifyOperandsAndScales();
    /// Whether the description uses a block-scaled format (E8M0 or E4M3 block scales).
    bool isBlockScaled() {
      return (getScaleAAttr() && getScaleAAttr().isMicroScaled()) ||
             (getScaleBAttr() && getScaleBAttr().isMicroScaled());
    }
    int64_t getAlignmentB();
  }];
}

//===----------------------------------------------------------------------===//
// Level 2: the pipeline plan
//===----------------------------------------------------------------------===//

def Tile_PipelineOp : Tile_Op<"pipeline",
    [Symbol, NoTerminator, SingleBlock, IsolatedFromAbove]> {
  let summary = "the target-independent pipeline of one GEMM kernel";
  let description = [{
    The expansion of a `tile.gemm` for one target: launch shape, shared-memory budget and, in its
    body, the ring (`tile.ring`), the accumulator buffers (`tile.accumulators`), the warp roles
    (`tile.role`), the loops over output tiles and K-slices (`tile.schedule`) and the epilogue
    (`tile.epilogue`). Target lowerings read only this op and its body, and trust it: the
    verifier checks the plan against the target and the MMA instruction table (the mma role's
    instruction exists, is offered by the target and issued at a legal shape; the ring carries
    its types in the majors it takes; slices, slots, barriers and epilogue buffers are the tile's
    and fit the target's shared memory). `description` keeps the text of the `tile.gemm` it came
    from, for the manifest.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$target,
                       DenseI64ArrayAttr:$block, DenseI64ArrayAttr:$cluster,
                       I64Attr:$smem_bytes, StrAttr:$description);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `target` $target `block` $block `cluster` $cluster `smem` $smem_bytes
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Tile_RingOp : Tile_Op<"ring", [HasParent<"PipelineOp">]> {
  let summary = "the S-slot shared-memory ring that carries K-slices of A and B";
  let description = [{
    `slots` stages of one K-slice each. Slot `s` holds the A slice (`a_shape` = rows x
    contiguous elements, in shared memory at `offset + s * slot_bytes`) followed by the B slice
    at `b_offset` within the slot. `sync` names the hand-off: `cp_async_groups` (every thread
    copies and waits on its own commit groups, then a CTA barrier) or `mbarrier_full_empty`
    (a full barrier with a transaction count and an empty barrier per slot, at
    `barrier_offset`). Slice g of the loop over K-slices lives in slot g mod slots; its phase
    is (g / slots) mod 2. `align [xa, xb]` (elements; absent: 16 bytes) is the alignment of
    rows of A and B in global memory, which sets the width of each copy: a ring with rows
    aligned to less than 16 bytes is filled by `cp.async` of 4 or 8 bytes or by `ld.global` +
    `st.shared` of 1 or 2 bytes (mma.sync only: TMA needs 16-byte strides).

    The sm_90a upcast: `upcast_scale_b` (the block scales of B) says that the ring carries B
    packed in its narrow type (`b_type`, e.g. f4E2M1FN) while the mma role issues bf16. The
    producer warpgroup's warps 1 to 3 (the converter) convert each slice, its scales applied,
    into a second ring of `convert_slots` bf16 slices of B at `convert_offset` (slice g in
    slot g mod `convert_slots`, each laid out as a bf16 ring slot's B), with its own full and
    empty barriers after the ring's; the mma role waits on the converted slot and releases
    both slots. `upcast_scale_a` (MXFP8 x MXFP8) says that A is carried narrow as well: each
    converted slot then holds the bf16 A slice (laid out as a bf16 ring slot's A) followed by
    the bf16 B slice, and the mma role reads both from it. Without `convert_offset` and
    `convert_slots` (packed FP4 B beside bf16 A only) there is no converter: the mma role loads
    its rows of B from the slot and converts them into wgmma's register operand, computing the
    tile transposed (B's rows on wgmma's M side, A's slice read from shared memory as wgmma's
    B; the mma role's instruction is then m64nMk16 with M the tile's M), and the epilogue
    transposes the accumulators back while staging D.

    `cache_a`, `cache_b` (absent: no hint): the L2 eviction priority the producer's TMA loads
    of A and B carry (`.L2::cache_hint` with a `createpolicy.fractional` policy).
  }];
  let arguments = (ins I64Attr:$slots, I64Attr:$slice_k,
                       TypeAttr:$a_type, Tile_LayoutAttr:$a_layout, DenseI64ArrayAttr:$a_shape,
                       TypeAttr:$b_type, Tile_LayoutAttr:$b_layout, DenseI64ArrayAttr:$b_shape,
                       I64Attr:$offset, I64Attr:$slot_bytes, I64Attr:$b_offset,
                       Tile_RingSyncAttr:$sync, I64Attr:$barrier_offset,
                       Tile_SmemSwizzleAttr:$swizzle,
                       OptionalAttr<DenseI64ArrayAttr>:$align,
                       OptionalAttr<Tile_ScaleAttr>:$upcast_scale_b,
                       OptionalAttr<I64Attr>:$convert_offset,
                       OptionalAttr<I64Attr>:$convert_slots,
                       OptionalAttr<Tile_ScaleAttr>:$upcast_scale_a,
                       OptionalAttr<Tile_CacheHintAttr>:$cache_a,
                       OptionalAttr<Tile_CacheHintAttr>:$cache_b);
  let assemblyFormat = [{
    `slots` $slots `slice_k` $slice_k
    `a` $a_shape $a_type custom<Keyword>($a_layout) `b` $b_shape $b_type custom<Keyword>($b_layout)
    (`align` $align^)? `sync` custom<Keyword>($sync) `swizzle` custom<Keyword>($swizzle)
    `offset` $offset `slot_bytes` $slot_bytes `b_offset` $b_offset `barriers` $barrier_offset
    attr-dict
  }];
}

def Tile_AccumulatorsOp : Tile_Op<"accumulators", [HasParent<"PipelineOp">]> {
  let summary = "the accumulator buffers of the MMA role";
  let description = [{
    `count` buffers of `shape` (one CTA's M x N: the tile's, or with cta_group = 2 the tile's
    M / 2 rows x N, the pair's other half in the other CTA) of `type`, held in `storage`
    (`registers` on mma.sync and wgmma, `tmem` on tcgen05). With two buffers the epilogue of
    tile t drains one while the MMA of tile t + 1 fills the other.
  }];
  let arguments = (ins I64Attr:$count, DenseI64ArrayAttr:$shape, TypeAttr:$type,
                       Tile_StorageAttr:$storage);
  let assemblyFormat = "$count `x` $shape $type `in` custom<Keyword>($storage) attr-dict";
}

def Tile_RoleOp : Tile_Op<"role", [HasParent<"PipelineOp">]> {
  let summary = "one warp role: which warps do it, with which instruction";
  let description = [{
    `kind` is `producer` (fills ring slots: TMA or cp.async, as the ring's `sync` says), `mma`
    (waits for a full slot, issues the MMAs, releases the slot) or `epilogue` (drains an
    accumulator buffer into D). `warps` is [first warp, count]; roles may share warps (the
    multistage schedule runs all three roles in every warp). The mma role, and only it, names
    its instruction with `issues`: a row of the MMA instruction table with the shape as the
    instruction encodes it (tcgen05 with cta_group 2: the pair's M) and the scales the kernel
    applies. `layout` is the arrangement of the mma role's warps over the tile; `regs` a register
    budget per thread (0: ptxas decides).
  }];
  let arguments = (ins Tile_RoleKindAttr:$kind, DenseI64ArrayAttr:$warps,
                       OptionalAttr<Tile_MmaInstrAttr>:$instr,
                       DenseI64ArrayAttr:$layout, I64Attr:$regs);
  let assemblyFormat = [{
    custom<Keyword>($kind) `warps` $warps (`issues` $instr^)? `layout` $layout `regs` $regs attr-dict
  }];
}

def Tile_ScheduleOp : Tile_Op<"schedule", [HasParent<"PipelineOp">]> {
  let summary = "the loops over output tiles and K-slices";
  let description = [{
    for each output tile (`grid = tiles`: tile = CTA index; `persistent`: tile = CTA index,
    CTA index + grid size, ...), in `raster` order with groups of `swizzle` tiles along the
    minor axis; for each K-slice of `slice_k` elements: the roles' steps. `tile` is the CTA tile
    [M, N].
  }];
  let arguments = (ins DenseI64ArrayAttr:$tile, I64Attr:$slice_k, Tile_GridAttr:$grid,
                       Tile_RasterAttr:$raster, I64Attr:$swizzle);
  let assemblyFormat = [{
    `tiles` $tile `slice_k` $slice_k `grid` custom<Keyword>($grid) `raster` custom<Keyword>($raster) `swizzle` $swizzle attr-dict
  }];
}

def Tile_EpilogueOp : Tile_Op<"epilogue", [HasParent<"PipelineOp">]> {
  let summary = "D = alpha * acc + beta * C, converted to the output type";
  let description = [{
    `alpha` and `beta` are the description's defaults; the kernel takes both as run-time
    parameters. `path` is `direct` (predicated stores from registers) or `smem_tma` (staged
    through `smem_bytes` of shared memory at `offset` and written by a TMA store).
  }];
  let arguments = (ins F64Attr:$alpha, F64Attr:$beta, TypeAttr:$out_type,
                       Tile_LayoutAttr:$out_layout, Tile_EpiloguePathAttr:$path,
                       I64Attr:$offset, I64Attr:$smem_bytes);
  let assemblyFormat = [{
    `alpha` $alpha `beta` $beta `out` $out_type custom<Keyword>($out_layout) `via` custom<Keyword>($path)
    `offset` $offset `bytes` $smem_bytes attr-dict
  }];
}

#endif // TILEGEN_DIALECT_TILE_TILEOPS_TD
