"""acl.media's PNGD: image info and the decode buffer size from a PNG in host memory, and the decode task itself.

As ACL's V100 image processor does it: the header is read straight from the bytes (signature,
IHDR width/height at 16..23, bit depth at 24, colour type at 25); no zlib. Codes: data NULL, 29 bytes
or fewer, or not a PNG signature -> 100000; a colour type other than grey (0), RGB (2), grey+alpha
(4), RGBA (6) — a palette PNG — -> 100027 for get_image_info. predict_dec_size takes RGB_888,
RGBA_8888 or UNKNOWN (else 100027), 32..4096 per side (else 100000) and gives
ALIGN_UP(w, 128) * bytes per pixel (bit depth * 3 or 4 / 8, rounded up) * ALIGN_UP(h, 16).

``dvpp_png_decode_async`` is supported on the 310 (and the later SoCs): ACL's V100 image processor
launches the DvppDecodePng AI CPU task (ACL 2019-2020 ``image_processor_v100.cpp``; the 2021 code
moved it into the base class shared with V200), and the pyACL docs' V1 support table marks every
V1 function, PNGD included, supported on the Atlas 200/300/500 inference products. The
"png decode is not supported in this version" (200006) text is the base class's default, which the
V100 class overrides. Host checks (ACL): a created channel, data and output desc not NULL, size > 0
(100000); output format PIXEL_FORMAT_RGB_888 or PIXEL_FORMAT_UNKNOWN (100027 — RGBA_8888 is refused
by the decode although predict_dec_size takes it). The device (*simulator:* Pillow decodes) writes
RGB888 — or, for UNKNOWN, RGB888 from grey/RGB and RGBA8888 from grey+alpha/RGBA sources, as the
PNGD table says — with widthStride ALIGN_UP(w, 128) * 3 (or * 4) bytes and heightStride
ALIGN_UP(h, 16), and fills the output desc's width, height, strides and format (ACL copies the desc
back from the device after the task). Device faults (507018 at synchronize_stream and the desc's
ret_code; code UNCONFIRMED): input or output outside dvpp_malloc memory, not a PNG, a palette PNG,
a size outside 32..4096, an output buffer smaller than widthStride * heightStride. UNCONFIRMED:
16-bit PNGs come out as 8-bit samples; an alpha channel is dropped (not blended) for RGB888; row
padding is left as it was.
"""
from __future__ import annotations

import io
from typing import Optional, Tuple

import numpy as np

from ....spec import dvpp as D
from ...core.args import CONTEXT, INIT, binding
from .channel import live_channel
from .common import DEVICE_FAULT, bad_handle, device_fault, dvpp_region
from .cost import dvpp_cost
from .picdesc import PicDesc, pic
from ...rt.memory import _queue, host_view
from ...core.state import fail

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COMPONENTS = {0: 1, 4: 2, 2: 3, 6: 4}  # PNG colour type -> components
PNGD_MIN, PNGD_MAX = 32, 4096
PNGD_MAX_OUTPUT = 4096 * 4096 * 4 * 2
PNGD_OUTPUT_FORMATS = frozenset({D.PIXEL_FORMAT_RGB_888, D.PIXEL_FORMAT_RGBA_8888, D.PIXEL_FORMAT_UNKNOWN})


def _header(api: str, data: int, size: int) -> Tuple[bytes, int]:
    """(the first 26 bytes, 0), or (b'', code) when this is not a PNG header ACL can read."""
    if data == 0:
        return b"", fail(100000, api, "data is 0 (NULL): pass the PNG's host pointer (acl.util.bytes_to_ptr).")
    if size <= 29:
        return b"", fail(100000, api, f"size {size}: a PNG is larger than 29 bytes.")
    head = bytes(host_view(api, data, 26))
    if head[:8] != _SIGNATURE:
        return b"", fail(100000, api, "the data does not start with the PNG signature (89 50 4E 47 0D 0A 1A 0A).")
    return head, 0


def _dims(head: bytes) -> Tuple[int, int]:
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


@binding("acl.media.dvpp_png_get_image_info", "kI", needs=INIT, outs=3)
def dvpp_png_get_image_info(api, data, size):
    """(width, height, components, ret) of a PNG in host memory: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA."""
    head, ret = _header(api, data, size)
    if ret:
        return 0, 0, 0, ret
    w, h = _dims(head)
    components = _COMPONENTS.get(head[25])
    if components is None:
        return w, h, 0, fail(100027, api, f"PNG colour type {head[25]} (palette): PNGD reads grey (0), RGB (2), "
                             f"grey+alpha (4) and RGBA (6).")
    return w, h, components, 0


@binding("acl.media.dvpp_png_predict_dec_size", "kIi", needs=INIT, outs=1)
def dvpp_png_predict_dec_size(api, data, size, output_pixel_format):
    """(bytes, ret): the PNGD output buffer for this PNG in RGB_888 / RGBA_8888 (UNKNOWN counts as RGBA)."""
    if output_pixel_format not in PNGD_OUTPUT_FORMATS:
        return 0, fail(100027, api, f"output format {output_pixel_format}: PNGD writes PIXEL_FORMAT_RGB_888 (12), "
                       f"PIXEL_FORMAT_RGBA_8888 (16) or PIXEL_FORMAT_UNKNOWN (10000).")
    head, ret = _header(api, data, size)
    if ret:
        return 0, ret
    w, h = _dims(head)
    if not (PNGD_MIN <= w <= PNGD_MAX and PNGD_MIN <= h <= PNGD_MAX):
        return 0, fail(100000, api, f"the PNG is {w}x{h}; PNGD decodes {PNGD_MIN}..{PNGD_MAX} per side.")
    channels = 3 if output_pixel_format == D.PIXEL_FORMAT_RGB_888 else 4
    row = (D.align_up(w, 128) * head[24] * channels + 7) >> 3
    total = row * D.align_up(h, 16)
    if not 0 < total <= PNGD_MAX_OUTPUT:
        return 0, fail(100000, api, f"PNGD output size {total} is outside (0, {PNGD_MAX_OUTPUT}].")
    return total, 0


PNGD_DECODE_FORMATS = frozenset({D.PIXEL_FORMAT_RGB_888, D.PIXEL_FORMAT_UNKNOWN})


def _pixels(raw: bytes) -> Tuple[Optional[np.ndarray], str]:
    """(h x w x 3 or 4 uint8 array, '') of a PNG as PNGD reads it, or (None, why the device refuses it)."""
    from PIL import Image, UnidentifiedImageError  # Pillow is the decoder; imported when a decode runs
    if len(raw) <= 29 or raw[:8] != _SIGNATURE:
        return None, "the input is not a PNG (no PNG signature)"
    colour = raw[25]
    if colour not in _COMPONENTS:
        return None, f"PNG colour type {colour} (palette): PNGD reads grey, RGB, grey+alpha and RGBA PNGs"
    try:
        with Image.open(io.BytesIO(raw)) as im:
            im.load()
            if im.mode in ("I;16", "I;16B", "I"):  # 16-bit grey: keep the high byte
                grey = (np.asarray(im, np.uint32) >> 8).astype(np.uint8)
                return np.repeat(grey[..., None], 3, axis=2), ""
            return np.asarray(im.convert("RGBA" if colour in (4, 6) else "RGB"), np.uint8), ""
    except UnidentifiedImageError:  # its text names a Python object's address: say it plainly
        return None, "the PNG's header or chunks cannot be read"
    except Exception as exc:  # noqa: BLE001 - zlib/libpng stopped: the device's failure
        return None, f"the PNG could not be decoded ({type(exc).__name__}: {exc})"


def _decode(raw: bytes, out: PicDesc) -> Optional[Tuple[int, str]]:
    """The device side of a PNG decode: checks, then RGB(A) rows into the output buffer and the desc filled."""
    rgb, why = _pixels(raw)
    if rgb is None:
        return device_fault(out, f"PNGD: {why}")
    h, w = rgb.shape[:2]
    if not (PNGD_MIN <= w <= PNGD_MAX and PNGD_MIN <= h <= PNGD_MAX):
        return device_fault(out, f"PNGD: the PNG is {w}x{h}, outside {PNGD_MIN}..{PNGD_MAX} per side")
    fmt = D.PIXEL_FORMAT_RGBA_8888 if out.format == D.PIXEL_FORMAT_UNKNOWN and rgb.shape[2] == 4 \
        else D.PIXEL_FORMAT_RGB_888
    channels = 4 if fmt == D.PIXEL_FORMAT_RGBA_8888 else 3
    ws, hs = D.align_up(w, 128) * channels, D.align_up(h, 16)
    need = ws * hs
    if out.size < need:
        return device_fault(out, f"PNGD output size {out.size} < widthStride*heightStride = {ws}*{hs} = {need} "
                            f"(acl.media.dvpp_png_predict_dec_size gives the size to allocate)")
    region, offset, why = dvpp_region(out.data, need, "output picture data")
    if region is None:
        return device_fault(out, f"PNGD: {why}")
    rows = region.view(offset, need).reshape(hs, ws)
    rows[:h, :w * channels] = rgb[..., :channels].reshape(h, w * channels)
    out.format, out.width, out.height, out.width_stride, out.height_stride = fmt, w, h, ws, hs
    out.ret_code = 0
    return None


@binding("acl.media.dvpp_png_decode_async", "kkIkk", needs=CONTEXT)
def dvpp_png_decode_async(api, channel_desc, data, size, output_desc, stream):
    """Queue a PNG decode from DVPP memory into the output desc's buffer (RGB888, or the source's with UNKNOWN)."""
    ret = live_channel(api, channel_desc)
    if ret:
        return ret
    if data == 0 or size == 0:
        return fail(100000, api, "data is 0 (NULL) or size is 0: pass the PNG's dvpp_malloc pointer and byte count.")
    out = pic(output_desc)
    if out is None:
        return bad_handle(api, output_desc, "pic desc (the decode output)")
    if out.format not in PNGD_DECODE_FORMATS:
        return fail(100027, api, f"output format {out.format} ({D.FORMAT_NAMES.get(out.format, '?')}): PNGD decodes "
                    f"to PIXEL_FORMAT_RGB_888 (12) or PIXEL_FORMAT_UNKNOWN (10000, the source's own format).")
    width_height = _peek_size(data, size)

    def task():
        region, offset, why = dvpp_region(data, size, "PNG input data")
        if region is None:
            return device_fault(out, f"PNGD: {why}")
        return _decode(bytes(region.view(offset, size)), out)

    return _queue(api, stream, f"dvpp_png_decode {size} bytes", task,
                  dvpp_cost("pngd", width_height[0] * width_height[1]), "pngd",
                  fault=DEVICE_FAULT)


def _peek_size(data: int, size: int) -> Tuple[int, int]:
    """The IHDR width and height when the input is readable now (for the timeline's cost), else (0, 0)."""
    region, offset, _ = dvpp_region(data, min(size, 24), "PNG input data")
    if region is None or size < 24:
        return 0, 0
    return _dims(bytes(region.view(offset, 24)))


__all__ = [n for n, f in dict(globals()).items() if n.startswith("dvpp_") and hasattr(f, "__acl_api__")]
