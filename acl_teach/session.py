"""``Session``: the whole flow composed from the steps, released in the documented order even on failure.

    with acl_teach.Session() as s:          # init, resources, load, desc, datasets
        print(s.classify("data/images/coffee.png").topk.sample_format())
    # datasets -> unload + desc -> stream/context/device -> finalize
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from . import backend, models, resources
from .dataset import build_dataset, release_dataset
from .execute import execute, execute_async, set_batch, synchronize
from .model import load_model, query_desc, unload_model
from .results import TopK, top_k
from .spec.constants import ACL_DYNAMIC_TENSOR_NAME, ACL_FLOAT, ACL_FLOAT16, ACL_FORMAT_NHWC, ACL_UINT8
from .step import Step
from .toolchain import images, recipes
from .transfer import copy_to_device, unpack_outputs


@dataclass
class Result:
    """One classified image."""

    image: str
    topk: TopK
    timings_ms: Dict[str, float] = field(default_factory=dict)


class Session:
    """init -> resources -> load -> desc -> datasets; ``close()`` undoes them in order.

    ``steps`` keeps the set-up and release records and only the last image's: memory stays flat
    however many images a session classifies.
    """

    def __init__(self, model: Optional[str] = None, device_id: int = 0, backend_name: Optional[str] = None,
                 how: str = "file", labels: Optional[List[str]] = None,
                 recipe: Union[str, Dict[str, Any], None] = None) -> None:
        self.model_path, self.device_id, self.how, self.recipe = model, device_id, how, recipe
        self.backend_name = backend_name
        self.labels = labels
        self._setup: List[Step] = []  # init -> datasets, kept for the whole session
        self._image: List[Step] = []  # the last classified image's steps only: a long run stays flat
        self._release: List[Step] = []
        self.timings_ms: Dict[str, float] = {}
        self.init = self.resources = self.model = self.desc = self.inputs = self.outputs = None
        self._owns_resources = True  # False when the learner had live resources before the session
        self._own: Any = None  # the loaded model's own recipe (or the RecipeError looking it up raised), once per load

    def _timed(self, stage: str, fn, *args, **kwargs):
        t0 = time.perf_counter()
        rec = fn(*args, **kwargs)
        self.timings_ms[stage] = self.timings_ms.get(stage, 0.0) + 1000 * (time.perf_counter() - t0)
        self._setup.append(rec)
        return rec

    @property
    def steps(self) -> List[Step]:
        """The set-up steps, the last image's steps and the release steps, in the order they ran."""
        return self._setup + self._image + self._release

    def open(self) -> "Session":
        """Run the set-up steps (releasing what was made if one fails)."""
        self._setup, self._image, self._release, self._own = [], [], [], None
        if self.backend_name:
            backend.use(self.backend_name)
        if self.model_path is not None:
            self._check_model()
        try:
            self.init = self._timed("init", resources.init)
            if self.model_path is None:  # after init: a board's SoC name picks the OM
                self.model_path = models.best_om()
                self._check_model()
            earlier = resources.live_for(self.device_id)
            self.resources = self._timed("init", resources.request_resources, self.device_id)
            self._owns_resources = self.resources is not earlier  # never release the learner's own
            self.model = self._timed("load", load_model, self.model_path, self.how)
            self.desc = self._timed("load", query_desc, self.model)
            self.inputs = self._timed("load", build_dataset, self.desc, "input")
            self.outputs = self._timed("load", build_dataset, self.desc, "output")
            self._own = _own_recipe(self.model_path, backend.inspector().model_header(self.model.model_id))
            if self.image_problem() is None:  # refuse now, not at the first image, when the recipe is unknown
                self.recipe = recipes.resolve(self.recipe, self.model_path, self._own_recipe)
        except BaseException:
            self.close()
            raise
        return self

    def _check_model(self) -> None:
        """The model file exists and its recipe is known (never a silent guess)."""
        if not os.path.isfile(self.model_path):
            raise FileNotFoundError(f"model {self.model_path!r} does not exist")
        if self.labels is None:
            self.labels = models.labels()

    def _own_recipe(self) -> Optional[Dict[str, Any]]:
        """The loaded model's own recipe as looked up at load (a bad sidecar's RecipeError is raised again)."""
        if isinstance(self._own, recipes.RecipeError):
            raise self._own
        return self._own

    def __enter__(self) -> "Session":
        return self.open()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def input_dims(self, batch: int = 1) -> List[int]:
        dims = list(self.desc.inputs[0].dims)
        return [batch if d == -1 else d for d in dims]

    def check_image_model(self) -> None:
        """The model must take one image tensor (N,3,H,W or N,H,W,3), else say why it cannot classify."""
        problem = self.image_problem()
        if problem:
            raise ValueError(problem)

    def image_problem(self) -> Optional[str]:
        """Why this model cannot classify an image, or None when it can."""
        first = self.desc.inputs[0]
        real_inputs = [t for t in self.desc.inputs if t.name != ACL_DYNAMIC_TENSOR_NAME]
        nhwc = first.format == ACL_FORMAT_NHWC
        channels = first.dims[1] if not nhwc else (first.dims[3] if len(first.dims) == 4 else 0)
        if _dvpp_fed(self._own) or _yuv420sp_input(first):
            return (f"{self.model_path} has AIPP: it takes a DVPP picture (YUV420SP uint8), not a host tensor. "
                    f"Feed it with acl_teach.media: decode_jpeg -> apply_recipe -> picture_dataset -> execute "
                    f"(notebook 14 shows every call).")
        if len(real_inputs) != 1 or len(first.dims) != 4 or channels != 3 or \
                first.data_type not in (ACL_FLOAT, ACL_FLOAT16):
            return (f"{self.model_path} does not take one image: its inputs are "
                    f"{[(t.name, t.dims, t.type_name) for t in real_inputs]}; classify needs a single "
                    f"float input of shape N x 3 x H x W (NCHW) or N x H x W x 3 (NHWC).")
        return None

    def classify(self, image: Any, k: int = 5, use_async: bool = False) -> Result:
        """Preprocess -> H2D -> execute -> D2H -> top-k, with per-stage timings."""
        self.check_image_model()
        self.recipe = recipes.resolve(self.recipe, self.model_path, self._own_recipe)
        t: Dict[str, float] = {}
        t0 = time.perf_counter()
        first = self.desc.inputs[0]
        tensor = images.preprocess(image, self.recipe, self.input_dims(), first.numpy_dtype,
                                   "NHWC" if first.format == ACL_FORMAT_NHWC else "NCHW")
        t["preprocess"] = 1000 * (time.perf_counter() - t0)
        self._image = steps = []  # this image's records replace the previous image's
        t0 = time.perf_counter()
        steps.append(copy_to_device(tensor, self.inputs, 0, self.resources, self.desc))
        if self.desc.dynamic_batch:
            steps.append(set_batch(self.model, self.desc, self.inputs, 1))
        t["h2d"] = 1000 * (time.perf_counter() - t0)
        t0 = time.perf_counter()
        if use_async:
            steps.append(execute_async(self.model, self.inputs, self.outputs, self.resources))
            steps.append(synchronize(self.resources))
        else:
            steps.append(execute(self.model, self.inputs, self.outputs))
        t["execute"] = 1000 * (time.perf_counter() - t0)
        t0 = time.perf_counter()
        outs = unpack_outputs(self.desc, self.outputs, self.resources)
        steps.append(outs)
        t["d2h"] = 1000 * (time.perf_counter() - t0)
        result = top_k(outs.arrays[0], k, self.labels, self.recipe.get("output"))
        name = image if isinstance(image, str) else "<image>"
        return Result(name, result, t)

    def close(self) -> None:
        """Release in the documented order; every release runs even if an earlier one fails."""
        t0 = time.perf_counter()
        errors = []
        for ds in (self.inputs, self.outputs):
            if ds is not None:
                errors += _try(lambda: self._release.append(release_dataset(ds)))
        if self.model is not None:
            errors += _try(lambda: self._release.append(unload_model(self.model, self.desc)))
        if self.resources is not None and self._owns_resources:
            errors += _try(lambda: self._release.append(resources.release_resources(self.resources)))
        if self.init is not None and not self.init.already_initialised:
            errors += _try(lambda: self._release.append(resources.finalize()))
        self.init = self.resources = self.model = self.desc = self.inputs = self.outputs = None
        self.timings_ms["release"] = 1000 * (time.perf_counter() - t0)
        if errors:
            raise errors[0]

    def code(self) -> str:
        """Every pyACL call of the session so far, as Python."""
        return "\n".join(s.code() for s in self.steps if s.calls)


def _own_recipe(model_path: str, header: Optional[Dict[str, Any]]) -> Any:
    """The model's own recipe from its sidecar or the header it was loaded with; a bad sidecar's error, kept."""
    try:
        return recipes.recipe_for(model_path, header)
    except recipes.RecipeError as exc:
        return exc


def _dvpp_fed(own: Any) -> bool:
    """Whether the model's own recipe says its input is a DVPP picture for AIPP (a bad recipe file is not that)."""
    return isinstance(own, dict) and own.get("input") == "YUV420SP_U8"


def _yuv420sp_input(tensor) -> bool:
    """An AIPP model's input as its desc shows it: uint8 N x H x W x C holding H x W x 3/2 bytes (YUV420SP)."""
    dims = list(tensor.dims)
    return tensor.data_type == ACL_UINT8 and len(dims) == 4 and dims[1] > 0 and dims[2] > 0 and \
        tensor.size * 2 == dims[0] * dims[1] * dims[2] * 3


def _try(fn) -> list:
    try:
        fn()
        return []
    except Exception as exc:  # collected; the remaining releases still run
        return [exc]
