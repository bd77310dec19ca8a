"""Stream status and timed waits: ``stream_query``, ``synchronize_stream_with_timeout``,
``synchronize_device_with_timeout``, ``get_thread_last_task_id``.

Formats and return shapes from the binding (rt_stream.cpp, rt_synchronize.cpp at 134e2edb):
stream_query ``"k"`` → ``(status, ret)`` (ACL_STREAM_STATUS_COMPLETE 0 / NOT_READY 1); the two timed
waits ``"ki"`` / ``"i"`` → ret, timeout in ms, -1 for none; get_thread_last_task_id → ``(task id, ret)``.
Like query_event, stream_query lets the device run the queue without blocking first (rt/event.py).
UNCONFIRMED: 107000 for a timeout below -1; 507046 (ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) when the
time runs out; the simulator's own limit (config.wait_timeout_s) still applies to -1.
"""
from __future__ import annotations

import threading
import time

from ...spec import events as E
from ..core.args import CONTEXT, INIT, binding
from .runtime import Context, current_context
from ..core.state import fail, state
from .stream import Stream, _drain_locked, _stopped_early, resolve_stream
from ..core.timeline import clock


@binding("acl.rt.stream_query", "k", needs=INIT, outs=1)
def stream_query(api, stream):
    """(status, ret): COMPLETE (0) when every task queued on the stream has run, else NOT_READY (1)."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return E.ACL_STREAM_STATUS_RESERVED, ret  # what the binding's variable starts as (rt_stream.cpp)
    obj = state().lookup(handle, Stream)
    if obj.tasks and obj.lock.acquire(blocking=False):
        try:
            _drain_locked(obj, 0.0)
        finally:
            obj.lock.release()
    return (E.ACL_STREAM_STATUS_NOT_READY if obj.tasks else E.ACL_STREAM_STATUS_COMPLETE), 0


def _limit(timeout: int) -> float:
    cap = state().config.wait_timeout_s
    return cap if timeout == -1 else min(timeout / 1000.0, cap)


def _sync_within(api: str, obj: Stream, seconds: float) -> int:
    if not obj.lock.acquire(timeout=max(seconds, 0.0)):
        return fail(507046, api, "another thread kept the stream busy past the timeout.")
    try:
        why = _drain_locked(obj, seconds)
        error, obj.error = obj.error, None
    finally:
        obj.lock.release()
    clock().advance_host(obj.clock_us)
    if why:
        return _stopped_early(api, why, obj, seconds)
    if error:
        return fail(error[0], api, f"an earlier async task failed: {error[1]}.")
    return 0


@binding("acl.rt.synchronize_stream_with_timeout", "ki", needs=INIT)
def synchronize_stream_with_timeout(api, stream, timeout):
    """Wait for the stream's tasks at most ``timeout`` ms (-1: no limit): 0, the first task error, or 507046."""
    if timeout < -1:
        return fail(107000, api, f"timeout {timeout} must be -1 (no limit) or >= 0 milliseconds.")
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    return _sync_within(api, state().lookup(handle, Stream), _limit(timeout))


@binding("acl.rt.synchronize_device_with_timeout", "i", needs=CONTEXT)
def synchronize_device_with_timeout(api, timeout):
    """Wait for every stream of the current device at most ``timeout`` ms in all (-1: no limit)."""
    if timeout < -1:
        return fail(107000, api, f"timeout {timeout} must be -1 (no limit) or >= 0 milliseconds.")
    st = state()
    device_id = st.lookup(current_context(api)[0], Context).device_id
    deadline = time.monotonic() + _limit(timeout)
    first = 0
    for handle, obj in list(st.handles.items()):
        if isinstance(obj, Stream) and getattr(st.lookup(obj.context, Context), "device_id", None) == device_id:
            ret = _sync_within(api, obj, max(0.0, deadline - time.monotonic()))
            first = first or ret
    return first


@binding("acl.rt.get_thread_last_task_id")
def get_thread_last_task_id(api):
    """(id of the last task this thread queued, ret) — what exception info reports for it (0: none yet)."""
    return clock().last_task.get(threading.get_native_id(), 0), 0


__all__ = ["stream_query", "synchronize_stream_with_timeout", "synchronize_device_with_timeout",
           "get_thread_last_task_id"]
