"""Images in: open any picture Pillow can read, and turn it into the tensor a model's recipe asks for.

The recipes themselves (EfficientNet-Lite, the Caffe ResNet-50 sample, the ONNX quick-start) live in
``recipes``.
Bad files (missing, empty, truncated, not an image, a decompression bomb) raise ImageError
naming the file, never a traceback from inside Pillow. The work per image is bounded before anything
is allocated: at most MAX_PIXELS decoded and MAX_WORK_BYTES to decode and convert them (both checked
from the header), and at most MAX_RESIZED_PIXELS after the recipe's resize (checked before resizing:
a 1 x 12000 strip resized to a short side of 256 would otherwise become 256 x 3,072,000 pixels).
"""
from __future__ import annotations

import functools
import os
import warnings
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np
from PIL import Image, ImageOps

from .recipes import EFFICIENTNET_LITE, RecipeError

MAX_PIXELS = 64_000_000  # decoded: a 48 MP phone photo fits, a decompression bomb does not
MAX_WORK_BYTES = 512 * 2**20  # decoding and converting one image: a 64 MP RGB photo fits (see work_bytes)
MAX_RESIZED_PIXELS = 16_000_000  # after the resize, before the crop: panoramas fit (up to ~240:1 at 256)
_RESAMPLE = {"bicubic": Image.BICUBIC, "bilinear": Image.BILINEAR, "nearest": Image.NEAREST}


class ImageError(ValueError):
    """An image that cannot be used, with the file name and what to do."""


def load_image(path: str, check: Optional[Callable[[Tuple[int, int]], None]] = None) -> Image.Image:
    """Open and fully decode an image as 8-bit RGB, EXIF rotation applied; ``check(size)`` may refuse it first."""
    if not os.path.exists(path):
        raise ImageError(f"{path}: no such file")
    if os.path.isdir(path):
        raise ImageError(f"{path}: is a directory, not an image")
    if os.path.getsize(path) == 0:
        raise ImageError(f"{path}: the file is empty (0 bytes)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                _check_decode(path, img)
                if check is not None:
                    check(img.size)  # from the header, before decoding
                img.load()
                img = _upright(img)
        return to_rgb(img)
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(f"{path}: refused as a possible decompression bomb (too many pixels).") from None
    except Image.UnidentifiedImageError:
        raise ImageError(f"{path}: not an image Pillow can read (is it really a JPEG/PNG/BMP?)") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"{path}: the image is damaged or truncated ({exc}); re-export or re-download it.") \
            from None


def work_bytes(mode: str, size: Sequence[int], transparency: bool = False) -> int:
    """Peak bytes load_image + to_rgb need for an image of this mode and size (known from the header)."""
    stored = 1 if mode in ("1", "L", "P") else 2 if mode.startswith("I;16") else 4  # Pillow's bytes per pixel
    per_pixel = 2 * stored  # decoded + its EXIF-rotated copy
    if mode != "RGB":
        per_pixel += 4  # the RGB result
    if mode in ("RGBA", "LA", "PA", "I", "F") or mode.startswith("I;16") or transparency:
        per_pixel += 8  # the white background and composite, or the float64 rescale
    return per_pixel * size[0] * size[1]


def _check_decode(path: str, img: Image.Image) -> None:
    """Refuse from the header what would take too many pixels or too much memory to decode and convert."""
    if img.width * img.height > MAX_PIXELS:
        raise ImageError(f"{path}: {img.width}x{img.height} pixels is too large to be a photo "
                         f"(limit {MAX_PIXELS:,}); a decompression bomb? Resize it first.")
    need = work_bytes(img.mode, img.size, "transparency" in img.info)
    if need > MAX_WORK_BYTES:
        raise ImageError(f"{path}: {img.width}x{img.height} pixels of mode {img.mode} would need about "
                         f"{need / 2**20:,.0f} MiB to decode and convert (limit {MAX_WORK_BYTES / 2**20:,.0f} MiB); "
                         f"a decompression bomb? Resize it or save it as 8-bit RGB first.")


def _upright(img: Image.Image) -> Image.Image:
    """EXIF rotation applied in place when Pillow can (>= 9.4): no second full-size copy."""
    try:
        ImageOps.exif_transpose(img, in_place=True)
        return img
    except TypeError:  # pragma: no cover - Pillow < 9.4
        return ImageOps.exif_transpose(img)


def to_rgb(img: Image.Image) -> Image.Image:
    """8-bit RGB from any mode: 16-bit and 32-bit grey are scaled, transparency is laid on white."""
    if img.mode == "RGB":
        return img  # never changed in place by the callers: no copy needed
    if img.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        arr = np.array(img, dtype=np.float64)
        top = 65535.0 if img.mode.startswith("I;16") or arr.max() > 255 else 255.0
        arr /= top  # in place: the same arithmetic as arr / top * 255.0 without full-size temporaries
        arr *= 255.0
        return Image.fromarray(np.clip(arr, 0, 255, out=arr).astype(np.uint8), "L").convert("RGB")
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img if img.mode == "RGBA" else img.convert("RGBA")
        return Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba).convert("RGB")
    return img.convert("RGB")


def _resized_size(size: Sequence[int], recipe: Dict[str, Any], target: Sequence[int]) -> Tuple[int, int]:
    """(width, height) the recipe resizes an image of ``size`` to before the centre crop of ``target``."""
    if "resize_exact" in recipe:
        return tuple(reversed(recipe["resize_exact"]))
    height, width = target
    short = recipe.get("resize_short", min(height, width))
    scale = short / min(size)
    return max(width, round(size[0] * scale)), max(height, round(size[1] * scale))


def check_work(name: str, size: Sequence[int], recipe: Dict[str, Any], target: Sequence[int]) -> None:
    """Refuse, before allocating it, a resize larger than MAX_RESIZED_PIXELS (a thin strip is no photo)."""
    width, height = _resized_size(size, recipe, target)
    if width * height > MAX_RESIZED_PIXELS:
        ratio = max(size) / max(1, min(size))
        raise ImageError(f"{name}: {size[0]}x{size[1]} pixels (aspect ratio {ratio:,.0f}:1) would be resized to "
                         f"{width:,}x{height:,} = {width * height:,} pixels before the centre crop (limit "
                         f"{MAX_RESIZED_PIXELS:,}); it is not a photo the model can use. Crop it to a normal "
                         f"aspect ratio first.")


def _resize_crop(img: Image.Image, recipe: Dict[str, Any], size: Sequence[int]) -> Image.Image:
    """The recipe's resize, then the centre crop of ``size`` (height, width)."""
    resample = _RESAMPLE[recipe.get("resample", "bilinear")]
    height, width = size
    img = img.resize(_resized_size(img.size, recipe, size), resample)
    left, top = (img.width - width) // 2, (img.height - height) // 2
    return img.crop((left, top, left + width, top + height))


def preprocess(image: Any, recipe: Optional[Dict[str, Any]] = None, dims: Sequence[int] = (1, 3, 224, 224),
               dtype: Any = np.float16, layout: str = "NCHW") -> np.ndarray:
    """Image path or PIL image -> contiguous array of ``dims`` and ``dtype`` for the model input."""
    recipe = recipe or EFFICIENTNET_LITE
    if recipe.get("input") == "YUV420SP_U8":
        raise RecipeError(f"recipe {recipe.get('name')!r} feeds a DVPP picture into an AIPP model; host preprocessing "
                          f"cannot make that input. Use acl_teach.media (decode_jpeg -> apply_recipe -> "
                          f"picture_dataset), or a host recipe such as 'efficientnet-lite'.")
    h, w = (dims[2], dims[3]) if layout == "NCHW" else (dims[1], dims[2])
    name = image if isinstance(image, str) else "<image>"
    bound = lambda size: check_work(name, size, recipe, (h, w))  # noqa: E731
    img = load_image(image, bound) if isinstance(image, str) else to_rgb(image)
    bound(img.size)  # again after EXIF rotation: the size the resize will really make
    img = _resize_crop(img, recipe, (h, w))
    pixels = np.asarray(img)
    if recipe.get("channel_order", "RGB") == "BGR":
        pixels = pixels[:, :, ::-1]
    mean, std = recipe.get("mean", [0, 0, 0]), recipe.get("std", [1, 1, 1])
    try:
        table = _normalised(tuple(np.ravel(mean).tolist()), tuple(np.ravel(std).tolist()), np.dtype(dtype))
    except ValueError:  # not one value or three per channel: numpy's own broadcasting says what is wrong
        pixels = (pixels.astype(np.float32) - np.asarray(mean, np.float32)) / np.asarray(std, np.float32)
        pixels = pixels.transpose(2, 0, 1) if layout == "NCHW" else pixels
        return np.ascontiguousarray(pixels[np.newaxis].astype(dtype))
    if layout == "NCHW":
        out = np.empty((1, 3) + pixels.shape[:2], table.dtype)
        for c in range(3):
            table[c].take(pixels[:, :, c], out=out[0, c])
        return out
    return table[np.arange(3), pixels][np.newaxis]


@functools.lru_cache(maxsize=32)
def _normalised(mean: Tuple[float, ...], std: Tuple[float, ...], dtype: np.dtype) -> np.ndarray:
    """(3, 256): every 8-bit value of each channel, (value - mean) / std in float32 then cast to ``dtype``.

    The per-pixel arithmetic of the recipe, done once per value: looking it up gives the same bytes as
    computing it for each of the 150,528 pixels, at a fraction of the cost (the float16 cast is the slow part).
    """
    values = np.arange(256, dtype=np.float32)[np.newaxis, :]
    m = np.broadcast_to(np.asarray(mean, np.float32), (3,))[:, np.newaxis]
    s = np.broadcast_to(np.asarray(std, np.float32), (3,))[:, np.newaxis]
    table = ((values - m) / s).astype(dtype)
    table.flags.writeable = False
    return table
