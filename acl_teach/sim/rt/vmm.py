"""``acl.rt`` virtual memory management: reserve an address range, allocate physical memory, map one onto the other.

The simulated device address space is ``memory``'s: a reservation takes a range of it that no allocation
overlaps; ``map_mem`` makes part of that range a live region backed by the physical allocation's bytes (a
memcpy / memset to the virtual address reaches them; two mappings of one handle share them); ``unmap_mem``
removes the region (the physical bytes stay). Physical memory counts against the device's total. Shareable
handles (``mem_export_to_shareable_handle`` …) work within the one simulated process: the importer gets a
new physical handle on the same bytes.

Dict arguments are read as the binding reads them (rt_memory.cpp: GetPhysicalMemPropFromPydict — a missing key
or a non-int value leaves the field 0; a non-dict raises TypeError with the binding's text).
UNCONFIRMED (simulator's choices where the sources are silent): granularity 2 MiB (1 GiB for the HUGE1G
attributes) for both options; sizes and offsets must be multiples of it; runtime-level refusals are 107000
(ACL_ERROR_RT_PARAM_INVALID), NULL handles / pointers 100000 (ACL_ERROR_INVALID_PARAM); releasing a reservation
or freeing physical memory that is still mapped is 107000; the bare tgid is the OS process id.
"""
from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..core.args import INIT, binding
from .memory import ALIGN, DEVICE_END, PATTERN_LIMIT, UNINITIALISED, Region, space
from ..core.state import fail, require_init, state

__all__ = ["reserve_mem_address", "release_mem_address", "malloc_physical", "free_physical", "map_mem",
           "unmap_mem", "mem_get_allocation_granularity", "mem_export_to_shareable_handle",
           "mem_set_pid_to_shareable_handle", "mem_import_from_shareable_handle", "device_get_bare_tgid"]

GRANULARITY = 2 << 20
GRANULARITY_1G = 1 << 30
MAX_ALIGNMENT = 1 << 30  # reserve_mem_address: larger alignments would run the address counter out of 64 bits
_HUGE1G_ATTRS = (10, 11, 14, 17)  # ACL_HBM_MEM_HUGE1G, ACL_HBM_MEM_P2P_HUGE1G, ACL_MEM_HUGE1G, ACL_MEM_P2P_HUGE1G
GRANULARITY_OPTIONS = (0, 1)  # ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, _RECOMMENDED
MEM_HANDLE_TYPE_NONE = 0
LOCATION_DEVICE = 1
EXPORT_FLAGS = (0, 1)  # ACL_RT_VMM_EXPORT_FLAG_DEFAULT, _DISABLE_PID_VALIDATION
SHAREABLE_BASE = 0x5A00_0000_0000


@dataclass
class Physical:
    """An aclrtDrvMemHandle: device bytes not yet at any address until mapped."""

    size: int
    device_id: int
    array: np.ndarray
    granularity: int
    maps: List[int] = field(default_factory=list)  # virtual addresses mapped from this handle
    imported: bool = False  # from mem_import_from_shareable_handle (shares another handle's bytes, charges nothing)


@dataclass
class Reservation:
    base: int
    size: int
    maps: Dict[int, Tuple[int, int]] = field(default_factory=dict)  # vaddr -> (size, physical handle)


class _Vmm:
    """This process's reservations, physical handles and shareable handles (released by acl.finalize)."""

    def __init__(self) -> None:
        self.reservations: Dict[int, Reservation] = {}
        self.shareable: Dict[int, Dict[str, Any]] = {}
        self._next_share = SHAREABLE_BASE

    def on_device_reset(self, device_id: int, by: str) -> None:
        """reset_device: the device's mappings go (both tables agree); reservations and physical handles stay.

        UNCONFIRMED: the sources do not say; the physical bytes are kept (not poisoned) for their handle,
        which free_physical (or finalize) still gives back.
        """
        for res in list(self.reservations.values()):
            for vaddr, (_size, handle) in list(res.maps.items()):
                obj = state().handles.get(handle)
                if not isinstance(obj, Physical) or obj.device_id == device_id:
                    _drop_map(res, vaddr, by)

    def on_finalize(self, by: str) -> None:
        """Process teardown: every mapping, reservation and physical handle goes."""
        for res in list(self.reservations.values()):
            for vaddr in list(res.maps):
                _drop_map(res, vaddr, by)
        self.reservations.clear()
        self.shareable.clear()
        for handle, obj in list(state().handles.items()):
            if isinstance(obj, Physical):
                _release_physical(handle, obj, by)


_ORDER = ("follow the virtual-memory order: mem_get_allocation_granularity, reserve_mem_address, malloc_physical, "
          "map_mem, (use), unmap_mem, free_physical, release_mem_address.")


def _bad(api: str, why: str) -> int:
    """107000 (ACL_ERROR_RT_PARAM_INVALID, UNCONFIRMED per call) with the virtual-memory order as the fix."""
    return fail(107000, api, why, fix=_ORDER)


def _vmm() -> _Vmm:
    return state().subsystems.setdefault("vmm", _Vmm())


def _granularity(prop: Dict[str, int]) -> int:
    return GRANULARITY_1G if prop["memAttr"] in _HUGE1G_ATTRS else GRANULARITY


def _int_field(d: dict, key: str) -> int:
    """GetValueFromPyDict / GetEnumValueFromPyDict: a missing or non-int value leaves the field 0."""
    value = d.get(key)
    return int(value) if isinstance(value, int) else 0


def _prop(obj: Any) -> Dict[str, int]:
    """aclrtPhysicalMemProp from its dict, as GetPhysicalMemPropFromPydict reads it (its TypeError texts)."""
    if not isinstance(obj, dict):
        raise TypeError("the aclrtPhysicalMemProp argument is not dict")
    out = {key: _int_field(obj, key) for key in ("handleType", "allocationType", "memAttr", "reserve")}
    location = obj.get("location")
    if location is not None and not isinstance(location, dict):
        raise TypeError("the aclrtMemLocation argument is not dict")
    location = location or {}
    out["location_id"], out["location_type"] = _int_field(location, "id"), _int_field(location, "type")
    return out


def _check_prop(api: str, prop: Dict[str, int]) -> int:
    """0, or why the runtime refuses the properties (device location, pinned, handle type NONE)."""
    if prop["location_type"] != LOCATION_DEVICE:
        return _bad(api, f"location type {prop['location_type']} is not ACL_MEM_LOCATION_TYPE_DEVICE (1); "
                    f"physical memory lives on a device.")
    if prop["location_id"] >= state().config.device_count:
        return _bad(api, f"location id {prop['location_id']} is not a device "
                    f"(the simulator has {state().config.device_count}).")
    if prop["allocationType"] != 0:
        return _bad(api, f"allocationType {prop['allocationType']} is not ACL_MEM_ALLOCATION_TYPE_PINNED (0).")
    if prop["handleType"] != MEM_HANDLE_TYPE_NONE:
        return _bad(api, f"handleType {prop['handleType']} is not ACL_MEM_HANDLE_TYPE_NONE (0).")
    return 0


@binding("acl.rt.mem_get_allocation_granularity", "Oi")
def mem_get_allocation_granularity(api, prop, option):
    """(granularity in bytes, ret): what sizes and offsets of physical memory and mappings must be multiples of."""
    parsed = _prop(prop)  # the binding reads the dict before the runtime runs
    ret = require_init(api)
    if ret:
        return 0, ret
    if option not in GRANULARITY_OPTIONS:
        return 0, _bad(api, f"option {option} is not ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM (0) or "
                       f"RECOMMENDED (1).")
    ret = _check_prop(api, parsed)
    return (0, ret) if ret else (_granularity(parsed), 0)


@binding("acl.rt.malloc_physical", "kOK")
def malloc_physical(api, size, prop, flags):
    """(handle, ret): ``size`` bytes of device memory (not zeroed) with no address; map_mem gives it one."""
    parsed = _prop(prop)
    ret = require_init(api) or _check_prop(api, parsed)
    if ret:
        return 0, ret
    gran = _granularity(parsed)
    if size == 0 or size % gran:
        return 0, _bad(api, f"size {size} is not a positive multiple of the granularity {gran} "
                       f"(acl.rt.mem_get_allocation_granularity).")
    if flags != 0:
        return 0, _bad(api, f"flags {flags} must be 0.")
    sp = space()
    with sp.lock:
        if sp.device_used + size > state().config.device_memory:
            return 0, fail(207001, api, f"{size} bytes of physical memory do not fit: "
                           f"{state().config.device_memory - sp.device_used} bytes of device memory are free.")
        array = np.empty(size, np.uint8)
        if size <= PATTERN_LIMIT:
            array.fill(UNINITIALISED)
        sp.device_used += size
    obj = Physical(size, parsed["location_id"], array, gran)
    with state().lock:
        handle = state().new_handle(obj)
        state().ledger.add("physical memory", handle, f"{size} bytes on device {obj.device_id}", size=size)
    return handle, 0


def _physical(api: str, handle: int) -> Tuple[Optional[Physical], int]:
    if handle == 0:
        return None, fail(100000, api, "handle is 0 (NULL).")
    obj = state().lookup(handle, Physical)
    if obj is None:
        return None, _bad(api, f"{state().describe_handle(handle)} is not a handle from "
                          f"acl.rt.malloc_physical.")
    return obj, 0


def _release_physical(handle: int, obj: Physical, by: str) -> None:
    state().handles.pop(handle, None)
    if not obj.imported:
        space().device_used -= obj.size
    state().ledger.release(handle, by)


@binding("acl.rt.free_physical", "k", needs=INIT)
def free_physical(api, handle):
    """Give the physical memory back; every mapping of it must be unmapped first."""
    obj, ret = _physical(api, handle)
    if ret:
        return ret
    if obj.maps:
        return _bad(api, f"the physical memory is still mapped at {', '.join(hex(v) for v in obj.maps)}; "
                    f"acl.rt.unmap_mem each first.")
    _release_physical(handle, obj, api)
    return 0


@binding("acl.rt.reserve_mem_address", "kkkK", needs=INIT, outs=1)
def reserve_mem_address(api, size, alignment, expect_ptr, flags):
    """(virtual address, ret): a range of device addresses nothing uses, for map_mem to back.

    The docs call ``alignment`` reserved ("only 0"); the driver (halMemAddressReserve) decides. UNCONFIRMED:
    0 or a power of two up to 1 GiB is honoured, anything else is 107000, as is a range past the end of the
    simulated device address space (DEVICE_END); a refused call takes no addresses.
    """
    if size == 0 or size % GRANULARITY:
        return 0, _bad(api, f"size {size} is not a positive multiple of the granularity {GRANULARITY}.")
    if expect_ptr != 0:
        return 0, _bad(api, f"expect_ptr {expect_ptr:#x} must be 0 (NULL): the runtime picks the address.")
    if alignment and (alignment & (alignment - 1) or alignment > MAX_ALIGNMENT):
        return 0, _bad(api, f"alignment {alignment} is not a power of two up to {MAX_ALIGNMENT} (1 GiB); "
                       f"the docs say it is reserved: pass 0.")
    align = max(alignment, GRANULARITY)
    sp = space()
    with sp.lock:
        base = (sp._next_device + align - 1) // align * align
        end = base + (size + ALIGN - 1) // ALIGN * ALIGN
        if end > DEVICE_END:
            return 0, _bad(api, f"{size} bytes do not fit in the {DEVICE_END - sp._next_device} bytes left of "
                           f"the simulated device address space; reserve less.")
        sp._next_device = end
        _vmm().reservations[base] = Reservation(base, size)
    state().ledger.add("reserved address range", base, f"{size} bytes at {base:#x}", key=("vmm_reserve", base))
    return base, 0


@binding("acl.rt.release_mem_address", "k", needs=INIT)
def release_mem_address(api, vir_ptr):
    """Give a reserved range back; its mappings must be gone (unmap_mem) first."""
    if vir_ptr == 0:
        return fail(100000, api, "vir_ptr is 0 (NULL).")
    res = _vmm().reservations.get(vir_ptr)
    if res is None:
        return _bad(api, f"{vir_ptr:#x} is not an address from acl.rt.reserve_mem_address.")
    if res.maps:
        return _bad(api, f"the range is still mapped at {', '.join(hex(v) for v in res.maps)}; "
                    f"acl.rt.unmap_mem first.")
    del _vmm().reservations[vir_ptr]
    state().ledger.release(("vmm_reserve", vir_ptr), api)
    return 0


def _reservation_of(address: int) -> Optional[Reservation]:
    for res in _vmm().reservations.values():
        if res.base <= address < res.base + res.size:
            return res
    return None


@binding("acl.rt.map_mem", "kkkkK", needs=INIT)
def map_mem(api, vir_ptr, size, offset, handle, flags):
    """Back ``size`` bytes of a reserved range at ``vir_ptr`` with the physical memory from ``offset`` on."""
    if vir_ptr == 0:
        return fail(100000, api, "vir_ptr is 0 (NULL).")
    obj, ret = _physical(api, handle)
    if ret:
        return ret
    res = _reservation_of(vir_ptr)
    if res is None:
        return _bad(api, f"{vir_ptr:#x} is not inside a range from acl.rt.reserve_mem_address.")
    gran = obj.granularity
    if size == 0 or size % gran or offset % gran or (vir_ptr - res.base) % gran:
        return _bad(api, f"size {size}, offset {offset} and the address's place in its range must be "
                    f"multiples of the granularity {gran}.")
    if offset + size > obj.size:
        return _bad(api, f"offset {offset} + size {size} is past the {obj.size} bytes of physical memory.")
    if vir_ptr + size > res.base + res.size:
        return _bad(api, f"{size} bytes at {vir_ptr:#x} run past the reserved range "
                    f"({res.size} bytes at {res.base:#x}).")
    if flags != 0:
        return _bad(api, f"flags {flags} must be 0.")
    for other, (other_size, _) in res.maps.items():
        if other < vir_ptr + size and vir_ptr < other + other_size:
            return _bad(api, f"{vir_ptr:#x} overlaps the mapping at {other:#x}; unmap it first.")
    sp = space()
    with sp.lock:
        region = Region(vir_ptr, size, "vmm", True, obj.array[offset:offset + size], device_id=obj.device_id,
                        note="mapped physical memory")
        sp.allocs[vir_ptr] = region
        bisect.insort(sp._bases, vir_ptr)
    res.maps[vir_ptr] = (size, handle)
    obj.maps.append(vir_ptr)
    return 0


def _drop_map(res: Reservation, vir_ptr: int, by: str) -> None:
    _size, handle = res.maps.pop(vir_ptr)
    sp = space()
    with sp.lock:
        region = sp.allocs.pop(vir_ptr, None)
        if region is not None:
            sp._bases.remove(vir_ptr)
            sp.freed.add(vir_ptr, region.size, by)
    obj = state().handles.get(handle)
    if isinstance(obj, Physical) and vir_ptr in obj.maps:
        obj.maps.remove(vir_ptr)


@binding("acl.rt.unmap_mem", "k", needs=INIT)
def unmap_mem(api, vir_ptr):
    """Remove the mapping that starts at ``vir_ptr``; the physical bytes stay with their handle."""
    if vir_ptr == 0:
        return fail(100000, api, "vir_ptr is 0 (NULL).")
    res = _reservation_of(vir_ptr)
    if res is None or vir_ptr not in res.maps:
        return _bad(api, f"{vir_ptr:#x} is not the start of a mapping made by acl.rt.map_mem.")
    _drop_map(res, vir_ptr, api)
    return 0


# -- sharing physical memory between processes (here: within the one simulated process) ----------------------------
@binding("acl.rt.mem_export_to_shareable_handle", "kiK", needs=INIT, outs=1)
def mem_export_to_shareable_handle(api, handle, handle_type, flags):
    """(shareable handle, ret): a number another process passes to mem_import_from_shareable_handle."""
    obj, ret = _physical(api, handle)
    if ret:
        return 0, ret
    if handle_type != MEM_HANDLE_TYPE_NONE:
        return 0, _bad(api, f"handle_type {handle_type} must be ACL_MEM_HANDLE_TYPE_NONE (0).")
    if flags not in EXPORT_FLAGS:
        return 0, _bad(api, f"flags {flags} is not ACL_RT_VMM_EXPORT_FLAG_DEFAULT (0) or "
                       f"_DISABLE_PID_VALIDATION (1).")
    vmm = _vmm()
    for key, entry in vmm.shareable.items():
        if entry["handle"] == handle:
            return key, 0
    key = vmm._next_share
    vmm._next_share += 0x100
    vmm.shareable[key] = {"handle": handle, "pids": set(), "check_pid": flags == 0}
    return key, 0


def _pids(value: Any) -> List[int]:
    """The binding's list check (ValueError texts) and GetValuesFromPyList(int32)."""
    if not isinstance(value, list):
        raise ValueError("argument 2 only support the format of list")
    out = []
    for item in value:
        if not isinstance(item, int) or not -(1 << 31) <= item < (1 << 31):
            raise ValueError("get values from PyList failed")
        out.append(int(item))
    return out


@binding("acl.rt.mem_set_pid_to_shareable_handle", "KO")
def mem_set_pid_to_shareable_handle(api, shareable_handle, pids):
    """Allow the processes ``pids`` (bare tgids) to import the shareable handle."""
    wanted = _pids(pids)
    ret = require_init(api)
    if ret:
        return ret
    entry = _vmm().shareable.get(shareable_handle)
    if entry is None:
        return _bad(api, f"{shareable_handle:#x} is not from acl.rt.mem_export_to_shareable_handle.")
    if not wanted:
        return fail(100000, api, "the pid list is empty.")
    entry["pids"].update(wanted)
    return 0


@binding("acl.rt.mem_import_from_shareable_handle", "Ki", needs=INIT, outs=1)
def mem_import_from_shareable_handle(api, shareable_handle, device_id):
    """(physical handle, ret): the exported memory in this process; map it with reserve_mem_address + map_mem.

    simulator: the importer is this same process, so its bare tgid must be on the whitelist
    (mem_set_pid_to_shareable_handle) unless the export disabled PID validation.
    """
    entry = _vmm().shareable.get(shareable_handle)
    if entry is None:
        return 0, _bad(api, f"{shareable_handle:#x} is not from acl.rt.mem_export_to_shareable_handle.")
    if not 0 <= device_id < state().config.device_count:
        return 0, _bad(api, f"device_id {device_id} is not a device.")
    if entry["check_pid"] and os.getpid() not in entry["pids"]:
        return 0, _bad(api, f"this process (bare tgid {os.getpid()}) is not on the handle's whitelist; "
                       f"the exporter calls acl.rt.mem_set_pid_to_shareable_handle with it first.")
    source = state().lookup(entry["handle"], Physical)
    if source is None:
        return 0, _bad(api, "the exported physical memory has been freed.")
    obj = Physical(source.size, device_id, source.array, source.granularity, imported=True)
    with state().lock:
        handle = state().new_handle(obj)
        state().ledger.add("physical memory", handle, f"{source.size} bytes imported from {shareable_handle:#x}")
    return handle, 0


@binding("acl.rt.device_get_bare_tgid")
def device_get_bare_tgid(api):
    """(pid, ret): this process's id as the device sees it (simulator: the OS pid)."""
    return os.getpid(), 0

