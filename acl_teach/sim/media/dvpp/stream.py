"""acl.media's stream description (acldvppStreamDesc): one chunk of an H.264/H.265 stream for VDEC, or VENC's output.

A plain record like the pic desc: data (DVPP memory), size, format (acldvppStreamFormat),
timestamp, ret_code and the end-of-stream flag. Fresh descs hold zeros (UNCONFIRMED: the header
documents no other default). Setters check only the handle (100000), as ACL does; VDEC reads the
fields when the chunk is sent.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.args import binding
from .common import bad_handle, create, destroy, lookup
from ...core.state import fail, state

FIELDS = ("data", "size", "format", "timestamp", "ret_code", "eos")
_SET_FMT = {"data": "kk", "size": "kI", "format": "ki", "timestamp": "kK", "ret_code": "kI", "eos": "kB"}


@dataclass
class StreamDesc:
    """An acldvppStreamDesc; ``owner`` names VENC when VENC made it for a callback (it frees it after)."""

    data: int = 0
    size: int = 0
    format: int = 0
    timestamp: int = 0
    ret_code: int = 0
    eos: int = 0
    owner: str = ""


def stream_desc(handle: int) -> "StreamDesc | None":
    """The live stream desc behind ``handle``."""
    return lookup(handle, StreamDesc)


@binding("acl.media.dvpp_create_stream_desc")
def dvpp_create_stream_desc(api):
    """A new stream desc (0 on failure); it does not own its data buffer."""
    return create(api, StreamDesc(), "dvpp stream desc", "acl.media stream description")


@binding("acl.media.dvpp_destroy_stream_desc", "k")
def dvpp_destroy_stream_desc(api, stream_desc_):
    """Free the desc only, never its data. NULL -> 0 (the VDEC callback destroys the input desc it gets back)."""
    obj = stream_desc(stream_desc_)
    if obj is not None and obj.owner:
        return fail(100000, api, f"this stream desc belongs to {obj.owner}, which frees it when your callback "
                    f"returns (UNCONFIRMED code).")
    return destroy(api, stream_desc_, StreamDesc, "stream desc (acl.media.dvpp_create_stream_desc)")


def _setter(name: str):
    @binding(f"acl.media.dvpp_set_stream_desc_{name}", _SET_FMT[name])
    def setter(api, stream_desc_, value):
        obj = stream_desc(stream_desc_)
        if obj is None:
            return bad_handle(api, stream_desc_, "stream desc")
        setattr(obj, name, value)
        return 0
    setter.__name__ = f"dvpp_set_stream_desc_{name}"
    setter.__doc__ = f"Set the stream desc's {name.replace('_', ' ')} (checked when VDEC reads it)."
    return setter


def _getter(name: str):
    @binding(f"acl.media.dvpp_get_stream_desc_{name}", "k")
    def getter(api, stream_desc_):
        obj = stream_desc(stream_desc_)
        if obj is None:
            fail(100000, api, f"{state().describe_handle(stream_desc_)} is not a live stream desc; returning 0.")
            return 0
        return getattr(obj, name)
    getter.__name__ = f"dvpp_get_stream_desc_{name}"
    getter.__doc__ = f"The stream desc's {name.replace('_', ' ')} (bare value)."
    return getter


for _name in FIELDS:
    globals()[f"dvpp_set_stream_desc_{_name}"] = _setter(_name)
    globals()[f"dvpp_get_stream_desc_{_name}"] = _getter(_name)

__all__ = [n for n, f in dict(globals()).items() if n.startswith("dvpp_") and hasattr(f, "__acl_api__")]
