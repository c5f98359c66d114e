import math
import subprocess
import threading

import numpy as np
import pytest

import collision
import gil_probe
import scene
from collision import Circle, ConvexPolygon, Ellipse, Obb, Obstacle


def test_obstacles_of_every_kind():
    obstacles = scene.scene_obstacles()
    kinds = [(o.id, o.is_moving, o.is_boundary, o.obstacle_class.name) for o in obstacles]
    assert kinds[0] == (1, False, False, "car")
    assert kinds[1] == (2, True, False, "bicycle")
    assert kinds[3] == (4, False, True, "road_boundary")
    assert len(obstacles[4].parts) >= 2  # the L-shaped outline in convex parts
    assert all(isinstance(p, ConvexPolygon) for p in obstacles[4].parts)
    assert isinstance(obstacles[5].parts[0], Ellipse)
    assert isinstance(obstacles[3].parts[0], Obb)
    assert obstacles[1].prediction.shape == (2, 4)
    assert obstacles[0].prediction.shape == (0, 4)
    x, y, h = obstacles[1].pose_at(1.0)
    assert (x, y, h) == pytest.approx((30.0, 1.0, -1.57))
    assert obstacles[1].pose_at(5.0, collision.OutsidePrediction.ignore) is None
    assert obstacles[1].pose_at(5.0) == pytest.approx((30.0, -3.0, -1.57))
    o = Obstacle.stationary(11, Circle((0, 0), 1))
    o.obstacle_class = "truck"
    assert o.obstacle_class == collision.ObstacleClass.truck
    assert o.set_class(collision.ObstacleClass.bus) is o
    assert "stationary, id=11, class=bus" in repr(o)
    with pytest.raises(KeyError):
        o.set_class("spaceship")


def test_prediction_array_errors():
    with pytest.raises(collision.GeometryError, match=r"^obstacle 4: prediction: expected shape \(T, 4\)"):
        Obstacle.moving(4, Circle((0, 0), 1), np.zeros((3, 3)))
    with pytest.raises(collision.GeometryError, match="got dtype float32"):
        Obstacle.moving(4, Circle((0, 0), 1), np.zeros((3, 4), dtype=np.float32))
    with pytest.raises(TypeError):
        Obstacle.moving(4, (0, 0), np.zeros((1, 4)))


def test_readme_first_program():
    # README's "A first program", from Python: the same printed answers.
    config = collision.default_config()
    config.margins.by_class[collision.ObstacleClass.pedestrian] = 0.5
    checker = collision.CollisionChecker(config)
    checker.set_obstacles(
        [
            Obstacle.stationary(1, ConvexPolygon([(20, -1), (24.5, -1), (24.5, 1), (20, 1)])),
            Obstacle.moving(2, Obb((0, 0), 0.0, 0.9, 0.3), [[0.0, 30.0, 5.0, -1.57], [2.0, 30.0, -3.0, -1.57]]),
            Obstacle.stationary(3, Circle((12, 5.8), 0.3)).set_class("pedestrian"),
            Obstacle.boundary(4, [(0, -2.5), (60, -2.5)]),
        ]
    )
    hit = checker.check(scene.straight(y=0.0))
    assert hit.collides and hit.first_collision_index == 17 and hit.obstacle_id == 1
    assert f"{hit.first_collision_time:.2f}" == "1.62"
    assert hit.min_clearance == 0.0
    assert hit.stats.pairs_seen > 0 and hit.stats.sent_to_gjk > 0
    free = checker.check(scene.straight(y=3.5))
    assert not free.collides
    assert free.first_collision_index is None and free.first_collision_time is None
    assert free.obstacle_id is None
    assert f"{free.min_clearance:.2f}" == "0.54"
    assert checker.check(scene.straight(y=3.5).tolist()).min_clearance == free.min_clearance


def test_check_all_array_list_and_check_agree(checker):
    cand = scene.candidates(n=120)
    batch = checker.check_all(cand)
    assert len(batch) == 120
    assert batch.collides.dtype == np.bool_ and batch.collides.shape == (120,)
    assert batch.first_collision_index.dtype == np.int64 and batch.obstacle_id.dtype == np.int64
    assert batch.first_collision_time.dtype == np.float64 and batch.min_clearance.dtype == np.float64
    assert 0 < batch.collides.sum() < 120
    as_list = checker.check_all(list(cand))
    for field in ["collides", "first_collision_index", "first_collision_time", "obstacle_id", "min_clearance"]:
        np.testing.assert_array_equal(getattr(batch, field), getattr(as_list, field))
    for i in range(120):
        one = checker.check(cand[i])
        assert batch[i].collides == one.collides == batch.collides[i]
        assert one.first_collision_index == (None if batch.first_collision_index[i] < 0 else batch.first_collision_index[i])
        assert one.obstacle_id == (None if batch.obstacle_id[i] < 0 else batch.obstacle_id[i])
        if one.collides:
            assert one.first_collision_time == batch.first_collision_time[i]
        else:
            assert math.isnan(batch.first_collision_time[i])
        assert one.min_clearance == batch.min_clearance[i]
        assert one.stats.pairs_seen == batch[i].stats.pairs_seen
    assert batch.stats.pairs_seen == sum(batch[i].stats.pairs_seen for i in range(120))
    assert batch[-1].collides == batch.collides[-1]
    with pytest.raises(IndexError):
        batch[120]


def test_check_all_ragged_list_and_empty(checker):
    batch = checker.check_all([scene.straight(poses=5), scene.straight(y=3.5, poses=30)])
    assert batch.collides.tolist() == [checker.check(scene.straight(poses=5)).collides, False]
    assert len(checker.check_all(np.zeros((0, 5, 4)))) == 0
    assert len(checker.check_all([])) == 0


def test_float64_arrays_back_from_pickle_are_float64(checker):
    # multiprocessing and joblib hand arrays over by pickle, whose float64 dtype is a separate
    # (equal) object: the dtype is compared by value.
    import pickle
    one = scene.straight(poses=12)
    batch = np.stack([one, scene.straight(y=3.5, poses=12)])
    assert checker.check(pickle.loads(pickle.dumps(one))).collides == checker.check(one).collides
    again = checker.check_all(pickle.loads(pickle.dumps(batch)))
    assert again.collides.tolist() == checker.check_all(batch).collides.tolist()
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    assert collision.ConvexPolygon(pickle.loads(pickle.dumps(square))).area() == 1.0
    poses = np.array([[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]])
    Obstacle.moving(7, Circle((0, 0), 1), pickle.loads(pickle.dumps(poses)))


def test_trajectory_array_errors(checker):
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory: expected shape \(T, 4\).*got \(5, 3\)"):
        checker.check(np.zeros((5, 3)))
    with pytest.raises(collision.TrajectoryError, match="got dtype float32"):
        checker.check(np.zeros((5, 4), dtype=np.float32))
    with pytest.raises(collision.TrajectoryError, match=r"^trajectories: expected shape \(N, T, 4\).*got \(2, 4\)"):
        checker.check_all(np.zeros((2, 4)))
    with pytest.raises(collision.TrajectoryError, match="trajectories: expected a float64 array, got dtype float16"):
        checker.check_all(np.zeros((2, 3, 4), dtype=np.float16))
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory 1: expected shape \(T, 4\)"):
        checker.check_all([scene.straight(), np.zeros((3, 2))])
    cand = scene.candidates(n=5)
    cand[3, 7, 2] = np.inf
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory 3: trajectory point 7: y is not finite \(was inf\)$"):
        checker.check_all(cand)
    with pytest.raises(TypeError):
        checker.check_all(42)
    with pytest.raises(collision.TrajectoryError, match="trajectory is empty"):
        collision.validate_trajectory(np.zeros((0, 4)))


def test_error_messages_match_cpp(parity_exe):
    expected = subprocess.run([parity_exe, "--errors"], check=True, capture_output=True, text=True).stdout
    expected = expected.splitlines()
    assert len(expected) == len(scene.ERROR_CASES)
    for (kind, make), message in zip(scene.ERROR_CASES, expected):
        with pytest.raises(kind) as info:
            make()
        assert str(info.value) == message


def test_results_match_cpp(parity_exe, tmp_path):
    cand = scene.candidates(n=300)
    cpp = scene.parity_rows(parity_exe, tmp_path, cand)
    assert cpp.shape == (300, 10)
    c = collision.CollisionChecker(scene.scene_config())
    c.set_obstacles(scene.scene_obstacles())
    batch = c.check_all(cand)
    np.testing.assert_array_equal(batch.collides, cpp[:, 0] == 1)
    np.testing.assert_array_equal(batch.first_collision_index, cpp[:, 1])
    np.testing.assert_array_equal(batch.first_collision_time, cpp[:, 2])  # NaN == NaN here
    np.testing.assert_array_equal(batch.obstacle_id, cpp[:, 3])
    np.testing.assert_array_equal(batch.min_clearance, cpp[:, 4])
    np.testing.assert_array_equal(batch.hit_in_sweep, cpp[:, 5] == 1)
    np.testing.assert_array_equal(batch.contact_point, cpp[:, 6:8])  # NaN rows when free
    np.testing.assert_array_equal(batch.min_clearance_index, cpp[:, 8])
    np.testing.assert_array_equal(batch.closest_obstacle_id, cpp[:, 9])
    for i in range(0, 300, 11):  # check() gives the same explanations as check_all
        one = c.check(cand[i])
        assert one.hit_in_sweep == bool(cpp[i, 5])
        if one.collides:
            np.testing.assert_array_equal(one.contact_point, cpp[i, 6:8])
        else:
            assert one.contact_point is None
        assert (-1 if one.min_clearance_index is None else one.min_clearance_index) == cpp[i, 8]
        assert (-1 if one.closest_obstacle_id is None else one.closest_obstacle_id) == cpp[i, 9]
    # The scene exercises every obstacle kind and both answers.
    assert 0 < batch.collides.sum() < 300 and batch.hit_in_sweep.any()
    assert (batch.min_clearance_index >= 0).any()
    assert {1, 3, 4, 5, 7, 8}.issubset(set(batch.obstacle_id.tolist()))


def test_set_obstacles_and_set_config_keep_answers():
    c = collision.CollisionChecker()
    assert not c.check(scene.straight()).collides
    c.set_obstacles([Obstacle.stationary(1, Circle((20, 0), 1.0))])
    assert c.check(scene.straight()).obstacle_id == 1
    config = collision.default_config()
    config.clearance.horizon = 0.0
    c.set_config(config)
    free = c.check(scene.straight(y=10))
    assert free.min_clearance == math.inf and c.check(scene.straight()).collides


def test_gil_is_released_during_check_all(checker):
    cand = np.repeat(scene.candidates(n=50), 200, axis=0)
    ticks, elapsed = gil_probe.ticks_during(lambda: checker.check_all(cand),
                                            warm_up=lambda: checker.check_all(cand[:100]))
    # With the GIL held the counter could not move while check_all runs.
    assert ticks >= 3, f"{ticks} ticks during a {elapsed:.3f} s check_all"


def test_checks_from_python_threads(checker):
    cand = scene.candidates(n=100)
    expected = checker.check_all(cand).min_clearance
    results = [None] * 4

    def run(k):
        results[k] = checker.check_all(cand).min_clearance

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(r, expected)


def test_docstrings_explain_shapes_and_units():
    doc = collision.CollisionChecker.check_all.__doc__
    assert "(N, T, 4)" in doc and "(T_i, 4)" in doc and "NaN" in doc and "-1" in doc and "metres" in doc
    assert "(T, 4)" in collision.CollisionChecker.check.__doc__
    assert "metres" in collision.Circle.__init__.__doc__
    assert "(P, 4)" in collision.Obstacle.moving.__doc__
    assert collision.__doc__ and collision.__version__


def test_example_runs(tmp_path):
    import os
    import pathlib
    import sys

    example = pathlib.Path(__file__).resolve().parents[1] / "examples" / "free_candidates.py"
    out = subprocess.run(
        [sys.executable, str(example), str(tmp_path / "free.png")],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ),
    ).stdout
    assert out.startswith("1000 candidates, ")
    assert "wrote" in out or "offset m" in out
