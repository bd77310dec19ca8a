"""More ``acl.rt`` stream copies: the deprecated conditional copy, copies described in device memory, reductions, CMO.

* ``memcpy_async_with_condition``: deprecated for memcpy_async (acl_rt.h) and behaves as it does.
* ``get_memcpy_desc_size`` / ``set_memcpy_desc`` / ``memcpy_async_with_desc``: the copy's parameters are written
  into a descriptor in memory the caller allocated; the simulator really stores them in those bytes (src, dst,
  count and kind as four little-endian uint64), so the copy reads what the descriptor holds when it is queued.
* ``reduce_async``: ``dst[i] = op(dst[i], src[i])`` over ``count`` bytes of elements on the stream (SUM, MAX, MIN;
  EQUAL copies src), integers wrapping as numpy does.
* ``cmo_async``: cache maintenance (prefetch / write back / invalidate / flush) has no visible effect without a
  cache; the range and stream are checked and a task is queued.

From the runtime (src/acl/aclrt_impl/memory.cpp): NULL pointers / descriptors / a zero count are 100000; a kind
outside aclrtMemcpyKind's 8 values is 100000; reduce types are those of kMapDataType (FLOAT, FLOAT16, INT16, INT4,
INT8, INT32, BF16, UINT8, UINT16, UINT32), others 100000. UNCONFIRMED: descriptor size 32 bytes; descriptor copies
only for the device-to-device kinds (3, 6, 7), others 207000; reduce kinds other than 10..13 and a count that is
not a whole number of elements are 107000; reduce ``count`` is in bytes; INT4 packs two elements per byte (low
nibble first); cmo types other than 0..3 are 107000.
"""
from __future__ import annotations

import struct
from typing import Optional, Tuple

import numpy as np

from ...spec import constants as C
from ..core.args import INIT, binding
from .memory import Region, _queue, check_copy, do_copy, memcpy_async, plan_cost, space
from ..core.state import fail, require_init

__all__ = ["memcpy_async_with_condition", "get_memcpy_desc_size", "set_memcpy_desc", "memcpy_async_with_desc",
           "reduce_async", "cmo_async"]

MEMCPY_KINDS = 8  # ACL_MEMCPY_HOST_TO_HOST .. ACL_MEMCPY_INTER_DEVICE_TO_DEVICE
DESC_SIZE = 32
DESC_KINDS = (3, 6, 7)  # DEVICE_TO_DEVICE, INNER_DEVICE_TO_DEVICE, INTER_DEVICE_TO_DEVICE
_DESC = struct.Struct("<QQQQ")
# the memcpy kind (0..5, what check_copy knows) each descriptor kind's copy is checked as: all device to device
_CHECK_KIND = {3: 3, 6: 3, 7: 3}
REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_EQUAL = 10, 11, 12, 13
_REDUCE_TYPES = {C.ACL_FLOAT: np.float32, C.ACL_FLOAT16: np.float16, C.ACL_INT16: np.int16, C.ACL_INT8: np.int8,
                 C.ACL_INT32: np.int32, C.ACL_UINT8: np.uint8, C.ACL_UINT16: np.uint16, C.ACL_UINT32: np.uint32,
                 C.ACL_BF16: "bf16", C.ACL_INT4: "int4"}
CMO_TYPES = (0, 1, 2, 3)  # ACL_RT_CMO_TYPE_PREFETCH, WRITEBACK, INVALID, FLUSH


@binding("acl.rt.memcpy_async_with_condition", "kkkkik", needs=INIT)
def memcpy_async_with_condition(api, dst, dst_max, src, count, kind, stream):
    """Deprecated spelling of memcpy_async (acl_rt.h: "use aclrtMemcpyAsync instead"): the same copy."""
    return memcpy_async.__wrapped__(api, dst, dst_max, src, count, kind, stream)


def _kind_ok(api: str, kind: int) -> int:
    if not 0 <= kind < MEMCPY_KINDS:
        return fail(100000, api, f"kind {kind} is not an aclrtMemcpyKind (0..{MEMCPY_KINDS - 1}).")
    return 0


@binding("acl.rt.get_memcpy_desc_size", "i", needs=INIT, outs=1)
def get_memcpy_desc_size(api, kind):
    """(bytes, ret): how much memory a copy descriptor of ``kind`` needs (allocate it, then set_memcpy_desc)."""
    ret = _kind_ok(api, kind)
    if ret:
        return 0, ret
    if kind not in DESC_KINDS:
        return 0, fail(207000, api, f"kind {kind}: copy descriptors are for device-to-device copies "
                       f"(ACL_MEMCPY_DEVICE_TO_DEVICE 3, INNER 6, INTER 7).")
    return DESC_SIZE, 0


def _desc_bytes(api: str, desc: int) -> Tuple[Optional[np.ndarray], int]:
    region, offset, why = space().resolve(desc, DESC_SIZE, api, write=True)
    if region is None:
        return None, fail(107000, api, f"descriptor {desc:#x}: {why} (it needs acl.rt.get_memcpy_desc_size bytes).")
    return region.view(offset, DESC_SIZE), 0


@binding("acl.rt.set_memcpy_desc", "kikkkk")
def set_memcpy_desc(api, desc, kind, src_addr, dst_addr, count, config):
    """(desc, ret): write a copy of ``count`` bytes from ``src_addr`` to ``dst_addr`` into the descriptor."""
    ret = require_init(api)
    if ret:
        return desc, ret  # the binding returns the desc it was given, whatever the runtime says
    if desc == 0:
        return desc, fail(100000, api, "desc is 0 (NULL).")
    ret = _kind_ok(api, kind)
    if ret:
        return desc, ret
    if src_addr == 0 or dst_addr == 0:
        return desc, fail(100000, api, f"{'src_addr' if src_addr == 0 else 'dst_addr'} is 0 (NULL).")
    if count == 0:
        return desc, fail(100000, api, "count is 0; it must be positive.")
    if config != 0:
        return desc, fail(100000, api, "config is a reserved parameter and must be 0 (NULL).")
    if kind not in DESC_KINDS:
        return desc, fail(207000, api, f"kind {kind} is not a device-to-device kind (3, 6, 7).")
    view, ret = _desc_bytes(api, desc)
    if ret:
        return desc, ret
    view[:] = np.frombuffer(_DESC.pack(src_addr, dst_addr, count, kind), np.uint8)
    return desc, 0


@binding("acl.rt.memcpy_async_with_desc", "kik", needs=INIT)
def memcpy_async_with_desc(api, desc, kind, stream):
    """Queue the copy the descriptor holds (as set_memcpy_desc wrote it) on ``stream``.

    ``kind`` must be a descriptor kind (else 207000, as set_memcpy_desc) and the one the descriptor was set
    with (UNCONFIRMED: a mismatch is 107000, ACL_ERROR_RT_PARAM_INVALID).
    """
    if desc == 0:
        return fail(100000, api, "desc is 0 (NULL).")
    ret = _kind_ok(api, kind)
    if ret:
        return ret
    if stream == 0:
        return fail(100000, api, "stream is 0 (NULL): this call needs a stream from acl.rt.create_stream.")
    if kind not in DESC_KINDS:
        return fail(207000, api, f"kind {kind} is not a device-to-device kind (3, 6, 7).")
    view, ret = _desc_bytes(api, desc)
    if ret:
        return ret
    src, dst, count, stored_kind = _DESC.unpack(view.tobytes())
    if count == 0 or stored_kind not in DESC_KINDS:
        return fail(107000, api, f"descriptor {desc:#x} holds no copy; write one with acl.rt.set_memcpy_desc.")
    if kind != stored_kind:
        return fail(107000, api, f"kind {kind} is not the kind {stored_kind} the descriptor was set with; pass "
                    f"the kind given to acl.rt.set_memcpy_desc.")
    check_kind = _CHECK_KIND[stored_kind]
    ret, plan = check_copy(api, dst, count, src, count, check_kind)
    if ret:
        return ret

    def task():
        again, fresh = check_copy(api, dst, count, src, count, check_kind)
        if again:
            return 507000, "memcpy_async_with_desc: dst or src was freed before the stream ran"
        do_copy(fresh)
        return None

    return _queue(api, stream, f"memcpy_async_with_desc {count} bytes", task, cost_us=plan_cost(plan), cat="memcpy")


# -- reductions -------------------------------------------------------------------------------------------------------
def _bf16_to_f32(raw: np.ndarray) -> np.ndarray:
    return (raw.astype(np.uint32) << 16).view(np.float32)


def _f32_to_bf16(values: np.ndarray) -> np.ndarray:
    bits = values.astype(np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)  # round to nearest even


def _int4(raw: np.ndarray) -> np.ndarray:
    """Two signed 4-bit elements per byte, low nibble first, as int8."""
    out = np.empty(raw.size * 2, np.int8)
    out[0::2], out[1::2] = raw & 0x0F, raw >> 4
    return np.where(out > 7, out - 16, out).astype(np.int8)


def _pack_int4(values: np.ndarray) -> np.ndarray:
    nib = (values.astype(np.int16) & 0x0F).astype(np.uint8)
    return (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8)


def _combine(kind: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if kind == REDUCE_SUM:
        with np.errstate(over="ignore"):
            return a + b
    if kind == REDUCE_MAX:
        return np.maximum(a, b)
    if kind == REDUCE_MIN:
        return np.minimum(a, b)
    return b.copy()


def _reduce_bytes(kind: int, dtype, dst: np.ndarray, src: np.ndarray) -> None:
    """dst <- op(dst, src) on raw bytes of ``dtype`` elements."""
    if dtype == "bf16":
        out = _combine(kind, _bf16_to_f32(dst.view(np.uint16)), _bf16_to_f32(src.view(np.uint16)))
        dst.view(np.uint16)[:] = _f32_to_bf16(out)
    elif dtype == "int4":
        out = _combine(kind, _int4(dst), _int4(src))
        dst[:] = _pack_int4(out)
    else:
        a, b = dst.view(dtype), src.view(dtype)
        a[:] = _combine(kind, a, b)


def _reduce_plan(api: str, dst: int, src: int, count: int) -> Tuple[int, Optional[Tuple[Region, int, Region, int]]]:
    sp = space()
    d, d_off, why = sp.resolve(dst, count, api, write=True)
    if d is None:
        return fail(107000, api, f"dst: {why}."), None
    s, s_off, why = sp.resolve(src, count, api)
    if s is None:
        return fail(107000, api, f"src: {why}."), None
    return 0, (d, d_off, s, s_off)


@binding("acl.rt.reduce_async", "kkkiikk", needs=INIT)
def reduce_async(api, dst, src, count, kind, data_type, stream, reserve):
    """Queue ``dst = op(dst, src)`` element-wise over ``count`` bytes (op: SUM 10, MAX 11, MIN 12, EQUAL 13)."""
    if dst == 0 or src == 0:
        return fail(100000, api, f"{'dst' if dst == 0 else 'src'} is 0 (NULL).")
    if reserve != 0:
        return fail(100000, api, "reserve is a reserved parameter and must be 0 (NULL).")
    dtype = _REDUCE_TYPES.get(data_type)
    if dtype is None:
        return fail(100000, api, f"data type {data_type} is not supported by reductions (FLOAT 0, FLOAT16 1, INT8 2, "
                    f"INT32 3, UINT8 4, INT16 6, UINT16 7, UINT32 8, BF16 27, INT4 29).")
    if kind not in (REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_EQUAL):
        return fail(107000, api, f"kind {kind} is not an aclrtReduceKind (SUM 10, MAX 11, MIN 12, EQUAL 13).")
    width = 1 if dtype == "int4" else np.dtype(dtype if dtype != "bf16" else np.uint16).itemsize
    if count == 0 or count % width:
        return fail(107000, api, f"count {count} is not a positive whole number of {width}-byte elements.")
    ret, plan = _reduce_plan(api, dst, src, count)
    if ret:
        return ret

    def task():
        again, fresh = _reduce_plan(api, dst, src, count)
        if again:
            return 507000, "reduce_async: dst or src was freed before the stream ran"
        d, d_off, s, s_off = fresh
        _reduce_bytes(kind, dtype, d.view(d_off, count), s.view(s_off, count).copy())
        return None

    return _queue(api, stream, f"reduce_async {count} bytes", task, cost_us=count / 20000.0, cat="memcpy")


@binding("acl.rt.cmo_async", "kkik", needs=INIT)
def cmo_async(api, src, size, cmo_type, stream):
    """Queue a cache operation on a device range (simulator: no cache, so only the range and stream are checked)."""
    if src == 0:
        return fail(100000, api, "src is 0 (NULL).")
    if size == 0:
        return fail(100000, api, "size is 0; it must be positive.")
    if cmo_type not in CMO_TYPES:
        return fail(107000, api, f"cmo_type {cmo_type} is not an aclrtCmoType (PREFETCH 0, WRITEBACK 1, "
                    f"INVALID 2, FLUSH 3).")
    region, _, why = space().resolve(src, size, api)
    if region is None or not region.on_device:
        return fail(107000, api, f"{why or f'{src:#x} is not device memory'}.")
    return _queue(api, stream, f"cmo_async type {cmo_type} {size} bytes", lambda: None, cat="memcpy")
