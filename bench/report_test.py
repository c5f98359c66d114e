#!/usr/bin/env python3
"""Tests of bench/report.py's CSV (ctest bench_report_test): the rows script/bench commits under
bench/results/ must hold the medians per query or pose that the markdown tables show, in the
benchmark's own time for the rate counters. Standard library only; runs on hand-made Google
Benchmark JSON, no benchmark executable needed.

usage: python3 bench/report_test.py
"""
import csv
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402


def aggregates(run_name, real, cpu, reps=5, counters=None, cv_counters=None, cv_real=0.02,
               cv_cpu=0.01):
    """The median and cv entries Google Benchmark writes for one benchmark (times in ns).
    counters: {name: seconds per item} for the median; cv_counters: {name: fraction}."""
    base = {"run_name": run_name, "run_type": "aggregate", "repetitions": reps, "threads": 1,
            "iterations": reps, "time_unit": "ns"}
    median = dict(base, name=run_name + "_median", aggregate_name="median", real_time=real,
                  cpu_time=cpu, **(counters or {}))
    cv = dict(base, name=run_name + "_cv", aggregate_name="cv", real_time=cv_real,
              cpu_time=cv_cpu, **(cv_counters or {}))
    return [median, cv]


def rows_of(benchmarks):
    """The CSV rows report.py writes for one JSON file of these benchmarks."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "checker_bench.json")
        with open(path, "w") as f:
            json.dump({"context": {"num_cpus": 2, "load_avg": [0.1, 0.1, 0.1]},
                       "benchmarks": benchmarks}, f)
        runs, order = report.load([path])
        written = report.write_csv(os.path.join(tmp, "out"), runs, order)
        assert [os.path.basename(p) for p in written] == ["checker_bench.csv"]
        with open(written[0], newline="") as f:
            reader = csv.DictReader(f)
            assert reader.fieldnames == report.CSV_COLUMNS
            return list(reader)


class CsvRows(unittest.TestCase):
    def test_per_query_from_cpu_time(self):
        # 4096 queries a pass: 127,700 ns CPU, 247,500 ns wall; per_query = CPU / 4096.
        rows = rows_of(aggregates("mixed/intersects/collision/min_time:0.300", 247500, 127700,
                                  counters={"per_query": 127700e-9 / 4096},
                                  cv_counters={"per_query": 0.0067}))
        self.assertEqual(len(rows), 1)
        row = rows[0]
        self.assertEqual(row["name"], "mixed/intersects/collision")  # min_time suffix dropped
        self.assertEqual(row["unit"], "per_query")
        self.assertEqual(row["cpu_ns"], "31.18")  # 127700 / 4096 = 31.177
        self.assertEqual(row["real_ns"], "60.42")  # 247500 / 4096 = 60.425
        self.assertEqual(row["per_checked_pose_ns"], "")
        self.assertEqual(row["repetitions"], "5")
        self.assertEqual(row["cv_pct"], "0.67")

    def test_real_time_rate_counter_divides_wall_clock(self):
        # UseRealTime(): per_pose is wall / poses (80,000), so CPU per pose is CPU / 80,000 too.
        rows = rows_of(aggregates("urban/scaling/threads:2/real_time", 8.0e6, 1.6e7,
                                  counters={"per_pose": 8.0e6 * 1e-9 / 80000,
                                            "per_checked_pose": 8.0e6 * 1e-9 / 40000},
                                  cv_real=0.034, cv_cpu=0.5))
        row = rows[0]
        self.assertEqual(row["name"], "urban/scaling/threads:2")
        self.assertEqual(row["unit"], "per_pose")
        self.assertEqual(row["real_ns"], "100.0")
        self.assertEqual(row["cpu_ns"], "200.0")
        self.assertEqual(row["per_checked_pose_ns"], "200.0")
        self.assertEqual(row["cv_pct"], "3.40")  # the wall clock's, not the CPU time's

    def test_without_a_counter_one_pass_is_the_unit(self):
        rows = rows_of(aggregates("growth/set_obstacles/obstacles:1000", 1234567.0, 1200000.0,
                                  reps=3, cv_real=0.05, cv_cpu=0.021))
        row = rows[0]
        self.assertEqual(row["unit"], "iteration")
        self.assertEqual(row["real_ns"], "1235000")
        self.assertEqual(row["cpu_ns"], "1200000")
        self.assertEqual(row["repetitions"], "3")
        self.assertEqual(row["cv_pct"], "2.10")  # CPU-timed: the CPU time's cv

    def test_rows_keep_the_order_run_and_skip_benchmarks_without_a_median(self):
        only_cv = aggregates("corridor/rtree_sat", 10.0, 10.0)[1:]
        rows = rows_of(aggregates("corridor/checker", 2.0e5, 1.0e5,
                                  counters={"per_pose": 1.0e5 * 1e-9 / 5000,
                                            "per_checked_pose": 1.0e5 * 1e-9 / 3079})
                       + only_cv
                       + aggregates("corridor/footprints_only", 5.0e4, 5.0e4,
                                    counters={"per_pose": 5.0e4 * 1e-9 / 5000}))
        self.assertEqual([r["name"] for r in rows], ["corridor/checker", "corridor/footprints_only"])
        self.assertEqual(rows[0]["cpu_ns"], "20.00")
        self.assertEqual(rows[0]["per_checked_pose_ns"], "32.48")  # 1e5 / 3079


class Significant(unittest.TestCase):
    def test_four_digits_in_plain_notation(self):
        self.assertEqual(report.significant(31.1757), "31.18")
        self.assertEqual(report.significant(127695.68), "127700")
        self.assertEqual(report.significant(0.0123456), "0.01235")
        self.assertEqual(report.significant(9.99951), "10.00")
        self.assertEqual(report.significant(0), "0")
        self.assertEqual(report.significant(None), "")
        self.assertEqual(report.significant(float("nan")), "")


if __name__ == "__main__":
    unittest.main()
