"""How VDEC and VENC hand their results to the user's callback thread, as pyACL does.

A VDEC/VENC channel is bound to the thread id set on its channel desc: creating the channel
subscribes that thread to the channel's own (hidden) stream, and every finished frame becomes a
report that the thread runs inside ``acl.rt.process_report`` — the samples' callback thread loops on
it until an exit flag is set. This module is that hidden stream plus the reports it posts (the
callback machinery of rt/stream.py, reused), and the wait ``*_destroy_channel`` does until every
callback has run. Nothing waits forever: past ``config.wait_timeout_s``, or when the thread has
exited, the wait stops and says so (UNCONFIRMED: a board would wait).

The channel is also a row of the simulated timeline (timeline.py): each frame the unit works on (in
a job posted here, run by the callback thread) is a slice on ``row`` ("VDEC channel 0"), placed
after the previous frame and after the host sent it,
lasting what media/dvpp/cost.py says; its callback runs no earlier than the slice ends (process_report
is a wait: the callback thread's clock is at that end while the user's callback runs), and
``*_destroy_channel``, which waits for every callback, moves the host clock past the last frame.
The callback semantics are unchanged: the same callbacks, in the same order, on the same thread.
"""
from __future__ import annotations

import contextlib
import functools
import sys
import threading
import time
import traceback
from typing import Any, Callable, Dict, List, Optional

from ..rt.stream import CallbackTask, Stream, reports, thread_alive
from ..core.state import state
from ..core.timeline import clock, reported_at


@functools.lru_cache(maxsize=None)
def av() -> Any:
    """PyAV (it bundles FFmpeg), imported when the first channel opens and kept: no import runs again, so a channel
    closed from a ``__del__`` at interpreter shutdown (when the import system is gone) still works."""
    import av as module
    return module


class Lane:
    """One channel's route to its callback thread: a subscribed hidden stream and the reports posted on it."""

    def __init__(self, context: int, thread_id: int, what: str) -> None:
        self.thread_id = thread_id
        self.what = what
        self.posted: List[CallbackTask] = []
        self.stream = Stream(context, False, subscriber=thread_id)
        self.handle = state().new_handle(self.stream)  # process_report finds the thread's subscription here
        self.row = f"{what} channel"  # the timeline row (the channel sets its id in)
        self.clock_us = clock().host_us  # simulated time this channel's unit has reached

    def work(self, name: str, cat: str, cost_us: float, ready_us: float,
             args: Optional[Dict[str, Any]] = None) -> float:
        """One frame on this channel's unit: after the previous one and after ``ready_us``; its end (µs)."""
        start = max(self.clock_us, ready_us)
        self.clock_us = start + cost_us
        clock().log(name, cat, self.row, start, cost_us, args)
        return self.clock_us

    def post(self, run: Callable[[], None], label: str) -> None:
        """Queue ``run()`` for the callback thread (it runs in that thread's next process_report)."""
        task = CallbackTask(lambda _unused: self._guarded(run, label), None, False, self.thread_id, label=label)
        task.posted = True
        self.posted = [t for t in self.posted if not t.done.is_set()] + [task]
        reports().post(task)

    def call(self, run: Callable[[], None], label: str, done_us: Optional[float] = None) -> None:
        """Run a user callback now (on the callback thread, inside a posted job), reporting what it raises.

        ``done_us``: when the unit finished the work it reports (default: the lane's clock, its last frame's end).
        """
        self._guarded(run, label, self.clock_us if done_us is None else done_us)

    def _guarded(self, run: Callable[[], None], label: str, ready_us: Optional[float] = None) -> None:
        """A callback that raises is reported and the thread goes on, as the binding logs and returns."""
        try:
            # the report arrives when the unit finished the frame (a posted job itself has no such time)
            with reported_at(ready_us) if ready_us is not None else contextlib.nullcontext():
                run()
        except Exception:  # noqa: BLE001 - the user's callback: report, never kill the callback thread
            print(f"[acl-teach sim] the {self.what} callback raised ({label}):", file=sys.stderr)
            traceback.print_exc()

    def wait_all(self) -> str:
        """Wait until every posted callback ran: '' or why the wait stopped early (the host waited for the unit)."""
        why = self._wait()
        clock().advance_host(self.clock_us)  # after the wait: the unit's work runs on the callback thread
        return why

    def _wait(self) -> str:
        """The wait itself: '' or why it stopped early."""
        if threading.get_ident() == self.thread_id:  # destroyed from inside a callback: run what is left here
            for task in self._unqueue():
                task.fn(None)
                task.done.set()
            return ""
        deadline = time.monotonic() + state().config.wait_timeout_s
        for task in self.posted:
            while not task.done.wait(0.02):
                if not thread_alive(self.thread_id):
                    return (f"the callback thread {self.thread_id} has exited, so "
                            f"{sum(not t.done.is_set() for t in self.posted)} callback(s) never ran")
                if time.monotonic() >= deadline:
                    return (f"the callback thread {self.thread_id} did not call acl.rt.process_report within "
                            f"{state().config.wait_timeout_s:.0f} s")
        return ""

    def _unqueue(self) -> List[CallbackTask]:
        """Take this lane's callbacks out of the thread's mailbox, in order (they are run here, or dropped)."""
        box = reports()
        with box.wake:
            queue = box.pending.get(self.thread_id)
            mine = [t for t in (queue or ()) if any(t is p for p in self.posted)]
            for task in mine:
                queue.remove(task)
        return mine

    def close(self) -> None:
        """End the hidden subscription (after wait_all); callbacks still queued are dropped."""
        self._unqueue()
        self.posted = []  # the tasks hold the user's callback: drop them, as the binding DECREFs it
        self.stream.subscriber = None
        self.stream.destroyed = True
        state().handles.pop(self.handle, None)
