"""The models, photos and labels that ship with acl-teach, and the OM cache.

The default model is EfficientNet-Lite0 (ImageNet-1k), shipped as ONNX and converted with the
ResNet-50 sample's input/output contract: input fp16 NCHW [1,3,224,224] = 301056 bytes, output
fp32 [1,1000] = 4000 bytes. Which converter builds it depends on the backend the caller names:
the ATC emulator for the simulator (``backend="sim"``), CANN's real ``atc`` for an NPU
(``backend="npu"``, see ``board``). Each OM is built once and cached.
"""
from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from typing import Any, Dict, List, Optional

from ..spec import om
from . import atc, board, recipes
from .files import replace_with

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM_SOC = "Ascend310"
DEFAULT_FLAGS = ["--input_fp16_nodes=data", "--output_type=FP32"]
DYNAMIC_BATCH_FLAGS = DEFAULT_FLAGS + ["--input_shape=data:-1,3,224,224", "--dynamic_batch_size=1,2,4,8"]
RESNET50_FLAGS = ["--input_shape=actual_input_1:1,3,224,224"]


def data_dir() -> str:
    """The shipped data: ACL_TEACH_DATA, else the installed package's data/, else the repository's data/."""
    if os.environ.get("ACL_TEACH_DATA"):
        return os.environ["ACL_TEACH_DATA"]
    packaged = resources.files("acl_teach") / "data"
    if packaged.is_dir():
        return str(packaged)
    return os.path.join(os.path.dirname(PACKAGE_DIR), "data")


def notebooks_dir() -> str:
    """The notebooks: the installed package's notebooks/, else the repository's."""
    packaged = resources.files("acl_teach") / "notebooks"
    if packaged.is_dir():
        return str(packaged)
    return os.path.join(os.path.dirname(PACKAGE_DIR), "notebooks")


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


def image(name: str) -> str:
    """The path of one shipped photo, e.g. image('coffee.png'), wherever acl-teach is installed."""
    path = os.path.join(data_dir(), "images", name)
    if not os.path.isfile(path):
        names = ", ".join(os.path.basename(p) for p in sample_images())
        raise FileNotFoundError(f"no shipped photo named {name!r}; the shipped photos are: {names}")
    return path


def labels() -> List[str]:
    """The 1000 ImageNet class names, index = class id."""
    with open(os.path.join(data_dir(), "imagenet_classes.txt"), encoding="utf-8") as fh:
        return fh.read().splitlines()


def shared_cache_dir() -> Optional[str]:
    """A class's read-only OM cache (ACL_TEACH_SHARED_CACHE, built once by `acl-teach classroom cache`), or None."""
    path = os.environ.get("ACL_TEACH_SHARED_CACHE")
    return path if path and os.path.isdir(path) else None


def _file_digest(path: str) -> str:
    """SHA-256 of a file's bytes: what a cache key holds instead of the file's (install-dependent) path."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _portable(flag: str) -> str:
    """A flag with a file's path replaced by its content digest, so a key is the same wherever acl-teach lives."""
    key, sep, value = flag.partition("=")
    return f"{key}=sha256:{_file_digest(value)}" if sep and os.path.isfile(value) else flag


def _digest(path: str, flags: List[str]) -> str:
    """Cache key of an emulator OM: the ONNX bytes, the flags (files by content) and the emulator's format."""
    h = hashlib.sha256(f"om{om.FORMAT_VERSION}-portable-command-cost".encode())  # -cost: headers carry "cost"
    h.update(_file_digest(path).encode())
    h.update("\0".join(_portable(f) for f in flags).encode())
    return h.hexdigest()[:12]


def _emulated(onnx_path: str, flags: List[str], name: str) -> str:
    """Build with the ATC emulator (cached by the ONNX bytes and flags); a class's shared cache is read first."""
    stem = f"{name}-{_digest(onnx_path, flags)}"
    shared = shared_cache_dir()
    if shared and os.path.isfile(os.path.join(shared, stem + ".om")):
        return os.path.join(shared, stem + ".om")
    out = os.path.join(cache_dir(), stem)
    if not os.path.isfile(out + ".om"):
        argv = [f"--model={onnx_path}", "--framework=5", f"--output={out}"] + flags
        atc.build(atc.parse_flags(argv), "atc " + " ".join(argv))
    return out + ".om"


def build_om(onnx_path: str, flags: List[str], name: str, backend: str = "sim", soc: Optional[str] = None,
             recipe: Optional[dict] = None) -> str:
    """The OM of ``onnx_path`` for ``backend`` ('sim': the emulator; 'npu': CANN's atc for ``soc``).

    ``recipe`` (default: the ONNX file's own) is kept beside the OM, for models whose input AIPP changed.
    """
    if not os.path.isfile(onnx_path):
        raise FileNotFoundError(f"model {onnx_path} is missing; reinstall acl-teach, or set ACL_TEACH_DATA to a "
                                f"folder holding models/, images/ and imagenet_classes.txt")
    if backend == "sim":
        path = _emulated(onnx_path, [f"--soc_version={soc or SIM_SOC}"] + flags, name)
        if recipe is not None:
            recipes.keep(path, recipe)
        return path
    if not soc:
        raise ValueError("building for a real NPU needs its SoC name: acl.get_soc_name()")
    return board.build(onnx_path, flags, os.path.join(cache_dir(), f"{name}_{soc}"), soc,
                       recipe if recipe is not None else recipes.recipe_for(onnx_path))


def default_om(backend: str = "sim", soc: Optional[str] = None) -> str:
    """The default OM (EfficientNet-Lite0 with the sample's I/O contract), built on first use."""
    return build_om(default_onnx(), DEFAULT_FLAGS, "efficientnet_lite0", backend, soc)


def dynamic_batch_om(backend: str = "sim", soc: Optional[str] = None) -> str:
    """The default model with batch gears 1, 2, 4, 8 (for the dynamic-batch lessons)."""
    return build_om(default_onnx(), DYNAMIC_BATCH_FLAGS, "efficientnet_lite0_dynbatch", backend, soc)


PROBE_FLAGS = ["--input_fp16_nodes=mask", "--output_type=relu:0:FP16;neg:0:FP32"]


def probe_onnx() -> str:
    """A tiny two-in, two-out ONNX model of mixed sizes and types (written once to the cache) for checkers: code
    that types in the default model's numbers gives wrong answers on it."""
    path = os.path.join(cache_dir(), "probe_mixed_io.onnx")
    if not os.path.isfile(path):
        from onnx import TensorProto, helper
        ins = [helper.make_tensor_value_info("image", TensorProto.FLOAT, [2, 3, 4]),
               helper.make_tensor_value_info("mask", TensorProto.FLOAT, [5])]
        outs = [helper.make_tensor_value_info("act", TensorProto.FLOAT, [2, 3, 4]),
                helper.make_tensor_value_info("neg_mask", TensorProto.FLOAT, [5])]
        graph = helper.make_graph([helper.make_node("Relu", ["image"], ["act"], name="relu"),
                                   helper.make_node("Neg", ["mask"], ["neg_mask"], name="neg")], "probe", ins, outs)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        replace_with(path, model.SerializeToString())
    return path


def probe_om(backend: str = "sim", soc: Optional[str] = None) -> str:
    """The probe model: inputs fp32 [2,3,4] and fp16 [5], outputs fp16 [2,3,4] and fp32 [5]."""
    return build_om(probe_onnx(), PROBE_FLAGS, "probe_mixed_io", backend, soc)


def aipp_cfg() -> str:
    """The shipped AIPP config turning a 224 x 224 NV12 picture into EfficientNet-Lite0's input."""
    return os.path.join(data_dir(), "models", recipes.EFFICIENTNET_LITE_AIPP["aipp"])


def aipp_om(backend: str = "sim", soc: Optional[str] = None) -> str:
    """EfficientNet-Lite0 with static AIPP (``--insert_op_conf``), its DVPP recipe kept beside it."""
    with open(aipp_cfg(), "rb") as fh:
        cfg_digest = hashlib.sha256(fh.read()).hexdigest()[:8]  # a board's cache name must change with the cfg
    return build_om(default_onnx(), ["--output_type=FP32", f"--insert_op_conf={aipp_cfg()}"],
                    f"efficientnet_lite0_aipp_{cfg_digest}", backend, soc, recipes.EFFICIENTNET_LITE_AIPP)


def resnet50_onnx() -> Optional[str]:
    """The fetched ResNet-50 ONNX, if `acl-teach fetch resnet50` has run."""
    path = os.path.join(cache_dir(), "resnet50", "resnet50.onnx")
    return path if os.path.isfile(path) else None


def best_om(backend: str = "sim", soc: Optional[str] = None) -> str:
    """ResNet-50's OM when fetched, else the default."""
    onnx_path = resnet50_onnx()
    return build_om(onnx_path, RESNET50_FLAGS, "resnet50", backend, soc) if onnx_path else default_om(backend, soc)


def compile_ops(ops: List[Dict[str, Any]], name: str, backend: str = "sim", soc: Optional[str] = None) -> str:
    """A folder of op models for your own op list, compiled once by `atc --singleop` (the emulator's for the
    simulator, CANN's atc for a board); load them with acl.op.load or acl.op.set_model_dir."""
    if not name or os.sep in name or name.startswith("."):
        raise ValueError(f"name {name!r} must be a plain folder name, such as 'my_ops'")
    if backend == "sim":
        from . import singleop
        return singleop.build_cached(ops, os.path.join(cache_dir(), "op_models", f"{name}_sim"), soc or SIM_SOC)
    if not soc:
        raise ValueError("building operator models for a real NPU needs its SoC name: acl.get_soc_name()")
    return board.build_ops(ops, os.path.join(cache_dir(), "op_models", f"{name}_{soc}"), soc)


def op_model_dir(backend: str = "sim", soc: Optional[str] = None) -> str:
    """The folder for acl.op.set_model_dir holding notebook 07's Cast and ArgMaxD, compiled once by
    `atc --singleop` on board.TOP1_OPS: the emulator's for the simulator, CANN's atc for a board."""
    if backend == "sim":
        from . import singleop
        shared = shared_cache_dir()
        if shared and singleop.is_built(board.TOP1_OPS, os.path.join(shared, "op_models", "sim"), soc or SIM_SOC):
            return os.path.join(shared, "op_models", "sim")
        return singleop.build_cached(board.TOP1_OPS, os.path.join(cache_dir(), "op_models", "sim"), soc or SIM_SOC)
    if not soc:
        raise ValueError("building operator models for a real NPU needs its SoC name: acl.get_soc_name()")
    return board.build_ops(board.TOP1_OPS, os.path.join(cache_dir(), "op_models", soc), soc)
