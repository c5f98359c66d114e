#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets into fuzz/corpus/<target>/.

The binary targets read numbers and choices with the encoding of fuzz/fuzz_input.hpp and shapes
with fuzz/fuzz_shapes.hpp; the writers below mirror those readers, so keep them in step. Seeds
are the docs/robustness.md cases, a few everyday scenes, and invalid values (NaN, infinities, huge,
denormal). The config seeds are config/default.yaml, small valid and invalid variants.

    python3 fuzz/make_corpus.py          rewrite the generated seeds (other files are kept)

Generated files are named <name>.seed (reproducers of the findings in fuzz/README.md are named
F<n>-...); other files in the corpus directories are left alone.
"""

import math
import os
import shutil
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")

NAN = float("nan")
INF = float("inf")
DBL_MAX = sys.float_info.max
DENORM = 5e-324

# ---- numbers (fuzz_input.hpp) ------------------------------------------------------------------

TAG_RAW, TAG_SPECIAL, TAG_INT8, TAG_FIXED, TAG_FIXED32 = 0, 1, 2, 3, 4


def num(v):
    """The shortest encoding that reads back exactly v."""
    v = float(v)
    if (math.isnan(v) or math.isinf(v)):
        return bytes([TAG_RAW]) + struct.pack("<d", v)
    if v.is_integer() and -128 <= v <= 127:
        return bytes([TAG_INT8]) + struct.pack("<b", int(v))
    if (v * 256).is_integer() and -32768 <= v * 256 <= 32767:
        return bytes([TAG_FIXED]) + struct.pack("<h", int(v * 256))
    if (v * 65536).is_integer() and -(2**31) <= v * 65536 < 2**31:
        return bytes([TAG_FIXED32]) + struct.pack("<i", int(v * 65536))
    return bytes([TAG_RAW]) + struct.pack("<d", v)


def point(x, y):
    return num(x) + num(y)


def byte(b):
    return bytes([b & 0xFF])


# Offset selectors (read_offset): byte % 8.
NO_OFFSET = byte(3)
UTM_1 = byte(0)  # (4.5e6, 5.5e6)
UTM_2 = byte(1)  # (691234.567, 5334567.891)


def fuzzed_offset(x, y):
    return byte(2) + num(x) + num(y)


# ---- shapes (fuzz_shapes.hpp) ------------------------------------------------------------------


def polygon(vertices):
    """read_polygon, constructor branch: mode 0, count (pick 0..12), points."""
    assert len(vertices) <= 12
    return byte(0) + byte(len(vertices)) + b"".join(point(x, y) for x, y in vertices)


def hull(points):
    """read_polygon, hull branch: mode 2, count (pick 0..16), points."""
    assert len(points) <= 16
    return byte(2) + byte(len(points)) + b"".join(point(x, y) for x, y in points)


def ngon(n, cx, cy, radius, jitter=0.0, phase=0.0):
    """read_polygon, regular n-gon branch: mode 3, n (pick 3..80), centre, radius, jitter, phase."""
    assert 3 <= n <= 80
    return byte(3) + byte(n - 3) + point(cx, cy) + num(radius) + num(jitter) + num(phase)


def circle_body(cx, cy, r):
    return point(cx, cy) + num(r)


def obb_body(cx, cy, heading, hl, hw):
    return point(cx, cy) + num(heading) + num(hl) + num(hw)


def inflation(v):
    return num(v) + byte(0)  # mode byte 0: the value's magnitude


def shape_circle(cx, cy, r):
    return byte(0) + circle_body(cx, cy, r)


def shape_obb(cx, cy, heading, hl, hw):
    return byte(1) + obb_body(cx, cy, heading, hl, hw)


def shape_polygon(encoded_polygon):
    return byte(2) + encoded_polygon


def ellipse_body(cx, cy, heading, hl, hw):
    """read_ellipse: the numbers of the box it is inscribed in."""
    return point(cx, cy) + num(heading) + num(hl) + num(hw)


def shape_ellipse(cx, cy, heading, hl, hw):
    return byte(6) + ellipse_body(cx, cy, heading, hl, hw)


def swept_moved(kind, start_body, dx, dy, turn, infl=0.0):
    """A swept hull whose end is the start moved by (dx, dy) and turned by turn."""
    return byte(kind) + start_body + byte(1) + num(dx) + num(dy) + num(turn) + inflation(infl)


def swept_two(kind, start_body, end_body, infl=0.0):
    return byte(kind) + start_body + byte(0) + end_body + inflation(infl)


A = shape_obb(0, 0, 0, 2.4, 0.95)  # the ego box of docs/robustness.md


def square(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


# ---- seeds per target --------------------------------------------------------------------------


def convex_polygon_seeds():
    def seed(points, offset=NO_OFFSET):
        return offset + byte(len(points)) + b"".join(point(x, y) for x, y in points)

    cases = {
        "box": square(3.4, -1, 5.4, 1),
        "box-cw": list(reversed(square(3.4, -1, 5.4, 1))),
        "duplicates": [(3, 0), (3, 0), (4, -1), (5, 0), (4, 1)],
        "collinear": [(3, -1), (5, -1), (5, 1), (3, 1), (3, 0)],
        "zero-area-line": [(3, 0), (4, 0), (5, 0)],
        "zero-area-point": [(3, 0), (3, 0), (3, 0)],
        "near-zero-area": [(3, 0), (5, 0), (4, 1e-12)],
        "thin-enough": [(3, 0), (5, 0), (4, 1e-8)],
        "dart": [(3, -1), (5, -1), (3.5, 0), (5, 1), (3, 1)],
        "star-twice": [(math.cos(4 * math.pi * k / 5), math.sin(4 * math.pi * k / 5)) for k in range(5)],
        "sliver": [(0, -5), (0.001, -5), (0.001, 5), (0, 5)],
        "long-thin": square(-100, 1.0, 100, 1.05),
        "point-cloud": [(0, 0), (1, 2), (3, 1), (2, 2), (1, 1), (2.5, 0.5), (0.5, 1.5)],
        "nan": [(0, 0), (1, NAN), (1, 1)],
        "inf": [(0, 0), (INF, 0), (1, 1)],
        "huge": [(0, 0), (DBL_MAX, 0), (0, DBL_MAX)],
        "denormal": [(0, 0), (DENORM, 0), (0, DENORM)],
        "tiny": [(0, 0), (1e-300, 0), (0, 1e-300)],
        "too-few": [(0, 0), (1, 1)],
        "empty": [],
        "sixty-four": [(1000 * math.cos(2 * math.pi * k / 64), 1000 * math.sin(2 * math.pi * k / 64)) for k in range(64)],
    }
    seeds = {}
    for name, points in cases.items():
        seeds[name] = seed(points)
        seeds[name + "-utm"] = seed(points, UTM_1)
    seeds["box-utm2"] = seed(square(3.4, -1, 5.4, 1), UTM_2)
    # Findings (fuzz/README.md).
    seeds["F1-huge-area-nan"] = seed([(0, DBL_MAX), (125.5, 0), (DBL_MAX, 0)])
    seeds["F2-hull-throws-not-convex"] = seed([(109.42578125, 109.425781250109),
                                               (109.42578125021799, 109.42578125021836), (0, 0.5), (0.5, 0)])
    seeds["F3-hull-drops-vertex"] = seed([(-127, 0), (0, 0), (0, 1.5), (1e-17, 1)])
    seeds["F16-hull-corner-beside-a-subnormal-point"] = seed(
        [(-46, -46), (-127, 0), (0, 0), (0, -1.27e-12), (0, 5.4e-08), (1.2746893662704161e-321, 0)])
    seeds["box-offset-nan"] = seed(square(3.4, -1, 5.4, 1), fuzzed_offset(NAN, 0))
    return seeds


def narrow_phase_seeds():
    default_tol, zero_tol, loose_tol = byte(3), byte(0), byte(1)
    no_cache = byte(0) * 7  # count pick(-1..4) = -1, indices 0

    def pair(a, b, offset=NO_OFFSET, tol=default_tol, cache=no_cache):
        return offset + tol + a + b + cache

    box = lambda pts: shape_polygon(polygon(pts))
    cases = {
        "01-face-face": (A, box(square(3.4, -1, 5.4, 1))),
        "02-touching": (A, box(square(2.4, -1, 4.4, 1))),
        "02-touching-minus-1e-9": (A, box(square(2.4 - 1e-9, -1, 4.4, 1))),
        "02-touching-plus-1e-12": (A, box(square(2.4 + 1e-12, -1, 4.4, 1))),
        "03-vertex-vertex": (A, box(square(2.4, 0.95, 4.4, 2.95))),
        "04-vertex-on-edge": (A, box([(2.4, 0), (4, -1), (4, 1)])),
        "05-shifted-copy": (A, shape_obb(1, 0, 0, 2.4, 0.95)),
        "06-identical": (A, A),
        "06-rotated-90": (A, shape_obb(0, 0, math.pi / 2, 2.4, 0.95)),
        "07-nested": (A, box(square(-0.1, 0.1, 0.1, 0.3))),
        "07-deep-nest": (A, box(square(-10, -10, 10, 10))),
        "08-sliver": (A, box(square(0, -5, 0.001, 5))),
        "08-sliver-near": (A, box(square(2.41, -5, 2.411, 5))),
        "09-short-edge": (shape_obb(0, 0, 0, 0.5, 0.0016), shape_circle(0.505, 0, 0)),
        "09-short-edge-1e-5": (shape_obb(0, 0, 0, 0.5, 1e-5), shape_circle(0.505, 0, 0)),
        "10-long-thin": (A, box(square(-100, 1.0, 100, 1.05))),
        "11-duplicates": (A, box([(3, 0), (3, 0), (4, -1), (5, 0), (4, 1)])),
        "12-collinear": (A, box([(3, -1), (5, -1), (5, 1), (3, 1), (3, 0)])),
        "13-zero-area": (A, box([(3, 0), (4, 0), (5, 0)])),
        "15-near-parallel": (shape_obb(0, 0, 1e-9, 2.4, 0.95), box(square(2.4 + 1e-7, -1, 4.4, 1))),
        "16-kissing-rotated": (
            shape_obb(0, 0, math.pi / 6, 2.4, 0.95),
            shape_obb(-1.9 * math.sin(math.pi / 6), 1.9 * math.cos(math.pi / 6), math.pi / 6, 2.4, 0.95),
        ),
        "17-scale-disparity": (A, box(square(2.5, -500, 1002.5, 500))),
        "17-millimetre": (A, box(square(2.401, -0.0005, 2.402, 0.0005))),
        "19-sixteen-gon": (A, shape_polygon(ngon(16, 1003, 0, 1000, 1e-9, math.pi / 16))),
        "19-sixty-four-gon": (A, shape_polygon(ngon(64, 1003, 0, 1000, 1e-9))),
        "22-zero-direction": (A, box(square(0, 0, 1, 1))),
        "23-exact-touch": (shape_obb(0, 0, 0, 2, 1), box(square(2, -3, 4, 3))),
        "25-dart": (A, box([(3, -1), (5, -1), (3.5, 0), (5, 1), (3, 1)])),
        "circle-circle": (shape_circle(0, 0, 1), shape_circle(3, 0, 1)),
        "circle-point": (shape_circle(0, 0, 1), shape_circle(1, 0, 0)),
        "circle-polygon": (shape_circle(0, 3, 1), box(square(-1, -1, 1, 1))),
        "polygon-hull": (shape_polygon(hull([(0, 0), (1, 2), (3, 1), (2, 2), (1, 1)])), A),
        "21-tunnelling": (
            swept_two(4, obb_body(-10, 0, 0, 2.4, 0.95), obb_body(10, 0, 0, 2.4, 0.95)),
            box(square(-0.05, -0.05, 0.05, 0.05)),
        ),
        "swept-turning": (
            swept_moved(4, obb_body(0, 0, 0, 2.4, 0.95), 3, 1, 0.5, 0.05),
            box(square(3, 2, 4, 3)),
        ),
        "swept-circle": (swept_moved(3, circle_body(0, 0, 1), 5, 0, 0), shape_circle(2.5, 1.5, 0.4)),
        "swept-polygon": (
            swept_moved(5, polygon(square(-1, -1, 1, 1)), 4, 0, 1.0, 0.1),
            swept_moved(4, obb_body(2, 3, 0, 1, 0.5), 0, -6, 0),
        ),
        "nan-center": (shape_circle(NAN, 0, 1), A),
        "inf-heading": (shape_obb(0, 0, INF, 2.4, 0.95), A),
        "negative-size": (shape_obb(0, 0, 0, -2.4, 0.95), A),
        "zero-size-box": (shape_obb(0, 0, 0, 0, 0), shape_obb(0, 1e-9, 0, 0, 0)),
        "huge": (shape_circle(DBL_MAX, 0, 1), shape_circle(-DBL_MAX, 0, 1)),
        "denormal": (shape_circle(DENORM, 0, DENORM), shape_circle(0, DENORM, 0)),
        # Ellipses (kind 6) and swept ellipses (kind 7): every partner, the degenerate ones (a
        # half size 0 is a segment, both a point), thin and long ones, and invalid numbers.
        "ellipse-ellipse": (shape_ellipse(0, 0, 0.3, 2, 1), shape_ellipse(3.5, 1, -0.4, 1.5, 0.5)),
        "ellipse-ellipse-overlap": (shape_ellipse(0, 0, 0.3, 2, 1), shape_ellipse(1, 0.5, 1.2, 1.5, 0.5)),
        "ellipse-box": (A, shape_ellipse(3.2, 0.5, 0.7, 1, 0.4)),
        "ellipse-box-touching": (A, shape_ellipse(3.4, 0, 0, 1, 0.4)),
        "ellipse-circle": (shape_ellipse(0, 0, 0, 2, 1), shape_circle(0, 1.5, 0.5)),
        "ellipse-polygon": (shape_ellipse(0, 0, 0.2, 0.9, 0.3),
                            shape_polygon(polygon([(1, -1), (2, 0), (1.2, 1)]))),
        "ellipse-pedestrian": (A, shape_ellipse(2.9, 0.4, 1.0, 0.3, 0.25)),
        "ellipse-segment": (shape_ellipse(0, 0, 0.5, 2, 0), A),
        "ellipse-segment-segment": (shape_ellipse(0, 0, 0, 2, 0), shape_ellipse(0, 1, 1.5707963267948966, 2, 0)),
        "ellipse-point": (shape_ellipse(3, 0, 0, 0, 0), A),
        "ellipse-point-inside": (shape_ellipse(0.5, 0.2, 0, 0, 0), A),
        "ellipse-thin-long": (shape_ellipse(0, 3, 0, 50, 1e-6), A),
        "ellipse-round": (shape_ellipse(0, 3, 0, 1, 1), shape_circle(0, 5.5, 1.5)),
        "ellipse-vs-swept-box": (shape_ellipse(1, 2, 0.3, 0.8, 0.4),
                                 swept_moved(4, obb_body(-5, 0, 0, 2.4, 0.95), 10, 0, 0.4)),
        "swept-ellipse": (swept_moved(7, ellipse_body(0, 0, 0, 0.9, 0.3), 4, 0, 1.0, 0.05),
                          shape_circle(2, 0.5, 0.3)),
        "swept-ellipse-two": (swept_two(7, ellipse_body(0, 0, 0, 0.9, 0.3), ellipse_body(3, 1, 2, 0.5, 0.5)),
                              swept_two(7, ellipse_body(1, 3, 0, 2, 0), ellipse_body(2, 3, 0, 2, 0))),
        "ellipse-nan-size": (shape_ellipse(0, 0, 0, NAN, 1), A),
        "ellipse-negative-size": (shape_ellipse(0, 0, 0, 1, -1), A),
        "ellipse-beyond-range": (shape_ellipse(0, 0, 0, 2e9, 1), A),
    }
    seeds = {}
    for name, (a, b) in cases.items():
        seeds[name] = pair(a, b)
        seeds[name + "-utm"] = pair(a, b, UTM_1)
    seeds["01-face-face-utm2"] = pair(*cases["01-face-face"], offset=UTM_2)
    seeds["02-touching-zero-tol"] = pair(*cases["02-touching"], tol=zero_tol)
    seeds["08-sliver-loose-tol"] = pair(*cases["08-sliver"], tol=loose_tol)
    seeds["tol-nan"] = pair(*cases["01-face-face"], tol=byte(2) + num(NAN))
    seeds["tol-negative"] = pair(*cases["01-face-face"], tol=byte(2) + num(-1))
    # 20: warm-start caches with indices out of range and a plausible triangle.
    seeds["20-cache-out-of-range"] = pair(*cases["01-face-face"], cache=byte(4) + bytes([9, 9, 1, 2, 3, 200]))
    seeds["20-cache-triangle"] = pair(*cases["07-nested"], cache=byte(4) + bytes([0, 0, 1, 1, 2, 2]))
    # 20: a cached separating axis (a caller's field): wrong side, tiny, huge, NaN.
    one_vertex = byte(2) + bytes([0] * 6)  # count 1, indices 0
    for name, (x, y) in {"wrong-side": (-1, 0), "tiny": (1e-200, 0), "huge": (1e200, 1e200),
                         "nan": (NAN, 1), "inf": (INF, 0)}.items():
        seeds["20-cache-axis-" + name] = pair(*cases["01-face-face"],
                                              cache=one_vertex + byte(1) + num(x) + num(y))
    seeds["20-cache-axis-tiny-touching"] = pair(*cases["02-touching"],
                                                cache=one_vertex + byte(1) + num(1e-200) + num(0))
    # Findings (fuzz/README.md).
    seeds["F1-box-in-1e115-triangle"] = pair(
        A, box([(-1.5e115, -4.5), (7.3e114, -1.3e115), (7.3e114, 1.3e115)]))
    seeds["F4-sat-flat-box"] = pair(shape_obb(0, 0, 0, 0, 0), shape_obb(0, 1e-9, 0, 0, 0), UTM_1)
    seeds["F4-sat-segment-point"] = pair(shape_obb(0, 0, 0, 1, 0), shape_obb(3, 0, 0, 0, 0))
    # The CI failure of F1: a box 1.5e29 m wide against a swept circle of that size (rejected now).
    seeds["F1-ci-box-1.5e29-m-wide"] = pair(
        shape_obb(0, 0, 0, 2.4, 7.5266754388551117e+28),
        swept_two(3, circle_body(7.5e28, 7.5e28, 7.5e28), circle_body(1.5e29, 7.5e28, 7.5e28)),
        tol=zero_tol)
    # F8 (open): gaps below round-off, or whose squares underflow, at contact tolerance 0 or a
    # subnormal one.
    seeds["F8-points-7.7e-121-m-apart"] = pair(
        shape_circle(7.7470747437199993e-121, 5, 0), shape_circle(0, 5, 0),
        tol=byte(2) + num(1.042188524790771e-309))
    seeds["F8-swept-hull-2.3e-289-m-above-a-point"] = pair(
        swept_two(5, polygon([(2.4932024310708262e-316, 2.3088059110664902e-289),
                              (51, 3.9999847412109375), (14, 3)]),
                  polygon([(15412.007873535156, 4.5474726957130118e-13),
                           (15463.007873535156, 3.9999847412113922),
                           (15426.007873535156, 3.0000000000004547)])),
        shape_circle(2.4932024310708262e-316, 7.6288701230926255e-298, 0), tol=zero_tol)
    seeds["F8-box-corner-1e-200-m-from-a-triangle"] = pair(
        shape_obb(-1, -1, 0, 1, 1), box([(1e-200, 0), (2, 0), (1, 1)]), tol=zero_tol)
    # The CI failure of F17: a point 1e-8 m (the tolerance) from a swept point's end, touching one
    # way round and 1.000000005e-8 m apart the other (round-off of a 1 m segment).
    seeds["F17-swapped-at-the-tolerance"] = pair(
        shape_circle(0, 0, 0),
        swept_two(3, circle_body(1, 2.7813847636974126e-309, 0),
                  circle_body(1e-08, 5.4000000000000002e-19, 0), 5.0793009501587372e-299))
    # F29: a point in a triangle whose edges have subnormal coordinates (a swept box of 3e-319 m
    # against a circle 8.7e-311 m from the origin): distance()'s normal 2.6e-6 off unit.
    seeds["F29-contact-normal-of-a-subnormal-triangle"] = pair(
        shape_circle(8.6938178240945641e-311, 0, 5.9177512418240281e-306),
        swept_two(4, obb_body(5.5657535263413933e-309, 2.0241869510115871e-320, 128.12506896130799,
                              3.1241747049125384e-319, 0), obb_body(0, 0, 0, 0, 0)),
        tol=zero_tol)
    # F31 (open): a swept hull of two circles of different radii, answered for the hull of the
    # centres rounded by the larger radius: a point 0.1 m outside overlaps by 0.9 m.
    seeds["F31-swept-circles-of-unequal-radii"] = pair(
        shape_circle(0, -0.1, 0), swept_two(3, circle_body(0, 2, 2), circle_body(0, 1, 1)))
    # F32 (fixed in 8921d23): EPA past an ellipse's 64 support slots: a point at the centre of a
    # unit circle-shaped ellipse (depth 0.9988 m, not 1 m), a box corner at the centre of one of
    # 2200 m, a circle-shaped ellipse of 5.5e6 m in a box as large (0.16 m too deep), a point in an
    # ellipse 1e6 times longer than wide (the far side: 7 m, not 5 m).
    seeds["F32-point-at-the-centre-of-a-round-ellipse"] = pair(
        shape_circle(0, 0, 0), shape_ellipse(0, 0, 0, 1, 1))
    seeds["F32-box-corner-at-the-centre-of-a-round-ellipse"] = pair(
        shape_obb(0, 0, 2.8177690084182662e-202, 2200, 2200), shape_ellipse(2200, 2200, 2200, 2200, 2200),
        tol=zero_tol)
    seeds["F32-round-ellipse-of-5.5e6-m-in-a-box"] = pair(
        shape_ellipse(1, 0, 0, 5500000, 5500000), shape_obb(0, 0, -103, 5500000, 5500000))
    seeds["F32-point-in-an-ellipse-1e6-times-longer-than-wide"] = pair(
        shape_ellipse(0, 0, 0, 1e6, 6), shape_circle(100, -1, 0))
    # F33 (fixed): EPA's search after its cap on an ellipse settled in the far minimum: a point
    # 1e-7 m off the axis of a stadium of two unit discs given as ellipses, 2e-7 m too deep.
    seeds["F33-point-beside-the-axis-of-a-stadium-of-ellipses"] = pair(
        shape_circle(3.928e-5, 0, 0),
        swept_two(7, ellipse_body(0, 0, 0, 1, 1), ellipse_body(1, -0.0025088, 0, 1, 1)))
    seeds["F1-inflation-beyond-range"] = pair(
        swept_two(3, circle_body(0, 0, 1), circle_body(5, 0, 1), 2e9), A)
    return seeds


def config_seeds():
    seeds = {}
    with open(os.path.join(ROOT, "config", "default.yaml"), "rb") as f:
        seeds["default"] = f.read()
    scenario = os.path.join(ROOT, "config", "scenarios", "default.yaml")
    if os.path.exists(scenario):
        with open(scenario, "rb") as f:
            seeds["scenario"] = f.read()
    texts = {
        "empty-map": "{}\n",
        "empty": "",
        "comment-only": "# nothing\n",
        "vehicle": "vehicle:\n  wheel_base: 3.0\n  front_overhang: 0.9\n  rear_overhang: 1.0\n  width: 2.0\n",
        "margins": "margins:\n  longitudinal: 0.3\n  lateral: 0.2\n",
        "flow": "{vehicle: {width: 2.1}, margins: {lateral: 0.1}, threads: 2}\n",
        "continuous-off": "continuous:\n  enabled: false\n",
        "clearance-off": "clearance:\n  horizon: 0\n",
        "ignore": "obstacles:\n  outside_prediction: ignore\n",
        "broad-phase": "broad_phase:\n  spatial_index: false\n  bounding_circles: true\n  aabbs: false\n"
        "  rtree_max_node_entries: 4\n  poses_per_query: 1\n  time_slice: 0.25\n",
        "narrow-phase": "narrow_phase:\n  contact_tolerance: 0.0\n  max_gjk_iterations: 1000\n"
        "  max_epa_iterations: 4\n  warm_start: false\n",
        "duplicate-key": "vehicle:\n  width: 1.9\n  width: 2.0\n",
        "duplicate-section": "margins: {}\nmargins: {}\n",
        "unknown-key": "vehicle:\n  wheelbase: 2.85\n",
        "nan": "vehicle:\n  width: .nan\n",
        "inf": "clearance:\n  horizon: .inf\n",
        "negative": "margins:\n  lateral: -0.1\n",
        "wrong-type": "continuous:\n  enabled: 3\n",
        "int-overflow": "threads: 99999999999999999999\n",
        "int-float": "threads: 2.5\n",
        "hex": "threads: 0x10\n",
        "section-null": "vehicle:\n",
        "section-scalar": "vehicle: 3\n",
        "sequence": "- 1\n- 2\n",
        "scalar": "42\n",
        "anchors": "vehicle: &v\n  width: 2.0\nmargins: *v\n",
        "merge-key": "base: &b {width: 2.0}\nvehicle:\n  <<: *b\n",
        "tags": "vehicle:\n  width: !!str 2.0\n",
        "multi-doc": "threads: 1\n---\nthreads: 2\n",
        "bad-yaml": "vehicle: [1, 2\n",
        "tabs": "vehicle:\n\twidth: 2.0\n",
        "deep-nesting": "[" * 200 + "]" * 200 + "\n",
        "long-key": "x" * 1000 + ": 1\n",
        "utf8-bom": "\ufeffthreads: 1\n",
        "nul-byte": "threads: 1\x00\n",
        # Findings (fuzz/README.md).
        "F7-comma-hangs": ",",
        "F7-flow-map-comma-hangs": "{vehicle: {width: 2.0}},\n",
        "F1-vehicle-in-millimetres": "vehicle:\n  wheel_base: 2850\n  width: 1920\n",
        "F1-horizon-beyond-range": "clearance:\n  horizon: 2e9\n",
        "by-class": "margins:\n  by_class:\n    pedestrian: 0.5\n    bicycle: 0.3\n"
        "    road_boundary: 0.1\n",
        "by-class-all": "margins:\n  lateral: 0.1\n  by_class: {unknown: 1, car: 0.5, truck: 0.5, bus: 0.5,"
        " motorcycle: 0.4, bicycle: 0.3, pedestrian: 0.5, static_object: 0.2, road_boundary: 0}\n",
        "by-class-unknown-class": "margins:\n  by_class:\n    tram: 0.5\n",
        "by-class-negative": "margins:\n  by_class:\n    car: -0.5\n",
        "by-class-empty": "margins:\n  by_class: {}\n",
        "footprint": "vehicle:\n  footprint: [[-1.0, -0.95], [3.8, -0.95], [4.2, 0], [3.8, 0.95],"
        " [-1.0, 0.95]]\n",
        "footprint-empty": "vehicle:\n  footprint: []\n",
        "footprint-block": "vehicle:\n  footprint:\n    - [0, -1]\n    - [4, 0]\n    - [0, 1]\n",
        "footprint-not-convex": "vehicle:\n  footprint: [[0, 0], [4, 0], [1, 1], [4, 2], [0, 2]]\n",
        "footprint-two-points": "vehicle:\n  footprint: [[0, 0], [4, 0]]\n",
        "footprint-triple": "vehicle:\n  footprint: [[0, 0, 1], [4, 0], [0, 2]]\n",
        "footprint-beyond-range": "vehicle:\n  footprint: [[0, 0], [4000, 0], [0, 2]]\n",
        "upper-bounds": "vehicle: {wheel_base: 1000, front_overhang: 1000, rear_overhang: 1000,"
        " width: 1000}\nmargins: {longitudinal: 1000, lateral: 1000}\nclearance: {horizon: 1e9}\n"
        "broad_phase: {time_slice: 1e12}\n",
    }
    for name, text in texts.items():
        seeds[name] = text.encode("utf-8")
    return seeds


# ---- checker scenes -----------------------------------------------------------------------------


CLASSES = ["unknown", "car", "truck", "bus", "motorcycle", "bicycle", "pedestrian", "static_object",
           "road_boundary"]


def config_bytes(continuous=True, ignore=False, horizon=None, margins=None, poses_per_query=None,
                 time_slice=None, small_rtree=False, tolerance=None, by_class=None, footprint=None):
    """read_config: flag byte f, its optional values in order, then flag byte g and its values.

    by_class: a number (one margin for every class) or a dict class name -> margin (the others 0).
    footprint: "box" (the vehicle's box as a polygon) or a list of points (their hull)."""
    f = 0 if continuous else 1
    f |= 2 if ignore else 0
    extra = b""
    if horizon == 0:
        f |= 1 << 2
    elif horizon is not None:
        f |= 2 << 2
        extra += num(horizon)
    if margins is not None:
        f |= 16
        extra += num(margins[0]) + num(margins[1])
    if poses_per_query is not None:
        f |= 32
        extra += byte(poses_per_query - 1)
    if time_slice is not None:
        f |= 64
        extra += byte(time_slice)
    g = 1 if small_rtree else 0
    if tolerance == 0:
        g |= 2 | 4
    elif tolerance == 1e-4:
        g |= 2
    g_extra = b""
    if by_class is not None:
        g |= 32
        if isinstance(by_class, dict):
            # Mode 1 reads magnitudes in [0, 10); mode 3 the numbers as they are (a negative one:
            # a ConfigError).
            raw = any(not (0 <= v < 10) for v in by_class.values())
            g_extra += byte(3 if raw else 1) + b"".join(num(by_class.get(c, 0)) for c in CLASSES)
        else:
            g_extra += byte(0) + num(by_class)
    if footprint is not None:
        g |= 64
        if footprint == "box":
            g_extra += byte(0)
        else:
            assert 3 <= len(footprint) <= 8
            g_extra += byte(1) + byte(len(footprint) - 3) + b"".join(point(x, y) for x, y in footprint)
    return byte(f) + extra + byte(g) + g_extra


def motion_raw(points):
    """read_motion, raw branch: count (pick 1..max), flag 1, then t, x, y, heading per point."""
    out = byte(len(points) - 1) + byte(1)
    for t, x, y, h in points:
        out += num(t) + point(x, y) + num(h)
    return out


def motion_drive(t0, x0, y0, h0, steps):
    """read_motion, driving branch: start, then (dt byte, speed int8 in m/s * 4, turn int8 in
    rad * 64) per step."""
    out = byte(len(steps)) + byte(0) + num(t0) + point(x0, y0) + num(h0)
    for dt_byte, speed, turn in steps:
        out += byte(dt_byte) + struct.pack("<b", speed) + struct.pack("<b", turn)
    return out


def obstacle_id(id_, cls=None):
    """The id byte: id + 1, and the class (CLASSES index + 1, 0 for the default) times 8."""
    return byte(id_ + 1 + 8 * (0 if cls is None else CLASSES.index(cls) + 1))


def obstacle_polygon(id_, encoded_polygon, cls=None):
    return obstacle_id(id_, cls) + byte(0) + encoded_polygon


def obstacle_outline(id_, points, cls=None):
    assert len(points) <= 10
    return obstacle_id(id_, cls) + byte(1) + byte(len(points)) + b"".join(point(x, y) for x, y in points)


def obstacle_moving(id_, encoded_body, motion, cls=None):
    return obstacle_id(id_, cls) + byte(2) + encoded_body + motion


# read_obstacle_shape: kind byte 0 circle, 1 box, 2 ellipse, 3 polygon.
def body_circle(cx, cy, r):
    return byte(0) + circle_body(cx, cy, r)


def body_box(cx, cy, heading, hl, hw):
    return byte(1) + obb_body(cx, cy, heading, hl, hw)


def body_ellipse(cx, cy, heading, hl, hw):
    return byte(2) + ellipse_body(cx, cy, heading, hl, hw)


def obstacle_shape(id_, encoded_shape, cls=None):
    """A stationary circle, box, ellipse or polygon (kind 3)."""
    return obstacle_id(id_, cls) + byte(3) + encoded_shape


def obstacle_moving_shape(id_, encoded_shape, motion, cls=None):
    """A moving circle, box, ellipse or polygon (kind 4)."""
    return obstacle_id(id_, cls) + byte(4) + encoded_shape + motion


def obstacle_boundary(id_, points, closed=False, cls=None):
    """A boundary of 2 to 6 points (kind 5), closed by repeating the first."""
    assert 2 <= len(points) <= 6
    return obstacle_id(id_, cls) + byte(5) + byte(len(points) - 2) + \
        b"".join(point(x, y) for x, y in points) + byte(1 if closed else 0)


def perception_grid(id_, x, y, heading, resolution, rows, threshold=65, unknown=True, cls=None):
    """read_perception_obstacle, kind 0: an occupancy grid; rows: lists of cell values (-1..100),
    row j = cells (0..width-1, j), each written as value + 1 (read back as byte % 102 - 1)."""
    width, height = len(rows[0]), len(rows)
    assert 1 <= width <= 6 and 1 <= height <= 6 and all(len(r) == width for r in rows)
    cells = b"".join(byte(v + 1) for r in rows for v in r)
    return obstacle_id(id_, cls) + byte(0) + point(x, y) + num(heading) + num(resolution) + \
        byte(width - 1) + byte(height - 1) + cells + byte(threshold) + byte(1 if unknown else 0)


def perception_cloud(id_, points, radius, cls=None):
    """read_perception_obstacle, kind 1: a point cloud of 0 to 5 points."""
    assert len(points) <= 5
    return obstacle_id(id_, cls) + byte(1) + byte(len(points)) + \
        b"".join(point(x, y) for x, y in points) + num(radius)


def perception(obstacles):
    """The grids and clouds read after the second config (which must then be given)."""
    assert len(obstacles) <= 2
    return byte(len(obstacles)) + b"".join(obstacles)


def scene(config, offset, obstacles, trajectories, other_config=b""):
    """other_config: the config set_config switches to and back from (read last; empty: every
    byte 0, the defaults with continuous checking on)."""
    return config + offset + byte(len(obstacles)) + b"".join(obstacles) + \
        byte(len(trajectories) - 1) + b"".join(trajectories) + other_config


def checker_seeds():
    parked = obstacle_polygon(1, polygon(square(20, -1, 24.5, 1)))
    cyclist = obstacle_moving(2, polygon(square(-0.9, -0.3, 0.9, 0.3)),
                              motion_raw([(0, 30, 5, -1.5625), (2, 30, -3, -1.5625)]))
    l_shape = obstacle_outline(3, [(10, 3), (16, 3), (16, 5), (12, 5), (12, 9), (10, 9)])
    post = obstacle_polygon(4, polygon(square(-0.05, -0.05, 0.05, 0.05)))
    straight = motion_drive(0, 0, 0, 0, [(32, 40, 0)] * 7)      # 10 m/s, 0.25 s steps
    swerve = motion_drive(0, 0, 0, 0, [(32, 40, 8)] * 3 + [(32, 40, -8)] * 4)
    reverse = motion_drive(0, 25, 4, math.pi, [(64, -20, 0)] * 4)
    jump = motion_raw([(0, -10, 0, 0), (1, 10, 0, 0)])          # case 21 of docs/robustness.md
    default = config_bytes()
    seeds = {
        "parked-car": scene(default, NO_OFFSET, [parked], [straight, swerve]),
        "cyclist": scene(default, NO_OFFSET, [parked, cyclist], [straight, swerve, reverse]),
        "l-shape": scene(default, NO_OFFSET, [l_shape, parked], [swerve]),
        "tunnelling": scene(default, NO_OFFSET, [post], [jump]),
        "tunnelling-discrete": scene(config_bytes(continuous=False), NO_OFFSET, [post], [jump]),
        "everything-utm": scene(default, UTM_1, [parked, cyclist, l_shape, post], [straight, swerve, jump]),
        "everything-utm2-ignore": scene(config_bytes(ignore=True), UTM_2,
                                        [parked, cyclist, l_shape], [straight, swerve]),
        "clearance-off": scene(config_bytes(horizon=0), NO_OFFSET, [parked, cyclist], [straight]),
        "wide-horizon": scene(config_bytes(horizon=50, margins=(0.5, 0.25)), NO_OFFSET,
                              [parked, l_shape], [straight, swerve]),
        "tuned": scene(config_bytes(poses_per_query=2, time_slice=16, small_rtree=True, tolerance=0),
                       NO_OFFSET, [parked, cyclist, l_shape], [straight, swerve, reverse]),
        "loose-tolerance": scene(config_bytes(tolerance=1e-4), NO_OFFSET, [parked], [straight]),
        "self-intersecting": scene(default, NO_OFFSET,
                                   [obstacle_outline(5, [(0, 0), (4, 4), (4, 0), (0, 4)])], [straight]),
        "moving-single-pose": scene(default, NO_OFFSET,
                                    [obstacle_moving(6, polygon(square(-1, -1, 1, 1)),
                                                     motion_raw([(1, 12, 0, 0)]))], [straight]),
        "moving-bad-times": scene(default, NO_OFFSET,
                                  [obstacle_moving(6, polygon(square(-1, -1, 1, 1)),
                                                   motion_raw([(1, 12, 0, 0), (1, 13, 0, 0)]))], [straight]),
        "bad-trajectory-nan": scene(default, NO_OFFSET, [parked],
                                    [motion_raw([(0, 0, 0, 0), (1, NAN, 0, 0)])]),
        "bad-trajectory-time": scene(default, NO_OFFSET, [parked],
                                     [motion_raw([(0, 0, 0, 0), (0, 1, 0, 0)])]),
        "empty-scene": scene(default, NO_OFFSET, [], [straight]),
        "single-pose": scene(default, NO_OFFSET, [parked], [motion_raw([(0, 21, 0, 0.3)])]),
        # Findings (fuzz/README.md).
        "F5-held-obstacle-missed-after-1e15-s": scene(
            default, NO_OFFSET,
            [obstacle_moving(6, polygon(square(-1, -1, 1, 1)), motion_raw([(0, 0, 0, 0)]))],
            [motion_raw([(2e15, 0, 0, 0)])]),
        "F5-prediction-before-minus-1e15-s": scene(
            default, NO_OFFSET,
            [obstacle_moving(6, polygon(square(-1, -1, 1, 1)), motion_raw([(-1e16, 0, 0, 0)]))],
            [motion_raw([(0, 0, 0, 0)])]),
        "F9-sweep-looser-than-circles": scene(
            default, NO_OFFSET, [obstacle_polygon(2, ngon(36, 0.65, -0.3, 0.9))],
            [motion_raw([(3, 16, 5, 12 - 4 * math.pi), (5, 5, 1, 2)])]),
        "F9-sweep-false-hit-box": scene(
            default, NO_OFFSET, [obstacle_polygon(2, polygon(square(-0.25, -1.2, 1.55, 0.6)))],
            [motion_raw([(3, 16, 5, 12 - 4 * math.pi), (5, 5, 1, 2)])]),
        # A sharp turn in a step too short to halve in time (4.9e-324 s): must not hit.
        "F14-sweep-halving-in-a-denormal-step": scene(
            default, NO_OFFSET, [obstacle_polygon(2, polygon(square(-0.25, -1.2, 1.55, 0.6)))],
            [motion_raw([(0, 16, 5, 12 - 4 * math.pi), (DENORM, 5, 1, 2)])]),
        # The CI scene: a 64 m jump and a 1.56 rad turn in 4.9e-324 s across a thin triangle.
        "F14-ci-denormal-step-across-a-thin-triangle": scene(
            default, NO_OFFSET,
            [obstacle_polygon(1, polygon([(20, 19.999998999999999),
                                          (-1.8642239874093094e-154, 3.1368227854460743e-319),
                                          (51.19921875, 50.19921875)]))],
            [motion_raw([(-44.80078125, 1.840311260213139e-40, 30, 5), (-1.5625, 2, 30, 78),
                         (-DENORM, 4.1723406951632569e-08, 63.73046875, -0.0),
                         (0, 30, 5, -1.5625)])]),
        "F5-trajectory-beyond-1e12-s": scene(
            default, NO_OFFSET, [parked], [motion_raw([(0, 0, 0, 0), (1.5e12, 10, 0, 0)])]),
        "F1-trajectory-beyond-1e9-m": scene(
            default, NO_OFFSET, [parked], [motion_raw([(0, 0, 0, 0), (1, 2e9, 0, 0)])]),
        "F1-body-reaching-beyond-1e9-m": scene(
            default, NO_OFFSET,
            [obstacle_moving(6, polygon(square(-1, -1, 1, 1)), motion_raw([(0, 1e9 - 0.5, 0, 0)]))],
            [straight]),
        # The CI scene of F15: a turn from heading 0 to 2e34 rad (beyond 1e6 rad: rejected now).
        "F15-heading-2e34-rad": scene(
            default, NO_OFFSET,
            [obstacle_polygon(3, polygon([(13.629109375, -0.5), (15, -0.5), (15, 0.5),
                                          (13.7795, 0.5)]))],
            [motion_raw([(-1, 0, 0, 0), (0.1, 10, 4.9e-12, 2.0151642283481838e+34)])]),
        # Shapes, classes and margins, boundaries, footprints, set_config.
        "street": scene(
            config_bytes(by_class={"pedestrian": 0.5, "bicycle": 0.3, "road_boundary": 0.1}),
            NO_OFFSET,
            [obstacle_moving_shape(1, body_circle(0, 0, 0.3),
                                   motion_raw([(0, 14, 4, -1.5707963267948966), (3, 14, -2, -1.5707963267948966)]),
                                   "pedestrian"),
             obstacle_moving_shape(2, body_ellipse(0, 0, 0, 0.9, 0.3),
                                   motion_raw([(0, 40, 1.5, 3.141592653589793), (4, 10, 1.5, 3.141592653589793)]),
                                   "bicycle"),
             obstacle_boundary(3, [(-10, -2.5), (20, -2.5), (60, -3)]),
             obstacle_boundary(4, [(-10, 4.5), (60, 4.5)])],
            [straight, swerve], config_bytes(continuous=False)),
        "circle-box-ellipse": scene(
            config_bytes(by_class=0.25), UTM_1,
            [obstacle_shape(1, body_circle(12, 0.5, 0.4), "pedestrian"),
             obstacle_shape(2, body_box(20, -1, 0.1, 2.2, 0.9), "car"),
             obstacle_shape(3, body_ellipse(8, -1.5, 0.4, 0.8, 0.3), "bicycle"),
             obstacle_polygon(4, polygon(square(30, -1, 32, 1)), "static_object")],
            [straight, swerve, reverse], config_bytes(by_class={"car": 1.0})),
        "ellipses-degenerate": scene(
            default, NO_OFFSET,
            [obstacle_shape(1, body_ellipse(12, 0.5, 0.3, 2, 0)),
             obstacle_shape(2, body_ellipse(18, -0.2, 0, 0, 0)),
             obstacle_moving_shape(3, body_ellipse(0.5, 0, 1.0, 1, 1e-6), motion_raw([(0, 25, 2, 0), (2, 25, -2, 1)])),
             obstacle_moving(5, ngon(12, 0, 0, 0.5), motion_drive(0, 30, 3, -1.5, [(64, -4, 0)] * 3))],
            [straight, swerve]),
        "moving-circle-and-box": scene(
            config_bytes(ignore=True, by_class={"car": 0.5, "truck": 1.5}), NO_OFFSET,
            [obstacle_moving_shape(1, body_box(1.4, 0, 0, 2.4, 0.95), motion_drive(0, 30, 0, 3.141592653589793, [(32, 40, 0)] * 3), "car"),
             obstacle_moving_shape(2, body_circle(0, 0, 1.2), motion_raw([(0.5, 20, 6, 0), (1.5, 20, 0, 0)]), "truck")],
            [straight, swerve]),
        "boundary-closed": scene(
            config_bytes(by_class={"road_boundary": 0.2}), NO_OFFSET,
            [obstacle_boundary(1, [(-5, -3), (40, -3), (40, 5), (-5, 5)], closed=True)],
            [straight, swerve, reverse]),
        "boundary-repeated-points": scene(
            default, NO_OFFSET,
            [obstacle_boundary(1, [(10, 1), (10, 1), (12, -1)]), obstacle_boundary(2, [(15, 0), (15, 0)])],
            [straight]),
        "boundary-as-static-object": scene(
            config_bytes(by_class={"static_object": 0.4}), NO_OFFSET,
            [obstacle_boundary(1, [(0, -1.5), (30, -1.5)], cls="static_object")],
            [straight, swerve]),
        "footprint-box": scene(
            config_bytes(footprint="box"), NO_OFFSET, [parked, cyclist, l_shape], [straight, swerve],
            config_bytes()),
        "footprint-polygon": scene(
            config_bytes(footprint=[(-1, -0.9), (3.5, -0.9), (4.2, 0), (3.5, 0.9), (-1, 0.9)],
                         margins=(0.2, 0.1)),
            NO_OFFSET, [parked, cyclist, l_shape, post], [straight, swerve, jump],
            config_bytes(footprint="box", by_class=0.3)),
        "footprint-triangle-utm": scene(
            config_bytes(footprint=[(0, -1), (4, 0), (0, 1)], by_class=0.5), UTM_2,
            [parked, obstacle_shape(2, body_ellipse(8, 0, 0, 1, 0.5), "pedestrian")], [straight, swerve]),
        "set-config-switch": scene(
            default, NO_OFFSET, [parked, cyclist, l_shape], [straight, swerve, reverse],
            config_bytes(continuous=False, horizon=50, margins=(0.5, 0.25), by_class=0.5,
                         footprint=[(-1, -1), (4, -1), (4, 1), (-1, 1)], small_rtree=True,
                         poses_per_query=2, time_slice=16)),
        "set-config-refused": scene(
            default, NO_OFFSET, [parked, cyclist], [straight],
            config_bytes(by_class={"car": -1.0})),
        # Occupancy grids and point clouds (read last, after the second config).
        "grid-and-cloud": scene(
            default, NO_OFFSET, [parked], [straight, swerve],
            config_bytes() + perception([
                perception_grid(5, 8, -3, 0.2, 0.5, [[0, 100, 100, 0, -1, 0],
                                                     [0, 100, 100, 0, 0, 0],
                                                     [70, 0, 0, 0, 64, 65],
                                                     [0, 0, 0, 100, 100, 100]]),
                perception_cloud(6, [(15, 2), (15.2, 2.1), (16, -1), (25, 0), (12, 0.9)], 0.3)])),
        "grid-utm-margins-options": scene(
            config_bytes(continuous=False, by_class={"static_object": 0.4, "unknown": 0.2}), UTM_1,
            [], [straight, reverse],
            config_bytes() + perception([
                perception_grid(1, 10, -2, -2.1, 0.25, [[-1, 40, 100], [100, -1, 39]],
                                threshold=40, unknown=False),
                perception_cloud(2, [(20, 0.5), (20, 0.5), (26, -0.5)], 0.0)])),
        "grid-bad-values": scene(
            default, NO_OFFSET, [parked], [straight],
            config_bytes() + perception([perception_grid(1, 8, -3, 0, 0.0, [[100]]),
                                         perception_cloud(2, [(15, 2)], -1.0)])),
        "duplicate-ids": scene(default, NO_OFFSET, [parked, obstacle_polygon(1, polygon(square(5, 3, 6, 4)))],
                               [straight, swerve]),
        "F6-contact-time-past-t": scene(
            default, NO_OFFSET, [obstacle_polygon(3, polygon(square(13.7795, -0.5, 15, 0.5)))],
            [motion_raw([(-1, 0, 0, 0), (0.1, 10, 0, 0)])]),
    }
    return seeds


def write(target, seeds):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".seed"):
            os.remove(os.path.join(directory, name))
    for name, data in seeds.items():
        with open(os.path.join(directory, name + ".seed"), "wb") as f:
            f.write(data)
    print(f"{target}: {len(seeds)} seeds")


def main():
    write("convex_polygon", convex_polygon_seeds())
    write("narrow_phase", narrow_phase_seeds())
    write("config", config_seeds())
    write("checker", checker_seeds())


if __name__ == "__main__":
    main()
