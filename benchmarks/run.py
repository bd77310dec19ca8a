"""Run every benchmark once and print its ratios (`make bench`)."""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
for name in ("memcpy_bandwidth.py", "execute_overhead.py", "classify_overhead.py", "dvpp_vs_host.py",
             "notebooks_time.py"):
    print(f"== {name}")
    sys.argv = [name]
    runpy.run_path(os.path.join(HERE, name), run_name="__main__")
