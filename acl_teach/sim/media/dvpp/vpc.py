"""acl.media's VPC: resize, crop, crop-and-paste of NV12/NV21 pictures in DVPP memory, queued on a stream.

Host checks are ACL's (reference §6.1): handles (100000), VPC input format 0..19 and output
format NV12/NV21 on the 310 (100027), a resize config holding interpolation > 4 (200006). The
stride, resolution, ROI and memory rules of the 310 are checked by the device, so the call returns 0
and synchronize_stream fails (507018, and the output desc's ret_code; code UNCONFIRMED).
An odd NV12/NV21 output width or height (documented: even) is not refused but warned about: the official
deeplabv3_postprocess_optimization sample resizes to 513x513 through acllite on a board (see ``_odd_output``).
On the timeline each task lasts dvpp_cost("vpc", pixels read + written), from the desc sizes at queue
time (*simulator:* a per-pixel rate, UNCONFIRMED), cat ``vpc``.
"""
from __future__ import annotations

from typing import Optional, Tuple

from ....spec import dvpp as D
from ...core.args import CONTEXT, binding
from .channel import live_channel
from .common import DEVICE_FAULT, bad_handle, device_fault, dvpp_region, lookup
from .cost import dvpp_cost
from .config import MAX_INTERPOLATION, ResizeConfig, RoiConfig
from .picdesc import PicDesc, pic
from .pixels import crop, read, resize, write
from ...rt.memory import _queue
from ...core.state import fail, warn

Box = Tuple[int, int, int, int]  # left, top, width, height


def _host_checks(api: str, channel_desc: int, in_desc: int, out_desc: int) -> int:
    """ACL's checks before queuing: handles and formats."""
    ret = live_channel(api, channel_desc)
    if ret:
        return ret
    for handle, role in ((in_desc, "input"), (out_desc, "output")):
        if pic(handle) is None:
            return bad_handle(api, handle, f"pic desc (the {role})")
    src, dst = pic(in_desc), pic(out_desc)
    if src.format not in D.VPC_INPUT_FORMATS:
        return fail(100027, api, f"input format {src.format} is not a VPC input format (0..19 on the 310).")
    if dst.format not in D.VPC_OUTPUT_FORMATS:
        return fail(100027, api, f"output format {dst.format} ({D.FORMAT_NAMES.get(dst.format, '?')}): the 310's "
                    f"VPC writes only PIXEL_FORMAT_YUV_SEMIPLANAR_420 (1) and YVU_SEMIPLANAR_420 (2).")
    return 0


def _roi(api: str, handle: int, role: str) -> Tuple[Optional[RoiConfig], int]:
    roi = lookup(handle, RoiConfig)
    if roi is None:
        return None, bad_handle(api, handle, f"ROI config (the {role} ROI)")
    return roi, 0


def _interpolation(api: str, handle: int) -> Tuple[int, int]:
    cfg = lookup(handle, ResizeConfig)
    if cfg is None:
        return 0, bad_handle(api, handle, "resize config")
    if cfg.interpolation > MAX_INTERPOLATION:
        return 0, fail(200006, api, f"interpolation {cfg.interpolation} is not supported.")
    return cfg.interpolation, 0


def _picture_rule(p: PicDesc, role: str, max_side: int) -> str:
    """Why a VPC input/output desc breaks the 310's rules, or ''."""
    w, h, ws, hs = p.width, p.height, p.width_stride, p.height_stride
    if p.format not in (1, 2):
        return (f"{role} format {p.format}: the simulator models NV12/NV21 VPC pictures only "
                f"(a simulator limit, not a board rule)")
    if not (D.VPC_MIN_W <= w <= max_side and D.VPC_MIN_H <= h <= max_side):
        return f"{role} is {w}x{h}; VPC takes {D.VPC_MIN_W}x{D.VPC_MIN_H} .. {max_side}x{max_side}"
    wa, ha = D.VPC_STRIDE_ALIGN
    if ws % wa or ws < w or not D.VPC_WIDTH_STRIDE_MIN <= ws <= D.VPC_WIDTH_STRIDE_MAX:
        return (f"{role} widthStride {ws}: must be a multiple of {wa}, >= width {w} (ALIGN_UP(w, 16) = "
                f"{D.align_up(w, wa)}) and in [{D.VPC_WIDTH_STRIDE_MIN}, {D.VPC_WIDTH_STRIDE_MAX}]")
    if hs % ha or hs < h:
        return f"{role} heightStride {hs}: must be a multiple of {ha} and >= height {h} (ALIGN_UP(h, 2) = {D.align_up(h, ha)})"
    need = D.image_bytes(p.format, ws, hs)
    if p.size < need:
        return f"{role} size {p.size} < widthStride*heightStride*3/2 = {need}"
    return ""


def _odd_output(api: str, dst: PicDesc) -> str:
    """Warn that an odd NV12/NV21 output size is outside the documented rule; '' to go on, a reason in strict mode.

    UNCONFIRMED (what the 310 writes): the VPC documentation wants YUV420SP widths and heights even, yet the official
    deeplabv3_postprocess_optimization sample asks acllite for a 513x513 resize and runs on a board. The simulator
    writes the full odd size: Y is w x h, the interleaved UV plane ceil(w/2) x ceil(h/2) pairs, which always fits
    the desc (widthStride is a multiple of 16 and heightStride even, both >= the size), so the last chroma pair
    of a row covers one luma column and the last chroma row one luma row.
    """
    odd = " and ".join(n for n, v in (("width", dst.width), ("height", dst.height)) if v % 2)
    even = f"{dst.width + dst.width % 2}x{dst.height + dst.height % 2}"
    note = (f"output {dst.width}x{dst.height}: the NV12/NV21 output {odd} is odd (documented: even). The simulator "
            f"went on: the picture is {dst.width}x{dst.height} luma and {-(-dst.width // 2)}x{-(-dst.height // 2)} "
            f"chroma pairs, the last pair covering the odd column/row (what the 310 writes there is UNCONFIRMED); "
            f"{even} is the documented size")
    if warn(DEVICE_FAULT, api, note):
        return f"output {dst.width}x{dst.height}: NV12/NV21 output width and height must be even (documented)"
    return ""


def _roi_rule(roi: RoiConfig, role: str, bound_w: int, bound_h: int, paste: bool) -> str:
    """Why a ROI breaks the 310's rules (left/top even, right/bottom odd, inside the picture, >= 10x6), or ''."""
    if roi.left % 2 or roi.top % 2 or roi.right % 2 == 0 or roi.bottom % 2 == 0:
        return (f"{role} ROI ({roi.left}, {roi.right}, {roi.top}, {roi.bottom}): on the 310 left and top must be "
                f"even, right and bottom odd")
    if paste and roi.left % D.PASTE_LEFT_ALIGN:
        return f"paste ROI left {roi.left} must be a multiple of {D.PASTE_LEFT_ALIGN}"
    if roi.right >= bound_w or roi.bottom >= bound_h or roi.width < D.VPC_MIN_W or roi.height < D.VPC_MIN_H:
        return (f"{role} ROI ({roi.left}, {roi.right}, {roi.top}, {roi.bottom}) must lie inside the {bound_w}x{bound_h} "
                f"picture and be at least {D.VPC_MIN_W}x{D.VPC_MIN_H}")
    return ""


def _run(src: PicDesc, dst: PicDesc, crop_roi: Optional[RoiConfig], paste_roi: Optional[RoiConfig],
         interpolation: int, max_side: int, api: str = "acl.media VPC"):
    """The device side of every VPC call: check, read the source box, scale it, write the destination box."""
    why = _picture_rule(src, "input", max_side) or _picture_rule(dst, "output", D.VPC_MAX)
    if not why and (dst.width % 2 or dst.height % 2):
        why = _odd_output(api, dst)
    w, h = src.width & ~1, src.height & ~1  # the 310 aligns odd input sizes down to even (15x15 -> 14x14)
    box: Box = (0, 0, w, h)
    if not why and crop_roi is not None:
        why = _roi_rule(crop_roi, "crop", w, h, False)
        box = (crop_roi.left, crop_roi.top, crop_roi.width & ~1, crop_roi.height & ~1)
    dest: Box = (0, 0, dst.width, dst.height)
    if not why and paste_roi is not None:
        why = _roi_rule(paste_roi, "paste", dst.width, dst.height, True)
        dest = (paste_roi.left, paste_roi.top, paste_roi.width & ~1, paste_roi.height & ~1)
    if not why:
        for axis, a, b in (("width", box[2], dest[2]), ("height", box[3], dest[3])):
            if not D.VPC_SCALE_MIN <= b / a <= D.VPC_SCALE_MAX:
                why = f"scaling {axis} {a} -> {b} is outside the 310's ratio range [1/32, 16]"
    if why:
        return device_fault(dst, f"VPC: {why}")
    s_need, d_need = D.image_bytes(src.format, src.width_stride, src.height_stride), \
        D.image_bytes(dst.format, dst.width_stride, dst.height_stride)
    s_region, s_off, why = dvpp_region(src.data, s_need, "input picture data")
    d_region, d_off, why_d = dvpp_region(dst.data, d_need, "output picture data")
    if s_region is None or d_region is None:
        return device_fault(dst, f"VPC: {why or why_d}")
    planes = read(s_region.view(s_off, s_need), src.format, w, h, src.width_stride, src.height_stride)
    planes = crop(planes, src.format, *box)
    planes = resize(planes, dst.format, dest[2], dest[3], interpolation)
    write(d_region.view(d_off, d_need), dst.format, planes, dest[0], dest[1], dst.width_stride, dst.height_stride)
    dst.ret_code = 0
    return None


def _queue_vpc(api: str, stream: int, label: str, src: PicDesc, dst: PicDesc, crop_roi, paste_roi,
               interpolation: int, max_side: int = D.VPC_MAX) -> int:
    cost = dvpp_cost("vpc", sum(d.width * d.height for d in (src, dst) if d is not None))
    return _queue(api, stream, label, lambda: _run(src, dst, crop_roi, paste_roi, interpolation, max_side, api),
                  cost_us=cost, cat="vpc", fault=DEVICE_FAULT)


@binding("acl.media.dvpp_vpc_resize_async", "kkkkk", needs=CONTEXT)
def dvpp_vpc_resize_async(api, channel_desc, input_desc, output_desc, resize_config, stream):
    """Queue: scale the whole input picture to the output's width x height (8K inputs allowed, resize only)."""
    ret = _host_checks(api, channel_desc, input_desc, output_desc)
    if ret:
        return ret
    interpolation, ret = _interpolation(api, resize_config)
    if ret:
        return ret
    return _queue_vpc(api, stream, "dvpp_vpc_resize", pic(input_desc), pic(output_desc), None, None,
                      interpolation, D.VPC_8K_MAX)


@binding("acl.media.dvpp_vpc_crop_async", "kkkkk", needs=CONTEXT)
def dvpp_vpc_crop_async(api, channel_desc, input_desc, output_desc, crop_area, stream):
    """Queue: cut the crop ROI and scale it to the output's width x height."""
    ret = _host_checks(api, channel_desc, input_desc, output_desc)
    roi, ret = (None, ret) if ret else _roi(api, crop_area, "crop")
    if ret:
        return ret
    return _queue_vpc(api, stream, "dvpp_vpc_crop", pic(input_desc), pic(output_desc), roi, None, 0)


@binding("acl.media.dvpp_vpc_crop_resize_async", "kkkkkk", needs=CONTEXT)
def dvpp_vpc_crop_resize_async(api, channel_desc, input_desc, output_desc, crop_area, resize_config, stream):
    """Queue: crop with an explicit resize config."""
    ret = _host_checks(api, channel_desc, input_desc, output_desc)
    roi, ret = (None, ret) if ret else _roi(api, crop_area, "crop")
    interpolation, ret = (0, ret) if ret else _interpolation(api, resize_config)
    if ret:
        return ret
    return _queue_vpc(api, stream, "dvpp_vpc_crop_resize", pic(input_desc), pic(output_desc), roi, None,
                      interpolation)


@binding("acl.media.dvpp_vpc_crop_and_paste_async", "kkkkkk", needs=CONTEXT)
def dvpp_vpc_crop_and_paste_async(api, channel_desc, input_desc, output_desc, crop_area, paste_area, stream):
    """Queue: cut the crop ROI, scale it to the paste ROI and write it there; other output pixels stay."""
    ret = _host_checks(api, channel_desc, input_desc, output_desc)
    roi, ret = (None, ret) if ret else _roi(api, crop_area, "crop")
    paste, ret = (None, ret) if ret else _roi(api, paste_area, "paste")
    if ret:
        return ret
    return _queue_vpc(api, stream, "dvpp_vpc_crop_and_paste", pic(input_desc), pic(output_desc), roi, paste, 0)


@binding("acl.media.dvpp_vpc_crop_resize_paste_async", "kkkkkkk", needs=CONTEXT)
def dvpp_vpc_crop_resize_paste_async(api, channel_desc, input_desc, output_desc, crop_area, paste_area,
                                     resize_config, stream):
    """Queue: crop and paste with an explicit resize config."""
    ret = _host_checks(api, channel_desc, input_desc, output_desc)
    roi, ret = (None, ret) if ret else _roi(api, crop_area, "crop")
    paste, ret = (None, ret) if ret else _roi(api, paste_area, "paste")
    interpolation, ret = (0, ret) if ret else _interpolation(api, resize_config)
    if ret:
        return ret
    return _queue_vpc(api, stream, "dvpp_vpc_crop_resize_paste", pic(input_desc), pic(output_desc), roi, paste,
                      interpolation)


@binding("acl.media.dvpp_vpc_convert_color_async", "kkkk", needs=CONTEXT)
def dvpp_vpc_convert_color_async(api, channel_desc, input_desc, output_desc, stream):
    """Not on the 310's DVPP: 200006 (UNCONFIRMED code; the V100 library logs 'can not support')."""
    return fail(200006, api, "the 310's DVPP (V100) has no colour conversion API.")


__all__ = [n for n in dir() if n.startswith("dvpp_")]
