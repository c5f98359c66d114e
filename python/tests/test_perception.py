"""Obstacle.grid and Obstacle.points from Python: row order, options and bad inputs.

Partial: the numpy-reference comparison of check/check_all/clearance_profile is not written yet.
"""

import math
import pickle

import numpy as np
import pytest

import collision
from collision import Obstacle


def _part_centers(o):
    return sorted((round(p.center[0], 9), round(p.center[1], 9)) for p in o.parts)


def test_grid_rows_are_y():
    # 3 wide, 2 high; one occupied cell at (i, j) = (2, 1): centre (2.5, 1.5) * resolution.
    data = np.zeros((2, 3), dtype=np.int8)
    data[1, 2] = 100
    o = Obstacle.grid(1, data, origin=(10.0, -2.0, 0.0), resolution=0.5)
    assert o.obstacle_class == collision.ObstacleClass.static_object
    assert _part_centers(o) == [(10.0 + 1.25, -2.0 + 0.75)]


def test_grid_threshold_and_unknown():
    data = np.array([[64, 65, -1]], dtype=np.int8)
    assert len(Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0).parts) >= 1
    free_unknown = Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0, unknown_is_occupied=False)
    assert _part_centers(free_unknown) == [(1.5, 0.5)]
    only_unknown = Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0, occupied_threshold=100)
    assert _part_centers(only_unknown) == [(2.5, 0.5)]


def test_grid_other_integer_dtype():
    data = np.array([[0, 100]], dtype=np.int64)
    assert _part_centers(Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0)) == [(1.5, 0.5)]


@pytest.mark.parametrize(
    "kwargs, data, needle",
    [
        ({}, np.zeros(3, dtype=np.int8), "2-D"),
        ({}, np.zeros((2, 2)), "data"),
        ({}, np.array([[0, 101]], dtype=np.int8), "101"),
        ({}, np.array([[0, 300]], dtype=np.int64), "300"),
        ({"resolution": 0.0}, np.zeros((2, 2), dtype=np.int8), "0"),
    ],
)
def test_grid_bad_inputs(kwargs, data, needle):
    args = {"origin": (0.0, 0.0, 0.0), "resolution": 1.0}
    args.update(kwargs)
    with pytest.raises(collision.GeometryError) as e:
        Obstacle.grid(42, data, **args)
    assert "42" in str(e.value) and needle in str(e.value)


def test_points():
    rng = np.random.default_rng(3)
    pts = rng.uniform(-20, 20, (300, 2))
    o = Obstacle.points(5, pts, 0.2)
    assert len(o.parts) == 300
    assert o.obstacle_class == collision.ObstacleClass.unknown
    with pytest.raises(collision.GeometryError, match="5"):
        Obstacle.points(5, [(0.0, 0.0), (math.nan, 1.0)], 0.0)
    with pytest.raises(collision.GeometryError, match="5"):
        Obstacle.points(5, pts, -1.0)


def test_pickle():
    data = np.zeros((2, 3), dtype=np.int8)
    data[1, 2] = 100
    o = Obstacle.grid(1, data, origin=(1.0, 2.0, 0.3), resolution=0.5)
    back = pickle.loads(pickle.dumps(o))
    assert back.id == 1 and len(back.parts) == len(o.parts)
