"""The suite imports `collision` from PYTHONPATH (script/test sets it to <build>/python) and finds
python_parity, the C++ side of the parity tests, from COLLISION_PARITY_EXE or the build tree."""

import os
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

import scene  # noqa: E402  (found through the path above)


@pytest.fixture(scope="module")
def checker():
    """The parity scene's checker, shared by a module's tests (they only read it)."""
    return scene.scene_checker()


@pytest.fixture(scope="session")
def parity_exe():
    path = os.environ.get("COLLISION_PARITY_EXE")
    if not path:
        root = pathlib.Path(__file__).resolve().parents[2]
        path = str(root / os.environ.get("COLLISION_BUILD_DIR", "build") / "python" / "python_parity")
    if not os.path.exists(path):
        pytest.skip(f"python_parity not built ({path}); set COLLISION_PARITY_EXE")
    return path


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slow: builds the package with pip in a temporary venv (minutes on a cold CMake build "
        "directory; script/test runs it, `-m 'not slow'` leaves it out)",
    )
