#!/usr/bin/env python3
"""1000 candidate trajectories built with numpy, checked in one check_all call.

The scene is the one of README's "A first program": a parked car, a cyclist crossing, a
pedestrian on the pavement (0.5 m margin) and the kerb. The candidates are lane changes from
(0, 0) at 10 m/s heading +x: 25 lateral end offsets x 40 manoeuvre durations, 41 poses over 4 s
each, a quintic lateral profile. The free one with the most clearance is chosen, and its
clearance profile printed: the signed distance at every pose, to which obstacle, and the
gradient an optimising planner would follow. The free ones are plotted with matplotlib when it
is installed (written to free_candidates.png, or the path given as the first argument), with
the colliding ones' contact points, else listed.

    PYTHONPATH=build/python python3 python/examples/free_candidates.py
"""

import sys
from typing import List, Tuple

import numpy as np
import numpy.typing as npt

import collision
from collision import Circle, ConvexPolygon, Obb, Obstacle


def scene() -> List[Obstacle]:
    return [
        Obstacle.stationary(1, ConvexPolygon([(20, -1), (24.5, -1), (24.5, 1), (20, 1)])).set_class("car"),
        Obstacle.moving(2, Obb((0, 0), 0.0, 0.9, 0.3), np.array([[0.0, 30.0, 5.0, -1.57], [2.0, 30.0, -3.0, -1.57]]))
        .set_class("bicycle"),
        Obstacle.stationary(3, Circle((12, 5.8), 0.3)).set_class("pedestrian"),
        Obstacle.boundary(4, [(0, -2.5), (60, -2.5)]),
    ]


def candidates(
    speed: float = 10.0, horizon: float = 4.0, poses: int = 41
) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(1000, poses, 4) lane changes: every (lateral offset, duration) pair."""
    offsets = np.linspace(-1.5, 5.5, 25)  # metres left of the start
    durations = np.linspace(1.0, 4.0, 40)  # seconds
    d, T = (a.ravel()[:, None] for a in np.meshgrid(offsets, durations, indexing="ij"))
    t = np.linspace(0.0, horizon, poses)[None, :]
    s = np.clip(t / T, 0.0, 1.0)
    y = d * (10 * s**3 - 15 * s**4 + 6 * s**5)
    dy_dt = d * (30 * s**2 - 60 * s**3 + 30 * s**4) / T * (t < T)
    out = np.empty((d.shape[0], poses, 4))
    out[..., 0] = t
    out[..., 1] = speed * t
    out[..., 2] = y
    out[..., 3] = np.arctan2(dy_dt, speed)  # heading along the path
    return out, d.ravel(), T.ravel()


def main() -> None:
    config = collision.default_config()
    config.margins.by_class["pedestrian"] = 0.5  # metres
    checker = collision.CollisionChecker(config)
    checker.set_obstacles(scene())
    trajectories, offsets, durations = candidates()
    result = checker.check_all(trajectories)
    free = ~result.collides
    print(f"{len(result)} candidates, {free.sum()} free, {result.collides.sum()} colliding")
    hits = np.bincount(result.obstacle_id[result.collides])
    for obstacle_id in np.nonzero(hits)[0]:
        print(f"  obstacle {obstacle_id}: first hit of {hits[obstacle_id]} candidates")
    sweep_hits = result.hit_in_sweep.sum()
    print(f"  {sweep_hits} of the hits only between poses (the sweep), not at a pose")

    # The chosen candidate: the free one with the most clearance. Its clearance profile says,
    # pose by pose, how far the nearest obstacle is and which way to move to get farther.
    chosen = int(np.nonzero(free)[0][np.argmax(result.min_clearance[free])])
    k = result.min_clearance_index[chosen]
    print(
        f"\nchosen: offset {offsets[chosen]:.2f} m, duration {durations[chosen]:.2f} s; smallest "
        f"clearance {result.min_clearance[chosen]:.2f} m at pose {k} (t = {trajectories[chosen, k, 0]:.1f} s) "
        f"to obstacle {result.closest_obstacle_id[chosen]}"
    )
    profile = checker.clearance_profile(trajectories[chosen])
    print(f"{'t s':>5} {'distance m':>11} {'obstacle':>9} {'d/dx':>7} {'d/dy':>7} {'d/dheading m/rad':>17}")
    for i in range(0, len(profile), 5):
        gx, gy, gh = profile.gradient[i]
        print(
            f"{trajectories[chosen, i, 0]:5.1f} {profile.signed_distance[i]:11.2f} "
            f"{profile.obstacle_id[i]:9d} {gx:7.2f} {gy:7.2f} {gh:17.2f}"
        )
    print("(obstacle -1: nothing within the clearance horizon)")

    try:
        import matplotlib  # type: ignore[import]  # optional; Debian ships no stubs

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import]
    except ImportError:
        print(f"\n{'offset m':>9} {'duration s':>11} {'clearance m':>12}")
        for i in np.nonzero(free)[0][np.argsort(-result.min_clearance[free])][:20]:
            print(f"{offsets[i]:9.2f} {durations[i]:11.2f} {result.min_clearance[i]:12.2f}")
        print("(the 20 free candidates with the most clearance; install python3-matplotlib for a plot)")
        return

    path = sys.argv[1] if len(sys.argv) > 1 else "free_candidates.png"
    fig, ax = plt.subplots(figsize=(10, 4))
    for traj in trajectories[result.collides][::10]:
        ax.plot(traj[:, 1], traj[:, 2], color="0.85", lw=0.5)
    clearance = result.min_clearance[free]
    colors = plt.cm.viridis(np.clip(clearance / 2.0, 0, 1))
    for traj, color in zip(trajectories[free], colors):
        ax.plot(traj[:, 1], traj[:, 2], color=color, lw=0.8)
    ax.plot(trajectories[chosen, :, 1], trajectories[chosen, :, 2], color="tab:blue", lw=2, label="chosen")
    ax.scatter(*result.contact_point[result.collides].T, s=4, color="k", label="contact points", zorder=3)
    for obstacle in scene():
        for part in obstacle.parts:
            if isinstance(part, ConvexPolygon):
                ax.fill(*part.vertices.T, color="tab:red", alpha=0.6)
            elif isinstance(part, Circle):
                ax.add_patch(plt.Circle(part.center, part.radius, color="tab:red", alpha=0.6))
            elif isinstance(part, Obb) and obstacle.is_boundary:
                ax.plot(*part.corners()[[0, 1]].T, color="k", lw=2)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title("free candidates, coloured by clearance (0 to 2 m); grey: colliding")
    ax.legend(loc="upper left", fontsize="small")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
