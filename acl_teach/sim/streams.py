"""Streams and host callbacks: create/destroy/synchronize, subscribe_report, launch_callback, process_report.

A stream is an ordered task queue on the device. The simulator runs the queue when someone
waits for it: ``synchronize_stream``, or a subscribed thread's ``process_report`` (which is how
the official async sample gets its callbacks without blocking the main thread). So results of
async work are guaranteed only after ``synchronize_stream`` — exactly the real rule. A callback
task hands ``fn(user_data)`` to the thread subscribed to the stream; with ACL_CALLBACK_BLOCK the
stream waits until that thread ran it.
"""
from __future__ import annotations

import collections
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple

from . import constants as C
from ._args import CONTEXT, INIT, binding
from .runtime import Context, current_context
from .state import fail, state

TaskResult = Optional[Tuple[int, str]]


@dataclass
class Task:
    """One queued device operation; ``run`` returns None or (error code, reason)."""

    label: str
    run: Callable[[], TaskResult]


@dataclass
class CallbackTask:
    """A queued host callback and the thread that must run it."""

    fn: Callable[[Any], Any]
    user_data: Any
    block: bool
    thread_id: int
    done: threading.Event = field(default_factory=threading.Event)
    posted: bool = False
    label: str = "callback"


@dataclass
class Stream:
    """A task queue in one context."""

    context: int
    is_default: bool
    tasks: Deque[Any] = field(default_factory=collections.deque)
    lock: threading.Lock = field(default_factory=threading.Lock)
    subscriber: int = 0
    error: Optional[Tuple[int, str]] = None


class Reports:
    """Callbacks waiting for the subscribed threads' process_report, and who subscribed what."""

    def __init__(self) -> None:
        self.pending: Dict[int, Deque[CallbackTask]] = collections.defaultdict(collections.deque)
        self.wake = threading.Condition()

    def post(self, cb: CallbackTask) -> None:
        with self.wake:
            self.pending[cb.thread_id].append(cb)
            self.wake.notify_all()

    def notify(self) -> None:
        with self.wake:
            self.wake.notify_all()


def reports() -> Reports:
    """The callback mailbox of the current simulated process."""
    subs = state().subsystems
    if "reports" not in subs:
        subs["reports"] = Reports()
    return subs["reports"]


def new_stream(context: int, is_default: bool = False) -> int:
    """Create a stream in ``context`` and record it."""
    st = state()
    handle = st.new_handle(Stream(context, is_default))
    ctx = st.lookup(context, Context)
    if not is_default:
        ctx.streams.append(handle)
    st.ledger.add("default stream" if is_default else "stream", handle, f"in context {context:#x}")
    return handle


def release_stream(handle: int, by: str) -> None:
    """Forget a stream (pending tasks are dropped, its subscription ends)."""
    st = state()
    stream = st.lookup(handle, Stream)
    if stream is None:
        return
    if stream.tasks:
        print(f"[acl-teach sim] {by}: stream {handle:#x} still had {len(stream.tasks)} unfinished task(s); "
              f"they were dropped. Call acl.rt.synchronize_stream before destroying a stream.",
              file=sys.stderr)
        stream.tasks.clear()
    ctx = st.lookup(stream.context, Context)
    if ctx is not None and handle in ctx.streams:
        ctx.streams.remove(handle)
    if stream.subscriber:
        st.ledger.release(_subscription_key(stream.subscriber, handle), by)
    st.handles.pop(handle, None)
    st.ledger.release(handle, by)


def _subscription_key(thread_id: int, stream: int) -> tuple:
    return ("subscription", stream)


def resolve_stream(api: str, stream: int) -> Tuple[int, int]:
    """(stream handle, 0) for ``stream`` (0 = current context's default stream), or (0, code)."""
    ctx_handle, ret = current_context(api)
    if ret:
        return 0, ret
    st = state()
    if stream == 0:
        return st.lookup(ctx_handle, Context).default_stream, 0
    obj = st.lookup(stream, Stream)
    if obj is None:
        return 0, fail(107000, api, f"stream {st.describe_handle(stream)} is not a live stream.")
    if obj.context != ctx_handle:
        return 0, fail(107003, api, f"stream {stream:#x} belongs to context {obj.context:#x}, but this "
                       f"thread's current context is {ctx_handle:#x}.")
    return stream, 0


def enqueue(handle: int, label: str, run: Callable[[], TaskResult]) -> None:
    """Append a device task to a stream."""
    state().lookup(handle, Stream).tasks.append(Task(label, run))
    reports().notify()


def _run_callback(cb: CallbackTask) -> None:
    try:
        cb.fn(cb.user_data)
    except Exception:  # a callback's failure must not kill the worker thread
        print("[acl-teach sim] a callback launched with acl.rt.launch_callback raised:", file=sys.stderr)
        traceback.print_exc()
    finally:
        cb.done.set()


def _drain_locked(stream: Stream, timeout: float) -> int:
    """Run a stream's tasks in order (caller holds stream.lock); 0, or 507046 on a callback timeout."""
    me = threading.get_ident()
    while stream.tasks:
        task = stream.tasks[0]
        if isinstance(task, CallbackTask):
            if task.thread_id == me:
                _run_callback(task)
            else:
                if not task.posted:
                    task.posted = True
                    reports().post(task)
                if task.block and not task.done.wait(timeout):
                    return 507046
        else:
            outcome = task.run()
            if outcome and stream.error is None:
                stream.error = outcome
        stream.tasks.popleft()
    return 0


@binding("acl.rt.create_stream", needs=CONTEXT, outs=1)
def create_stream(api):
    """(stream, ret): a new stream in the current context."""
    ctx = current_context(api)[0]
    with state().lock:
        return new_stream(ctx), 0


@binding("acl.rt.destroy_stream", "k", needs=INIT)
def destroy_stream(api, stream):
    """Destroy a stream you created (synchronize it first)."""
    st = state()
    if stream == 0:
        return fail(100000, api, "stream is 0 (NULL); the default stream is not destroyed by you.")
    obj = st.lookup(stream, Stream)
    if obj is None or obj.is_default:
        return fail(107000, api, f"{st.describe_handle(stream)} is not a stream you created.")
    with st.lock:
        release_stream(stream, api)
    return 0


@binding("acl.rt.synchronize_stream", "k", needs=INIT)
def synchronize_stream(api, stream):
    """Block until every task queued on ``stream`` has run; report the first async failure."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    obj = state().lookup(handle, Stream)
    timeout = state().config.wait_timeout_s
    if not obj.lock.acquire(timeout=timeout):
        return fail(507046, api, "another thread kept the stream busy for too long.")
    try:
        if _drain_locked(obj, timeout):
            return fail(507046, api, f"a BLOCK callback waited {timeout:.0f} s for its subscribed thread; "
                        f"that thread is not calling acl.rt.process_report.")
        error, obj.error = obj.error, None
    finally:
        obj.lock.release()
    if error:
        return fail(error[0], api, f"an earlier async task failed: {error[1]}.")
    return 0


@binding("acl.rt.subscribe_report", "Kk", needs=INIT)
def subscribe_report(api, thread_id, stream):
    """Make ``thread_id`` (from acl.util.start_thread) the callback thread of ``stream``."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    if thread_id not in {t.ident for t in threading.enumerate()}:
        # UNCONFIRMED code for a thread id that is not a running thread.
        return fail(100000, api, f"thread id {thread_id} is not a running thread; use the id from "
                    f"acl.util.start_thread.")
    obj = state().lookup(handle, Stream)
    if obj.subscriber:
        # UNCONFIRMED for pyACL: the C API documents 100033 for a repeated subscription.
        return fail(100033, api, f"stream {handle:#x} is already subscribed by thread {obj.subscriber}.")
    obj.subscriber = thread_id
    state().ledger.add("subscription", handle, f"thread {thread_id} -> stream {handle:#x}",
                       key=_subscription_key(thread_id, handle))
    reports().notify()
    return 0


@binding("acl.rt.unsubscribe_report", "Kk", needs=INIT)
def unsubscribe_report(api, thread_id, stream):
    """End a subscription made by subscribe_report."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    obj = state().lookup(handle, Stream)
    if obj.subscriber != thread_id:
        return fail(100034, api, f"thread {thread_id} is not subscribed to stream {handle:#x}.")
    obj.subscriber = 0
    state().ledger.release(_subscription_key(thread_id, handle), api)
    return 0


@binding("acl.rt.launch_callback", "OOik", needs=INIT)
def launch_callback(api, fn, user_data, block_type, stream):
    """Queue ``fn(user_data)`` on the stream, to run in the stream's subscribed thread."""
    if not callable(fn):
        raise TypeError("parameter must be callable\n[acl-teach] argument 1 (fn) of "
                        "acl.rt.launch_callback must be a function taking one argument (user_data).")
    if block_type not in (C.ACL_CALLBACK_NO_BLOCK, C.ACL_CALLBACK_BLOCK):
        return fail(100000, api, f"block_type {block_type} must be ACL_CALLBACK_NO_BLOCK (0) or "
                    f"ACL_CALLBACK_BLOCK (1).")
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    obj = state().lookup(handle, Stream)
    if not obj.subscriber:
        return fail(107015, api, f"no thread is subscribed to stream {handle:#x}.")
    obj.tasks.append(CallbackTask(fn, user_data, block_type == C.ACL_CALLBACK_BLOCK, obj.subscriber))
    reports().notify()
    return 0


def _my_streams(me: int) -> List[Stream]:
    return [s for s in list(state().handles.values()) if isinstance(s, Stream) and s.subscriber == me]


def _take_pending(me: int) -> Optional[CallbackTask]:
    box = reports()
    with box.wake:
        queue = box.pending.get(me)
        return queue.popleft() if queue else None


@binding("acl.rt.process_report", "i", needs=INIT)
def process_report(api, timeout_ms):
    """Run callbacks due for this thread, waiting up to ``timeout_ms`` (-1 = forever) for one.

    Returns 0 when at least one callback ran, 507012 on timeout (UNCONFIRMED: samples ignore
    it), 100035 when this thread is subscribed to no stream (UNCONFIRMED).
    """
    if timeout_ms < -1:
        return fail(100000, api, f"timeout {timeout_ms} must be -1 (wait forever) or >= 0 milliseconds.")
    me = threading.get_ident()
    deadline = None if timeout_ms == -1 else time.monotonic() + timeout_ms / 1000.0
    box = reports()
    while True:
        ran = 0
        cb = _take_pending(me)
        while cb is not None:
            _run_callback(cb)
            ran += 1
            cb = _take_pending(me)
        mine = _my_streams(me)
        for stream in mine:
            if stream.tasks and stream.lock.acquire(blocking=False):
                try:
                    before = sum(isinstance(t, CallbackTask) for t in stream.tasks)
                    _drain_locked(stream, state().config.wait_timeout_s)
                    ran += before - sum(isinstance(t, CallbackTask) for t in stream.tasks)
                finally:
                    stream.lock.release()
        if ran:
            return 0
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            if not mine:
                return fail(100035, api, "this thread is not subscribed to any stream "
                            "(acl.rt.subscribe_report(thread_id, stream)).", quiet=True)
            return fail(507012, api, f"no callback arrived within {timeout_ms} ms.", quiet=True)
        with box.wake:
            box.wake.wait(0.05 if remaining is None else min(remaining, 0.05))

