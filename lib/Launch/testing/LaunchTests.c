/*===- LaunchTests.c - libtilegen-launch's C API on the fake driver -------===*
 *
 * Test-only, C99 (so it also proves that tilegen/launch.h is C99). Runs the
 * C API against the runner's fake CUDA driver (TILEGEN_RUN_LIBCUDA, see
 * tools/tilegen-run/testing/FakeCuda.cpp) and prints one line per case:
 *
 *   CASE: STATUS_NAME: message
 *
 * for test/Launch/*.test to check with FileCheck.
 *
 *   tilegen-launch-tests nodriver RUNNER_INPUTS_DIR
 *   tilegen-launch-tests all RUNNER_INPUTS_DIR LAUNCH_INPUTS_DIR
 *
 * The fake "kernel" computes D on the host at launch time, so the launch case
 * also checks D.
 *
 *===----------------------------------------------------------------------===*/

#include "tilegen/launch.h"

#include <cuda.h>

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CUresult (*GetProcFn)(const char *, void **, int, cuuint64_t,
                              CUdriverProcAddressQueryResult *);

/* The fake driver's entry points this program calls itself. */
static CUresult (*pPrimaryCtxRetain)(CUcontext *, CUdevice);
static CUresult (*pCtxSetCurrent)(CUcontext);
static CUresult (*pMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*pMemFree)(CUdeviceptr);
static CUresult (*pMemcpyHtoD)(CUdeviceptr, const void *, size_t);
static CUresult (*pMemcpyDtoH)(void *, CUdeviceptr, size_t);

static int Failures = 0;

static void report(const char *Case, tilegen_status S) {
  printf("%s: %s: %s\n", Case, tilegen_status_name(S), S == TILEGEN_OK ? "" : tilegen_last_error());
}

static void expect(const char *Case, tilegen_status S, tilegen_status Want) {
  report(Case, S);
  if (S != Want) {
    printf("  FAILED: expected %s\n", tilegen_status_name(Want));
    ++Failures;
  }
}

static int resolve(void) {
  const char *Path = getenv("TILEGEN_RUN_LIBCUDA");
  void *Lib = Path ? dlopen(Path, RTLD_NOW | RTLD_LOCAL) : NULL;
  GetProcFn GetProc = Lib ? (GetProcFn)dlsym(Lib, "cuGetProcAddress_v2") : NULL;
  if (!GetProc) {
    printf("setup: cannot load the fake driver named by TILEGEN_RUN_LIBCUDA\n");
    return 0;
  }
  GetProc("cuDevicePrimaryCtxRetain", (void **)&pPrimaryCtxRetain, 12000, 0, NULL);
  GetProc("cuCtxSetCurrent", (void **)&pCtxSetCurrent, 12000, 0, NULL);
  GetProc("cuMemAlloc", (void **)&pMemAlloc, 12000, 0, NULL);
  GetProc("cuMemFree", (void **)&pMemFree, 12000, 0, NULL);
  GetProc("cuMemcpyHtoD", (void **)&pMemcpyHtoD, 12000, 0, NULL);
  GetProc("cuMemcpyDtoH", (void **)&pMemcpyDtoH, 12000, 0, NULL);
  return pPrimaryCtxRetain && pCtxSetCurrent && pMemAlloc && pMemFree && pMemcpyHtoD &&
         pMemcpyDtoH;
}

static char *readFile(const char *Dir, const char *Name, size_t *Size) {
  char Path[4096];
  FILE *F;
  char *Buf;
  long N;
  snprintf(Path, sizeof(Path), "%s/%s", Dir, Name);
  F = fopen(Path, "rb");
  if (!F)
    return NULL;
  fseek(F, 0, SEEK_END);
  N = ftell(F);
  fseek(F, 0, SEEK_SET);
  Buf = (char *)malloc((size_t)N + 1);
  if (Buf && fread(Buf, 1, (size_t)N, F) != (size_t)N) {
    free(Buf);
    Buf = NULL;
  }
  fclose(F);
  if (Buf) {
    Buf[N] = 0;
    *Size = (size_t)N;
  }
  return Buf;
}

static void path(char *Out, size_t Size, const char *Dir, const char *Name) {
  snprintf(Out, Size, "%s/%s", Dir, Name);
}

static uint16_t bf16(float F) {
  uint32_t Bits;
  memcpy(&Bits, &F, 4);
  return (uint16_t)(Bits >> 16);
}

static float fromBf16(uint16_t H) {
  uint32_t Bits = (uint32_t)H << 16;
  float F;
  memcpy(&F, &Bits, 4);
  return F;
}

/* Device buffers of the fake driver (host memory), 256-byte aligned. */
static CUdeviceptr alloc(size_t Bytes) {
  CUdeviceptr P = 0;
  if (pMemAlloc(&P, Bytes) != CUDA_SUCCESS)
    return 0;
  return P;
}

static void loadErrors(const char *Runner, const char *Launch) {
  char P[4096];
  tilegen_kernel *K = NULL;
  size_t MSize = 0, CSize = 0;
  char *Man, *Cubin;
  static const char Ptx[] = "//\n.version 8.7\n.target sm_90a\n.address_size 64\n";

  expect("null-out", tilegen_kernel_load("x.cubin", NULL), TILEGEN_ERROR_INVALID_ARGUMENT);
  expect("null-path", tilegen_kernel_load(NULL, &K), TILEGEN_ERROR_INVALID_ARGUMENT);
  path(P, sizeof(P), Runner, "does-not-exist.json");
  expect("missing-manifest", tilegen_kernel_load(P, &K), TILEGEN_ERROR_IO);
  path(P, sizeof(P), Runner, "lonely.cubin");
  expect("cubin-without-manifest", tilegen_kernel_load(P, &K), TILEGEN_ERROR_IO);
  path(P, sizeof(P), Runner, "missing-field.cubin");
  expect("missing-field", tilegen_kernel_load(P, &K), TILEGEN_ERROR_MANIFEST);
  path(P, sizeof(P), Runner, "wrong-type.cubin");
  expect("wrong-type", tilegen_kernel_load(P, &K), TILEGEN_ERROR_MANIFEST);
  path(P, sizeof(P), Runner, "fake-sm100a.cubin");
  expect("other-target", tilegen_kernel_load(P, &K), TILEGEN_ERROR_TARGET);
  path(P, sizeof(P), Runner, "fake-no-binary.cubin");
  expect("no-binary-for-gpu", tilegen_kernel_load(P, &K), TILEGEN_ERROR_TARGET);
  path(P, sizeof(P), Runner, "fake-kernel-missing.cubin");
  expect("kernel-not-in-cubin", tilegen_kernel_load(P, &K), TILEGEN_ERROR_CUBIN);

  Man = readFile(Runner, "fake-correct.json", &MSize);
  Cubin = readFile(Runner, "fake-correct.cubin", &CSize);
  if (!Man || !Cubin) {
    printf("setup: cannot read fake-correct.json/.cubin in %s\n", Runner);
    ++Failures;
    return;
  }
  expect("data-null", tilegen_kernel_load_data(NULL, 0, Cubin, CSize, &K),
         TILEGEN_ERROR_INVALID_ARGUMENT);
  expect("data-ptx", tilegen_kernel_load_data(Man, MSize, Ptx, sizeof(Ptx) - 1, &K),
         TILEGEN_ERROR_CUBIN);
  expect("data-truncated-json", tilegen_kernel_load_data(Man, MSize / 2, Cubin, CSize, &K),
         TILEGEN_ERROR_MANIFEST);
  expect("data-ok", tilegen_kernel_load_data(Man, MSize, Cubin, CSize, &K), TILEGEN_OK);
  tilegen_kernel_destroy(K);
  {
    /* A destroyed handle is refused, not read; destroying it again is ignored. */
    tilegen_kernel_info Info;
    expect("destroyed-info", tilegen_kernel_get_info(K, &Info),
           TILEGEN_ERROR_INVALID_ARGUMENT);
    printf("destroyed-error: '%s'\n", tilegen_kernel_error(K));
    tilegen_kernel_destroy(K);
  }
  K = NULL;
  (void)Launch;
  free(Man);
  free(Cubin);
}

static void problemErrors(tilegen_kernel *K) {
  tilegen_problem P;
  tilegen_launch_config C;
  memset(&P, 0, sizeof(P));
  P.m = 300, P.n = 200, P.k = 64;
  expect("config", tilegen_kernel_launch_config(K, &P, &C), TILEGEN_OK);
  printf("config: grid %llu, block %ux%ux%u, cluster %ux%ux%u, smem %llu, workspace %llu\n",
         (unsigned long long)C.grid, C.block[0], C.block[1], C.block[2], C.cluster[0],
         C.cluster[1], C.cluster[2], (unsigned long long)C.dynamic_smem,
         (unsigned long long)C.workspace_bytes);
  P.k = 12;
  expect("constraint", tilegen_kernel_launch_config(K, &P, &C), TILEGEN_ERROR_PROBLEM);
  P.k = 64, P.m = 0;
  expect("m-zero", tilegen_kernel_launch_config(K, &P, &C), TILEGEN_ERROR_PROBLEM);
  P.m = (int64_t)1 << 31;
  expect("m-above-i32", tilegen_kernel_launch_config(K, &P, &C), TILEGEN_ERROR_PROBLEM);
  P.m = 2147483647, P.n = 2147483647;
  expect("tiles-above-i32", tilegen_kernel_launch_config(K, &P, &C), TILEGEN_ERROR_PROBLEM);
  expect("config-null", tilegen_kernel_launch_config(K, NULL, &C),
         TILEGEN_ERROR_INVALID_ARGUMENT);
  printf("kernel-error: %s\n", tilegen_kernel_error(K));
  {
    tilegen_problem In, Out;
    memset(&In, 0, sizeof(In));
    In.m = 300, In.n = 200, In.k = 12;
    expect("padded", tilegen_kernel_padded_problem(K, &In, &Out), TILEGEN_OK);
    printf("padded: %lldx%lldx%lld\n", (long long)Out.m, (long long)Out.n, (long long)Out.k);
    In.k = 64;
    expect("padded-as-is", tilegen_kernel_padded_problem(K, &In, &Out), TILEGEN_OK);
    printf("padded-as-is: %lldx%lldx%lld\n", (long long)Out.m, (long long)Out.n,
           (long long)Out.k);
    In.k = 2147483647;
    expect("padded-above-i32", tilegen_kernel_padded_problem(K, &In, &Out),
           TILEGEN_ERROR_PROBLEM);
    expect("padded-null", tilegen_kernel_padded_problem(K, &In, NULL),
           TILEGEN_ERROR_INVALID_ARGUMENT);
  }
}

static void pointerErrors(tilegen_kernel *K, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C,
                          CUdeviceptr D) {
  tilegen_gemm_args G, X;
  tilegen_gemm_args_init(K, &G);
  G.problem.m = 300, G.problem.n = 200, G.problem.k = 64;
  G.a = A, G.b = B, G.c = C, G.d = D;
  expect("args-ok", tilegen_kernel_check(K, &G), TILEGEN_OK);
  X = G, X.a = 0;
  expect("null-a", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.d = 0;
  expect("null-d", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.c = 0, X.beta = 0.5f;
  expect("null-c-beta", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.c = 0, X.beta = 0;
  expect("null-c-beta-zero", tilegen_kernel_check(K, &X), TILEGEN_OK);
  X = G, X.b = B + 8;
  expect("misaligned-b", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.scale_a = A;
  expect("unexpected-scale", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.problem.lda = 72;
  expect("lda-padded-pointer", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.problem.lda = 64;
  expect("lda-dense", tilegen_kernel_check(K, &X), TILEGEN_OK);
  X = G, X.problem.ldd = 100;
  expect("ldd-short", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.problem.ldb = -1;
  expect("ldb-negative", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.problem.k = 12;
  expect("launch-constraint", tilegen_kernel_launch(K, &X, NULL), TILEGEN_ERROR_PROBLEM);
  X = G, X.a = 0;
  expect("launch-null-a", tilegen_kernel_launch(K, &X, NULL), TILEGEN_ERROR_POINTER);
  expect("launch-null-args", tilegen_kernel_launch(K, NULL, NULL), TILEGEN_ERROR_INVALID_ARGUMENT);
  /* alpha and beta: finite, and 0 or normal f32 numbers. */
  X = G, X.alpha = NAN;
  expect("alpha-nan", tilegen_kernel_check(K, &X), TILEGEN_ERROR_INVALID_ARGUMENT);
  X = G, X.beta = -INFINITY;
  expect("beta-inf", tilegen_kernel_launch(K, &X, NULL), TILEGEN_ERROR_INVALID_ARGUMENT);
  X = G, X.alpha = 1e-45f;
  expect("alpha-subnormal", tilegen_kernel_check(K, &X), TILEGEN_ERROR_INVALID_ARGUMENT);
  X = G, X.alpha = 0, X.beta = 3.4028235e38f;
  expect("alpha-zero-beta-max", tilegen_kernel_check(K, &X), TILEGEN_OK);
}

/* D = A x B on the fake (computed on the host at launch) against a host loop. */
static void launchAndCheck(tilegen_kernel *K, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C,
                           CUdeviceptr D, int NullC) {
  enum { M = 300, N = 200, KK = 64 };
  static uint16_t HA[M * KK], HB[KK * N], HD[M * N];
  tilegen_gemm_args G;
  int I, J, L, Bad = 0;
  for (I = 0; I < M * KK; ++I)
    HA[I] = bf16((float)(I % 5) - 2);
  for (I = 0; I < KK * N; ++I)
    HB[I] = bf16((float)(I % 3) - 1);
  pMemcpyHtoD(A, HA, sizeof(HA));
  pMemcpyHtoD(B, HB, sizeof(HB));
  tilegen_gemm_args_init(K, &G);
  G.problem.m = M, G.problem.n = N, G.problem.k = KK;
  G.a = A, G.b = B, G.c = NullC ? 0 : C, G.d = D;
  expect(NullC ? "launch-c-null" : "launch", tilegen_kernel_launch(K, &G, NULL), TILEGEN_OK);
  pMemcpyDtoH(HD, D, sizeof(HD));
  for (I = 0; I < M; ++I)
    for (J = 0; J < N; ++J) {
      float Ref = 0;
      for (L = 0; L < KK; ++L)
        Ref += fromBf16(HA[I * KK + L]) * fromBf16(HB[L * N + J]);
      if (fabsf(fromBf16(HD[I * N + J]) - Ref) > fabsf(Ref) / 128 + 1e-6f)
        ++Bad;
    }
  printf("%s: D has %d wrong elements of %d\n", NullC ? "launch-c-null" : "launch", Bad, M * N);
  Failures += Bad != 0;
}

static void workspaceAndStrides(const char *Runner, const char *Launch, CUdeviceptr A,
                                CUdeviceptr B, CUdeviceptr C, CUdeviceptr D) {
  size_t MSize = 0, CSize = 0;
  char *Man = readFile(Launch, "tmap-a-workspace.json", &MSize);
  char *Cubin = readFile(Runner, "fake-correct.cubin", &CSize);
  tilegen_kernel *K = NULL;
  tilegen_launch_config Cfg;
  tilegen_gemm_args G, X;
  CUdeviceptr W;
  if (!Man || !Cubin) {
    printf("setup: cannot read tmap-a-workspace.json or fake-correct.cubin\n");
    ++Failures;
    return;
  }
  expect("ws-load", tilegen_kernel_load_data(Man, MSize, Cubin, CSize, &K), TILEGEN_OK);
  free(Man);
  free(Cubin);
  if (!K)
    return;
  tilegen_gemm_args_init(K, &G);
  G.problem.m = 300, G.problem.n = 200, G.problem.k = 64;
  G.a = A, G.b = B, G.c = C, G.d = D;
  expect("ws-config", tilegen_kernel_launch_config(K, &G.problem, &Cfg), TILEGEN_OK);
  printf("ws-config: grid %llu, workspace %llu bytes, zeroed %d\n", (unsigned long long)Cfg.grid,
         (unsigned long long)Cfg.workspace_bytes, Cfg.workspace_zeroed);
  expect("ws-missing", tilegen_kernel_check(K, &G), TILEGEN_ERROR_POINTER);
  W = alloc(Cfg.workspace_bytes);
  G.workspace = W;
  expect("ws-given", tilegen_kernel_check(K, &G), TILEGEN_OK);
  X = G, X.workspace = W + 4;
  expect("ws-misaligned", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  /* A is read through its tensor map alone: padded rows are fine, if 16-byte strided. */
  X = G, X.problem.lda = 72;
  expect("lda-padded-tmap", tilegen_kernel_check(K, &X), TILEGEN_OK);
  X = G, X.problem.lda = 67;
  expect("lda-unaligned-tmap", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.problem.lda = (int64_t)1 << 40;
  expect("lda-huge-tmap", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  tilegen_kernel_destroy(K);
  pMemFree(W);
}

static void scales(const char *Runner, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C,
                   CUdeviceptr D) {
  char P[4096];
  tilegen_kernel *K = NULL;
  tilegen_kernel_info Info;
  tilegen_gemm_args G, X;
  path(P, sizeof(P), Runner, "fake-fp8-tensor.cubin");
  expect("fp8-load", tilegen_kernel_load(P, &K), TILEGEN_OK);
  if (!K)
    return;
  tilegen_kernel_get_info(K, &Info);
  printf("fp8-info: %s %s, A %s/%s, B %s/%s, scales %d %d\n", Info.name, Info.target, Info.a_type,
         Info.a_layout, Info.b_type, Info.b_layout, Info.has_scale_a, Info.has_scale_b);
  tilegen_gemm_args_init(K, &G);
  G.problem.m = 64, G.problem.n = 64, G.problem.k = 64;
  G.a = A, G.b = B, G.c = C, G.d = D, G.scale_a = C, G.scale_b = C + 4;
  expect("fp8-ok", tilegen_kernel_check(K, &G), TILEGEN_OK);
  X = G, X.scale_b = 0;
  expect("fp8-null-scale", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.scale_a = C + 2;
  expect("fp8-misaligned-scale", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  tilegen_kernel_destroy(K);

  /* Block scales along M: padding M would change scale_a's shape (the caller's scales are for
   * the problem's own M), so a block-scaled kernel with an M constraint pads nothing there. */
  {
    size_t MSize = 0, CSize = 0;
    char *Man = readFile(Runner, "fake-fp8-block.json", &MSize);
    char *Cubin = readFile(Runner, "fake-fp8-block.cubin", &CSize);
    const char *Anchor = "\"constraints\": [";
    const char *Extra = "{\"dim\": \"M\", \"multiple\": 16, \"reason\": \"test\"}, ";
    char *At = Man ? strstr(Man, Anchor) : NULL;
    char *With = At && Cubin ? malloc(MSize + strlen(Extra)) : NULL;
    if (!With) {
      printf("setup: cannot read fake-fp8-block.json or fake-fp8-block.cubin\n");
      ++Failures;
    } else {
      size_t Head = (size_t)(At - Man) + strlen(Anchor);
      tilegen_kernel *KB = NULL;
      tilegen_problem In, Out;
      memcpy(With, Man, Head);
      memcpy(With + Head, Extra, strlen(Extra));
      memcpy(With + Head + strlen(Extra), Man + Head, MSize - Head);
      expect("fp8-block-load",
             tilegen_kernel_load_data(With, MSize + strlen(Extra), Cubin, CSize, &KB),
             TILEGEN_OK);
      if (KB) {
        memset(&In, 0, sizeof(In));
        In.m = 100, In.n = 128, In.k = 256;
        expect("fp8-block-padded-m", tilegen_kernel_padded_problem(KB, &In, &Out),
               TILEGEN_ERROR_PROBLEM);
        In.m = 112;
        expect("fp8-block-as-is", tilegen_kernel_padded_problem(KB, &In, &Out), TILEGEN_OK);
        tilegen_kernel_destroy(KB);
      }
    }
    free(With);
    free(Man);
    free(Cubin);
  }
}

/* The MXFP4 kernel: packed e2m1 B (strides in bytes, rows on whole bytes), e8m0 scales at any
 * address; and the OCP MX quantiser. */
static void blockScaled(const char *Runner, const char *Launch, CUdeviceptr A, CUdeviceptr B,
                        CUdeviceptr C, CUdeviceptr D) {
  char P[4096];
  tilegen_kernel *K = NULL;
  tilegen_kernel_info Info;
  tilegen_gemm_args G, X;
  double V[64];
  uint8_t Elements[32], Scales[2];
  size_t MSize = 0, CSize = 0;
  char *Man, *Cubin;
  int I;
  path(P, sizeof(P), Runner, "fake-mxfp4.cubin");
  expect("mx-load", tilegen_kernel_load(P, &K), TILEGEN_OK);
  if (!K)
    return;
  tilegen_kernel_get_info(K, &Info);
  printf("mx-info: %s %s, A %s/%s, B %s/%s, scales %d %d\n", Info.name, Info.target,
         Info.a_type, Info.a_layout, Info.b_type, Info.b_layout, Info.has_scale_a,
         Info.has_scale_b);
  tilegen_gemm_args_init(K, &G);
  G.problem.m = 64, G.problem.n = 64, G.problem.k = 128;
  G.a = A, G.b = B, G.d = D, G.scale_b = C + 4;
  expect("mx-scale-aligned", tilegen_kernel_check(K, &G), TILEGEN_OK);
  X = G, X.scale_b = C + 1;
  expect("mx-scale-unaligned", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.scale_b = 0;
  expect("mx-null-scale", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.scale_b_tensor = C;
  expect("mx-unexpected-tensor-scale", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.workspace = C;
  expect("mx-unexpected-workspace", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  tilegen_kernel_destroy(K);

  /* NVFP4 with its per-tensor f32 (the second level): scale_b_tensor, 4-byte aligned. */
  K = NULL;
  path(P, sizeof(P), Runner, "fake-nvfp4-tensor.cubin");
  expect("nvfp4-load", tilegen_kernel_load(P, &K), TILEGEN_OK);
  if (K) {
    tilegen_kernel_get_info(K, &Info);
    printf("nvfp4-info: scales %d %d, per-tensor %d\n", Info.has_scale_a, Info.has_scale_b,
           Info.has_scale_b_tensor);
    tilegen_gemm_args Gt, Xt;
    tilegen_gemm_args_init(K, &Gt);
    Gt.problem.m = 64, Gt.problem.n = 64, Gt.problem.k = 128;
    Gt.a = A, Gt.b = B, Gt.d = D, Gt.scale_b = C + 4, Gt.scale_b_tensor = C + 64;
    expect("nvfp4-tensor-scale", tilegen_kernel_check(K, &Gt), TILEGEN_OK);
    Xt = Gt, Xt.scale_b_tensor = 0;
    expect("nvfp4-null-tensor-scale", tilegen_kernel_check(K, &Xt), TILEGEN_ERROR_POINTER);
    Xt = Gt, Xt.scale_b_tensor = C + 66;
    expect("nvfp4-unaligned-tensor-scale", tilegen_kernel_check(K, &Xt), TILEGEN_ERROR_POINTER);
    tilegen_kernel_destroy(K);
  }

  /* B read through its tensor map alone (as the sm_90a upcast kernel does): a padded ldb is
   * taken when its bytes (ldb / 2) are a multiple of 16. */
  Man = readFile(Launch, "tmap-b-mxfp4.json", &MSize);
  Cubin = readFile(Runner, "fake-mxfp4.cubin", &CSize);
  if (!Man || !Cubin) {
    printf("setup: cannot read tmap-b-mxfp4.json or fake-mxfp4.cubin\n");
    ++Failures;
    free(Man);
    free(Cubin);
    return;
  }
  K = NULL;
  expect("mx-tmap-load", tilegen_kernel_load_data(Man, MSize, Cubin, CSize, &K), TILEGEN_OK);
  free(Man);
  free(Cubin);
  if (!K)
    return;
  expect("mx-tmap-dense", tilegen_kernel_check(K, &G), TILEGEN_OK);
  X = G, X.problem.ldb = 192;
  expect("mx-ldb-padded", tilegen_kernel_check(K, &X), TILEGEN_OK);
  X = G, X.problem.ldb = 129;
  expect("mx-ldb-odd", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  X = G, X.problem.ldb = 144;
  expect("mx-ldb-unaligned", tilegen_kernel_check(K, &X), TILEGEN_ERROR_POINTER);
  tilegen_kernel_destroy(K);

  /* Row 0: 32 x 1.0 -> scale 2^-2 (code 125), elements 4.0 = e2m1 6, packed 0x66; row 1:
   * zeros -> scale code 0. */
  for (I = 0; I < 64; ++I)
    V[I] = I < 32 ? 1.0 : 0.0;
  expect("mx-quantize", tilegen_quantize_mx("e2m1", V, 2, 32, Elements, Scales), TILEGEN_OK);
  printf("mx-quantize: scales %u %u, elements 0x%02x 0x%02x\n", Scales[0], Scales[1],
         Elements[0], Elements[16]);
  expect("mx-quantize-format", tilegen_quantize_mx("nvfp4", V, 2, 32, Elements, Scales),
         TILEGEN_ERROR_INVALID_ARGUMENT);
}

/* One thread launches a kernel in a loop while another destroys it: every launch succeeds or is
 * refused as a call on a destroyed kernel, none reads the kernel while it is unloaded (the
 * sanitizer build would report it), and a destroyed handle is never handed out again. */
struct Launcher {
  tilegen_kernel *K;
  tilegen_gemm_args G;
  CUcontext Ctx;
  volatile int Started, Stop;
  tilegen_status Bad;
};

static void *launchLoop(void *Arg) {
  struct Launcher *L = (struct Launcher *)Arg;
  pCtxSetCurrent(L->Ctx);
  L->Started = 1;
  while (!L->Stop) {
    tilegen_status S = tilegen_kernel_launch(L->K, &L->G, NULL);
    if (S != TILEGEN_OK && S != TILEGEN_ERROR_INVALID_ARGUMENT)
      L->Bad = S;
  }
  return NULL;
}

static void destroyWhileLaunching(const char *Runner, CUcontext Ctx, CUdeviceptr A,
                                  CUdeviceptr B, CUdeviceptr D) {
  char P[4096];
  int Round, Bad = 0;
  tilegen_kernel *K1 = NULL, *K2 = NULL;
  tilegen_gemm_args G;
  path(P, sizeof(P), Runner, "fake-correct.cubin");
  for (Round = 0; Round < 40; ++Round) {
    struct Launcher L;
    pthread_t T;
    memset(&L, 0, sizeof(L));
    if (tilegen_kernel_load(P, &L.K) != TILEGEN_OK) {
      report("race-load", TILEGEN_ERROR_INTERNAL);
      ++Failures;
      return;
    }
    tilegen_gemm_args_init(L.K, &L.G);
    L.G.problem.m = 64, L.G.problem.n = 64, L.G.problem.k = 64;
    L.G.a = A, L.G.b = B, L.G.d = D;
    L.Ctx = Ctx;
    if (pthread_create(&T, NULL, launchLoop, &L) != 0) {
      printf("setup: pthread_create failed\n");
      ++Failures;
      tilegen_kernel_destroy(L.K);
      return;
    }
    while (!L.Started)
      ;
    tilegen_kernel_destroy(L.K);
    L.Stop = 1;
    pthread_join(T, NULL);
    Bad |= L.Bad != TILEGEN_OK;
  }
  printf("destroy-while-launching: %d rounds, %s\n", Round,
         Bad ? "a launch failed otherwise" : "each launch ran or was refused");
  Failures += Bad;
  /* A stale handle stays refused after another load. */
  tilegen_kernel_load(P, &K1);
  tilegen_kernel_destroy(K1);
  tilegen_kernel_load(P, &K2);
  tilegen_gemm_args_init(K2, &G);
  G.problem.m = 64, G.problem.n = 64, G.problem.k = 64;
  G.a = A, G.b = B, G.d = D;
  printf("new-handle-differs: %d\n", K1 != K2);
  Failures += K1 == K2;
  expect("stale-handle", tilegen_kernel_check(K1, &G), TILEGEN_ERROR_INVALID_ARGUMENT);
  expect("new-handle", tilegen_kernel_check(K2, &G), TILEGEN_OK);
  tilegen_kernel_destroy(K2);
}

int main(int Argc, char **Argv) {
  tilegen_kernel *K = NULL;
  CUcontext Ctx = NULL;
  CUdeviceptr A, B, C, D;
  char P[4096];
  tilegen_kernel_info Info;

  if (Argc == 3 && strcmp(Argv[1], "nodriver") == 0) {
    /* The manifest and cubin are read and checked before the driver is needed. */
    path(P, sizeof(P), Argv[2], "fake-correct.cubin");
    expect("no-driver", tilegen_kernel_load(P, &K), TILEGEN_ERROR_NO_DRIVER);
    return Failures != 0;
  }
  if (Argc != 4 || strcmp(Argv[1], "all") != 0) {
    fprintf(stderr, "usage: tilegen-launch-tests all RUNNER_INPUTS LAUNCH_INPUTS | nodriver RUNNER_INPUTS\n");
    return 2;
  }
  printf("api version %d\n", tilegen_launch_api_version());
  if (!resolve())
    return 2;

  path(P, sizeof(P), Argv[2], "fake-correct.cubin");
  expect("no-context", tilegen_kernel_load(P, &K), TILEGEN_ERROR_NO_CONTEXT);
  pPrimaryCtxRetain(&Ctx, 0);
  pCtxSetCurrent(Ctx);

  loadErrors(Argv[2], Argv[3]);

  expect("load", tilegen_kernel_load(P, &K), TILEGEN_OK);
  if (!K)
    return 1;
  tilegen_kernel_get_info(K, &Info);
  printf("info: %s %s, A %s/%s, B %s/%s, C %s/%s, block %ux%ux%u, tile %ux%u, smem %llu, "
         "alpha %g beta %g, workspace %d\n",
         Info.name, Info.target, Info.a_type, Info.a_layout, Info.b_type, Info.b_layout,
         Info.c_type, Info.c_layout, Info.block[0], Info.block[1], Info.block[2], Info.tile_m,
         Info.tile_n, (unsigned long long)Info.dynamic_smem, Info.alpha, Info.beta,
         Info.has_workspace);

  A = alloc(300 * 64 * 2);
  B = alloc(64 * 200 * 2);
  C = alloc(300 * 200 * 2);
  D = alloc(300 * 200 * 2);
  problemErrors(K);
  pointerErrors(K, A, B, C, D);
  launchAndCheck(K, A, B, C, D, 0);
  launchAndCheck(K, A, B, C, D, 1);
  tilegen_kernel_destroy(K);

  workspaceAndStrides(Argv[2], Argv[3], A, B, C, D);
  scales(Argv[2], A, B, C, D);
  blockScaled(Argv[2], Argv[3], A, B, C, D);
  destroyWhileLaunching(Argv[2], Ctx, A, B, D);
  pMemFree(A);
  pMemFree(B);
  pMemFree(C);
  pMemFree(D);
  printf("failures: %d\n", Failures);
  return Failures != 0;
}
