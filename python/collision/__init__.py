"""2D collision checking of candidate trajectories, from numpy.

The C++ library `collision` with the same names. Units: metres, seconds, radians (CCW from +x).

A trajectory is a float64 array of shape (T, 4), columns t, x, y, heading (the ego's rear-axle
centre); so is a prediction for Obstacle.moving(id, body, prediction). Polygon vertices are a
(V, 2) array or a list of (x, y) pairs. CollisionChecker.check_all takes a (N, T, 4) array or a
list of (T, 4) arrays and returns numpy arrays of length N. CollisionChecker.clearance_profile
returns, per pose of a trajectory, the signed distance to the nearest obstacle and its gradient
with respect to (x, y, heading) as arrays of length T (clearance_profiles: a list of them).

    import numpy as np, collision
    config = collision.default_config()
    config.margins.by_class["pedestrian"] = 0.5
    checker = collision.CollisionChecker(config)
    checker.set_obstacles([collision.Obstacle.stationary(1, collision.Circle((20, 0), 1.0))])
    t = np.linspace(0, 4, 41)
    trajectory = np.column_stack([t, 10 * t, np.zeros_like(t), np.zeros_like(t)])
    print(checker.check(trajectory))

A multi-modal prediction is a list of (probability, (T, 4) array) pairs; set_uncertainty grows a
moving obstacle by its position uncertainty (metres, m/s). load_commonroad(path) reads a
CommonRoad scenario (when the package is built with the CommonRoad reader).

Errors: GeometryError and TrajectoryError (subclasses of ValueError), ConfigError and
ScenarioError (subclasses of RuntimeError), with the C++ library's messages.
"""

import types as _types

from ._collision import *  # noqa: F401,F403
from ._collision import __version__  # noqa: F401

# Name the classes, exceptions and functions collision.X (not collision._collision.X) in help()
# and tracebacks; pickle finds them by that name, and mypy's stubtest holds them to
# collision/__init__.pyi.
for _obj in list(globals().values()):
    if isinstance(_obj, (type, _types.BuiltinFunctionType)) and (
        getattr(_obj, "__module__", None) == "collision._collision"
    ):
        _obj.__module__ = __name__
del _obj, _types
