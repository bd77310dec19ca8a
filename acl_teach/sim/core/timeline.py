"""The simulated device clock: how long each task would take, when it starts and ends, and the record of it.

*simulator:* none of these numbers is measured on a board. Each stream has its own clock in
simulated microseconds; a task starts when its stream is free and the host has submitted it,
and lasts what the cost model below says. The host clock advances only by synchronous device
work (``memcpy``, ``execute`` …) and by waiting (``synchronize_*``); Python's own time between
calls counts as zero, so the same program always gives the same times. That is what makes
``event_elapsed_time`` meaningful (it measures the simulated work between two events) and what
``acl.prof`` writes into its timeline.

Cost model (UNCONFIRMED, chosen to be of the order of an Atlas 300I / 200I DK A2):
a fixed launch cost per task, copies at a bandwidth per direction, DVPP tasks by their pixels (media/dvpp/cost.py),
model and operator runs at
``MACS_PER_US`` multiply-accumulates per microsecond plus their weights and tensors read once at
``DEVICE_BYTES_PER_US``.
"""
from __future__ import annotations

import contextlib
import itertools
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .state import state

LAUNCH_US = 2.0                      # per task: the runtime's launch cost
COPY_BYTES_PER_US = {0: 20_000.0,    # host -> host        (20 GB/s)
                     1: 12_000.0,    # host -> device      (PCIe-class, 12 GB/s)
                     2: 12_000.0,    # device -> host
                     3: 100_000.0}   # device -> device    (HBM/DDR, 100 GB/s)
MACS_PER_US = 4_000_000.0            # 8 TFLOPS fp16 = 4 T MAC/s
DEVICE_BYTES_PER_US = 50_000.0       # 50 GB/s for weights and tensors
MODEL_OVERHEAD_US = 20.0             # per model execution
OP_OVERHEAD_US = 5.0                 # per single-operator execution
NODE_LAUNCH_US = 1.0                 # per graph node inside a model run (its kernel's start-up)


def copy_cost(count: int, kind: int) -> float:
    """Simulated microseconds of a copy of ``count`` bytes in direction ``kind``."""
    return LAUNCH_US + count / COPY_BYTES_PER_US.get(kind, COPY_BYTES_PER_US[3])


def fill_cost(count: int) -> float:
    """Simulated microseconds of a memset of ``count`` bytes."""
    return LAUNCH_US + count / COPY_BYTES_PER_US[3]


def compute_cost(macs: float, nbytes: float, overhead: float = MODEL_OVERHEAD_US) -> float:
    """Simulated microseconds of a computation of ``macs`` multiply-accumulates touching ``nbytes``."""
    return LAUNCH_US + overhead + macs / MACS_PER_US + nbytes / DEVICE_BYTES_PER_US


@dataclass
class Slice:
    """One finished piece of simulated work (or a mark / range) as the timeline shows it."""

    name: str
    cat: str            # "memcpy", "model", "op", "event", "callback", "mark", "range", "host" …
    lane: str           # "stream 0x…", "host", "thread 123"
    start_us: float
    dur_us: float
    args: Dict[str, Any] = field(default_factory=dict)


class Clock:
    """The simulated host clock and the log of finished slices of one simulated process."""

    def __init__(self) -> None:
        self._host_us = 0.0
        self.lock = threading.Lock()
        self.slices: List[Slice] = []
        self.recording = 0  # > 0 while acl.prof (or acl.init's profiler section) collects
        self._task_ids = itertools.count(1)
        self.last_task: Dict[int, int] = {}

    @property
    def host_us(self) -> float:
        """The host clock as this thread sees it: a callback thread is no earlier than the report it runs."""
        return max(self._host_us, getattr(_tls, "floor_us", 0.0))

    @host_us.setter
    def host_us(self, value: float) -> None:
        self._host_us = value

    def next_task_id(self) -> int:
        """A fresh task id (what exception info reports), remembered as this thread's last one."""
        task_id = next(self._task_ids) & 0xFFFFFFFF
        self.last_task[threading.get_native_id()] = task_id
        return task_id

    def advance_host(self, until_us: float) -> None:
        """The host waited for the device up to ``until_us``."""
        with self.lock:
            self.host_us = max(self.host_us, until_us)

    def host_work(self, name: str, cat: str, cost_us: float, args: Optional[Dict[str, Any]] = None) -> Tuple[float, float]:
        """A synchronous device call: it starts now on the host clock and the host waits for it."""
        with self.lock:
            start = self.host_us
            self.host_us = start + cost_us
        self.log(name, cat, "synchronous calls", start, cost_us, args)
        return start, start + cost_us

    def log(self, name: str, cat: str, lane: str, start: float, dur: float,
            args: Optional[Dict[str, Any]] = None) -> None:
        """Keep a finished slice for the profiler (only while one collects)."""
        if self.recording:
            with self.lock:
                self.slices.append(Slice(name, cat, lane, start, dur, dict(args or {})))

    def on_finalize(self, by: str) -> None:
        """A finalized process keeps its clock (timestamps never run backwards) but no longer records."""
        self.recording = 0


_tls = threading.local()  # the stream task running in this thread, if any (set by begin/finish)


@contextlib.contextmanager
def reported_at(done_us: float) -> Iterator[None]:
    """Run a callback for device work that finished at ``done_us``: this thread's clock is no earlier.

    Only the callback's thread waits (process_report), so other threads' times stay as they were
    and a program's timeline does not depend on when the callback thread got to run.
    """
    before = getattr(_tls, "floor_us", 0.0)
    _tls.floor_us = max(before, done_us)
    try:
        yield
    finally:
        _tls.floor_us = before


def charge(name: str, cat: str, cost_us: float, args: Optional[Dict[str, Any]] = None) -> float:
    """Bill ``cost_us`` to the stream task running in this thread, else run it as synchronous work.

    Returns the simulated start time of the work, so a model run can place its operators.
    """
    task = getattr(_tls, "task", None)
    if task is not None:
        start = _tls.stream.clock_us + float(task.cost_us or 0.0)
        task.cost_us = float(task.cost_us or 0.0) + cost_us
        return start
    return clock().host_work(name, cat, cost_us, args)[0]


MODEL_HOOKS: List[Any] = []  # called as hook(model_id, start_us, RunCost) after each model run (prof.py)


def current_lane() -> str:
    """The timeline row of the work being billed in this thread: its stream, or the synchronous calls."""
    stream = getattr(_tls, "stream", None)
    return stream_lane(stream.handle) if stream is not None else "synchronous calls"


def clock() -> Clock:
    """The simulated clock of the current process."""
    subs = state().subsystems
    if "clock" not in subs:
        subs["clock"] = Clock()
    return subs["clock"]


def stream_lane(handle: int) -> str:
    """The timeline row of a stream."""
    return f"stream {handle:#x}"


SELF_LOGGED = ("mark", "step")  # tasks that put their own instant on the timeline (prof.py)


def begin(stream: Any, task: Any) -> float:
    """Start ``task`` on ``stream``'s clock (when the stream is free and the host has submitted it)."""
    start = max(getattr(stream, "clock_us", 0.0), getattr(task, "submitted_us", 0.0))
    stream.clock_us = start
    _tls.task, _tls.stream = task, stream
    return start


def finish(stream: Any, task: Any, start: float, outcome: Any = None) -> None:
    """Advance ``stream``'s clock past ``task`` and log it."""
    _tls.task = _tls.stream = None
    cost = float(getattr(task, "cost_us", 0.0) or 0.0)
    stream.clock_us = max(stream.clock_us, start) + cost
    if getattr(task, "cat", "") in SELF_LOGGED:
        return
    args = {"result": f"failed: {outcome[0]}" if outcome else "ok"}
    clock().log(task.label, getattr(task, "cat", "task"), stream_lane(getattr(stream, "handle", 0)),
                start, stream.clock_us - start, args)
