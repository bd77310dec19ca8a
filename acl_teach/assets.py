"""The models, photos and labels that ship with acl-teach, and the OM cache (each OM built once by the ATC emulator).

The embedded default is EfficientNet-Lite0 (ImageNet-1k), converted the way the official
ResNet-50 sample converts its model, so its OM has the same I/O contract: input fp16 NCHW
[1,3,224,224] = 301056 bytes, output fp32 [1,1000] = 4000 bytes. When ResNet-50 has been
fetched (``acl-teach fetch resnet50``), it is used instead.
"""
from __future__ import annotations

import hashlib
import os
from typing import List, Optional

from . import atc

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def data_dir() -> str:
    """The repository's data/ folder (override with ACL_TEACH_DATA)."""
    return os.environ.get("ACL_TEACH_DATA") or os.path.join(os.path.dirname(PACKAGE_DIR), "data")


def cache_dir() -> str:
    """Where built OMs and fetched models live (ACL_TEACH_CACHE, default ~/.cache/acl-teach)."""
    path = os.environ.get("ACL_TEACH_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "acl-teach")
    os.makedirs(path, exist_ok=True)
    return path


def default_onnx() -> str:
    """The shipped EfficientNet-Lite0 ONNX file."""
    return os.path.join(data_dir(), "models", "efficientnet_lite0.onnx")


def sample_images() -> List[str]:
    """The shipped photos, sorted by name."""
    folder = os.path.join(data_dir(), "images")
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if not f.startswith("."))


def labels() -> List[str]:
    """The 1000 ImageNet class names, index = class id."""
    with open(os.path.join(data_dir(), "imagenet_classes.txt"), encoding="utf-8") as fh:
        return fh.read().splitlines()


def _digest(path: str, flags: List[str]) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    h.update("\0".join(flags).encode())
    return h.hexdigest()[:12]


def build_om(onnx_path: str, flags: List[str], name: str) -> str:
    """Build (or reuse from the cache) the OM of ``onnx_path`` with extra ATC ``flags``."""
    if not os.path.isfile(onnx_path):
        raise FileNotFoundError(f"model {onnx_path} is missing; the repository's data/ folder is needed "
                                f"(set ACL_TEACH_DATA if it lives elsewhere)")
    out = os.path.join(cache_dir(), f"{name}-{_digest(onnx_path, flags)}")
    if not os.path.isfile(out + ".om"):
        argv = [f"--model={onnx_path}", "--framework=5", f"--output={out}"] + flags
        atc.build(atc.parse_flags(argv), "atc " + " ".join(argv))
    return out + ".om"


DEFAULT_FLAGS = ["--soc_version=Ascend310", "--input_fp16_nodes=data", "--output_type=FP32"]
DYNAMIC_BATCH_FLAGS = DEFAULT_FLAGS + ["--input_shape=data:-1,3,224,224", "--dynamic_batch_size=1,2,4,8"]
RESNET50_FLAGS = ["--soc_version=Ascend310", "--input_shape=actual_input_1:1,3,224,224"]


def default_om() -> str:
    """The embedded default OM (EfficientNet-Lite0, the sample's I/O contract), built on first use."""
    return build_om(default_onnx(), DEFAULT_FLAGS, "efficientnet_lite0")


def dynamic_batch_om() -> str:
    """The default model with batch gears 1, 2, 4, 8 (for the dynamic-batch lessons)."""
    return build_om(default_onnx(), DYNAMIC_BATCH_FLAGS, "efficientnet_lite0_dynbatch")


def resnet50_onnx() -> Optional[str]:
    """The fetched ResNet-50 ONNX, if `acl-teach fetch resnet50` has run."""
    path = os.path.join(cache_dir(), "resnet50", "resnet50.onnx")
    return path if os.path.isfile(path) else None


def best_om() -> str:
    """ResNet-50's OM when fetched, else the embedded default."""
    onnx_path = resnet50_onnx()
    return build_om(onnx_path, RESNET50_FLAGS, "resnet50") if onnx_path else default_om()
