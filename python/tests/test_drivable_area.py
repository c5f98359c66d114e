"""Obstacle.drivable_area from Python: the region outside the union of the polygons (off the road
collides, inside is free with the edge's distance as clearance, the profile's depth outside),
pickling, bad input, and the CommonRoad reader's drivable area. The expected numbers are worked
out by hand from the rectangles below."""

import math
import pickle

import numpy as np
import pytest

import collision
from collision import Obstacle

# Two lanelets sharing the edge y = 0: the road is the band -4 <= y <= 4 for 0 <= x <= 100.
RIGHT_LANE = [(0.0, -4.0), (100.0, -4.0), (100.0, 0.0), (0.0, 0.0)]
LEFT_LANE = [(0.0, 4.0), (0.0, 0.0), (100.0, 0.0), (100.0, 4.0)]  # clockwise: either winding


def _road() -> Obstacle:
    return Obstacle.drivable_area(9, [RIGHT_LANE, LEFT_LANE])


def _checker(horizon: float = 0.0) -> collision.CollisionChecker:
    config = collision.default_config()
    config.clearance.horizon = horizon
    checker = collision.CollisionChecker(config)
    checker.set_obstacles([_road()])
    return checker


def _straight(y: float, x0: float = 10.0) -> np.ndarray:
    return np.array([[0.1 * k, x0 + k, y, 0.0] for k in range(20)])


def _half_width() -> float:
    config = collision.default_config()
    return collision.footprint((0.0, 0.0, 0.0), config.vehicle, config.margins).half_width


def test_on_the_road_is_free_across_the_shared_edge_with_the_edge_distance_as_clearance() -> None:
    checker = _checker(horizon=10.0)
    r = checker.check(_straight(0.0))
    assert not r.collides
    assert r.min_clearance == pytest.approx(4.0 - _half_width(), abs=1e-9)
    assert r.closest_obstacle_id == 9


def test_off_the_road_collides_at_the_first_pose() -> None:
    checker = _checker()
    r = checker.check(_straight(20.0))
    assert r.collides and r.first_collision_index == 0 and r.obstacle_id == 9
    assert not r.hit_in_sweep
    # Leaving it sideways: the sweep into the first pose past the edge.
    leave = np.array([[0.1 * k, 10.0 + k, 0.6 * k, 0.0] for k in range(20)])
    r = checker.check(leave)
    assert r.collides and r.obstacle_id == 9
    i = r.first_collision_index
    assert 0.6 * (i - 1) + _half_width() < 4.0 <= 0.6 * i + _half_width() + 1e-9


def test_the_profile_measures_the_depth_outside() -> None:
    config = collision.default_config()
    config.clearance.horizon = 10.0
    checker = collision.CollisionChecker(config)
    checker.set_obstacles([_road()])
    w = _half_width()
    # Centred 1 m beyond the edge y = 4: the far corners reach 1 + w out.
    profile = checker.clearance_profile(np.array([[0.0, 50.0, 5.0, 0.0]]))
    p = profile[0]
    assert p.obstacle_id == 9
    assert p.signed_distance == pytest.approx(-(1.0 + w), abs=1e-9)
    assert p.normal[1] == pytest.approx(1.0, abs=1e-12)
    assert p.gradient[1] == pytest.approx(-1.0, abs=1e-12)
    # Inside: the distance to the nearer edge.
    p = checker.clearance_profile(np.array([[0.0, 50.0, 1.0, 0.0]]))[0]
    assert p.signed_distance == pytest.approx(3.0 - w, abs=1e-9)


def test_a_hole_is_off_the_road() -> None:
    # A square ring road: outer 0..40, the island 10..30.
    ring = [
        [(0, 0), (40, 0), (40, 10), (0, 10)],
        [(0, 30), (40, 30), (40, 40), (0, 40)],
        [(0, 0), (10, 0), (10, 40), (0, 40)],
        [(30, 0), (40, 0), (40, 40), (30, 40)],
    ]
    area = Obstacle.drivable_area(2, [[(float(x), float(y)) for x, y in p] for p in ring])
    assert area.is_drivable_area and len(area.area_rings) == 2
    checker = collision.CollisionChecker(collision.default_config())
    checker.set_obstacles([area])
    assert checker.check(np.array([[0.0, 18.0, 20.0, 0.0]])).collides  # on the island
    assert not checker.check(np.array([[0.0, 18.0, 5.0, 0.0]])).collides  # on the road


def test_accessors_pickle_and_repr() -> None:
    o = _road()
    assert o.is_drivable_area and not o.is_boundary and not o.is_moving
    assert o.obstacle_class == collision.ObstacleClass.road_boundary
    (ring,) = o.area_rings
    assert np.array_equal(ring[0], ring[-1])
    assert "drivable_area" in repr(o)
    back = pickle.loads(pickle.dumps(o))
    assert back.is_drivable_area and back.id == 9
    assert np.array_equal(back.area_rings[0], ring)


def test_bad_input_names_the_id_and_the_polygon() -> None:
    with pytest.raises(collision.GeometryError, match=r"obstacle 3: drivable area: needs at least one polygon"):
        Obstacle.drivable_area(3, [])
    bow_tie = [(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 1.0)]
    with pytest.raises(collision.GeometryError, match=r"obstacle 3: drivable area: polygon 1 is not a simple polygon"):
        Obstacle.drivable_area(3, [RIGHT_LANE, bow_tie])
    with pytest.raises(collision.GeometryError, match=r"polygon 0 point 2 is not finite"):
        Obstacle.drivable_area(3, [[(0.0, 0.0), (1.0, 0.0), (math.nan, 1.0)]])


@pytest.mark.skipif(not hasattr(collision, "load_commonroad"), reason="built without the CommonRoad reader")
def test_the_reader_gives_the_lanelets_as_the_drivable_area() -> None:
    import pathlib

    urban = pathlib.Path(__file__).resolve().parents[2] / "config" / "scenarios" / "commonroad_urban.xml"
    s = collision.load_commonroad(str(urban))
    area = s.drivable_area
    assert area is not None and area.is_drivable_area
    assert area.id == max(b.id for b in s.road_boundaries) + 1
    # Every lanelet's centre line lies on the road: a point-sized ego along it is free.
    config = collision.default_config()
    config.vehicle.wheel_base = config.vehicle.width = 0.01
    config.vehicle.front_overhang = config.vehicle.rear_overhang = 0.0
    checker = collision.CollisionChecker(config)
    checker.set_obstacles([area])
    for lanelet in s.lanelets:
        centre = lanelet.center_line()
        for x, y in centre[1:-1]:
            assert not checker.check(np.array([[0.0, x, y, 0.0]])).collides
