"""aclDataBuffer: a (pointer, size) label around memory — it never owns or copies the bytes.

``destroy_data_buffer`` frees only the label; the memory stays allocated until ``acl.rt.free``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.args import binding
from ..core.state import create_handle, destroy_handle, fail, state


@dataclass
class DataBuffer:
    """What aclDataBuffer holds: where the data is and how many bytes."""

    addr: int
    size: int


def lookup_buffer(handle: int):
    """The live DataBuffer behind a handle, or None."""
    return state().lookup(handle, DataBuffer)


@binding("acl.create_data_buffer", "kk")
def create_data_buffer(api, data_ptr, size):
    """A new aclDataBuffer describing ``size`` bytes at ``data_ptr`` ((0, 0) is allowed)."""
    return create_handle(DataBuffer(data_ptr, size), "data buffer", f"labels {size} bytes at {data_ptr:#x}")


@binding("acl.destroy_data_buffer", "k")
def destroy_data_buffer(api, data_buffer):
    """Destroy the aclDataBuffer only; the memory it points at is *not* freed."""
    return destroy_handle(api, data_buffer, DataBuffer, "data buffer")


@binding("acl.get_data_buffer_addr", "k")
def get_data_buffer_addr(api, data_buffer):
    """The pointer inside the buffer; 0 for a NULL or unknown buffer."""
    buf = lookup_buffer(data_buffer)
    return buf.addr if buf else 0


@binding("acl.get_data_buffer_size", "k")
def get_data_buffer_size(api, data_buffer):
    """The size as a 32-bit number (deprecated: use get_data_buffer_size_v2)."""
    buf = lookup_buffer(data_buffer)
    return buf.size & 0xFFFFFFFF if buf else 0


@binding("acl.get_data_buffer_size_v2", "k")
def get_data_buffer_size_v2(api, data_buffer):
    """The size in bytes (size_t); 0 for a NULL or unknown buffer."""
    buf = lookup_buffer(data_buffer)
    return buf.size if buf else 0


@binding("acl.update_data_buffer", "kkk")
def update_data_buffer(api, data_buffer, data_ptr, size):
    """Re-point an existing buffer at other memory."""
    buf = lookup_buffer(data_buffer)
    if buf is None:
        return fail(100000, api, f"{state().describe_handle(data_buffer)} is not a live data buffer.")
    buf.addr, buf.size = data_ptr, size
    entry = state().ledger.get(data_buffer)
    if entry is not None:
        entry.detail = f"-> {data_ptr:#x}, {size} bytes"
    return 0
