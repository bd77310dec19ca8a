"""Devices and contexts: ``acl.rt.set_device`` … ``get_context`` and the per-thread current context.

Rules kept from the real runtime: set_device is reference counted and creates the device's
default context (with its default stream) and makes it current for the calling thread;
create_context makes the new context current; contexts are per thread, so a worker thread must
``set_context`` before it uses the runtime.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from .. import constants as C
from ..core.args import INIT, binding
from ..core.state import fail, state

IMPLICIT = "implicit: "


@dataclass
class Device:
    """One opened device and how many set_device calls are still unbalanced."""

    device_id: int
    refcount: int = 0
    default_context: int = 0


@dataclass
class Context:
    """A context: belongs to one device, owns a default stream and the streams created in it."""

    device_id: int
    is_default: bool
    default_stream: int = 0
    streams: List[int] = field(default_factory=list)


def current_context(api: str) -> Tuple[int, int]:
    """(context handle, 0) for the calling thread, or (0, error code) when there is none."""
    st = state()
    ctx = getattr(st.tls, "context", 0)
    if ctx and st.lookup(ctx, Context) is not None:
        return ctx, 0
    if ctx:
        return 0, fail(107002, api, "this thread's current context was destroyed.")
    return 0, fail(107002, api, "this thread has no current context; call acl.rt.set_device(0) "
                   "or acl.rt.create_context(0) in it (worker threads: acl.rt.set_context).")


def current_device_id() -> Optional[int]:
    """The device of the calling thread's context, if any."""
    st = state()
    ctx = st.lookup(getattr(st.tls, "context", 0), Context)
    return ctx.device_id if ctx else None


def _check_device_id(api: str, device_id: int) -> int:
    if 0 <= device_id < state().config.device_count:
        return 0
    return fail(107001, api, f"device {device_id} does not exist; the simulator has "
                f"{state().config.device_count} device(s): 0..{state().config.device_count - 1}.")


def _new_context(device_id: int, is_default: bool) -> int:
    """Create a context and its default stream, and record both in the ledger."""
    st = state()
    ctx = Context(device_id, is_default)
    handle = st.new_handle(ctx)
    kind = "default context" if is_default else "context"
    st.ledger.add(kind, handle, f"device {device_id}")
    ctx.default_stream = _streams.new_stream(handle, is_default=True)
    return handle


def release_context(handle: int, by: str) -> None:
    """Destroy a context with its streams (anything still alive is recorded as released by ``by``)."""
    st = state()
    ctx = st.lookup(handle, Context)
    if ctx is None:
        return
    for s in list(ctx.streams):
        _streams.release_stream(s, by if by.startswith(IMPLICIT) else IMPLICIT + by)
    _streams.release_stream(ctx.default_stream, by)
    st.handles.pop(handle, None)
    st.ledger.release(handle, by)
    if getattr(st.tls, "context", 0) == handle:
        st.tls.context = 0


@binding("acl.rt.set_device", "i", needs=INIT)
def set_device(api, device_id):
    """Open a device (ref counted); its default context becomes this thread's current context."""
    with state().lock:
        ret = _check_device_id(api, device_id)
        if ret:
            return ret
        st = state()
        dev = st.devices.get(device_id)
        if dev is None:
            dev = st.devices[device_id] = Device(device_id)
        if dev.refcount == 0:
            st.ledger.add("device", device_id, f"device {device_id} ({st.config.soc_name})",
                          key=("device", device_id))
            dev.default_context = _new_context(device_id, is_default=True)
        dev.refcount += 1
        st.tls.context = dev.default_context
        return 0


@binding("acl.rt.reset_device", "i", needs=INIT)
def reset_device(api, device_id):
    """Balance one set_device; at zero, release the device and everything still on it."""
    with state().lock:
        ret = _check_device_id(api, device_id)
        if ret:
            return ret
        st = state()
        dev = st.devices.get(device_id)
        if dev is None or dev.refcount == 0:
            # UNCONFIRMED: the code real CANN returns for a device that is not open.
            return fail(107000, api, f"device {device_id} is not open (no matching acl.rt.set_device).")
        dev.refcount -= 1
        if dev.refcount == 0:
            release_device(device_id, api)
        return 0


def release_device(device_id: int, by: str) -> None:
    """Free every context, stream and allocation of a device (what reset_device does at zero)."""
    st = state()
    implicit = IMPLICIT + by
    for handle, obj in list(st.handles.items()):
        if isinstance(obj, Context) and obj.device_id == device_id and not obj.is_default:
            release_context(handle, implicit)
    dev = st.devices.get(device_id)
    if dev is not None and dev.default_context:
        release_context(dev.default_context, by)
        dev.default_context = 0
    _memory.space().release_device_memory(device_id, implicit)
    st.ledger.release(("device", device_id), by)
    for sub in st.subsystems.values():
        hook = getattr(sub, "on_device_reset", None)
        if hook:
            hook(device_id, implicit)


@binding("acl.rt.get_device")
def get_device(api):
    """(device id of this thread's context, ret)."""
    ctx, ret = current_context(api)
    if ret:
        return 0, ret
    return state().lookup(ctx, Context).device_id, 0


@binding("acl.rt.get_device_count", needs=INIT, outs=1)
def get_device_count(api):
    """(number of simulated devices, ret)."""
    return state().config.device_count, 0


@binding("acl.rt.get_run_mode")
def get_run_mode(api):
    """(ACL_HOST=1 for a PC with a card, ACL_DEVICE=0 for a board, ret); works before acl.init.

    aclrtGetRunModeImpl (hicann/runtime src/acl/aclrt_impl/device.cpp) only asks rtGetRunMode, with
    no initialisation check, and acllite calls it at import time; so does the simulator.
    """
    return state().config.run_mode, 0


@binding("acl.rt.create_context", "i", needs=INIT, outs=1)
def create_context(api, device_id):
    """(context, ret): a new context on the device, made current for this thread."""
    with state().lock:
        ret = _check_device_id(api, device_id)
        if ret:
            return 0, ret
        st = state()
        if device_id not in st.devices:
            st.devices[device_id] = Device(device_id)
        handle = _new_context(device_id, is_default=False)
        st.tls.context = handle
        return handle, 0


@binding("acl.rt.destroy_context", "k", needs=INIT)
def destroy_context(api, context):
    """Destroy an explicitly created context (and the streams still in it)."""
    with state().lock:
        st = state()
        if context == 0:
            return fail(100000, api, "context is 0 (NULL).")
        ctx = st.lookup(context, Context)
        if ctx is None:
            return fail(107000, api, f"{st.describe_handle(context)} is not a live context.")
        if ctx.is_default:
            # UNCONFIRMED code: the default context belongs to set_device/reset_device.
            return fail(107000, api, "this is the device's default context; it is released by "
                        "acl.rt.reset_device, not destroy_context.")
        release_context(context, api)
        return 0


@binding("acl.rt.set_context", "k", needs=INIT)
def set_context(api, context):
    """Make ``context`` current for the calling thread (worker threads need this)."""
    st = state()
    if context == 0:
        return fail(100000, api, "context is 0 (NULL).")
    if st.lookup(context, Context) is None:
        return fail(107000, api, f"{st.describe_handle(context)} is not a live context.")
    st.tls.context = context
    return 0


@binding("acl.rt.get_context", needs=INIT, outs=1)
def get_context(api):
    """(current context of this thread, ret); 107002 when there is none (UNCONFIRMED code)."""
    ctx, ret = current_context(api)
    return ctx, ret


def run_mode() -> int:
    """The configured run mode (ACL_HOST or ACL_DEVICE)."""
    return state().config.run_mode


def is_board() -> bool:
    """True in ACL_DEVICE mode, where host and device share one memory."""
    return state().config.run_mode == C.ACL_DEVICE


# streams and memory build on contexts: imported last (not inside functions: no import may run at shutdown)
from . import memory as _memory  # noqa: E402
from . import stream as _streams  # noqa: E402
