"""acl.media's picture description (acldvppPicDesc): a plain record of data, size, format, width/height and strides."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

from ...core.args import binding
from .common import bad_handle, create, destroy, lookup
from ...core.state import fail, state

FIELDS = ("data", "size", "format", "width", "height", "width_stride", "height_stride", "ret_code")


@dataclass
class PicDesc:
    """Fresh-desc defaults as the header's getters document: all 0 (format 0 = PIXEL_FORMAT_YUV_400)."""

    data: int = 0
    size: int = 0
    format: int = 0
    width: int = 0
    height: int = 0
    width_stride: int = 0
    height_stride: int = 0
    ret_code: int = 0
    in_batch: bool = False


@dataclass
class BatchPicDesc:
    """An acldvppBatchPicDesc: ``batch_size`` embedded pic descs (borrowed handles)."""

    handles: List[int] = field(default_factory=list)


def pic(handle: int) -> "PicDesc | None":
    """The live pic desc behind ``handle``."""
    return lookup(handle, PicDesc)


@binding("acl.media.dvpp_create_pic_desc")
def dvpp_create_pic_desc(api):
    """A new picture desc (0 on failure); it does not own its data buffer."""
    return create(api, PicDesc(), "dvpp pic desc", "acl.media picture description")


@binding("acl.media.dvpp_destroy_pic_desc", "k")
def dvpp_destroy_pic_desc(api, pic_desc):
    """Free the desc only, never its data (dvpp_free that yourself). NULL -> 0."""
    obj = pic(pic_desc)
    if obj is not None and obj.in_batch:
        return fail(100000, api, "this pic desc belongs to a batch desc (dvpp_get_pic_desc); destroy the batch.")
    return destroy(api, pic_desc, PicDesc, "pic desc (acl.media.dvpp_create_pic_desc)")


def _setter(name: str, fmt: str):
    @binding(f"acl.media.dvpp_set_pic_desc_{name}", fmt)
    def setter(api, pic_desc, value):
        obj = pic(pic_desc)
        if obj is None:
            return bad_handle(api, pic_desc, "pic desc")
        setattr(obj, name, value)
        return 0
    setter.__name__ = f"dvpp_set_pic_desc_{name}"
    setter.__doc__ = f"Set the desc's {name.replace('_', ' ')} (no check here: the device checks at run time)."
    return setter


def _getter(name: str):
    @binding(f"acl.media.dvpp_get_pic_desc_{name}", "k")
    def getter(api, pic_desc):
        obj = pic(pic_desc)
        if obj is None:
            fail(100000, api, f"{state().describe_handle(pic_desc)} is not a live pic desc; returning 0.")
            return 0
        return getattr(obj, name)
    getter.__name__ = f"dvpp_get_pic_desc_{name}"
    getter.__doc__ = f"The desc's {name.replace('_', ' ')} (bare value)."
    return getter


_SET_FMT = {"data": "kk", "format": "ki"}
for _name in FIELDS:
    globals()[f"dvpp_set_pic_desc_{_name}"] = _setter(_name, _SET_FMT.get(_name, "kI"))
    globals()[f"dvpp_get_pic_desc_{_name}"] = _getter(_name)


MAX_BATCH = 1 << 16  # UNCONFIRMED bound: ACL allocates the whole batch at once, so a huge count fails there


@binding("acl.media.dvpp_create_batch_pic_desc", "I")
def dvpp_create_batch_pic_desc(api, batch_size):
    """A batch of ``batch_size`` pic descs (0 on failure; batch 0 -> 0, UNCONFIRMED).

    'I' does not check overflow, so -1 arrives as 4294967295: the simulator refuses more than
    MAX_BATCH descs (200000, UNCONFIRMED) before building anything, as the allocation would fail on a board.
    """
    if batch_size == 0:
        fail(100000, api, "batch_size must be at least 1 (UNCONFIRMED).")
        return 0
    if batch_size > MAX_BATCH:
        fail(200000, api, f"batch_size {batch_size} is more pic descs than can be allocated (the simulator allows "
             f"up to {MAX_BATCH}; a negative number arrives as 2**32 minus it). Pass the number of pictures.")
        return 0
    batch = BatchPicDesc()
    handle = create(api, batch, "dvpp batch pic desc", f"{batch_size} pic descs")
    if handle:
        batch.handles = [state().new_handle(PicDesc(in_batch=True)) for _ in range(batch_size)]
    return handle


@binding("acl.media.dvpp_get_pic_desc", "kI")
def dvpp_get_pic_desc(api, batch_pic_desc, index):
    """The ``index``-th pic desc of a batch (borrowed: destroy the batch, not it); 0 when out of range."""
    batch = lookup(batch_pic_desc, BatchPicDesc)
    if batch is None or index >= len(batch.handles):
        fail(100000, api, "not a live batch pic desc, or index out of range; returning 0.")
        return 0
    return batch.handles[index]


@binding("acl.media.dvpp_destroy_batch_pic_desc", "k")
def dvpp_destroy_batch_pic_desc(api, batch_pic_desc):
    """Free a batch desc and its embedded pic descs."""
    batch = lookup(batch_pic_desc, BatchPicDesc)
    if batch is not None:
        for h in batch.handles:
            state().handles.pop(h, None)
    return destroy(api, batch_pic_desc, BatchPicDesc, "batch pic desc")


__all__ = [n for n in dir() if n.startswith("dvpp_")]
