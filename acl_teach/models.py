"""The edge that picks models for the active backend: the simulator gets emulator OMs, a board gets real ones.

Session, the CLI, widgets and the notebooks' cells ask here; the step API only loads the path
it is given. On a board the OMs are built by CANN's ``atc`` for ``acl.get_soc_name()``.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from . import backend
from .toolchain import assets


def _target() -> Tuple[str, str]:
    """(backend name, SoC) of the active acl."""
    return backend.name(), backend.acl().get_soc_name()


def default_om() -> str:
    """EfficientNet-Lite0 (input fp16 [1,3,224,224], output fp32 [1,1000]) for this backend."""
    return assets.default_om(*_target())


def dynamic_batch_om() -> str:
    """The default model with batch gears 1, 2, 4, 8, for this backend."""
    return assets.dynamic_batch_om(*_target())


def aipp_om() -> str:
    """The default model with static AIPP: it takes the 224 x 224 NV12 picture DVPP makes (notebook 14)."""
    return assets.aipp_om(*_target())


def aipp_cfg() -> str:
    """The AIPP config ``aipp_om()`` is built with (print it to read what AIPP does)."""
    return assets.aipp_cfg()


def recipe(model_path: str) -> dict:
    """The preprocessing recipe a model carries (its sidecar or OM header); RecipeError when it has none."""
    from .toolchain import recipes
    return recipes.resolve(None, model_path)


def best_om() -> str:
    """ResNet-50 when fetched, else the default, for this backend."""
    return assets.best_om(*_target())


def op_model_dir() -> str:
    """The folder to pass to acl.op.set_model_dir for notebook 07's Cast and ArgMaxD."""
    return assets.op_model_dir(*_target())


def compile_ops(ops: List[dict], name: str) -> str:
    """The folder `atc --singleop` writes for your op list (a list of op entries, as in op_list.json) on this
    backend, compiled once; each operator is one .om file there."""
    return assets.compile_ops(ops, name, *_target())


def image(name: str) -> str:
    """Path of a shipped photo ('coffee.png', 'chelsea.png', 'rocket.jpg')."""
    return assets.image(name)


def video_clip(path: str, images: Sequence[str], width: int, height: int, frames: int) -> str:
    """Write a small H.264 (main profile, Annex B) clip of the photos, slowly panned: a stand-in for a camera's
    recording (notebook 15). The file is the same on every machine that has the same PyAV/x264."""
    from .toolchain import video
    return video.write_stream(path, images, width, height, frames, "h264")


def video_frames(images: Sequence[str], width: int, height: int, frames: int) -> List[bytes]:
    """The same kind of clip as a list of access units (one bytes object a frame, decode order)."""
    from .toolchain import video
    return video.encode(images, width, height, frames, "h264")


def reference_nv12(units: Sequence[bytes]) -> list:
    """FFmpeg's decode of those units, each picture packed NV12 (height * 3/2, width): what VDEC must give."""
    from .toolchain import video
    return video.decode_nv12(units, "h264")


def sample_images() -> List[str]:
    """The shipped photos."""
    return assets.sample_images()


def labels() -> List[str]:
    """The ImageNet class names."""
    return assets.labels()


def fetched_resnet50() -> bool:
    """Whether `acl-teach fetch resnet50` has run."""
    return assets.resnet50_onnx() is not None


def convert(onnx_path: str, flags: List[str], name: str) -> str:
    """An OM of your own ONNX model for this backend: ATC flags beyond --model/--framework/--output/--soc_version."""
    return assets.build_om(onnx_path, flags, name, *_target())
