import copy
import pathlib

import numpy as np
import pytest

import collision

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _as_dict(config):
    out = {}
    for section in ["vehicle", "margins", "uncertainty", "continuous", "clearance", "obstacles", "trajectory", "broad_phase", "narrow_phase", "risk"]:
        obj = getattr(config, section)
        for key in dir(obj):
            if key.startswith("_"):
                continue
            value = getattr(obj, key)
            if callable(value):
                continue
            if isinstance(value, collision.ClassMargins):
                value = value.to_dict()
            if isinstance(value, np.ndarray):
                value = value.tolist()
            out[f"{section}.{key}"] = value
    out["threads"] = config.threads
    return out


def test_default_equals_file_and_empty_text():
    d = _as_dict(collision.default_config())
    assert d == _as_dict(collision.load_config(str(ROOT / "config" / "default.yaml")))
    assert d == _as_dict(collision.parse_config("{}"))
    assert d == _as_dict(collision.CheckerConfig())
    assert d["vehicle.wheel_base"] == 2.85 and d["continuous.enabled"] is True
    assert d["obstacles.outside_prediction"] == collision.OutsidePrediction.hold
    assert d["uncertainty.sigma_factor"] == 2.0 and d["obstacles.min_mode_probability"] == 0.0


def test_nested_sections_are_changed_in_place():
    config = collision.default_config()
    config.vehicle.width = 2.0
    config.margins.by_class["pedestrian"] = 0.5
    config.margins.by_class[collision.ObstacleClass.bicycle] = 0.3
    config.continuous.enabled = False
    config.broad_phase.poses_per_query = 4
    config.narrow_phase.contact_tolerance = 1e-6
    config.obstacles.outside_prediction = collision.OutsidePrediction.ignore
    config.clearance.horizon = 0.0
    config.threads = 1
    assert config.vehicle.width == 2.0
    assert config.margins.by_class["pedestrian"] == 0.5
    assert config.margins.by_class["bicycle"] == 0.3
    assert config.margins.by_class.to_dict()["car"] == 0.0
    assert len(config.margins.by_class) == 9 and "road_boundary" in config.margins.by_class.keys()
    assert config.continuous.enabled is False and config.broad_phase.poses_per_query == 4
    checker = collision.CollisionChecker(config)
    seen = checker.config
    assert seen.vehicle.width == 2.0 and seen.margins.by_class["pedestrian"] == 0.5
    assert seen.obstacles.outside_prediction == collision.OutsidePrediction.ignore
    with pytest.raises(KeyError, match="unknown obstacle class 'elephant'"):
        config.margins.by_class["elephant"] = 1.0


def test_same_config_as_yaml():
    text = """
vehicle: {width: 2.0}
margins: {lateral: 0.2, by_class: {pedestrian: 0.5}}
continuous: {enabled: false}
uncertainty: {sigma_factor: 3.0}
obstacles: {min_mode_probability: 0.1}
trajectory: {max_speed: 45.0, max_yaw_rate: 1.25}
"""
    config = collision.default_config()
    config.vehicle.width = 2.0
    config.margins.lateral = 0.2
    config.margins.by_class["pedestrian"] = 0.5
    config.continuous.enabled = False
    config.uncertainty.sigma_factor = 3.0
    config.obstacles.min_mode_probability = 0.1
    config.trajectory.max_speed = 45.0
    config.trajectory.max_yaw_rate = 1.25
    assert _as_dict(config) == _as_dict(collision.parse_config(text))
    assert collision.CollisionChecker(config).config.uncertainty.sigma_factor == 3.0


def test_deepcopy_is_independent_and_sections_are_views():
    config = collision.default_config()
    other = copy.deepcopy(config)
    other.vehicle.width = 3.0
    assert config.vehicle.width == 1.92
    vehicle = config.vehicle
    vehicle.wheel_base = 3.0
    assert config.vehicle.wheel_base == 3.0


def test_custom_footprint():
    config = collision.default_config()
    assert config.vehicle.footprint.shape == (0, 2)
    config.vehicle.footprint = [(-1, -1), (3, -1), (3, 1), (-1, 1)]
    assert config.vehicle.footprint.shape == (4, 2)
    collision.validate(config)
    config.vehicle.footprint = None
    assert config.vehicle.footprint.shape == (0, 2)


def test_validate_and_set_config_errors():
    config = collision.default_config()
    config.vehicle.width = -1
    with pytest.raises(collision.ConfigError, match=r"vehicle.width: must be > 0"):
        collision.validate(config)
    checker = collision.CollisionChecker()
    with pytest.raises(collision.ConfigError, match="vehicle.width"):
        checker.set_config(config)
    assert checker.config.vehicle.width == 1.92  # the old config stays
    good = collision.default_config()
    good.vehicle.width = 2.2
    checker.set_config(good)
    assert checker.config.vehicle.width == 2.2


def test_config_errors_name_file_and_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("vehicle:\n  width: 2\nnarrow_phase:\n  warm_start: 3\n")
    with pytest.raises(collision.ConfigError, match=rf"^{path}:4: narrow_phase.warm_start"):
        collision.load_config(str(path))
    with pytest.raises(collision.ConfigError, match=r"^<config>:1: "):
        collision.parse_config("bogus: 1\n")


def test_trajectory_limits_are_off_by_default_and_refuse_slips():
    config = collision.default_config()
    assert config.trajectory.max_speed == 0.0 and config.trajectory.max_yaw_rate == 0.0
    # A left turn at 10 m/s, 0.5 rad/s, every 0.1 s; and its headings in degrees.
    k = np.arange(21, dtype=float)
    turn = np.column_stack([0.1 * k, 1.0 * k, np.zeros_like(k), 0.05 * k])
    degrees = turn.copy()
    degrees[:, 3] = np.degrees(turn[:, 3])
    collision.CollisionChecker(config).check(degrees)  # off: checked as given
    config.trajectory.max_yaw_rate = 1.5
    checker = collision.CollisionChecker(config)
    checker.check(turn)
    with pytest.raises(collision.TrajectoryError,
                       match=r"^trajectory point 1: yaw rate 28\.6\d* rad/s from point 0 is above "
                             r"trajectory\.max_yaw_rate \(1\.5 rad/s\): headings in degrees\?$"):
        checker.check(degrees)
    config.trajectory.max_speed = -1
    with pytest.raises(collision.ConfigError, match=r"^trajectory\.max_speed: must be >= 0 \(was -1\)$"):
        collision.validate(config)


def test_simd_key_and_target():
    """simd: auto | off, as in YAML; both give the same answers; simd_target() names the unit."""
    assert collision.default_config().simd == collision.SimdMode.auto
    assert collision.parse_config("simd: off\n").simd == collision.SimdMode.off
    with pytest.raises(collision.ConfigError, match=r"^<config>:1: simd: expected auto or off \(was avx2\)$"):
        collision.parse_config("simd: avx2\n")
    target = collision.simd_target()
    assert isinstance(target, str) and target
    k = np.arange(41, dtype=float)
    turn = np.column_stack([0.1 * k, 1.0 * k, 0.02 * k * k, 0.04 * k])
    obstacles = [collision.Obstacle.stationary(1, collision.Circle((30.0, 16.0), 1.0)),
                 collision.Obstacle.stationary(2, collision.Circle((12.0, 6.0), 0.5))]
    results = []
    for mode in (collision.SimdMode.auto, collision.SimdMode.off):
        config = collision.default_config()
        config.simd = mode
        checker = collision.CollisionChecker(config)
        checker.set_obstacles(obstacles)
        results.append(repr(checker.check(turn)))
    assert results[0] == results[1]
