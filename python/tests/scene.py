"""The scene of python/tests/parity.cpp, built with the Python API (keep the two in step)."""

import subprocess

import numpy as np

import collision
from collision import Circle, ConvexPolygon, Ellipse, Obb, Obstacle


def scene_obstacles():
    return [
        Obstacle.stationary(1, ConvexPolygon([(20, -1), (24.5, -1), (24.5, 1), (20, 1)])).set_class("car"),
        Obstacle.moving(2, Obb((0, 0), 0.0, 0.9, 0.3), np.array([[0.0, 30.0, 5.0, -1.57], [2.0, 30.0, -3.0, -1.57]]))
        .set_class(collision.ObstacleClass.bicycle),
        Obstacle.stationary(3, Circle((12, 5.8), 0.3)).set_class("pedestrian"),
        Obstacle.boundary(4, [(0, -2.5), (60, -2.5)]),
        Obstacle.stationary(5, np.array([[40, 6], [50, 6], [50, 8], [44, 8], [44, 12], [40, 12]], dtype=float))
        .set_class("static_object"),
        Obstacle.stationary(6, Ellipse((35, -1.5), 0.3, 1.2, 0.5)),
        Obstacle.moving(
            7,
            Ellipse((0, 0), 0.0, 0.4, 0.3),
            [[0.0, 15.0, -4.0, 1.57], [1.0, 15.0, -2.0, 1.57], [3.0, 15.5, 2.0, 1.4]],
        ).set_class("pedestrian"),
        Obstacle.moving(8, ConvexPolygon([(-2, -1), (2, 0), (-2, 1)]), np.array([[0.5, 55.0, 3.0, 0.0]]))
        .set_class("truck"),
        Obstacle.stationary(9, Obb((60, 1), 0.3, 2.0, 1.0)).set_class("bus"),
    ]


def scene_config():
    config = collision.default_config()
    config.margins.by_class["pedestrian"] = 0.5
    config.margins.by_class[collision.ObstacleClass.bicycle] = 0.3
    config.margins.lateral = 0.1
    config.clearance.horizon = 8.0
    return config


def modes_obstacles():
    """scene_obstacles() plus prediction modes and position uncertainty (parity_scene.hpp)."""
    crossing = [
        (0.55, np.array([[0.0, 28.0, 8.0, -1.5708], [3.0, 28.0, -2.0, -1.5708]])),
        (0.35, np.array([[0.0, 26.0, 8.0, -1.5708], [4.0, 26.0, 6.5, -1.5708]])),
        collision.PredictionMode(0.04, [[0.0, 28.0, 8.0, -0.8], [3.0, 36.0, 0.0, -0.8]]),
    ]
    return scene_obstacles() + [
        Obstacle.moving(10, Obb((0, 0), 0.0, 2.2, 0.9), crossing)
        .set_class("car")
        .set_uncertainty(collision.PositionUncertainty(0.2, 0.1, 0.3, 0.1)),
        Obstacle.moving(11, Ellipse((0, 0), 0.0, 0.4, 0.3), [(0.7, [[2.0, 45.0, 4.0, -1.5708], [4.0, 45.0, 0.0, -1.5708]])])
        .set_class("pedestrian")
        .set_uncertainty(longitudinal=0.1, lateral=0.1, longitudinal_growth=0.2, lateral_growth=0.2),
        Obstacle.moving(12, Obb((0, 0), 0.0, 2.3, 0.95), np.array([[0.0, 62.0, 1.5, 3.1416], [4.0, 42.0, 1.5, 3.1416]]))
        .set_class("car")
        .set_uncertainty(longitudinal=0.3, lateral=0.2, longitudinal_growth=0.5),
    ]


def modes_config():
    config = scene_config()
    config.obstacles.min_mode_probability = 0.05
    config.uncertainty.sigma_factor = 1.5
    return config


def candidates(n=300, poses=41, seed=7):
    """n lane changes from (0, 0) heading +x: random speeds, lateral offsets and durations."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 4.0, poses)
    speed = rng.uniform(4.0, 16.0, n)[:, None]
    offset = rng.uniform(-3.0, 6.0, n)[:, None]
    duration = rng.uniform(1.5, 4.0, n)[:, None]
    s = np.clip(t[None, :] / duration, 0.0, 1.0)
    blend = 10 * s**3 - 15 * s**4 + 6 * s**5
    dblend = (30 * s**2 - 60 * s**3 + 30 * s**4) / duration * (t[None, :] < duration)
    x = speed * t[None, :]
    y = offset * blend
    heading = np.arctan2(offset * dblend, speed)
    out = np.empty((n, poses, 4))
    out[:, :, 0] = t
    out[:, :, 1] = x
    out[:, :, 2] = y
    out[:, :, 3] = heading
    return out


_DISC = Circle((0, 0), 1.0)
_PATH = np.array([[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]])


def straight(y=0.0, speed=10.0, poses=41, duration=4.0):
    """A trajectory (T, 4) along +x at y, from x = 0 at t = 0."""
    t = np.linspace(0.0, duration, poses)
    return np.column_stack([t, speed * t, np.full_like(t, y), np.zeros_like(t)])


def scene_checker():
    """A checker of the parity scene (scene_config and scene_obstacles)."""
    c = collision.CollisionChecker(scene_config())
    c.set_obstacles(scene_obstacles())
    return c


def parity_rows(parity_exe, tmp_path, cand, *flags):
    """What parity.cpp computes on the candidates (N, T, 4): they are written to a file as the
    two int64 dimensions and the float64 values, the program runs with the flags and the file,
    and each line it prints is one row of numbers."""
    path = tmp_path / "candidates.bin"
    with open(path, "wb") as f:
        np.array(cand.shape[:2], dtype=np.int64).tofile(f)
        cand.tofile(f)
    out = subprocess.run([parity_exe, *flags, str(path)], check=True, capture_output=True, text=True).stdout
    return np.array([[float(v) for v in line.split()] for line in out.splitlines()])


def _checker():
    return collision.CollisionChecker(collision.default_config())


def _bad_batch():
    good = np.array([[0.0, 0, 0, 0], [1.0, 1, 0, 0]])
    bad = np.array([[0.0, 0, 0, 0], [1.0, np.nan, 0, 0]])
    _checker().check_all([good, good, bad])


def _bad_config():
    config = collision.default_config()
    config.narrow_phase.max_gjk_iterations = 1
    collision.CollisionChecker(config)


# (exception type, callable) in the order of print_errors() in parity.cpp.
ERROR_CASES = [
    (collision.GeometryError, lambda: Circle((0, 0), -1.0)),
    (collision.GeometryError, lambda: Obb((0, float("nan")), 0.0, 1.0, 1.0)),
    (collision.GeometryError, lambda: Ellipse((0, 0), 0.0, 1.0, -2.0)),
    (collision.GeometryError, lambda: ConvexPolygon([(0, 0), (1, 0), (2, 0)])),
    (collision.GeometryError, lambda: ConvexPolygon([(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)])),
    (collision.GeometryError, lambda: Obstacle.stationary(5, [(0, 0), (2, 2), (2, 0), (0, 2)])),
    (collision.GeometryError, lambda: Obstacle.moving(7, Circle((0, 0), 1.0), [[0.0, 0, 0, 0], [0.0, 1, 0, 0]])),
    (collision.GeometryError, lambda: Obstacle.moving(8, Circle((0, 0), 1.0), [[0.0, np.inf, 0, 0]])),
    (collision.GeometryError, lambda: Obstacle.boundary(9, [(0, 0)])),
    (
        collision.GeometryError,
        lambda: _checker().set_obstacles(
            [Obstacle.stationary(3, Circle((0, 0), 1)), Obstacle.stationary(3, Circle((5, 0), 1))]
        ),
    ),
    (collision.TrajectoryError, _bad_batch),
    (collision.TrajectoryError, lambda: _checker().check(np.array([[0.0, 0, 0, 0], [0.0, 1, 0, 0]]))),
    (collision.TrajectoryError, lambda: _checker().check(np.zeros((0, 4)))),
    (collision.ConfigError, lambda: collision.parse_config("vehicle:\n  width: -1\n")),
    (collision.ConfigError, lambda: collision.parse_config("vehicle:\n  wdth: 2\n")),
    (collision.ConfigError, lambda: collision.load_config("/nonexistent/collision.yaml")),
    (collision.ConfigError, _bad_config),
    # Prediction modes and position uncertainty.
    (collision.GeometryError, lambda: Obstacle.moving(20, _DISC, [(0.0, _PATH)])),
    (collision.GeometryError, lambda: Obstacle.moving(21, _DISC, [(1.5, _PATH)])),
    (collision.GeometryError, lambda: Obstacle.moving(22, _DISC, [(0.6, _PATH), (0.5, _PATH)])),
    (collision.GeometryError, lambda: Obstacle.moving(24, _DISC, [(0.5, _PATH), (0.5, [[0.0, 0, 0, 0], [0.0, 1, 0, 0]])])),
    (collision.GeometryError, lambda: Obstacle.moving(25, _DISC, _PATH).set_uncertainty(longitudinal=0.1, lateral=-0.2)),
    (
        collision.GeometryError,
        lambda: Obstacle.moving(26, _DISC, _PATH).set_uncertainty(
            collision.PositionUncertainty(0.1, 0.1, float("nan"), 0.0)
        ),
    ),
    (collision.GeometryError, lambda: Obstacle.stationary(27, _DISC).set_uncertainty(longitudinal=0.1, lateral=0.1)),
    (collision.GeometryError, lambda: Obstacle.stationary(28, [])),
    (collision.ConfigError, lambda: collision.parse_config("obstacles:\n  min_mode_probability: 1.5\n")),
    (collision.ConfigError, lambda: collision.parse_config("uncertainty:\n  sigma_factor: -1\n")),
]

# A CommonRoad scenario with an unknown obstacle type on line 4 (parity_scene.hpp's kBadCommonRoad).
BAD_COMMONROAD = """<?xml version="1.0" encoding="UTF-8"?>
<commonRoad commonRoadVersion="2020a" benchmarkID="ZAM_Bad-1_1_T-1" timeStepSize="0.1">
  <dynamicObstacle id="42">
    <obstacleType>spaceship</obstacleType>
  </dynamicObstacle>
</commonRoad>
"""

# Printed after ERROR_CASES when the CommonRoad reader is built (print_errors() in parity.cpp).
if hasattr(collision, "load_commonroad"):
    ERROR_CASES += [
        (collision.ScenarioError, lambda: collision.parse_commonroad("<commonRoad", "broken.xml")),
        (collision.ScenarioError, lambda: collision.parse_commonroad(BAD_COMMONROAD, "bad.xml")),
        (collision.ScenarioError, lambda: collision.load_commonroad("/nonexistent/scenario.xml")),
    ]
