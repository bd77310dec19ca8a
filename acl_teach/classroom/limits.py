"""Per-learner memory and CPU limits, by what this machine has: cgroup v2, cgroup v1, or rlimits as a fallback.

JupyterHub's LocalProcessSpawner ignores ``mem_limit``/``cpu_limit``; the class spawner enforces them here. With
cgroups (v2 ``memory.max``/``cpu.max`` or v1 ``memory.limit_in_bytes``/``cpu.cfs_quota_us``) a learner's server
and every kernel it starts share one group under ``acl-teach/<user>``: the limit is per learner, whatever they run.
Without writable cgroups only rlimits are left (``RLIMIT_AS`` per process — a coarse bound, not a per-learner
total — and a nice level instead of a CPU share); ``mechanism()`` says which one is in force. On a machine run by
systemd, JupyterHub's own SystemdSpawner is the better choice (see hub.py).
"""
from __future__ import annotations

import os
import resource
from typing import Optional

CGROUP_ROOT = "/sys/fs/cgroup"
GROUP = "acl-teach"
PERIOD_US = 100_000
FALLBACK_AS_FACTOR = 4  # RLIMIT_AS counts reserved address space (ONNX Runtime reserves a lot), not memory used
FALLBACK_NICE = 10


def thread_env(cpu_limit: Optional[float]) -> dict:
    """Thread counts for a learner's processes that match their CPU share: ONNX Runtime's and OpenBLAS's pools
    default to one thread per core of the machine, and their idle threads spin, which a CPU-limited learner pays
    for in CPU-seconds (and the class in throughput) for no speed-up."""
    n = str(max(1, int(cpu_limit))) if cpu_limit else "1"
    return {"ACL_TEACH_SIM_THREADS": n, "OPENBLAS_NUM_THREADS": n, "OMP_NUM_THREADS": n}


def parse_bytes(text) -> int:
    """'1G', '512M', '2048K' or a number of bytes (JupyterHub's mem_limit syntax) as bytes."""
    if isinstance(text, int):
        return text
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    text = str(text).strip().upper().rstrip("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def _writable(path: str) -> bool:
    """True when this process may create groups below path."""
    return os.path.isdir(path) and os.access(path, os.W_OK)


def _v2_ok() -> bool:
    """cgroup v2 unified hierarchy at the root with the memory and cpu controllers."""
    try:
        with open(os.path.join(CGROUP_ROOT, "cgroup.controllers")) as fh:
            controllers = fh.read().split()
    except OSError:
        return False
    return {"memory", "cpu"} <= set(controllers) and _writable(CGROUP_ROOT)


def _v1_ok() -> bool:
    """cgroup v1 with writable memory and cpu hierarchies."""
    return all(_writable(os.path.join(CGROUP_ROOT, c)) and
               os.path.isfile(os.path.join(CGROUP_ROOT, c, "cgroup.procs")) for c in ("memory", "cpu"))


def mechanism() -> str:
    """'cgroup2', 'cgroup1' or 'rlimit': how limits are enforced here (cgroups need root)."""
    if os.environ.get("ACL_TEACH_LIMITS") in ("cgroup2", "cgroup1", "rlimit"):
        return os.environ["ACL_TEACH_LIMITS"]
    if _v2_ok():
        return "cgroup2"
    if _v1_ok():
        return "cgroup1"
    return "rlimit"


def _write(path: str, value: str) -> None:
    """Write one cgroup control file."""
    with open(path, "w") as fh:
        fh.write(value)


def group_dirs(user: str, kind: Optional[str] = None) -> list:
    """The cgroup folders of one learner (one for v2, memory + cpu for v1; none for rlimits)."""
    kind = kind or mechanism()
    if kind == "cgroup2":
        return [os.path.join(CGROUP_ROOT, GROUP, user)]
    if kind == "cgroup1":
        return [os.path.join(CGROUP_ROOT, c, GROUP, user) for c in ("memory", "cpu")]
    return []


def prepare(user: str, mem_limit: Optional[int], cpu_limit: Optional[float]) -> str:
    """Create (or update) the learner's group with its limits, as root before the spawn; returns the mechanism."""
    kind = mechanism()
    if kind == "cgroup2":
        parent = os.path.join(CGROUP_ROOT, GROUP)
        os.makedirs(parent, exist_ok=True)
        for folder in (CGROUP_ROOT, parent):  # let the children have memory and cpu controllers
            _write(os.path.join(folder, "cgroup.subtree_control"), "+memory +cpu")
        folder = os.path.join(parent, user)
        os.makedirs(folder, exist_ok=True)
        _write(os.path.join(folder, "memory.max"), str(mem_limit) if mem_limit else "max")
        if os.path.exists(os.path.join(folder, "memory.swap.max")):
            _write(os.path.join(folder, "memory.swap.max"), "0")
        quota = str(int(cpu_limit * PERIOD_US)) if cpu_limit else "max"
        _write(os.path.join(folder, "cpu.max"), f"{quota} {PERIOD_US}")
    elif kind == "cgroup1":
        mem, cpu = group_dirs(user, kind)
        os.makedirs(mem, exist_ok=True)
        os.makedirs(cpu, exist_ok=True)
        _write(os.path.join(mem, "memory.limit_in_bytes"), str(mem_limit) if mem_limit else "-1")
        _write(os.path.join(cpu, "cpu.cfs_period_us"), str(PERIOD_US))
        _write(os.path.join(cpu, "cpu.cfs_quota_us"), str(int(cpu_limit * PERIOD_US)) if cpu_limit else "-1")
    return kind


def join(user: str, mem_limit: Optional[int], kind: Optional[str] = None) -> None:
    """Put the calling process in the learner's group (a preexec_fn, still root); rlimits when no cgroups."""
    kind = kind or mechanism()
    if kind == "rlimit":
        if mem_limit:
            cap = mem_limit * FALLBACK_AS_FACTOR
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        os.nice(FALLBACK_NICE)
        return
    for folder in group_dirs(user, kind):
        _write(os.path.join(folder, "cgroup.procs"), str(os.getpid()))


def limits_of(user: str) -> dict:
    """The limits the kernel applies to a learner's group now (for tests and `classroom status`)."""
    kind = mechanism()
    if kind == "cgroup2":
        folder = group_dirs(user, kind)[0]
        with open(os.path.join(folder, "memory.max")) as fh:
            mem = fh.read().strip()
        with open(os.path.join(folder, "cpu.max")) as fh:
            quota, period = fh.read().split()
        return {"mechanism": kind, "memory": None if mem == "max" else int(mem),
                "cpu": None if quota == "max" else int(quota) / int(period)}
    if kind == "cgroup1":
        mem, cpu = group_dirs(user, kind)
        with open(os.path.join(mem, "memory.limit_in_bytes")) as fh:
            limit = int(fh.read())
        with open(os.path.join(cpu, "cpu.cfs_quota_us")) as fh:
            quota = int(fh.read())
        with open(os.path.join(cpu, "cpu.cfs_period_us")) as fh:
            period = int(fh.read())
        return {"mechanism": kind, "memory": None if limit >= 1 << 62 else limit,
                "cpu": None if quota < 0 else quota / period}
    return {"mechanism": kind, "memory": None, "cpu": None}


def members(user: str) -> list:
    """The pids in a learner's group (empty for rlimits)."""
    pids = []
    for folder in group_dirs(user)[:1]:
        try:
            with open(os.path.join(folder, "cgroup.procs")) as fh:
                pids = [int(x) for x in fh.read().split()]
        except OSError:
            pass
    return pids


def remove(user: str) -> None:
    """Remove a learner's (empty) groups, e.g. when the account is deleted; a group still in use stays."""
    for folder in group_dirs(user):
        try:
            os.rmdir(folder)
        except OSError:
            pass
