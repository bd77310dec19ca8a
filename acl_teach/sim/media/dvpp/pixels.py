"""Reading and writing semi-planar YUV pictures in DVPP memory with their width/height strides, and resizing planes."""
from __future__ import annotations

from typing import Tuple

import numpy as np
from PIL import Image

from ....spec.dvpp import SEMIPLANAR

Planes = Tuple[np.ndarray, np.ndarray, np.ndarray]  # Y (h, w), U and V (h/sy, w/sx), uint8


def layout(fmt: int) -> Tuple[int, int, bool]:
    """(chroma x step, chroma y step, V first) of a semi-planar format (YUV400 reads as Y only)."""
    return SEMIPLANAR[fmt]


def read(buf: np.ndarray, fmt: int, width: int, height: int, ws: int, hs: int) -> Planes:
    """The visible width x height picture of a strided semi-planar buffer (UV plane at ws*hs)."""
    sx, sy, v_first = layout(fmt)
    y = buf[:hs * ws].reshape(hs, ws)[:height, :width]
    cw, ch = -(-width // sx), -(-height // sy)
    row = ws * 2 // sx
    uv = buf[ws * hs: ws * hs + row * (hs // sy)].reshape(hs // sy, row)[:ch, :2 * cw].reshape(ch, cw, 2)
    u, v = (uv[..., 1], uv[..., 0]) if v_first else (uv[..., 0], uv[..., 1])
    return y.copy(), u.copy(), v.copy()


def write(buf: np.ndarray, fmt: int, planes: Planes, left: int, top: int, ws: int, hs: int) -> None:
    """Write planes at (left, top) of a strided semi-planar buffer; padding bytes are left as they were."""
    sx, sy, v_first = layout(fmt)
    y, u, v = planes
    h, w = y.shape
    buf[:hs * ws].reshape(hs, ws)[top:top + h, left:left + w] = y
    row = ws * 2 // sx
    uv = buf[ws * hs: ws * hs + row * (hs // sy)].reshape(hs // sy, row)
    ch, cw = u.shape
    cl, ct = left // sx, top // sy
    first, second = (v, u) if v_first else (u, v)
    uv[ct:ct + ch, 2 * cl:2 * (cl + cw):2] = first
    uv[ct:ct + ch, 2 * cl + 1:2 * (cl + cw):2] = second


def subsample(plane: np.ndarray, sx: int, sy: int) -> np.ndarray:
    """A full-resolution chroma plane averaged over sx x sy blocks (edges replicated), rounded half up.

    Summed as sx*sy strided slices (one vectorised add each): a 4-D reshape-and-sum is over 10x slower.
    """
    if sx == sy == 1:
        return plane.copy()
    h, w = plane.shape
    ph, pw = -(-h // sy) * sy, -(-w // sx) * sx
    padded = plane if (ph, pw) == (h, w) else np.pad(plane, ((0, ph - h), (0, pw - w)), mode="edge")
    total = np.full((ph // sy, pw // sx), sx * sy // 2, np.uint16)
    for dy in range(sy):
        for dx in range(sx):
            total += padded[dy::sy, dx::sx]
    return (total // (sx * sy)).astype(np.uint8)


def resize_plane(plane: np.ndarray, width: int, height: int, interpolation: int) -> np.ndarray:
    """One 8-bit plane scaled to width x height: nearest for 2/4, else bilinear (UNCONFIRMED: the 310's
    default 'self-developed' kernel is unpublished; Pillow's bilinear stands in for 0, 1 and 3)."""
    if plane.shape == (height, width):
        return plane.copy()
    resample = Image.NEAREST if interpolation in (2, 4) else Image.BILINEAR
    return np.asarray(Image.fromarray(plane).resize((width, height), resample), np.uint8)


def resize(planes: Planes, fmt: int, width: int, height: int, interpolation: int) -> Planes:
    """Scale Y to width x height and the chroma planes to their subsampled size."""
    sx, sy, _ = layout(fmt)
    y, u, v = planes
    cw, ch = -(-width // sx), -(-height // sy)
    return (resize_plane(y, width, height, interpolation), resize_plane(u, cw, ch, interpolation),
            resize_plane(v, cw, ch, interpolation))


def crop(planes: Planes, fmt: int, left: int, top: int, width: int, height: int) -> Planes:
    """The box (left, top, width, height) of a picture (chroma by its subsampled coordinates)."""
    sx, sy, _ = layout(fmt)
    y, u, v = planes
    cl, ct, cw, ch = left // sx, top // sy, -(-width // sx), -(-height // sy)
    return y[top:top + height, left:left + width], u[ct:ct + ch, cl:cl + cw], v[ct:ct + ch, cl:cl + cw]
