"""Obstacle.occupancies (set-based predictions) from Python: each shape in force over its interval
only, pickling, bad input; and the CommonRoad reader's occupancy sets and warnings."""

import math
import pickle
import warnings

import numpy as np
import pytest

import collision
from collision import Obstacle

BLOCK = collision.Obb((5.5, 0.0), 0.0, 0.5, 1.0)


def _drive() -> np.ndarray:
    """10 m/s along x: the ego's box covers the block only for t in [0.4, 0.6]."""
    return np.array([[0.1 * k, -1.0 + k, 0.0, 0.0] for k in range(11)])


def _checker(continuous: bool) -> collision.CollisionChecker:
    config = collision.default_config()
    config.continuous.enabled = continuous
    return collision.CollisionChecker(config)


def test_a_shape_counts_only_within_its_interval() -> None:
    checker = _checker(True)
    checker.set_obstacles([Obstacle.occupancies(1, [(0.0, 0.05, BLOCK), (0.95, 1.0, BLOCK)])])
    assert not checker.check(_drive()).collides
    checker.set_obstacles([Obstacle.occupancies(1, [(0.55, 0.55, BLOCK)])])
    r = checker.check(_drive())
    assert r.collides and r.first_collision_index == 6 and r.hit_in_sweep
    assert r.first_collision_time == pytest.approx(0.55, abs=1e-6)
    discrete = _checker(False)
    discrete.set_obstacles([Obstacle.occupancies(1, [(0.55, 0.55, BLOCK)])])
    assert not discrete.check(_drive()).collides
    # check_all and the profile see the same obstacle.
    assert [x.first_collision_index for x in checker.check_all([_drive(), _drive()])] == [6, 6]
    profile = discrete.clearance_profile(_drive())
    assert all(math.isinf(p.signed_distance) for p in profile)


def test_accessors_pickle_and_repr() -> None:
    o = Obstacle.occupancies(4, [(0.0, 1.0, BLOCK), (1.0, 2.0, collision.Circle((3.0, 4.0), 0.5))])
    assert o.is_occupancy_set and not o.is_moving
    assert [(a, b) for a, b, _ in o.occupancy] == [(0.0, 1.0), (1.0, 2.0)]
    assert isinstance(o.occupancy[1][2], collision.Circle)
    assert len(o.parts) == 2
    assert "occupancies" in repr(o)
    o.set_class("pedestrian")
    back = pickle.loads(pickle.dumps(o))
    assert back.is_occupancy_set and back.obstacle_class == collision.ObstacleClass.pedestrian
    assert [(a, b) for a, b, _ in back.occupancy] == [(0.0, 1.0), (1.0, 2.0)]


def test_bad_input_names_the_id_and_the_shape() -> None:
    with pytest.raises(collision.GeometryError, match=r"obstacle 3: occupancy 1: t_end must be >= t_begin"):
        Obstacle.occupancies(3, [(0.0, 1.0, BLOCK), (2.0, 1.0, BLOCK)])
    with pytest.raises(collision.GeometryError, match=r"obstacle 3: occupancy 0: t_begin is not finite"):
        Obstacle.occupancies(3, [(math.nan, 1.0, BLOCK)])
    with pytest.raises(ValueError, match=r"\(t_begin, t_end, shape\)"):
        Obstacle.occupancies(3, [(0.0, BLOCK)])
    with pytest.raises(collision.GeometryError, match="occupancy set"):
        Obstacle.occupancies(3, [(0.0, 1.0, BLOCK)]).set_uncertainty(longitudinal=0.1)


_STATE = (
    "<{tag}><position><point><x>{x}</x><y>0</y></point></position><orientation><exact>0"
    "</exact></orientation><time><exact>{step}</exact></time><velocity><exact>1</exact>"
    "</velocity></{tag}>\n"
)
_BOX = "<rectangle><length>4</length><width>2</width></rectangle>"


def _document(body: str) -> str:
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<commonRoad timeStepSize="0.1" commonRoadVersion="2020a" benchmarkID="T-1">\n'
        + body
        + "</commonRoad>\n"
    )


def _dynamic(obstacle_id: int, start_x: float, future: str) -> str:
    """A 2020a document with one car: its box, its initial state at (start_x, 0), then `future`."""
    return _document(
        f'<dynamicObstacle id="{obstacle_id}">\n<type>car</type>\n<shape>' + _BOX + "</shape>\n"
        + _STATE.format(tag="initialState", x=start_x, step=0)
        + future
        + "</dynamicObstacle>\n"
    )


needs_commonroad = pytest.mark.skipif(
    not hasattr(collision, "parse_commonroad"), reason="built without the CommonRoad reader"
)


@needs_commonroad
def test_repeated_initial_step_loads_with_a_python_warning() -> None:
    xml = _dynamic(
        5,
        0,
        "<trajectory>\n"
        + _STATE.format(tag="state", x=0, step=0)
        + _STATE.format(tag="state", x=1, step=1)
        + "</trajectory>\n",
    )
    with pytest.warns(UserWarning, match=r"t.xml:8: .*repeats the initial state's"):
        s = collision.parse_commonroad(xml, "t.xml")
    assert len(s.warnings) == 1 and "initialState kept" in s.warnings[0]
    assert s.obstacles[0].prediction.shape == (2, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            collision.parse_commonroad(xml, "t.xml")


@needs_commonroad
def test_occupancy_set_is_read_as_occupancies() -> None:
    xml = _dynamic(
        7,
        20,
        "<occupancySet>\n<occupancy><shape><circle><radius>1</radius><center><x>30</x><y>0"
        "</y></center></circle></shape><time><intervalStart>10</intervalStart><intervalEnd>20"
        "</intervalEnd></time></occupancy>\n</occupancySet>\n",
    )
    s = collision.parse_commonroad(xml, "t.xml")
    o = s.obstacles[0]
    assert o.is_occupancy_set and s.warnings == []
    times = [(a, b) for a, b, _ in o.occupancy]
    assert times == [(0.0, 0.0), (pytest.approx(1.0), pytest.approx(2.0))]
