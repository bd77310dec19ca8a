"""Run every benchmark once and print its ratios (`make bench`; `make bench QUICK=1`: CI's cheap settings).

A report, never a gate: a benchmark that fails prints why and the others still run; the exit status is 0.
QUICK=1 (or --quick) leaves out the notebook series timing (`make test` runs every notebook already).
"""
import os
import runpy
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = ("memcpy_bandwidth.py", "execute_overhead.py", "classify_overhead.py", "dvpp_vs_host.py",
              "video_overhead.py", "notebooks_time.py")
SLOW = {"notebooks_time.py"}


def main(argv) -> int:
    quick = "--quick" in argv or os.environ.get("QUICK", "") not in ("", "0")
    for name in BENCHMARKS:
        print(f"== {name}", flush=True)
        if quick and name in SLOW:
            print("  skipped (quick: make test already runs every notebook)")
            continue
        sys.argv = [name]
        t0 = time.perf_counter()
        try:
            runpy.run_path(os.path.join(HERE, name), run_name="__main__")
        except Exception:  # a report: say what broke and go on
            print(f"  FAILED:\n{traceback.format_exc()}")
        print(f"  ({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
