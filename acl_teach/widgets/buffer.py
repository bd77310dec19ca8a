"""``BufferView``: a buffer's bytes as a hex dump, as a typed array, and (for NCHW images) as pictures."""
from __future__ import annotations

import io
from typing import Any, List, Optional, Sequence

import ipywidgets as w
import numpy as np
from PIL import Image

from ._snapshot import MEMORY_KINDS, Owner, guarded, notice_html, released_notice, safe_callback
from .peek import peek, resolve_target, where
from .text import FullText

DTYPES = ["uint8", "int8", "float16", "float32", "int32", "int64"]


def hexdump(data: bytes, start: int = 0, rows: int = 8, width: int = 16) -> List[str]:
    """'0000  cd cd cd …' lines with offsets."""
    lines = []
    for off in range(start, min(len(data), start + rows * width), width):
        chunk = data[off:off + width]
        lines.append(f"{off:06x}  {' '.join(f'{b:02x}' for b in chunk)}")
    return lines


def typed(data: bytes, dtype: str) -> np.ndarray:
    """The bytes read as ``dtype`` (a trailing partial element is dropped)."""
    dt = np.dtype(dtype)
    usable = len(data) // dt.itemsize * dt.itemsize
    return np.frombuffer(data[:usable], dt)


def channel_pictures(values: np.ndarray, shape: Sequence[int]) -> List[bytes]:
    """PNG bytes of each channel of the first image of an NCHW tensor, scaled to 0..255."""
    n, c, h, wd = shape
    if values.size < c * h * wd:
        return []
    planes = np.nan_to_num(values[:c * h * wd].astype(np.float64), posinf=0, neginf=0).reshape(c, h, wd)
    out = []
    for plane in planes:
        lo, hi = float(plane.min()), float(plane.max())
        scaled = np.zeros_like(plane) if hi == lo else (plane - lo) / (hi - lo) * 255
        buf = io.BytesIO()
        Image.fromarray(scaled.astype(np.uint8), "L").save(buf, "PNG")
        out.append(buf.getvalue())
    return out


class BufferView(FullText, w.VBox):
    """The bytes of a host or device buffer; ``refresh()`` after a copy shows them arrive.

    Snapshot semantics: the view keeps the bytes it last read. Once the memory is freed, refresh
    keeps that snapshot under 'released in cell [N] — showing what it held then' instead of failing
    (and never reads the address again: it may hold someone else's memory by then); the dtype
    dropdown re-renders the snapshot without touching memory.
    """

    def __init__(self, target: Any, size: int = 0, dtype: Optional[str] = None,
                 shape: Optional[Sequence[int]] = None, rows: int = 8) -> None:
        self.ptr, self.size, self.label = resolve_target(target, size)
        self.shape = list(shape) if shape else None
        self.rows = rows
        self.released: Optional[str] = None
        self.failure: Optional[str] = None
        self.data = peek(self.ptr, self.size)  # nothing to show if even the first read fails: raise
        self.owner = Owner(self.ptr, MEMORY_KINDS)
        self.location = where(self.ptr)
        self.dtype_choice = w.Dropdown(options=DTYPES, value=dtype or "uint8", description="as")
        self.notice = w.HTML()
        self.hex_box = w.HTML()
        self.array_box = w.HTML()
        self.pictures = w.HBox()
        self.dtype_choice.observe(safe_callback(self, lambda _: self.render(), "redraw"), names="value")
        title = w.HTML(f"<b>{self.label}</b> · {self.size} bytes in {self.location} "
                       f"<details style='display:inline'><summary>address</summary><code>{self.ptr:#x}</code></details>")
        super().__init__([title, self.notice, self.hex_box, self.dtype_choice,
                          self.array_box, self.pictures])
        self.add_class("acl-teach-buffer")
        self.dtype_choice.add_class("acl-teach-buffer-dtype")
        self.array_box.add_class("acl-teach-buffer-values")
        self.render()

    @guarded
    def refresh(self) -> "BufferView":
        """Read the bytes again while the memory lives; once it is released keep the snapshot and say where."""
        self.released = self.released or self.owner.gone()
        if self.released is None:
            try:
                self.data = peek(self.ptr, self.size)
            except ValueError as exc:  # freed where no ledger tells (a board): keep the snapshot, say so
                self.released = f"{released_notice()} ({exc})"
        return self.render()

    def render(self) -> "BufferView":
        """Draw the current snapshot as hex, typed values and channel pictures."""
        self.failure = None
        self.hex_lines = hexdump(self.data, rows=self.rows)
        self.values = typed(self.data, self.dtype_choice.value)
        self.notice.value = notice_html(self.released)
        self.hex_box.value = "<pre>" + "\n".join(self.hex_lines) + "</pre>"
        self.array_box.value = f"<pre>{self.array_text()}</pre>"
        pics = channel_pictures(self.values, self.shape) if self.shape and len(self.shape) == 4 else []
        self.pictures.children = [w.Image(value=p, format="png", width=112) for p in pics]
        return self

    def array_text(self) -> str:
        """First values of the typed view, with count and dtype."""
        shown = np.array2string(self.values[:12], precision=4, separator=", ")
        return f"{self.values.size} x {self.dtype_choice.value}: {shown}{' ...' if self.values.size > 12 else ''}"

    def __repr__(self) -> str:
        head = f"BufferView({self.label}, {self.size} bytes in {self.location})"
        if self.released:
            head += f"\n  [{self.released}]"
        return head + "\n" + "\n".join(self.hex_lines) + f"\n{self.array_text()}"
