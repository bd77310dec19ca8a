"""Preprocessing recipes: how a model wants its image (resize, crop, channel order, mean/std) and what it outputs.

A model's recipe comes from a ``<model>.recipe.json`` beside it, or from a simulator OM's header
(the ATC emulator copies the ONNX file's sidecar in). A real OM carries none, so it needs a
sidecar or an explicit ``recipe=`` / ``--recipe``: acl-teach never guesses.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, Optional, Union

from ..spec import om
from .files import replace_with

EFFICIENTNET_LITE = {"name": "efficientnet-lite", "resize_short": 256, "crop": 224, "resample": "bicubic",
                     "channel_order": "RGB", "mean": [127.0] * 3, "std": [128.0] * 3, "layout": "NCHW",
                     "output": "probabilities", "labels": "imagenet1k"}
CAFFE_RESNET50 = {"name": "caffe-resnet50", "resize_exact": [256, 256], "crop": 224, "resample": "bicubic",
                  "channel_order": "BGR", "mean": [104.0, 117.0, 123.0], "std": [1.0, 1.0, 1.0], "layout": "NCHW",
                  "output": "probabilities", "labels": "imagenet1k"}
IMAGENET_ONNX = {"name": "imagenet-onnx", "resize_exact": [224, 224], "crop": 224, "resample": "bilinear",
                 "channel_order": "RGB", "mean": [123.675, 116.28, 103.53], "std": [58.395, 57.12, 57.375],
                 "layout": "NCHW", "output": "logits", "labels": "imagenet1k"}
# The same model fed by DVPP: VPC does the geometry (centre crop + scale), the AIPP in the OM the colour and
# normalisation, so the model's input is the 224 x 224 NV12 picture itself (uint8, 224 x 224 x 3 / 2 bytes).
EFFICIENTNET_LITE_AIPP = {"name": "efficientnet-lite-aipp", "input": "YUV420SP_U8", "resize_short": 256,
                          "crop": 224, "aipp": "efficientnet_lite0_aipp_nv12.cfg", "output": "probabilities",
                          "labels": "imagenet1k"}
RECIPES = {r["name"]: r for r in (EFFICIENTNET_LITE, CAFFE_RESNET50, IMAGENET_ONNX, EFFICIENTNET_LITE_AIPP)}


class RecipeError(ValueError):
    """No recipe is known for a model, or the one given is not usable; the message names the fix."""


def sidecar(model_path: str) -> str:
    """``dir/name.om`` -> ``dir/name.recipe.json``: where a model's recipe is kept beside it."""
    return os.path.splitext(model_path)[0] + ".recipe.json"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_size(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


# what each known field must be, and how to say it; other fields (name, labels ...) are free
FIELDS = {
    "resize_short": (_is_size, "a positive integer"),
    "resize_exact": (lambda v: isinstance(v, list) and len(v) == 2 and all(map(_is_size, v)), "[height, width]"),
    "crop": (_is_size, "a positive integer"),
    "resample": (lambda v: v in ("bicubic", "bilinear", "nearest"), '"bicubic", "bilinear" or "nearest"'),
    "channel_order": (lambda v: v in ("RGB", "BGR"), '"RGB" or "BGR"'),
    "mean": (lambda v: isinstance(v, list) and len(v) == 3 and all(map(_is_number, v)), "3 numbers"),
    "std": (lambda v: isinstance(v, list) and len(v) == 3 and all(map(_is_number, v)) and all(v),
            "3 non-zero numbers"),
    "layout": (lambda v: v in ("NCHW", "NHWC"), '"NCHW" or "NHWC"'),
    "output": (lambda v: v in ("probabilities", "logits"), '"probabilities" or "logits"'),
    "input": (lambda v: v in ("YUV420SP_U8",), '"YUV420SP_U8" (a DVPP picture into an AIPP model)'),
}


MAX_RECIPE_BYTES = 1 << 20  # a recipe is a few hundred bytes


def _read_json(path: str) -> Dict[str, Any]:
    """A recipe file's object, its known fields checked: a bad file is one clear RecipeError naming it."""
    from .files import read_regular
    try:
        data = json.loads(read_regular(path, MAX_RECIPE_BYTES, "recipe file").decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # a FIFO or /dev/zero is refused before reading
        raise RecipeError(f"recipe file {path} cannot be read as JSON ({str(exc)[:200]}).") from None
    if not isinstance(data, dict):
        raise RecipeError(f"recipe file {path} must hold a JSON object such as {json.dumps(EFFICIENTNET_LITE)}.")
    for key, (ok, want) in FIELDS.items():
        if key in data and not ok(data[key]):
            raise RecipeError(f"recipe file {path}: {key!r} is {json.dumps(data[key])}; it must be {want}.")
    return data


def read_sidecar(model_path: str) -> Optional[Dict[str, Any]]:
    """The ``.recipe.json`` beside a model (ONNX or OM), checked; None when there is none."""
    return _read_json(sidecar(model_path)) if os.path.isfile(sidecar(model_path)) else None


def keep(model_path: str, recipe: Dict[str, Any]) -> None:
    """Write a model's sidecar only when it differs, atomically: a concurrent reader never sees half a file."""
    target = sidecar(model_path)
    if os.path.isfile(target):
        try:
            if read_sidecar(model_path) == recipe:
                return
        except RecipeError:
            pass  # a damaged sidecar is replaced
    replace_with(target, json.dumps(recipe, indent=1).encode("utf-8"))


def recipe_for(model_path: str, header: Optional[Dict[str, Any]] = None) -> Optional[Dict[str, Any]]:
    """The model's own recipe (sidecar file, else a simulator OM's header), or None when it has none.

    ``header``: the OM header of the model as it was loaded, when the caller holds it; the 18 MB file
    is then not read, hashed and parsed a second time (and what is read is what runs, never a newer file).
    """
    found = read_sidecar(model_path)
    if found is not None:
        return found
    if header is not None:
        return header.get("recipe") or None
    try:
        return om.read(model_path).header.get("recipe") or None
    except om.OmError:  # a real OM, or not an OM at all: no header to read
        return None


def resolve(recipe: Union[str, Dict[str, Any], None], model_path: str,
            own: Optional[Callable[[], Optional[Dict[str, Any]]]] = None) -> Dict[str, Any]:
    """An explicit recipe (name, JSON path or dict) or the model's own; refuse rather than guess.

    ``own``: how the caller already knows the model's own recipe (``recipe_for`` of the path otherwise).
    """
    if isinstance(recipe, dict):
        return recipe
    if isinstance(recipe, str) and recipe in RECIPES:
        return RECIPES[recipe]
    if isinstance(recipe, str) and recipe.endswith(".json"):
        return _read_json(recipe)
    if recipe is not None:
        raise RecipeError(f"unknown recipe {recipe!r}: use one of {', '.join(RECIPES)} or the path of a "
                          f".recipe.json file.")
    found = own() if own is not None else recipe_for(model_path)
    if found is None:
        raise RecipeError(f"the preprocessing recipe of {model_path} is unknown (no {os.path.basename(sidecar(model_path))}"
                          f" beside it): pass recipe= (Session) or --recipe (CLI), one of {', '.join(RECIPES)} "
                          f"or a .recipe.json path.")
    return found
