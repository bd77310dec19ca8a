"""Images in: open any picture Pillow can read, and turn it into the tensor a model's recipe asks for.

The recipes themselves (EfficientNet-Lite, the Caffe ResNet-50 sample, the ONNX quick-start) live in
``recipes``.
Bad files (missing, empty, truncated, not an image, a decompression bomb) raise ImageError
naming the file, never a traceback from inside Pillow.
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Dict, Optional, Sequence

import numpy as np
from PIL import Image, ImageOps

from .recipes import EFFICIENTNET_LITE

MAX_PIXELS = 64_000_000
_RESAMPLE = {"bicubic": Image.BICUBIC, "bilinear": Image.BILINEAR, "nearest": Image.NEAREST}


class ImageError(ValueError):
    """An image that cannot be used, with the file name and what to do."""


def load_image(path: str) -> Image.Image:
    """Open and fully decode an image as 8-bit RGB, EXIF rotation applied."""
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
                if img.width * img.height > MAX_PIXELS:
                    raise ImageError(f"{path}: {img.width}x{img.height} pixels is too large to be a photo "
                                     f"(limit {MAX_PIXELS:,}); a decompression bomb? Resize it first.")
                img.load()
                img = ImageOps.exif_transpose(img)
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


def to_rgb(img: Image.Image) -> Image.Image:
    """8-bit RGB from any mode: 16-bit and 32-bit grey are scaled, transparency is laid on white."""
    if img.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        arr = np.asarray(img, dtype=np.float64)
        top = 65535.0 if img.mode.startswith("I;16") or arr.max() > 255 else 255.0
        arr = np.clip(arr / top * 255.0, 0, 255).astype(np.uint8)
        return Image.fromarray(arr, "L").convert("RGB")
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return img.convert("RGB")


def _resize_crop(img: Image.Image, recipe: Dict[str, Any], size: Sequence[int]) -> Image.Image:
    resample = _RESAMPLE[recipe.get("resample", "bilinear")]
    height, width = size
    if "resize_exact" in recipe:
        img = img.resize(tuple(reversed(recipe["resize_exact"])), resample)
    else:
        short = recipe.get("resize_short", min(height, width))
        scale = short / min(img.size)
        img = img.resize((max(width, round(img.width * scale)), max(height, round(img.height * scale))), resample)
    left, top = (img.width - width) // 2, (img.height - height) // 2
    return img.crop((left, top, left + width, top + height))


def preprocess(image: Any, recipe: Optional[Dict[str, Any]] = None, dims: Sequence[int] = (1, 3, 224, 224),
               dtype: Any = np.float16, layout: str = "NCHW") -> np.ndarray:
    """Image path or PIL image -> contiguous array of ``dims`` and ``dtype`` for the model input."""
    recipe = recipe or EFFICIENTNET_LITE
    img = load_image(image) if isinstance(image, str) else to_rgb(image)
    h, w = (dims[2], dims[3]) if layout == "NCHW" else (dims[1], dims[2])
    img = _resize_crop(img, recipe, (h, w))
    pixels = np.asarray(img, dtype=np.float32)
    if recipe.get("channel_order", "RGB") == "BGR":
        pixels = pixels[:, :, ::-1]
    pixels = (pixels - np.asarray(recipe.get("mean", [0, 0, 0]), np.float32)) / \
        np.asarray(recipe.get("std", [1, 1, 1]), np.float32)
    if layout == "NCHW":
        pixels = pixels.transpose(2, 0, 1)
    return np.ascontiguousarray(pixels[np.newaxis].astype(dtype))
