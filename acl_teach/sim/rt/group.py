"""Device groups: ``acl.rt.set_group`` … ``get_group_info_detail`` — one simulated group per device.

A group is a slice of a device's compute (AI cores, vector cores, AI CPU threads, SDMA channels,
streams scheduled together). The simulator has one group per device, id 0, holding the whole device
(GROUP below: UNCONFIRMED numbers). ``set_group`` selects it for the current context; any other id
is refused. ``create_group_info`` returns a handle to an array of ``get_group_count()`` entries (0,
NULL, when a device had no group), ``get_all_group_info`` fills it and ``get_group_info_detail``
reads one attribute.

From the binding (hicann/runtime python/pyACL/rt/rt_group.cpp @134e2edb): get_group_count parses one
ignored ``"I"`` argument; create_group_info returns the bare pointer; get_group_info_detail raises
RuntimeError("aclrtGetGroupInfoDetail failed") when the call fails and otherwise returns a list of
``paramRetSize`` ints — the size is in *bytes* (4 for a 32-bit attribute), so the list has 4 entries
of which only the first is the value; the others are whatever was on the C stack (*simulator:* 0).
From aclrtGetGroupInfoDetail (src/acl/aclrt_impl/group.cpp): an index outside [0, count) or an
unknown attribute is ACL_ERROR_INVALID_PARAM (100000); NULL group info is 100000.
UNCONFIRMED: 107000 for set_group of a group that does not exist.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List

from ...spec import groups as G
from ..core.args import CONTEXT, INIT, binding
from .runtime import current_context
from ..core.state import create_handle, destroy_handle, fail, state

# UNCONFIRMED: the one simulated group's resources (a whole 310P-class device)
GROUP = {G.ACL_GROUP_AICORE_INT: 8, G.ACL_GROUP_AIV_INT: 0, G.ACL_GROUP_AIC_INT: 4, G.ACL_GROUP_SDMANUM_INT: 4,
         G.ACL_GROUP_ASQNUM_INT: 32, G.ACL_GROUP_GROUPID_INT: 0}
GROUP_COUNT = 1


@dataclass
class GroupInfo:
    """An aclrtGroupInfo array: empty until get_all_group_info fills it."""

    count: int
    entries: List[Dict[int, int]] = field(default_factory=list)


def _selected() -> Dict[int, int]:
    return state().subsystems.setdefault("groups_selected", {})


@binding("acl.rt.set_group", "I", needs=CONTEXT)
def set_group(api, group_id):
    """Select the group the current context's later tasks run in (the simulator has only group 0)."""
    if group_id >= GROUP_COUNT:
        return fail(107000, api, f"group {group_id} does not exist; the simulated device has "
                    f"{GROUP_COUNT} group (id 0, the whole device).")
    _selected()[current_context(api)[0]] = group_id
    return 0


@binding("acl.rt.get_group_count", "I", needs=CONTEXT, outs=1)
def get_group_count(api, _count):
    """(count, ret): how many groups the current device has (the argument is parsed and ignored)."""
    return GROUP_COUNT, 0


@binding("acl.rt.create_group_info")
def create_group_info(api):
    """A handle to an array of group-count entries, or 0 (NULL) without acl.init / a current context."""
    if not state().initialized or current_context(api)[1]:
        return 0
    return create_handle(GroupInfo(GROUP_COUNT), "group info", f"{GROUP_COUNT} group(s)")


def _info(api: str, handle: int):
    if handle == 0:
        return None, fail(100000, api, "groupInfo is 0 (NULL); make one with acl.rt.create_group_info().")
    obj = state().lookup(handle, GroupInfo)
    if obj is None:
        return None, fail(100000, api, f"{state().describe_handle(handle)} is not a live group info.")
    return obj, 0


@binding("acl.rt.destroy_group_info", "k", needs=INIT)
def destroy_group_info(api, group_info):
    """Free a group-info array made by create_group_info."""
    if group_info == 0:
        return fail(100000, api, "groupInfo is 0 (NULL).")
    return destroy_handle(api, group_info, GroupInfo, "group info")


@binding("acl.rt.get_all_group_info", "k", needs=CONTEXT)
def get_all_group_info(api, group_info):
    """Fill the array with every group of the current device."""
    obj, ret = _info(api, group_info)
    if ret:
        return ret
    obj.entries = [dict(GROUP) for _ in range(obj.count)]
    return 0


@binding("acl.rt.get_group_info_detail", "kii", needs=CONTEXT, outs=1)
def get_group_info_detail(api, group_info, group_index, attr):
    """([value, ...], ret): one attribute of one group; the list has 4 entries (bytes), the first is the value."""
    obj, ret = _info(api, group_info)
    if not ret and not 0 <= group_index < GROUP_COUNT:
        ret = fail(100000, api, f"groupIndex {group_index} is not in [0, {GROUP_COUNT}).")
    if not ret and attr not in GROUP:
        ret = fail(100000, api, f"attr {attr} is no aclrtGroupAttr (0..5).")
    if ret:
        raise RuntimeError("aclrtGetGroupInfoDetail failed")
    entry = obj.entries[group_index] if group_index < len(obj.entries) else {}
    value = entry.get(attr, 0)  # an array never filled by get_all_group_info holds zeros (simulator: new[] garbage)
    return [value] + [0] * (G.VALUE_BYTES - 1), 0


__all__ = ["set_group", "get_group_count", "create_group_info", "destroy_group_info", "get_all_group_info",
           "get_group_info_detail"]
