"""Streams and host callbacks: create/destroy/synchronize, subscribe_report, launch_callback, process_report.

A stream is an ordered task queue on the device. The simulator runs the queue when someone
waits for it: ``synchronize_stream``, or a subscribed thread's ``process_report`` (which is how
the official async sample gets its callbacks without blocking the main thread). So results of
async work are guaranteed only after ``synchronize_stream`` — exactly the real rule. A callback
task hands ``fn(user_data)`` to the thread subscribed to the stream; with ACL_CALLBACK_BLOCK the
stream waits until that thread ran it.

Nothing here waits forever: a BLOCK callback whose subscribed thread has exited, or that nobody
processes within ``config.wait_timeout_s``, ends ``synchronize_stream`` with 507046, and
``process_report(-1)`` gives up after the same time (both UNCONFIRMED: real hardware would hang).
"""
from __future__ import annotations

import collections
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, List, Optional, Tuple

from .. import constants as C
from ..core.args import CONTEXT, INIT, binding
from .runtime import Context, current_context
from ..core.state import fail, state, warn
from ..core.timeline import begin, clock, finish

TaskResult = Optional[Tuple[int, str]]


@dataclass
class Task:
    """One queued device operation; ``run`` returns None or (error code, reason)."""

    label: str
    run: Callable[[], TaskResult]
    cost_us: float = 0.0       # simulated duration (timeline.py)
    submitted_us: float = 0.0  # host clock when it was queued
    cat: str = "task"
    task_id: int = 0           # per process, in queueing order (exception info)
    thread_id: int = 0         # native id of the thread that queued it
    fault: int = 507000  # what the task reports if its body raises (ACL_ERROR_RT_INTERNAL_ERROR unless told)


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
    subscriber: Optional[int] = None  # thread id from subscribe_report (0 is a valid id)
    error: Optional[Tuple[int, str]] = None
    destroyed: bool = False
    running: Any = None  # the task being run now (a callback may destroy the stream it runs on)
    dropped: List[Any] = field(default_factory=list)  # tasks still queued when the stream was destroyed
    handle: int = 0
    clock_us: float = 0.0  # simulated time this stream has reached (timeline.py)


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

    def on_finalize(self, by: str) -> None:
        """finalize drops callbacks nobody will run any more."""
        with self.wake:
            self.pending.clear()
            self.wake.notify_all()


def reports() -> Reports:
    """The callback mailbox of the current simulated process."""
    subs = state().subsystems
    if "reports" not in subs:
        subs["reports"] = Reports()
    return subs["reports"]


NEW_STREAM_HOOKS: List[Callable[[int], None]] = []  # stream_config.py: numbers each stream when it is made


def new_stream(context: int, is_default: bool = False) -> int:
    """Create a stream in ``context`` and record it."""
    st = state()
    obj = Stream(context, is_default, clock_us=clock().host_us)
    handle = obj.handle = st.new_handle(obj)
    ctx = st.lookup(context, Context)
    if not is_default:
        ctx.streams.append(handle)
    where = (f"the default context of device {ctx.device_id}" if ctx.is_default
             else f"a context made by create_context on device {ctx.device_id}")
    detail = (f"of {where}: comes and goes with it (stream 0)" if is_default else f"in {where}")
    st.ledger.add("default stream" if is_default else "stream", handle, detail)
    for hook in NEW_STREAM_HOOKS:
        hook(handle)
    return handle


def release_stream(handle: int, by: str) -> None:
    """Forget a stream (pending tasks are dropped, its subscription ends)."""
    st = state()
    stream = st.lookup(handle, Stream)
    if stream is None:
        return
    stream.destroyed = True  # a synchronize_stream waiting on it (e.g. for a callback) stops cleanly
    stream.dropped = list(stream.tasks)
    if stream.tasks:
        print(f"[acl-teach sim] {by}: stream {handle:#x} still had {len(stream.tasks)} unfinished task(s); "
              f"they were dropped. Call acl.rt.synchronize_stream before destroying a stream.",
              file=sys.stderr)
        stream.tasks.clear()
    ctx = st.lookup(stream.context, Context)
    if ctx is not None and handle in ctx.streams:
        ctx.streams.remove(handle)
    if stream.subscriber is not None:
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


def enqueue(handle: int, label: str, run: Callable[[], TaskResult], api: str = "acl.rt stream",
            cost_us: float = 0.0, cat: str = "task", *, fault: int = 507000) -> int:
    """Append a device task (lasting ``cost_us`` simulated µs) to a stream: 0, or 107000 when it was destroyed.

    ``fault`` is the code the stream reports if ``run`` raises (see ``run_task``).
    """
    stream = state().lookup(handle, Stream)
    if stream is None or stream.destroyed:
        return fail(107000, api, f"stream {handle:#x} was destroyed (by another thread) before the task was queued.")
    stream.tasks.append(Task(label, run, cost_us=cost_us, submitted_us=clock().host_us, cat=cat,
                             task_id=clock().next_task_id(), thread_id=threading.get_native_id(), fault=fault))
    reports().notify()
    return 0


MAX_REASON = 300  # characters of an exception's text kept in a failed task's reason


def run_task(task: Task) -> TaskResult:
    """Run one device task; an exception from its body is a failed task (its ``fault`` code), never a raise.

    The one guard for every queued kind (memcpy, execute, op, JPEGD/JPEGE/VPC and whatever is queued
    later): a task that raises fails once, is dropped from the queue and the stream keeps working, as a
    device reports a faulting kernel instead of wedging the queue.
    """
    try:
        return task.run()
    except Exception as exc:  # noqa: BLE001 - anything the body raises is the device's failure
        lines = str(exc).strip().splitlines()
        text = lines[-1] if lines else type(exc).__name__
        if len(text) > MAX_REASON:
            text = text[:MAX_REASON] + " …"
        return task.fault, f"{task.label} failed on the device: {text} ({type(exc).__name__})"


def thread_alive(thread_id: int) -> bool:
    """True while a Python thread with this id is running."""
    return any(t.ident == thread_id for t in threading.enumerate())


def _run_callback(cb: CallbackTask) -> None:
    """Run a callback once, then drop the references to it and its user_data, as the binding's Py_DECREF does."""
    try:
        cb.fn(cb.user_data)
    except Exception:  # a callback's failure must not kill the worker thread
        print("[acl-teach sim] a callback launched with acl.rt.launch_callback raised:", file=sys.stderr)
        traceback.print_exc()
    finally:
        cb.fn = cb.user_data = None  # a bound method would keep its owner (and what it holds) alive
        cb.done.set()


TIMEOUT, DEAD_THREAD, DESTROYED = "timeout", "dead thread", "destroyed"


def _wait_callback(task: CallbackTask, timeout: float) -> Optional[str]:
    """Wait for a BLOCK callback posted to another thread: None when it ran, else TIMEOUT or DEAD_THREAD."""
    deadline = time.monotonic() + timeout
    while not task.done.wait(min(0.05, max(deadline - time.monotonic(), 0))):
        if not thread_alive(task.thread_id):
            return DEAD_THREAD
        if time.monotonic() >= deadline:
            return TIMEOUT
    return None


FAILURE_HOOKS: List[Callable[[Stream, Task, Tuple[int, str]], None]] = []  # rt/event.py: exception callbacks


def _drain_locked(stream: Stream, timeout: float, until: Any = None) -> Optional[str]:
    """Run a stream's tasks in order (caller holds stream.lock): None, or why it stopped early.

    A task may destroy the stream it runs on (a callback calling destroy_stream): the loop notices
    and stops instead of popping a queue that was emptied under it. ``until``: stop once that task ran.
    """
    me = threading.get_ident()
    while not stream.destroyed:
        try:
            task = stream.tasks[0]
        except IndexError:
            return None
        stream.running = task
        if isinstance(task, CallbackTask):
            if task.thread_id == me:
                _run_callback(task)
            else:
                if not task.posted:
                    task.posted = True
                    reports().post(task)
                if task.block:
                    why = _wait_callback(task, timeout)
                    if why:
                        return why
        else:
            start = begin(stream, task)
            outcome = run_task(task)
            finish(stream, task, start, outcome)
            if outcome and stream.error is None:
                stream.error = outcome
            if outcome:
                for hook in FAILURE_HOOKS:
                    hook(stream, task, outcome)
        if stream.tasks and stream.tasks[0] is task:
            stream.tasks.popleft()
        if not stream.destroyed:
            stream.running = None  # a finished task is not kept (nor what it refers to)
        if task is until:
            return None
    return DESTROYED


@binding("acl.rt.create_stream", needs=CONTEXT, outs=1)
def create_stream(api):
    """(stream, ret): a new stream in the current context."""
    ctx = current_context(api)[0]
    with state().lock:
        return new_stream(ctx), 0


@binding("acl.rt.destroy_stream", "k", needs=INIT)
def destroy_stream(api, stream):
    """Destroy a stream you created (synchronize it first)."""
    with state().lock:
        obj, ret = own_stream(api, stream)
        if ret:
            return ret
        release_stream(stream, api)
    return 0


def own_stream(api: str, stream: int) -> Tuple[Optional[Stream], int]:
    """(the stream, 0) if ``stream`` is one the learner created and may destroy, else (None, pyACL's code)."""
    if stream == 0:
        return None, fail(100000, api, "stream is 0 (NULL); the default stream is not destroyed by you.")
    obj = state().lookup(stream, Stream)
    if obj is None or obj.is_default:
        return None, fail(107000, api, f"{state().describe_handle(stream)} is not a stream you created.")
    return obj, 0


def _stopped_early(api: str, why: str, obj: Stream, timeout: float) -> int:
    """The code synchronize_stream returns when draining stopped before the queue was empty."""
    if why == DESTROYED:
        if not [t for t in obj.dropped if t is not obj.running]:
            return 0  # a callback destroyed the stream as its last task: nothing was left to wait for
        # UNCONFIRMED: what real hardware does when a stream is destroyed while being synchronized
        return fail(107000, api, "the stream was destroyed (by a callback or another thread) while "
                    "synchronize_stream waited on it; its remaining tasks never ran.")
    if why == DEAD_THREAD:
        # UNCONFIRMED: on hardware this would most likely wait forever
        return fail(507046, api, "a BLOCK callback is queued for a thread that has exited, so it can never "
                    "run (subscribe_report keeps a thread id even after its thread returns). Subscribe a "
                    "thread that loops on acl.rt.process_report until you set its exit flag.")
    return fail(507046, api, f"a BLOCK callback waited {timeout:.0f} s for its subscribed thread; "
                f"that thread is not calling acl.rt.process_report.")


def _synchronize(api: str, handle: int) -> int:
    """Drain one stream (the body of synchronize_stream / synchronize_device)."""
    obj = state().lookup(handle, Stream)
    if obj is None:
        return fail(107000, api, f"stream {handle:#x} was destroyed (by another thread).")
    timeout = state().config.wait_timeout_s
    if not obj.lock.acquire(timeout=timeout):
        return fail(507046, api, "another thread kept the stream busy for too long.")
    try:
        why = _drain_locked(obj, timeout)
        error, obj.error = obj.error, None
    finally:
        obj.lock.release()
    clock().advance_host(obj.clock_us)  # the host waited until the stream's simulated clock
    if why:
        return _stopped_early(api, why, obj, timeout)
    if error:
        return fail(error[0], api, f"an earlier async task failed: {error[1]}.")
    return 0


@binding("acl.rt.synchronize_stream", "k", needs=INIT)
def synchronize_stream(api, stream):
    """Block until every task queued on ``stream`` has run; report the first async failure."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    return _synchronize(api, handle)


@binding("acl.rt.synchronize_device", needs=CONTEXT)
def synchronize_device(api):
    """Block until every stream of the current context's device is done; the first failure's code, else 0.

    aclrtSynchronizeDevice (hicann/runtime src/acl/aclrt_impl/device.cpp) waits for the whole
    device; the binding (rt_synchronize.cpp) takes no arguments and returns the bare ret.
    UNCONFIRMED: 107002 without a current context (rtDeviceSynchronize needs one).
    """
    st = state()
    device_id = st.lookup(current_context(api)[0], Context).device_id
    handles = [h for h, obj in list(st.handles.items()) if isinstance(obj, Stream)
               and getattr(st.lookup(obj.context, Context), "device_id", None) == device_id]
    first = 0
    for handle in handles:
        ret = _synchronize(api, handle) if st.lookup(handle, Stream) is not None else 0
        first = first or ret
    return first


@binding("acl.rt.subscribe_report", "Kk", needs=INIT)
def subscribe_report(api, thread_id, stream):
    """Make ``thread_id`` (from acl.util.start_thread) the callback thread of ``stream``.

    The runtime only records the id (aclrtSubscribeReport -> rtSubscribeReport in hicann/runtime
    src/acl/aclrt_impl/callback.cpp checks nothing about the thread), so an id whose thread has
    already returned is accepted: its callbacks then never run. The simulator warns (strict mode:
    100000, UNCONFIRMED), and a BLOCK callback for it ends synchronize_stream with 507046.
    """
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    if not thread_alive(thread_id):
        ret = warn(100000, api, f"thread id {thread_id} is not a running thread (it has returned, or never "
                   f"existed). The runtime records it anyway, but nothing will call process_report for this "
                   f"stream: callbacks launched on it never run. Use the id from acl.util.start_thread of a "
                   f"thread that loops on acl.rt.process_report.")
        if ret:
            return ret
    obj = state().lookup(handle, Stream)
    if obj is None:
        return fail(107000, api, f"stream {handle:#x} was destroyed (by another thread).")
    if obj.subscriber is not None:
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
    if obj is None:
        return fail(107000, api, f"stream {handle:#x} was destroyed (by another thread).")
    if obj.subscriber != thread_id:
        return fail(100034, api, f"thread {thread_id} is not subscribed to stream {handle:#x}.")
    obj.subscriber = None
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
    if obj is None or obj.destroyed:
        return fail(107000, api, f"stream {handle:#x} was destroyed (by another thread).")
    if obj.subscriber is None:
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


def _run_due(me: int, mine: List[Stream]) -> int:
    """Run the callbacks waiting for this thread (posted ones, then those at the head of its streams)."""
    ran = 0
    cb = _take_pending(me)
    while cb is not None:
        _run_callback(cb)
        ran += 1
        cb = _take_pending(me)
    for stream in mine:
        if stream.tasks and stream.lock.acquire(blocking=False):
            try:
                before = sum(isinstance(t, CallbackTask) for t in list(stream.tasks))
                _drain_locked(stream, state().config.wait_timeout_s)
                ran += before - sum(isinstance(t, CallbackTask) for t in list(stream.tasks))
            finally:
                stream.lock.release()
    return ran


def _not_subscribed(api: str) -> int:
    """107012 at once, as rtProcessReport answers a thread it has no subscription for."""
    time.sleep(0.001)  # let other threads run: a worker polling before subscribe_report spins here
    return fail(107012, api, "this thread is not subscribed to any stream "
                "(acl.rt.subscribe_report(thread_id, stream) first, or it was unsubscribed).", quiet=True)


@binding("acl.rt.process_report", "i", needs=INIT)
def process_report(api, timeout_ms):
    """Run callbacks due for this thread, waiting up to ``timeout_ms`` (-1 = forever) for one.

    From hicann/runtime: aclrtProcessReport (src/acl/aclrt_impl/callback.cpp) rejects timeout 0 and
    anything below -1 with 100000; rtProcessReport -> CbSubscribe::GetGroupIdByThreadId
    (src/runtime/core/src/utils/subscribe.cc) answers a thread with no subscription at once with
    RT_ERROR_SUBSCRIBE_THREAD = 107012 ACL_ERROR_RT_THREAD_SUBSCRIBE, whatever the timeout; a wait
    that ends without a report is 507012 ACL_ERROR_RT_REPORT_TIMEOUT. Returns 0 when at least one
    callback ran. UNCONFIRMED simulator choices: -1 gives up after config.wait_timeout_s (507012)
    so a notebook kernel never hangs, and a thread unsubscribed while it waits gets 107012.
    """
    if timeout_ms < -1 or timeout_ms == 0:
        return fail(100000, api, f"timeout {timeout_ms} must be -1 (wait forever) or > 0 milliseconds.")
    me = threading.get_ident()
    if not _my_streams(me):
        return _not_subscribed(api)
    limit = state().config.wait_timeout_s if timeout_ms == -1 else timeout_ms / 1000.0
    deadline = time.monotonic() + limit
    box = reports()
    while True:
        mine = _my_streams(me)
        if _run_due(me, mine):
            return 0
        if not mine:
            return _not_subscribed(api)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            if timeout_ms == -1:
                return fail(507012, api, f"no callback arrived within the simulator's wait limit "
                            f"({limit:.0f} s, config.wait_timeout_s); real process_report(-1) would keep "
                            f"waiting.", quiet=True)
            return fail(507012, api, f"no callback arrived within {timeout_ms} ms.", quiet=True)
        with box.wake:
            box.wake.wait(min(remaining, 0.05))
