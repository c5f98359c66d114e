"""Obstacle.grid and Obstacle.points from Python: row order, options, bad inputs, and the
checker's answers against a numpy reference (each occupied cell its own square, each point its own
disc, exact polygon distances written here)."""

import math
import pickle

import numpy as np
import pytest

import collision
from collision import Obstacle


def _part_centers(o):
    return sorted((round(p.center[0], 9), round(p.center[1], 9)) for p in o.parts)


def test_grid_rows_are_y():
    # 3 wide, 2 high; one occupied cell at (i, j) = (2, 1): centre (2.5, 1.5) * resolution.
    data = np.zeros((2, 3), dtype=np.int8)
    data[1, 2] = 100
    o = Obstacle.grid(1, data, origin=(10.0, -2.0, 0.0), resolution=0.5)
    assert o.obstacle_class == collision.ObstacleClass.static_object
    assert _part_centers(o) == [(10.0 + 1.25, -2.0 + 0.75)]


def test_grid_threshold_and_unknown():
    data = np.array([[64, 65, -1]], dtype=np.int8)
    assert len(Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0).parts) >= 1
    free_unknown = Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0, unknown_is_occupied=False)
    assert _part_centers(free_unknown) == [(1.5, 0.5)]
    only_unknown = Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0, occupied_threshold=100)
    assert _part_centers(only_unknown) == [(2.5, 0.5)]


def test_grid_other_integer_dtype():
    data = np.array([[0, 100]], dtype=np.int64)
    assert _part_centers(Obstacle.grid(1, data, origin=(0, 0, 0), resolution=1.0)) == [(1.5, 0.5)]


@pytest.mark.parametrize(
    "kwargs, data, needle",
    [
        ({}, np.zeros(3, dtype=np.int8), "2-D"),
        ({}, np.zeros((2, 2)), "data"),
        ({}, np.array([[0, 101]], dtype=np.int8), "101"),
        ({}, np.array([[0, 300]], dtype=np.int64), "300"),
        ({"resolution": 0.0}, np.zeros((2, 2), dtype=np.int8), "0"),
    ],
)
def test_grid_bad_inputs(kwargs, data, needle):
    args = {"origin": (0.0, 0.0, 0.0), "resolution": 1.0}
    args.update(kwargs)
    with pytest.raises(collision.GeometryError) as e:
        Obstacle.grid(42, data, **args)
    assert "42" in str(e.value) and needle in str(e.value)


def test_points():
    rng = np.random.default_rng(3)
    pts = rng.uniform(-20, 20, (300, 2))
    o = Obstacle.points(5, pts, 0.2)
    assert len(o.parts) == 300
    assert o.obstacle_class == collision.ObstacleClass.unknown
    with pytest.raises(collision.GeometryError, match="5"):
        Obstacle.points(5, [(0.0, 0.0), (math.nan, 1.0)], 0.0)
    with pytest.raises(collision.GeometryError, match="5"):
        Obstacle.points(5, pts, -1.0)


def test_pickle():
    data = np.zeros((2, 3), dtype=np.int8)
    data[1, 2] = 100
    o = Obstacle.grid(1, data, origin=(1.0, 2.0, 0.3), resolution=0.5)
    back = pickle.loads(pickle.dumps(o))
    assert back.id == 1 and len(back.parts) == len(o.parts)


def test_empty_grid_pickles_and_never_collides() -> None:
    empty = collision.Obstacle.grid(
        3, np.zeros((4, 5), dtype=np.int8), origin=(0.0, 0.0, 0.0), resolution=1.0
    )
    again = pickle.loads(pickle.dumps(empty))
    assert len(again.parts) == 0
    checker = collision.CollisionChecker(collision.default_config())
    checker.set_obstacles([again])
    trajectory = np.array([[0.1 * k, 0.5 * k, 1.0, 0.0] for k in range(10)])
    assert not checker.check(trajectory).collides


def _polygon_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Distance between two convex polygons (CCW vertex arrays); 0 when they overlap."""

    def separated(p: np.ndarray, q: np.ndarray) -> bool:
        for k in range(len(p)):
            edge = p[(k + 1) % len(p)] - p[k]
            normal = np.array([edge[1], -edge[0]])
            if np.min((q - p[k]) @ normal) > 0:
                return True
        return False

    if not separated(a, b) and not separated(b, a):
        return 0.0

    def point_segments(points: np.ndarray, poly: np.ndarray) -> float:
        start = poly
        end = np.roll(poly, -1, axis=0)
        d = end - start
        rel = points[:, None, :] - start[None, :, :]
        s = np.clip((rel * d).sum(-1) / (d * d).sum(-1), 0.0, 1.0)
        closest = start[None] + s[..., None] * d[None]
        return float(np.sqrt(((points[:, None, :] - closest) ** 2).sum(-1)).min())

    if len(b) == 1:
        return point_segments(b, a)
    return min(point_segments(a, b), point_segments(b, a))


def _ego_box(x: float, y: float, heading: float) -> np.ndarray:
    v = collision.default_config().vehicle
    front, rear, half = v.wheel_base + v.front_overhang, v.rear_overhang, 0.5 * v.width
    local = np.array([[-rear, -half], [front, -half], [front, half], [-rear, half]])
    c, s = math.cos(heading), math.sin(heading)
    return local @ np.array([[c, s], [-s, c]]) + np.array([x, y])


def test_grid_and_cloud_against_reference() -> None:
    rng = np.random.default_rng(57)
    data = np.zeros((30, 40), dtype=np.int8)
    for _ in range(6):
        i, j = rng.integers(0, 40), rng.integers(0, 30)
        data[max(0, j - 2) : j + 3, max(0, i - 3) : i + 4] = 100
    data[rng.random(data.shape) < 0.05] = -1
    origin, resolution = (500_003.25, 5_500_011.5, 0.4), 0.3
    grid = Obstacle.grid(1, data, origin=origin, resolution=resolution)
    cloud_points = rng.uniform([500_000.0, 5_500_000.0], [500_030.0, 5_500_030.0], (150, 2))
    cloud = Obstacle.points(2, cloud_points, 0.2)
    c, s = math.cos(origin[2]), math.sin(origin[2])
    rotation = np.array([[c, s], [-s, c]])
    squares = []
    for j, i in zip(*np.nonzero((data >= 65) | (data == -1))):
        local = np.array([[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]], dtype=float)
        squares.append(local * resolution @ rotation + np.array(origin[:2]))

    config = collision.default_config()
    config.continuous.enabled = False
    config.clearance.horizon = 100.0
    for obstacles, regions in (
        ([grid], [(sq, 0.0) for sq in squares]),
        ([cloud], [(p[None, :], 0.2) for p in cloud_points]),
    ):
        checker = collision.CollisionChecker(config)
        checker.set_obstacles(obstacles)
        for case in range(25):
            x0, y0 = 499_995.0 + rng.uniform(0, 30), 5_499_995.0 + rng.uniform(0, 30)
            heading = rng.uniform(-math.pi, math.pi)
            poses = [
                (0.1 * k, x0 + 0.4 * k * math.cos(heading), y0 + 0.4 * k * math.sin(heading))
                for k in range(8)
            ]
            trajectory = np.array([[t, x, y, heading] for t, x, y in poses])
            distances = []
            for _, x, y in poses:
                box = _ego_box(x, y, heading)
                distances.append(
                    min(_polygon_distance(box, region) - radius for region, radius in regions)
                )
            result = checker.check(trajectory)
            hits = [k for k, d in enumerate(distances) if d <= 1e-8]
            ambiguous = any(abs(d - 1e-8) < 1e-7 for d in distances)
            if ambiguous:
                continue
            assert result.collides == bool(hits), case
            if hits:
                assert result.first_collision_index == hits[0], case
            else:
                assert result.min_clearance == pytest.approx(min(distances), abs=1e-7), case


def _signed_distances(box: np.ndarray, squares: np.ndarray) -> np.ndarray:
    """Signed distance from a convex box (4, 2) to each of N convex quadrilaterals (N, 4, 2), all
    counter-clockwise: apart, the least vertex-to-edge distance either way; overlapping, minus the
    penetration depth (the least overlap over the edge normals of both)."""
    polygons = [box[None], squares]
    axes = []
    for p in polygons:
        for k in range(2):  # a box's or square's edges come in two directions
            edge = p[:, (k + 1) % 4] - p[:, k]
            axes.append(np.stack([edge[:, 1], -edge[:, 0]], -1) / np.linalg.norm(edge, axis=-1)[:, None])
    overlaps = []
    for axis in axes:
        a = np.einsum("pk,nk->np", box, np.broadcast_to(axis, (len(squares), 2)))
        b = np.einsum("npk,nk->np", squares, np.broadcast_to(axis, (len(squares), 2)))
        overlaps.append(np.minimum(a.max(1) - b.min(1), b.max(1) - a.min(1)))
    overlap = np.stack(overlaps, -1)
    depth = overlap.min(-1)

    def point_edges(points: np.ndarray, poly: np.ndarray) -> np.ndarray:  # (N, P, 2), (N, S, 2)
        start, end = poly, np.roll(poly, -1, axis=1)
        d = end - start
        rel = points[:, :, None, :] - start[:, None, :, :]
        s = np.clip((rel * d[:, None]).sum(-1) / (d * d).sum(-1)[:, None], 0.0, 1.0)
        closest = start[:, None] + s[..., None] * d[:, None]
        return np.sqrt(((points[:, :, None, :] - closest) ** 2).sum(-1)).min(axis=(1, 2))

    boxes = np.broadcast_to(box, squares.shape)
    apart = np.minimum(point_edges(boxes, squares), point_edges(squares, boxes))
    return np.where(depth < 0, apart, -depth)


def test_grid_clearance_profile_against_reference() -> None:
    # Isolated cells (only even i and j, so none touches another): each is a part of its own,
    # and the profile's overlap depth is the depth in that one cell. The reference works in the
    # grid's frame shifted to its origin (exact differences of nearby doubles), where double
    # precision is ~1e-14 m: enough for central differences of 1e-6.
    rng = np.random.default_rng(58)
    data = np.zeros((24, 30), dtype=np.int8)
    data[::2, ::2] = np.where(rng.random((12, 15)) < 0.3, 100, 0)
    origin, resolution = (500_003.25, 5_700_011.5, -0.6), 0.4
    grid = Obstacle.grid(3, data, origin=origin, resolution=resolution)
    c, s = math.cos(origin[2]), math.sin(origin[2])
    rotation = np.array([[c, s], [-s, c]])
    squares = np.array(
        [
            np.array([[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]], dtype=float) * resolution @ rotation
            for j, i in zip(*np.nonzero(data >= 65))
        ]
    )
    horizon = 3.0
    config = collision.default_config()
    config.clearance.horizon = horizon
    checker = collision.CollisionChecker(config)
    checker.set_obstacles([grid])

    def reference(x: float, y: float, heading: float) -> np.ndarray:  # sorted, relative pose
        return np.sort(_signed_distances(_ego_box(x, y, heading), squares))

    rows = []
    for k in range(80):
        centre = squares[rng.integers(len(squares))].mean(0)
        heading = rng.uniform(-math.pi, math.pi)
        local = rng.uniform([-4.0, -4.0], [6.0, 4.0])  # a vehicle-frame point put on the cell
        ch, sh = math.cos(heading), math.sin(heading)
        x = centre[0] - (ch * local[0] - sh * local[1])
        y = centre[1] - (sh * local[0] + ch * local[1])
        rows.append([0.1 * k, origin[0] + x, origin[1] + y, heading])
    trajectory = np.array(rows)
    profile = checker.clearance_profile(trajectory)

    step = 1e-6
    compared = gradients = beyond = overlaps = 0
    for k, (_, x, y, heading) in enumerate(trajectory):
        x, y = x - origin[0], y - origin[1]  # exact: nearby doubles
        ref = reference(x, y, heading)
        d = ref[0]
        if d > horizon + 1e-6:
            beyond += 1
            assert math.isinf(profile.signed_distance[k]) and profile.obstacle_id[k] == -1, k
            assert np.all(profile.gradient[k] == 0), k
            continue
        if d > horizon - 1e-6:
            continue
        compared += 1
        overlaps += d < 0
        # The library's cell corners are doubles at 5.7e6 m (9.3e-10 m apart): a few of those.
        assert profile.signed_distance[k] == pytest.approx(d, abs=2e-8), k
        assert profile.obstacle_id[k] == 3, k
        if len(ref) > 1 and ref[1] - d < 1e-5:
            continue  # two cells nearly equidistant: a kink, either one-sided derivative is right
        plus = [reference(x + step, y, heading)[0], reference(x, y + step, heading)[0],
                reference(x, y, heading + step)[0]]
        minus = [reference(x - step, y, heading)[0], reference(x, y - step, heading)[0],
                 reference(x, y, heading - step)[0]]
        # One-sided differences that disagree: a kink inside one cell (parallel faces, two axes
        # of equal overlap) or curvature too high for the step; skip.
        if any(abs((p - d) - (d - m)) / step > 1e-4 for p, m in zip(plus, minus)):
            continue
        gradients += 1
        central = (np.array(plus) - np.array(minus)) / (2 * step)
        # Round-off of the library's normal at UTM (2e-8 m over |d|) plus the differences' own.
        tolerance = 1e-4 + 1e-7 / max(abs(d), 1e-3)
        # x, y unitless; heading in m per rad, up to the box's reach of ~4 m: 5 times as much.
        error = np.abs(profile.gradient[k] - central)
        assert np.all(error <= tolerance * np.array([1.0, 1.0, 5.0])), (k, profile.gradient[k], central)
    assert compared >= 40 and gradients >= 25 and beyond >= 1 and overlaps >= 5, (
        compared, gradients, beyond, overlaps)
