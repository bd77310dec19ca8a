"""Per-stream core limits: ``get/set/reset_stream_res_limit`` and ``use/unuse_stream_res_in_current_thread``.

A stream may be given fewer cube / vector cores than the process may use on its device
(aclrtDevResLimitType: 0 cube cores, 1 vector cores); a thread that calls
``use_stream_res_in_current_thread(stream)`` then reports that stream's limits from
``get_res_in_current_thread`` until ``unuse_stream_res_in_current_thread``. Without a stream limit the
device's applies: ``acl.rt.get_device_res_limit`` when the simulator has it, else the chip's
counts in FALLBACK (UNCONFIRMED). *simulator:* limits are recorded and reported; the CPU simulator's
timing does not depend on them.

Formats and shapes from the binding (rt_stream.cpp @134e2edb). UNCONFIRMED: 100000 for a type that
is no aclrtDevResLimitType, 107000 for a value above the device's limit (as set_device_res_limit) and
for unuse of a stream this thread does not use.
"""
from __future__ import annotations

from typing import Dict, Tuple

from ..core.args import CONTEXT, INIT, binding
from .runtime import Context, current_context
from ..core.state import fail, state
from .stream import Stream, resolve_stream

CUBE, VECTOR = 0, 1
FALLBACK = {CUBE: 8, VECTOR: 7}  # UNCONFIRMED: an Ascend310P3's cores, when get_device_res_limit is not simulated


def _device_limit(device_id: int, kind: int) -> int:
    """The device's limit of one kind, through the public acl.rt.get_device_res_limit when it is simulated."""
    from .. import rt
    getter = getattr(rt, "get_device_res_limit", None)
    if getter is not None:
        value, ret = getter(device_id, kind)
        if not ret:
            return value
    return FALLBACK[kind]


def _limits() -> Dict[Tuple[int, int], int]:
    return state().subsystems.setdefault("stream_res_limit", {})


def _stream(api: str, stream: int, kind: int = CUBE):
    """(handle, device id, 0) or (0, 0, code)."""
    if kind not in FALLBACK:
        return 0, 0, fail(100000, api, f"type {kind} is no aclrtDevResLimitType (0 cube cores, 1 vector cores).")
    handle, ret = resolve_stream(api, stream)
    if ret:
        return 0, 0, ret
    st = state()
    return handle, st.lookup(st.lookup(handle, Stream).context, Context).device_id, 0


def _value(handle: int, device_id: int, kind: int) -> int:
    return _limits().get((handle, kind), _device_limit(device_id, kind))


@binding("acl.rt.get_stream_res_limit", "ki", needs=INIT, outs=1)
def get_stream_res_limit(api, stream, kind):
    """(cores, ret): the stream's limit of one kind (the device's until set_stream_res_limit)."""
    handle, device_id, ret = _stream(api, stream, kind)
    return (0, ret) if ret else (_value(handle, device_id, kind), 0)


@binding("acl.rt.set_stream_res_limit", "kiI", needs=INIT)
def set_stream_res_limit(api, stream, kind, value):
    """Give the stream at most ``value`` cores of one kind (no more than its device allows)."""
    handle, device_id, ret = _stream(api, stream, kind)
    if ret:
        return ret
    most = _device_limit(device_id, kind)
    if value > most:
        return fail(107000, api, f"value {value} is more than the device's limit of {most} cores of this kind.")
    _limits()[(handle, kind)] = value
    return 0


@binding("acl.rt.reset_stream_res_limit", "k", needs=INIT)
def reset_stream_res_limit(api, stream):
    """Drop the stream's limits: it gets the device's again."""
    handle, _, ret = _stream(api, stream)
    if ret:
        return ret
    for key in [k for k in _limits() if k[0] == handle]:
        del _limits()[key]
    return 0


@binding("acl.rt.use_stream_res_in_current_thread", "k", needs=INIT)
def use_stream_res_in_current_thread(api, stream):
    """Make this thread's work use the stream's limits (get_res_in_current_thread reports them)."""
    handle, _, ret = _stream(api, stream)
    if not ret:
        state().tls.res_stream = handle
    return ret


@binding("acl.rt.unuse_stream_res_in_current_thread", "k", needs=INIT)
def unuse_stream_res_in_current_thread(api, stream):
    """Stop using the stream's limits in this thread (back to the device's)."""
    handle, _, ret = _stream(api, stream)
    if ret:
        return ret
    if getattr(state().tls, "res_stream", 0) != handle:
        return fail(107000, api, f"this thread does not use stream {handle:#x}'s limits "
                    f"(acl.rt.use_stream_res_in_current_thread first).")
    state().tls.res_stream = 0
    return 0


@binding("acl.rt.get_res_in_current_thread", "i", needs=CONTEXT, outs=1)
def get_res_in_current_thread(api, kind):
    """(cores, ret): the limit this thread works under: its stream's if it uses one, else its device's."""
    if kind not in FALLBACK:
        return 0, fail(100000, api, f"type {kind} is no aclrtDevResLimitType (0 cube cores, 1 vector cores).")
    st = state()
    handle = getattr(st.tls, "res_stream", 0)
    obj = st.lookup(handle, Stream) if handle else None
    if obj is not None:
        return _value(handle, st.lookup(obj.context, Context).device_id, kind), 0
    return _device_limit(st.lookup(current_context(api)[0], Context).device_id, kind), 0


__all__ = ["get_stream_res_limit", "set_stream_res_limit", "reset_stream_res_limit",
           "use_stream_res_in_current_thread", "unuse_stream_res_in_current_thread", "get_res_in_current_thread"]
