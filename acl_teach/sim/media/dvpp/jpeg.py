"""acl.media's JPEG decoder (JPEGD): header info and decode size on the host, the decode itself queued on a stream.

The decode is a real one (Pillow's libjpeg, asked for YCbCr so no RGB round trip) written as
semi-planar YUV into the output desc's buffer with its width/height strides: Y is libjpeg's luma
exactly, each chroma sample the rounded mean of libjpeg's upsampled chroma over its 2x2 (420), 2x1
(422) or 1x2 (440) block. The padding bytes (columns ``width..widthStride``, rows
``height..heightStride``) keep what the buffer held: the simulator's choice, UNCONFIRMED what the
hardware leaves there.

What JPEGD refuses (on the device: ``synchronize_stream`` and the output desc's ``ret_code`` give
507018, UNCONFIRMED code): data that is not a JPEG (a PNG, garbage), anything but a baseline Huffman
frame (SOF0; progressive, extended, lossless, arithmetic), sampling other than 4:4:4 / 4:2:2 / 4:2:0 /
4:4:0 / grey (4:1:1, CMYK, odd factors), sizes outside 32..8192, and a stream libjpeg cannot decode to
the end (truncated, corrupt markers). Entropy-data corruption that libjpeg recovers from silently
decodes as libjpeg decodes it (UNCONFIRMED what the hardware reports).
"""
from __future__ import annotations

import io
import warnings
from typing import Optional, Tuple

import numpy as np
from PIL import Image

from ....spec import dvpp as D
from ...core.args import CONTEXT, INIT, binding
from .channel import live_channel
from .common import DEVICE_FAULT, bad_handle, device_fault, dvpp_region
from .cost import dvpp_cost
from .picdesc import PicDesc, pic
from .pixels import subsample, write
from ...rt.memory import _queue, host_view
from ...core.state import fail, state

_CSS = {(1, 1): D.ACL_JPEG_CSS_444, (2, 1): D.ACL_JPEG_CSS_422, (2, 2): D.ACL_JPEG_CSS_420,
        (1, 2): D.ACL_JPEG_CSS_440, (4, 1): D.ACL_JPEG_CSS_411}  # luma/chroma sampling factor ratio (x, y)
_JPEGD_CSS = frozenset({D.ACL_JPEG_CSS_444, D.ACL_JPEG_CSS_422, D.ACL_JPEG_CSS_420, D.ACL_JPEG_CSS_440,
                        D.ACL_JPEG_CSS_GRAY})  # what JPEGD decodes [DOC-JPEGD]
_SOF_BASELINE = 0xC0
_SOF_NAMES = {0xC1: "extended sequential", 0xC2: "progressive", 0xC3: "lossless", 0xC5: "differential sequential",
              0xC6: "differential progressive", 0xC7: "differential lossless", 0xC9: "arithmetic sequential",
              0xCA: "arithmetic progressive", 0xCB: "arithmetic lossless", 0xCD: "arithmetic differential "
              "sequential", 0xCE: "arithmetic differential progressive", 0xCF: "arithmetic differential lossless"}
_SOURCE_FORMAT = {D.ACL_JPEG_CSS_420: 1, D.ACL_JPEG_CSS_GRAY: 1, D.ACL_JPEG_CSS_422: 3, D.ACL_JPEG_CSS_444: 6,
                  D.ACL_JPEG_CSS_440: 1000}  # PIXEL_FORMAT_UNKNOWN decodes to these (UNCONFIRMED)


class _Frame:
    """A JPEG's frame header read by hand, for pictures above Pillow's pixel limit (no pixels are decoded)."""

    format, info = "JPEG", {}

    def __init__(self, width: int, height: int, layer: list) -> None:
        self.size, self.layer = (width, height), layer
        self.mode = "L" if len(layer) == 1 else "YCbCr"

    def getbands(self) -> tuple:
        return tuple(range(len(self.layer)))

    def getexif(self) -> dict:
        return {}


def _frame(raw: bytes) -> Optional[_Frame]:
    """The SOFn record (width, height, components' sampling) walked to from the start, or None."""
    pos = 2
    while pos + 4 <= len(raw) and raw[pos] == 0xFF:
        marker, length = raw[pos + 1], int.from_bytes(raw[pos + 2:pos + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            body = raw[pos + 4:pos + 2 + length]
            if len(body) < 6 or len(body) < 6 + 3 * body[5]:
                return None
            comps = [(body[6 + 3 * i], body[7 + 3 * i] >> 4, body[7 + 3 * i] & 15, body[8 + 3 * i])
                     for i in range(body[5])]
            return _Frame(int.from_bytes(body[3:5], "big"), int.from_bytes(body[1:3], "big"), comps)
        pos += 2 + length if marker != 0xFF else 1
    return None


def _open(raw: bytes) -> Tuple[Optional[Image.Image], str]:
    """(image, '') for a JPEG Pillow can parse, else (None, reason).

    The header is all that is read here: a frame above Pillow's pixel limit (its DecompressionBomb
    check) is still a header with dimensions, read by hand; the size checks then refuse it.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            try:
                im = Image.open(io.BytesIO(raw))
            except Image.DecompressionBombError:
                im = _frame(raw)
                if im is None:
                    raise
        if im.format != "JPEG":
            return None, f"the data is a {im.format} file, not a JPEG"
        bogus = [f"{h}x{v}" for _, h, v, _ in getattr(im, "layer", []) if not (1 <= h <= 4 and 1 <= v <= 4)]
        if bogus:  # libjpeg's jpeg_read_header fails these (JERR_BAD_SAMPLING)
            return None, f"libjpeg cannot parse the header (bogus sampling factors {', '.join(bogus)}; each is 1..4)"
        return im, ""
    except Exception as exc:  # noqa: BLE001 - any parse failure is libjpeg's failure
        return None, f"libjpeg cannot parse the header ({exc})"


def _css(im: Image.Image) -> int:
    """acldvppJpegFormat of a parsed JPEG, from its sampling factors (Pillow's get_sampling knows only 3)."""
    layers = getattr(im, "layer", None) or []
    if len(layers) == 1:
        return D.ACL_JPEG_CSS_GRAY
    if len(layers) != 3 or layers[1][1:3] != layers[2][1:3]:
        return D.ACL_JPEG_CSS_UNKNOWN
    (hy, vy), (hc, vc) = layers[0][1:3], layers[1][1:3]
    if hy % hc or vy % vc:
        return D.ACL_JPEG_CSS_UNKNOWN
    return _CSS.get((hy // hc, vy // vc), D.ACL_JPEG_CSS_UNKNOWN)


def _sof(raw: bytes) -> int:
    """The frame's SOFn marker (0xC0 = baseline), found by walking the segments before the first scan; 0 if none."""
    pos = 2
    while pos + 4 <= len(raw):
        if raw[pos] != 0xFF:
            return 0
        marker = raw[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return marker
        if marker == 0xDA:
            return 0
        pos += 2 + int.from_bytes(raw[pos + 2:pos + 4], "big")
    return 0


def _header(api: str, data: int, size: int) -> Tuple[Optional[Image.Image], int]:
    """Parse the JPEG in host memory: (image, 0) or (None, code)."""
    if data == 0 or size == 0:
        return None, fail(100000, api, "data is 0 (NULL) or size is 0.")
    raw = bytes(host_view(api, data, size))
    im, why = _open(raw)
    if im is None:
        return None, fail(500001, api, f"{why}. (UNCONFIRMED: newer CANN documents 148052 "
                          f"ACL_ERROR_UNSUPPORTED_JPEG for streams it cannot decode.)")
    return im, 0


_TRANSPOSE = {2: Image.FLIP_LEFT_RIGHT, 3: Image.ROTATE_180, 4: Image.FLIP_TOP_BOTTOM, 5: Image.TRANSPOSE,
              6: Image.ROTATE_270, 7: Image.TRANSVERSE, 8: Image.ROTATE_90}  # EXIF orientation -> upright


def _orientation(im: Image.Image) -> int:
    """The EXIF orientation tag (1..8; 1 when absent or unreadable)."""
    try:
        value = im.getexif().get(0x0112, 1)
    except Exception:  # noqa: BLE001 - a damaged EXIF block is no orientation
        return 1
    return value if isinstance(value, int) and value in range(1, 9) else 1


def _oriented(im: Image.Image) -> Tuple[int, int]:
    """(width, height) with EXIF orientation 5-8 swapping them, as acldvppJpegGetImageInfo documents.

    predict_dec_size and the decode use the same oriented size (UNCONFIRMED that JPEGD turns the picture
    upright; the simulator keeps the three consistent, so a program sizing its output desc from
    get_image_info, as the samples do, decodes a portrait phone photo).
    """
    w, h = im.size
    return (h, w) if _orientation(im) in (5, 6, 7, 8) else (w, h)


@binding("acl.media.dvpp_jpeg_get_image_info", "kI", needs=INIT, outs=3)
def dvpp_jpeg_get_image_info(api, data, size):
    """(width, height, components, ret) of a JPEG in **host** memory (bytes_to_ptr of the file)."""
    im, ret = _header(api, data, size)
    if ret:
        return 0, 0, 0, ret
    w, h = _oriented(im)
    return w, h, len(im.getbands()), 0


@binding("acl.media.dvpp_jpeg_get_image_info_v2", "kI", needs=INIT, outs=4)
def dvpp_jpeg_get_image_info_v2(api, data, size):
    """(width, height, components, acldvppJpegFormat, ret) of a JPEG in host memory."""
    im, ret = _header(api, data, size)
    if ret:
        return 0, 0, 0, 0, ret
    w, h = _oriented(im)
    return w, h, len(im.getbands()), _css(im), 0


@binding("acl.media.dvpp_jpeg_predict_dec_size", "kIi", needs=INIT, outs=1)
def dvpp_jpeg_predict_dec_size(api, data, size, output_pixel_format):
    """(bytes, ret): the decode buffer for this JPEG: ALIGN_UP(w, 128) * ALIGN_UP(h, 16) * 3/2 for NV12 on the 310.

    Checks as ACL does: the output format (100027), the resolution 32..8192 (100000). UNCONFIRMED:
    newer SoCs use 64-byte width alignment (the simulator follows configure(soc_name=...)).
    """
    if output_pixel_format not in D.JPEGD_OUTPUT_FORMATS:
        return 0, fail(100027, api, f"{output_pixel_format} is not a JPEGD output format "
                       f"({sorted(D.JPEGD_OUTPUT_FORMATS)}).")
    im, ret = _header(api, data, size)
    if ret:
        return 0, ret
    w, h = _oriented(im)
    if not (D.JPEG_MIN <= w <= D.JPEG_MAX and D.JPEG_MIN <= h <= D.JPEG_MAX):
        return 0, fail(100000, api, f"the JPEG is {w}x{h}; JPEGD decodes {D.JPEG_MIN}..{D.JPEG_MAX} per side.")
    fmt = _SOURCE_FORMAT.get(_css(im), 1) if output_pixel_format == D.PIXEL_FORMAT_UNKNOWN else output_pixel_format
    return D.jpegd_output_size(fmt, w, h, state().config.soc_name), 0


def _decode(raw: bytes, out: PicDesc, soc: str) -> Optional[Tuple[int, str]]:
    """The device side of a decode: checks, then YUV written into the output buffer."""
    im, why = _open(raw)
    if im is None:
        return device_fault(out, f"JPEGD: {why}")
    sof = _sof(raw)
    if sof != _SOF_BASELINE:
        kind = _SOF_NAMES.get(sof, "without a frame header") if sof else "without a frame header"
        return device_fault(out, f"JPEGD decodes baseline Huffman JPEGs (SOF0) only; this one is {kind}")
    w, h = _oriented(im)
    if not (D.JPEG_MIN <= w <= D.JPEG_MAX and D.JPEG_MIN <= h <= D.JPEG_MAX):
        return device_fault(out, f"JPEGD: the JPEG is {w}x{h}, outside {D.JPEG_MIN}..{D.JPEG_MAX}")
    css = _css(im)
    if css not in _JPEGD_CSS:
        return device_fault(out, f"JPEGD decodes YUV 4:4:4, 4:2:2, 4:2:0, 4:4:0 and grey JPEGs; this one's "
                            f"sampling ({_sampling_text(im)}) is not among them")
    fmt = _SOURCE_FORMAT.get(css, 1) if out.format == D.PIXEL_FORMAT_UNKNOWN else out.format
    wa, ha = D.jpegd_stride_align(soc)
    ws, hs = out.width_stride, out.height_stride
    if ws % wa or ws < w or hs % ha or hs < h:
        return device_fault(out, f"JPEGD output strides {ws}x{hs} for a {w}x{h} JPEG on {soc}: widthStride "
                            f"must be a multiple of {wa} >= width (ALIGN_UP(w, {wa}) = {D.align_up(w, wa)}), "
                            f"heightStride a multiple of {ha} >= height (ALIGN_UP(h, {ha}) = {D.align_up(h, ha)})")
    need = D.image_bytes(fmt, ws, hs)
    if out.size < need:
        return device_fault(out, f"JPEGD output size {out.size} < {need} = widthStride*heightStride*"
                            f"{'/'.join(map(str, D.chroma_factor(fmt)))} for format {fmt}")
    region, offset, why = dvpp_region(out.data, need, "output picture data")
    if region is None:
        return device_fault(out, f"JPEGD: {why}")
    planes, why = _planes(im, fmt)
    if planes is None:
        return device_fault(out, f"JPEGD: libjpeg could not decode the stream to its end ({why})")
    write(region.view(offset, need), fmt, planes, 0, 0, ws, hs)
    out.ret_code = 0
    return None


def _sampling_text(im: Image.Image) -> str:
    """The components' HxV sampling factors, e.g. '4x1, 1x1, 1x1', for a fault message."""
    return ", ".join(f"{h}x{v}" for _, h, v, _ in getattr(im, "layer", [])) or "unknown"


def _planes(im: Image.Image, fmt: int):
    """((Y, U, V), '') decoded and subsampled for ``fmt``, or (None, reason) when libjpeg stops early."""
    sx, sy, _ = D.SEMIPLANAR[fmt]
    turn = _TRANSPOSE.get(_orientation(im))
    try:
        if im.mode == "L":
            y = np.asarray(im.transpose(turn) if turn is not None else im, np.uint8)
            h, w = y.shape
            u = v = np.full((-(-h // sy), -(-w // sx)), 0x80, np.uint8)  # jpeg(400): UV = 0x80
            return (y, u, v), ""
        im.draft("YCbCr", None)  # libjpeg outputs YCbCr directly (no RGB round trip)
        ycc_im = im if im.mode == "YCbCr" else im.convert("YCbCr")
        ycc = np.asarray(ycc_im.transpose(turn) if turn is not None else ycc_im, np.uint8)
    except (OSError, SyntaxError, ValueError) as exc:  # truncated or corrupt: libjpeg gave up
        return None, str(exc)
    return (ycc[..., 0], subsample(ycc[..., 1], sx, sy), subsample(ycc[..., 2], sx, sy)), ""


@binding("acl.media.dvpp_jpeg_decode_async", "kkIkk", needs=CONTEXT)
def dvpp_jpeg_decode_async(api, channel_desc, data, size, output_desc, stream):
    """Queue a JPEG decode from DVPP memory into the output desc's buffer; the pixels exist after synchronize_stream.

    Host checks (ACL): channel, data, size > 0, output desc (100000); output format (100027). Device
    checks (at synchronize_stream, 507018 and the desc's ret_code, UNCONFIRMED code): input and output
    in dvpp_malloc memory, baseline JPEG of 32..8192, strides ALIGN_UP(w,128) x ALIGN_UP(h,16) on the
    310 (64/16 on 310P/310B), buffer size.
    """
    ret = live_channel(api, channel_desc)
    if ret:
        return ret
    out = pic(output_desc)
    if out is None:
        return bad_handle(api, output_desc, "pic desc (the decode output)")
    if data == 0 or size == 0:
        return fail(100000, api, "data is 0 (NULL) or size is 0: pass the JPEG's dvpp_malloc pointer and byte count.")
    if out.format not in D.JPEGD_OUTPUT_FORMATS:
        return fail(100027, api, f"output format {out.format} ({D.FORMAT_NAMES.get(out.format, '?')}) is not a "
                    f"JPEGD output format: use PIXEL_FORMAT_YUV_SEMIPLANAR_420 (1) or YVU (2).")
    soc = state().config.soc_name

    def task():
        region, offset, why = dvpp_region(data, size, "JPEG input data")
        if region is None:
            return device_fault(out, f"JPEGD: {why}")
        return _decode(bytes(region.view(offset, size)), out, soc)

    cost = dvpp_cost("jpegd", out.width * out.height)  # the pixels the desc asks for (media/dvpp/cost.py)
    return _queue(api, stream, f"dvpp_jpeg_decode {size} bytes", task, cost_us=cost, cat="jpegd",
                  fault=DEVICE_FAULT)


__all__ = [n for n in dir() if n.startswith("dvpp_")]
