# lit configuration for tilegen's tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "tilegen"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilegen_obj_root, "test")

llvm_config.use_default_substitutions()
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"
llvm_config.with_system_environment(["HOME", "TILEGEN_PTXAS", "CUDA_VISIBLE_DEVICES"])

# /dev/full (Linux): writes to it fail with ENOSPC, for the tests of failed writes.
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")

# The sanitizer build (scripts/test.sh --sanitize): the tools carry their sanitizer options
# (fuzz/SanitizerDefaults.cpp: a report aborts the tool, so `not %tilegen ...` cannot pass on
# it); reports are symbolized with LLVM's llvm-symbolizer.
if config.tilegen_sanitized:
    config.available_features.add("sanitizer")
    symbolizer = os.path.join(config.llvm_tools_dir, "llvm-symbolizer")
    if os.path.exists(symbolizer):
        config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
        config.environment["UBSAN_SYMBOLIZER_PATH"] = symbolizer

tools_dir = config.tilegen_tools_dir
config.substitutions.append(("%tilegen-opt", os.path.join(tools_dir, "tilegen-opt")))
config.substitutions.append(("%tilegen-run", os.path.join(tools_dir, "tilegen-run")))
config.substitutions.append(("%tilegen-descriptor-tests", os.path.join(tools_dir, "tilegen-descriptor-tests")))
config.substitutions.append(("%tilegen-mma-table-tests", os.path.join(tools_dir, "tilegen-mma-table-tests")))
config.substitutions.append(("%tilegen-microscaling-tests", os.path.join(tools_dir, "tilegen-microscaling-tests")))
config.substitutions.insert(0, ("%tilegen-upcast-bits-tests", os.path.join(tools_dir, "tilegen-upcast-bits-tests")))
config.substitutions.append(("%tilegen", os.path.join(tools_dir, "tilegen")))
# Before %tilegen, which is a prefix of it.
config.substitutions.insert(0, ("%tilegen-verify", os.path.join(tools_dir, "tilegen-verify")))
config.substitutions.append(("%examples", os.path.join(config.tilegen_src_root, "examples")))
config.substitutions.append(("%scripts", os.path.join(config.tilegen_src_root, "scripts")))
config.substitutions.append(("%bench", os.path.join(config.tilegen_src_root, "bench")))
config.substitutions.append(("%docs", os.path.join(config.tilegen_src_root, "docs")))
config.substitutions.append(("%generated-docs", os.path.join(config.tilegen_obj_root, "docs")))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# The runner's fake CUDA driver (tools/tilegen-run/testing) for GPU-less tests of its paths.
fake_cuda = os.path.join(config.tilegen_obj_root, "lib", "libtilegen-fake-cuda.so")
# tilegen-run was built with its --pad copy kernel (nvcc was found).
if getattr(config, "tilegen_run_pad_kernel", False):
    config.available_features.add("pad-kernel")
if os.path.exists(fake_cuda):
    config.available_features.add("fake-cuda")
    config.substitutions.append(("%fake-libcuda", fake_cuda))
    config.substitutions.append(
        ("%tilegen-run-numeric-tests", os.path.join(tools_dir, "tilegen-run-numeric-tests")))
    config.substitutions.append(
        ("%tilegen-pad-copy-tests", os.path.join(tools_dir, "tilegen-pad-copy-tests")))
    # Before %tilegen, which is a prefix of it.
    config.substitutions.insert(
        0, ("%tilegen-launch-tests", os.path.join(tools_dir, "tilegen-launch-tests")))

# The launch library's example (examples/host), built in this build where the CUDA toolkit has
# libcuda to link; the GPU tests run it. The packaging test installs this build and builds the
# example against the installed package: it needs cmake and the toolkit (cuda.h, libcuda).
config.substitutions.insert(
    0, ("%tilegen-launch-example", os.path.join(tools_dir, "tilegen-launch-example")))
config.substitutions.append(("%obj-root", config.tilegen_obj_root))
config.substitutions.append(("%cmake-configure", '"%s" -G "%s" -DCMAKE_MAKE_PROGRAM="%s"' % (
    config.cmake_command, config.cmake_generator, config.cmake_make_program)))
config.substitutions.append(("%cmake", '"%s"' % config.cmake_command))
config.substitutions.append(("%cuda-root", config.tilegen_cuda_root))
cuda_root = config.tilegen_cuda_root
if os.path.exists(os.path.join(cuda_root, "include", "cuda.h")) and any(
        os.path.exists(os.path.join(cuda_root, d, "libcuda.so"))
        for d in ["lib64", "lib64/stubs", "lib/stubs", "targets/x86_64-linux/lib/stubs"]):
    config.available_features.add("cuda-toolkit")

# ptxas: the feature is added only when one is found and runs.
ptxas = os.environ.get("TILEGEN_PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas) and os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    llvm_config.with_environment("PATH", os.path.dirname(ptxas), append_path=True)

# A CUDA GPU: nvidia-smi lists one.
try:
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    if out.returncode == 0 and "GPU" in out.stdout:
        config.available_features.add("cuda-gpu")
        if "H100" in out.stdout or "H200" in out.stdout:
            config.available_features.add("sm_90-gpu")
except (OSError, subprocess.TimeoutExpired):
    pass

# SASS disassembly without a GPU (pip's nvidia-cuda-nvdisasm) or from a CUDA install.
nvdisasm = shutil.which("nvdisasm") or "/usr/local/cuda/bin/nvdisasm"
if not os.path.exists(nvdisasm):
    # scripts/lib.sh installs the nvidia-cuda-nvdisasm wheel into .tools/ when none is found.
    import glob
    found = glob.glob(os.path.join(config.tilegen_src_root, ".tools", "**", "bin", "nvdisasm"),
                      recursive=True)
    if found:
        nvdisasm = found[0]
if os.path.exists(nvdisasm):
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", nvdisasm))

# mlir-translate of the LLVM/MLIR this build uses (package mlir-22-tools), for the test that the
# --emit=nvvm output translates to LLVM IR; the feature is added only when it is there.
mlir_translate = "/usr/lib/llvm-22/bin/mlir-translate"
if os.path.exists(mlir_translate) and os.access(mlir_translate, os.X_OK):
    config.available_features.add("mlir-translate")
    config.substitutions.append(("%mlir-translate", mlir_translate))
