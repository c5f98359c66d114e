"""The printed forms of the config and of a clearance profile: what a planner's log shows."""

import re

import numpy as np

import collision
import scene


def test_config_repr_shows_every_field_by_its_attribute_path():
    config = collision.default_config()
    config.narrow_phase.contact_tolerance = 2.5e-9
    config.margins.by_class["pedestrian"] = 0.5
    config.vehicle.footprint = [(-1.0, -0.9), (3.8, -0.9), (3.8, 0.9), (-1.0, 0.9)]
    config.continuous.enabled = False
    config.obstacles.outside_prediction = collision.OutsidePrediction.ignore
    config.threads = 3
    text = repr(config)
    assert text.startswith("CheckerConfig(vehicle=VehicleParams(wheel_base=2.85, ")
    assert "footprint=[(-1.0, -0.9), (3.8, -0.9), (3.8, 0.9), (-1.0, 0.9)], trailers=[])" in text
    assert "by_class=ClassMargins({" in text and "'pedestrian': 0.5" in text
    assert "continuous=ContinuousConfig(enabled=False, max_overestimate=0.02)" in text
    assert "clearance=ClearanceConfig(horizon=5.0)" in text
    assert "obstacles=ObstaclesConfig(outside_prediction=OutsidePrediction.ignore, min_mode_probability=0.0)" in text
    assert "uncertainty=UncertaintyConfig(sigma_factor=2.0)" in text
    assert ("broad_phase=BroadPhaseConfig(spatial_index=True, bounding_circles=True, aabbs=True, "
            "rtree_max_node_entries=16, poses_per_query=8, time_slice=1.0)") in text
    assert ("narrow_phase=NarrowPhaseConfig(contact_tolerance=2.5e-09, max_gjk_iterations=") in text
    assert text.endswith(", threads=3, simd=SimdMode.auto, risk=RiskConfig(enabled=False))")
    # Each section prints the same way on its own.
    assert repr(config.narrow_phase) in text and repr(config.vehicle) in text
    assert repr(config.margins) in text and repr(config.broad_phase) in text


def test_config_repr_changes_with_every_section():
    base = repr(collision.default_config())
    edits = [
        lambda c: setattr(c.vehicle, "width", 2.1),
        lambda c: setattr(c.margins, "lateral", 0.3),
        lambda c: setattr(c.uncertainty, "sigma_factor", 3.0),
        lambda c: setattr(c.continuous, "max_overestimate", 0.05),
        lambda c: setattr(c.clearance, "horizon", 7.0),
        lambda c: setattr(c.obstacles, "min_mode_probability", 0.1),
        lambda c: setattr(c.broad_phase, "time_slice", 0.5),
        lambda c: setattr(c.narrow_phase, "max_epa_iterations", 50),
        lambda c: setattr(c, "threads", 2),
        lambda c: setattr(c.risk, "enabled", True),
    ]
    for edit in edits:
        config = collision.default_config()
        edit(config)
        assert repr(config) != base


def _straight(y=0.0, poses=41):
    t = np.linspace(0.0, 4.0, poses)
    return np.column_stack([t, 30.0 + 20.0 * t, np.full_like(t, y), np.zeros_like(t)])


def test_profile_repr_shows_its_length_and_first_and_last_entries():
    checker = collision.CollisionChecker(scene.scene_config())
    checker.set_obstacles(scene.scene_obstacles())
    profile = checker.clearance_profile(_straight())
    text = repr(profile)
    assert text.startswith("ClearanceProfile(41 poses, signed_distance=[")
    d = profile.signed_distance
    ids = profile.obstacle_id
    shown = f"[{float(d[0])!r}, {float(d[1])!r}, {float(d[2])!r}, ..., {float(d[-1])!r}]"
    assert f"signed_distance={shown}" in text
    assert f"obstacle_id=[{ids[0]}, {ids[1]}, {ids[2]}, ..., {ids[-1]}]" in text
    # A short profile is shown whole.
    short = checker.clearance_profile(_straight(poses=3))
    d = short.signed_distance
    assert repr(short).startswith(f"ClearanceProfile(3 poses, signed_distance=[{float(d[0])!r}, {float(d[1])!r}, {float(d[2])!r}]")
    assert re.search(r"obstacle_id=\[-?\d+, -?\d+, -?\d+\]\)$", repr(short))
