"""The type stubs are true: mypy's stubtest finds nothing in the built module that
collision/__init__.pyi leaves out or types differently (python/tests/stubtest_allowlist.txt lists
what it cannot see, each with its reason), and the examples type-check with `mypy --strict`."""

import os
import pathlib
import subprocess
import sys

import pytest

import collision

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE_DIR = pathlib.Path(collision.__file__).resolve().parent

pytest.importorskip("mypy", reason="mypy is not installed (script/bootstrap python installs it)")


def _env():
    env = dict(os.environ)
    # mypy finds the package (with its stubs) where the tests import it from.
    env["MYPYPATH"] = str(PACKAGE_DIR.parent)
    return env


def test_stubs_ship_with_the_package():
    for name in ("__init__.pyi", "py.typed"):
        assert (PACKAGE_DIR / name).is_file(), f"{PACKAGE_DIR / name} missing"


def test_stubtest_finds_nothing():
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "collision", "--allowlist",
         str(ROOT / "python" / "tests" / "stubtest_allowlist.txt")],
        capture_output=True, text=True, env=_env(), cwd=PACKAGE_DIR.parent, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_examples_type_check_strictly():
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         str(ROOT / "python" / "examples")],
        capture_output=True, text=True, env=_env(), cwd=PACKAGE_DIR.parent, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_package_python_type_checks_strictly():
    """collision.evaluate, the package's own Python, against the stubs of the module."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "collision"],
        capture_output=True, text=True, env=_env(), cwd=PACKAGE_DIR.parent, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_sees_the_array_types(tmp_path):
    """A misuse the stubs make visible: check_all's collides is a bool array, not a list."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import numpy as np\nimport collision\n"
        "c = collision.CollisionChecker(collision.default_config())\n"
        "r = c.check_all(np.zeros((1, 2, 4)))\n"
        "reveal_type(r.collides)\n"
        "x: str = r.min_clearance\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(probe)],
        capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=600,
    )
    assert "numpy.ndarray[Any, numpy.dtype[numpy.bool_]]" in done.stdout, done.stdout
    assert 'Incompatible types in assignment (expression has type "ndarray[Any, dtype[floating' in done.stdout, done.stdout
