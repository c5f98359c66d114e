"""risk.enabled, TrajectoryResult.collision_risk and CollisionChecker.risk_per_obstacle: the
probability of a collision under the obstacles' position uncertainty, against a Monte Carlo
estimate of the same model written here in numpy."""

import copy
import math
import pickle

import numpy as np
import pytest

import collision
from collision import Circle, Obb, Obstacle

import scene

CAR_BODY = Obb((0, 0), 0.0, 2.2, 0.9)  # half length 2.2 m, half width 0.9 m
# The oncoming car's prediction: from t0 = 0.5 s at (45, 1.7), 8 m/s along a heading just off -x,
# so that it drifts towards +y while it passes to the left of the ego.
CAR_HEADING = math.pi - 0.03
CAR_T0, CAR_T1, CAR_SPEED = 0.5, 4.0, 8.0
CAR_START = np.array([45.0, 1.7])
CAR_END = CAR_START + CAR_SPEED * (CAR_T1 - CAR_T0) * np.array([math.cos(CAR_HEADING), math.sin(CAR_HEADING)])
CAR_PREDICTION = np.array([[CAR_T0, *CAR_START, CAR_HEADING], [CAR_T1, *CAR_END, CAR_HEADING]])
# Standard deviations at t0 (m) and their growth after it (m/s).
CAR_UNCERTAINTY = collision.PositionUncertainty(longitudinal=0.3, lateral=0.2,
                                                longitudinal_growth=0.2, lateral_growth=0.15)


def _config(risk=True):
    config = collision.default_config()
    config.continuous.enabled = False  # only the poses count (what the Monte Carlo tests)
    config.risk.enabled = risk
    return config


def _checker(obstacles, risk=True):
    c = collision.CollisionChecker(_config(risk))
    c.set_obstacles(obstacles)
    return c


def _car(id=7, prediction=CAR_PREDICTION, uncertainty=CAR_UNCERTAINTY):
    return Obstacle.moving(id, CAR_BODY, prediction).set_class("car").set_uncertainty(uncertainty)


def _mirrored(prediction):
    """The prediction reflected in the x axis: the same car passing on the ego's right."""
    out = np.array(prediction, dtype=float)
    out[:, 2] = -out[:, 2]
    out[:, 3] = -out[:, 3]
    return out


# The Monte Carlo estimate of the risk model: one offset z ~ N(0, I2) per sample, held over the
# whole prediction, moves the body by R(heading) diag(sigma_lon(t), sigma_lat(t)) z.

def _ego_boxes(trajectory, vehicle):
    """Centres (T, 2), unit axes (T, 2) and half sizes of the ego box at each rear-axle pose."""
    h = trajectory[:, 3]
    axis = np.column_stack([np.cos(h), np.sin(h)])
    half_length = 0.5 * (vehicle.rear_overhang + vehicle.wheel_base + vehicle.front_overhang)
    to_centre = 0.5 * (vehicle.wheel_base + vehicle.front_overhang - vehicle.rear_overhang)
    centre = trajectory[:, 1:3] + to_centre * axis
    return centre, axis, half_length, 0.5 * vehicle.width


def _predicted(prediction, t):
    """Linear interpolation of a (P, 4) prediction at the times t, held outside it."""
    return np.column_stack([np.interp(t, prediction[:, 0], prediction[:, k]) for k in (1, 2, 3)])


def _perp(axis):
    return np.stack([-axis[..., 1], axis[..., 0]], axis=-1)


def _boxes_overlap(ca, ua, la, wa, cb, ub, lb, wb):
    """Separating-axis test of oriented rectangles, broadcast over leading axes: centres c, unit
    axes u (along the half length l; the half width w across), (..., 2) arrays."""
    va, vb = _perp(ua), _perp(ub)
    d = cb - ca
    separated = np.zeros(np.broadcast_shapes(d.shape[:-1], ua.shape[:-1], ub.shape[:-1]), dtype=bool)
    for axis in (ua, va, ub, vb):
        ra = la * np.abs(np.sum(ua * axis, -1)) + wa * np.abs(np.sum(va * axis, -1))
        rb = lb * np.abs(np.sum(ub * axis, -1)) + wb * np.abs(np.sum(vb * axis, -1))
        separated |= np.abs(np.sum(d * axis, -1)) > ra + rb
    return ~separated


def _monte_carlo_risk(trajectory, prediction, u, vehicle, samples=20000, seed=3):
    t = trajectory[:, 0]
    ego_c, ego_u, ego_l, ego_w = _ego_boxes(trajectory, vehicle)
    body = _predicted(prediction, t)
    body_u = np.column_stack([np.cos(body[:, 2]), np.sin(body[:, 2])])
    dt = np.maximum(0.0, t - prediction[0, 0])
    sigma_lon = u.longitudinal + u.longitudinal_growth * dt
    sigma_lat = u.lateral + u.lateral_growth * dt
    z = np.random.default_rng(seed).standard_normal((samples, 1, 2))
    offset = (sigma_lon[None, :, None] * z[..., :1] * body_u[None] +
              sigma_lat[None, :, None] * z[..., 1:] * _perp(body_u)[None])
    hit = _boxes_overlap(ego_c[None], ego_u[None], ego_l, ego_w, body[None, :, :2] + offset, body_u[None],
                         CAR_BODY.half_length, CAR_BODY.half_width)
    return float(np.mean(hit.any(axis=1)))


def test_risk_is_off_by_default_and_zero_then():
    config = collision.default_config()
    assert config.risk.enabled is False
    assert collision.RiskConfig().enabled is False
    assert collision.parse_config("{}").risk.enabled is False
    assert collision.parse_config("risk: {enabled: true}\n").risk.enabled is True
    assert repr(config).endswith(", risk=RiskConfig(enabled=False))")
    c = collision.CollisionChecker(config)
    c.set_obstacles([_car(), Obstacle.stationary(1, Circle((20, 0), 1.0))])
    r = c.check(scene.straight())
    assert r.collides and r.collision_probability == 1.0
    assert r.collision_risk == 0.0
    assert "collision_risk=0.0" in repr(r)
    assert c.check(scene.straight(y=30.0)).collision_risk == 0.0


def test_far_obstacle_gives_zero_and_one_on_the_path_gives_one():
    path = scene.straight()
    far = _checker([Obstacle.stationary(1, Circle((20, 30), 1.0)),
                    _car(2, prediction=CAR_PREDICTION + [0.0, 0.0, 30.0, 0.0])])
    r = far.check(path)
    assert not r.collides and r.collision_risk == 0.0
    np.testing.assert_array_equal(far.risk_per_obstacle(path), [0.0, 0.0])
    on_path = _checker([Obstacle.stationary(1, Circle((20, 0), 1.0))])
    r = on_path.check(path)
    assert r.collides and r.collision_risk == 1.0
    np.testing.assert_array_equal(on_path.risk_per_obstacle(path), [1.0])


def test_uncertain_car_beside_the_path_agrees_with_monte_carlo():
    path = scene.straight()
    c = _checker([_car()])
    r = c.check(path)
    assert 0.0 < r.collision_risk < 1.0
    # The car's predicted poses themselves pass beside the ego (a certain verdict with the
    # uncertainty ignored), and the sigma_factor ellipse plays no part in the risk.
    config = _config()
    config.uncertainty.sigma_factor = 0.0
    ignored = collision.CollisionChecker(config)
    ignored.set_obstacles([_car()])
    certain = ignored.check(path)
    assert not certain.collides
    assert certain.collision_risk == pytest.approx(r.collision_risk, abs=1e-12)
    estimate = _monte_carlo_risk(path, CAR_PREDICTION, CAR_UNCERTAINTY, _config().vehicle)
    assert 0.05 < estimate < 0.95  # the scene is a real test of the integration
    assert r.collision_risk == pytest.approx(estimate, abs=0.01)
    assert r.collision_risk == pytest.approx(c.risk_per_obstacle(path)[0], abs=1e-12)


def test_risk_per_obstacle_in_order_and_its_product():
    path = scene.straight()
    left = _car(7)
    right = _car(5, prediction=_mirrored(CAR_PREDICTION),
                 uncertainty=collision.PositionUncertainty(0.4, 0.3, 0.1, 0.25))
    far = Obstacle.stationary(3, Circle((20, 30), 1.0))
    # Two futures without uncertainty: standing on the path (0.3) or far from it (0.7).
    modal = Obstacle.moving(9, Circle((0, 0), 1.0), [(0.3, [[0.0, 25.0, 0.0, 0.0], [4.0, 25.0, 0.0, 0.0]]),
                                                     (0.7, [[0.0, 25.0, 40.0, 0.0], [4.0, 25.0, 40.0, 0.0]])])
    obstacles = [left, far, right, modal]
    c = _checker(obstacles)
    per = c.risk_per_obstacle(path)
    assert isinstance(per, np.ndarray) and per.dtype == np.float64 and per.shape == (4,)
    alone_checkers = [_checker([o]) for o in obstacles]  # kept alive: see the test below
    alone = [a.check(path).collision_risk for a in alone_checkers]
    np.testing.assert_allclose(per, alone, rtol=0, atol=1e-12)
    assert 0.0 < per[0] < 1.0 and per[1] == 0.0 and 0.0 < per[2] < 1.0
    assert per[3] == pytest.approx(0.3, abs=1e-12)
    assert abs(per[0] - per[2]) > 1e-3  # the two cars are told apart by their order
    r = c.check(path)
    assert r.collision_risk == pytest.approx(1.0 - np.prod(1.0 - per), abs=1e-12)
    # The reversed scene gives the values reversed; list rows are taken as check() takes them.
    reversed_checker = _checker(obstacles[::-1])
    np.testing.assert_allclose(reversed_checker.risk_per_obstacle(path.tolist()), per[::-1],
                               rtol=0, atol=1e-12)
    # With risk.enabled off the values are the same (only collision_risk stays 0).
    off = _checker(obstacles, risk=False)
    np.testing.assert_allclose(off.risk_per_obstacle(path), per, rtol=0, atol=1e-12)
    assert off.check(path).collision_risk == 0.0
    assert _checker([]).risk_per_obstacle(path).shape == (0,)
    with pytest.raises(collision.TrajectoryError, match=r"expected shape \(T, 4\)"):
        c.risk_per_obstacle(np.zeros((3, 3)))
    doc = collision.CollisionChecker.risk_per_obstacle.__doc__
    assert "set_obstacles" in doc and "(T, 4)" in doc and "Gaussian" in doc


def test_a_scene_with_nothing_near_has_no_risk_after_one_with_hits():
    """The risk's scan keeps its working memory per thread: a trajectory with nothing near it at
    all must not see the parts an earlier scan (of another checker's scene) hit. The earlier
    checker is kept alive so that a stale part shows as a wrong value, not a read of freed
    memory."""
    path = scene.straight()
    box_ego = collision.default_config().vehicle
    polygon_ego = collision.default_config().vehicle
    polygon_ego.footprint = [(-1.0, -0.9), (3.8, -0.9), (4.1, 0.0), (3.8, 0.9), (-1.0, 0.9)]
    for vehicle in (box_ego, polygon_ego):
        config = _config()
        config.vehicle = vehicle
        hit = collision.CollisionChecker(config)
        hit.set_obstacles([Obstacle.stationary(1, Circle((20, 0), 1.0))])
        assert hit.check(path).collision_risk == 1.0
        np.testing.assert_array_equal(hit.risk_per_obstacle(path), [1.0])
        far = collision.CollisionChecker(config)
        far.set_obstacles([Obstacle.stationary(2, Circle((20, 30), 1.0))])
        assert far.check(path).collision_risk == 0.0
        np.testing.assert_array_equal(far.risk_per_obstacle(path), [0.0])
        # And within one checker, a trajectory far from everything after one through it.
        assert hit.check(scene.straight(y=30.0)).collision_risk == 0.0
        np.testing.assert_array_equal(hit.risk_per_obstacle(scene.straight(y=30.0)), [0.0])


def test_pickle_and_copy_keep_risk_enabled():
    config = _config(risk=True)
    back = pickle.loads(pickle.dumps(config, protocol=pickle.HIGHEST_PROTOCOL))
    assert back.risk.enabled is True
    assert repr(back) == repr(config) and "risk=RiskConfig(enabled=True)" in repr(back)
    assert copy.deepcopy(config).risk.enabled is True
    section = pickle.loads(pickle.dumps(config.risk))
    assert isinstance(section, collision.RiskConfig) and section.enabled is True
    assert repr(section) == "RiskConfig(enabled=True)"
    path = scene.straight()
    direct = _checker([_car()])
    copied = collision.CollisionChecker(back)
    copied.set_obstacles(pickle.loads(pickle.dumps([_car()])))
    assert copied.check(path).collision_risk == direct.check(path).collision_risk > 0.0


def test_check_all_gives_each_trajectorys_risk_as_an_array():
    """check_all's collision_risk column is each trajectory's own check().collision_risk, in
    order, at every thread count; without risk.enabled it is all zeros."""
    paths = [scene.straight(y=y) for y in (-0.6, 0.0, 0.8, 1.6, 30.0)]
    c = _checker([_car()])
    single = np.array([c.check(p).collision_risk for p in paths])
    assert single[-1] == 0.0 and np.all(single[:-1] > 0.0)
    assert len(set(single.tolist())) == len(paths)  # a real test of the order
    for threads in (1, 2):
        config = _config()
        config.threads = threads
        batched = collision.CollisionChecker(config)
        batched.set_obstacles([_car()])
        b = batched.check_all(paths)
        assert b.collision_risk.dtype == np.float64 and b.collision_risk.shape == (len(paths),)
        np.testing.assert_allclose(b.collision_risk, single, rtol=0, atol=1e-12)
        assert [b[i].collision_risk for i in range(len(paths))] == b.collision_risk.tolist()
    off = _checker([_car()], risk=False).check_all(paths)
    np.testing.assert_array_equal(off.collision_risk, np.zeros(len(paths)))
