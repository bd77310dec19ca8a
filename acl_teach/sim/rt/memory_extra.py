"""More ``acl.rt`` memory calls: aligned and cached allocations, cache maintenance, 2-D copies, pointer attributes.

Built on ``memory``'s space and checks, so the ledger, padding, strict mode and pointer rules are the same.
"""
from __future__ import annotations

import bisect
from typing import Optional, Tuple

from .. import constants as C
from ...spec import rt_device as R
from ..core.args import INIT, binding
from .memory import (ALIGN, DEVICE_BASE, Region, describe, _queue, check_writable, location, malloc, malloc_host,
                     space)
from .runtime import current_context, current_device_id, is_board
from ..core.state import fail, state
from ..core.timeline import clock, copy_cost

_COPY_KINDS = (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE, C.ACL_MEMCPY_DEVICE_TO_HOST,
               C.ACL_MEMCPY_DEVICE_TO_DEVICE, C.ACL_MEMCPY_DEFAULT, C.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)


@binding("acl.rt.malloc_align32", "ki")
def malloc_align32(api, size, policy):
    """(device pointer, ret): like malloc, but the allocation is ALIGN_UP(size, 32) bytes, without malloc's +32."""
    ptr, ret = malloc.__wrapped__(api, size, policy)
    if ret:
        return 0, ret
    sp = space()
    with sp.lock:
        region = sp.allocs[ptr]
        aligned = (size + 31) // 32 * 32
        sp.device_used -= region.charged - aligned
        region.charged, region.size, region.array = aligned, aligned, region.array[:aligned]
    return ptr, 0


@binding("acl.rt.malloc_cached", "ki")
def malloc_cached(api, size, policy):
    """(device pointer, ret): device memory the host may cache; flush/invalidate it with mem_flush/mem_invalidate.

    simulator: there is no cache between host and device, so the bytes are the same either way;
    the allocation is recorded as cached and mem_flush/mem_invalidate check their ranges against it.
    """
    ptr, ret = malloc.__wrapped__(api, size, policy)
    if not ret:
        space().allocs[ptr].note = "cached"
    return ptr, ret


def _check_range(api: str, ptr: int, size: int) -> int:
    """0 when ``size`` bytes at ``ptr`` lie in one live device allocation, else the runtime's code."""
    if ptr == 0:
        return fail(100000, api, "pointer is 0 (NULL).")
    if size == 0:
        return fail(100000, api, "size is 0.")  # UNCONFIRMED code
    found = space().find(ptr)
    if found is None or not found[0].on_device:
        return fail(107000, api, f"{ptr:#x} is not inside a live device allocation "
                    f"({space().why_unknown(ptr)}).")
    region, offset = found
    if offset + size > region.size:
        return fail(107000, api, f"{size} bytes at {ptr:#x} run past the end of its {region.size}-byte allocation.")
    return 0


@binding("acl.rt.mem_flush", "kk", needs=INIT)
def mem_flush(api, dev_ptr, size):
    """Write the host cache's lines of a device range back (simulator: no cache, so the range is only checked)."""
    return _check_range(api, dev_ptr, size)


@binding("acl.rt.mem_invalidate", "kk", needs=INIT)
def mem_invalidate(api, dev_ptr, size):
    """Drop the host cache's lines of a device range (simulator: no cache, so the range is only checked)."""
    return _check_range(api, dev_ptr, size)


def _span(pitch: int, width: int, height: int) -> int:
    return (height - 1) * pitch + width


def _check_2d(api: str, dst: int, dpitch: int, src: int, spitch: int, width: int, height: int,
              kind: int) -> Tuple[int, Optional[Tuple[Region, int, Region, int]]]:
    """Validate a 2-D copy: (0, (dst region, offset, src region, offset)) or (code, None).

    UNCONFIRMED codes: NULL pointers, width > pitch and a bad kind are 100000 (ACL parameter checks);
    a range outside live memory is 107000, as for memcpy.
    """
    _, ret = current_context(api)
    if ret:
        return ret, None
    if dst == 0 or src == 0:
        return fail(100000, api, f"{'dst' if dst == 0 else 'src'} is 0 (NULL)."), None
    if kind not in _COPY_KINDS:
        return fail(100000, api, f"kind {kind} is not an aclrtMemcpyKind (0..5)."), None
    if width == 0 or height == 0:
        return fail(100000, api, f"width {width} x height {height} copies nothing; both must be > 0."), None
    if width > dpitch or width > spitch:
        return fail(100000, api, f"width {width} is larger than dpitch {dpitch} or spitch {spitch}: "
                    f"each row must fit its pitch."), None
    sp = space()
    d_region, d_off, why = sp.resolve(dst, _span(dpitch, width, height), api, write=True)
    if d_region is None:
        return fail(107000, api, f"dst: {why}."), None
    ret = check_writable(api, d_region, f"dst {dst:#x}")
    if ret:
        return ret, None
    s_region, s_off, why = sp.resolve(src, _span(spitch, width, height), api)
    if s_region is None:
        return fail(107000, api, f"src: {why}."), None
    return 0, (d_region, d_off, s_region, s_off)


def _copy_rows(plan, dpitch: int, spitch: int, width: int, height: int) -> None:
    """Copy ``height`` rows of ``width`` bytes; the bytes between rows of dst stay as they were."""
    d_region, d_off, s_region, s_off = plan
    for row in range(height):
        d_region.view(d_off + row * dpitch, width)[:] = s_region.view(s_off + row * spitch, width)


def _cost(plan, width: int, height: int) -> float:
    kind = (2 if location(plan[2]) == "device" else 0) + (1 if location(plan[0]) == "device" else 0)
    return copy_cost(width * height, (C.ACL_MEMCPY_HOST_TO_HOST, C.ACL_MEMCPY_HOST_TO_DEVICE,
                                      C.ACL_MEMCPY_DEVICE_TO_HOST, C.ACL_MEMCPY_DEVICE_TO_DEVICE)[kind])


@binding("acl.rt.memcpy2d", "kkkkkki", needs=INIT)
def memcpy2d(api, dst, dpitch, src, spitch, width, height, kind):
    """Copy a ``width`` x ``height`` byte matrix from rows ``spitch`` apart to rows ``dpitch`` apart."""
    ret, plan = _check_2d(api, dst, dpitch, src, spitch, width, height, kind)
    if ret:
        return ret
    _copy_rows(plan, dpitch, spitch, width, height)
    clock().host_work(f"memcpy2d {width}x{height}", "memcpy", _cost(plan, width, height))
    return 0


@binding("acl.rt.memcpy2d_async", "kkkkkkik", needs=INIT)
def memcpy2d_async(api, dst, dpitch, src, spitch, width, height, kind, stream):
    """Enqueue a 2-D copy on ``stream``; the rows move when the stream runs."""
    ret, plan = _check_2d(api, dst, dpitch, src, spitch, width, height, kind)
    if ret:
        return ret

    def task():
        """Copy now; memory freed since enqueue fails the stream (UNCONFIRMED code 507000)."""
        again = _check_2d_quiet(dst, dpitch, src, spitch, width, height)
        if again is None:
            return 507000, "memcpy2d_async: dst or src was freed before the stream ran"
        _copy_rows(again, dpitch, spitch, width, height)
        return None

    return _queue(api, stream, f"memcpy2d_async {width}x{height}", task, cost_us=_cost(plan, width, height),
                  cat="memcpy")


def _check_2d_quiet(dst, dpitch, src, spitch, width, height):
    sp = space()
    d = sp.resolve(dst, _span(dpitch, width, height), quiet=True, write=True)
    s = sp.resolve(src, _span(spitch, width, height), quiet=True)
    return None if d[0] is None or s[0] is None else (d[0], d[1], s[0], s[1])


def _attributes(location_type: int, device_id: int, page_size: int) -> dict:
    return {"location": {"id": device_id, "type": location_type}, "page_size": page_size,
            "rsv": [0] * R.PTR_ATTR_RSV_WORDS}


@binding("acl.rt.pointer_get_attributes", "k", needs=INIT, outs=(lambda: _attributes(0, 0, 0),))
def pointer_get_attributes(api, ptr):
    """({'location': {'id', 'type'}, 'page_size', 'rsv'}, ret): where ``ptr``'s memory lives.

    UNCONFIRMED: the location type values (host 0, device 1), page sizes (host 4 KiB; device 2 MiB
    huge pages for allocations of at least 2 MiB, else 4 KiB) and the 107000 for an unknown device address.
    """
    empty = _attributes(0, 0, 0)
    if ptr == 0:
        return empty, fail(100000, api, "ptr is 0 (NULL).")
    sp = space()
    found = sp.find(ptr)
    if found is not None:
        region = found[0]
        if region.on_device and region.base >= DEVICE_BASE:
            page = R.DEVICE_HUGE_PAGE_SIZE if region.size >= R.DEVICE_HUGE_PAGE_SIZE else R.HOST_PAGE_SIZE
            return _attributes(R.MEM_LOCATION_TYPE_DEVICE, region.device_id, page), 0
        return _attributes(R.MEM_LOCATION_TYPE_HOST, 0, R.HOST_PAGE_SIZE), 0
    if ptr >= DEVICE_BASE:
        return empty, fail(107000, api, f"{sp.why_unknown(ptr)}.")
    region, _, why = sp.resolve(ptr, 1, api, quiet=True)
    if region is None:
        return empty, fail(107000, api, f"{why}.")
    return _attributes(R.MEM_LOCATION_TYPE_HOST, 0, R.HOST_PAGE_SIZE), 0



# -- host registration: a host range the device reaches through a device address -------------------
def _registrations() -> dict:
    """host pointer -> (device address, size) of every live registration."""
    return state().subsystems.setdefault("host_registrations", {})


def _register(api: str, ptr: int, size: int) -> Tuple[int, int]:
    """(device address aliasing ``size`` host bytes at ``ptr``, 0) or (0, code).

    On a card (ACL_HOST) the device address is new and its bytes *are* the host bytes (a copy through
    either pointer sees the other's writes). On a board (ACL_DEVICE) host and device share one memory,
    so the device address is ``ptr`` itself (UNCONFIRMED). Codes: NULL / size 0 are 100000; a range
    that is not live host memory or is already registered is 107000 (UNCONFIRMED).
    """
    if ptr == 0:
        return 0, fail(100000, api, "ptr is 0 (NULL).")
    if size == 0:
        return 0, fail(100000, api, "size is 0.")
    _, ret = current_context(api)
    if ret:
        return 0, ret
    sp = space()
    with sp.lock:
        if ptr in _registrations():
            return 0, fail(107000, api, f"{ptr:#x} is already registered; acl.rt.host_unregister it first.")
        host, offset, why = sp.resolve(ptr, size, api, write=True)
        if host is None:
            return 0, fail(107000, api, f"{why}.")
        if host.on_device and host.base >= DEVICE_BASE and host.kind != "host":
            return 0, fail(107000, api, f"{ptr:#x} is device memory ({describe(host)}); register host memory.")
        if is_board():
            _registrations()[ptr] = (ptr, size)
            state().ledger.add("host registration", ptr, f"{size} bytes at {ptr:#x}", key=("host_reg", ptr))
            return ptr, 0
        base = sp._next_device
        sp._next_device += (size + ALIGN - 1) // ALIGN * ALIGN
        region = Region(base, size, "mapped", True, host.view(offset, size), obj=host.obj if host.obj is not None else host,
                        device_id=current_device_id() or 0)
        sp.allocs[base] = region
        bisect.insort(sp._bases, base)
        _registrations()[ptr] = (base, size)
        state().ledger.add("host registration", base, f"{size} host bytes at {ptr:#x}", key=("host_reg", ptr))
        return base, 0


@binding("acl.rt.host_register", "kki", needs=INIT, outs=1)
def host_register(api, ptr, size, reg_type):
    """(device pointer, ret): map ``size`` bytes of host memory for the device (ACL_HOST_REGISTER_MAPPED only)."""
    if reg_type != R.HOST_REGISTER_MAPPED:
        return 0, fail(100000, api, f"type {reg_type} is not ACL_HOST_REGISTER_MAPPED (0).")
    return _register(api, ptr, size)


@binding("acl.rt.host_register_v2", "KKI", needs=INIT)
def host_register_v2(api, ptr, size, flag):
    """Map host memory for the device; host_get_device_pointer gives its device address.

    UNCONFIRMED: every ``flag`` is accepted (the simulator's mapping is always read-write).
    """
    return _register(api, ptr, size)[1]


@binding("acl.rt.host_get_device_pointer", "KI", needs=INIT, outs=1)
def host_get_device_pointer(api, ptr, flag):
    """(device address of a registered host pointer — or of an address inside its range — , ret)."""
    if flag != 0:
        return 0, fail(100000, api, f"flag {flag} is reserved and must be 0 (UNCONFIRMED).")
    for host, (dev, size) in _registrations().items():
        if host <= ptr < host + size:
            return dev + (ptr - host), 0
    return 0, fail(107000, api, f"{ptr:#x} is not inside host memory registered with acl.rt.host_register.")


@binding("acl.rt.host_unregister", "k", needs=INIT)
def host_unregister(api, ptr):
    """Undo host_register: the device address stops working; the host bytes stay as they are."""
    if ptr == 0:
        return fail(100000, api, "ptr is 0 (NULL).")
    sp = space()
    with sp.lock:
        reg = _registrations().pop(ptr, None)
        if reg is None:
            return fail(107000, api, f"{ptr:#x} is not a pointer passed to acl.rt.host_register.")
        region = sp.allocs.get(reg[0])
        if region is not None and region.kind == "mapped":
            sp.release(region, api)  # a mapping is not poisoned: its bytes belong to the host
        state().ledger.release(("host_reg", ptr), api)
        return 0


# -- allocations with an aclrtMallocConfig ({'numAttrs': n, 'attrs': [{'attr': a, 'value': {...}}, ...]}) --------
def _parse_cfg(cfg) -> list:
    """The attributes of a malloc config dict, checked as the binding checks them (its exception texts).

    Beyond the binding's own texts ("pyCfg is not dict!", the numAttrs mismatch) the KeyError texts for
    missing keys are UNCONFIRMED; attribute values are taken as given (the simulator has no module ids).
    """
    if not isinstance(cfg, dict):
        raise TypeError("pyCfg is not dict!")
    if not cfg:
        return []
    attrs = cfg.get("attrs")
    if attrs is None:
        raise TypeError("the aclrtMallocAttrValue argument is not dict")
    if "numAttrs" not in cfg:
        raise KeyError("numAttrs")
    if not isinstance(attrs, list) or len(attrs) != cfg["numAttrs"]:
        raise KeyError("The numAttrs inputed does not match the expected numAttrs")
    for item in attrs:
        if not isinstance(item, dict):
            raise TypeError("the aclrtMallocWithCfg argument is not dict")
        for key in ("attr", "value"):
            if key not in item:
                raise KeyError(key)
    return attrs


def _malloc_with_cfg(api: str, size: int, policy: int, cfg) -> Tuple[int, int]:
    _parse_cfg(cfg)
    ptr, ret = malloc.__wrapped__(api, size, policy)
    if not ret:
        space().allocs[ptr].note = "with cfg"
    return ptr, ret


def _host_with_cfg(api: str, size: int, cfg) -> Tuple[int, int]:
    _parse_cfg(cfg)
    return malloc_host.__wrapped__(api, size)


@binding("acl.rt.malloc_with_cfg", "kiO")
def malloc_with_cfg(api, size, policy, cfg):
    """(device pointer, ret): acl.rt.malloc with an aclrtMallocConfig dict ({} for none); freed with acl.rt.free."""
    return _malloc_with_cfg(api, size, policy, cfg)


@binding("acl.rt.malloc_host_with_cfg", "kO", needs=INIT, outs=1)
def malloc_host_with_cfg(api, size, cfg):
    """(host pointer, ret): acl.rt.malloc_host with an aclrtMallocConfig dict ({} for none)."""
    return _host_with_cfg(api, size, cfg)


@binding("acl.rt.malloc_for_task_scheduler", "kiO")
def malloc_for_task_scheduler(api, size, policy, cfg):
    """(device pointer, ret): device memory for task-scheduler use, with an aclrtMallocConfig dict ({} for none).

    The binding parses the config as malloc_with_cfg's (same texts); simulator: the memory is an ordinary
    device allocation (freed with acl.rt.free), noted as for the task scheduler.
    """
    ptr, ret = _malloc_with_cfg(api, size, policy, cfg)
    if not ret:
        space().allocs[ptr].note = "for task scheduler"
    return ptr, ret
