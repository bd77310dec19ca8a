"""acl.media's batch crop-resize family: batch crop/paste with a resize config, batch crop-resize-make-border, pyramid down.

``dvpp_vpc_batch_crop_resize_async`` and ``dvpp_vpc_batch_crop_resize_paste_async`` are batch crop
and batch crop-and-paste with an explicit interpolation; unlike those two they return a bare ret,
and the binding checks only that the list arguments are lists ("argument N is not list"), leaving
the counts to ACL (100000). ``dvpp_vpc_batch_crop_resize_make_border_async`` (one border config per
crop) and ``dvpp_vpc_pyr_down_async`` are implemented by ACL's V200 image processor only (310P and
newer): on the 310 they return 200006 (UNCONFIRMED: the V100 library has no such task). Elsewhere
make-border scales each crop into the output minus its borders, then fills the borders as the border
config says (constant colour per Y/U/V channel, replicate, reflect, reflect 101; widths must be even
for NV12/NV21, UNCONFIRMED), and pyr-down writes a half-size YUV400 picture (5-tap Gaussian, as
OpenCV's pyrDown; UNCONFIRMED kernel).
"""
from __future__ import annotations

from typing import List

import numpy as np

from ....spec import dvpp as D
from ...core.args import CONTEXT, binding
from .border import BORDER_CONSTANT, BorderConfig
from .channel import live_channel
from .common import DEVICE_FAULT, bad_handle, device_fault, dvpp_region, lookup
from .picdesc import PicDesc, pic
from .pixels import crop, read, resize, write
from .vpc import _interpolation, _picture_rule, _roi_rule, _run
from .vpc_batch import _plan
from ...rt.memory import _queue
from ...core.state import fail, state

_PAD_MODES = {1: "edge", 2: "symmetric", 3: "reflect"}  # BORDER_REPLICATE, REFLECT, REFLECT_101


def _lists(*pairs) -> None:
    """The binding's PyList_Check on each list argument, with its own message."""
    for value, message in pairs:
        if not isinstance(value, list):
            raise TypeError(message)


def _count(api: str, crop_areas: list) -> int:
    if not 1 <= len(crop_areas) <= 256:
        return fail(100000, api, f"{len(crop_areas)} crop areas: ACL takes 1..256 per call.")
    return 0


def _v100(soc: str) -> bool:
    return soc.startswith("Ascend310") and soc[9:10] not in ("P", "B")


def _queue_plan(api: str, stream: int, label: str, plan: List[tuple], interpolation: int) -> int:
    def task():
        first = None
        for s, d, roi, paste in plan:
            first = first or _run(s, d, roi, paste, interpolation, D.VPC_MAX)
        return first
    return _queue(api, stream, f"{label} x{len(plan)}", task, fault=DEVICE_FAULT)


@binding("acl.media.dvpp_vpc_batch_crop_resize_async", "kkOkOkk", needs=CONTEXT)
def dvpp_vpc_batch_crop_resize_async(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs,
                                     crop_areas, resize_config, stream):
    """Queue roi_nums[i] crops of input i, each scaled into the next output with the config's interpolation."""
    _lists((roi_nums, "argument 3 is not list"), (crop_areas, "argument 5 is not list"))
    ret = _count(api, crop_areas)
    interpolation, ret = (0, ret) if ret else _interpolation(api, resize_config)
    if ret:
        return ret
    ret, plan = _plan(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs, crop_areas, None)
    return ret or _queue_plan(api, stream, "dvpp_vpc_batch_crop_resize", plan, interpolation)


@binding("acl.media.dvpp_vpc_batch_crop_resize_paste_async", "kkOkOOkk", needs=CONTEXT)
def dvpp_vpc_batch_crop_resize_paste_async(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs,
                                           crop_areas, paste_areas, resize_config, stream):
    """As batch crop-resize, each crop scaled into its paste ROI of its output."""
    _lists((roi_nums, "argument 3 is not list"), (crop_areas, "argument 5 is not list"),
           (paste_areas, "argument 6 is not list"))
    ret = _count(api, crop_areas)
    if not ret and len(paste_areas) != len(crop_areas):
        ret = fail(100000, api, f"{len(paste_areas)} paste areas for {len(crop_areas)} crop areas: one each.")
    interpolation, ret = (0, ret) if ret else _interpolation(api, resize_config)
    if ret:
        return ret
    ret, plan = _plan(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs, crop_areas,
                      paste_areas)
    return ret or _queue_plan(api, stream, "dvpp_vpc_batch_crop_resize_paste", plan, interpolation)


def _bordered(planes, fmt: int, cfg: BorderConfig):
    """The planes with the config's borders added around them."""
    sx, sy, _ = D.SEMIPLANAR[fmt]
    out = []
    for i, plane in enumerate(planes):
        fx, fy = (1, 1) if i == 0 else (sx, sy)
        widths = ((cfg.top // fy, cfg.bottom // fy), (cfg.left // fx, cfg.right // fx))
        if cfg.border_type == BORDER_CONSTANT:
            value = int(round(min(max(cfg.value[i], 0.0), 255.0)))
            out.append(np.pad(plane, widths, mode="constant", constant_values=value))
        else:
            out.append(np.pad(plane, widths, mode=_PAD_MODES[cfg.border_type]))
    return tuple(out)


def _make_border(src: PicDesc, dst: PicDesc, roi, cfg: BorderConfig, interpolation: int):
    """The device side for one crop: check, crop, scale into the inner box, add the borders, write."""
    why = _picture_rule(src, "input", D.VPC_MAX) or _picture_rule(dst, "output", D.VPC_MAX)
    w, h = src.width & ~1, src.height & ~1
    why = why or _roi_rule(roi, "crop", w, h, False)
    inner_w, inner_h = dst.width - cfg.left - cfg.right, dst.height - cfg.top - cfg.bottom
    if not why and any(v % 2 for v in (cfg.top, cfg.bottom, cfg.left, cfg.right)):
        why = "border widths must be even for an NV12/NV21 output"
    if not why and (inner_w < D.VPC_MIN_W or inner_h < D.VPC_MIN_H):
        why = f"the output {dst.width}x{dst.height} minus its borders leaves {inner_w}x{inner_h}"
    if why:
        return device_fault(dst, f"VPC make border: {why}")
    s_need = D.image_bytes(src.format, src.width_stride, src.height_stride)
    d_need = D.image_bytes(dst.format, dst.width_stride, dst.height_stride)
    s_region, s_off, why = dvpp_region(src.data, s_need, "input picture data")
    d_region, d_off, why_d = dvpp_region(dst.data, d_need, "output picture data")
    if s_region is None or d_region is None:
        return device_fault(dst, f"VPC make border: {why or why_d}")
    planes = read(s_region.view(s_off, s_need), src.format, w, h, src.width_stride, src.height_stride)
    planes = crop(planes, src.format, roi.left, roi.top, roi.width & ~1, roi.height & ~1)
    planes = resize(planes, dst.format, inner_w, inner_h, interpolation)
    write(d_region.view(d_off, d_need), dst.format, _bordered(planes, dst.format, cfg), 0, 0, dst.width_stride,
          dst.height_stride)
    dst.ret_code = 0
    return None


@binding("acl.media.dvpp_vpc_batch_crop_resize_make_border_async", "kkOkOOkk", needs=CONTEXT)
def dvpp_vpc_batch_crop_resize_make_border_async(api, channel_desc, src_batch_pic_descs, roi_nums,
                                                 dst_batch_pic_descs, crop_areas, border_cfgs, resize_config, stream):
    """Queue crop -> resize into the output minus its borders -> fill the borders (310P and newer; 310: 200006)."""
    _lists((roi_nums, "the third argument is not list"), (crop_areas, "the fifth argument is not list"),
           (border_cfgs, "the sixth argument is not list"))
    if _v100(state().config.soc_name):
        return fail(200006, api, f"{state().config.soc_name}'s DVPP (V100) has no make-border task (310P and newer "
                    f"do; UNCONFIRMED code).")
    ret = _count(api, crop_areas)
    if not ret and len(border_cfgs) != len(crop_areas):
        ret = fail(100000, api, f"{len(border_cfgs)} border configs for {len(crop_areas)} crop areas: one each.")
    borders = [lookup(h, BorderConfig) for h in border_cfgs]
    if not ret and None in borders:
        ret = fail(100000, api, "a border config is not a live border config (acl.media.dvpp_create_border_config).")
    interpolation, ret = (0, ret) if ret else _interpolation(api, resize_config)
    if ret:
        return ret
    ret, plan = _plan(api, channel_desc, src_batch_pic_descs, roi_nums, dst_batch_pic_descs, crop_areas, None)
    if ret:
        return ret

    def task():
        first = None
        for (s, d, roi, _), cfg in zip(plan, borders):
            first = first or _make_border(s, d, roi, cfg, interpolation)
        return first
    return _queue(api, stream, f"dvpp_vpc_batch_crop_resize_make_border x{len(plan)}", task, fault=DEVICE_FAULT)


def _pyr_down(plane: np.ndarray) -> np.ndarray:
    """OpenCV's pyrDown: 5-tap [1 4 6 4 1]/16 Gaussian (reflect 101 edges), then every second pixel."""
    k = np.array([1, 4, 6, 4, 1], np.float64) / 16
    padded = np.pad(plane.astype(np.float64), 2, mode="reflect")
    rows = sum(k[i] * padded[:, i:i + plane.shape[1]] for i in range(5))
    both = sum(k[i] * rows[i:i + plane.shape[0], :] for i in range(5))
    return np.clip(np.rint(both[::2, ::2]), 0, 255).astype(np.uint8)


@binding("acl.media.dvpp_vpc_pyr_down_async", "kkkkk", needs=CONTEXT)
def dvpp_vpc_pyr_down_async(api, channel_desc, input_desc, output_desc, reserve, stream):
    """Queue a half-size Gaussian pyramid level of the input's luma, written as YUV400 (310P and newer; 310: 200006)."""
    if _v100(state().config.soc_name):
        return fail(200006, api, f"{state().config.soc_name}'s DVPP (V100) has no pyramid-down task (UNCONFIRMED "
                    f"code).")
    ret = live_channel(api, channel_desc)
    if ret:
        return ret
    src, dst = pic(input_desc), pic(output_desc)
    if src is None or dst is None:
        return bad_handle(api, input_desc if src is None else output_desc, "pic desc")
    if reserve != 0:
        return fail(100000, api, "reserve must be 0 (NULL).")
    if dst.format != D.PIXEL_FORMAT_YUV_400:
        return fail(100027, api, f"output format {dst.format}: pyramid down writes PIXEL_FORMAT_YUV_400 (0).")

    def task():
        ow, oh = (src.width + 1) // 2, (src.height + 1) // 2
        if (dst.width, dst.height) != (ow, oh) or dst.width_stride < ow or dst.height_stride < oh:
            return device_fault(dst, f"VPC pyr down: a {src.width}x{src.height} input gives {ow}x{oh}; the output "
                                f"desc says {dst.width}x{dst.height} (strides {dst.width_stride}x{dst.height_stride})")
        s_need = D.image_bytes(src.format, src.width_stride, src.height_stride)
        s_region, s_off, why = dvpp_region(src.data, s_need, "input picture data")
        d_need = dst.width_stride * dst.height_stride
        d_region, d_off, why_d = dvpp_region(dst.data, d_need, "output picture data")
        if s_region is None or d_region is None or src.format not in D.SEMIPLANAR:
            return device_fault(dst, f"VPC pyr down: {why or why_d or 'the input must be semi-planar YUV'}")
        y = read(s_region.view(s_off, s_need), src.format, src.width, src.height, src.width_stride,
                 src.height_stride)[0]
        d_region.view(d_off, d_need).reshape(dst.height_stride, dst.width_stride)[:oh, :ow] = _pyr_down(y)
        dst.ret_code = 0
        return None
    return _queue(api, stream, "dvpp_vpc_pyr_down", task, fault=DEVICE_FAULT)


__all__ = [n for n, f in dict(globals()).items() if n.startswith("dvpp_") and hasattr(f, "__acl_api__")]
