"""pip as a user runs it, offline: in a venv made with --system-site-packages,
`pip install --no-build-isolation .` builds the C++ core and the module with CMake (setup.py's
build_ext) and installs the package; `pip wheel --no-build-isolation .` makes a wheel holding
the module, collision.evaluate and the type stubs. The installed package then checks a
trajectory from outside the source tree.

The source is copied to <build>/pip-test/source (COLLISION_BUILD_DIR, default build) with its
files' times, and CMake builds in <build>/pip-test/cmake; both stay between runs, so the first
run compiles the core (minutes) and later ones only what changed."""

import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

# Not copied into the temporary source tree: build trees, the git store, caches.
TOP_LEVEL_SKIPPED = {".git", "out", ".cache"}


def _ignore(directory, names):
    skipped = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
    if pathlib.Path(directory).resolve() == ROOT:
        skipped |= {n for n in names if n in TOP_LEVEL_SKIPPED or n.startswith("build")}
    return skipped


def _run(args, env, cwd):
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, f"{' '.join(map(str, args))}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done


def test_pip_install_and_wheel_offline(tmp_path):
    for module in ("venv", "pip", "setuptools", "wheel"):
        if subprocess.run([sys.executable, "-c", f"import {module}"]).returncode:
            pytest.skip(f"{sys.executable} has no {module} (script/bootstrap python installs it)")
    work = ROOT / os.environ.get("COLLISION_BUILD_DIR", "build") / "pip-test"
    # A fixed source path: a CMake build directory belongs to one source directory.
    source = work / "source"
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(ROOT, source, ignore=_ignore)  # copy2 keeps the times: no needless rebuild
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python")

    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # the package must come from the venv, not the build tree
    env["PIP_NO_INDEX"] = "1"  # offline: nothing from a package index
    env["COLLISION_CMAKE_BUILD_DIR"] = str(work / "cmake")
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", os.environ.get("COLLISION_JOBS", str(os.cpu_count() or 1)))

    _run([python, "-m", "pip", "install", "--no-build-isolation", str(source)], env, tmp_path)
    check = (
        "import numpy as np, collision, collision.evaluate, pathlib;"
        "print(pathlib.Path(collision.__file__).parent);"
        "c = collision.CollisionChecker(collision.default_config());"
        "c.set_obstacles([collision.Obstacle.stationary(1, collision.Circle((20, 0), 1.0))]);"
        "t = np.linspace(0, 4, 41);"
        "r = c.check(np.column_stack([t, 10 * t, 0 * t, 0 * t]));"
        "print(r.collides, r.obstacle_id)"
    )
    done = _run([python, "-c", check], env, tmp_path)
    package_dir, result = done.stdout.strip().splitlines()
    assert pathlib.Path(package_dir).resolve().is_relative_to(venv.resolve())
    assert result == "True 1"
    installed = pathlib.Path(package_dir)
    for name in ("__init__.pyi", "py.typed", "evaluate.py"):
        assert (installed / name).is_file(), name

    wheels = tmp_path / "wheels"
    _run([python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "-w", str(wheels),
          str(source)], env, tmp_path)
    [wheel] = wheels.glob("collision-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("collision/_collision") and n.endswith(".so") for n in names), names
    for name in ("collision/__init__.py", "collision/__init__.pyi", "collision/py.typed",
                 "collision/evaluate.py"):
        assert name in names, names
