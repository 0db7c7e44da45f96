"""Builds the tilegen Python package; bundles libtilegen-launch.so when one is found.

The package is pure Python over ctypes. Launching needs libtilegen-launch.so, which this build
copies into the package (tilegen/lib/) from, first match wins: $TILEGEN_LAUNCH_LIB, then
../build/lib and ../build-runner/lib (a CMake build of this repository; without LLVM,
`cmake -G Ninja -S . -B build-runner -DTILEGEN_RUNNER_ONLY=ON && ninja -C build-runner
tilegen-launch` builds it). With a library bundled the wheel is platform-specific; without one
the package looks for the library at run time (docs/python.md) and says so when it is missing.
TILEGEN_BUNDLE_LAUNCH_LIB=0 builds the pure-Python package even when a library is found.
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def launch_library():
    if os.environ.get("TILEGEN_BUNDLE_LAUNCH_LIB") == "0":
        return None
    env = os.environ.get("TILEGEN_LAUNCH_LIB")
    if env:
        if not os.path.isfile(env):
            raise SystemExit("TILEGEN_LAUNCH_LIB=%s: no such file" % env)
        return env
    for build in ("build", "build-runner"):
        p = os.path.join(ROOT, build, "lib", "libtilegen-launch.so")
        if os.path.isfile(p):
            return p
    return None


LIB = launch_library()


class BuildPy(build_py):
    def run(self):
        super().run()
        if LIB:
            dest = os.path.join(self.build_lib, "tilegen", "lib")
            os.makedirs(dest, exist_ok=True)
            shutil.copyfile(os.path.realpath(LIB), os.path.join(dest, "libtilegen-launch.so"))
            print("tilegen: bundled %s" % os.path.realpath(LIB))
        else:
            print("tilegen: no libtilegen-launch.so found to bundle; the package will look for "
                  "it at run time (TILEGEN_LAUNCH_LIB, beside tilegen, the system's path)")


class MaybeBinary(Distribution):
    def has_ext_modules(self):
        return LIB is not None  # a bundled shared library makes the wheel platform-specific


cmdclass = {"build_py": BuildPy}
try:
    from wheel.bdist_wheel import bdist_wheel

    class BdistWheel(bdist_wheel):
        def get_tag(self):
            # Pure Python plus a C library it loads with ctypes: any Python 3, this platform.
            tag = super().get_tag()
            return ("py3", "none", tag[2]) if LIB else tag

    cmdclass["bdist_wheel"] = BdistWheel
except ImportError:
    pass

setup(cmdclass=cmdclass, distclass=MaybeBinary)
