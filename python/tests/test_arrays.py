"""Arrays of other dtypes: an integer array is read as the integer list it holds would be, a
float64 array in the other byte order as the native one; other dtypes are refused with a message
saying what to pass."""

import numpy as np
import pytest

import collision
import scene
from collision import Circle, ConvexPolygon, Obstacle

TRIANGLE = [[0, 0], [4, 0], [0, 3]]
# A trajectory of whole numbers, so that an integer array holds it exactly.
ROWS = [[t, 30 + 10 * t, 1, 0] for t in range(5)]


@pytest.fixture(scope="module")
def checker():
    c = collision.CollisionChecker(scene.scene_config())
    c.set_obstacles(scene.scene_obstacles())
    return c


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.uint8])
def test_integer_arrays_are_read_as_integer_lists(dtype, checker):
    from_list = ConvexPolygon(TRIANGLE)
    from_array = ConvexPolygon(np.array(TRIANGLE, dtype=dtype))
    np.testing.assert_array_equal(from_array.vertices, from_list.vertices)
    prediction = [[0, 0, 0, 0], [1, 5, 0, 0], [2, 10, 0, 0]]
    moving = Obstacle.moving(4, Circle((0, 0), 1), np.array(prediction, dtype=dtype))
    np.testing.assert_array_equal(moving.prediction, Obstacle.moving(4, Circle((0, 0), 1), prediction).prediction)
    np.testing.assert_array_equal(Obstacle.boundary(5, np.array(TRIANGLE, dtype=dtype)).parts[0].corners(),
                                  Obstacle.boundary(5, TRIANGLE).parts[0].corners())
    assert repr(checker.check(np.array(ROWS, dtype=dtype))) == repr(checker.check(ROWS))
    batch = checker.check_all(np.array([ROWS, ROWS], dtype=dtype))
    reference = checker.check_all([ROWS, ROWS])
    np.testing.assert_array_equal(batch.min_clearance, reference.min_clearance)
    np.testing.assert_array_equal(batch.collides, reference.collides)
    profiles = checker.clearance_profiles([np.array(ROWS, dtype=dtype)])
    np.testing.assert_array_equal(profiles[0].signed_distance, checker.clearance_profile(ROWS).signed_distance)


def test_integer_arrays_and_lists_fail_alike(checker):
    # Times that do not increase: the same C++ message either way.
    stuck = [[0, 0, 0, 0], [0, 1, 0, 0]]
    with pytest.raises(collision.TrajectoryError) as from_list:
        checker.check(stuck)
    with pytest.raises(collision.TrajectoryError) as from_array:
        checker.check(np.array(stuck, dtype=np.int64))
    assert str(from_array.value) == str(from_list.value)


def test_float64_in_the_other_byte_order_is_read_as_native(checker):
    other = ">f8" if np.little_endian else "<f8"
    trajectory = np.array(ROWS, dtype=float) + 0.125
    swapped = trajectory.astype(other)
    assert swapped.dtype.byteorder != "="
    assert repr(checker.check(swapped)) == repr(checker.check(trajectory))
    np.testing.assert_array_equal(checker.check_all(np.stack([swapped, swapped])).min_clearance,
                                  checker.check_all(np.stack([trajectory, trajectory])).min_clearance)
    np.testing.assert_array_equal(ConvexPolygon(np.array(TRIANGLE, dtype=other)).vertices,
                                  ConvexPolygon(TRIANGLE).vertices)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.bool_, np.complex128, object])
def test_other_dtypes_are_refused_saying_what_to_pass(dtype, checker):
    hint = r"pass a float64 array \(a\.astype\(numpy\.float64\)\)"
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory: expected a float64 array, got dtype .*" + hint):
        checker.check(np.zeros((5, 4), dtype=dtype))
    with pytest.raises(collision.TrajectoryError, match=r"^trajectories: expected a float64 array, got dtype .*" + hint):
        checker.check_all(np.zeros((2, 5, 4), dtype=dtype))
    with pytest.raises(collision.GeometryError, match=r"^vertices: expected a float64 array, got dtype .*" + hint):
        ConvexPolygon(np.zeros((3, 2), dtype=dtype))
