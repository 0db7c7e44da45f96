#!/usr/bin/env python3
"""Seed corpora for the fuzzers, from the repository (scripts/fuzz.sh calls this).

  seeds.py descriptions ROOT OUT          tilegen-fuzz seeds: examples/*.mlir for the five fuzzed
                                          targets (PTX), plus tile and pipeline on sm_90a; every
                                          description or plan in test/**/*.mlir (split at
                                          '// -----'), tagged with the targets and stages of its
                                          RUN lines
  seeds.py runner ROOT TILEGEN MOUT COUT  tilegen-run-manifest-fuzz seeds (MOUT) and
                                          tilegen-run-cubin-fuzz seeds (COUT): the manifests and
                                          cubins TILEGEN writes for examples/*.mlir on the five
                                          targets, and test/tools/tilegen-run/Inputs/*.json, *.cubin

Each description seed starts with tilegen-fuzz's options line (fuzz/FuzzInput.h).
"""

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGETS = ["sm_80", "sm_90", "sm_90a", "sm_100a", "sm_120a"]


def write(out, name, text):
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    path = os.path.join(out, f"{name}-{digest}.mlir")
    with open(path, "w") as f:
        f.write(text)


def strip_comments(text):
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//")).strip() + "\n"


def run_lines_options(text):
    """(target, stage) pairs named by the RUN lines."""
    pairs = []
    for line in text.splitlines():
        if "RUN:" not in line:
            continue
        target = None
        m = re.search(r"(?:--target=|target=)(sm_\w+)", line)
        if m:
            target = m.group(1)
        stage = "ptx"
        m = re.search(r"--emit=(\w+)", line)
        if m:
            stage = {"cubin": "ptx"}.get(m.group(1), m.group(1))
        elif "tile-lower-to-nvvm" in line:
            stage = "nvvm"
        elif "tile-expand-pipeline" in line:
            stage = "pipeline"
        elif "tile-check-target" in line or "verify-diagnostics" in line:
            stage = "tile"
        pairs.append((target or "none", stage))
    return sorted(set(pairs)) or [("none", "ptx")]


def descriptions(root, out):
    os.makedirs(out, exist_ok=True)
    count = 0
    for path in sorted(glob.glob(os.path.join(root, "examples", "*.mlir"))):
        name = os.path.splitext(os.path.basename(path))[0]
        body = strip_comments(open(path).read())
        for target in TARGETS:
            write(out, f"{name}-{target}-ptx", f"// target={target} emit=ptx\n{body}")
            count += 1
        for stage in ("tile", "pipeline"):
            write(out, f"{name}-sm_90a-{stage}", f"// target=sm_90a emit={stage}\n{body}")
            count += 1
    for path in sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"), recursive=True)):
        text = open(path).read()
        if "tile.gemm" not in text and "tile.pipeline" not in text:
            continue
        rel = os.path.relpath(path, os.path.join(root, "test")).replace(os.sep, "_")
        name = os.path.splitext(rel)[0]
        pairs = run_lines_options(text)[:5]
        # Inputs/ files have no RUN lines: every fuzzed target.
        if pairs == [("none", "ptx")] and "/Inputs/" in path:
            pairs = [(t, "ptx") for t in TARGETS]
        for i, case in enumerate(text.split("// -----")):
            body = strip_comments(case)
            if "tile." not in body:
                continue
            for target, stage in pairs:
                write(out, f"{name}-{i}-{target}-{stage}",
                      f"// target={target} emit={stage}\n{body}")
                count += 1
    print(f"seeds.py: {count} description seeds in {out}")


def runner(root, tilegen, mout, cout):
    os.makedirs(mout, exist_ok=True)
    os.makedirs(cout, exist_ok=True)
    inputs = os.path.join(root, "test", "tools", "tilegen-run", "Inputs")
    for path in sorted(glob.glob(os.path.join(inputs, "*.json"))):
        shutil.copy(path, os.path.join(mout, "test-" + os.path.basename(path)))
    # Dispatch tables go through the same fuzzer (ManifestFuzz.cpp parses both).
    for path in sorted(glob.glob(os.path.join(inputs, "dispatch", "*.json"))):
        shutil.copy(path, os.path.join(mout, "dispatch-" + os.path.basename(path)))
    for path in sorted(glob.glob(os.path.join(inputs, "*.cubin"))):
        shutil.copy(path, os.path.join(cout, "test-" + os.path.basename(path)))
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(glob.glob(os.path.join(root, "examples", "*.mlir"))):
            name = os.path.splitext(os.path.basename(path))[0]
            for target in TARGETS:
                cubin = os.path.join(tmp, f"{name}.{target}.cubin")
                r = subprocess.run([tilegen, path, f"--target={target}", "--emit=cubin", "-o",
                                    cubin], capture_output=True, text=True, timeout=300)
                manifest = cubin[:-len(".cubin")] + ".json"
                if r.returncode == 0 and os.path.exists(manifest):
                    shutil.copy(manifest, os.path.join(mout, f"{name}.{target}.json"))
                    shutil.copy(cubin, os.path.join(cout, f"{name}.{target}.cubin"))
    print(f"seeds.py: {len(os.listdir(mout))} manifest seeds in {mout}, "
          f"{len(os.listdir(cout))} cubin seeds in {cout}")


def main(argv):
    if len(argv) == 4 and argv[1] == "descriptions":
        descriptions(argv[2], argv[3])
    elif len(argv) == 6 and argv[1] == "runner":
        runner(argv[2], argv[3], argv[4], argv[5])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
