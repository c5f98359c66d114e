#!/usr/bin/env python3
"""check_all from Python against the same call from C++: 1000 candidates x 20 poses on the scene
of python/tests/scene.py (parity_scene.hpp on the C++ side), the same config and threads.
With --call clearance_profiles, that call instead (try --poses 80).

The Python time covers the whole call: reading the (N, T, 4) array, the check, and building the
result arrays (for profiles: N ClearanceProfile objects of 7 arrays each). The calls alternate (one Python, one C++). Prints the median of each over --repeats calls and the
ratio; exits 1 when Python
is more than --max-overhead slower (default 10 %).

    PYTHONPATH=build/python python3 python/bench/check_all_bench.py --cpp build/python/python_bench_cpp [--threads 1]
"""

import argparse
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))

import collision  # noqa: E402
import scene  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpp", required=True, help="path of python_bench_cpp")
    parser.add_argument("--candidates", type=int, default=1000)
    parser.add_argument("--poses", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=51)
    parser.add_argument("--threads", type=int, default=0, help="config.threads (0 = all cores)")
    parser.add_argument("--max-overhead", type=float, default=0.10)
    parser.add_argument("--call", choices=["check_all", "clearance_profiles"], default="check_all")
    args = parser.parse_args()
    profiles = args.call == "clearance_profiles"

    cand = scene.candidates(n=args.candidates, poses=args.poses, seed=11)
    config = scene.scene_config()
    config.threads = args.threads
    checker = collision.CollisionChecker(config)
    checker.set_obstacles(scene.scene_obstacles())
    py_times, cpp_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "candidates.bin"
        with open(path, "wb") as f:
            np.array(cand.shape[:2], dtype=np.int64).tofile(f)
            cand.tofile(f)
        cpp = subprocess.Popen(
            [args.cpp, str(path), str(args.threads)] + (["profiles"] if profiles else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        # Alternate the two, so that both see the same load on a shared machine.
        for _ in range(args.repeats):
            start = time.perf_counter()
            result = checker.clearance_profiles(cand) if profiles else checker.check_all(cand)
            py_times.append((time.perf_counter() - start) * 1e3)
            cpp.stdin.write("go\n")
            cpp.stdin.flush()
            ms, cpp_collisions = cpp.stdout.readline().split()
            cpp_times.append(float(ms))
        cpp.stdin.close()
        cpp.wait()
    py_ms = statistics.median(py_times)
    cpp_ms = statistics.median(cpp_times)
    if profiles:
        count = sum(int((p.signed_distance < 0).sum()) for p in result)
        what = "overlapping poses"
    else:
        count = int(result.collides.sum())
        what = "colliding candidates"
    assert count == int(cpp_collisions), "Python and C++ disagree"

    ratio = py_ms / cpp_ms
    print(
        f"{args.call}, {args.candidates} candidates x {args.poses} poses, threads={args.threads}, "
        f"median of {args.repeats}:"
    )
    print(f"  C++     {cpp_ms:8.3f} ms")
    print(f"  Python  {py_ms:8.3f} ms  ({(ratio - 1) * 100:+.1f} %)")
    print(f"  {count} {what} in both")
    return 0 if ratio <= 1 + args.max_overhead else 1


if __name__ == "__main__":
    sys.exit(main())
