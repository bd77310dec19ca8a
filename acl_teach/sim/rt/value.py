"""``acl.rt.value_write`` / ``value_wait``: a 64-bit word in device memory written by one stream, waited on by another.

``value_write`` queues a task that stores ``value`` (little-endian uint64) at ``dev_addr``;
``value_wait`` queues a task that holds its stream until the word meets the flag's condition
(ACL_VALUE_WAIT_GEQ / EQ / AND / NOR, aclrtValueWait's page). While it waits, the simulator runs the
streams that have a write to that address queued, in order, as ``stream_wait_event`` runs the
recording stream — so the ordering between two streams is real. A wait that no queued write can
satisfy fails its stream with 507046 instead of hanging (*simulator:* a board would wait forever).

Formats from the binding (rt_memory.cpp @134e2edb): both ``"kkIk"`` (dev_addr, value, flag, stream),
bare ret. UNCONFIRMED: 100000 for NULL, a misaligned address (the word must be 8-byte aligned), an
unknown flag, or value_write's flag other than 0; memory the word does not fit is 107000.
"""
from __future__ import annotations

import struct
from typing import List

from ...spec import streams as S
from ..core.args import INIT, binding
from .event import Record, _advance, _draining, _enqueue
from .memory import space
from ..core.state import fail, state
from .stream import Stream, resolve_stream

MASK = (1 << 64) - 1


def _pending() -> List[tuple]:
    """(address, Record) of value_write tasks queued and not run yet."""
    return state().subsystems.setdefault("value_writes", [])


def _check(api: str, dev_addr: int, stream: int):
    """(Stream, 0) when an aligned 8-byte device word at ``dev_addr`` and ``stream`` are usable, else (None, code)."""
    if dev_addr == 0:
        return None, fail(100000, api, "devAddr is 0 (NULL).")
    if dev_addr % 8:
        return None, fail(100000, api, f"devAddr {dev_addr:#x} is not 8-byte aligned; the word is 64 bits.")
    region, _, why = space().resolve(dev_addr, 8, api, write=True)
    if region is None:
        return None, fail(107000, api, f"8 bytes at {dev_addr:#x} are not usable memory: {why}.")
    if not region.on_device:
        return None, fail(107000, api, f"{dev_addr:#x} is host memory; value_write/value_wait take device "
                          f"memory (acl.rt.malloc).")
    handle, ret = resolve_stream(api, stream)
    if ret:
        return None, ret
    return state().lookup(handle, Stream), 0


def _word(dev_addr: int, api: str):
    """The uint8 view of the word now, or None when its memory was freed."""
    region, offset, _ = space().resolve(dev_addr, 8, api, write=True, quiet=True)
    return None if region is None else region.view(offset, 8)


def _met(flag: int, mem: int, value: int) -> bool:
    if flag == S.ACL_VALUE_WAIT_GEQ:
        diff = (mem - value) & MASK
        return diff < (1 << 63)  # (int64_t)(mem - value) >= 0
    if flag == S.ACL_VALUE_WAIT_EQ:
        return mem == value
    if flag == S.ACL_VALUE_WAIT_AND:
        return (mem & value) != 0
    return (~(mem | value) & MASK) != 0


@binding("acl.rt.value_write", "kkIk", needs=INIT)
def value_write(api, dev_addr, value, flag, stream):
    """Queue a store of the 64-bit ``value`` at ``dev_addr`` on ``stream`` (0: default)."""
    if flag != 0:
        return fail(100000, api, f"flag {flag} must be 0 (the only value aclrtValueWrite documents).")
    stream_obj, ret = _check(api, dev_addr, stream)
    if ret:
        return ret
    rec = Record(stream_obj)
    entry = (dev_addr, rec)

    def store():
        word = _word(dev_addr, api)
        rec.done = True
        if entry in _pending():
            _pending().remove(entry)
        if word is None:
            return 507000, f"value_write: the memory at {dev_addr:#x} was freed before the write ran."
        word[:] = list(struct.pack("<Q", value & MASK))
        return None

    rec.task = _enqueue(api, stream_obj, f"value_write {dev_addr:#x}", store)
    if rec.task is None:
        return fail(107000, api, "the stream was destroyed before the write was queued.")
    _pending().append(entry)
    return 0


@binding("acl.rt.value_wait", "kkIk", needs=INIT)
def value_wait(api, dev_addr, value, flag, stream):
    """Queue a wait on ``stream`` that holds it until the word at ``dev_addr`` meets ``flag``'s condition."""
    if flag not in (S.ACL_VALUE_WAIT_GEQ, S.ACL_VALUE_WAIT_EQ, S.ACL_VALUE_WAIT_AND, S.ACL_VALUE_WAIT_NOR):
        return fail(100000, api, f"flag {flag} must be ACL_VALUE_WAIT_GEQ (0), EQ (1), AND (2) or NOR (3).")
    stream_obj, ret = _check(api, dev_addr, stream)
    if ret:
        return ret
    value &= MASK

    def wait():
        limit = state().config.wait_timeout_s
        while True:
            word = _word(dev_addr, api)
            if word is None:
                return 507000, f"value_wait: the memory at {dev_addr:#x} was freed while the wait was queued."
            mem = struct.unpack("<Q", bytes(word))[0]
            if _met(flag, mem, value):
                return None
            writes = [rec for addr, rec in list(_pending()) if addr == dev_addr and not rec.done
                      and rec.stream is not stream_obj and not rec.stream.destroyed]
            if not writes:
                return 507046, (f"value_wait: the word at {dev_addr:#x} is {mem:#x} and no queued value_write "
                                f"will change it (on a board this stream would wait forever).")
            _draining.streams = getattr(_draining, "streams", []) + [stream_obj]
            try:
                why = _advance(writes[0], limit)
            finally:
                _draining.streams = _draining.streams[:-1]
            if why:
                return 507046, f"value_wait: the write it waits for never ran: {why}."

    if _enqueue(api, stream_obj, f"value_wait {dev_addr:#x}", wait) is None:
        return fail(107000, api, "the stream was destroyed before the wait was queued.")
    return 0


__all__ = ["value_write", "value_wait"]
