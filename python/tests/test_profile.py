"""clearance_profile / clearance_profiles and the explanation fields of the results
(hit_in_sweep, contact_point, min_clearance_index, closest_obstacle_id)."""

import math

import numpy as np
import pytest

import collision
import gil_probe
import scene
from collision import Circle, ConvexPolygon, Ellipse, Obb, Obstacle

PROFILE_FIELDS = ["signed_distance", "obstacle_id", "mode", "ego_point", "obstacle_point", "normal", "gradient"]


def _assert_profiles_equal(a, b):
    assert len(a) == len(b)
    for field in PROFILE_FIELDS:
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field), err_msg=field)


def test_profile_arrays_shapes_and_meaning(checker):
    trajectory = scene.straight(speed=20.0)
    trajectory[:, 1] += 30.0  # from x = 30 m, among the obstacles, to 110 m, far past them
    profile = checker.clearance_profile(trajectory)
    T = len(trajectory)
    assert len(profile) == T and repr(profile).startswith(f"ClearanceProfile({T} poses, ")
    assert profile.signed_distance.shape == (T,) and profile.signed_distance.dtype == np.float64
    assert profile.obstacle_id.shape == (T,) and profile.obstacle_id.dtype == np.int64
    assert profile.mode.shape == (T,) and profile.mode.dtype == np.int64
    for field in ["ego_point", "obstacle_point", "normal"]:
        assert getattr(profile, field).shape == (T, 2) and getattr(profile, field).dtype == np.float64
    assert profile.gradient.shape == (T, 3) and profile.gradient.dtype == np.float64
    for field in PROFILE_FIELDS:  # built on the first read, then the same array
        assert getattr(profile, field) is getattr(profile, field)

    found = profile.obstacle_id >= 0
    assert found.any() and (~found).any()  # both within and beyond the horizon
    # Nothing within the horizon: +inf, -1, zero gradient, NaN points and normal.
    assert np.all(np.isinf(profile.signed_distance[~found]))
    assert np.all(profile.gradient[~found] == 0)
    assert np.all(np.isnan(profile.ego_point[~found])) and np.all(np.isnan(profile.normal[~found]))
    assert np.all(np.isnan(profile.obstacle_point[~found]))
    assert np.all(profile.mode == 0)  # no multi-modal obstacle in the scene
    # Within it: obstacle_point - ego_point == signed_distance * normal, a unit normal, and the
    # gradient of the documented formula.
    d = profile.signed_distance[found]
    n = profile.normal[found]
    np.testing.assert_allclose(np.linalg.norm(n, axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(profile.obstacle_point[found] - profile.ego_point[found], d[:, None] * n, atol=1e-9)
    arm = profile.ego_point[found] - trajectory[found, 1:3]
    perp = np.column_stack([-arm[:, 1], arm[:, 0]])
    expected = np.column_stack([-n[:, 0], -n[:, 1], -np.sum(n * perp, axis=1)])
    np.testing.assert_allclose(profile.gradient[found], expected, atol=1e-12)

    # profile[i] is pose i's PoseClearance, field by field.
    for i in [0, int(np.argmax(found)), T - 1]:
        pose = profile[i]
        assert isinstance(pose, collision.PoseClearance)
        assert pose.signed_distance == profile.signed_distance[i]
        assert pose.obstacle_id == (None if profile.obstacle_id[i] < 0 else profile.obstacle_id[i])
        assert pose.mode == profile.mode[i]
        np.testing.assert_array_equal(pose.gradient, profile.gradient[i])
        assert pose.gradient.shape == (3,) and pose.normal.shape == (2,)
        if pose.obstacle_id is not None:
            np.testing.assert_array_equal(pose.ego_point, profile.ego_point[i])
            np.testing.assert_array_equal(pose.obstacle_point, profile.obstacle_point[i])
            np.testing.assert_array_equal(pose.normal, profile.normal[i])
        assert "PoseClearance(signed_distance=" in repr(pose)
    assert profile[-1].signed_distance == profile.signed_distance[-1]
    with pytest.raises(IndexError):
        profile[T]


def test_profile_overlap_is_negative_and_list_input():
    c = collision.CollisionChecker()
    c.set_obstacles([Obstacle.stationary(1, Circle((20, 0), 1.0))])
    profile = c.clearance_profile(scene.straight().tolist())  # a list of rows is converted
    assert profile.signed_distance.min() < -0.5  # driving through the disc: minus the depth
    near = np.isfinite(profile.signed_distance)  # within the 5 m horizon
    assert near.sum() > 10 and np.all(profile.obstacle_id[near] == 1) and np.all(profile.obstacle_id[~near] == -1)
    # Continuous through contact: consecutive poses 1 m apart change it by at most 1 m.
    d = profile.signed_distance
    both = near[1:] & near[:-1]
    assert np.all(np.abs(d[1:][both] - d[:-1][both]) <= 1.0 + 1e-9)


def test_empty_scene_profile():
    profile = collision.CollisionChecker().clearance_profile(scene.straight(poses=3))
    assert np.all(np.isinf(profile.signed_distance)) and profile.obstacle_id.tolist() == [-1, -1, -1]
    assert np.all(profile.gradient == 0)


def test_profiles_of_a_batch_equal_single_profiles(checker):
    cand = scene.candidates(n=60)
    profiles = checker.clearance_profiles(cand)
    assert isinstance(profiles, list) and len(profiles) == 60
    as_list = checker.clearance_profiles(list(cand))
    for i in range(60):
        assert isinstance(profiles[i], collision.ClearanceProfile)
        single = checker.clearance_profile(cand[i])
        _assert_profiles_equal(profiles[i], single)
        _assert_profiles_equal(as_list[i], single)
    ragged = checker.clearance_profiles([cand[0, :5], cand[1]])
    assert [len(p) for p in ragged] == [5, 41]
    _assert_profiles_equal(ragged[0], checker.clearance_profile(cand[0, :5]))
    _assert_profiles_equal(ragged[1], checker.clearance_profile(cand[1]))
    assert checker.clearance_profiles(np.zeros((0, 5, 4))) == []
    assert checker.clearance_profiles([]) == []


def test_profile_errors_name_the_index(checker):
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory: expected shape \(T, 4\).*got \(5, 3\)"):
        checker.clearance_profile(np.zeros((5, 3)))
    with pytest.raises(collision.TrajectoryError, match="^trajectory: expected a float64 array, got dtype float32"):
        checker.clearance_profile(np.zeros((5, 4), dtype=np.float32))
    bad = scene.straight()
    bad[12, 3] = np.nan
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory point 12: heading is not finite \(was nan\)$"):
        checker.clearance_profile(bad)
    with pytest.raises(collision.TrajectoryError, match="trajectory is empty"):
        checker.clearance_profile(np.zeros((0, 4)))
    with pytest.raises(collision.TrajectoryError, match=r"^trajectories: expected shape \(N, T, 4\).*got \(2, 4\)"):
        checker.clearance_profiles(np.zeros((2, 4)))
    with pytest.raises(collision.TrajectoryError, match="^trajectories: expected a float64 array, got dtype bool"):
        checker.clearance_profiles(np.zeros((2, 3, 4), dtype=np.bool_))
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory 1: expected shape \(T, 4\)"):
        checker.clearance_profiles([scene.straight(), np.zeros((3, 2))])
    with pytest.raises(collision.TrajectoryError, match="^trajectory 2: expected a float64 array, got dtype float32"):
        checker.clearance_profiles([scene.straight(), scene.straight(), scene.straight().astype(np.float32)])
    cand = scene.candidates(n=5)
    cand[3, 7, 2] = np.inf
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory 3: trajectory point 7: y is not finite \(was inf\)$"):
        checker.clearance_profiles(cand)
    cand = scene.candidates(n=5)
    cand[4, 9, 0] = cand[4, 8, 0]
    with pytest.raises(collision.TrajectoryError, match=r"^trajectory 4: trajectory point 9: "):
        checker.clearance_profiles(list(cand))
    with pytest.raises(TypeError):
        checker.clearance_profiles(42)
    with pytest.raises(TypeError):
        checker.clearance_profile("no")


def _finite_differences(c, poses, h_pos=1e-6, h_rad=1e-6):
    """signed_distance, gradient, the central finite differences of signed_distance and whether
    the pose sits on a kink (the one-sided differences disagree: a corner or a tie between two
    witnesses, where C++ documents a one-sided gradient), per pose. All 7 evaluations of a pose
    go into one trajectory (the obstacles are stationary, so t does not matter)."""
    steps = np.array(
        [[0, 0, 0], [h_pos, 0, 0], [-h_pos, 0, 0], [0, h_pos, 0], [0, -h_pos, 0], [0, 0, h_rad], [0, 0, -h_rad]]
    )
    rows = (poses[:, None, :] + steps[None, :, :]).reshape(-1, 3)
    trajectory = np.column_stack([np.arange(len(rows), dtype=float), rows])
    profile = c.clearance_profile(trajectory)
    d = profile.signed_distance.reshape(-1, 7)
    gradient = profile.gradient.reshape(-1, 7, 3)[:, 0]
    h = np.array([h_pos, h_pos, h_rad])
    with np.errstate(invalid="ignore"):
        forward = (d[:, [1, 3, 5]] - d[:, [0]]) / h
        backward = (d[:, [0]] - d[:, [2, 4, 6]]) / h
    central = (forward + backward) / 2
    scale = np.linalg.norm(gradient, axis=1)
    kink = np.linalg.norm(forward - backward, axis=1) > 1e-4 * scale
    return d[:, 0], gradient, central, kink


def test_gradient_matches_finite_differences():
    # Random poses around a disc, a box, a triangle and an ellipse (apart and overlapping): the
    # gradient against central differences with steps of 1e-6 m and 1e-6 rad, within 1e-5 of
    # the gradient's norm wherever the witness is unique. Kinks (detected as one-sided
    # differences that disagree) are counted and must be rare.
    rng = np.random.default_rng(3)
    c = collision.CollisionChecker()
    c.set_obstacles(
        [
            Obstacle.stationary(1, Circle((0.0, 0.0), 0.8)),
            Obstacle.stationary(2, Obb((6.0, 1.0), 0.4, 1.0, 0.6)),
            Obstacle.stationary(3, ConvexPolygon([(-1, 5), (1.5, 5.5), (0.5, 7)])),
            Obstacle.stationary(4, Ellipse((-5, -2), 0.4, 1.2, 0.5)),
        ]
    )
    n = 1500
    poses = np.column_stack([rng.uniform(-8, 9, n), rng.uniform(-5, 9, n), rng.uniform(-math.pi, math.pi, n)])
    d, gradient, central, kink = _finite_differences(c, poses)
    measured = np.isfinite(d) & (np.abs(d) > 1e-3)  # not within a step of contact
    assert (d[measured] > 0).sum() > 300 and (d[measured] < 0).sum() > 300
    error = np.linalg.norm(central - gradient, axis=1) / np.linalg.norm(gradient, axis=1)
    smooth = measured & ~kink
    assert kink[measured].mean() <= 0.01
    assert np.all(error[smooth] <= 1e-5), f"worst relative error {error[smooth].max():.3g}"
    # Where nothing is within the horizon the gradient is zero.
    assert np.all(gradient[np.isinf(d)] == 0)


def test_profile_matches_cpp(parity_exe, tmp_path):
    cand = scene.candidates(n=120)
    cand[110:, :, 1] += 100.0  # the last 10 far past every obstacle: nothing within the horizon
    cpp = scene.parity_rows(parity_exe, tmp_path, cand, "--profiles")
    assert cpp.shape == (120 * 41, 14)
    np.testing.assert_array_equal(cpp[:, 0], np.repeat(np.arange(120), 41))
    np.testing.assert_array_equal(cpp[:, 1], np.tile(np.arange(41), 120))
    c = collision.CollisionChecker(scene.scene_config())
    c.set_obstacles(scene.scene_obstacles())
    profiles = c.clearance_profiles(cand)
    py = {field: np.concatenate([getattr(p, field) for p in profiles]) for field in PROFILE_FIELDS}
    np.testing.assert_array_equal(py["signed_distance"], cpp[:, 2])
    np.testing.assert_array_equal(py["obstacle_id"], cpp[:, 3])
    np.testing.assert_array_equal(py["mode"], cpp[:, 4])
    found = py["obstacle_id"] >= 0
    # C++ leaves the points and normal unspecified where no obstacle is found; Python says NaN.
    for field, columns in [("ego_point", [5, 6]), ("obstacle_point", [7, 8]), ("normal", [9, 10])]:
        np.testing.assert_array_equal(py[field][found], cpp[found][:, columns], err_msg=field)
        assert np.all(np.isnan(py[field][~found]))
    np.testing.assert_array_equal(py["gradient"], cpp[:, 11:14])
    # The scene gives every case: apart, overlapping, beyond the horizon.
    assert (py["signed_distance"] < 0).any() and (py["signed_distance"] > 0).any() and (~found).any()
    assert len(set(py["obstacle_id"][found].tolist())) >= 5


def test_check_explanation_fields(checker):
    hit = checker.check(scene.straight(y=0.0))
    assert hit.collides and hit.obstacle_id == 7  # the pedestrian crossing at x = 15 m
    assert isinstance(hit.hit_in_sweep, bool)
    assert isinstance(hit.contact_point, np.ndarray) and hit.contact_point.shape == (2,)
    assert hit.min_clearance_index is None and hit.closest_obstacle_id is None
    # The contact point is on the footprint at the collision time, near the pedestrian's region.
    assert 14.0 <= hit.contact_point[0] <= 16.0 and -1.2 <= hit.contact_point[1] <= 1.2
    free = checker.check(scene.straight(y=3.5))
    assert not free.collides and not free.hit_in_sweep and free.contact_point is None
    assert isinstance(free.min_clearance_index, int) and isinstance(free.closest_obstacle_id, int)
    text = repr(hit)
    assert "hit_in_sweep=" in text and "contact_point=(" in text and "closest_obstacle_id=None" in text
    assert f"min_clearance_index={free.min_clearance_index}" in repr(free)


def test_batch_explanation_arrays(checker):
    cand = scene.candidates(n=200)
    batch = checker.check_all(cand)
    assert batch.hit_in_sweep.dtype == np.bool_ and batch.hit_in_sweep.shape == (200,)
    assert batch.contact_point.dtype == np.float64 and batch.contact_point.shape == (200, 2)
    assert batch.min_clearance_index.dtype == np.int64 and batch.min_clearance_index.shape == (200,)
    assert batch.closest_obstacle_id.dtype == np.int64 and batch.closest_obstacle_id.shape == (200,)
    assert not batch.hit_in_sweep[~batch.collides].any()
    assert np.all(np.isnan(batch.contact_point[~batch.collides]))
    assert np.all(np.isfinite(batch.contact_point[batch.collides]))
    assert np.all(batch.min_clearance_index[batch.collides] == -1)
    assert np.all(batch.closest_obstacle_id[batch.collides] == -1)
    for i in range(200):
        one = batch[i]
        assert one.hit_in_sweep == batch.hit_in_sweep[i]
        if one.collides:
            np.testing.assert_array_equal(one.contact_point, batch.contact_point[i])
        assert (one.min_clearance_index if one.min_clearance_index is not None else -1) == batch.min_clearance_index[i]
        assert (one.closest_obstacle_id if one.closest_obstacle_id is not None else -1) == batch.closest_obstacle_id[i]
        assert (batch.min_clearance_index[i] >= 0) == (not one.collides and math.isfinite(one.min_clearance))


def test_profile_agrees_with_check(checker):
    # The profile's minimum over a free trajectory is min_clearance, at min_clearance_index, to
    # closest_obstacle_id; and a pose is free for check (continuous off) exactly when its signed
    # distance exceeds the contact tolerance.
    cand = scene.candidates(n=100)
    batch = checker.check_all(cand)
    profiles = checker.clearance_profiles(cand)
    measured = 0
    for i in np.nonzero(~batch.collides & np.isfinite(batch.min_clearance))[0]:
        p = profiles[i]
        k = int(np.argmin(p.signed_distance))
        assert p.signed_distance[k] == batch.min_clearance[i]
        assert k == batch.min_clearance_index[i]
        assert p.obstacle_id[k] == batch.closest_obstacle_id[i]
        measured += 1
    assert measured > 10

    config = scene.scene_config()
    config.continuous.enabled = False
    poses_only = collision.CollisionChecker(config)
    poses_only.set_obstacles(scene.scene_obstacles())
    tolerance = config.narrow_phase.contact_tolerance
    for i in range(0, 100, 7):
        free = ~poses_only.check_all(cand[i][:, None, :]).collides  # each pose alone
        np.testing.assert_array_equal(free, profiles[i].signed_distance > tolerance)


def test_gil_is_released_during_clearance_profiles(checker):
    cand = np.repeat(scene.candidates(n=50), 200, axis=0)
    ticks, elapsed = gil_probe.ticks_during(lambda: checker.clearance_profiles(cand),
                                            warm_up=lambda: checker.clearance_profiles(cand[:100]))
    # With the GIL held the counter could not move while the profiles run.
    assert ticks >= 3, f"{ticks} ticks during {elapsed:.3f} s of clearance_profiles"


def test_profile_docstrings_explain_shapes_and_units():
    doc = collision.CollisionChecker.clearance_profile.__doc__
    for text in ["(T, 4)", "(T,)", "(T, 2)", "(T, 3)", "metres", "radians", "-1", "inf", "NaN", "gradient", "mode"]:
        assert text in doc, text
    doc = collision.CollisionChecker.clearance_profiles.__doc__
    assert "(N, T, 4)" in doc and "(T_i, 4)" in doc and "list of N ClearanceProfile" in doc
    doc = collision.CollisionChecker.check_all.__doc__
    for text in ["hit_in_sweep", "contact_point", "(N, 2)", "min_clearance_index", "closest_obstacle_id"]:
        assert text in doc, text
    assert "metres" in collision.TrajectoryResult.contact_point.__doc__
    assert "(T, 3)" in collision.ClearanceProfile.gradient.__doc__
