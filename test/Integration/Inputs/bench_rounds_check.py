# Feeds bench/rounds.py a Google Benchmark JSON written by hand, in which
# the machine gets slower from round to round, and prints what it derives
# (bench-rounds.test checks the figures, computed by hand there).
import json
import os
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
import rounds  # noqa: E402


def run(name, r, ms):
    return {"name": "k/%s/omp:1/round:%d" % (name, r), "run_type": "iteration",
            "real_time": ms, "time_unit": "ms", "bytes_per_sweep": 8e6}


primal = [10.0, 20.0, 40.0]
adjoint = [12.0, 36.0, 60.0]
bench = [run("primal", r, t) for r, t in enumerate(primal)] + \
        [run("gather_compact", r, t) for r, t in enumerate(adjoint)] + \
        [{"name": "k/primal/omp:1/round:0_median", "run_type": "aggregate",
          "real_time": 99.0, "time_unit": "ms"},
         {"name": "k/single/omp:2", "run_type": "iteration",
          "real_time": 2000.0, "time_unit": "us"}]
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump({"context": {"size_k": "8"}, "benchmarks": bench}, f)
for statistic in ("median", "min"):
    context, res = rounds.parse_benchmarks(f.name, statistic)
    p, a = res[("k", "primal", 1)], res[("k", "gather_compact", 1)]
    print("%s: primal %.1f adjoint %.1f ratio %.3f range %s cv %.3f single %.1f"
          % (statistic, p["time_ms"], a["time_ms"], rounds.ratio(a, p),
             rounds.ratio_range(a, p), p["cv"],
             res[("k", "single", 2)]["time_ms"]))
os.unlink(f.name)
