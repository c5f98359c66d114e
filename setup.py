"""pip's build of the package: build_ext configures the CMake project with the Python package
switched on, builds its one target (the extension module collision._collision, with the C++ core
it links) and puts the module where setuptools packs it beside python/collision's files.
pyproject.toml holds the metadata; this file only drives CMake, as pybind11's cmake_example does.

Environment:
  COLLISION_CMAKE_BUILD_DIR    the CMake build directory (default: setuptools' build_temp); a
                               directory kept between builds makes a rebuild incremental
  COLLISION_PIP_CMAKE_ARGS     extra configure arguments
  CMAKE_BUILD_PARALLEL_LEVEL   parallel compile jobs (default: CMake's)
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version() -> str:
    """The version of CMakeLists.txt's project(), the one source of it."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*collision\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt: no 'project(collision VERSION x.y.z' line")
    return match.group(1)


class CMakeExtension(Extension):
    """An extension built by CMake: no sources for setuptools to compile."""

    def __init__(self, name: str, target: str) -> None:
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        if not isinstance(ext, CMakeExtension):
            return super().build_extension(ext)
        if shutil.which("cmake") is None:
            raise RuntimeError("building collision needs cmake (script/bootstrap installs it)")
        build_dir = pathlib.Path(
            os.environ.get("COLLISION_CMAKE_BUILD_DIR") or pathlib.Path(self.build_temp) / "cmake"
        ).resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
        generator = []
        if not (build_dir / "CMakeCache.txt").exists() and shutil.which("ninja"):
            generator = ["-G", "Ninja"]
        configure = [
            "cmake",
            "-S",
            str(ROOT),
            "-B",
            str(build_dir),
            *generator,
            "-DCMAKE_BUILD_TYPE=Release",
            "-DCOLLISION_BUILD_PYTHON=ON",
            "-DCOLLISION_BUILD_COMMONROAD=ON",
            # Only the module is built; the suites would only lengthen the configure step.
            "-DCOLLISION_BUILD_TESTS=OFF",
            "-DCOLLISION_BUILD_BENCHMARKS=OFF",
            "-DCOLLISION_BUILD_DEMO=OFF",
            # The interpreter pip runs (a venv's python) is the one the module is built for.
            f"-DPython3_EXECUTABLE={sys.executable}",
            *shlex.split(os.environ.get("COLLISION_PIP_CMAKE_ARGS", "")),
        ]
        try:  # pybind11 from pip (a build with isolation) brings its CMake files; Debian's
            import pybind11  # pybind11-dev has them where CMake looks anyway

            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        subprocess.run(configure, check=True)
        subprocess.run(
            ["cmake", "--build", str(build_dir), "--target", ext.target], check=True
        )
        # python/CMakeLists.txt lays the module out in <build>/python/collision/.
        built = build_dir / "python" / "collision" / ("_collision" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not built.exists():
            raise RuntimeError(f"{built}: CMake did not build the module for {sys.executable}")
        destination = pathlib.Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, destination)


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("collision._collision", target="collision_python")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
