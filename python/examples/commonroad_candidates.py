#!/usr/bin/env python3
"""1000 candidates from a CommonRoad scenario's start, checked in one check_all call.

Reads a CommonRoad XML file (the first argument, or the project's own scenario
config/scenarios/commonroad_urban.xml), sets its obstacles and road borders, and builds 1000
candidates with numpy from the planning problem's initial state: 25 lateral end offsets x 40
speeds (0.5 to 1.5 times the start's), 20 poses of the scenario's time step each, a quintic
lateral profile. Prints how many are free, which obstacles are hit first, and the free
candidates with the most clearance.

    PYTHONPATH=build/python python3 python/examples/commonroad_candidates.py [scenario.xml]
"""

import pathlib
import sys
from typing import Tuple

import numpy as np
import numpy.typing as npt

import collision

BUNDLED = pathlib.Path(__file__).resolve().parents[2] / "config" / "scenarios" / "commonroad_urban.xml"


def candidates(
    start: collision.CommonRoadState, dt: float, poses: int = 20
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(1000, poses, 4) lane changes from the start pose: every (lateral offset, speed) pair."""
    x0, y0, heading = start.pose
    offsets = np.linspace(-3.5, 3.5, 25)  # metres left of the start's heading
    speeds = np.linspace(0.5, 1.5, 40) * max(start.velocity, 1.0)  # m/s
    d, v = (a.ravel()[:, None] for a in np.meshgrid(offsets, speeds, indexing="ij"))
    tau = dt * np.arange(poses)[None, :]  # seconds after the start
    s = tau / tau[0, -1]
    lateral = d * (10 * s**3 - 15 * s**4 + 6 * s**5)
    dlateral = d * (30 * s**2 - 60 * s**3 + 30 * s**4) / tau[0, -1]
    along = v * tau
    c, n = np.cos(heading), np.sin(heading)
    out = np.empty((d.shape[0], poses, 4))
    out[..., 0] = start.t + tau
    out[..., 1] = x0 + c * along - n * lateral
    out[..., 2] = y0 + n * along + c * lateral
    out[..., 3] = heading + np.arctan2(dlateral, v)
    return out, d.ravel(), v.ravel()


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else str(BUNDLED)
    scenario = collision.load_commonroad(path)  # ScenarioError "<file>:<line>: <element>: <reason>"
    print(
        f"{scenario.benchmark_id}: {len(scenario.obstacles)} obstacles, "
        f"{len(scenario.road_boundaries)} road borders, time step {scenario.time_step} s"
    )
    checker = collision.CollisionChecker(collision.default_config())
    checker.set_obstacles(scenario.obstacles_and_borders())
    start = scenario.ego_starts[0]
    trajectories, offsets, speeds = candidates(start, scenario.time_step)
    result = checker.check_all(trajectories)
    free = ~result.collides
    print(f"{len(result)} candidates, {free.sum()} free, {result.collides.sum()} colliding")
    ids, counts = np.unique(result.obstacle_id[result.collides], return_counts=True)
    for obstacle_id, count in zip(ids, counts):
        print(f"  obstacle {obstacle_id}: first hit of {count} candidates")
    print(f"\n{'offset m':>9} {'speed m/s':>10} {'clearance m':>12}")
    for i in np.nonzero(free)[0][np.argsort(-result.min_clearance[free], kind="stable")][:10]:
        print(f"{offsets[i]:9.2f} {speeds[i]:10.2f} {result.min_clearance[i]:12.2f}")


if __name__ == "__main__":
    main()
