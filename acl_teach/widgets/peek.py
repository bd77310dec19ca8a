"""Reading memory for display without changing what the learner's program sees.

On the simulator a widget may look at device memory directly (the simulator owns it); on a
real NPU it copies the bytes to a temporary host buffer with the documented calls.
"""
from __future__ import annotations

from typing import Any, Tuple

from .. import backend


def resolve_target(target: Any, size: int = 0) -> Tuple[int, int, str]:
    """(pointer, size, description) for a data buffer handle, a dataset Buffer, or a raw pointer."""
    from ..dataset import Buffer
    if isinstance(target, Buffer):
        return target.ptr, target.size, f"{target.name} (buffer #{target.index})"
    acl = backend.acl()
    if isinstance(target, int) and not size:
        addr = acl.get_data_buffer_addr(target)
        if addr:
            return addr, acl.get_data_buffer_size_v2(target), f"data buffer {target:#x}"
    if not isinstance(target, int) or not size:
        raise ValueError("give a data buffer handle, a dataset Buffer, or a pointer and a size")
    return target, size, f"pointer {target:#x}"


def peek(ptr: int, size: int) -> bytes:
    """Up to ``size`` bytes at ``ptr`` (host or device memory)."""
    if backend.name() == "sim":
        from ..sim.memory import space
        region, offset, why = space().resolve(ptr, size)
        if region is None:
            raise ValueError(why)
        return region.view(offset, size).tobytes()
    acl = backend.acl()
    host, ret = acl.rt.malloc_host(size)
    if ret:
        raise ValueError(f"acl.rt.malloc_host returned {ret}")
    try:
        run_mode, _ = acl.rt.get_run_mode()
        ret = acl.rt.memcpy(host, size, ptr, size, 3 if run_mode == 0 else 2)
        if ret:
            raise ValueError(f"acl.rt.memcpy returned {ret}")
        return acl.util.ptr_to_bytes(host, size)
    finally:
        acl.rt.free_host(host)


def where(ptr: int) -> str:
    """'device memory', 'host memory' or 'unknown' (simulator only knows for sure)."""
    if backend.name() != "sim":
        return "device memory"
    from ..sim.memory import DEVICE_BASE, space
    found = space().find(ptr)
    if found is None:
        return "unknown (freed or never allocated)"
    return "device memory" if found[0].on_device and found[0].base >= DEVICE_BASE else "host memory"
