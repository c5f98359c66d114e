"""load_commonroad / parse_commonroad and ScenarioError: the bundled scenario as the C++ test
tests/commonroad/commonroad_scenario_test.cpp (BundledScenario) sees it, and the errors."""

import pathlib
import re

import numpy as np
import pytest

import collision

import scene

pytestmark = pytest.mark.skipif(
    not hasattr(collision, "load_commonroad"), reason="built without the CommonRoad reader"
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
URBAN = ROOT / "config" / "scenarios" / "commonroad_urban.xml"


def test_bundled_scenario():
    s = collision.load_commonroad(str(URBAN))
    assert s.file == str(URBAN)
    assert s.benchmark_id == "ZAM_CollisionDemo-1_1_T-1"
    assert s.time_step > 0
    assert len(s.lanelets) == 9
    assert [o.id for o in s.obstacles] == [101, 102, 201, 202, 203, 204]
    by_id = {o.id: o for o in s.obstacles}
    classes = {101: "static_object", 102: "static_object", 201: "car", 202: "truck", 203: "bicycle", 204: "pedestrian"}
    for i, name in classes.items():
        assert by_id[i].obstacle_class == getattr(collision.ObstacleClass, name)
    assert len(by_id[102].parts) >= 2  # an L-shaped outline, split into convex parts
    assert isinstance(by_id[203].parts[0], collision.ConvexPolygon)  # a shape group's hull
    assert isinstance(by_id[204].parts[0], collision.Circle)
    assert by_id[201].prediction.shape == (61, 4)
    assert not by_id[101].is_moving and by_id[201].is_moving
    assert len(s.road_boundaries) == 2
    assert all(b.id > 300 and b.is_boundary for b in s.road_boundaries)
    assert all(b.obstacle_class == collision.ObstacleClass.road_boundary for b in s.road_boundaries)
    both = s.obstacles_and_borders()
    assert [o.id for o in both] == [o.id for o in s.obstacles] + [b.id for b in s.road_boundaries]
    assert len(s.ego_starts) == len(s.planning_problem_ids) >= 1
    start = s.ego_starts[0]
    assert isinstance(start.t, float) and len(start.pose) == 3 and start.velocity >= 0
    s.obstacles[0].set_class("bus")  # the lists are copies
    assert s.obstacles[0].obstacle_class == collision.ObstacleClass.static_object
    assert "CommonRoadState(" in repr(start) and "ZAM_CollisionDemo" in repr(s)


def test_lanelets_and_a_drive_along_the_road():
    s = collision.load_commonroad(str(URBAN))
    lane = s.lanelet(20)  # the left lane's first lanelet (as in the C++ test)
    assert lane is not None and lane.id == 20 and s.lanelet(-5) is None
    assert lane.left_bound.shape[1] == 2 and lane.right_bound.shape[1] == 2
    centre = lane.center_line()
    d = np.diff(centre, axis=0)
    heading = np.arctan2(d[:, 1], d[:, 0])
    t = 0.1 * np.arange(len(d))
    along = np.column_stack([t, centre[:-1, 0], centre[:-1, 1], heading])
    c = collision.CollisionChecker()
    c.set_obstacles(s.road_boundaries)
    assert not c.check(along).collides
    c.set_obstacles(s.obstacles_and_borders())  # the whole scene is accepted by the checker
    c.check(along)


def test_parse_commonroad_equals_load():
    text = URBAN.read_text()
    a = collision.parse_commonroad(text)
    b = collision.load_commonroad(str(URBAN))
    assert a.file == "<xml>" and a.benchmark_id == b.benchmark_id
    assert [o.id for o in a.obstacles_and_borders()] == [o.id for o in b.obstacles_and_borders()]


def test_scenario_errors():
    assert issubclass(collision.ScenarioError, RuntimeError)
    with pytest.raises(collision.ScenarioError) as info:
        collision.parse_commonroad(scene.BAD_COMMONROAD, "bad.xml")
    message = str(info.value)
    assert re.match(r"^bad\.xml:4: [^:]+: .+", message), message
    assert "dynamicObstacle[42]" in message and "spaceship" in message
    with pytest.raises(collision.ScenarioError, match=r"^/nonexistent/scenario\.xml:0: "):
        collision.load_commonroad("/nonexistent/scenario.xml")
    with pytest.raises(collision.ScenarioError, match=r"^<xml>:1: "):
        collision.parse_commonroad("<commonRoad")


def test_scenario_error_from_a_file(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text(scene.BAD_COMMONROAD)
    with pytest.raises(collision.ScenarioError) as info:
        collision.load_commonroad(str(path))
    assert re.match(re.escape(str(path)) + r":4: [^:]+: .+", str(info.value))
    # The same message as from the text, naming the file.
    with pytest.raises(collision.ScenarioError) as same:
        collision.parse_commonroad(scene.BAD_COMMONROAD, str(path))
    assert str(same.value) == str(info.value)


def test_commonroad_example_runs():
    import os
    import subprocess
    import sys

    example = pathlib.Path(__file__).resolve().parents[1] / "examples" / "commonroad_candidates.py"
    out = subprocess.run([sys.executable, str(example)], check=True, capture_output=True, text=True, env=dict(os.environ)).stdout
    assert out.startswith("ZAM_CollisionDemo-1_1_T-1: 6 obstacles, 2 road borders")
    assert "1000 candidates, " in out


def test_docstrings():
    assert "ScenarioError" in collision.load_commonroad.__doc__
    assert "seconds" in collision.CommonRoadScenario.time_step.__doc__
    assert "m/s" in collision.CommonRoadState.velocity.__doc__
