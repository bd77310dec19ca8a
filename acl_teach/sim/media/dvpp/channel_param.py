"""acl.media's DVPP channel desc parameters: ``dvpp_set/get_channel_desc_param`` (the CSC matrix the channel converts with).

As the binding calls them: set takes the value itself as an int (``"kik"``; 4 bytes are passed for
ACL_DVPP_CSC_MATRIX_UINT32 = 0, none for any other type) and returns ``(channel_desc, ret)``; get
returns ``(size, value, ret)``. The stored matrix (acldvppCscMatrix, 0 = BT.601 wide by default) is
not used by the simulator's VPC (UNCONFIRMED what the 310 does with it).
"""
from __future__ import annotations

from ...core.args import binding
from .channel import ChannelDesc
from .common import bad_handle, lookup
from ...core.state import fail

ACL_DVPP_CSC_MATRIX_UINT32 = 0


@binding("acl.media.dvpp_set_channel_desc_param", "kik")
def dvpp_set_channel_desc_param(api, channel_desc, param_type, param):
    """(channel_desc, ret): set the channel's CSC matrix (param type 0)."""
    desc = lookup(channel_desc, ChannelDesc)
    if desc is None:
        return channel_desc, bad_handle(api, channel_desc, "DVPP channel desc")
    if param_type != ACL_DVPP_CSC_MATRIX_UINT32:
        return channel_desc, fail(100000, api, f"param type {param_type}: only ACL_DVPP_CSC_MATRIX_UINT32 (0) exists "
                                  f"(the binding passes length 0 for others).")
    desc.csc_matrix = param & 0xFFFFFFFF
    return channel_desc, 0


@binding("acl.media.dvpp_get_channel_desc_param", "ki")
def dvpp_get_channel_desc_param(api, channel_desc, param_type):
    """(size, value, ret) of a channel parameter: (4, csc matrix, 0) for param type 0."""
    desc = lookup(channel_desc, ChannelDesc)
    if desc is None:
        return 0, 0, bad_handle(api, channel_desc, "DVPP channel desc")
    if param_type != ACL_DVPP_CSC_MATRIX_UINT32:
        return 0, 0, fail(100000, api, f"param type {param_type}: only ACL_DVPP_CSC_MATRIX_UINT32 (0) exists.")
    return 4, getattr(desc, "csc_matrix", 0), 0


__all__ = [n for n, f in dict(globals()).items() if n.startswith("dvpp_") and hasattr(f, "__acl_api__")]
