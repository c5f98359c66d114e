import itertools
import math

import numpy as np
import pytest

import collision
from collision import Circle, ConvexPolygon, Ellipse, Obb, SweptHull


def test_errors_are_value_and_runtime_errors():
    assert issubclass(collision.GeometryError, ValueError)
    assert issubclass(collision.TrajectoryError, ValueError)
    assert issubclass(collision.ConfigError, RuntimeError)
    assert not issubclass(collision.ConfigError, ValueError)


def test_circle():
    c = Circle((1.0, 2.0), 0.5)
    assert c.center.tolist() == [1.0, 2.0]
    assert c.radius == 0.5
    lo, hi = c.aabb()
    assert lo.tolist() == [0.5, 1.5] and hi.tolist() == [1.5, 2.5]
    assert Circle(np.array([3.0, 4.0]), 0).radius == 0
    assert "Circle(center=(1.0, 2.0), radius=0.5)" == repr(c)


def test_obb_and_ellipse():
    o = Obb((0, 0), math.pi / 2, 2.0, 1.0)
    assert o.heading == pytest.approx(math.pi / 2)
    assert (o.half_length, o.half_width) == (2.0, 1.0)
    corners = o.corners()
    assert corners.shape == (4, 2)
    np.testing.assert_allclose(corners[0], [1.0, -2.0], atol=1e-12)  # rear-right
    e = Ellipse((1, 1), 0.0, 2.0, 1.0)
    assert e.center.tolist() == [1, 1] and (e.half_length, e.half_width) == (2.0, 1.0)
    lo, hi = e.aabb()
    np.testing.assert_allclose(lo, [-1, 0], atol=1e-12)
    np.testing.assert_allclose(hi, [3, 2])


def test_convex_polygon_from_array_and_pairs():
    cw = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
    p = ConvexPolygon(cw)
    q = ConvexPolygon([(0, 0), (1, 0), (1, 1), (0, 1)])
    assert p.vertices.shape == (4, 2)
    assert len(p) == 4 and p.area() == pytest.approx(1.0)
    np.testing.assert_array_equal(np.sort(p.vertices, axis=0), np.sort(q.vertices, axis=0))
    h = ConvexPolygon.hull([(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)])
    assert len(h) == 4


def test_vertex_array_errors():
    with pytest.raises(collision.GeometryError, match=r"vertices: expected shape \(V, 2\), got \(4, 3\)"):
        ConvexPolygon(np.zeros((4, 3)))
    with pytest.raises(collision.GeometryError, match="expected a float64 array, got dtype float32"):
        ConvexPolygon(np.array([[0, 0], [1, 0], [0, 1]], dtype=np.float32))
    with pytest.raises(collision.GeometryError, match="not finite|finite"):
        ConvexPolygon([(0, 0), (1, float("inf")), (0, 1)])
    with pytest.raises(TypeError):
        ConvexPolygon("abc")


def _shapes():
    # Overlapping near the origin in every pair, so every query has work to do.
    base = [
        Circle((0.2, 0.1), 1.0),
        Obb((0, 0), 0.3, 1.5, 0.7),
        ConvexPolygon([(-1, -1), (1.2, -0.8), (0.5, 1.1)]),
        Ellipse((0.1, -0.2), -0.4, 1.3, 0.6),
    ]
    moved = [
        Circle((1.2, 0.1), 1.0),
        Obb((0.5, 0.2), 0.5, 1.5, 0.7),
        ConvexPolygon([(-0.5, -1), (1.7, -0.8), (1.0, 1.1)]),
        Ellipse((0.6, -0.2), -0.2, 1.3, 0.6),
    ]
    return base + [SweptHull(a, b, 0.01) for a, b in zip(base, moved)]


def _far(shape, dx):
    if isinstance(shape, Circle):
        return Circle(shape.center + (dx, 0), shape.radius)
    if isinstance(shape, Obb):
        return Obb(shape.center + (dx, 0), shape.heading, shape.half_length, shape.half_width)
    if isinstance(shape, Ellipse):
        return Ellipse(shape.center + (dx, 0), shape.heading, shape.half_length, shape.half_width)
    if isinstance(shape, ConvexPolygon):
        return ConvexPolygon(shape.vertices + (dx, 0))
    return SweptHull(_far(shape.start, dx), _far(shape.end, dx), shape.inflation)


@pytest.mark.parametrize("a,b", list(itertools.product(range(8), range(8))))
def test_every_pair_of_the_64(a, b):
    shapes = _shapes()
    sa, sb = shapes[a], shapes[b]
    assert collision.intersects(sa, sb)
    d = collision.distance(sa, sb)
    assert d.distance == 0 and d.status != collision.QueryStatus.separated
    p = collision.penetration(sa, sb)
    assert p.depth > 0 and p.status == collision.QueryStatus.overlapping
    assert np.linalg.norm(p.normal) == pytest.approx(1.0)
    far = _far(sb, 20.0)
    assert not collision.intersects(sa, far)
    d = collision.distance(sa, far)
    assert d.status == collision.QueryStatus.separated and d.distance > 10
    assert np.linalg.norm(d.point_b - d.point_a) == pytest.approx(d.distance)
    assert collision.penetration(sa, far).status == collision.QueryStatus.separated


def test_query_values_and_tolerance():
    a, b = Circle((0, 0), 1.0), Circle((3, 0), 1.0)
    d = collision.distance(a, b)
    assert d.distance == pytest.approx(1.0)
    np.testing.assert_allclose(d.point_a, [1, 0])
    np.testing.assert_allclose(d.point_b, [2, 0])
    np.testing.assert_allclose(d.normal, [1, 0])
    assert d.iterations >= 1
    assert not collision.intersects(a, b)
    assert collision.intersects(a, b, contact_tolerance=1.5)
    p = collision.penetration(a, Circle((1.5, 0), 1.0))
    assert p.depth == pytest.approx(0.5)
    with pytest.raises(TypeError, match="expected Circle, Obb, ConvexPolygon, Ellipse or SweptHull"):
        collision.intersects(a, 3.0)


def test_swept_hull():
    s = SweptHull(Circle((0, 0), 1), Circle((10, 0), 1), 0.5)
    assert isinstance(s.start, Circle) and s.end.center.tolist() == [10, 0] and s.inflation == 0.5
    assert collision.intersects(s, Circle((5, 1.9), 0.5))  # in the middle of the sweep
    with pytest.raises(TypeError, match="same shape type"):
        SweptHull(Circle((0, 0), 1), Obb((0, 0), 0, 1, 1))
    with pytest.raises(collision.GeometryError):
        SweptHull(Circle((0, 0), 1), Circle((1, 0), 1), -1.0)


def test_footprint():
    v = collision.VehicleParams()
    box = collision.footprint((0.0, 0.0, 0.0), v)
    length = v.rear_overhang + v.wheel_base + v.front_overhang
    assert box.half_length == pytest.approx(length / 2)
    assert box.center[0] == pytest.approx(length / 2 - v.rear_overhang)


def test_footprint_helpers_and_motion_model():
    v = collision.VehicleParams()
    m = collision.Margins()
    m.lateral = 0.1
    r = collision.footprint_radius(v, m)
    length = v.rear_overhang + v.wheel_base + v.front_overhang
    assert r == pytest.approx(math.hypot(length - v.rear_overhang, v.width / 2 + 0.1))
    v.footprint = [(-1, -1), (3, -1), (3, 1), (-1, 1)]
    grown = collision.grown_footprint(v, m)
    assert grown.area() == pytest.approx(4 * 2.2)
    v.footprint = [(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)]
    with pytest.raises(collision.GeometryError, match="not convex"):
        collision.grown_footprint(v)
    x, y, h = collision.interpolate((0, 0, 3.0), (2, 4, -3.0), 0.5)
    assert (x, y, math.cos(h)) == pytest.approx((1, 2, -1), abs=1e-12)  # the short way, through pi
    assert collision.heading_change(3.0, -3.0) == pytest.approx(2 * math.pi - 6.0)
