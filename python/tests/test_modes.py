"""Prediction modes, position uncertainty, shape groups and the results' mode and
collision_probability: the bindings, their errors and parity with C++ (parity.cpp --modes)."""


import numpy as np
import pytest

import collision
from collision import Circle, Obb, Obstacle

import scene

PATH = np.array([[0.0, 10.0, 0.0, 0.0], [4.0, 10.0, 0.0, 0.0]])  # standing at (10, 0)
AWAY = np.array([[0.0, 10.0, 30.0, 0.0], [4.0, 10.0, 30.0, 0.0]])  # standing far to the left


def _straight(speed=5.0, poses=41):
    t = np.linspace(0.0, 4.0, poses)
    return np.column_stack([t, speed * t, np.zeros_like(t), np.zeros_like(t)])


def test_prediction_mode_and_uncertainty_classes():
    m = collision.PredictionMode(0.25, PATH)
    assert m.probability == 0.25
    np.testing.assert_array_equal(m.poses, PATH)
    assert m.poses.dtype == np.float64 and m.poses.shape == (2, 4)
    assert "0.25" in repr(m)
    u = collision.PositionUncertainty(lateral=0.5, lateral_growth=0.2)
    assert (u.longitudinal, u.lateral, u.longitudinal_growth, u.lateral_growth) == (0.0, 0.5, 0.0, 0.2)
    u.longitudinal = 1.0
    assert u == collision.PositionUncertainty(1.0, 0.5, 0.0, 0.2)
    assert "lateral=0.5" in repr(u)
    with pytest.raises(collision.GeometryError, match=r"expected shape \(T, 4\)"):
        collision.PredictionMode(0.5, np.zeros((3, 2)))


def test_moving_with_modes():
    o = Obstacle.moving(5, Circle((0, 0), 1.0), [(0.6, PATH), (0.3, AWAY.tolist())])
    assert o.is_moving and o.is_multi_modal
    assert [m.probability for m in o.modes] == [0.6, 0.3]
    np.testing.assert_array_equal(o.modes[1].poses, AWAY)
    np.testing.assert_array_equal(o.prediction, PATH)  # mode 0
    assert o.pose_at(1.0, mode=1) == (10.0, 30.0, 0.0)
    with pytest.raises(IndexError):
        o.pose_at(1.0, mode=2)
    # PredictionMode objects, tuples or lists, and one mode only.
    both = Obstacle.moving(6, Circle((0, 0), 1.0), [collision.PredictionMode(0.5, PATH), [0.5, AWAY]])
    assert [m.probability for m in both.modes] == [0.5, 0.5]
    one = Obstacle.moving(7, Circle((0, 0), 1.0), [(1.0, PATH)])
    assert one.is_multi_modal and len(one.modes) == 1
    # A single prediction stays a (T, 4) array or list of rows, given as one mode of probability 1.
    single = Obstacle.moving(8, Circle((0, 0), 1.0), PATH.tolist())
    assert not single.is_multi_modal and single.modes[0].probability == 1.0
    assert Obstacle.stationary(9, Circle((0, 0), 1.0)).modes == []


def test_moving_with_modes_errors():
    disc = Circle((0, 0), 1.0)
    with pytest.raises(collision.GeometryError, match="obstacle 3") as info:
        Obstacle.moving(3, disc, [(0.0, PATH)])
    assert "mode 0" in str(info.value)
    with pytest.raises(collision.GeometryError, match="obstacle 3"):
        Obstacle.moving(3, disc, [(0.7, PATH), (0.7, AWAY)])  # sum > 1
    with pytest.raises(collision.GeometryError, match="obstacle 3"):
        Obstacle.moving(3, disc, [(float("nan"), PATH)])
    # The slack of the C++ library: round-off over 1 is accepted.
    Obstacle.moving(3, disc, [(0.5, PATH), (0.5 + 1e-12, AWAY)])
    with pytest.raises(collision.GeometryError, match=r"obstacle 3: mode 1: prediction: expected shape \(T, 4\)"):
        Obstacle.moving(3, disc, [(0.5, PATH), (0.5, np.zeros((2, 3)))])
    with pytest.raises(collision.GeometryError, match="obstacle 3: mode 1: prediction: expected a float64 array"):
        Obstacle.moving(3, disc, [(0.5, PATH), (0.5, PATH.astype(np.float32))])
    with pytest.raises(TypeError, match="obstacle 3: mode 0: the probability is not a number"):
        Obstacle.moving(3, disc, [("likely", PATH)])
    with pytest.raises(TypeError, match="obstacle 3: mode 1: expected a"):
        Obstacle.moving(3, disc, [(0.5, PATH), 0.5])
    with pytest.raises(collision.GeometryError):
        Obstacle.moving(3, disc, [])


def test_set_uncertainty():
    o = Obstacle.moving(4, Circle((0, 0), 1.0), PATH)
    assert o.uncertainty == collision.PositionUncertainty()
    assert o.set_uncertainty(longitudinal=0.5, lateral_growth=0.1) is o
    assert o.uncertainty == collision.PositionUncertainty(0.5, 0.0, 0.0, 0.1)
    o.set_uncertainty(collision.PositionUncertainty(1, 2, 3, 4))
    assert o.uncertainty == collision.PositionUncertainty(1, 2, 3, 4)
    o.uncertainty.lateral = -5.0  # a copy: the obstacle keeps its validated values
    assert o.uncertainty == collision.PositionUncertainty(1, 2, 3, 4)
    o.set_uncertainty()  # all zero
    assert o.uncertainty == collision.PositionUncertainty()
    with pytest.raises(TypeError, match="not both"):
        o.set_uncertainty(collision.PositionUncertainty(1, 1), lateral=2.0)
    with pytest.raises(collision.GeometryError, match="obstacle 4") as info:
        o.set_uncertainty(lateral=-0.1)
    assert "lateral" in str(info.value) and "-0.1" in str(info.value)
    with pytest.raises(collision.GeometryError, match="obstacle 4"):
        o.set_uncertainty(longitudinal=float("inf"))
    with pytest.raises(collision.GeometryError, match="obstacle 5"):
        Obstacle.stationary(5, Circle((0, 0), 1.0)).set_uncertainty(lateral=0.1)
    with pytest.raises(collision.GeometryError, match="obstacle 6"):
        Obstacle.boundary(6, [(0, 0), (1, 0)]).set_uncertainty(lateral=0.1)


def test_stationary_shape_group():
    o = Obstacle.stationary(7, [Obb((10, 0), 0.0, 2.0, 1.0), Circle((13, 0), 1.0)])
    assert len(o.parts) == 2 and isinstance(o.parts[1], Circle)
    c = collision.CollisionChecker()
    c.set_obstacles([o])
    r = c.check(_straight())
    assert r.collides and r.obstacle_id == 7
    with pytest.raises(TypeError, match="expected Circle, Obb, ConvexPolygon or Ellipse"):
        Obstacle.stationary(7, [Circle((0, 0), 1.0), (1.0, 2.0)])
    with pytest.raises(collision.GeometryError):
        Obstacle.stationary(7, [])


def test_results_mode_and_collision_probability():
    # A car that stays at (12, 0) with 0.6 and leaves with 0.3; the ego drives through (12, 0).
    car = Obstacle.moving(1, Obb((0, 0), 0.0, 2.0, 0.9), [(0.3, AWAY), (0.6, PATH + [0, 2, 0, 0])])
    c = collision.CollisionChecker()
    c.set_obstacles([car])
    r = c.check(_straight())
    assert r.collides and r.obstacle_id == 1 and r.mode == 1
    assert r.collision_probability == pytest.approx(0.6)
    free = c.check(_straight() + [0, 0, -20, 0])
    assert not free.collides and free.mode == 0 and free.collision_probability == 0.0
    assert "collision_probability=" in repr(r)
    batch = c.check_all(np.stack([_straight(), _straight() + [0, 0, -20, 0]]))
    assert batch.mode.dtype == np.int64 and batch.collision_probability.dtype == np.float64
    np.testing.assert_array_equal(batch.mode, [1, 0])
    np.testing.assert_array_equal(batch.collision_probability, [r.collision_probability, 0.0])
    # A plain obstacle hit: probability 1. min_mode_probability skips the mode: free.
    c.set_obstacles([Obstacle.stationary(2, Circle((12, 0), 1.0))])
    assert c.check(_straight()).collision_probability == 1.0
    config = collision.default_config()
    config.obstacles.min_mode_probability = 0.7
    c = collision.CollisionChecker(config)
    c.set_obstacles([car])
    assert not c.check(_straight()).collides


def test_uncertainty_grows_the_obstacle():
    # A car 3 m beside the ego's path: free without uncertainty, hit with a large one.
    car = Obstacle.moving(1, Obb((0, 0), 0.0, 2.0, 0.9), PATH + [0, 2, 3.5, 0])
    c = collision.CollisionChecker()
    c.set_obstacles([car])
    assert not c.check(_straight()).collides
    car.set_uncertainty(lateral=1.0)
    c.set_obstacles([car])
    assert c.check(_straight()).collides
    config = collision.default_config()
    config.uncertainty.sigma_factor = 0.0  # uncertainty ignored
    c.set_config(config)
    assert not c.check(_straight()).collides


def test_modes_results_match_cpp(parity_exe, tmp_path):
    cand = scene.candidates(n=300)
    cpp = scene.parity_rows(parity_exe, tmp_path, cand, "--modes")
    assert cpp.shape == (300, 6)
    c = collision.CollisionChecker(scene.modes_config())
    c.set_obstacles(scene.modes_obstacles())
    batch = c.check_all(cand)
    np.testing.assert_array_equal(batch.collides, cpp[:, 0] == 1)
    np.testing.assert_array_equal(batch.first_collision_index, cpp[:, 1])
    np.testing.assert_array_equal(batch.obstacle_id, cpp[:, 2])
    np.testing.assert_array_equal(batch.mode, cpp[:, 3])
    np.testing.assert_array_equal(batch.collision_probability, cpp[:, 4])
    np.testing.assert_array_equal(batch.min_clearance, cpp[:, 5])
    for i in range(0, 300, 7):  # check() agrees with check_all
        one = c.check(cand[i])
        assert one.mode == cpp[i, 3] and one.collision_probability == cpp[i, 4]
    # The scene exercises the modes: hits of the multi-modal obstacles, a mode other than 0, and
    # probabilities strictly between 0 and 1.
    assert 10 in set(batch.obstacle_id.tolist())
    assert (batch.mode > 0).any()
    p = batch.collision_probability
    assert ((p > 0) & (p < 1)).any()


def test_docstrings_give_units():
    assert "probability" in Obstacle.moving.__doc__ and "(probability, (P_k, 4) array)" in Obstacle.moving.__doc__
    doc = Obstacle.set_uncertainty.__doc__
    assert "metres" in doc and "metres per second" in doc
    assert "m/s" in collision.PositionUncertainty.lateral_growth.__doc__
    assert "collision_probability (float64" in collision.CollisionChecker.check_all.__doc__
    assert "sigma_factor" in dir(collision.UncertaintyConfig)
