"""Reading memory for display without changing what the learner's program sees.

Goes through ``backend.inspector()``: the simulator's public inspection API, or documented calls
(a copy to a temporary host buffer) on a real NPU.
"""
from __future__ import annotations

from typing import Any, Tuple

from .. import backend, trace


def resolve_target(target: Any, size: int = 0) -> Tuple[int, int, str]:
    """(pointer, size, description) for a data buffer handle, a dataset Buffer, or a raw pointer."""
    from ..dataset import Buffer
    if isinstance(target, Buffer):
        return target.ptr, target.size, f"{target.name} (dataset buffer #{target.index})"
    acl = backend.acl()
    if isinstance(target, int) and not size:
        addr = acl.get_data_buffer_addr(target)
        if addr:
            return addr, acl.get_data_buffer_size_v2(target), f"data buffer {trace.name_of(target, 'data_buffer')}"
    if not isinstance(size, int) or size < 0:
        raise ValueError(f"size must be a positive number of bytes, not {size!r}")
    if not isinstance(target, int) or not size:
        raise ValueError("give a data buffer handle, a dataset Buffer, or a pointer and a size")
    return target, size, f"memory at {trace.name_of(target, 'a raw pointer')}"


def peek(ptr: int, size: int) -> bytes:
    """Up to ``size`` bytes at ``ptr`` (host or device memory)."""
    return backend.inspector().read(ptr, size)


def where(ptr: int) -> str:
    """'device memory', 'host memory' or 'unknown' (only the simulator knows for sure)."""
    return backend.inspector().where(ptr)
