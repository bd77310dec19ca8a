"""``acl.rt`` device queries and settings: info, capability, uuid, peer access, id maps, resource limits, sat mode.

The answers come from the simulated machine (``configure(device_count=…, soc_name=…, device_memory=…)``);
figures real chips report that the simulator cannot know are in ``spec.rt_device`` (UNCONFIRMED there).
"""
from __future__ import annotations

import hashlib

from ...spec import rt_device as R
from ..core.args import CONTEXT, INIT, binding
from .runtime import _check_device_id, current_device_id, release_device
from ..core.state import fail, state

__all__ = ["get_device_info", "get_device_capability", "device_get_uuid", "device_can_access_peer",
           "device_enable_peer_access", "device_disable_peer_access", "device_peer_access_status",
           "get_device_utilization_rate", "query_device_status", "get_logic_dev_id_by_user_dev_id",
           "get_user_dev_id_by_logic_dev_id", "get_logic_dev_id_by_phy_dev_id",
           "get_phy_dev_id_by_logic_dev_id", "get_device_res_limit", "set_device_res_limit",
           "reset_device_res_limit", "device_get_stream_priority_range", "reset_device_force",
           "set_device_sat_mode", "get_device_sat_mode"]


def _info(device_id: int) -> dict:
    """The attribute table of the simulated chip (Ascend310's when the configured SoC has none)."""
    table = dict(R.SOC_INFO.get(state().config.soc_name, R.SOC_INFO["Ascend310"]))
    table[R.DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE] = state().config.device_memory
    return table


@binding("acl.rt.get_device_info", "II", needs=INIT, outs=1)
def get_device_info(api, device_id, attr):
    """(value, ret) of one aclrtDevAttr of a device: core counts, memory size, L2 size."""
    ret = _check_device_id(api, device_id)
    if ret:
        return 0, ret
    table = _info(device_id)
    if attr not in table:
        return 0, fail(100000, api, f"attr {attr} is not an aclrtDevAttr the simulator knows "
                       f"({sorted(table)}; UNCONFIRMED values).")
    return min(table[attr], (1 << 31) - 1), 0  # Py_BuildValue('i'): an int32 as the binding truncates


@binding("acl.rt.get_device_capability", "iI", needs=INIT, outs=1)
def get_device_capability(api, device_id, feature):
    """(ACL_DEV_FEATURE_SUPPORT or NOT_SUPPORT, ret): the simulator has no TS-CPU task update."""
    ret = _check_device_id(api, device_id)
    if ret:
        return 0, ret
    if feature not in R.DEV_FEATURES:
        return 0, fail(100000, api, f"feature {feature} is not an aclrtDevFeatureType (UNCONFIRMED values).")
    return R.DEV_FEATURE_NOT_SUPPORT, 0


@binding("acl.rt.device_get_uuid", "i", needs=INIT, outs=(lambda: {"bytes": [0] * 16},))
def device_get_uuid(api, device_id):
    """({'bytes': 16 ints}, ret): a uuid stable for one simulated device id (simulator: derived from the id)."""
    ret = _check_device_id(api, device_id)
    if ret:
        return {"bytes": [0] * 16}, ret
    digest = hashlib.md5(f"acl-teach simulated device {device_id}".encode()).digest()
    return {"bytes": list(digest)}, 0


# -- peer access ------------------------------------------------------------------------------
def _peers() -> set:
    return state().subsystems.setdefault("peer_access", set())


def _check_pair(api: str, device_id: int, peer: int) -> int:
    ret = _check_device_id(api, device_id) or _check_device_id(api, peer)
    if not ret and device_id == peer:
        ret = fail(107000, api, f"device {device_id} and its peer are the same device (UNCONFIRMED code).")
    return ret


@binding("acl.rt.device_can_access_peer", "ii", needs=INIT, outs=1)
def device_can_access_peer(api, device_id, peer_device_id):
    """(1, ret) for two different simulated devices: they all sit on one simulated PCIe/HCCS fabric."""
    ret = _check_pair(api, device_id, peer_device_id)
    return (0, ret) if ret else (1, 0)


@binding("acl.rt.device_enable_peer_access", "iI", needs=CONTEXT)
def device_enable_peer_access(api, peer_device_id, flags):
    """Let the current device reach ``peer_device_id``'s memory; ``flags`` is reserved and must be 0."""
    if flags != 0:
        return fail(100000, api, f"flags {flags} must be 0 (reserved).")
    device_id = current_device_id()
    ret = _check_pair(api, device_id, peer_device_id)
    if ret:
        return ret
    _peers().add((device_id, peer_device_id))  # UNCONFIRMED: enabling twice is not an error
    return 0


@binding("acl.rt.device_disable_peer_access", "i", needs=CONTEXT)
def device_disable_peer_access(api, peer_device_id):
    """Undo device_enable_peer_access for the current device."""
    device_id = current_device_id()
    ret = _check_pair(api, device_id, peer_device_id)
    if ret:
        return ret
    if (device_id, peer_device_id) not in _peers():
        return fail(107000, api, f"peer access from device {device_id} to {peer_device_id} is not enabled "
                    f"(UNCONFIRMED code).")
    _peers().discard((device_id, peer_device_id))
    return 0


@binding("acl.rt.device_peer_access_status", "ii", needs=INIT, outs=1)
def device_peer_access_status(api, device_id, peer_device_id):
    """(1 when device_enable_peer_access is in force from ``device_id`` to the peer, else 0, ret)."""
    ret = _check_pair(api, device_id, peer_device_id)
    return (0, ret) if ret else (int((device_id, peer_device_id) in _peers()), 0)


# -- status --------------------------------------------------------------------------------------
def _idle() -> dict:
    return {"cube_utilization": 0, "vector_utilization": 0, "aicpu_utilization": 0, "memory_utilization": 0,
            "utilization_extend": 0}


@binding("acl.rt.get_device_utilization_rate", "i", needs=INIT, outs=(_idle,))
def get_device_utilization_rate(api, device_id):
    """({'cube_utilization', …, 'memory_utilization' %}, ret): memory from the allocations; cores idle between calls."""
    info = _idle()
    ret = _check_device_id(api, device_id)
    if ret:
        return info, ret
    sp = state().memory
    used = 0 if sp is None else sum(r.charged for r in list(sp.allocs.values()) if r.device_id == device_id)
    info["memory_utilization"] = used * 100 // state().config.device_memory
    return info, 0


@binding("acl.rt.query_device_status", "i", needs=INIT, outs=1)
def query_device_status(api, device_id):
    """(ACL_RT_DEVICE_STATUS_NORMAL, ret): a simulated device never faults."""
    ret = _check_device_id(api, device_id)
    return (0, ret) if ret else (R.DEVICE_STATUS_NORMAL, 0)


# -- id maps: user, logical and physical ids are one and the same on the simulated machine ---------
def _same_id(api: str, device_id: int):
    ret = _check_device_id(api, device_id)
    return (0, ret) if ret else (device_id, 0)


@binding("acl.rt.get_logic_dev_id_by_user_dev_id", "i", needs=INIT, outs=1)
def get_logic_dev_id_by_user_dev_id(api, user_dev_id):
    """(logical id, ret): identity (simulator: no ASCEND_RT_VISIBLE_DEVICES remapping)."""
    return _same_id(api, user_dev_id)


@binding("acl.rt.get_user_dev_id_by_logic_dev_id", "i", needs=INIT, outs=1)
def get_user_dev_id_by_logic_dev_id(api, logic_dev_id):
    """(user id, ret): identity (simulator: no ASCEND_RT_VISIBLE_DEVICES remapping)."""
    return _same_id(api, logic_dev_id)


@binding("acl.rt.get_logic_dev_id_by_phy_dev_id", "i", needs=INIT, outs=1)
def get_logic_dev_id_by_phy_dev_id(api, phy_dev_id):
    """(logical id, ret): identity (simulator: no container remapping of physical ids)."""
    return _same_id(api, phy_dev_id)


@binding("acl.rt.get_phy_dev_id_by_logic_dev_id", "i", needs=INIT, outs=1)
def get_phy_dev_id_by_logic_dev_id(api, logic_dev_id):
    """(physical id, ret): identity (simulator: no container remapping of physical ids)."""
    return _same_id(api, logic_dev_id)


# -- resource limits --------------------------------------------------------------------------------
_RES_ATTR = {R.DEV_RES_CUBE_CORE: R.DEV_ATTR_CUBE_CORE_NUM, R.DEV_RES_VECTOR_CORE: R.DEV_ATTR_VECTOR_CORE_NUM}


def _limits() -> dict:
    return state().subsystems.setdefault("dev_res_limit", {})


def _check_res(api: str, device_id: int, kind: int) -> int:
    ret = _check_device_id(api, device_id)
    if not ret and kind not in _RES_ATTR:
        ret = fail(100000, api, f"type {kind} is not an aclrtDevResLimitType (0 cube cores, 1 vector cores; "
                   f"UNCONFIRMED values).")
    return ret


@binding("acl.rt.get_device_res_limit", "iI", needs=INIT, outs=1)
def get_device_res_limit(api, device_id, kind):
    """(cores this process may use on the device, ret): the chip's count unless set_device_res_limit lowered it."""
    ret = _check_res(api, device_id, kind)
    if ret:
        return 0, ret
    return _limits().get((device_id, kind), _info(device_id)[_RES_ATTR[kind]]), 0


@binding("acl.rt.set_device_res_limit", "iII", needs=INIT)
def set_device_res_limit(api, device_id, kind, value):
    """Cap the cores of one kind this process uses; more than the chip has is refused (UNCONFIRMED code)."""
    ret = _check_res(api, device_id, kind)
    if ret:
        return ret
    most = _info(device_id)[_RES_ATTR[kind]]
    if value > most:
        return fail(107000, api, f"value {value} is more than the device's {most} cores of this kind.")
    _limits()[(device_id, kind)] = value
    return 0


@binding("acl.rt.reset_device_res_limit", "i", needs=INIT)
def reset_device_res_limit(api, device_id):
    """Drop the device's limits: get_device_res_limit reports the chip's counts again."""
    ret = _check_device_id(api, device_id)
    if ret:
        return ret
    for key in [k for k in _limits() if k[0] == device_id]:
        del _limits()[key]
    return 0


@binding("acl.rt.device_get_stream_priority_range", needs=INIT, outs=2)
def device_get_stream_priority_range(api):
    """(least priority, greatest priority, ret): create_stream_with_config's range (UNCONFIRMED 7..0)."""
    least, greatest = R.STREAM_PRIORITY_RANGE
    return least, greatest, 0


@binding("acl.rt.reset_device_force", "i", needs=INIT)
def reset_device_force(api, device_id):
    """Release an open device at once, whatever its set_device count (everything on it is freed)."""
    with state().lock:
        ret = _check_device_id(api, device_id)
        if ret:
            return ret
        dev = state().devices.get(device_id)
        if dev is None or dev.refcount == 0:
            return fail(107000, api, f"device {device_id} is not open (UNCONFIRMED code, as reset_device).")
        dev.refcount = 0
        release_device(device_id, api)
        return 0


# -- saturation mode -----------------------------------------------------------------------------------
@binding("acl.rt.set_device_sat_mode", "i", needs=INIT)
def set_device_sat_mode(api, mode):
    """Choose how float overflow behaves: ACL_RT_OVERFLOW_MODE_SATURATION (0) or INFNAN (1)."""
    if mode not in (R.OVERFLOW_MODE_SATURATION, R.OVERFLOW_MODE_INFNAN):
        return fail(100000, api, f"mode {mode} is not an aclrtFloatOverflowMode (0 saturation, 1 inf/nan).")
    state().subsystems["sat_mode"] = mode
    return 0


@binding("acl.rt.get_device_sat_mode", needs=INIT, outs=1)
def get_device_sat_mode(api):
    """(the overflow mode in force, ret); saturation until set_device_sat_mode (UNCONFIRMED default)."""
    return state().subsystems.get("sat_mode", R.OVERFLOW_MODE_SATURATION), 0
