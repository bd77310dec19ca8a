"""Time to execute each notebook from a fresh kernel, and the whole series (aim: under 2 minutes)."""
from __future__ import annotations

import glob
import os
import time

import nbformat
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    total = 0.0
    print("notebook execution time, fresh kernel each (aim: whole series < 120 s on 2 cores)")
    for path in sorted(glob.glob(os.path.join(ROOT, "notebooks", "*.ipynb"))):
        nb = nbformat.read(path, as_version=4)
        t0 = time.perf_counter()
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": os.path.dirname(path)}}).execute()
        elapsed = time.perf_counter() - t0
        total += elapsed
        print(f"  {os.path.basename(path):<32} {elapsed:6.1f} s")
    print(f"  {'whole series':<32} {total:6.1f} s {'ok' if total < 120 else 'ABOVE AIM'}")


if __name__ == "__main__":
    main()
