/*===- tilegen/launch.h - Launch tilegen kernels from your own program ----===*
 *
 * libtilegen-launch: load a cubin and its manifest written by `tilegen`, check
 * a GEMM against the manifest's constraints, and launch it on a CUDA stream
 * with device pointers. The library loads the CUDA driver (libcuda.so.1) at
 * run time: neither it nor a program using it links the CUDA toolkit, and this
 * header needs no CUDA header.
 *
 *   tilegen_kernel *k;
 *   if (tilegen_kernel_load("gemm_bf16.cubin", &k) != TILEGEN_OK)
 *     fprintf(stderr, "%s\n", tilegen_last_error());
 *   tilegen_gemm_args args;
 *   tilegen_gemm_args_init(k, &args);          // alpha/beta from the manifest
 *   args.problem.m = M; args.problem.n = N; args.problem.k = K;
 *   args.a = dA; args.b = dB; args.d = dD;     // CUdeviceptr values
 *   if (tilegen_kernel_launch(k, &args, stream) != TILEGEN_OK)
 *     fprintf(stderr, "%s\n", tilegen_kernel_error(k));
 *   tilegen_kernel_destroy(k);
 *
 * Every function returns a status; none aborts or exits. The message of the
 * last failure is kept per thread (tilegen_last_error) and, for calls on a
 * kernel, in the kernel (tilegen_kernel_error). docs/launch.md has the rules.
 *
 * C99 and C++.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TILEGEN_LAUNCH_H
#define TILEGEN_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TILEGEN_LAUNCH_API
#else
#define TILEGEN_LAUNCH_API __attribute__((visibility("default")))
#endif

/* The version of this interface; tilegen_launch_api_version() returns the
 * library's. */
#define TILEGEN_LAUNCH_API_VERSION 2

/* cuda.h's CUstream is `struct CUstream_st *`; 0 is the legacy default stream. */
struct CUstream_st;

typedef enum tilegen_status {
  TILEGEN_OK = 0,
  TILEGEN_ERROR_INVALID_ARGUMENT = 1, /* a null handle or output pointer; an alpha or beta
                                         that is NaN, infinite or subnormal */
  TILEGEN_ERROR_IO = 2,               /* a file cannot be read */
  TILEGEN_ERROR_MANIFEST = 3,         /* the manifest is invalid or disagrees with the kernel */
  TILEGEN_ERROR_CUBIN = 4,            /* not a cubin, or the kernel is not in it */
  TILEGEN_ERROR_TARGET = 5,           /* the cubin cannot run on the context's GPU */
  TILEGEN_ERROR_PROBLEM = 6,          /* M, N, K break the kernel's constraints or limits */
  TILEGEN_ERROR_POINTER = 7,          /* a null, misaligned or unexpected pointer, a bad
                                         leading dimension, a missing workspace */
  TILEGEN_ERROR_NO_DRIVER = 8,        /* no CUDA driver or no GPU */
  TILEGEN_ERROR_NO_CONTEXT = 9,       /* no CUDA context is current on this thread */
  TILEGEN_ERROR_CUDA = 10,            /* a CUDA driver call failed */
  TILEGEN_ERROR_INTERNAL = 11         /* out of host memory, or a bug in the library */
} tilegen_status;

/* A kernel loaded into the CUDA context that was current when it was loaded. */
typedef struct tilegen_kernel tilegen_kernel;

/* The sizes of D = alpha * A x B + beta * C: A is m x k, B k x n, C and D
 * m x n, in the layouts of the manifest. A leading dimension (elements
 * between consecutive rows of a row-major tensor, columns of a column-major
 * one) of 0 means dense. */
typedef struct tilegen_problem {
  int64_t m, n, k;
  int64_t lda, ldb, ldc, ldd;
} tilegen_problem;

/* One GEMM: sizes, device pointers (CUdeviceptr values) and scalars. */
typedef struct tilegen_gemm_args {
  tilegen_problem problem;
  uint64_t a, b, c, d;       /* 16-byte aligned; c may be 0 when beta == 0 */
  uint64_t scale_a, scale_b; /* scales, only for kernels whose manifest has them: f32
                                or e8m0 bytes, 4-byte aligned, in the manifest's layout */
  uint64_t workspace;        /* tilegen_launch_config.workspace_bytes, when not 0 */
  float alpha, beta;
  uint64_t scale_b_tensor;   /* NVFP4's per-tensor f32 of B (4-byte aligned), only for
                                kernels whose info has has_scale_b_tensor */
} tilegen_gemm_args;

/* What the manifest says about a kernel. Strings belong to the kernel. */
typedef struct tilegen_kernel_info {
  const char *name;        /* the kernel's symbol */
  const char *target;      /* "sm_90a" */
  const char *a_type, *b_type, *c_type; /* "bf16", "f16", "f32", "tf32", "e4m3",
                                           "e5m2"; D has C's type */
  const char *a_layout, *b_layout, *c_layout; /* "row" or "col"; D has C's layout */
  const char *description; /* the tile.gemm description it was compiled from */
  unsigned block[3], cluster[3];
  unsigned tile_m, tile_n;
  uint64_t dynamic_smem;
  int has_scale_a, has_scale_b; /* the kernel takes scale_a / scale_b */
  int has_workspace;            /* the kernel takes a workspace (stream-K) */
  float alpha, beta;            /* the manifest's epilogue defaults */
  int has_scale_b_tensor;       /* the kernel takes scale_b_tensor (NVFP4's second level) */
} tilegen_kernel_info;

/* How a launch of one problem is shaped, as the manifest's rules give it. */
typedef struct tilegen_launch_config {
  uint64_t grid;              /* CTAs along x (the grid is 1-D) */
  unsigned block[3], cluster[3];
  uint64_t dynamic_smem;      /* bytes */
  uint64_t workspace_bytes;   /* device memory to pass as args.workspace; 0 if none */
  int workspace_zeroed;       /* the workspace must be zero before its first launch; the
                                 kernel leaves it zero when it finishes */
} tilegen_launch_config;

TILEGEN_LAUNCH_API int tilegen_launch_api_version(void);

/* "TILEGEN_ERROR_PROBLEM". */
TILEGEN_LAUNCH_API const char *tilegen_status_name(tilegen_status status);

/* The message of this thread's last failing call ("" if none). Valid until
 * the thread's next failing call. */
TILEGEN_LAUNCH_API const char *tilegen_last_error(void);

/* Loads a kernel into the current CUDA context from files: path is the
 * .cubin (its manifest is the .json beside it, with the same stem) or the
 * .json (its field "cubin" names the cubin, in the same folder). Checks the
 * manifest, the cubin, its target against the context's GPU and the
 * parameter list against the kernel. */
TILEGEN_LAUNCH_API tilegen_status tilegen_kernel_load(const char *path, tilegen_kernel **out);

/* The same from memory: the manifest's JSON text and the cubin's bytes
 * (copied; the buffers may be freed on return). The manifest's field
 * "cubin" is not read. */
TILEGEN_LAUNCH_API tilegen_status tilegen_kernel_load_data(const char *manifest,
                                                           size_t manifest_size,
                                                           const void *cubin,
                                                           size_t cubin_size,
                                                           tilegen_kernel **out);

/* Unloads the module; null and a kernel destroyed already are ignored. Calls on
 * the kernel running in other threads finish first (destroy waits for them);
 * every later call refuses the destroyed kernel (TILEGEN_ERROR_INVALID_ARGUMENT),
 * and no later load returns its handle again. */
TILEGEN_LAUNCH_API void tilegen_kernel_destroy(tilegen_kernel *kernel);

/* The message of the last failing call on this kernel ("" if none): a copy, valid until this
 * thread's next call of tilegen_kernel_error. */
TILEGEN_LAUNCH_API const char *tilegen_kernel_error(const tilegen_kernel *kernel);

TILEGEN_LAUNCH_API tilegen_status tilegen_kernel_get_info(const tilegen_kernel *kernel,
                                                          tilegen_kernel_info *out);

/* Zeroes *args and sets alpha and beta to the manifest's defaults. */
TILEGEN_LAUNCH_API tilegen_status tilegen_gemm_args_init(const tilegen_kernel *kernel,
                                                         tilegen_gemm_args *args);

/* Checks the problem (sizes, constraints, 32-bit limits) and gives the grid,
 * block, cluster, shared memory and workspace of its launch. */
TILEGEN_LAUNCH_API tilegen_status tilegen_kernel_launch_config(tilegen_kernel *kernel,
                                                               const tilegen_problem *problem,
                                                               tilegen_launch_config *out);

/* The zero-padded problem this kernel runs in place of *problem when it does
 * not take those sizes as they are (N or K off the 16-byte strides of its
 * tensor maps, say): M, N and K rounded up to the least common multiple of the
 * kernel's constraints on each (leading dimensions 0: dense). Launch it on
 * buffers of the padded sizes whose extra rows and columns of A and B are zero
 * (they add nothing to the product), with C copied in when beta != 0, and copy
 * the first m x n of D back; tilegen-run --pad and the Python dispatch do so.
 * *out gets *problem's sizes when they need no padding. Fails with
 * TILEGEN_ERROR_PROBLEM when padding cannot help: block-scaled operands (the
 * padding would shift the scale blocks along K, or change the shape of A's
 * scales along M or B's along N) or a padded size beyond the kernel's limits. */
TILEGEN_LAUNCH_API tilegen_status tilegen_kernel_padded_problem(tilegen_kernel *kernel,
                                                                const tilegen_problem *problem,
                                                                tilegen_problem *out);
/* Every check of tilegen_kernel_launch, without launching: sizes, pointers,
 * leading dimensions, scales, workspace. */
TILEGEN_LAUNCH_API tilegen_status tilegen_kernel_check(tilegen_kernel *kernel,
                                                       const tilegen_gemm_args *args);

/* Checks args, builds the kernel's parameters (tensor maps included) and
 * launches it on stream, asynchronously. The stream must belong to the
 * context the kernel was loaded into. A failure of the kernel itself shows
 * at the next synchronisation, as for any CUDA launch. */
TILEGEN_LAUNCH_API tilegen_status tilegen_kernel_launch(tilegen_kernel *kernel,
                                                        const tilegen_gemm_args *args,
                                                        struct CUstream_st *stream);

/* OCP MX block quantisation into the layout tilegen's block-scaled kernels read
 * (docs/manifest.md, "Block-scaled operands"), with the rule tilegen-run's
 * generator uses. x is a rows x k matrix of doubles, row-major (k contiguous).
 * Each row is cut along k into blocks of 32 (the last one may be shorter); a
 * block gets the E8M0 scale X = 2^(floor(log2(amax)) - emax) (emax: 2 for e2m1
 * and e2m3, 4 for e3m2, 8 for e4m3, 15 for e5m2; X = 2^-127 for an all-zero
 * block; NaN elements do not count towards amax), and its elements the codes
 * of x / X rounded to nearest even and clamped to the format's largest finite
 * value. format: "e2m1" (MXFP4), "e4m3" or "e5m2" (MXFP8), "e2m3" or "e3m2"
 * (MXFP6).
 *   elements: the code of (r, c) at linear index i = r * k + c: one byte each
 *             (6-bit codes in the low bits), except e2m1, two per byte: index i
 *             in byte i / 2, bits [0, 4) for even i and [4, 8) for odd i
 *             (ceil(rows * k / 2) bytes);
 *   scales:   ceil(k / 32) x rows E8M0 codes, the scale of row r's block b at
 *             b * rows + r.
 * Fails with TILEGEN_ERROR_INVALID_ARGUMENT (and a message) on a null pointer,
 * an unknown format, or rows or k below 1 or too large for size_t. */
TILEGEN_LAUNCH_API tilegen_status tilegen_quantize_mx(const char *format, const double *x,
                                                      int64_t rows, int64_t k,
                                                      uint8_t *elements, uint8_t *scales);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILEGEN_LAUNCH_H */
