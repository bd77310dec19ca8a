"""acl.media's PNG header functions: image info and the decode buffer size, read from a PNG in host memory.

As ACL's V100 image processor does it: the header is read straight from the bytes (signature,
IHDR width/height at 16..23, bit depth at 24, colour type at 25); no zlib. Codes: data NULL, 29 bytes
or fewer, or not a PNG signature -> 100000; a colour type other than grey (0), RGB (2), grey+alpha
(4), RGBA (6) — a palette PNG — -> 100027 for get_image_info. predict_dec_size takes RGB_888,
RGBA_8888 or UNKNOWN (else 100027), 32..4096 per side (else 100000) and gives
ALIGN_UP(w, 128) * bytes per pixel (bit depth * 3 or 4 / 8, rounded up) * ALIGN_UP(h, 16).
(``dvpp_png_decode_async`` itself is in dvpp_vpc.py: 200006 on the 310.)
"""
from __future__ import annotations

from typing import Tuple

from ..spec import dvpp as D
from ._args import INIT, binding
from .memory import host_view
from .state import fail

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


__all__ = [n for n, f in dict(globals()).items() if n.startswith("dvpp_") and hasattr(f, "__acl_api__")]
