"""What one learner costs, and how many a server holds: K learners' kernels running a notebook at once.

For each K, K kernels (nbclient, each its own process, as a class's learners' kernels are) run the notebook's
Run All together with the class's read-only model cache warm (ACL_TEACH_SHARED_CACHE, built first as
`acl-teach classroom cache` does). Reported per learner kernel: PSS right after Run All (/proc/PID/smaps_rollup:
shared pages such as the read-only OMs and libraries counted once across kernels), CPU-seconds of the kernel
(utime + stime, the kernel's start included and also given apart), the largest PSS seen during Run All, and the
wall time of Run All against K. The kernels get the thread settings a class spawner gives a learner
(limits.thread_env for the default 1-CPU share). One idle single-user server's PSS is measured once.
From them: how many learners fit in a 24 GiB / 2-core and a 64 GiB / 16-core server, by memory (each learner
one kernel + one server) and by CPU (a Run All at most every 10 minutes per learner, at 70 % utilisation).

    python benchmarks/class_scale.py [--k 1,10,40] [--notebook 10_dynamic_batch] [--json]
The machine is shared: K beyond what it has cores for measures queueing, which is the point, but be frugal.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time

import nbformat
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

from acl_teach.classroom.config import Classroom
from acl_teach.classroom.limits import thread_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")
BOXES = {"24 GiB / 2 cores": (24 << 30, 2), "64 GiB / 16 cores": (64 << 30, 16)}
RUN_ALL_EVERY_S = 600  # a learner runs the heavy notebook at most once in 10 minutes
CPU_UTILISATION = 0.7
RESERVED = 2 << 30  # the OS, the hub and the proxy
STARTUP_TIMEOUT_S = 300  # 40 kernels starting at once on 2 busy cores took longer than nbclient's 60 s default


def pss(pid: int) -> int:
    """Proportional set size of a process in bytes."""
    with open(f"/proc/{pid}/smaps_rollup") as fh:
        for line in fh:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def kernel_pid(client: NotebookClient) -> int:
    """The kernel process of a running client."""
    return client.km.provisioner.process.pid


async def _sample_peak(pid: int, peak: list) -> None:
    """Keep the largest PSS seen (every 0.25 s) while a Run All runs: the learner's memory limit must hold it."""
    while True:
        try:
            peak[0] = max(peak[0], pss(pid))
        except OSError:
            return
        await asyncio.sleep(0.25)


async def one(path: str, results: list) -> None:
    """Run All of one notebook in a fresh kernel; record PSS after and at peak, CPU-s (start, Run All), wall."""
    nb = nbformat.read(path, as_version=4)
    # IPC sockets in a folder of its own: 30 kernels picking TCP ports at once on a shared machine collided once
    # ("Address already in use"), a race of the benchmark's kernel manager, not of the notebook
    with tempfile.TemporaryDirectory(prefix="acl-teach-bench-ipc-") as ipc:
        km = AsyncKernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(ipc, "kernel"))
        client = NotebookClient(nb, km=km, timeout=600, kernel_name="python3", startup_timeout=STARTUP_TIMEOUT_S,
                                resources={"metadata": {"path": os.path.dirname(path)}})
        try:
            await _run_all(client, nb, results)
        except Exception as exc:  # the kernel never answered: a learner who got no kernel, counted as failed
            results.append({"failed": f"kernel start: {type(exc).__name__}: {str(exc)[-200:]}"})


async def _run_all(client: NotebookClient, nb, results: list) -> None:
    """The measured part of one(): start the kernel, run every cell, read the kernel's numbers."""
    async with client.async_setup_kernel():
        pid = kernel_pid(client)
        started = cpu_seconds(pid)  # the kernel's own start (Python, ipykernel): before any cell
        peak = [0]
        sampler = asyncio.ensure_future(_sample_peak(pid, peak))
        t0 = time.perf_counter()
        failed = None
        try:
            for index, cell in enumerate(nb.cells):
                await client.async_execute_cell(cell, index)
        except Exception as exc:  # a learner's Run All that failed: counted, never hidden
            failed = f"{type(exc).__name__}: {str(exc)[-300:]}"
        wall = time.perf_counter() - t0
        sampler.cancel()
        after = pss(pid)
        results.append({"pss": after, "peak": max(peak[0], after), "cpu": cpu_seconds(pid), "start_cpu": started,
                        "wall": wall, "failed": failed})


async def wave(path: str, k: int) -> list:
    """K learners' Run All at the same moment."""
    results: list = []
    await asyncio.gather(*(one(path, results) for _ in range(k)))
    return results


def server_pss() -> int:
    """PSS of one idle Jupyter server once it answers (what each learner's single-user server adds)."""
    import socket
    import urllib.request
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "jupyter-lab"), "--no-browser",
                                 f"--port={port}", f"--notebook-dir={tmp}", "--allow-root",
                                 "--IdentityProvider.token=bench"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(120):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token=bench", timeout=2)
                    break
                except OSError:
                    time.sleep(1)
            urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token=bench", timeout=30).read()  # the lab page
            time.sleep(2)
            return pss(proc.pid)
        finally:
            proc.terminate()
            proc.wait(30)


def capacity(kernel: float, server: float, cpu: float) -> dict:
    """Learners per box: the smaller of the memory bound and the CPU bound."""
    out = {}
    for name, (memory, cores) in BOXES.items():
        by_memory = int((memory - RESERVED) // (kernel + server))
        by_cpu = int(cores * CPU_UTILISATION * RUN_ALL_EVERY_S // cpu)
        out[name] = {"by_memory": by_memory, "by_cpu": by_cpu, "learners": min(by_memory, by_cpu)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", default="1,10,40")
    parser.add_argument("--notebook", default="10_dynamic_batch")
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    path = os.path.join(ROOT, "notebooks", opts.notebook + ".ipynb")
    with tempfile.TemporaryDirectory(prefix="acl-teach-class-cache-") as cache, \
            tempfile.TemporaryDirectory(prefix="acl-teach-own-cache-") as own:  # removed afterwards (55 MiB)
        measure(opts, path, cache, own)


def measure(opts, path: str, cache: str, own: str) -> None:
    """Build the class cache, run the waves, print the table and the capacity."""
    env = dict(os.environ, ACL_TEACH_CACHE=cache)
    subprocess.run([sys.executable, "-c", "from acl_teach.toolchain import assets as a\n"
                    "a.default_om(); a.dynamic_batch_om(); a.aipp_om(); a.op_model_dir()"], env=env, check=True)
    os.environ["ACL_TEACH_SHARED_CACHE"] = cache  # warm and shared, as on a class server
    for name, value in thread_env(Classroom().cpu_limit).items():  # the thread pools a class spawner sets
        os.environ.setdefault(name, value)
    os.environ["ACL_TEACH_CACHE"] = own
    rows = []
    for k in [int(x) for x in opts.k.split(",")]:
        res = asyncio.run(wave(path, k))
        ran = [r for r in res if "pss" in r] or [{"pss": 0, "peak": 0, "cpu": 0, "start_cpu": 0, "wall": 0}]
        row = {"k": k, "pss_mib": sum(r["pss"] for r in ran) / len(ran) / (1 << 20),
               "peak_pss_mib": max(r["peak"] for r in ran) / (1 << 20),
               "cpu_s": sum(r["cpu"] for r in ran) / len(ran),
               "start_cpu_s": sum(r["start_cpu"] for r in ran) / len(ran),
               "wall_s": max(r["wall"] for r in ran),
               "failed": [r["failed"] for r in res if r["failed"]]}
        rows.append(row)
        if not opts.json:
            print(f"K={k:3d}: PSS per kernel {row['pss_mib']:6.0f} MiB (peak {row['peak_pss_mib']:.0f}), CPU "
                  f"{row['cpu_s']:5.2f} s per kernel ({row['start_cpu_s']:.2f} of it the kernel's start), "
                  f"Run All wall {row['wall_s']:6.1f} s, {k - len(row['failed'])}/{k} succeeded", flush=True)
            for why in row["failed"][:3]:
                print("   failed:", why)
    server = server_pss()
    worst_kernel = max(r["pss_mib"] for r in rows) * (1 << 20)
    cpu = max(r["cpu_s"] for r in rows)
    cap = capacity(worst_kernel, server, cpu)
    report = {"notebook": opts.notebook, "rows": rows, "server_pss_mib": server / (1 << 20), "capacity": cap}
    if opts.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"one idle single-user server: {server / (1 << 20):.0f} MiB PSS")
        for name, c in cap.items():
            print(f"{name}: {c['learners']} learners (memory allows {c['by_memory']}, CPU {c['by_cpu']} at one "
                  f"Run All per learner per {RUN_ALL_EVERY_S // 60} min)")


if __name__ == "__main__":
    main()
