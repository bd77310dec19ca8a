"""acl.media's JPEG encoder (JPEGE): predicted output size on the host, the encode queued on a stream.

The encode is a real baseline JPEG (Pillow, from the NV12/NV21 picture's YCbCr, chroma repeated
2x2) at the config's quality (0 means 100). The encoded byte count is written at sync time into the
host uint32 that ``size_ptr`` points at, as ACL does with a device-to-host copy of the size.
"""
from __future__ import annotations

import io
from typing import Optional, Tuple

import numpy as np
from PIL import Image

from ....spec import dvpp as D
from ...core.args import CONTEXT, INIT, binding
from .channel import live_channel
from .common import DEVICE_FAULT, bad_handle, device_fault, dvpp_region, lookup
from .config import JpegeConfig
from .picdesc import PicDesc, pic
from .pixels import read
from ...rt.memory import _queue, check_writable, space
from ...core.state import fail

SEMI = (1, 2)
PACKED = (7, 8, 9, 10)
MIB2 = 2 << 20


def _enc_rule(p: PicDesc) -> Tuple[int, str]:
    """(code, why) when a JPEGE input desc breaks ACL's predict_enc_size checks, else (0, '')."""
    if not (D.JPEG_MIN <= p.width <= D.JPEG_MAX and D.JPEG_MIN <= p.height <= D.JPEG_MAX):
        return 100000, f"the picture is {p.width}x{p.height}; JPEGE encodes {D.JPEG_MIN}..{D.JPEG_MAX} per side"
    if p.format not in SEMI + PACKED:
        return 100027, f"format {p.format} is not a JPEGE input (NV12/NV21 or packed YUV422)"
    ws, hs = p.width_stride, p.height_stride
    if p.format in SEMI and (ws < p.width or ws % 16):
        return 100000, f"widthStride {ws} must be >= width {p.width} and a multiple of 16"
    if p.format in PACKED and ws != D.align_up(2 * p.width, 16):
        return 100000, f"widthStride {ws} must be ALIGN_UP(2 * width, 16) = {D.align_up(2 * p.width, 16)}"
    if not (hs == p.height or (hs > p.height and hs % 16 == 0)):
        return 100000, f"heightStride {hs} must equal height {p.height} or be a larger multiple of 16"
    return 0, ""


def _image_bytes(p: PicDesc) -> int:
    """ws*hs*3/2 for NV12/NV21, ws*hs for packed YUV422 (ws already counts 2 bytes a pixel)."""
    return p.width_stride * p.height_stride * 3 // 2 if p.format in SEMI else p.width_stride * p.height_stride


@binding("acl.media.dvpp_jpeg_predict_enc_size", "kk", needs=INIT, outs=1)
def dvpp_jpeg_predict_enc_size(api, input_desc, config):
    """(bytes, ret): the output buffer JPEGE may need: picture bytes + 768, rounded up to 2 MiB (V100 formula)."""
    p = pic(input_desc)
    if p is None:
        return 0, bad_handle(api, input_desc, "pic desc")
    if lookup(config, JpegeConfig) is None:
        return 0, bad_handle(api, config, "JPEGE config")
    code, why = _enc_rule(p)
    if code:
        return 0, fail(code, api, why + ".")
    need = _image_bytes(p) + 640 + 128
    return (need + MIB2 - 1) // MIB2 * MIB2, 0


def _encode(p: PicDesc, level: int) -> Tuple[Optional[bytes], str]:
    code, why = _enc_rule(p)
    if code:
        return None, why
    if p.format not in SEMI:
        return None, "the simulator encodes NV12/NV21 pictures only (a simulator limit, not a board rule)"
    if p.width % 2 or p.height % 2:  # [DOC-JPEGE]: YUV420SP input has even width and height
        return None, f"the NV12/NV21 picture is {p.width}x{p.height}; JPEGE needs an even width and height"
    region, offset, why = dvpp_region(p.data, _image_bytes(p), "input picture data")
    if region is None:
        return None, why
    y, u, v = read(region.view(offset, _image_bytes(p)), p.format, p.width, p.height, p.width_stride,
                   p.height_stride)
    up = [c.repeat(2, 0).repeat(2, 1)[:p.height, :p.width] for c in (u, v)]
    buf = io.BytesIO()
    Image.fromarray(np.dstack([y, *up]), "YCbCr").save(buf, "JPEG", quality=level or 100)
    return buf.getvalue(), ""


@binding("acl.media.dvpp_jpeg_encode_async", "kkkkkk", needs=CONTEXT)
def dvpp_jpeg_encode_async(api, channel_desc, input_desc, data, size, config, stream):
    """Queue a JPEG encode into ``data`` (dvpp_malloc); ``size`` is the address of a host uint32 holding the
    buffer's capacity, replaced by the JPEG's byte count at synchronize_stream."""
    ret = live_channel(api, channel_desc)
    if ret:
        return ret
    p = pic(input_desc)
    cfg = lookup(config, JpegeConfig)
    if p is None or cfg is None or data == 0 or size == 0:
        return fail(100000, api, "a NULL or dead argument: input desc, output data, size pointer and config are "
                    "all needed.")
    region, offset, why = space().resolve(size, 4)
    if region is None:
        return fail(100000, api, f"size must point at a host uint32 (the capacity): {why}.")
    capacity = int(region.view(offset, 4).view(np.uint32)[0])
    if capacity == 0:
        return fail(100000, api, "*size is 0: put the output buffer's capacity there (predict_enc_size).")
    ret = check_writable(api, region, "the size pointer")
    if ret:
        return ret
    level = cfg.level

    def task():
        jpeg, why = _encode(p, level)
        if jpeg is None:
            return device_fault(None, f"JPEGE: {why}")
        if len(jpeg) > capacity:
            return device_fault(None, f"JPEGE: the JPEG needs {len(jpeg)} bytes, *size said {capacity}")
        out, o_off, why = dvpp_region(data, len(jpeg), "output data")
        if out is None:
            return device_fault(None, f"JPEGE: {why}")
        out.view(o_off, len(jpeg))[:] = np.frombuffer(jpeg, np.uint8)
        region.view(offset, 4).view(np.uint32)[0] = len(jpeg)
        return None

    return _queue(api, stream, "dvpp_jpeg_encode", task, fault=DEVICE_FAULT)


__all__ = [n for n in dir() if n.startswith("dvpp_")]
