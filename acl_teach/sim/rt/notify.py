"""Notifies: ``acl.rt.create_notify`` … ``notify_batch_reset`` — a device flag one stream sets and another waits on.

A notify is like an event used only for ordering: ``record_notify`` queues a task that sets the
flag when its stream gets there; ``wait_and_reset_notify`` queues a task that holds its stream
until the flag is set (running the recording stream up to its record, as ``stream_wait_event``
does) and then clears it, so every record releases exactly one wait. ``notify_batch_reset``
clears flags at once from the host.

Formats and shapes from the binding (hicann/runtime python/pyACL/rt/rt_notify.cpp @134e2edb):
create_notify ``"K"`` -> ``(notify, ret)``; wait_and_reset_notify ``"kkL"`` refuses a negative
timeout or one >= 2**32 before calling the runtime; get_notify_id -> ``(id, ret)``;
notify_batch_reset takes a list of ints. UNCONFIRMED: 100000 for a NULL / unknown notify, ids
numbered from 0 in creation order, timeout 0 = wait without limit (in ms), 507046 when nothing
will ever set the flag (a board would hang) and 507047 when the timeout passes.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import List

from ..core.args import CONTEXT, INIT, binding
from .event import Record, _advance, _draining, _enqueue, queue_record
from .runtime import Context, current_context
from ..core.state import create_handle, fail, state
from .stream import Stream, resolve_stream

MAX_UINT32_PLUS_ONE = 1 << 32


@dataclass
class Notify:
    """An aclrtNotify: a flag set by records, cleared by waits and batch resets."""

    device_id: int
    notify_id: int
    flag: int
    is_set: bool = False
    records: List[Record] = field(default_factory=list)  # queued records not yet consumed by a wait


def _ids():
    subs = state().subsystems
    if "notify_ids" not in subs:
        subs["notify_ids"] = itertools.count(0)
    return subs["notify_ids"]


def _lookup(api: str, handle: int):
    """(Notify, 0) or (None, code)."""
    if handle == 0:
        return None, fail(100000, api, "notify is 0 (NULL); create one with acl.rt.create_notify(0).")
    obj = state().lookup(handle, Notify)
    if obj is None:
        return None, fail(100000, api, f"{state().describe_handle(handle)} is not a live notify.")
    return obj, 0


@binding("acl.rt.create_notify", "K", needs=CONTEXT, outs=1)
def create_notify(api, flag):
    """(notify, ret): a notify on the current device (flag: UNCONFIRMED, recorded and shown only)."""
    ctx = state().lookup(current_context(api)[0], Context)
    obj = Notify(ctx.device_id, next(_ids()) & 0xFFFFFFFF, flag)
    return create_handle(obj, "notify", f"device {ctx.device_id}, flag {flag:#x}"), 0


@binding("acl.rt.destroy_notify", "k", needs=INIT)
def destroy_notify(api, notify):
    """Destroy a notify (records and waits still queued then see no notify; UNCONFIRMED on a board)."""
    obj, ret = _lookup(api, notify)
    if ret:
        return ret
    st = state()
    with st.lock:
        st.handles.pop(notify, None)
        st.ledger.release(notify, api)
    return 0


@binding("acl.rt.record_notify", "kk", needs=INIT)
def record_notify(api, notify, stream):
    """Queue a task on ``stream`` (0: default) that sets the notify when the stream reaches it."""
    obj, ret = _lookup(api, notify)
    if ret:
        return ret
    rec, ret = queue_record(api, stream, f"record notify {notify:#x}", lambda: setattr(obj, "is_set", True))
    if ret:
        return ret
    obj.records.append(rec)
    return 0


def _await_flag(obj: Notify, stream_obj: Stream, limit_s: float):
    """Run recording streams until the flag is set: None, or why it never was."""
    while not obj.is_set:
        pending = [r for r in obj.records if not r.done and not r.stream.destroyed]
        if not pending:
            return "nothing recorded it (record_notify on another stream first)"
        _draining.streams = getattr(_draining, "streams", []) + [stream_obj]
        try:
            why = _advance(pending[0], limit_s)
        finally:
            _draining.streams = _draining.streams[:-1]
        if why:
            return why
    return None


@binding("acl.rt.wait_and_reset_notify", "kkL", needs=INIT)
def wait_and_reset_notify(api, notify, stream, timeout):
    """Queue a wait on ``stream`` that holds it until the notify is set, then clears it (timeout ms, 0: none)."""
    if timeout < 0:
        raise TypeError("timeout can't be a negative number!")
    if timeout >= MAX_UINT32_PLUS_ONE:
        raise TypeError("timeout should be less than 2**32!")
    obj, ret = _lookup(api, notify)
    if ret:
        return ret
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    stream_obj = state().lookup(handle, Stream)
    cap = state().config.wait_timeout_s
    limit = cap if timeout == 0 else min(timeout / 1000.0, cap)

    def wait():
        why = _await_flag(obj, stream_obj, limit)
        if why:
            code = 507047 if timeout and "busy" in why else 507046
            return code, f"wait_and_reset_notify: notify {notify:#x} was never set: {why}."
        obj.is_set = False
        done = [r for r in obj.records if r.done]
        if done:
            obj.records.remove(done[0])
        return None

    if _enqueue(api, stream_obj, f"wait notify {notify:#x}", wait) is None:
        return fail(107000, api, f"stream {handle:#x} was destroyed before the wait was queued.")
    return 0


@binding("acl.rt.get_notify_id", "k", needs=INIT, outs=1)
def get_notify_id(api, notify):
    """(id, ret): the runtime's number for the notify (UNCONFIRMED: from 0 in creation order)."""
    obj, ret = _lookup(api, notify)
    if ret:
        return 0, ret
    return obj.notify_id, 0


@binding("acl.rt.notify_batch_reset", "O", needs=INIT)
def notify_batch_reset(api, notifies):
    """Clear the flags of a list of notifies at once (from the host, not queued)."""
    if not isinstance(notifies, list):
        raise ValueError("argument only support the format of list")
    if not all(isinstance(n, int) for n in notifies):
        raise ValueError("get notify pointers from PyList failed")  # CHECK_NULL(..., PyExc_ValueError)
    objs = []
    for handle in notifies:
        obj, ret = _lookup(api, handle)
        if ret:
            return ret
        objs.append(obj)
    for obj in objs:
        obj.is_set = False
        obj.records = [r for r in obj.records if not r.done]
    return 0


__all__ = ["create_notify", "destroy_notify", "record_notify", "wait_and_reset_notify", "get_notify_id",
           "notify_batch_reset"]
