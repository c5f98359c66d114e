"""Articulated vehicles from Python: (T, 4 + n) trajectories with hitch angles, follow_hitch,
TrailerParams in the config, and the bodies in the results, against a placement of the bodies
written here in numpy."""

import math
import pickle

import numpy as np
import pytest

import collision
from collision import Obb, Obstacle

SEMI = collision.TrailerParams(hitch_offset=0.3, front=1.6, rear=12.0, width=2.55, axle=8.0)


def _config(continuous=True):
    config = collision.default_config()
    config.vehicle.wheel_base = 3.8
    config.vehicle.front_overhang = 1.4
    config.vehicle.rear_overhang = 0.9
    config.vehicle.width = 2.5
    config.vehicle.trailers = [SEMI]
    config.continuous.enabled = continuous
    return config


def _towing(n=40, turn=0.01):
    t = np.arange(n) * 0.1
    heading = turn * np.arange(n)
    x = np.cumsum(np.r_[0, 0.6 * np.cos(heading[:-1])])
    y = np.cumsum(np.r_[0, 0.6 * np.sin(heading[:-1])])
    return np.column_stack([t, x, y, heading])


def _trailer_corners(row):
    """The trailer's box at one (t, x, y, heading, hitch) row, world frame."""
    _, x, y, heading, hitch = row
    hx, hy = x + SEMI.hitch_offset * math.cos(heading), y + SEMI.hitch_offset * math.sin(heading)
    psi = heading + hitch
    c, s = math.cos(psi), math.sin(psi)
    local = [(-SEMI.rear, -SEMI.width / 2), (SEMI.front, -SEMI.width / 2),
             (SEMI.front, SEMI.width / 2), (-SEMI.rear, SEMI.width / 2)]
    return np.array([(hx + c * u - s * v, hy + s * u + c * v) for u, v in local])


def test_follow_hitch_gives_one_angle_column_per_trailer_and_keeps_a_straight_path_straight():
    config = _config()
    straight = _towing(turn=0.0)
    out = collision.follow_hitch(straight, config.vehicle)
    assert out.shape == (len(straight), 5)
    np.testing.assert_array_equal(out[:, :4], straight)
    np.testing.assert_array_equal(out[:, 4], 0.0)
    # A small initial angle decays while driving forward.
    decayed = collision.follow_hitch(straight, config.vehicle, [0.2])
    assert 0 < decayed[-1, 4] < 0.2


def test_only_the_trailer_reaches_a_post_behind_the_tractor():
    config = _config()
    rows = collision.follow_hitch(_towing(), config.vehicle, [0.3])
    # A post just inside the trailer's box at point 5 and far from the tractor.
    corners = _trailer_corners(rows[5])
    rear_mid = 0.5 * (corners[0] + corners[3])
    inside = rear_mid + 0.3 * (corners[1] - corners[0]) / np.linalg.norm(corners[1] - corners[0])
    checker = collision.CollisionChecker(config)
    checker.set_obstacles([Obstacle.stationary(7, Obb(tuple(inside), 0.0, 0.1, 0.1))])
    result = checker.check(rows)
    assert result.collides and result.body == 1 and result.obstacle_id == 7
    assert result.first_collision_index is not None and result.first_collision_index <= 5
    # The tractor alone (no trailers) misses it.
    alone = _config()
    alone.vehicle.trailers = []
    alone_checker = collision.CollisionChecker(alone)
    alone_checker.set_obstacles([Obstacle.stationary(7, Obb(tuple(inside), 0.0, 0.1, 0.1))])
    assert not alone_checker.check(rows[:, :4]).collides
    batch = checker.check_all(np.stack([rows, rows]))
    np.testing.assert_array_equal(batch.body, [1, 1])
    assert batch[0].first_collision_index == result.first_collision_index


def test_a_plain_trajectory_with_trailers_configured_is_refused():
    checker = collision.CollisionChecker(_config())
    with pytest.raises(collision.TrajectoryError, match="1 trailers: check an ArticulatedTrajectory"):
        checker.check(_towing())
    rows = collision.follow_hitch(_towing(), _config().vehicle)
    bad = np.column_stack([rows, np.full(len(rows), 0.1)])  # a second hitch angle, no trailer
    with pytest.raises(collision.TrajectoryError, match=r"hitch_angles\[1\]"):
        checker.check(bad)
    with pytest.raises(collision.TrajectoryError, match="4 \\+ n"):
        checker.check(np.zeros((3, 9)))


def test_profile_reports_the_deciding_body_and_a_hitch_gradient_that_matches_differences():
    config = _config(continuous=False)
    checker = collision.CollisionChecker(config)
    checker.set_obstacles([Obstacle.boundary(1, [(-30.0, -3.5), (60.0, -3.5)])])
    rows = collision.follow_hitch(_towing(turn=0.0), config.vehicle, [0.15])
    profile = checker.clearance_profile(rows)
    assert profile.body.shape == (len(rows),) and profile.hitch_gradient.shape == (len(rows), 3)
    i = 2
    assert profile.body[i] == 1  # the swung-out trailer's rear corner is nearest the border
    h = 1e-6
    up, down = rows.copy(), rows.copy()
    up[i, 4] += h
    down[i, 4] -= h
    fd = (checker.clearance_profile(up).signed_distance[i]
          - checker.clearance_profile(down).signed_distance[i]) / (2 * h)
    assert profile.hitch_gradient[i, 0] == pytest.approx(fd, abs=1e-5)
    assert profile[i].body == 1


def test_trailers_survive_config_files_and_pickling():
    config = collision.parse_config(
        "vehicle:\n  trailers:\n    - {hitch_offset: -1.0, front: -0.5, rear: 4.0, width: 1.8, axle: 3.0}\n")
    assert len(config.vehicle.trailers) == 1
    trailer = config.vehicle.trailers[0]
    assert (trailer.hitch_offset, trailer.front, trailer.rear, trailer.width, trailer.axle) == (
        -1.0, -0.5, 4.0, 1.8, 3.0)
    again = pickle.loads(pickle.dumps(config.vehicle))
    assert again.trailers == config.vehicle.trailers
    assert pickle.loads(pickle.dumps(SEMI)) == SEMI
    with pytest.raises(collision.ConfigError, match=r"vehicle\.trailers\[0\]\.width"):
        collision.parse_config(
            "vehicle:\n  trailers:\n    - {hitch_offset: 0, front: 1, rear: 4, width: -1, axle: 3}\n")
