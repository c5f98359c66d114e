"""Pickling the config, its sections, the shapes and the obstacles: what collision.evaluate sends
to a Dask worker. A round trip gives an equal value (compared by repr, which prints every field,
and by the fields themselves), and a checker built from the unpickled values answers the same."""

import pickle

import numpy as np
import pytest

import collision
import scene


def roundtrip(value):
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def changed_config():
    """A config with every section off its defaults, so that a field the pickle drops shows."""
    config = scene.modes_config()
    config.vehicle.wheel_base = 3.1
    config.vehicle.front_overhang = 0.8
    config.vehicle.rear_overhang = 0.9
    config.vehicle.width = 2.05
    config.margins.longitudinal = 0.25
    config.continuous.enabled = False
    config.continuous.max_overestimate = 0.05
    config.obstacles.outside_prediction = collision.OutsidePrediction.ignore
    config.trajectory.max_speed = 40.0
    config.trajectory.max_yaw_rate = 2.0
    config.broad_phase.spatial_index = False
    config.broad_phase.bounding_circles = False
    config.broad_phase.aabbs = False
    config.broad_phase.rtree_max_node_entries = 8
    config.broad_phase.poses_per_query = 3
    config.broad_phase.time_slice = 0.5
    config.narrow_phase.contact_tolerance = 1e-7
    config.narrow_phase.max_gjk_iterations = 30
    config.narrow_phase.max_epa_iterations = 40
    config.narrow_phase.warm_start = False
    config.threads = 3
    config.simd = collision.SimdMode.off
    config.risk.enabled = True
    return config


def test_config_roundtrip_keeps_every_field():
    config = changed_config()
    assert repr(config) != repr(collision.default_config())
    back = roundtrip(config)
    assert isinstance(back, collision.CheckerConfig)
    assert repr(back) == repr(config)
    assert back.threads == 3
    assert back.simd == collision.SimdMode.off
    assert back.risk.enabled is True
    assert back.narrow_phase.contact_tolerance == 1e-7
    assert back.obstacles.outside_prediction == collision.OutsidePrediction.ignore
    assert back.margins.by_class["pedestrian"] == 0.5
    assert back.broad_phase.poses_per_query == 3
    collision.validate(back)


def test_config_with_footprint_roundtrip():
    config = collision.default_config()
    config.vehicle.footprint = [(-1.0, -0.9), (3.8, -0.9), (4.1, 0.0), (3.8, 0.9), (-1.0, 0.9)]
    back = roundtrip(config)
    np.testing.assert_array_equal(back.vehicle.footprint, config.vehicle.footprint)
    assert repr(back) == repr(config)


@pytest.mark.parametrize(
    "section",
    ["vehicle", "margins", "uncertainty", "continuous", "clearance", "obstacles", "trajectory",
     "broad_phase", "narrow_phase", "risk"],
)
def test_each_section_pickles_on_its_own(section):
    value = getattr(changed_config(), section)
    back = roundtrip(value)
    assert type(back) is type(value)
    assert repr(back) == repr(value)


def test_class_margins_pickle():
    margins = collision.ClassMargins()
    margins["bus"] = 1.25
    back = roundtrip(margins)
    assert back.to_dict() == margins.to_dict()
    assert back["bus"] == 1.25


def test_bad_state_names_the_class():
    """A state of another layout (another version of the package) is refused, not misread."""
    for cls, state in ((collision.CheckerConfig, (1, 2)), (collision.Obstacle, ("moving", 1))):
        blank = cls.__new__(cls)  # what pickle.loads calls __setstate__ on
        with pytest.raises(ValueError, match=f"{cls.__name__}: cannot unpickle a state of 2 items"):
            blank.__setstate__(state)


SHAPES = [
    collision.Circle((1.5, -2.0), 0.75),
    collision.Obb((3.0, 4.0), 0.3, 2.2, 0.9),
    collision.ConvexPolygon([(0, 0), (4, 0), (5, 2), (0, 3)]),
    collision.Ellipse((-1.0, 2.0), -0.4, 1.5, 0.5),
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: type(s).__name__)
def test_shape_roundtrip(shape):
    back = roundtrip(shape)
    assert type(back) is type(shape)
    assert repr(back) == repr(shape)
    np.testing.assert_array_equal(np.array(back.aabb()), np.array(shape.aabb()))
    if isinstance(shape, collision.ConvexPolygon):
        np.testing.assert_array_equal(back.vertices, shape.vertices)
    # The same geometry: every query between the copy and the original's partner agrees.
    other = collision.Circle((2.0, 1.0), 1.0)
    assert collision.distance(back, other).distance == collision.distance(shape, other).distance


def test_obstacles_roundtrip_field_by_field():
    obstacles = scene.modes_obstacles()
    for o, b in zip(obstacles, roundtrip(obstacles)):
        assert (b.id, b.obstacle_class, b.is_moving, b.is_boundary, b.is_multi_modal) == (
            o.id, o.obstacle_class, o.is_moving, o.is_boundary, o.is_multi_modal)
        assert b.uncertainty == o.uncertainty
        assert [repr(p) for p in b.parts] == [repr(p) for p in o.parts]
        assert [m.probability for m in b.modes] == [m.probability for m in o.modes]
        for mb, mo in zip(b.modes, o.modes):
            np.testing.assert_array_equal(mb.poses, mo.poses)


def test_boundary_with_repeated_point_and_single_point():
    wall = collision.Obstacle.boundary(3, [(0, 0), (5, 0), (5, 0), (5, 4), (0, 0)])
    point = collision.Obstacle.boundary(4, [(2, 2), (2, 2)])
    for o in (wall, point):
        b = roundtrip(o)
        assert b.is_boundary and b.obstacle_class == collision.ObstacleClass.road_boundary
        assert len(b.parts) == len(o.parts)
        for pb, po in zip(b.parts, o.parts):
            assert type(pb) is type(po)
            np.testing.assert_allclose(pb.aabb(), po.aabb(), rtol=0, atol=1e-12)


def test_checker_from_unpickled_values_answers_the_same():
    config = scene.modes_config()
    obstacles = scene.modes_obstacles()
    candidates = scene.candidates(n=200)
    direct = collision.CollisionChecker(config)
    direct.set_obstacles(obstacles)
    copied = collision.CollisionChecker(roundtrip(config))
    copied.set_obstacles(roundtrip(obstacles))
    a = direct.check_all(candidates)
    b = copied.check_all(candidates)
    assert a.collides.any() and not a.collides.all()  # the scene tells the two apart
    for field in ("collides", "first_collision_index", "first_collision_time", "obstacle_id",
                  "min_clearance", "collision_probability", "mode"):
        np.testing.assert_array_equal(getattr(b, field), getattr(a, field), err_msg=field)


def test_changed_config_changes_answers_after_pickle():
    """The unpickled config is the caller's, not the defaults: its margins change the answers."""
    config = scene.scene_config()
    config.margins.lateral = 1.5
    candidates = scene.candidates(n=200)
    wide = collision.CollisionChecker(roundtrip(config))
    wide.set_obstacles(scene.scene_obstacles())
    default = collision.CollisionChecker(collision.default_config())
    default.set_obstacles(scene.scene_obstacles())
    assert wide.check_all(candidates).collides.sum() > default.check_all(candidates).collides.sum()
