"""acl.media's batch VPC: crop (and paste) many ROIs of a batch of pictures into a batch of outputs in one task."""
from __future__ import annotations

from typing import List, Optional, Tuple

from ....spec import dvpp as D
from ...core.args import CONTEXT, binding
from .channel import live_channel
from .common import DEVICE_FAULT, bad_handle, lookup
from .config import RoiConfig
from .picdesc import BatchPicDesc, pic
from .vpc import _run
from ...rt.memory import _queue
from ...core.state import fail

MAX_AREAS = 256


def _list(value, what: str) -> list:
    if not isinstance(value, list):
        raise TypeError(f"argument {what} is not list")
    if not 1 <= len(value) <= MAX_AREAS:
        raise ValueError("number of crop areas must be between 1 and 256")
    return value


def _plan(api: str, channel_desc: int, src_batch: int, roi_nums: list, dst_batch: int, crop_rois: list,
          paste_rois: Optional[list]) -> Tuple[int, List[tuple]]:
    """(0, [(src, dst, crop, paste)]) or (code, []) after ACL's host checks."""
    ret = live_channel(api, channel_desc)
    if ret:
        return ret, []
    src, dst = lookup(src_batch, BatchPicDesc), lookup(dst_batch, BatchPicDesc)
    if src is None or dst is None:
        return bad_handle(api, src_batch if src is None else dst_batch, "batch pic desc"), []
    if any(not isinstance(n, int) or not 0 <= n <= MAX_AREAS for n in roi_nums):
        return fail(100000, api, f"roi_nums {roi_nums[:8]}{' …' if len(roi_nums) > 8 else ''}: each count must be "
                    f"0..{MAX_AREAS} (the number of crop areas of that input picture)."), []
    if len(roi_nums) > len(src.handles) or sum(roi_nums) != len(crop_rois) or len(crop_rois) > len(dst.handles):
        return fail(100000, api, f"roi_nums {roi_nums} must give a count per input picture (batch of "
                    f"{len(src.handles)}) adding up to len(crop_rois) = {len(crop_rois)} <= the output batch "
                    f"({len(dst.handles)})."), []
    rois = [lookup(h, RoiConfig) for h in crop_rois]
    pastes = [lookup(h, RoiConfig) for h in paste_rois] if paste_rois is not None else [None] * len(rois)
    if None in rois or (paste_rois is not None and None in pastes):
        return fail(100000, api, "a crop or paste ROI is not a live ROI config."), []
    plan, j = [], 0
    for i, count in enumerate(roi_nums):
        for _ in range(count):
            s, d = pic(src.handles[i]), pic(dst.handles[j])
            if s.format not in D.VPC_INPUT_FORMATS or d.format not in D.VPC_OUTPUT_FORMATS:
                return fail(100027, api, f"input {i} format {s.format} / output {j} format {d.format}: VPC takes "
                            f"0..19 and writes NV12/NV21 (1, 2) on the 310."), []
            plan.append((s, d, rois[j], pastes[j]))
            j += 1
    return 0, plan


def _queue_batch(api: str, stream: int, plan: List[tuple]) -> int:
    def task():
        first = None
        for s, d, roi, paste in plan:
            outcome = _run(s, d, roi, paste, 0, D.VPC_MAX)
            first = first or outcome
        return first
    return _queue(api, stream, f"dvpp_vpc_batch_crop x{len(plan)}", task, fault=DEVICE_FAULT)


@binding("acl.media.dvpp_vpc_batch_crop_async", "kkOkOk", needs=CONTEXT, outs=1)
def dvpp_vpc_batch_crop_async(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs, crop_areas,
                              stream):
    """(dst batch, ret): queue roi_nums[i] crops of input i, each into the next output (its ret_code per output)."""
    _list(roi_nums, "3 or 5"), _list(crop_areas, "3 or 5")
    ret, plan = _plan(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs, crop_areas, None)
    if ret:
        return dst_batch_pic_descs, ret
    return dst_batch_pic_descs, _queue_batch(api, stream, plan)


@binding("acl.media.dvpp_vpc_batch_crop_and_paste_async", "kkOkOOk", needs=CONTEXT, outs=1)
def dvpp_vpc_batch_crop_and_paste_async(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs,
                                        crop_areas, paste_areas, stream):
    """(dst batch, ret): as batch crop, each crop scaled into its paste ROI (len(paste) == len(crop))."""
    _list(roi_nums, "3, 5 or 6"), _list(crop_areas, "3, 5 or 6"), _list(paste_areas, "3, 5 or 6")
    if len(paste_areas) != len(crop_areas):
        raise ValueError("the number of paste areas must equal the number of crop areas")
    ret, plan = _plan(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs, crop_areas,
                      paste_areas)
    if ret:
        return dst_batch_pic_descs, ret
    return dst_batch_pic_descs, _queue_batch(api, stream, plan)


__all__ = [n for n in dir() if n.startswith("dvpp_")]
