#!/usr/bin/env python3
"""collision.evaluate.check_scenarios in this process against a LocalCluster of --workers
processes: --jobs jobs of --candidates candidates each (the candidates of
python/examples/commonroad_candidates.py from each scenario's first start), the CommonRoad
files of ../shared/data/commonroad beside the repository plus the bundled
config/scenarios/commonroad_urban.xml, each copied under its own name until there are --jobs
files, every job's trajectories in a .npy read where the job runs.

Prints the median wall time of --repeats runs each way, jobs per second, and the overhead per
task: the cluster's time per job for jobs of one candidate (scheduling, pickling the config,
reading the files, gathering) minus the same in this process. The cluster is started once,
outside the timings; its workers run one task at a time (threads_per_worker=1).

    PYTHONPATH=build/python python3 python/bench/evaluate_bench.py [--jobs 64] [--workers 2]
"""

import argparse
import pathlib
import runpy
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

import collision
import collision.evaluate as evaluate

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "config" / "scenarios" / "commonroad_urban.xml"
SHARED = ROOT.parent / "shared" / "data" / "commonroad"


def example_candidates():
    path = ROOT / "python" / "examples" / "commonroad_candidates.py"
    return runpy.run_path(str(path))["candidates"]


def make_jobs(folder, count, candidates_per_job):
    candidates = example_candidates()
    sources = [BUNDLED] + (sorted(SHARED.glob("*.xml")) if SHARED.is_dir() else [])
    jobs = []
    for k in range(count):
        source = sources[k % len(sources)]
        scenario_path = folder / f"{k:03d}_{source.name}"
        shutil.copyfile(source, scenario_path)
        scenario = collision.load_commonroad(str(scenario_path))
        trajectories, _, _ = candidates(scenario.ego_starts[0], scenario.time_step)
        trajectories = np.resize(trajectories, (candidates_per_job,) + trajectories.shape[1:])
        npy = folder / f"{k:03d}.npy"
        np.save(npy, np.ascontiguousarray(trajectories))
        jobs.append((str(scenario_path), str(npy)))
    return jobs, len(sources)


def timed(run, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        frame = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), frame


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=64)
    parser.add_argument("--candidates", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0,
                        help="config.threads: check_all's threads per job (0: all cores)")
    args = parser.parse_args()
    from dask.distributed import Client, LocalCluster

    config = collision.default_config()
    config.threads = args.threads
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        (folder / "full").mkdir()
        (folder / "tiny").mkdir()
        jobs, scenarios = make_jobs(folder / "full", args.jobs, args.candidates)
        tiny, _ = make_jobs(folder / "tiny", args.jobs, 1)
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            evaluate.check_scenarios(jobs[: args.workers * 2], config=config, client=client)  # warm-up
            local_s, local = timed(lambda: evaluate.check_scenarios(jobs, config=config), args.repeats)
            dask_s, remote = timed(
                lambda: evaluate.check_scenarios(jobs, config=config, client=client), args.repeats)
            tiny_local_s, _ = timed(lambda: evaluate.check_scenarios(tiny, config=config), args.repeats)
            tiny_dask_s, _ = timed(
                lambda: evaluate.check_scenarios(tiny, config=config, client=client), args.repeats)
    if not local.equals(remote):
        print("error: the cluster's rows differ from the in-process rows", file=sys.stderr)
        return 1
    n = len(jobs)
    print(f"{n} jobs x {args.candidates} candidates ({scenarios} scenarios, copied), "
          f"config.threads={args.threads}, median of {args.repeats}")
    print(f"  in process:            {local_s:8.3f} s  {n / local_s:8.1f} jobs/s")
    print(f"  LocalCluster, {args.workers} workers: {dask_s:8.3f} s  {n / dask_s:8.1f} jobs/s")
    overhead = (tiny_dask_s - tiny_local_s) / n
    print(f"  overhead per task:     {1e3 * overhead:8.2f} ms  (jobs of 1 candidate: "
          f"{1e3 * tiny_dask_s / n:.2f} ms per job on the cluster, {1e3 * tiny_local_s / n:.2f} ms "
          f"in process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
