"""Events and stream waits: ``acl.rt.create_event*`` … ``stream_wait_event``, and exception-info callbacks.

An event is a marker in a stream: ``record_event`` queues a task that, when the stream reaches it,
stamps the event with the stream's simulated time (``timeline.py``); ``event_elapsed_time`` is
the difference of two stamps, so it measures the simulated device work between them.
``stream_wait_event`` queues a task that holds its stream until the event's latest record has run
(on any stream); ``reset_event`` queues one that clears the event (Ascend's waits leave it set).

The simulator runs a stream's tasks when something waits for them (``synchronize_*``) — and when
an event is observed (``query_event*``, ``event_elapsed_time``), the device is assumed to have
worked meanwhile: the recording stream runs up to that record without blocking (a BLOCK callback
nobody processes stops it, and the event stays NOT_READY). *simulator:* on a board the answer
depends on real timing.

Return shapes and formats from the binding (hicann/runtime python/pyACL/rt/rt_synchronize.cpp at
134e2edb): create_event* ``(event, ret)``; query_event / query_event_status ``(status, ret)``;
event_elapsed_time ``(ms as a C float, ret)``; event_get_timestamp ``(timestamp, ret)``; the
exception-info getters a bare unsigned int (0xFFFFFFFF for NULL, acl_rt.h).
UNCONFIRMED codes: 100000 for a NULL event (ACL_REQUIRES_NOT_NULL), 107000 for a handle that is no
event, 107006 for elapsed time / timestamp of an event never recorded, 507006 for one whose record
has not run, 107007 when the end was stamped before the start, 507046 for a wait on an event nothing
records (a board would hang), 507047 when synchronize_event_with_timeout expires.
"""
from __future__ import annotations

import itertools
import struct
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import Any, Optional, Tuple

from ...spec import events as E
from ..core.args import CONTEXT, INIT, binding
from .runtime import Context, current_context
from ..core.state import HANDLE_BASE, create_handle, fail, state, warn
from .stream import FAILURE_HOOKS, Stream, Task, _drain_locked, enqueue, resolve_stream
from ..core.timeline import clock

MAX_EVENTS = 65536  # UNCONFIRMED: what get_event_avail_num starts from (per device)


@dataclass
class Record:
    """One record_event: the task that stamps the event, and the stamp once it ran."""

    stream: Stream
    task: Any = None
    done: bool = False
    ts_us: float = 0.0


@dataclass
class Event:
    """An aclrtEvent: its flags and its latest record."""

    flags: int
    ex: bool
    device_id: int
    event_id: int
    last: Optional[Record] = None   # the latest record_event queued (None: never, or reset)
    ever: bool = False              # recorded at least once


@dataclass
class ExceptionInfo:
    """What the exception-info callback receives about a failed task (valid during the callback)."""

    task_id: int
    stream_id: int
    thread_id: int
    device_id: int
    error_code: int


class Registry:
    """Event ids and the exception-info callback of one simulated process."""

    def __init__(self) -> None:
        self.ids = itertools.count(0)
        self.callback: Any = None
        self.live = 0

    def on_finalize(self, by: str) -> None:
        self.live = 0


def registry() -> Registry:
    subs = state().subsystems
    if "events" not in subs:
        subs["events"] = Registry()
    return subs["events"]


_draining = threading.local()  # the streams this thread is running, to refuse a circular wait


def _device_of(ctx_handle: int) -> int:
    ctx = state().lookup(ctx_handle, Context)
    return ctx.device_id if ctx else 0


def _new_event(api: str, flags: int, ex: bool):
    ctx, ret = current_context(api)
    if ret:
        return 0, ret
    if flags & ~E.EVENT_FLAGS:
        return 0, fail(107000, api, f"flag {flags:#x} has bits that are no ACL_EVENT_* flag "
                       f"(ACL_EVENT_SYNC 0x1, ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x2, ACL_EVENT_TIME_LINE 0x8, "
                       f"ACL_EVENT_EXTERNAL 0x20, ACL_EVENT_IPC 0x40).")
    reg = registry()
    if not ex and reg.live >= MAX_EVENTS:
        return 0, fail(207007, api, f"all {MAX_EVENTS} events of the device are in use; destroy some, or use "
                       f"acl.rt.create_event_ex_with_flag (not limited).")
    event = Event(flags, ex, _device_of(ctx), next(reg.ids) & 0xFFFFFFFF)
    reg.live += 0 if ex else 1
    kind = "event (ex)" if ex else "event"
    return create_handle(event, kind, f"flags {flags:#x}" if flags else "default flags"), 0


@binding("acl.rt.create_event", needs=CONTEXT, outs=1)
def create_event(api):
    """(event, ret): an event in the current context that can stamp time (all flags of a default event)."""
    return _new_event(api, E.ACL_EVENT_SYNC | E.ACL_EVENT_TIME_LINE, False)


@binding("acl.rt.create_event_with_flag", "I", needs=CONTEXT, outs=1)
def create_event_with_flag(api, flag):
    """(event, ret): an event with ACL_EVENT_* flags (ACL_EVENT_TIME_LINE to measure time with it)."""
    return _new_event(api, flag, False)


@binding("acl.rt.create_event_ex_with_flag", "I", needs=CONTEXT, outs=1)
def create_event_ex_with_flag(api, flag):
    """(event, ret): like create_event_with_flag, but not counted against the device's event limit."""
    return _new_event(api, flag, True)


def _lookup(api: str, handle: int):
    """(Event, 0) or (None, code)."""
    if handle == 0:
        return None, fail(100000, api, "event is 0 (NULL); create one with acl.rt.create_event().")
    event = state().lookup(handle, Event)
    if event is None:
        return None, fail(107000, api, f"{state().describe_handle(handle)} is not a live event.")
    return event, 0


@binding("acl.rt.destroy_event", "k", needs=INIT)
def destroy_event(api, event):
    """Destroy an event (a record still queued stamps nothing visible any more)."""
    obj, ret = _lookup(api, event)
    if ret:
        return ret
    st = state()
    with st.lock:
        st.handles.pop(event, None)
        st.ledger.release(event, api)
        if not obj.ex:
            registry().live = max(0, registry().live - 1)
    return 0


def _enqueue(api: str, stream_obj: Stream, label: str, run) -> Task:
    """Queue a zero-length task on a stream and return it."""
    ret = enqueue(stream_obj.handle, label, run, api, cat="event")
    return stream_obj.tasks[-1] if not ret and stream_obj.tasks else None


@binding("acl.rt.record_event", "kk", needs=INIT)
def record_event(api, event, stream):
    """Queue a record of ``event`` on ``stream`` (0: the default stream); it is stamped when the stream gets there."""
    obj, ret = _lookup(api, event)
    if ret:
        return ret
    rec, ret = queue_record(api, stream, f"record event {event:#x}", lambda: setattr(obj, "ever", True))
    if ret:
        return ret
    obj.last = rec
    return 0


def queue_record(api: str, stream: int, label: str, mark) -> Tuple[Optional[Record], int]:
    """Queue a Record on ``stream`` (0: default) stamped, and ``mark()`` run, when the stream gets there: (rec, 0)
    or (None, code) — what events and notifies both record."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return None, ret
    stream_obj = state().lookup(handle, Stream)
    rec = Record(stream_obj)

    def stamp():
        rec.ts_us, rec.done = stream_obj.clock_us, True
        mark()
        return None

    rec.task = _enqueue(api, stream_obj, label, stamp)
    if rec.task is None:
        return None, fail(107000, api, f"stream {handle:#x} was destroyed before the record was queued.")
    return rec, 0


@binding("acl.rt.reset_event", "kk", needs=INIT)
def reset_event(api, event, stream):
    """Queue a reset of ``event`` on ``stream``: afterwards it counts as not recorded until the next record."""
    obj, ret = _lookup(api, event)
    if ret:
        return ret
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    stream_obj = state().lookup(handle, Stream)
    before = obj.last

    def clear():
        if obj.last is before:
            obj.last = None
        return None

    if _enqueue(api, stream_obj, f"reset event {event:#x}", clear) is None:
        return fail(107000, api, f"stream {handle:#x} was destroyed before the reset was queued.")
    return 0


def _advance(rec: Record, timeout: Optional[float]) -> Optional[str]:
    """Run ``rec``'s stream until the record ran: None when done, else why not (timeout None: do not block)."""
    if rec.done:
        return None
    stream = rec.stream
    if stream.destroyed:
        return "its stream was destroyed before it got to the record"
    if stream in getattr(_draining, "streams", []):
        return "it waits for itself (the record is queued behind this wait on a stream being run)"
    got = stream.lock.acquire(blocking=False) if timeout is None else stream.lock.acquire(timeout=timeout)
    if not got:
        return "another thread keeps its stream busy"
    try:
        _drain_locked(stream, 0.0 if timeout is None else timeout, until=rec.task)
    finally:
        stream.lock.release()
    return None if rec.done else "its stream is held by an earlier task (a BLOCK callback nobody processed?)"


def _status_after_advance(obj: Event) -> bool:
    """True when the event's latest record has run (advancing its stream without blocking)."""
    rec = obj.last
    if rec is None:
        return False
    return _advance(rec, None) is None


@binding("acl.rt.query_event", "k", needs=INIT, outs=1)
def query_event(api, event):
    """(status, ret): ACL_EVENT_STATUS_COMPLETE (0) when no record is outstanding, else NOT_READY (1).

    Deprecated by CANN 8.5 in favour of query_event_status (event.cpp logs that once).
    """
    obj, ret = _lookup(api, event)
    if ret:
        return E.ACL_EVENT_STATUS_COMPLETE, ret
    if obj.last is None or _status_after_advance(obj):
        return E.ACL_EVENT_STATUS_COMPLETE, 0
    return E.ACL_EVENT_STATUS_NOT_READY, 0


@binding("acl.rt.query_event_status", "k", needs=INIT, outs=1)
def query_event_status(api, event):
    """(status, ret): ACL_EVENT_RECORDED_STATUS_COMPLETE (1) once its latest record ran, else NOT_READY (0)."""
    obj, ret = _lookup(api, event)
    if ret:
        return E.ACL_EVENT_RECORDED_STATUS_NOT_READY, ret
    if _status_after_advance(obj):
        return E.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0
    return E.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0


@binding("acl.rt.query_event_wait_status", "k", needs=INIT, outs=1)
def query_event_wait_status(api, event):
    """(status, ret): ACL_EVENT_WAIT_STATUS_COMPLETE (0) when a wait on it would pass now, else NOT_READY (1).

    UNCONFIRMED: the simulator answers from the event's record (a wait passes once it ran).
    """
    obj, ret = _lookup(api, event)
    if ret:
        return E.ACL_EVENT_WAIT_STATUS_COMPLETE, ret  # what the binding's variable starts as
    if _status_after_advance(obj):
        return E.ACL_EVENT_WAIT_STATUS_COMPLETE, 0
    return E.ACL_EVENT_WAIT_STATUS_NOT_READY, 0


def _sync(api: str, event: int, timeout_s: float, code: int) -> int:
    obj, ret = _lookup(api, event)
    if ret:
        return ret
    rec = obj.last
    if rec is None:
        return 0  # nothing outstanding: returns at once
    why = _advance(rec, timeout_s)
    if why:
        return fail(code, api, f"the event's record never ran: {why}.")
    clock().advance_host(rec.ts_us)
    return 0


@binding("acl.rt.synchronize_event", "k", needs=INIT)
def synchronize_event(api, event):
    """Block until the event's latest record has run (at once when none is outstanding)."""
    return _sync(api, event, state().config.wait_timeout_s, 507046)


@binding("acl.rt.synchronize_event_with_timeout", "ki", needs=INIT)
def synchronize_event_with_timeout(api, event, timeout):
    """Like synchronize_event, giving up after ``timeout`` ms (-1: no limit) with 507047."""
    if timeout < -1:
        return fail(107000, api, f"timeout {timeout} must be -1 (no limit) or >= 0 milliseconds.")
    limit = state().config.wait_timeout_s if timeout == -1 else min(timeout / 1000.0, state().config.wait_timeout_s)
    return _sync(api, event, limit, 507047)


def _stamp(api: str, obj: Event, which: str):
    """(simulated µs of the event's latest completed record, 0) or (None, code)."""
    rec = obj.last
    if rec is None:
        return None, fail(107006, api, f"the {which} event was never recorded (or was reset): call "
                          f"acl.rt.record_event(event, stream) first.")
    if not rec.done and _advance(rec, None) is not None:
        return None, fail(507006, api, f"the {which} event's record has not run yet: call "
                          f"acl.rt.synchronize_event on it (or synchronize its stream) first.")
    return rec.ts_us, 0


def _timeline_flag(api: str, obj: Event, which: str) -> int:
    if obj.flags & E.ACL_EVENT_TIME_LINE:
        return 0
    return warn(107006, api, f"the {which} event was created with flags {obj.flags:#x}, without "
                f"ACL_EVENT_TIME_LINE (0x8): on a board it may carry no usable timestamp. Create it with "
                f"acl.rt.create_event() or with ACL_EVENT_TIME_LINE to measure time.")


@binding("acl.rt.event_elapsed_time", "kk", needs=INIT, outs=(0.0,))
def event_elapsed_time(api, start, end):
    """(ms, ret): the simulated device time between two recorded events, as a C float."""
    t = []
    for which, handle in (("start", start), ("end", end)):
        obj, ret = _lookup(api, handle)
        if ret:
            return 0.0, ret
        ret = _timeline_flag(api, obj, which)
        if ret:
            return 0.0, ret
        ts, ret = _stamp(api, obj, which)
        if ret:
            return 0.0, ret
        t.append(ts)
    if t[1] < t[0]:
        return 0.0, fail(107007, api, f"the end event was stamped at {t[1]:.3f} µs, before the start event "
                         f"({t[0]:.3f} µs): pass (start, end) in that order, recorded in that order.")
    ms = (t[1] - t[0]) / 1000.0
    return struct.unpack("f", struct.pack("f", ms))[0], 0


@binding("acl.rt.event_get_timestamp", "k", needs=INIT, outs=1)
def event_get_timestamp(api, event):
    """(timestamp, ret): when the event's latest record ran, in simulated µs (UNCONFIRMED unit)."""
    obj, ret = _lookup(api, event)
    if ret:
        return 0, ret
    ts, ret = _stamp(api, obj, "")
    return (0, ret) if ret else (int(round(ts)), 0)


@binding("acl.rt.get_event_id", "k", needs=INIT, outs=1)
def get_event_id(api, event):
    """(event id, ret): the runtime's number for the event (UNCONFIRMED: numbered from 0 in creation order)."""
    obj, ret = _lookup(api, event)
    if ret:
        return 0, ret
    return obj.event_id, 0


@binding("acl.rt.get_event_avail_num", needs=CONTEXT, outs=1)
def get_event_avail_num(api):
    """(count, ret): how many more events create_event could make on this device (UNCONFIRMED limit)."""
    return MAX_EVENTS - registry().live, 0


@binding("acl.rt.stream_wait_event", "kk", needs=INIT)
def stream_wait_event(api, stream, event):
    """Queue a wait on ``stream`` (0: default) that holds it until the event's latest record has run."""
    obj, ret = _lookup(api, event)
    if ret:
        return ret
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    stream_obj = state().lookup(handle, Stream)
    target = obj.last

    def wait():
        rec = target or obj.last
        if rec is None:
            return 507046, (f"stream_wait_event: event {event:#x} was never recorded, so the wait never ends "
                            f"(on a board this stream would hang). Record it before synchronizing.")
        _draining.streams = getattr(_draining, "streams", []) + [stream_obj]
        try:
            why = _advance(rec, state().config.wait_timeout_s)
        finally:
            _draining.streams = _draining.streams[:-1]
        if why:
            return 507046, f"stream_wait_event on event {event:#x}: {why}"
        stream_obj.clock_us = max(stream_obj.clock_us, rec.ts_us)
        return None

    if _enqueue(api, stream_obj, f"wait event {event:#x}", wait) is None:
        return fail(107000, api, f"stream {handle:#x} was destroyed before the wait was queued.")
    return 0


# --- exception-info callbacks ---------------------------------------------------------------

@binding("acl.rt.set_exception_info_callback", "|O")
def set_exception_info_callback(api, fn=None):
    """Call ``fn(info)`` whenever a device task fails (None: stop); ``info`` is read with the getters below.

    The binding keeps one Python callable (rt_synchronize.cpp). *simulator:* it is called in the thread
    that runs the stream when the failed task is found (synchronize_stream …), before that call returns.
    """
    if fn is not None and not callable(fn):
        error = TypeError("acl.rt.set_exception_info_callback args parse failed")  # rt_synchronize.cpp's text
        if hasattr(error, "add_note"):
            error.add_note("[acl-teach] pass a function taking one argument (the exception info), or None.")
        raise error
    registry().callback = fn
    return 0


def _on_failure(stream: Stream, task: Task, outcome) -> None:
    """FAILURE_HOOKS entry: hand the failure to the learner's exception-info callback."""
    fn = registry().callback
    if fn is None:
        return
    ctx = state().lookup(stream.context, Context)
    info = ExceptionInfo(task.task_id, ((stream.handle - HANDLE_BASE) // 0x40) & 0xFFFFFFFF,
                         task.thread_id & 0xFFFFFFFF, ctx.device_id if ctx else 0, outcome[0] & 0xFFFFFFFF)
    st = state()
    with st.lock:
        handle = st.new_handle(info)
    try:
        fn(handle)
    except Exception:  # like the binding: the callback's error is logged, the runtime goes on
        print("[acl-teach sim] the exception-info callback raised:", file=sys.stderr)
        traceback.print_exc()
    finally:
        st.handles.pop(handle, None)


FAILURE_HOOKS.append(_on_failure)


def _info_field(handle: int, name: str) -> int:
    info = state().lookup(handle, ExceptionInfo)
    return E.EXCEPTION_INFO_NULL if info is None else getattr(info, name)


@binding("acl.rt.get_task_id_from_exception_info", "k")
def get_task_id_from_exception_info(api, info):
    """The failed task's id (0xFFFFFFFF for NULL or an info no longer valid)."""
    return _info_field(info, "task_id")


@binding("acl.rt.get_stream_id_from_exception_info", "k")
def get_stream_id_from_exception_info(api, info):
    """The failed task's stream id (0xFFFFFFFF for NULL)."""
    return _info_field(info, "stream_id")


@binding("acl.rt.get_thread_id_from_exception_info", "k")
def get_thread_id_from_exception_info(api, info):
    """The id of the thread that queued the failed task (0xFFFFFFFF for NULL)."""
    return _info_field(info, "thread_id")


@binding("acl.rt.get_device_id_from_exception_info", "k")
def get_device_id_from_exception_info(api, info):
    """The failed task's device (0xFFFFFFFF for NULL)."""
    return _info_field(info, "device_id")


@binding("acl.rt.get_error_code_from_exception_info", "k")
def get_error_code_from_exception_info(api, info):
    """The failed task's error code (0xFFFFFFFF for NULL)."""
    return _info_field(info, "error_code")


__all__ = ["create_event", "create_event_with_flag", "create_event_ex_with_flag", "destroy_event", "record_event",
           "reset_event", "query_event", "query_event_status", "query_event_wait_status", "synchronize_event",
           "synchronize_event_with_timeout", "event_elapsed_time", "event_get_timestamp", "get_event_id",
           "get_event_avail_num", "stream_wait_event", "set_exception_info_callback",
           "get_task_id_from_exception_info", "get_stream_id_from_exception_info",
           "get_thread_id_from_exception_info", "get_device_id_from_exception_info",
           "get_error_code_from_exception_info"]
