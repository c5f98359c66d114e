#!/usr/bin/env python3
"""Markdown tables of benchmark medians and of the ratios the performance targets are stated in.

Reads Google Benchmark JSON files (run with --benchmark_repetitions=N
--benchmark_report_aggregates_only=true --benchmark_out_format=json) and prints, per file, a
table of medians (per query or per pose where the benchmark has that counter) with the
coefficient of variation over the repetitions, then the target ratios. Standard library only.

With --csv DIR it also writes DIR/<file's stem>.csv for each file (narrow_phase_bench.json ->
narrow_phase_bench.csv), one row per benchmark in the order run, the columns of CSV_COLUMNS:

  name                  the benchmark, without the min_time / real_time / process_time suffixes
  unit                  per_query or per_pose (the benchmark's counter: time / items of one pass
                        over the set or scene), or iteration (no counter: one pass)
  real_ns, cpu_ns       median wall-clock and CPU time per unit, in ns
  per_checked_pose_ns   median per pose actually checked (up to each first hit), in the
                        benchmark's own time (CPU, or wall-clock where cv_pct says so), where
                        the benchmark counts it (corridor, traffic, tutorial, ...); else empty
  repetitions           how many repetitions the medians are over
  cv_pct                coefficient of variation of the measure the counter is in (CPU time, or
                        wall-clock for the benchmarks timed in real time), percent, 2 decimals

Numbers keep four significant digits, so a run on the same machine changes only the digits the
noise reaches, and a speed change shows as a diff of the committed file.

usage: bench/report.py [--csv DIR] results/narrow_phase_bench.json results/checker_bench.json
"""
import csv
import json
import math
import os
import re
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(paths):
    """{benchmark name: {aggregate: entry}} over all files, and per file the names in order."""
    runs, order = {}, []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        names = []
        for b in data.get("benchmarks", []):
            if b.get("run_type") != "aggregate":
                continue
            # MinTime(), MeasureProcessCPUTime() and UseRealTime() append these: drop them.
            name = re.sub(r"/(min_time:[0-9.]+|process_time|real_time)(?=/|$)", "",
                          b["run_name"])
            if name not in runs:
                names.append(name)
            entry = dict(b)
            # Rate counters (per_query, per_pose) divide the benchmark's own time: wall-clock
            # for UseRealTime(), CPU time otherwise.
            entry["timed_in_real_time"] = re.search(r"/real_time(/|$)", b["run_name"]) is not None
            runs.setdefault(name, {})[b["aggregate_name"]] = entry
        order.append((path, names, data.get("context", {})))
    return runs, order


def per_unit_ns(entry):
    """(value in ns, counter name): per_query / per_pose counter if present, else wall time."""
    for key in ("per_query", "per_pose"):
        if key in entry:
            return entry[key] * 1e9, key
    return entry["real_time"] * UNIT_NS[entry.get("time_unit", "ns")], "wall"


def fmt_ns(ns):
    if ns is None or math.isnan(ns):
        return "-"
    if ns >= 1e6:
        return "%.2f ms" % (ns / 1e6)
    if ns >= 1e4:
        return "%.1f us" % (ns / 1e3)
    return "%.1f ns" % ns


def median(runs, name):
    entry = runs.get(name, {}).get("median")
    return per_unit_ns(entry)[0] if entry else None


def table(runs, names):
    print("| benchmark | median per query / pose | median CPU per iteration "
          "| median wall per iteration | cv |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        agg = runs[name]
        med = agg.get("median")
        if not med:
            continue
        value, key = per_unit_ns(med)
        unit = UNIT_NS[med.get("time_unit", "ns")]
        cv = agg.get("cv") or {}
        cv_key = key if key in cv else "real_time"
        cv_text = "%.1f%%" % (100 * cv[cv_key]) if cv_key in cv else "-"
        extra = []
        for counter in ("never_gjk_pct", "gjk_iterations"):
            if counter in med:
                extra.append("%s %.4g" % (counter, med[counter]))
        label = name + (" (" + ", ".join(extra) + ")" if extra else "")
        print("| %s | %s | %s | %s | %s |" % (label, fmt_ns(value) if key != "wall" else "-",
                                              fmt_ns(med["cpu_time"] * unit),
                                              fmt_ns(med["real_time"] * unit), cv_text))


# (what, numerator, denominator, target text, predicate on the ratio)
RATIOS = [
    ("intersects: boost::geometry / collision", "mixed/intersects/boost",
     "mixed/intersects/collision", ">= 10", lambda r: r >= 10),
    ("intersects: collision / hand SAT", "mixed/intersects/collision",
     "mixed/intersects/sat_hand", "<= 2", lambda r: r <= 2),
    ("intersects: libccd GJK / collision", "mixed/intersects/ccd_gjk",
     "mixed/intersects/collision", "(info)", None),
    ("distance: boost::geometry / collision", "mixed/distance/boost",
     "mixed/distance/collision", ">= 15", lambda r: r >= 15),
    ("penetration: libccd GJK+EPA / collision (mixed)", "mixed/penetration/ccd_gjk_epa",
     "mixed/penetration/collision", ">= 20", lambda r: r >= 20),
    ("penetration: libccd GJK+EPA / collision (overlapping)",
     "overlapping/penetration/ccd_gjk_epa", "overlapping/penetration/collision", ">= 20",
     lambda r: r >= 20),
    ("near contact, penetration: libccd GJK+EPA / collision",
     "near/penetration/ccd_gjk_epa", "near/penetration/collision", "(info)", None),
    ("near contact, intersects: boost::geometry / collision", "near/intersects/boost",
     "near/intersects/collision", ">= 10", lambda r: r >= 10),
    ("near contact, intersects: collision / hand SAT", "near/intersects/collision",
     "near/intersects/sat_hand", "<= 2", lambda r: r <= 2),
    ("near contact, distance: boost::geometry / collision", "near/distance/boost",
     "near/distance/collision", ">= 15", lambda r: r >= 15),
    ("trajectory intersects: cold / warm", "trajectory/intersects/cold",
     "trajectory/intersects/warm", "(info)", None),
    ("trajectory distance: cold / warm", "trajectory/distance/cold",
     "trajectory/distance/warm", "(info)", None),
    ("trajectory (pairs within 1 m) intersects: cold / warm", "trajectory_near/intersects/cold",
     "trajectory_near/intersects/warm", "(info)", None),
    ("trajectory (pairs within 1 m) distance: cold / warm", "trajectory_near/distance/cold",
     "trajectory_near/distance/warm", "(info)", None),
]
for n in (3, 6, 12):
    RATIOS += [
        ("n=%d intersects: boost::geometry / collision" % n, "n%d/intersects/boost" % n,
         "n%d/intersects/collision" % n, ">= 10", lambda r: r >= 10),
        ("n=%d intersects: collision / hand SAT" % n, "n%d/intersects/collision" % n,
         "n%d/intersects/sat_hand" % n, "<= 2", lambda r: r <= 2),
        ("n=%d distance: boost::geometry / collision" % n, "n%d/distance/boost" % n,
         "n%d/distance/collision" % n, ">= 15", lambda r: r >= 15),
    ]
# The box against an ellipse, on the same placements as that ellipse polygonised (ellipse_*): the
# targets are within 2x of the 8-gon, and faster than the 32-gon a planner would otherwise put
# around a round obstacle.
for prefix, label in (("ellipse_mixed", "mixed"), ("ellipse_near", "near contact")):
    for query in ("intersects", "distance"):
        RATIOS += [
            ("ellipse %s, %s: box vs ellipse / box vs 8-gon" % (label, query),
             "%s/%s/ellipse" % (prefix, query), "%s/%s/ngon8" % (prefix, query), "<= 2",
             lambda r: r <= 2),
            ("ellipse %s, %s: box vs ellipse / box vs 32-gon" % (label, query),
             "%s/%s/ellipse" % (prefix, query), "%s/%s/ngon32" % (prefix, query), "< 1",
             lambda r: r < 1),
        ]
RATIOS += [
    ("corridor: chunked rtree+SAT / checker", "corridor/rtree_sat_chunked", "corridor/checker",
     ">= 1.5", lambda r: r >= 1.5),
    ("corridor: chunked grid+SAT / checker", "corridor/grid_sat_chunked", "corridor/checker",
     "(info)", None),
    ("corridor: chunked rtree+boost intersects / checker", "corridor/rtree_boost_chunked",
     "corridor/checker", ">= 2", lambda r: r >= 2),
    ("corridor: per-pose rtree+SAT / checker", "corridor/rtree_sat", "corridor/checker",
     "(info)", None),
    ("corridor: per-pose rtree+boost intersects / checker", "corridor/rtree_boost",
     "corridor/checker", "(info)", None),
    ("traffic: moving / the same cars standing", "traffic/moving", "traffic/standing",
     "<= 1.3", lambda r: r <= 1.3),
    ("traffic: parked (moving obstacles holding their pose) / standing, same answers",
     "traffic/parked", "traffic/standing", "(info: what the moving code costs)", None),
    ("tutorial shape: continuous / discrete", "tutorial/continuous", "tutorial/discrete",
     "<= 1.6", lambda r: r <= 1.6),
    ("urban: check_all 1 thread / 2 threads (wall clock)", "urban/scaling/threads:1",
     "urban/scaling/threads:2", ">= 1.8", "wall", lambda r: r >= 1.8),
]
# A semi-trailer (bench/articulated_bench.cpp): per pose of the same candidates.
for mode in ("discrete", "continuous"):
    RATIOS += [
        ("semi-trailer %s: combination / tractor alone, per pose" % mode,
         "semi/%s/combination" % mode, "semi/%s/tractor" % mode, "<= 1.6", lambda r: r <= 1.6),
        ("semi-trailer %s: two egos merged / combination, same answers" % mode,
         "semi/%s/two_egos" % mode, "semi/%s/combination" % mode, ">= 3", lambda r: r >= 3),
    ]
for n in (300, 1000, 3000, 10000):
    RATIOS += [
        ("growth first hit: %d / 100 obstacles" % n,
         "growth/first_hit/checker/obstacles:%d" % n, "growth/first_hit/checker/obstacles:100",
         "(info, flat is ideal)", None),
        ("growth default config: %d / 100 obstacles" % n,
         "growth/default_config/checker/obstacles:%d" % n,
         "growth/default_config/checker/obstacles:100", "(info, flat is ideal)", None),
    ]

# (what, benchmark, counter or None for per-unit time, target text, predicate)
ABSOLUTE = [
    ("penetration per query (mixed)", "mixed/penetration/collision", None, "~100 ns (met: <= 150)",
     lambda v: v <= 150),
    ("urban per pose, 1 thread", "urban/checker/threads:1", None, "< 250 ns",
     lambda v: v < 250),
    ("tutorial shape per checked pose, discrete", "tutorial/discrete", None, "<= 45 ns",
     lambda v: v <= 45),
    ("tutorial shape per checked pose, continuous", "tutorial/continuous", None, "<= 70 ns",
     lambda v: v <= 70),
    ("corridor: pairs never sent to GJK", "corridor/checker", "never_gjk_pct", "> 99%",
     lambda v: v > 99),
    ("corridor: pairs the index returns never sent to GJK", "corridor/checker",
     "never_gjk_after_index_pct", "(info)", None),
    ("urban: pairs never sent to GJK", "urban/checker/threads:1", "never_gjk_pct", "(info)", None),
]


def targets(runs, busy):
    """busy: text naming the load when the machine was not idle (wall-clock ratios unreliable)."""
    print("| ratio (medians) | value | target | status |")
    print("|---|---:|---:|---|")
    for row in RATIOS:
        what, num, den, text, ok = row[0], row[1], row[2], row[3], row[-1]
        a, b = median(runs, num), median(runs, den)
        if a is None or b is None:
            continue
        r = a / b
        status = "-" if ok is None else ("met" if ok(r) else "**missed**")
        if len(row) == 6 and busy and not ok(r):
            status = "not measurable here (%s)" % busy
        print("| %s | %.2fx | %s | %s |" % (what, r, text, status))
    one = runs.get("urban/scaling/threads:1", {}).get("median")
    two = runs.get("urban/scaling/threads:2", {}).get("median")
    if one and two:
        print("| urban: process CPU time, 2 threads / 1 thread (threading overhead; 1.0 = none) "
              "| %.2fx | (info: on an idle 2-core machine the wall speedup is at most "
              "2 / this) | - |" % (two["cpu_time"] / one["cpu_time"]))
    print()
    print("| measure (median) | value | target | status |")
    print("|---|---:|---:|---|")
    for what, name, counter, text, ok in ABSOLUTE:
        entry = runs.get(name, {}).get("median")
        if not entry:
            continue
        if counter:
            if counter not in entry:
                continue
            v, shown = entry[counter], "%.3f%%" % entry[counter]
        else:
            v = per_unit_ns(entry)[0]
            shown = fmt_ns(v)
        status = "-" if ok is None else ("met" if ok(v) else "**missed**")
        print("| %s | %s | %s | %s |" % (what, shown, text, status))


CSV_COLUMNS = ["name", "unit", "real_ns", "cpu_ns", "per_checked_pose_ns", "repetitions",
               "cv_pct"]


def significant(value, digits=4):
    """value with `digits` significant digits, in plain decimal notation ("31.18", "127700")."""
    if value is None or math.isnan(value) or math.isinf(value):
        return ""
    if value == 0:
        return "0"
    exponent = math.floor(math.log10(abs(value)))
    rounded = round(value, digits - 1 - exponent)
    # Rounding can carry into a new digit (9.9995 -> 10.00): count the digits from the result.
    exponent = math.floor(math.log10(abs(rounded)))
    return "%.*f" % (max(0, digits - 1 - exponent), rounded)


def csv_row(name, agg):
    """One CSV row (a dict of CSV_COLUMNS) from a benchmark's aggregates, or None without a
    median."""
    med = agg.get("median")
    if not med:
        return None
    unit_ns = UNIT_NS[med.get("time_unit", "ns")]
    real, cpu = med["real_time"] * unit_ns, med["cpu_time"] * unit_ns
    own = real if med["timed_in_real_time"] else cpu  # what the rate counters divide
    unit, items = "iteration", 1.0
    for key in ("per_query", "per_pose"):
        if key in med and med[key] > 0:
            unit, items = key, own / (med[key] * 1e9)
            break
    checked = None
    if "per_checked_pose" in med and med["per_checked_pose"] > 0:
        checked = med["per_checked_pose"] * 1e9
    cv = agg.get("cv") or {}
    cv_key = unit if unit in cv else ("real_time" if med["timed_in_real_time"] else "cpu_time")
    return {
        "name": name,
        "unit": unit,
        "real_ns": significant(real / items),
        "cpu_ns": significant(cpu / items),
        "per_checked_pose_ns": significant(checked),
        "repetitions": str(med.get("repetitions", "")),
        "cv_pct": "%.2f" % (100 * cv[cv_key]) if cv_key in cv else "",
    }


def write_csv(directory, runs, order):
    """DIR/<stem>.csv per JSON file; returns the paths written."""
    os.makedirs(directory, exist_ok=True)
    written = []
    for path, names, _ in order:
        stem = os.path.splitext(os.path.basename(path))[0]
        out = os.path.join(directory, stem + ".csv")
        with open(out, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS, lineterminator="\n")
            writer.writeheader()
            for name in names:
                row = csv_row(name, runs[name])
                if row:
                    writer.writerow(row)
        written.append(out)
    return written


def main(argv):
    args = argv[1:]
    csv_dir = None
    if args[:1] == ["--csv"]:
        if len(args) < 2:
            sys.exit(__doc__)
        csv_dir, args = args[1], args[2:]
    elif args and args[0].startswith("--csv="):
        csv_dir, args = args[0][len("--csv="):], args[1:]
    if not args:
        sys.exit(__doc__)
    runs, order = load(args)
    if csv_dir is not None:
        for out in write_csv(csv_dir, runs, order):
            print("report.py: wrote %s" % out, file=sys.stderr)
    for path, names, context in order:
        reps = ""
        for name in names:
            entry = runs[name].get("median")
            if entry and "repetitions" in entry:
                reps = ", %d repetitions" % entry["repetitions"]
                break
        print("### %s\n" % path)
        print("%s, %s CPUs at %s MHz, load average %s%s; medians.\n" % (
            context.get("date", "?"), context.get("num_cpus", "?"), context.get("mhz_per_cpu", "?"),
            " ".join("%.2f" % x for x in context.get("load_avg", [])), reps))
        print("per query / per pose: CPU time of one query, or time / (candidates x poses), CPU "
              "time except urban/scaling/* (wall clock, for thread scaling); per iteration: "
              "wall time of one pass over the set or scene.\n")
        table(runs, names)
        print()
    busy = ""
    for _, _, context in order:
        loads, cpus = context.get("load_avg", []), context.get("num_cpus", 0)
        if loads and cpus and max(loads) > 0.5 * cpus:
            busy = "load average %.1f on %d CPUs" % (max(loads), cpus)
    print("### Targets\n")
    targets(runs, busy)


if __name__ == "__main__":
    main(sys.argv)
