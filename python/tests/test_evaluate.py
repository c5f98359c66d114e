"""collision.evaluate: check_scenarios in this process and on a 2-worker LocalCluster against
check_all called directly, the command line, and each bad input (named in the error, raised in
the caller also when a worker hit it).

The scenarios: the bundled config/scenarios/commonroad_urban.xml, and the CommonRoad files of
../shared/data/commonroad beside the repository when it is there. One LocalCluster serves the
whole module (starting one costs a few seconds)."""

import os
import pathlib
import runpy
import subprocess
import sys

import numpy as np
import pytest

import collision

pytest.importorskip("pandas")
if not hasattr(collision, "load_commonroad"):
    pytest.skip("built without the CommonRoad reader", allow_module_level=True)

import pandas  # noqa: E402

import collision.evaluate as evaluate  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "config" / "scenarios" / "commonroad_urban.xml"
SHARED = ROOT.parent / "shared" / "data" / "commonroad"


# python/examples/commonroad_candidates.py: its candidates() builds a scenario's 1000.
EXAMPLE = ROOT / "python" / "examples" / "commonroad_candidates.py"
example_candidates = runpy.run_path(str(EXAMPLE))["candidates"]


def scenario_files():
    files = [BUNDLED]
    if SHARED.is_dir():
        files += sorted(SHARED.glob("*.xml"))
    return files


def candidates_for(path, count):
    """`count` of the example's candidates from the scenario's first start (repeating them)."""
    scenario = collision.load_commonroad(str(path))
    trajectories, _, _ = example_candidates(scenario.ego_starts[0], scenario.time_step)
    return np.ascontiguousarray(np.resize(trajectories, (count,) + trajectories.shape[1:]))


def direct(path, trajectories, config):
    checker = collision.CollisionChecker(config)
    checker.set_obstacles(collision.load_commonroad(str(path)).obstacles_and_borders())
    return checker.check_all(trajectories)


def wide_config():
    """Not the defaults: a wide lateral margin makes more candidates collide."""
    config = collision.default_config()
    config.margins.lateral = 0.8
    config.clearance.horizon = 10.0
    return config


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """Jobs of different sizes, the largest first (so that completion order is not job order),
    every other one given as a .npy path; the bundled scenario twice."""
    folder = tmp_path_factory.mktemp("jobs")
    files = scenario_files()
    files = files + [BUNDLED]
    out = []
    for k, path in enumerate(files):
        trajectories = candidates_for(path, 1500 if k == 0 else 40 + 7 * k)
        if k % 2:
            npy = folder / f"job{k}.npy"
            np.save(npy, trajectories)
            out.append((str(path), str(npy)))
        else:
            out.append((str(path), trajectories))
    return out


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as c:
        yield c


def expected_frame(jobs, config):
    parts = []
    for path, trajectories in jobs:
        array = np.load(trajectories) if isinstance(trajectories, str) else trajectories
        r = direct(path, array, config)
        parts.append(
            pandas.DataFrame({
                "scenario": path,
                "index": np.arange(len(array), dtype=np.int64),
                "collides": r.collides,
                "first_collision_index": r.first_collision_index,
                "first_collision_time": r.first_collision_time,
                "obstacle_id": r.obstacle_id,
                "min_clearance": r.min_clearance,
                "collision_probability": r.collision_probability,
            })
        )
    return pandas.concat(parts, ignore_index=True)


def test_columns_and_dtypes(jobs):
    frame = evaluate.check_scenarios(jobs[:1])
    assert list(frame.columns) == [name for name, _ in evaluate.COLUMNS]
    assert frame["collides"].dtype == bool
    assert frame["index"].dtype == np.int64
    assert frame["first_collision_time"].dtype == np.float64
    free = ~frame["collides"]
    assert free.any() and frame["collides"].any()
    assert (frame.loc[free, "first_collision_index"] == -1).all()
    assert (frame.loc[free, "obstacle_id"] == -1).all()
    assert frame.loc[free, "first_collision_time"].isna().all()
    assert (frame.loc[~free, "min_clearance"] == 0).all()


def test_in_process_equals_check_all(jobs):
    config = wide_config()
    frame = evaluate.check_scenarios(jobs, config=config)
    assert len(frame) == sum(len(np.load(t) if isinstance(t, str) else t) for _, t in jobs)
    pandas.testing.assert_frame_equal(frame, expected_frame(jobs, config))


def test_default_config_is_the_defaults(jobs):
    a = evaluate.check_scenarios(jobs[:2])
    pandas.testing.assert_frame_equal(a, expected_frame(jobs[:2], collision.default_config()))
    wide = evaluate.check_scenarios(jobs[:2], config=wide_config())
    assert wide["collides"].sum() > a["collides"].sum()


def test_cluster_equals_in_process_in_job_order(jobs, client):
    config = wide_config()
    on_cluster = evaluate.check_scenarios(jobs, config=config, client=client)
    pandas.testing.assert_frame_equal(on_cluster, evaluate.check_scenarios(jobs, config=config))
    # Rows in job order, each job's trajectories in order.
    starts = np.flatnonzero(on_cluster["index"].to_numpy() == 0)
    assert [on_cluster["scenario"][s] for s in starts] == [path for path, _ in jobs]


def test_cluster_runs_with_the_callers_config(jobs, client):
    default = evaluate.check_scenarios(jobs[:1], client=client)
    wide = evaluate.check_scenarios(jobs[:1], config=wide_config(), client=client)
    assert wide["collides"].sum() > default["collides"].sum()
    pandas.testing.assert_frame_equal(wide, expected_frame(jobs[:1], wide_config()))


def test_no_jobs():
    frame = evaluate.check_scenarios([])
    assert len(frame) == 0
    assert list(frame.columns) == [name for name, _ in evaluate.COLUMNS]


# Bad inputs: each raised in the caller, naming the file, in this process and from a worker.

def bad_jobs(tmp_path):
    good = candidates_for(BUNDLED, 5)
    garbage = tmp_path / "garbage.npy"
    garbage.write_bytes(b"this is not a numpy file at all\n" * 4)
    wrong_shape = tmp_path / "wrong_shape.npy"
    np.save(wrong_shape, good[..., :3])
    strings = tmp_path / "strings.npy"
    np.save(strings, np.full((2, 3, 4), "x"))
    archive = tmp_path / "archive.npy"
    with open(archive, "wb") as f:
        np.savez(f, good)
    backwards = tmp_path / "backwards.npy"
    reversed_time = good.copy()
    reversed_time[3, :, 0] = reversed_time[3, ::-1, 0]
    np.save(backwards, reversed_time)
    missing_xml = str(tmp_path / "no_such_scenario.xml")
    return [
        ((missing_xml, good), collision.ScenarioError, "no_such_scenario.xml"),
        ((str(BUNDLED), str(tmp_path / "missing.npy")), FileNotFoundError, "missing.npy"),
        ((str(BUNDLED), str(garbage)), ValueError, "garbage.npy: not a .npy array file"),
        ((str(BUNDLED), str(wrong_shape)), ValueError, r"wrong_shape.npy: expected shape \(N, T, 4\)"),
        ((str(BUNDLED), str(strings)), ValueError, "strings.npy: expected a float64 array"),
        ((str(BUNDLED), str(archive)), ValueError, "archive.npy: not a .npy array file"),
        ((str(BUNDLED), good[0]), ValueError, r"commonroad_urban.xml: trajectories: expected shape"),
        ((str(BUNDLED), str(backwards)), collision.TrajectoryError, r"backwards.npy: trajectory 3"),
    ]


def test_bad_inputs_in_process(tmp_path):
    good = (str(BUNDLED), candidates_for(BUNDLED, 5))
    for job, error, message in bad_jobs(tmp_path):
        with pytest.raises(error, match=message):
            evaluate.check_scenarios([good, job])


def test_bad_inputs_on_cluster_raised_in_caller(tmp_path, client):
    good = (str(BUNDLED), candidates_for(BUNDLED, 5))
    for job, error, message in bad_jobs(tmp_path):
        with pytest.raises(error, match=message):
            evaluate.check_scenarios([good, job], client=client)


def test_a_job_that_is_not_a_pair():
    with pytest.raises(TypeError, match="job 1: expected a"):
        evaluate.check_scenarios([(str(BUNDLED), candidates_for(BUNDLED, 2)), str(BUNDLED)])


# The command line.

def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "collision.evaluate", *args],
        capture_output=True, text=True, timeout=120, env=dict(os.environ),
    )


def npy_jobs(jobs, tmp_path):
    out = []
    for k, (path, trajectories) in enumerate(jobs):
        if not isinstance(trajectories, str):
            trajectories = str(tmp_path / f"cli{k}.npy")
            np.save(trajectories, jobs[k][1])
        out.append((path, trajectories))
    return out


def test_cli_writes_the_rows_as_csv(jobs, client, tmp_path):
    """Against the module's cluster by its address: the rows equal the in-process ones."""
    cli_jobs = npy_jobs(jobs, tmp_path)
    out = tmp_path / "results.csv"
    done = run_cli("--scheduler", client.scheduler.address, "--workers", "2", "--out", str(out),
                   *[f"{s}:{t}" for s, t in cli_jobs])
    assert done.returncode == 0, done.stderr
    assert f"{len(pandas.read_csv(out))} trajectories of {len(jobs)} scenarios" in done.stderr
    written = pandas.read_csv(out)
    expected = evaluate.check_scenarios(cli_jobs)
    assert list(written.columns) == list(expected.columns)
    pandas.testing.assert_frame_equal(written, expected, check_dtype=False)


def test_cli_local_cluster_with_config(tmp_path):
    trajectories = tmp_path / "t.npy"
    np.save(trajectories, candidates_for(BUNDLED, 30))
    config = tmp_path / "wide.yaml"
    config.write_text("margins:\n  lateral: 0.8\nclearance:\n  horizon: 10.0\n")
    out = tmp_path / "local.csv"
    done = run_cli("--scheduler", "local", "--workers", "1", "--config", str(config),
                   "--out", str(out), f"{BUNDLED}:{trajectories}")
    assert done.returncode == 0, done.stderr
    expected = evaluate.check_scenarios([(str(BUNDLED), str(trajectories))], config=wide_config())
    pandas.testing.assert_frame_equal(pandas.read_csv(out), expected, check_dtype=False)


def test_cli_bad_job_and_bad_file(tmp_path):
    done = run_cli("--out", str(tmp_path / "x.csv"), "no_colon_here.xml")
    assert done.returncode == 2
    assert "job 'no_colon_here.xml': expected scenario.xml:trajectories.npy" in done.stderr
    missing = tmp_path / "missing.npy"
    done = run_cli("--scheduler", "local", "--workers", "1", "--no-progress",
                   "--out", str(tmp_path / "x.csv"), f"{BUNDLED}:{missing}")
    assert done.returncode != 0
    assert f"{missing}: no such trajectories file" in done.stderr
    assert not (tmp_path / "x.csv").exists()


def test_import_collision_does_not_import_dask():
    code = "import sys, collision; print('dask' in sys.modules, 'pandas' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]
