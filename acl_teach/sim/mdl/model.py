"""Loading offline models: ``acl.mdl.load_from_file`` / ``load_from_mem`` (+ ``_with_mem``), ``query_size``, ``unload``.

A loaded model owns one ONNX Runtime session (created at load, reused by every execute) and
its device memory (weights + work space), charged to the device like a real load. Model ids
start at 1, as the C++ sample's "modelId is 1" shows.

UNCONFIRMED choices: an unknown model id returns 145003 ACL_ERROR_GE_EXEC_MODEL_ID_INVALID;
user-provided work/weight memory that is too small or not device memory returns 100000.
"""
from __future__ import annotations

import ctypes
import functools
import itertools
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

from ...spec import om
from ..core.args import binding
from ..rt.memory import DEVICE_BASE, Region, space
from ..rt.runtime import current_context, current_device_id, is_board
from ..core.state import fail, require_init, state, warn

BAD_MODEL_ID = 145003


@dataclass
class LoadedModel:
    """A model in device memory, ready to execute."""

    model_id: int
    model: om.OfflineModel
    session: Any
    context: int
    source: str
    memory: Optional[Region] = None
    user_memory: Dict[str, Tuple[int, int]] = field(default_factory=dict)
    current_gear: Optional[str] = None
    device_id: int = 0
    costs: Dict[Any, Any] = field(default_factory=dict)  # costmodel.run_cost's cache, per input shapes


class Models:
    """Loaded models of one simulated process."""

    def __init__(self) -> None:
        self.loaded: Dict[int, LoadedModel] = {}
        self.ids = itertools.count(1)

    def on_device_reset(self, device_id: int, by: str) -> None:
        """reset_device reclaims the models loaded on that device (and only those)."""
        for mid, loaded in list(self.loaded.items()):
            if loaded.device_id == device_id:
                _release(mid, by)

    def on_finalize(self, by: str) -> None:
        """finalize reclaims every model still loaded."""
        for mid in list(self.loaded):
            _release(mid, by)


def models() -> Models:
    """The model registry of the current simulated process."""
    subs = state().subsystems
    if "models" not in subs:
        subs["models"] = Models()
    return subs["models"]


def get_model(api: str, model_id: int) -> Tuple[Optional[LoadedModel], int]:
    """(model, 0); (None, 100001) before acl.init; (None, 145003) for an id that is not loaded."""
    ret = require_init(api)
    if ret:
        return None, ret
    found = models().loaded.get(model_id)
    if found is not None:
        return found, 0
    return None, fail(BAD_MODEL_ID, api, f"model id {model_id} is not a loaded model (never loaded, or "
                      f"already unloaded).")


@functools.lru_cache(maxsize=None)
def onnxruntime() -> Any:
    """onnxruntime, imported at the first load (it is slow to import) and kept: the import never runs again,
    so a load during interpreter shutdown (when the import system is gone) still works once it was used."""
    import onnxruntime as ort
    return ort


def new_session(onnx_bytes: bytes):
    """An ONNX Runtime session for a model's graph (the simulator's 'device code')."""
    ort = onnxruntime()
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    if state().config.threads:
        opts.intra_op_num_threads = state().config.threads
    return ort.InferenceSession(onnx_bytes, opts, providers=["CPUExecutionProvider"])


@functools.lru_cache(maxsize=None)
def _malloc_trim() -> Any:
    """glibc's malloc_trim, or None (musl, macOS, Windows)."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # TypeError: Windows has no "this process" library
        return None


def give_back_memory() -> None:
    """Return the freed heap of unloaded sessions to the system: glibc keeps it otherwise, so a kernel that
    loaded and unloaded a model stayed ~100-200 MiB larger for the rest of its life (measured)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _read_host(api: str, ptr: int, size: int) -> Tuple[Optional[bytes], int]:
    """Model bytes from host memory (load_from_mem), or (None, code)."""
    if ptr == 0 or size == 0:
        return None, fail(100000, api, "model pointer or size is 0.")
    region, offset, why = space().resolve(ptr, size, api)
    if region is None:
        return None, fail(100000, api, why + ".")
    if region.on_device and not is_board():
        return None, fail(100000, api, "the model data must be in host memory (read the .om file into a bytes "
                          "object and use acl.util.bytes_to_ptr).")
    if is_board() and not region.on_device:
        # pyACL's load_from_mem page: "Ascend RC形态下，model参数处需申请Device上的内存". What a board does with a
        # Python object's pointer is not documented: accept (faithful) and warn (strict: refuse).
        ret = warn(100000, api, f"on ACL_DEVICE (RC, e.g. the Atlas 200I DK A2) the model must be in device memory "
                   f"(acl.rt.malloc, then memcpy the file's bytes into it); this pointer is {region.kind} memory "
                   "of a Python object.")
        if ret:
            return None, ret
    return region.view(offset, size).tobytes(), 0


def _parse(api: str, data_or_path: Any, from_file: bool) -> Tuple[Optional[om.OfflineModel], int]:
    try:
        return (om.read(data_or_path) if from_file else om.loads(data_or_path, "the model data")), 0
    except om.OmError as exc:
        return None, fail(exc.code, api, str(exc))


def _check_user_memory(api: str, ptr: int, size: int, need: int, what: str) -> int:
    if ptr == 0:
        return 0
    if size < need:
        return fail(100000, api, f"{what} size {size} is smaller than acl.mdl.query_size's {need}.")
    region, _, why = space().resolve(ptr, size)
    if region is None or not (region.on_device and region.base >= DEVICE_BASE):
        return fail(100000, api, f"{what} memory must be a live device allocation of {need} bytes: "
                    f"{why or 'it is not device memory'}.")
    return 0


def _load(api: str, model: om.OfflineModel, source: str, work: Tuple[int, int] = (0, 0),
          weight: Tuple[int, int] = (0, 0)) -> Tuple[int, int]:
    """Common tail of the four load calls: memory, session, id, ledger; on any failure nothing stays charged."""
    ctx, ret = current_context(api)
    if ret:
        return 0, ret
    header = model.header
    ret = _check_user_memory(api, work[0], work[1], header["work_size"], "work") or \
        _check_user_memory(api, weight[0], weight[1], header["weight_size"], "weight")
    if ret:
        return 0, ret
    system_bytes = (0 if work[0] else header["work_size"]) + (0 if weight[0] else header["weight_size"])
    device_id = current_device_id() or 0
    region = None
    if system_bytes:
        region = space().allocate(system_bytes, True, "model", device_id)
        if region is None:
            return 0, fail(207001, api, f"the model needs {system_bytes} bytes of device memory for weights "
                           f"and work space; not enough is free.")
    try:
        session, ret = _session(api, model)
        if ret:
            return 0, ret
        with state().lock:
            model_id = next(models().ids)
            user = {k: v for k, v in (("work", work), ("weight", weight)) if v[0]}
            models().loaded[model_id] = LoadedModel(model_id, model, session, ctx, source, region, user,
                                                    device_id=device_id)
            region = None  # owned by the loaded model from here on
            state().ledger.add("model", model_id, f"id {model_id}: {os.path.basename(source)} "
                               f"({len(model.inputs)} in, {len(model.outputs)} out)", key=("model", model_id))
        return model_id, 0
    finally:
        if region is not None:
            space().release(region, api)


def _session(api: str, model: om.OfflineModel) -> Tuple[Any, int]:
    """(ONNX Runtime session, 0) for a graph that matches its header, else (None, load code)."""
    try:
        session = new_session(model.onnx_bytes)
    except Exception as exc:  # the graph passed ATC and its checksum, so this is an internal failure
        return None, fail(545001, api, f"the graph could not be loaded: {str(exc).splitlines()[0]}")
    why = om.graph_mismatch(model, [(i.name, i.shape, i.type) for i in session.get_inputs()],
                            [(o.name, o.shape, o.type) for o in session.get_outputs()])
    if why:
        # UNCONFIRMED code: the header and the graph disagree, as in a corrupted file
        return None, fail(100012, api, f"the model is corrupted: {why}. Rebuild it with acl-teach atc.")
    return session, 0


def _release(model_id: int, by: str) -> None:
    loaded = models().loaded.pop(model_id, None)
    if loaded is None:
        return
    if loaded.memory is not None:
        space().release(loaded.memory, by)
    state().ledger.release(("model", model_id), by)
    del loaded  # the last reference, unless a queued execute still holds it
    give_back_memory()


def _open(api: str, path: Optional[str] = None, ptr: int = 0, size: int = 0
          ) -> Tuple[Optional[om.OfflineModel], int]:
    """The parsed model from a file path or from host memory, or (None, code)."""
    ret = require_init(api)
    if ret:
        return None, ret
    if path is not None:
        return _parse(api, path, True)
    data, ret = _read_host(api, ptr, size)
    return (None, ret) if ret else _parse(api, data, False)


@binding("acl.mdl.load_from_file", "s")
def load_from_file(api, model_path):
    """(model_id, ret): load an offline model; the system manages its memory."""
    model, ret = _open(api, path=model_path)
    return (0, ret) if ret else _load(api, model, model_path)


@binding("acl.mdl.load_from_mem", "kk")
def load_from_mem(api, model_ptr, model_size):
    """(model_id, ret): load an offline model from host memory (bytes_to_ptr of the file's bytes)."""
    model, ret = _open(api, ptr=model_ptr, size=model_size)
    return (0, ret) if ret else _load(api, model, "<memory>")


@binding("acl.mdl.load_from_file_with_mem", "skkkk")
def load_from_file_with_mem(api, model_path, work_ptr, work_size, weight_ptr, weight_size):
    """(model_id, ret): load using your own device memory for work/weights (0 = let the system manage)."""
    model, ret = _open(api, path=model_path)
    return (0, ret) if ret else _load(api, model, model_path, (work_ptr, work_size), (weight_ptr, weight_size))


@binding("acl.mdl.load_from_mem_with_mem", "kkkkkk")
def load_from_mem_with_mem(api, model_ptr, model_size, work_ptr, work_size, weight_ptr, weight_size):
    """(model_id, ret): load_from_mem with user-managed work/weight device memory."""
    model, ret = _open(api, ptr=model_ptr, size=model_size)
    return (0, ret) if ret else _load(api, model, "<memory>", (work_ptr, work_size), (weight_ptr, weight_size))


@binding("acl.mdl.query_size", "s")
def query_size(api, model_path):
    """(work_size, weight_size, ret): device memory a model needs, for the *_with_mem loads."""
    model, ret = _open(api, path=model_path)
    return (0, 0, ret) if ret else (model.header["work_size"], model.header["weight_size"], 0)


@binding("acl.mdl.query_size_from_mem", "kk")
def query_size_from_mem(api, model_ptr, model_size):
    """(work_size, weight_size, ret) for a model held in host memory."""
    model, ret = _open(api, ptr=model_ptr, size=model_size)
    return (0, 0, ret) if ret else (model.header["work_size"], model.header["weight_size"], 0)


@binding("acl.mdl.unload", "I")
def unload(api, model_id):
    """Unload a model and free the memory the system gave it."""
    with state().lock:
        ret = get_model(api, model_id)[1]  # no reference kept: _release frees the session
        if ret:
            return ret
        _release(model_id, api)
    return 0
