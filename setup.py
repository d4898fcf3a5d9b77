# SPDX-License-Identifier: MIT
"""The wheel's build step (metadata: pyproject.toml): compile the host library with
CMake (CMakeLists.txt with MOTEBOX_PYTHON_WHEEL=ON: libmotebox.so only, exporting just
the API) and put it inside the motebox package, where motebox/_native.py looks first.
The wheel is specific to the platform, not to a Python version (ctypes, no extension
module): py3-none-<platform>. Editable installs (make venv) skip the build: the binding
uses the checkout's build/host/libmotebox.so. setuptools' own build folders go to a
temporary directory, never into the project's build/."""
import atexit
import shutil
import subprocess
import tempfile
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:             # only building wheels needs it
    bdist_wheel = None

ROOT = Path(__file__).resolve().parent
BUILD_BASE = tempfile.mkdtemp(prefix="motebox-setup-")
atexit.register(shutil.rmtree, BUILD_BASE, ignore_errors=True)


class BinaryDistribution(Distribution):
    """Holds a shared library: installed as platform code, not pure Python."""

    def has_ext_modules(self):
        return True


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        cmake = shutil.which("cmake")
        if cmake is None:
            raise SystemExit("building the motebox wheel needs CMake (apt install cmake)")
        tmp = Path(BUILD_BASE) / "cmake"
        subprocess.run([cmake, "-S", str(ROOT), "-B", str(tmp), "-DCMAKE_BUILD_TYPE=Release",
                        "-DMOTEBOX_PYTHON_WHEEL=ON", "-DMOTEBOX_STATIC=OFF"], check=True)
        subprocess.run([cmake, "--build", str(tmp)], check=True)
        subprocess.run([cmake, "--install", str(tmp), "--prefix",
                        str(Path(self.build_lib) / "motebox")], check=True)


cmdclass = {"build_py": BuildPyWithLibrary}
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        def get_tag(self):
            return ("py3", "none") + tuple(super().get_tag()[2:])
    cmdclass["bdist_wheel"] = PlatformWheel

setup(distclass=BinaryDistribution, cmdclass=cmdclass,
      options={"build": {"build_base": BUILD_BASE},
               "bdist_wheel": {"bdist_dir": str(Path(BUILD_BASE) / "bdist")}})
