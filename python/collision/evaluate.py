"""Re-check the trajectories of many CommonRoad scenarios, in this process or on a Dask cluster.

A job is a CommonRoad scenario file and the trajectories to check in it: a float64 (N, T, 4)
array (columns t in seconds, x and y in metres, heading in radians; N trajectories of T poses)
or the path of a ``.npy`` file holding one. Each scenario's obstacles and road borders are set
on a checker with the caller's config and its N trajectories are checked in one ``check_all``.

    import collision.evaluate
    from dask.distributed import Client, LocalCluster

    jobs = [("scenario.xml", "planned.npy"), ("other.xml", trajectories)]
    rows = collision.evaluate.check_scenarios(jobs)                 # in this process
    with LocalCluster(n_workers=2) as cluster, Client(cluster) as client:
        rows = collision.evaluate.check_scenarios(jobs, client=client)  # same rows

On a cluster (``Client("tcp://scheduler:8786")``) each job is one task: the scenario file and a
``.npy`` given by path are read on the worker that runs it, so the paths must be valid there.
The config travels with each task (pickled), so every worker checks with the caller's.

The command line does the same and writes the rows as CSV, with Dask's progress bar:

    python3 -m collision.evaluate --scheduler local --workers 2 --out results.csv \\
        scenario.xml:planned.npy other.xml:logged.npy

Dask (``dask.distributed``) and pandas are imported only by this module, and dask only when a
cluster is used; ``import collision`` needs neither.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import typing
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

import collision

__all__ = [
    "COLUMNS",
    "check_scenario",
    "check_scenarios",
    "load_trajectories",
    "main",
    "parse_job",
    "submit",
]

if TYPE_CHECKING:  # pandas and dask stay optional at run time
    import pandas  # type: ignore[import]  # Debian ships no pandas stubs

Trajectories = Union[npt.NDArray[np.float64], str, "os.PathLike[str]"]
Job = Tuple[Union[str, "os.PathLike[str]"], Trajectories]

# The columns of check_scenarios' DataFrame, in order, with their dtypes.
COLUMNS: Tuple[Tuple[str, str], ...] = (
    ("scenario", "object"),  # the scenario path as the job gave it
    ("index", "int64"),  # the trajectory's index in its job's (N, T, 4) array
    ("collides", "bool"),
    ("first_collision_index", "int64"),  # -1 when free
    ("first_collision_time", "float64"),  # seconds, NaN when free
    ("obstacle_id", "int64"),  # -1 when free
    ("min_clearance", "float64"),  # metres; 0 when colliding, inf with nothing in the horizon
    ("collision_probability", "float64"),  # in [0, 1]
)


def load_trajectories(value: Trajectories, where: str = "trajectories") -> npt.NDArray[np.float64]:
    """The (N, T, 4) float64 array of a job: `value` itself, or the array in the .npy file it names.

    Raises FileNotFoundError naming a missing file, and ValueError naming the file (or `where`
    for an array) for a file that is not a .npy array, a wrong shape or a non-numeric dtype.
    """
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        where = path
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{path}: no such trajectories file")
        try:
            # allow_pickle=False: a .npy from elsewhere must not run code on a worker.
            loaded = np.load(path, allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise ValueError(f"{path}: not a .npy array file ({e})") from e
        if not isinstance(loaded, np.ndarray):  # an .npz archive
            raise ValueError(f"{path}: not a .npy array file (an .npz archive)")
        array = loaded
    else:
        array = np.asarray(value)
    if array.ndim != 3 or array.shape[2] != 4:
        raise ValueError(
            f"{where}: expected shape (N, T, 4) (columns t, x, y, heading), got {array.shape}"
        )
    if not (np.issubdtype(array.dtype, np.floating) or np.issubdtype(array.dtype, np.integer)):
        raise ValueError(f"{where}: expected a float64 array, got dtype {array.dtype}")
    return np.ascontiguousarray(array, dtype=np.float64)


def check_scenario(
    scenario_path: Union[str, "os.PathLike[str]"],
    trajectories: Trajectories,
    config: Optional[collision.CheckerConfig] = None,
) -> Dict[str, Any]:
    """One job: the scenario's obstacles and road borders on a checker with `config` (None: the
    defaults), its trajectories checked in one check_all. The columns as numpy arrays (scenario
    as the path string); what check_scenarios runs per job, in this process or on a worker.

    Raises ScenarioError naming the file for a missing or unreadable scenario, what
    load_trajectories raises for bad trajectories, and TrajectoryError naming the .npy file (or
    the scenario), the trajectory and the pose for bad values.
    """
    path = os.fspath(scenario_path)
    scenario = collision.load_commonroad(path)
    where = (
        os.fspath(trajectories)
        if isinstance(trajectories, (str, os.PathLike))
        else f"{path}: trajectories"
    )
    array = load_trajectories(trajectories, where=where)
    checker = collision.CollisionChecker(collision.default_config() if config is None else config)
    checker.set_obstacles(scenario.obstacles_and_borders())
    n = array.shape[0]
    if n == 0:
        return _empty_columns()
    try:
        result = checker.check_all(array)
    except collision.TrajectoryError as e:
        # check_all names the trajectory and the pose; the file is what the caller has to find.
        raise collision.TrajectoryError(f"{where}: {e}") from None
    return {
        "scenario": np.full(n, path, dtype=object),
        "index": np.arange(n, dtype=np.int64),
        "collides": np.asarray(result.collides, dtype=bool),
        "first_collision_index": np.asarray(result.first_collision_index, dtype=np.int64),
        "first_collision_time": np.asarray(result.first_collision_time, dtype=np.float64),
        "obstacle_id": np.asarray(result.obstacle_id, dtype=np.int64),
        "min_clearance": np.asarray(result.min_clearance, dtype=np.float64),
        "collision_probability": np.asarray(result.collision_probability, dtype=np.float64),
    }


def _empty_columns() -> Dict[str, Any]:
    return {name: np.empty(0, dtype=dtype) for name, dtype in COLUMNS}


def _frame(parts: typing.Sequence[Dict[str, Any]]) -> "pandas.DataFrame":
    import pandas

    parts = list(parts) or [_empty_columns()]
    return pandas.DataFrame(
        {name: np.concatenate([p[name] for p in parts]).astype(dtype) for name, dtype in COLUMNS}
    )


def _jobs_list(jobs: typing.Iterable[Job]) -> List[Tuple[str, Trajectories]]:
    out: List[Tuple[str, Trajectories]] = []
    for k, job in enumerate(jobs):
        try:
            scenario, trajectories = job
        except (TypeError, ValueError):
            raise TypeError(
                f"job {k}: expected a (scenario_path, trajectories) pair, got {job!r}"
            ) from None
        out.append((os.fspath(scenario), trajectories))
    return out


def submit(
    jobs: typing.Iterable[Job], config: Optional[collision.CheckerConfig], client: Any
) -> List[Any]:
    """The futures of the jobs on `client` (a dask.distributed.Client), one task each, in job
    order; for a progress bar (dask.distributed.progress) before gathering them."""
    config = collision.default_config() if config is None else config
    return [
        # pure=False: two jobs with the same arguments are still two tasks, so that every job
        # has its own future and its own rows.
        client.submit(check_scenario, scenario, trajectories, config, pure=False)
        for scenario, trajectories in _jobs_list(jobs)
    ]


def check_scenarios(
    jobs: typing.Iterable[Job],
    config: Optional[collision.CheckerConfig] = None,
    client: Any = None,
) -> "pandas.DataFrame":
    """Checks every job's trajectories against its scenario: a pandas.DataFrame with one row per
    trajectory, in job order and then trajectory order, with the columns scenario, index,
    collides, first_collision_index (-1 when free), first_collision_time (seconds, NaN when
    free), obstacle_id (-1 when free), min_clearance (metres) and collision_probability.

    jobs: an iterable of (scenario_path, trajectories) pairs, trajectories a float64 (N, T, 4)
    array or the path of a .npy file of one. config: the CheckerConfig to check with (None: the
    defaults). client: None runs in this process; a dask.distributed.Client runs each job as a
    task on its cluster, the files read on the worker. The rows are the same either way.

    Errors (ScenarioError for a missing or bad scenario, FileNotFoundError or ValueError naming a
    bad .npy, TrajectoryError) are raised here, also when a worker hit them.
    """
    if client is None:
        return _frame([check_scenario(s, t, config) for s, t in _jobs_list(jobs)])
    futures = submit(jobs, config, client)
    return _frame(client.gather(futures))


def parse_job(text: str) -> Tuple[str, str]:
    """'scenario.xml:trajectories.npy' as (scenario, trajectories); ValueError naming the job."""
    scenario, sep, trajectories = text.rpartition(":")
    if not sep or not scenario or not trajectories:
        raise ValueError(f"job '{text}': expected scenario.xml:trajectories.npy")
    return scenario, trajectories


def main(argv: Optional[typing.Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m collision.evaluate",
        description="Check the trajectories of many CommonRoad scenarios on a Dask cluster and "
        "write one CSV row per trajectory.",
    )
    parser.add_argument(
        "--scheduler",
        default="local",
        help="a Dask scheduler's address (tcp://host:8786), or 'local' for a LocalCluster of "
        "--workers processes on this machine (default: local)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="local: the LocalCluster's worker processes; an address: wait until this many "
        "workers have joined (default: the number of cores)",
    )
    parser.add_argument("--config", help="a YAML config file (default: the defaults)")
    parser.add_argument("--out", required=True, help="the CSV file to write")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("jobs", nargs="+", metavar="JOB", help="scenario.xml:trajectories.npy")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be at least 1 (was {args.workers})")
    try:
        jobs = [parse_job(j) for j in args.jobs]
    except ValueError as e:
        parser.error(str(e))
    config = collision.load_config(args.config) if args.config else collision.default_config()

    # Any: dask.distributed has no complete annotations for mypy --strict.
    distributed: Any = importlib.import_module("dask.distributed")

    cluster = None
    if args.scheduler == "local":
        # One thread per worker: check_all already uses the worker's cores.
        cluster = distributed.LocalCluster(
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)
    else:
        client = distributed.Client(args.scheduler)
        client.wait_for_workers(args.workers)
    try:
        futures = submit(jobs, config, client)
        if not args.no_progress:
            distributed.progress(futures)  # a bar on stderr; returns when every task is done
            print(file=sys.stderr)
        frame = _frame(client.gather(futures))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    frame.to_csv(args.out, index=False)
    print(
        f"{args.out}: {len(frame)} trajectories of {len(jobs)} scenarios, "
        f"{int(frame['collides'].sum())} colliding",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
