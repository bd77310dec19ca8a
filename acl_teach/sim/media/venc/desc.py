"""acl.media's VENC channel desc (aclvencChannelDesc) and frame config: what an encode channel is made from.

As for VDEC, the callback lives in the binding's table keyed by the desc (``g_callbackMapVenc``):
``venc_send_frame`` / ``venc_get_channel_desc_callback`` on a desc without one raise RuntimeError.
``venc_set/get_channel_desc_param`` reach every field by aclvencChannelDescParamType (spec.video).
Defaults of a fresh desc (UNCONFIRMED where the header is silent): H.265 main (0), NV12 (1), key
frame interval 30, the 310's fixed output buffer of 3686400 bytes, CBR (0), max bit rate 0 (= 300
kbit/s), source rate 0 (= 30 fps).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional

from ....spec import video as V
from ...core.args import binding
from ..dvpp.common import bad_handle, create, destroy, lookup
from ...core.state import fail, state


@dataclass
class VencChannelDesc:
    """An aclvencChannelDesc; ``channel`` is the live encode channel once venc_create_channel ran."""

    channel_id: int = 0
    thread_id: int = 0
    en_type: int = V.H265_MAIN_LEVEL
    pic_format: int = 1
    pic_width: int = 0
    pic_height: int = 0
    key_frame_interval: int = 30
    buf_addr: int = 0
    buf_size: int = V.VENC_BUF_SIZE_310
    rc_mode: int = 0
    src_rate: int = 0
    max_bit_rate: int = 0
    max_ip_prop: int = 0
    channel: Any = None


@dataclass
class VencFrameConfig:
    """An aclvencFrameConfig: force an I frame, or mark the end of the stream."""

    force_i_frame: int = 0
    eos: int = 0


def callbacks() -> Dict[int, Optional[Any]]:
    """The binding's callback table: channel desc handle -> callable (None once the channel was destroyed)."""
    return state().subsystems.setdefault("venc_callbacks", {})


def venc_desc(handle: int) -> Optional[VencChannelDesc]:
    """The live VENC channel desc behind ``handle``."""
    return lookup(handle, VencChannelDesc)


def frame_config(handle: int) -> Optional[VencFrameConfig]:
    """The live VENC frame config behind ``handle``."""
    return lookup(handle, VencFrameConfig)


@binding("acl.media.venc_create_channel_desc")
def venc_create_channel_desc(api):
    """A new VENC channel desc (0 on failure)."""
    return create(api, VencChannelDesc(), "venc channel desc", "acl.media VENC channel description")


@binding("acl.media.venc_destroy_channel_desc", "k")
def venc_destroy_channel_desc(api, channel_desc):
    """Free a channel desc (NULL -> 0); a channel still open on it is closed first (UNCONFIRMED)."""
    desc = venc_desc(channel_desc)
    if desc is not None and desc.channel is not None:
        _venc.close_channel(api, channel_desc, desc)
    return destroy(api, channel_desc, VencChannelDesc, "VENC channel desc (acl.media.venc_create_channel_desc)")


def _set_callback(api: str, channel_desc: int, callback: Any) -> int:
    if not callable(callback):
        raise TypeError("parameter must be callable\n[acl-teach] the VENC callback takes three arguments (input "
                        "pic desc, output stream desc, user data).")
    callbacks()[channel_desc] = callback
    if venc_desc(channel_desc) is None:
        return bad_handle(api, channel_desc, "VENC channel desc")
    return 0


@binding("acl.media.venc_set_channel_desc_callback", "kO")
def venc_set_channel_desc_callback(api, channel_desc, callback):
    """Store ``callback(input_pic_desc, output_stream_desc, user_data)``, run on the thread set by thread_id."""
    return _set_callback(api, channel_desc, callback)


def _callback_of(channel_desc: int) -> Any:
    table = callbacks()
    if channel_desc not in table:
        raise RuntimeError("did not set callback, failed")
    return table[channel_desc]


@binding("acl.media.venc_get_channel_desc_callback", "k")
def venc_get_channel_desc_callback(api, channel_desc):
    """The callback set on this desc; RuntimeError when none was, as the binding raises."""
    return _callback_of(channel_desc)


_SETTERS = {"thread_id": "kK", "entype": "ki", "pic_format": "ki", "pic_width": "kI", "pic_height": "kI",
            "key_frame_interval": "kI", "buf_addr": "kk", "buf_size": "kI", "max_bit_rate": "kI", "rc_mode": "kI",
            "src_rate": "kI"}
_GETTERS = ("channel_id",) + tuple(_SETTERS)
_PARAM_FIELDS = {V.ACL_VENC_THREAD_ID_UINT64: "thread_id", V.ACL_VENC_PIXEL_FORMAT_UINT32: "pic_format",
                 V.ACL_VENC_ENCODE_TYPE_UINT32: "en_type", V.ACL_VENC_PIC_WIDTH_UINT32: "pic_width",
                 V.ACL_VENC_PIC_HEIGHT_UINT32: "pic_height", V.ACL_VENC_KEY_FRAME_INTERVAL_UINT32: "key_frame_interval",
                 V.ACL_VENC_BUF_ADDR_PTR: "buf_addr", V.ACL_VENC_BUF_SIZE_UINT32: "buf_size",
                 V.ACL_VENC_RC_MODE_UINT32: "rc_mode", V.ACL_VENC_SRC_RATE_UINT32: "src_rate",
                 V.ACL_VENC_MAX_BITRATE_UINT32: "max_bit_rate", V.ACL_VENC_MAX_IP_PROP_UINT32: "max_ip_prop"}


def _field(name: str) -> str:
    return "en_type" if name == "entype" else name


def _check(api: str, desc: VencChannelDesc, field: str, value: int) -> int:
    """The range checks ACL's VENC setters make (from the parameter pages; codes UNCONFIRMED)."""
    if desc.channel is not None:
        return fail(100000, api, "the channel is already created: set the desc before venc_create_channel "
                    "(UNCONFIRMED code).")
    if field == "max_bit_rate" and value and not 10 <= value <= 30000:
        return fail(100000, api, f"max bit rate {value}: 0 (default 300) or 10..30000 kbit/s on the 310.")
    if field == "src_rate" and value > 120:
        return fail(100000, api, f"source rate {value}: 0 (default) or 1..120 fps on the 310.")
    if field == "max_ip_prop" and value > 100:
        return fail(100000, api, f"I/P bit ratio {value}: 0 (default) or 1..100.")
    return 0


def _setter(name: str):
    @binding(f"acl.media.venc_set_channel_desc_{name}", _SETTERS[name])
    def setter(api, channel_desc, value):
        desc = venc_desc(channel_desc)
        if desc is None:
            return bad_handle(api, channel_desc, "VENC channel desc")
        ret = _check(api, desc, _field(name), value)
        if not ret:
            setattr(desc, _field(name), value)
        return ret
    setter.__name__ = f"venc_set_channel_desc_{name}"
    setter.__doc__ = f"Set the VENC channel desc's {name.replace('_', ' ')} (read when the channel is created)."
    return setter


def _getter(name: str):
    @binding(f"acl.media.venc_get_channel_desc_{name}", "k")
    def getter(api, channel_desc):
        desc = venc_desc(channel_desc)
        if desc is None:
            fail(100000, api, f"{state().describe_handle(channel_desc)} is not a live VENC channel desc; returning 0.")
            return 0
        return getattr(desc, _field(name))
    getter.__name__ = f"venc_get_channel_desc_{name}"
    getter.__doc__ = f"The VENC channel desc's {name.replace('_', ' ')} (bare value)."
    return getter


for _name in _SETTERS:
    globals()[f"venc_set_channel_desc_{_name}"] = _setter(_name)
for _name in _GETTERS:
    globals()[f"venc_get_channel_desc_{_name}"] = _getter(_name)


def _param_value(param: Any, letter: str) -> int:
    """PyArg_Parse(param, letter) for the integer letters the binding uses (k, K, I)."""
    if isinstance(param, bool) or not isinstance(param, int):
        if hasattr(param, "__index__") and letter == "I":
            param = param.__index__()
        else:
            raise TypeError("acl.media.venc_set_channel_desc_param args parse failed!")
    return int(param) & ((1 << 64) - 1 if letter in "kK" else (1 << 32) - 1)


@binding("acl.media.venc_set_channel_desc_param", "kiO")
def venc_set_channel_desc_param(api, channel_desc, param_type, param):
    """Set one field by aclvencChannelDescParamType: the callback, an address, a thread id or a uint32."""
    if param_type == V.ACL_VENC_CALLBACK_PTR:
        if not callable(param):  # the binding sets TypeError yet returns a value: CPython turns that into SystemError
            raise SystemError("<built-in function venc_set_channel_desc_param> returned a result with an exception "
                              "set") from TypeError("parameter must be callable")
        return _set_callback(api, channel_desc, param)
    letter = "k" if param_type == V.ACL_VENC_BUF_ADDR_PTR else "K" if param_type == V.ACL_VENC_THREAD_ID_UINT64 else "I"
    value = _param_value(param, letter)
    desc = venc_desc(channel_desc)
    if desc is None:
        return bad_handle(api, channel_desc, "VENC channel desc")
    field = _PARAM_FIELDS.get(param_type)
    if field is None:
        return fail(100000, api, f"param type {param_type} is not an aclvencChannelDescParamType (0..12).")
    ret = _check(api, desc, field, value)
    if not ret:
        setattr(desc, field, value)
    return ret


@binding("acl.media.venc_get_channel_desc_param", "ki")
def venc_get_channel_desc_param(api, channel_desc, param_type):
    """(value, ret) of one field by aclvencChannelDescParamType ((callback, 0) for ACL_VENC_CALLBACK_PTR)."""
    if param_type == V.ACL_VENC_CALLBACK_PTR:
        return _callback_of(channel_desc), 0
    desc = venc_desc(channel_desc)
    if desc is None:
        return 0, bad_handle(api, channel_desc, "VENC channel desc")
    field = _PARAM_FIELDS.get(param_type)
    if field is None:
        return 0, fail(100000, api, f"param type {param_type} is not an aclvencChannelDescParamType (0..12).")
    return getattr(desc, field), 0


@binding("acl.media.venc_create_frame_config")
def venc_create_frame_config(api):
    """A new VENC frame config (0 on failure): force_i_frame 0, eos 0."""
    return create(api, VencFrameConfig(), "venc frame config", "acl.media VENC frame config")


@binding("acl.media.venc_destroy_frame_config", "k")
def venc_destroy_frame_config(api, frame_config_):
    """Free a frame config (NULL -> 0)."""
    return destroy(api, frame_config_, VencFrameConfig, "VENC frame config (acl.media.venc_create_frame_config)")


def _config_setter(name: str):
    @binding(f"acl.media.venc_set_frame_config_{name}", "kB")
    def setter(api, frame_config_, value):
        cfg = frame_config(frame_config_)
        if cfg is None:
            return bad_handle(api, frame_config_, "VENC frame config")
        setattr(cfg, name, value)
        return 0
    setter.__name__ = f"venc_set_frame_config_{name}"
    setter.__doc__ = f"Set the frame config's {name.replace('_', ' ')} flag (0 or 1) for the next send_frame."
    return setter


def _config_getter(name: str):
    @binding(f"acl.media.venc_get_frame_config_{name}", "k")
    def getter(api, frame_config_):
        cfg = frame_config(frame_config_)
        if cfg is None:
            fail(100000, api, f"{state().describe_handle(frame_config_)} is not a live VENC frame config; returning 0.")
            return 0
        return getattr(cfg, name)
    getter.__name__ = f"venc_get_frame_config_{name}"
    getter.__doc__ = f"The frame config's {name.replace('_', ' ')} flag (bare value)."
    return getter


for _name in ("force_i_frame", "eos"):
    globals()[f"venc_set_frame_config_{_name}"] = _config_setter(_name)
    globals()[f"venc_get_frame_config_{_name}"] = _config_getter(_name)

__all__ = [n for n, f in dict(globals()).items() if n.startswith("venc_") and hasattr(f, "__acl_api__")]


from . import encode as _venc  # noqa: E402  (the channel module builds on this one: imported last, never at a call)
