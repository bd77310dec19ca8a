"""acl.media's VDEC channel desc (aclvdecChannelDesc) and frame config: what a decode channel is made from.

Setters store, getters return the bare value (0 for a handle that is not a desc, as ACL's getters
do for NULL). The callback lives in the binding's own table keyed by the desc (``g_callbackMap`` in
media_vdec.cpp), so ``vdec_send_frame`` on a desc that never got one raises RuntimeError('did not
set callback, failed') before ACL is called, and ``vdec_destroy_channel`` forgets it. Defaults of a
fresh desc (UNCONFIRMED where the header is silent): channel 0, H.265 main (0), NV12 output (1),
out mode 0, bit depth 0 (8-bit).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional

from ....spec import video as V
from ...core.args import binding
from ..dvpp.common import bad_handle, create, destroy, lookup
from ...core.state import fail, state


@dataclass
class VdecChannelDesc:
    """An aclvdecChannelDesc; ``channel`` is the live decode channel once vdec_create_channel ran."""

    channel_id: int = 0
    thread_id: int = 0
    en_type: int = V.H265_MAIN_LEVEL
    out_pic_format: int = 1
    out_pic_width: int = 0
    out_pic_height: int = 0
    ref_frame_num: int = 0
    out_mode: int = 0
    bit_depth: int = 0
    csc_matrix: int = 0
    channel: Any = None


@dataclass
class VdecFrameConfig:
    """An aclvdecFrameConfig: pyACL sets nothing on it (reserved); send_frame takes it or 0."""


def callbacks() -> Dict[int, Optional[Any]]:
    """The binding's callback table: channel desc handle -> callable (None once the channel was destroyed)."""
    return state().subsystems.setdefault("vdec_callbacks", {})


def vdec_desc(handle: int) -> Optional[VdecChannelDesc]:
    """The live VDEC channel desc behind ``handle``."""
    return lookup(handle, VdecChannelDesc)


@binding("acl.media.vdec_create_channel_desc")
def vdec_create_channel_desc(api):
    """A new VDEC channel desc (0 on failure)."""
    return create(api, VdecChannelDesc(), "vdec channel desc", "acl.media VDEC channel description")


@binding("acl.media.vdec_destroy_channel_desc", "k")
def vdec_destroy_channel_desc(api, channel_desc):
    """Free a channel desc (NULL -> 0); a channel still open on it is closed first (UNCONFIRMED)."""
    desc = vdec_desc(channel_desc)
    if desc is not None and desc.channel is not None:
        _vdec.close_channel(api, channel_desc, desc)
    return destroy(api, channel_desc, VdecChannelDesc, "VDEC channel desc (acl.media.vdec_create_channel_desc)")


@binding("acl.media.vdec_set_channel_desc_callback", "kO")
def vdec_set_channel_desc_callback(api, channel_desc, callback):
    """Store ``callback(input_stream_desc, output_pic_desc, user_data)``, called on the thread set by thread_id."""
    if not callable(callback):
        raise TypeError("parameter must be callable\n[acl-teach] acl.media.vdec_set_channel_desc_callback takes "
                        "a function of three arguments (input stream desc, output pic desc, user data).")
    callbacks()[channel_desc] = callback
    if vdec_desc(channel_desc) is None:
        return bad_handle(api, channel_desc, "VDEC channel desc")
    return 0


@binding("acl.media.vdec_get_channel_desc_callback", "k")
def vdec_get_channel_desc_callback(api, channel_desc):
    """The callback set on this desc; RuntimeError when none was, as the binding raises."""
    table = callbacks()
    if channel_desc not in table:
        raise RuntimeError("did not set callback, failed")
    return table[channel_desc]


def _check_channel_id(api: str, value: int) -> int:
    limit = V.channel_limit(state().config.soc_name)
    if value >= limit:
        return fail(100000, api, f"channel id {value} is out of range: {state().config.soc_name} has VDEC channels "
                    f"0..{limit - 1} (UNCONFIRMED range and code).")
    return 0


def _check_out_mode(api: str, value: int) -> int:
    if value > 1:
        return fail(100000, api, f"out mode {value}: 0 (default, display order) or 1 (fast) (UNCONFIRMED code).")
    return 0


_CHECKS = {"channel_id": _check_channel_id, "out_mode": _check_out_mode}
_SETTERS = {"channel_id": "kI", "thread_id": "kK", "entype": "ki", "out_pic_format": "ki", "out_pic_width": "kI",
            "out_pic_height": "kI", "ref_frame_num": "kI", "out_mode": "kI", "bit_depth": "kI"}
_GETTERS = {"channel_id": "I", "thread_id": "K", "entype": "i", "out_pic_format": "i", "out_pic_width": "I",
            "out_pic_height": "I", "ref_frame_num": "I", "out_mode": "I", "bit_depth": "i"}


def _field(name: str) -> str:
    return "en_type" if name == "entype" else name


def _setter(name: str):
    @binding(f"acl.media.vdec_set_channel_desc_{name}", _SETTERS[name])
    def setter(api, channel_desc, value):
        desc = vdec_desc(channel_desc)
        if desc is None:
            return bad_handle(api, channel_desc, "VDEC channel desc")
        check = _CHECKS.get(name)
        ret = check(api, value) if check else 0
        if not ret:
            setattr(desc, _field(name), value)
        return ret
    setter.__name__ = f"vdec_set_channel_desc_{name}"
    setter.__doc__ = f"Set the VDEC channel desc's {name.replace('_', ' ')} (read when the channel is created)."
    return setter


def _getter(name: str):
    @binding(f"acl.media.vdec_get_channel_desc_{name}", "k")
    def getter(api, channel_desc):
        desc = vdec_desc(channel_desc)
        if desc is None:
            fail(100000, api, f"{state().describe_handle(channel_desc)} is not a live VDEC channel desc; returning 0.")
            return 0
        return getattr(desc, _field(name))
    getter.__name__ = f"vdec_get_channel_desc_{name}"
    getter.__doc__ = f"The VDEC channel desc's {name.replace('_', ' ')} (bare value)."
    return getter


for _name in _SETTERS:
    globals()[f"vdec_set_channel_desc_{_name}"] = _setter(_name)
    globals()[f"vdec_get_channel_desc_{_name}"] = _getter(_name)


@binding("acl.media.vdec_set_channel_desc_param", "kik")
def vdec_set_channel_desc_param(api, channel_desc, param_type, param):
    """(channel_desc, ret): set a parameter; the binding passes the int itself as the value (4 bytes for the CSC matrix)."""
    desc = vdec_desc(channel_desc)
    if desc is None:
        return channel_desc, bad_handle(api, channel_desc, "VDEC channel desc")
    if param_type != V.ACL_VDEC_CSC_MATRIX_UINT32:
        return channel_desc, fail(100000, api, f"param type {param_type}: only ACL_VDEC_CSC_MATRIX_UINT32 (0) "
                                  f"exists (the binding passes length 0 for others).")
    desc.csc_matrix = param & 0xFFFFFFFF
    return channel_desc, 0


@binding("acl.media.vdec_get_channel_desc_param", "ki")
def vdec_get_channel_desc_param(api, channel_desc, param_type):
    """(size, value, ret) of a parameter: (4, csc matrix, 0) for ACL_VDEC_CSC_MATRIX_UINT32."""
    desc = vdec_desc(channel_desc)
    if desc is None:
        return 0, 0, bad_handle(api, channel_desc, "VDEC channel desc")
    if param_type != V.ACL_VDEC_CSC_MATRIX_UINT32:
        return 0, 0, fail(100000, api, f"param type {param_type}: only ACL_VDEC_CSC_MATRIX_UINT32 (0) exists.")
    return 4, desc.csc_matrix, 0


@binding("acl.media.vdec_create_frame_config")
def vdec_create_frame_config(api):
    """A new VDEC frame config (0 on failure)."""
    return create(api, VdecFrameConfig(), "vdec frame config", "acl.media VDEC frame config")


@binding("acl.media.vdec_destroy_frame_config", "k")
def vdec_destroy_frame_config(api, frame_config):
    """Free a frame config (NULL -> 0)."""
    return destroy(api, frame_config, VdecFrameConfig, "VDEC frame config (acl.media.vdec_create_frame_config)")


__all__ = [n for n, f in dict(globals()).items() if n.startswith("vdec_") and hasattr(f, "__acl_api__")]


from . import decode as _vdec  # noqa: E402  (the channel module builds on this one: imported last, never at a call)
