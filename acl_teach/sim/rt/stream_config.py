"""Stream configuration and aborts: ``create_stream_with_config`` … ``stream_abort``, ``device_task_abort``.

Each stream gets a record of what the runtime keeps about it: priority and flag, its id, the
failure mode, the overflow switch and the user tag. The failure mode is real: with
ACL_STOP_ON_FAILURE, a task that fails drops every task queued after it on that stream (the next
synchronize reports the failure), with ACL_CONTINUE_ON_FAILURE (the default) the later tasks still
run. ``stream_abort`` / ``device_task_abort`` drop tasks that have not run; ``destroy_stream_force``
destroys a stream without waiting for its tasks.

Formats and shapes from the binding (hicann/runtime python/pyACL/rt/rt_stream.cpp @134e2edb);
set_stream_attribute takes a dict keyed ``failureMode`` / ``overflowSwitch`` / ``userCustomTag``
(any other attribute: ``reserved``, a list of 4) and get_stream_attribute returns one. The default
stream does not take a failure mode (aclrtStreamAttr's page). UNCONFIRMED: 107000 for a handle that
is no stream or for the default stream's failure mode, 100000 for a mode or switch outside 0/1,
stream ids from 1 per device in creation order (the default stream's 0), at most MAX_STREAMS per device.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Dict, List

from ...spec import streams as S
from ..core.args import CONTEXT, INIT, binding
from .runtime import Context, current_context
from ..core.state import fail, state
from .stream import (FAILURE_HOOKS, NEW_STREAM_HOOKS, Stream, new_stream, own_stream, release_stream,
                     resolve_stream)

MAX_STREAMS = 1024  # UNCONFIRMED: streams per device that get_stream_available_num starts from


@dataclass
class StreamConf:
    """What the runtime keeps about one stream besides its queue."""

    stream_id: int
    priority: int = 0
    flag: int = 0
    failure_mode: int = S.ACL_CONTINUE_ON_FAILURE
    overflow: int = 0
    tag: int = 0
    reserved: List[int] = field(default_factory=lambda: [0] * S.RESERVED_WORDS)
    dropped: int = 0  # tasks dropped by stop-on-failure or an abort


def _confs() -> Dict[int, StreamConf]:
    return state().subsystems.setdefault("stream_conf", {})


def conf(handle: int) -> StreamConf:
    """The record of a live stream, made on first use (streams made by create_stream too)."""
    table = _confs()
    if handle not in table:
        obj = state().lookup(handle, Stream)
        if obj is not None and obj.is_default:
            table[handle] = StreamConf(0)
        else:
            counter = state().subsystems.get("stream_ids", 0) + 1
            state().subsystems["stream_ids"] = counter
            table[handle] = StreamConf(counter)
    return table[handle]


def _stop_on_failure(stream: Stream, task, outcome) -> None:
    """FAILURE_HOOK: a stop-on-failure stream drops what was queued after the failed task."""
    rec = _confs().get(stream.handle)
    if rec is None or rec.failure_mode != S.ACL_STOP_ON_FAILURE:
        return
    later = [t for t in list(stream.tasks) if t is not task]
    rec.dropped += len(later)
    stream.tasks.clear()
    stream.tasks.append(task)  # the drain loop pops the failed task itself


FAILURE_HOOKS.append(_stop_on_failure)
NEW_STREAM_HOOKS.append(conf)  # ids in creation order


def _stream(api: str, stream: int):
    """(handle, Stream, 0) for ``stream`` (0: the default stream), or (0, None, code)."""
    handle, ret = resolve_stream(api, stream)
    if ret:
        return 0, None, ret
    return handle, state().lookup(handle, Stream), 0


def _drop(stream: Stream) -> int:
    """Drop a stream's tasks that have not run (the one running, if any, finishes)."""
    running = stream.running
    left = [t for t in list(stream.tasks) if t is not running]
    stream.tasks.clear()
    if running is not None:
        stream.tasks.append(running)  # the drain loop pops it when it finishes
    conf(stream.handle).dropped += len(left)
    return len(left)


@binding("acl.rt.create_stream_with_config", "ii", needs=CONTEXT, outs=1)
def create_stream_with_config(api, priority, flag):
    """(stream, ret): a stream with a priority and ACL_STREAM_* flag bits (recorded; the simulator runs streams alike)."""
    if priority < 0:
        return 0, fail(100000, api, f"priority {priority} must be >= 0 (0 is the greatest; "
                       f"acl.rt.device_get_stream_priority_range gives the range).")
    ctx = current_context(api)[0]
    with state().lock:
        handle = new_stream(ctx)
    rec = conf(handle)
    rec.priority, rec.flag = priority, flag & 0xFFFFFFFF
    return handle, 0


@binding("acl.rt.destroy_stream_force", "k", needs=INIT)
def destroy_stream_force(api, stream):
    """Destroy a stream at once: tasks that have not run are dropped (no wait, no complaint)."""
    with state().lock:
        obj, ret = own_stream(api, stream)
        if ret:
            return ret
        left = [t for t in list(obj.tasks) if t is not obj.running]
        obj.tasks.clear()
        release_stream(stream, api)
        obj.dropped = left
    _confs().pop(stream, None)
    return 0


@binding("acl.rt.stream_get_id", "k", needs=INIT, outs=1)
def stream_get_id(api, stream):
    """(stream id, ret): the runtime's number for the stream (UNCONFIRMED numbering)."""
    handle, _, ret = _stream(api, stream)
    if ret:
        return 0, ret
    return conf(handle).stream_id, 0


@binding("acl.rt.get_stream_available_num", needs=CONTEXT, outs=1)
def get_stream_available_num(api):
    """(count, ret): how many more streams this device can create (UNCONFIRMED limit MAX_STREAMS)."""
    st = state()
    device_id = st.lookup(current_context(api)[0], Context).device_id
    used = sum(1 for obj in list(st.handles.values()) if isinstance(obj, Stream) and not obj.is_default
               and getattr(st.lookup(obj.context, Context), "device_id", None) == device_id)
    return max(0, MAX_STREAMS - used), 0


def _set_mode(api: str, handle: int, obj: Stream, mode: int) -> int:
    if obj.is_default:
        return fail(107000, api, "the default stream does not take a failure mode; create a stream with "
                    "acl.rt.create_stream() and set it there.")
    if mode not in (S.ACL_CONTINUE_ON_FAILURE, S.ACL_STOP_ON_FAILURE):
        return fail(100000, api, f"mode {mode} must be ACL_CONTINUE_ON_FAILURE (0) or ACL_STOP_ON_FAILURE (1).")
    conf(handle).failure_mode = mode
    return 0


def _set_switch(api: str, handle: int, flag: int) -> int:
    if flag not in (0, 1):
        return fail(100000, api, f"flag {flag} must be 0 (off) or 1 (on).")
    conf(handle).overflow = flag
    return 0


@binding("acl.rt.set_stream_failure_mode", "kI", needs=INIT)
def set_stream_failure_mode(api, stream, mode):
    """Choose what a failed task does to the tasks after it: ACL_STOP_ON_FAILURE drops them."""
    handle, obj, ret = _stream(api, stream)
    return ret or _set_mode(api, handle, obj, mode)


@binding("acl.rt.set_stream_overflow_switch", "kI", needs=INIT)
def set_stream_overflow_switch(api, stream, flag):
    """Turn float-overflow checking of the stream's later tasks on (1) or off (0); recorded only."""
    handle, _, ret = _stream(api, stream)
    return ret or _set_switch(api, handle, flag)


@binding("acl.rt.get_stream_overflow_switch", "k", needs=INIT, outs=1)
def get_stream_overflow_switch(api, stream):
    """(flag, ret): the stream's overflow switch (0 until set)."""
    handle, _, ret = _stream(api, stream)
    return (0, ret) if ret else (conf(handle).overflow, 0)


def _attr_value(attr: int, value) -> int:
    """The union member the binding reads from the dict (KeyError-like ValueError if it is missing)."""
    key = S.ATTR_KEYS.get(attr, "reserved")
    if not isinstance(value, dict):
        raise TypeError("the aclrtStreamAttrValue argument is not dict")
    if key not in value:
        raise TypeError(f"[acl-teach] the dict for attribute {attr} needs the key '{key}'.")
    return value[key]


@binding("acl.rt.set_stream_attribute", "kiO", needs=INIT)
def set_stream_attribute(api, stream, attr, value):
    """Set one aclrtStreamAttr from a dict ({'failureMode': 1}, {'overflowSwitch': 1}, {'userCustomTag': n})."""
    member = _attr_value(attr, value)
    handle, obj, ret = _stream(api, stream)
    if ret:
        return ret
    if attr == S.ACL_STREAM_ATTR_FAILURE_MODE:
        return _set_mode(api, handle, obj, int(member))
    if attr == S.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        return _set_switch(api, handle, int(member))
    if attr == S.ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        conf(handle).tag = int(member) & 0xFFFFFFFF
        return 0
    if attr == S.ACL_STREAM_ATTR_CACHE_OP_INFO:
        conf(handle).reserved = [int(v) & 0xFFFFFFFF for v in list(member)[:S.RESERVED_WORDS]]
        return 0
    return fail(100000, api, f"attribute {attr} is no aclrtStreamAttr (1 failure mode, 2 overflow check, "
                f"3 user custom tag, 4 cache op info).")


@binding("acl.rt.get_stream_attribute", "ki", needs=INIT, outs=1)
def get_stream_attribute(api, stream, attr):
    """(dict, ret): one aclrtStreamAttr of the stream, keyed as set_stream_attribute takes it."""
    key = S.ATTR_KEYS.get(attr, "reserved")
    handle, _, ret = _stream(api, stream)
    if not ret and attr not in (1, 2, 3, 4):
        ret = fail(100000, api, f"attribute {attr} is no aclrtStreamAttr (1..4).")
    if ret:
        return ({key: [0] * S.RESERVED_WORDS} if key == "reserved" else {key: 0}), ret
    rec = conf(handle)
    value = {S.ACL_STREAM_ATTR_FAILURE_MODE: rec.failure_mode, S.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: rec.overflow,
             S.ACL_STREAM_ATTR_USER_CUSTOM_TAG: rec.tag}.get(attr, list(rec.reserved))
    return {key: value}, 0


@binding("acl.rt.stream_abort", "k", needs=INIT)
def stream_abort(api, stream):
    """Drop every task of the stream that has not run; the stream stays usable."""
    _, obj, ret = _stream(api, stream)
    if ret:
        return ret
    n = _drop(obj)
    if n:
        print(f"[acl-teach sim] {api}: dropped {n} task(s) that had not run.", file=sys.stderr)
    return 0


@binding("acl.rt.device_task_abort", "iI", needs=INIT)
def device_task_abort(api, device_id, timeout):
    """Drop the tasks that have not run on every stream of a device (timeout ms: the simulator drops at once)."""
    st = state()
    if not 0 <= device_id < st.config.device_count:
        return fail(107001, api, f"device {device_id} does not exist (0..{st.config.device_count - 1}).")
    streams = [obj for obj in list(st.handles.values()) if isinstance(obj, Stream)
               and getattr(st.lookup(obj.context, Context), "device_id", None) == device_id]
    n = sum(_drop(obj) for obj in streams)
    if n:
        print(f"[acl-teach sim] {api}: dropped {n} task(s) on device {device_id}.", file=sys.stderr)
    return 0


@binding("acl.rt.ctx_get_current_default_stream", needs=CONTEXT, outs=1)
def ctx_get_current_default_stream(api):
    """(stream, ret): the current context's default stream (what stream 0 means in every call)."""
    return state().lookup(current_context(api)[0], Context).default_stream, 0


__all__ = ["create_stream_with_config", "destroy_stream_force", "stream_get_id", "get_stream_available_num",
           "set_stream_failure_mode", "set_stream_overflow_switch", "get_stream_overflow_switch",
           "set_stream_attribute", "get_stream_attribute", "stream_abort", "device_task_abort",
           "ctx_get_current_default_stream"]
