"""acl.media's DVPP channel: every JPEGD/VPC call runs on a channel created from a channel desc."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from ...core.args import CONTEXT, binding
from .common import bad_handle, create, destroy, lookup
from ...core.state import fail, state

_ids = itertools.count(0)


@dataclass
class ChannelDesc:
    """An acldvppChannelDesc: its channel id and whether dvpp_create_channel ran on it."""

    channel_id: int = 0
    created: bool = False
    mode: int = 0


@binding("acl.media.dvpp_create_channel_desc")
def dvpp_create_channel_desc(api):
    """A new channel desc (0 on failure)."""
    return create(api, ChannelDesc(), "dvpp channel desc", "acl.media channel description")


@binding("acl.media.dvpp_destroy_channel_desc", "k")
def dvpp_destroy_channel_desc(api, channel_desc):
    """Free a channel desc (NULL -> 0). Destroy the channel first, as the samples do."""
    desc = lookup(channel_desc, ChannelDesc)
    if desc is not None and desc.created:  # UNCONFIRMED what a board does: the simulator frees both
        desc.created = False
        state().ledger.release(("channel", channel_desc), api)
    return destroy(api, channel_desc, ChannelDesc, "DVPP channel desc (acl.media.dvpp_create_channel_desc)")


@binding("acl.media.dvpp_create_channel", "k", needs=CONTEXT)
def dvpp_create_channel(api, channel_desc):
    """Create the channel (VPC + JPEGD + JPEGE on the 310) described by ``channel_desc``."""
    desc = lookup(channel_desc, ChannelDesc)
    if desc is None:
        return bad_handle(api, channel_desc, "DVPP channel desc (acl.media.dvpp_create_channel_desc)")
    if desc.created:
        return fail(100000, api, "this channel desc already has a channel (UNCONFIRMED code).")
    desc.created, desc.channel_id = True, next(_ids)
    state().ledger.add("dvpp channel", channel_desc, f"channel {desc.channel_id}", key=("channel", channel_desc))
    return 0


@binding("acl.media.dvpp_destroy_channel", "k", needs=CONTEXT)
def dvpp_destroy_channel(api, channel_desc):
    """Destroy a channel made by dvpp_create_channel (the desc stays until dvpp_destroy_channel_desc)."""
    desc = lookup(channel_desc, ChannelDesc)
    if desc is None or not desc.created:
        return bad_handle(api, channel_desc, "DVPP channel (acl.media.dvpp_create_channel)")
    desc.created = False
    state().ledger.release(("channel", channel_desc), api)
    return 0


@binding("acl.media.dvpp_get_channel_desc_channel_id", "k")
def dvpp_get_channel_desc_channel_id(api, channel_desc):
    """The channel id (0 for a desc without channel, or not a desc)."""
    desc = lookup(channel_desc, ChannelDesc)
    return desc.channel_id if desc is not None else 0


@binding("acl.media.dvpp_set_channel_desc_mode", "kI")
def dvpp_set_channel_desc_mode(api, channel_desc, mode):
    """Channel mode (VPC=1, JPEGD=2, JPEGE=4): not supported by the 310's DVPP (200006), stored elsewhere."""
    desc = lookup(channel_desc, ChannelDesc)
    if desc is None:
        return bad_handle(api, channel_desc, "DVPP channel desc")
    soc = state().config.soc_name
    if soc.startswith("Ascend310") and soc[9:10] not in ("P", "B"):
        return fail(200006, api, f"{soc}'s DVPP (V100) has no channel modes: one channel does VPC, JPEGD "
                    f"and JPEGE.")
    desc.mode = mode
    return 0


def live_channel(api: str, channel_desc: int) -> int:
    """0 when ``channel_desc`` has a created channel, else 100000 (UNCONFIRMED for a desc without channel)."""
    desc = lookup(channel_desc, ChannelDesc)
    if desc is None:
        return bad_handle(api, channel_desc, "DVPP channel desc")
    if not desc.created:
        return fail(100000, api, "acl.media.dvpp_create_channel was not called on this channel desc "
                    "(UNCONFIRMED code: ACL requires the channel's notify, which only create_channel makes).")
    return 0
