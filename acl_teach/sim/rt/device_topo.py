"""``acl.rt`` device topology, task-scheduler choice and memory-error (UCE) queries of the simulated devices.

* ``get_devices_topo``: how two devices are linked; the simulated devices sit on one PCIe switch
  (ACL_RT_DEVS_TOPOLOGY_PIX, 0x02). simulator's choice; UNCONFIRMED: 107001 for a device that does not exist
  and 107000 for a device paired with itself.
* ``set_ts_device``: ACL_TS_ID_AICORE (0) or ACL_TS_ID_AIVECTOR (1), else 100000 (aclrtSetTsDeviceImpl);
  the choice is remembered per thread and changes nothing else in the simulator.
* ``get_mem_uce_info`` / ``mem_uce_repair``: simulated memory never has uncorrectable errors, so the list is
  empty; repairing an address the query did not report is 107000 (UNCONFIRMED). Dict/list texts are the
  binding's (rt_memory.cpp).
"""
from __future__ import annotations

from typing import Any

from ..core.args import INIT, binding
from .runtime import _check_device_id
from ..core.state import fail, require_init, state

__all__ = ["get_devices_topo", "set_ts_device", "get_mem_uce_info", "mem_uce_repair"]

TOPOLOGY_PIX = 0x02
TS_IDS = (0, 1)  # ACL_TS_ID_AICORE, ACL_TS_ID_AIVECTOR
UCE_RESERVED = 14  # UCE_INFO_RESERVED_SIZE (UNCONFIRMED length)


@binding("acl.rt.get_devices_topo", "II", needs=INIT, outs=1)
def get_devices_topo(api, device_id, other_device_id):
    """(ACL_RT_DEVS_TOPOLOGY_* bits, ret): how ``device_id`` reaches ``other_device_id``."""
    for dev in (device_id, other_device_id):
        ret = _check_device_id(api, dev)
        if ret:
            return 0, ret
    if device_id == other_device_id:
        return 0, fail(107000, api, f"device {device_id} paired with itself; pass two different devices.")
    return TOPOLOGY_PIX, 0


@binding("acl.rt.set_ts_device", "i", needs=INIT)
def set_ts_device(api, ts_id):
    """Choose the task scheduler (AI Core 0 or AI Vector 1) for this thread's later tasks."""
    if ts_id not in TS_IDS:
        return fail(100000, api, f"ts_id {ts_id} is not ACL_TS_ID_AICORE (0) or ACL_TS_ID_AIVECTOR (1).")
    state().tls.ts_id = ts_id
    return 0


@binding("acl.rt.get_mem_uce_info", "iI", needs=INIT, outs=(list,))
def get_mem_uce_info(api, device_id, array_size):
    """([{'addr', 'len', 'reserved'}, …], ret): uncorrectable memory errors of a device (none when simulated)."""
    ret = _check_device_id(api, device_id)
    if ret:
        return [], ret
    return [], 0


def _uce_items(value: Any) -> list:
    """ConvertPyListToStructArray with GetMemUceInfoArrayFromPydict: a list of dicts (the binding's texts)."""
    if not isinstance(value, list):
        raise TypeError("aclrtMemUceInfo argument is not list")
    for item in value:
        if not isinstance(item, dict):
            raise TypeError("the aclrtMemUceInfo argument is not dict")
    return [(item.get("addr", 0) if isinstance(item.get("addr", 0), int) else 0,
             item.get("len", 0) if isinstance(item.get("len", 0), int) else 0) for item in value]


@binding("acl.rt.mem_uce_repair", "iO")
def mem_uce_repair(api, device_id, mem_uce_info):
    """Repair the ranges get_mem_uce_info reported (simulated memory has none, so any range is refused)."""
    items = _uce_items(mem_uce_info)  # the binding converts the list before the runtime runs
    ret = require_init(api) or _check_device_id(api, device_id)
    if ret:
        return ret
    if not items:
        return fail(100000, api, "the list is empty; pass the entries acl.rt.get_mem_uce_info returned.")
    addr, length = items[0]
    return fail(107000, api, f"{addr:#x} (+{length}) is not a range acl.rt.get_mem_uce_info reported; "
                f"the simulated device has no memory errors to repair.")
