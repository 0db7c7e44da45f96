# Standalone lit configuration for the GPU integration tests, for the GPU machine (CUDA, no LLVM,
# so no FileCheck, not, or lit.llvm). scripts/gpu-run.sh writes a lit.site.cfg.py that sets
# tilegen_run (the runner built there with -DTILEGEN_RUNNER_ONLY=ON), tilegen_gpu_cubins (the
# carried cubins) and tilegen_obj_root, then loads this file. lit.local.cfg beside it adds %cubins
# and %expect-exit, exactly as in the main suite.
#
# Not named lit.cfg.py on purpose: the main suite (test/lit.cfg.py) walks this folder too, and a
# lit.cfg.py here would turn it into a nested suite there.
import os
import subprocess

import lit.formats

config.name = "tilegen-gpu"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.gpu.cfg.py", "lit.local.cfg"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilegen_obj_root, "test-gpu")

for name in ["HOME", "PATH", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "TILEGEN_RUN_LIBCUDA",
             "TILEGEN_RUN_LIBCUBLAS", "FAKE_CUDA_MEM_MB", "FAKE_CUDA_CC"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

config.substitutions.append(("%tilegen-run", config.tilegen_run))
# The launch library's example, built beside the runner (scripts/gpu-run.sh's build phase).
config.substitutions.append(("%tilegen-launch-example", os.path.join(
    os.path.dirname(config.tilegen_run), "tilegen-launch-example")))

# A CUDA GPU: nvidia-smi lists one (as in test/lit.cfg.py). TILEGEN_GPU_FAKE=1 claims one for a
# dry run against the fake driver (scripts/gpu-dryrun.sh).
if os.environ.get("TILEGEN_GPU_FAKE") == "1":
    config.available_features.add("cuda-gpu")
    # Programs that link libcuda themselves (the launch library's example) cannot use the fake.
    config.available_features.add("gpu-dryrun")
else:
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
        if out.returncode == 0 and "GPU" in out.stdout:
            config.available_features.add("cuda-gpu")
            if "H100" in out.stdout or "H200" in out.stdout:
                config.available_features.add("sm_90-gpu")
    except (OSError, subprocess.TimeoutExpired):
        # No nvidia-smi: a device node is enough to try (tilegen-run says clearly if it fails).
        if os.path.exists("/dev/nvidia0"):
            config.available_features.add("cuda-gpu")
