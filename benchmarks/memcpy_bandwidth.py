"""Simulated acl.rt.memcpy bandwidth (H2D, D2H; 1 MiB and 64 MiB) as a ratio to a plain numpy copy.

Aim: at least 0.5 (half of numpy's copy bandwidth). Best of several repeats, all in one run.
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from acl_teach import sim as acl  # noqa: E402

H2D, D2H = 1, 2


def best(fn, repeats: int) -> float:
    """Shortest of ``repeats`` timings of fn()."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def measure(size: int, repeats: int) -> dict:
    """Seconds for numpy, H2D and D2H copies of ``size`` bytes."""
    src = np.random.default_rng(0).integers(0, 255, size, dtype=np.uint8)
    dst = np.empty_like(src)
    host_bytes = src.tobytes()
    host_ptr = acl.util.bytes_to_ptr(host_bytes)
    dev, ret = acl.rt.malloc(size, 0)
    out_ptr, ret2 = acl.rt.malloc_host(size)
    assert ret == ret2 == 0
    result = {
        "numpy": best(lambda: np.copyto(dst, src), repeats),
        "H2D": best(lambda: acl.rt.memcpy(dev, size, host_ptr, size, H2D), repeats),
        "D2H": best(lambda: acl.rt.memcpy(out_ptr, size, dev, size, D2H), repeats),
    }
    assert acl.util.ptr_to_bytes(out_ptr, size) == host_bytes
    acl.rt.free(dev)
    acl.rt.free_host(out_ptr)
    return result


def main() -> list:
    """Print one line per size; return the rows."""
    acl.reset(acl.Config(explain=False))
    acl.init()
    acl.rt.set_device(0)
    rows = []
    print("memcpy bandwidth, simulator vs numpy copy of the same bytes (ratio >= 0.5 is the aim)")
    for label, size, repeats in (("1 MiB", 1 << 20, 200), ("64 MiB", 64 << 20, 10)):
        t = measure(size, repeats)
        for kind in ("H2D", "D2H"):
            ratio = t["numpy"] / t[kind]
            gbps = size / t[kind] / 1e9
            rows.append((label, kind, ratio))
            print(f"  {label:>6} {kind}: {gbps:6.2f} GB/s  ratio to numpy {ratio:4.2f} "
                  f"{'ok' if ratio >= 0.5 else 'BELOW AIM'}")
    acl.rt.reset_device(0)
    acl.finalize()
    return rows


if __name__ == "__main__":
    main()
