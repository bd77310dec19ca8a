"""``YuvView``: a YUV420SP (NV12/NV21) DVPP picture as its Y plane and interleaved UV plane, the stride padding
tinted, the byte arithmetic beside it (widthStride × heightStride × 3/2), and an RGB preview (BT.601).

The bytes are read only through ``backend.inspector().read`` and a picture desc only through the public
``acl.media.dvpp_get_pic_desc_*`` getters, so the learner's program sees nothing change.
"""
from __future__ import annotations

import html
import io
from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

import ipywidgets as w
import numpy as np
from PIL import Image

from .. import backend, trace
from ..media import Picture
from ..spec.dvpp import PIXEL_FORMAT_YUV_SEMIPLANAR_420 as NV12
from ..spec.dvpp import PIXEL_FORMAT_YVU_SEMIPLANAR_420 as NV21
from ._snapshot import MEMORY_KINDS, Owner, guarded, notice_html, released_notice
from .text import FullText

FORMATS = {NV12: ("NV12", "PIXEL_FORMAT_YUV_SEMIPLANAR_420", "U first, then V"),
           NV21: ("NV21", "PIXEL_FORMAT_YVU_SEMIPLANAR_420", "V first, then U")}
PAD_RGB = (255, 0, 170)  # the stride padding's tint: a magenta no photo's grey or chroma plane shows
PAD_ALPHA = 0.6
FIELDS = ("data", "size", "format", "width", "height", "width_stride", "height_stride")


@dataclass
class Geometry:
    """Where a YUV420SP picture lies in its buffer, as a picture desc describes it."""

    data: int
    size: int
    format: int
    width: int
    height: int
    width_stride: int
    height_stride: int

    @property
    def y_bytes(self) -> int:
        """The Y plane: one byte per pixel of every stride row."""
        return self.width_stride * self.height_stride

    @property
    def uv_rows(self) -> int:
        """The UV plane has half the rows (4:2:0: one U and one V per 2 × 2 pixels)."""
        return self.height_stride // 2

    @property
    def uv_bytes(self) -> int:
        """The UV plane: rows of width_stride bytes, U and V interleaved."""
        return self.width_stride * self.uv_rows

    @property
    def total(self) -> int:
        """widthStride × heightStride × 3/2: what the buffer must hold."""
        return self.y_bytes + self.uv_bytes

    @property
    def chroma_size(self) -> Tuple[int, int]:
        """(bytes per UV row, UV rows) that belong to the picture: 2 × ceil(width/2), ceil(height/2)."""
        return 2 * ((self.width + 1) // 2), (self.height + 1) // 2

    @property
    def fmt_name(self) -> str:
        """'NV12' or 'NV21'."""
        return FORMATS[self.format][0]

    def arithmetic(self) -> List[str]:
        """The byte arithmetic with this picture's numbers, one line each."""
        ws, hs, (cw, ch) = self.width_stride, self.height_stride, self.chroma_size
        name, const, order = FORMATS[self.format]
        y_pad, uv_pad = self.y_bytes - self.width * self.height, self.uv_bytes - cw * ch
        return [f"Y: {ws} × {hs} = {self.y_bytes} bytes (width stride × height stride, at offset 0)",
                f"UV: {ws} × {self.uv_rows} = {self.uv_bytes} bytes (half the rows, at offset {self.y_bytes})",
                f"total {ws} × {hs} × 3/2 = {self.total} bytes (buffer size {self.size})",
                f"{name} ({const} = {self.format}): UV bytes interleaved, {order}",
                f"picture {self.width} × {self.height}: {ws - self.width} padding column(s) (x ≥ {self.width}), "
                f"{hs - self.height} padding row(s) (y ≥ {self.height})",
                f"padding: {y_pad} of {self.y_bytes} Y bytes, {uv_pad} of {self.uv_bytes} UV bytes"]


MAX_STRIDE = 8192           # DVPP's largest picture side (JPEGD/JPEGE 32..8192)
MAX_DRAWN = 4096 * 4096     # stride pixels the view draws at most: every array it makes is sized from this


def check(g: Geometry) -> Geometry:
    """The geometry if it is a YUV420SP picture this view can draw; ValueError says what is wrong.

    Every size comes from a desc the learner filled, so each is bounded before anything is allocated.
    """
    if not all(isinstance(v, int) for v in (g.data, g.size, g.format, g.width, g.height, g.width_stride,
                                            g.height_stride)):
        raise ValueError("the picture's fields must be whole numbers (width, height, strides, format)")
    if g.format not in FORMATS:
        raise ValueError(f"YuvView draws YUV420SP: format {NV12} (NV12) or {NV21} (NV21), not {g.format}")
    if g.width <= 0 or g.height <= 0:
        raise ValueError(f"width and height must be set (got {g.width} × {g.height}): a fresh desc holds 0")
    if g.width > g.width_stride or g.height > g.height_stride:
        raise ValueError(f"the strides {g.width_stride} × {g.height_stride} must be at least the picture "
                         f"{g.width} × {g.height}")
    if g.width_stride > MAX_STRIDE or g.height_stride > MAX_STRIDE:
        raise ValueError(f"the strides {g.width_stride} × {g.height_stride} are larger than any DVPP picture "
                         f"(at most {MAX_STRIDE} per side)")
    if g.width_stride * g.height_stride > MAX_DRAWN:
        raise ValueError(f"the strides {g.width_stride} × {g.height_stride} are too many pixels to draw (YuvView "
                         f"draws up to {MAX_DRAWN} stride pixels): resize the picture with VPC first")
    if g.height_stride % 2 or g.width_stride % 2:
        raise ValueError(f"the strides {g.width_stride} × {g.height_stride} must be even: the UV plane has half "
                         "the rows, and U and V come in pairs")
    if not g.data:
        raise ValueError("the picture's data pointer is 0 (NULL): set it with dvpp_set_pic_desc_data")
    return g


def read_pic_desc(pic_desc: int) -> Geometry:
    """Every field of a picture desc, through the public getters acl.media.dvpp_get_pic_desc_*."""
    media = backend.acl().media
    return Geometry(*(int(getattr(media, f"dvpp_get_pic_desc_{f}")(pic_desc)) for f in FIELDS))


def read_bytes(g: Geometry) -> Tuple[bytes, str]:
    """The picture's bytes (short buffers padded with zeros) and a note when the buffer is too small."""
    want = g.total if not g.size else min(g.total, g.size)
    data = backend.inspector().read(g.data, want)
    note = "" if want >= g.total else f"the buffer holds only {want} of the {g.total} bytes the strides need"
    return data + bytes(g.total - len(data)), note


def planes(data: bytes, g: Geometry) -> Tuple[np.ndarray, np.ndarray]:
    """(Y as height_stride × width_stride, UV as height_stride/2 × width_stride) uint8 arrays."""
    raw = np.frombuffer(data[:g.total], np.uint8)
    return raw[:g.y_bytes].reshape(g.height_stride, g.width_stride), raw[g.y_bytes:].reshape(g.uv_rows, g.width_stride)


def padding_masks(g: Geometry) -> Tuple[np.ndarray, np.ndarray]:
    """True where a byte is stride padding: x ≥ width or y ≥ height (in the UV plane, its halved extent)."""
    cw, ch = g.chroma_size
    y = np.ones((g.height_stride, g.width_stride), bool)
    y[:g.height, :g.width] = False
    uv = np.ones((g.uv_rows, g.width_stride), bool)
    uv[:ch, :cw] = False
    return y, uv


def tint(rgb: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The padding drawn in the tint colour over what the bytes hold there."""
    out = rgb.copy()  # integer blend, only where the mask is: 0.4 x + 0.6 tint is never a half (both terms even)
    blend = (10 - round(PAD_ALPHA * 10)) * out[mask].astype(np.uint16) + \
        np.array(PAD_RGB, np.uint16) * round(PAD_ALPHA * 10)
    out[mask] = ((blend + 5) // 10).astype(np.uint8)
    return out


def bt601(y: np.ndarray, u: np.ndarray, v: np.ndarray, rows: int = 256) -> np.ndarray:
    """YCbCr -> RGB with the BT.601 full-range matrix JPEG uses (JFIF), ``rows`` at a time (bounded float memory)."""
    out = np.empty(y.shape + (3,), np.uint8)
    for top in range(0, y.shape[0], rows):
        yy, uu, vv = (a[top:top + rows].astype(np.float64) for a in (y, u, v))
        rgb = np.stack([yy + 1.402 * (vv - 128), yy - 0.344136 * (uu - 128) - 0.714136 * (vv - 128),
                        yy + 1.772 * (uu - 128)], axis=-1)
        out[top:top + rows] = np.clip(rgb.round(), 0, 255).astype(np.uint8)
    return out


def split_uv(uv: np.ndarray, fmt: int) -> Tuple[np.ndarray, np.ndarray]:
    """(U, V) from an interleaved UV plane: NV12 stores U first, NV21 V first."""
    first, second = uv[:, 0::2], uv[:, 1::2]
    return (first, second) if fmt == NV12 else (second, first)


def uv_picture(uv: np.ndarray, fmt: int) -> np.ndarray:
    """Each UV byte in its own colour at mid grey: U blue–yellow, V red–cyan, so the interleaving shows."""
    u, v = split_uv(uv, fmt)
    mid = np.full_like(u, 128)
    u_at, v_at = (0, 1) if fmt == NV12 else (1, 0)
    rgb = np.zeros(uv.shape + (3,), np.uint8)
    rgb[:, u_at::2] = bt601(mid, u, mid)
    rgb[:, v_at::2] = bt601(mid, mid, v)
    return rgb


def rgb_preview(y: np.ndarray, uv: np.ndarray, g: Geometry) -> np.ndarray:
    """The picture (padding cut off) converted to RGB, chroma repeated over each 2 × 2 block."""
    u, v = split_uv(uv, g.format)
    up = lambda c: np.repeat(np.repeat(c, 2, axis=0), 2, axis=1)[:g.height, :g.width]  # noqa: E731
    return bt601(y[:g.height, :g.width], up(u), up(v))


def png(rgb: np.ndarray) -> bytes:
    """PNG bytes of an RGB array."""
    buf = io.BytesIO()
    Image.fromarray(rgb, "RGB").save(buf, "PNG")
    return buf.getvalue()


def legend() -> str:
    """What the colours mean."""
    sw = "display:inline-block;width:12px;height:12px;vertical-align:middle;margin:0 4px"
    pad = "#%02x%02x%02x" % PAD_RGB
    return (f"<div class='acl-teach-yuv-legend'><span style='{sw};background:#888'></span>picture bytes "
            f"(x &lt; width, y &lt; height) <span style='{sw};background:{pad}'></span>stride padding "
            f"(x ≥ width or y ≥ height) · UV plane: <span style='{sw};background:#4060ff'></span>U bytes "
            f"<span style='{sw};background:#ff4040'></span>V bytes</div>")


class YuvView(FullText, w.VBox):
    """The Y and UV planes of a YUV420SP DVPP picture, the padding tinted, the arithmetic beside them.

    ``YuvView(pic_desc)`` reads the picture desc's fields with the public getters; ``YuvView(ptr, width,
    height, width_stride, height_stride, fmt)`` describes the buffer by hand. Snapshot semantics: what
    it drew when built (or last refreshed) stays; ``refresh`` re-reads while the memory and the desc
    live, and once either is released keeps the snapshot under 'released in cell [N] — showing what it
    held then'.
    """

    def __init__(self, picture: Union[int, Picture], width: Optional[int] = None, height: Optional[int] = None,
                 width_stride: Optional[int] = None, height_stride: Optional[int] = None, fmt: int = NV12,
                 name: Optional[str] = None, display_width: int = 384) -> None:
        self.record = picture if isinstance(picture, Picture) else None  # an at.media step's picture
        if self.record is not None:
            if self.record.released:
                raise ValueError("this picture was already released (release_picture): there is nothing to show")
            picture = self.record.pic_desc
        self.pic_desc = picture if width is None else None
        if self.pic_desc is not None:
            self.geometry = check(read_pic_desc(picture))
        else:
            ws, hs = width_stride or width, height_stride or height
            self.geometry = check(Geometry(picture, ws * hs * 3 // 2, fmt, width, height or 0, ws, hs))
        self.name = name or self._role()
        self.display_width = display_width
        self.failure: Optional[str] = None
        self.released: Optional[str] = None
        self.desc_released: Optional[str] = None
        self.data, self.note = read_bytes(self.geometry)  # nothing to show if even the first read fails: raise
        self.memory_owner = Owner(self.geometry.data, MEMORY_KINDS)
        self.desc_owner = Owner(self.pic_desc, ("dvpp pic desc",), "this picture desc was destroyed") \
            if self.pic_desc is not None else None
        self.title, self.notice, self.arith = w.HTML(), w.HTML(), w.HTML()
        self.y_image, self.uv_image, self.rgb_image = (w.Image(format="png") for _ in range(3))
        pictures = w.HBox([self._captioned("Y plane (grey)", self.y_image),
                           self._captioned("UV plane (interleaved)", self.uv_image),
                           self._captioned("RGB preview (BT.601)", self.rgb_image)])
        super().__init__([self.title, self.notice, w.HBox([pictures, self.arith]), w.HTML(legend())])
        self.add_class("acl-teach-yuv")
        self.render()

    def _role(self) -> str:
        """The variable name printed code gives the desc (or buffer), else what it is."""
        if self.pic_desc is not None:
            return trace.name_of(self.pic_desc, "picture desc")
        return trace.name_of(self.geometry.data, "DVPP buffer")

    @staticmethod
    def _captioned(caption: str, image: w.Image) -> w.VBox:
        """A picture with its caption above, so each plane says what it is."""
        return w.VBox([w.HTML(f"<small>{html.escape(caption)}</small>"), image])

    @guarded
    def refresh(self) -> "YuvView":
        """Re-read the desc and the bytes while they live; keep the snapshot of whichever was released."""
        if self.record is not None and self.record.released and not self.released:
            # the step record knows, on a board too, where no ledger does: never read a released picture
            self.released = released_notice(what="released", by="at.media.release_picture")
            return self.render()
        if self.desc_owner is not None:
            self.desc_released = self.desc_released or self.desc_owner.gone()
            if not self.desc_released:
                self.geometry = check(read_pic_desc(self.pic_desc))
        self.released = self.released or self.memory_owner.gone()
        if not self.released:
            try:
                self.data, self.note = read_bytes(self.geometry)
            except ValueError as exc:  # freed where no ledger tells (a board)
                self.released = f"{released_notice()} ({exc})"
        return self.render()

    def render(self) -> "YuvView":
        """Draw the snapshot: planes with padding tinted, RGB preview, arithmetic, notices."""
        self.failure = None
        g = self.geometry
        y, uv = planes(self.data, g)
        self.y_mask, self.uv_mask = padding_masks(g)
        self.y_rgb = tint(np.repeat(y[..., None], 3, axis=-1), self.y_mask)
        self.uv_rgb = tint(uv_picture(uv, g.format), self.uv_mask)
        self.rgb = rgb_preview(y, uv, g)
        shown = min(self.display_width, g.width_stride)
        for image, rgb in ((self.y_image, self.y_rgb), (self.uv_image, self.uv_rgb), (self.rgb_image, self.rgb)):
            image.value = png(rgb)
            image.width = str(shown if rgb is not self.rgb else shown * g.width // g.width_stride)
        self.title.value = (f"<b>{html.escape(self.name)}</b> · {g.width} × {g.height} {g.fmt_name} in "
                            f"{g.width_stride} × {g.height_stride} strides <details style='display:inline'>"
                            f"<summary>addresses</summary><code>data {g.data:#x}</code>"
                            + (f" <code>desc {self.pic_desc:#x}</code>" if self.pic_desc else "") + "</details>")
        self.notice.value = "<br>".join(notice_html(t) for t in self.notices())
        self.arith.value = ("<pre class='acl-teach-yuv-arithmetic' style='margin-left:12px'>"
                            f"{html.escape(chr(10).join(self.lines()))}</pre>")
        return self

    def notices(self) -> List[str]:
        """What was released (and a too-small buffer), each a line."""
        return [t for t in (self.released, self.desc_released, self.note) if t]

    def lines(self) -> List[str]:
        """The arithmetic as shown beside the planes."""
        return self.geometry.arithmetic()

    def _show_failure(self, text: str) -> None:
        """A failed refresh is said above the snapshot it leaves as it was."""
        self.notice.value = f"<b style='color:#a00'>{html.escape(text)}</b>"

    def __repr__(self) -> str:
        g = self.geometry
        head = (f"YuvView({self.name}: {g.width} × {g.height} {g.fmt_name} in "
                f"{g.width_stride} × {g.height_stride} strides)")
        return "\n".join([head] + [f"  [{t}]" for t in self.notices()] + [f"  {line}" for line in self.lines()])

