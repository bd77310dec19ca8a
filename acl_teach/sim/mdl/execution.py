"""Running a model: ``acl.mdl.execute`` / ``execute_async`` and the dynamic-gear setters.

execute reads each input from the memory its data buffer points at, checks counts and sizes
against the desc, runs the ONNX graph, and writes each output into its buffer — converting
fp16 inputs and requested output types exactly where the NPU would. In ACL_HOST mode a buffer
in host memory is refused (on a card the NPU cannot reach it); on a board it is allowed.

Buffer sizes follow GE's check, ``DavinciModel::CheckUserAndModelSize`` in hicann/ge
``runtime/v1/graph/load/model_manager/davinci_model.cc`` (applied to inputs and outputs): a buffer
may be up to ``kDataMemAlignSizeCompare`` = 64 bytes smaller than the tensor (``size + 64 <
op_size`` fails), and the check is skipped altogether when the execution carries a dynamic gear
(``is_dynamic_``, set by ``SetDynamicInputDataFlag`` in ``runtime/v1/executor/ge_executor.cc``).
Within that, the NPU reads the whole tensor from the buffer's address: bytes inside the allocation
are read as they are, bytes past its end arrive as the simulator's ``GARBAGE`` pattern, and the
simulator warns (``configure(strict=True)``: the old 100017/100018). An output buffer that short
receives what fits in its allocation (on hardware the rest lands past the end: UNCONFIRMED).

UNCONFIRMED codes: 100017/100018 for input/output count or size mismatches, 507011 for memory
the device cannot use and for failures of async runs (reported by synchronize_stream),
145013 for a batch that is not a gear, 100019 for dynamic calls on a static model.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ...spec import aipp as A
from ...spec import dtypes
from ...spec.constants import ACL_DATA_WITH_DYNAMIC_AIPP, ACL_DYNAMIC_AIPP_NODE
from ..constants import ACL_DYNAMIC_TENSOR_NAME as DYNAMIC_INPUT
from ..core.args import binding
from ..base.databuffer import DataBuffer, lookup_buffer
from .aipp_dynamic import block_problem
from .dataset import lookup_dataset, note_output_shape
from ..rt.memory import DEVICE_BASE, GARBAGE, Region, describe, space, warn_once, write_problem
from .model import LoadedModel, get_model, models
from .dump import after_execute as _dump_after
from ..rt.runtime import is_board
from ..core.state import fail, state, warn
from ..rt.stream import enqueue, resolve_stream
from ..core.costmodel import run_cost
from ..core.timeline import MODEL_HOOKS, charge, current_lane

SIZE_TOLERANCE = 64  # GE's kDataMemAlignSizeCompare (davinci_model.cc)


class ExecError(Exception):
    """A reason execution cannot proceed, with its aclError code."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code, self.why = code, why


def _buffers(loaded: LoadedModel, dataset: int, which: str) -> List[DataBuffer]:
    """The live data buffers of a dataset, checked against the model's count."""
    code = 100017 if which == "inputs" else 100018
    ds = lookup_dataset(dataset)
    if ds is None:
        raise ExecError(100000, f"the {which[:-1]} dataset {state().describe_handle(dataset)} is not a live "
                        f"aclmdlDataset.")
    want = len(loaded.model.header[which])
    if len(ds.buffers) != want:
        hidden = " (dynamic models need one more input buffer, for ascend_mbatch_shape_data)" \
            if which == "inputs" and loaded.model.dynamic["kind"] else ""
        raise ExecError(code, f"the {which[:-1]} dataset has {len(ds.buffers)} buffer(s); the model has "
                        f"{want} {which}{hidden}.")
    out = []
    for i, handle in enumerate(ds.buffers):
        buf = lookup_buffer(handle)
        if buf is None:
            raise ExecError(100000, f"{which[:-1]} buffer #{i} ({handle:#x}) was destroyed "
                            f"(acl.destroy_data_buffer) while still in the dataset.")
        out.append(buf)
    return out


def _memory(buf: DataBuffer, need: int, what: str, write: bool = False) -> Tuple[Region, int]:
    """The device memory behind a data buffer, or ExecError where a real device would fault."""
    if buf.addr == 0:
        raise ExecError(100000, f"{what} points at 0 (NULL): create the data buffer with the pointer from "
                        f"acl.rt.malloc (the simulator does not allocate outputs for (0, 0) buffers).")
    region, offset, why = space().resolve(buf.addr, need, "acl.mdl.execute", write=write)
    if region is None:
        raise ExecError(507011, f"{what}: {why}.")
    if not is_board() and not (region.on_device and region.base >= DEVICE_BASE):
        raise ExecError(507011, f"{what} is host memory ({describe(region)}); in ACL_HOST run mode the NPU "
                        f"can only read device memory. acl.rt.malloc a device buffer and acl.rt.memcpy "
                        f"the data into it (ACL_MEMCPY_HOST_TO_DEVICE).")
    if write:
        refusal, warning = write_problem(region, what)
        if refusal or (warning and state().config.strict):
            raise ExecError(107000, refusal or warning)
        if warning:
            warn_once("acl.mdl.execute", warning)
    return region, offset


def _size_ok(loaded: LoadedModel, gear: Optional[str], buf: DataBuffer, need: int, code: int, what: str,
             detail: str) -> None:
    """GE's CheckUserAndModelSize: fine, or a warning within its tolerance, or ExecError(code) beyond it."""
    short = need - buf.size
    if short <= 0:
        return
    if gear is None and short > SIZE_TOLERANCE:
        raise ExecError(code, f"{what} needs {need} bytes ({detail}), but its data buffer says {buf.size}.")
    rule = ("the execution has a dynamic gear, for which GE skips the size check" if gear is not None else
            f"GE accepts a buffer up to {SIZE_TOLERANCE} bytes smaller than the tensor (alignment padding)")
    why = (f"{what} needs {need} bytes ({detail}) but its data buffer says {buf.size}; {rule}. The NPU uses "
           f"all {need} bytes at the buffer's address: those inside the allocation as they are, any past its "
           f"end as {GARBAGE:#04x} (the simulator's garbage pattern). Size the buffer with "
           f"acl.mdl.get_{'input' if code == 100017 else 'output'}_size_by_index.")
    if state().config.strict:
        raise ExecError(code, why + " [strict mode: real pyACL accepts this buffer]")
    warn(code, "acl.mdl.execute", why)


def _span(buf: DataBuffer, need: int, what: str, write: bool = False) -> Tuple[Region, int, int]:
    """(region, offset, bytes of the tensor inside the allocation) for a buffer that may be short of ``need``."""
    claimed = min(buf.size, need)
    region, offset = _memory(buf, max(claimed, 1) if need else 0, what, write)
    return region, offset, min(need, region.size - offset)


def _read_input(buf: DataBuffer, need: int, what: str) -> np.ndarray:
    """The ``need`` bytes the NPU reads at the buffer's address (GARBAGE past the allocation)."""
    region, offset, inside = _span(buf, need, what)
    data = np.full(need, GARBAGE, np.uint8)
    data[:inside] = region.view(offset, inside)
    return data


def _gear(loaded: LoadedModel, inputs: List[DataBuffer]) -> Optional[str]:
    """The gear written into the ascend_mbatch_shape_data buffer (None for static models)."""
    dyn = loaded.model.dynamic
    if not dyn["kind"]:
        return None
    index = len(inputs) - 1
    entry = loaded.model.inputs[index]
    region, offset = _memory(inputs[index], entry["size"], "the ascend_mbatch_shape_data buffer")
    values = region.view(offset, entry["size"]).view(np.int64).tolist()
    key = ",".join(map(str, values))
    if values not in dyn["gears"]:
        setter = {"batch": "set_dynamic_batch_size", "hw": "set_dynamic_hw_size"}.get(dyn["kind"],
                                                                                       "set_input_dynamic_dims")
        raise ExecError(507011, f"the ascend_mbatch_shape_data buffer holds {values}, not one of the model's "
                        f"gears {dyn['gears']}: call acl.mdl.{setter} before execute.")
    return key


def _check_user_memory(loaded: LoadedModel) -> None:
    for what, (ptr, _) in loaded.user_memory.items():
        if space().find(ptr) is None:
            raise ExecError(507011, f"the {what} memory given to load_*_with_mem was freed while the model is "
                            f"loaded; free it only after acl.mdl.unload.")


def run(loaded: LoadedModel, in_ds: int, out_ds: int) -> None:
    """Execute now: read inputs, run the graph, write outputs (raises ExecError)."""
    _check_user_memory(loaded)
    inputs = _buffers(loaded, in_ds, "inputs")
    outputs = _buffers(loaded, out_ds, "outputs")
    gear = _gear(loaded, inputs)
    feeds: Dict[str, Any] = {}
    for i, (entry, buf) in enumerate(zip(loaded.model.inputs, inputs)):
        kind = (entry.get("aipp") or {}).get("type")
        if entry["name"] == DYNAMIC_INPUT or kind == ACL_DYNAMIC_AIPP_NODE:
            continue  # read by _gear / _dynamic_aipp
        if kind == ACL_DATA_WITH_DYNAMIC_AIPP:
            feeds.update(_dynamic_aipp(loaded, inputs, i))
            continue
        dims = entry["gear_dims"][gear or "static"]
        dtype = dtypes.numpy_dtype(entry["data_type"])
        need = int(np.prod(dims)) * dtype.itemsize
        what = f"input #{i} ({entry['name']})"
        _size_ok(loaded, gear, buf, need, 100017, what,
                 f"{' x '.join(map(str, dims))} x {dtype.itemsize}-byte {dtypes.type_name(entry['data_type'])}")
        array = _read_input(buf, need, what).view(dtype).reshape(dims)
        feeds[entry["onnx_name"]] = array.astype(dtypes.numpy_dtype(entry["onnx_type"]), copy=False)
    results = _run_graph(loaded, feeds)
    for i, (entry, buf, value) in enumerate(zip(loaded.model.outputs, outputs, results)):
        data = np.ascontiguousarray(value, dtype=dtypes.numpy_dtype(entry["data_type"]))
        what = f"output #{i} ({entry['name']})"
        _size_ok(loaded, gear, buf, data.nbytes, 100018, what,
                 f"{' x '.join(map(str, data.shape))} x {data.itemsize}-byte {dtypes.type_name(entry['data_type'])}")
        region, offset, inside = _span(buf, data.nbytes, what, write=True)
        np.copyto(region.view(offset, inside), data.reshape(-1).view(np.uint8)[:inside])
        if gear is not None:
            note_output_shape(out_ds, i, entry["data_type"], list(data.shape), entry["format"])
    loaded.current_gear = gear
    _dump_after(loaded, feeds, results)  # acl.mdl.set_dump: nothing unless a dump is configured
    _bill(loaded, gear)


def _bill(loaded: LoadedModel, gear: Optional[str]) -> None:
    """Advance the simulated clock by the run (timeline.py, costmodel.py) and tell the profiler."""
    cost = run_cost(loaded.costs, loaded.model.header, gear)
    lane = current_lane()
    start = charge(f"model {loaded.model_id} execute", "model", cost.total_us,
                   {"model_id": loaded.model_id, "ops": len(cost.ops)})
    for hook in MODEL_HOOKS:
        hook(loaded.model_id, start, cost, lane)


def _aipp_block(loaded: LoadedModel, inputs: List[DataBuffer], n: int, linked: int) -> Tuple[np.ndarray, np.ndarray]:
    """(head, batch entries) read from the ascend_dynamic_aipp_data buffer, as acl.mdl.set_input_aipp wrote them."""
    names = [e["name"] for e in loaded.model.inputs]
    node = names.index(A.DYNAMIC_DATA_NAME)
    size = A.dynamic_data_size(n)
    region, offset = _memory(inputs[node], size, f"the {A.DYNAMIC_DATA_NAME} buffer (input #{node})")
    raw = region.view(offset, size).copy()
    head = raw[:A.DYNAMIC_HEAD.itemsize].view(A.DYNAMIC_HEAD)[0]
    batches = raw[A.DYNAMIC_HEAD.itemsize:].view(A.DYNAMIC_BATCH)
    why = "" if int(head["inputFormat"]) in A.CCE_TO_ACL and int(head["batchNum"]) == n else "unset"
    why = why or block_problem(loaded.model.inputs[linked], head, batches)
    if why:
        raise ExecError(507011, f"the {A.DYNAMIC_DATA_NAME} buffer (input #{node}) holds no valid AIPP parameters "
                        f"for batch {n} ({why}): call "
                        f"acl.mdl.set_input_aipp(model_id, dataset, {node}, aipp_set) before execute (simulated "
                        f"code; on a board the AIPP reads whatever the buffer holds).")
    return head, batches


def _dynamic_aipp(loaded: LoadedModel, inputs: List[DataBuffer], index: int) -> Dict[str, Any]:
    """Feeds for a data input with dynamic AIPP: its images run through the parameters in the block (spec.aipp.run).

    The buffer is read as N tightly packed source images of the block's format and size; GE skips the
    buffer-size check for dynamic-AIPP inputs (davinci_model.cc), so bytes past the allocation arrive as
    GARBAGE, with a warning.
    """
    entry = loaded.model.inputs[index]
    aipp = entry["aipp"]
    n, c = aipp["src_dims"][0], aipp["channels"]
    head, batches = _aipp_block(loaded, inputs, n, index)
    cfgs = [A.cfg_from_block(head, b) for b in batches]
    per = A.src_image_size(int(head["inputFormat"]), 1, cfgs[0]["src_image_size_w"], cfgs[0]["src_image_size_h"])
    what = f"input #{index} ({entry['name']})"
    if inputs[index].size < n * per:
        warn(100017, "acl.mdl.execute", f"{what}: dynamic AIPP reads {n} x {per} bytes but the data buffer says "
             f"{inputs[index].size}; bytes past the allocation arrive as {GARBAGE:#04x}.")
    data = _read_input(inputs[index], n * per, what)
    images = np.stack([A.run(data[b * per:(b + 1) * per], cfg) for b, cfg in enumerate(cfgs)])
    h, w = aipp["model_hw"]
    if images.shape[1:] != (c, h, w):
        raise ExecError(507011, f"{what}: dynamic AIPP produced {list(images.shape[1:])}, the model reads {[c, h, w]}.")
    if aipp["nhwc"]:
        images = images.transpose(0, 2, 3, 1)
    block = np.concatenate([np.frombuffer(head.tobytes(), np.uint8), np.frombuffer(batches.tobytes(), np.uint8)])
    return {aipp["feed"]: images.astype(dtypes.numpy_dtype(aipp["feed_type"])),
            entry["onnx_name"]: np.zeros(entry["size"], np.uint8),  # the graph does not read it
            A.DYNAMIC_DATA_NAME: block}


def _run_graph(loaded: LoadedModel, feeds: Dict[str, Any]) -> List[Any]:
    """The graph's outputs; a graph that rejects its inputs is a failed execution, never a Python exception.

    UNCONFIRMED code 507011: the header and graph are checked at load, so this is the simulator's
    last line of defence (an NPU would report an AI Core or AI CPU exception).
    """
    try:
        return loaded.session.run(None, feeds)
    except Exception as exc:  # onnxruntime raises its own exception types
        raise ExecError(507011, f"the model's graph rejected its inputs: {str(exc).splitlines()[0]}") from None


@binding("acl.mdl.execute", "Ikk")
def execute(api, model_id, input_dataset, output_dataset):
    """Synchronous inference: returns when the outputs are in their buffers."""
    loaded, ret = get_model(api, model_id)
    if ret:
        return ret
    try:
        run(loaded, input_dataset, output_dataset)
    except ExecError as exc:
        return fail(exc.code, api, exc.why)
    return 0


@binding("acl.mdl.execute_async", "Ikkk")
def execute_async(api, model_id, input_dataset, output_dataset, stream):
    """Queue inference on ``stream``; outputs are valid after acl.rt.synchronize_stream."""
    loaded, ret = get_model(api, model_id)
    if ret:
        return ret
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    try:
        _buffers(loaded, input_dataset, "inputs")
        _buffers(loaded, output_dataset, "outputs")
    except ExecError as exc:
        return fail(exc.code, api, exc.why)

    def task():
        if model_id not in models().loaded:
            return 507011, f"model {model_id} was unloaded before the stream ran execute_async"
        try:
            run(loaded, input_dataset, output_dataset)
        except ExecError as exc:
            return 507011, f"execute_async of model {model_id}: {exc.why}"
        return None

    return enqueue(handle, f"execute_async model {model_id}", task, api, cat="model", fault=507011)


def _set_gear(api: str, model_id: int, dataset: int, index: int, values: List[int], kind: str) -> int:
    loaded, ret = get_model(api, model_id)
    if ret:
        return ret
    dyn = loaded.model.dynamic
    if dyn["kind"] != kind:
        flag = {"batch": "--dynamic_batch_size", "hw": "--dynamic_image_size"}.get(kind, "--dynamic_dims")
        return fail(100019, api, f"model {model_id} was not converted with {flag}.")
    names = [e["name"] for e in loaded.model.inputs]
    if index >= len(names) or names[index] != DYNAMIC_INPUT:
        return fail(100000, api, f"index {index} is not the {DYNAMIC_INPUT} input (it is input "
                    f"#{names.index(DYNAMIC_INPUT)}; acl.mdl.get_input_index_by_name finds it).")
    if values not in dyn["gears"]:
        return fail(145013, api, f"{values} is not a gear of the model; gears: {dyn['gears']}.")
    ds = lookup_dataset(dataset)
    if ds is None or index >= len(ds.buffers) or lookup_buffer(ds.buffers[index]) is None:
        return fail(100000, api, f"the dataset has no live data buffer at index {index}; add one of "
                    f"acl.mdl.get_input_size_by_index(desc, {index}) bytes first.")
    entry = loaded.model.inputs[index]
    try:
        region, offset = _memory(lookup_buffer(ds.buffers[index]), entry["size"], f"the {DYNAMIC_INPUT} buffer",
                                 write=True)
    except ExecError as exc:
        return fail(100000 if exc.code != 107000 else exc.code, api, exc.why)
    np.copyto(region.view(offset, entry["size"]), np.array(values, np.int64).view(np.uint8))
    loaded.current_gear = ",".join(map(str, values))
    return 0


@binding("acl.mdl.set_dynamic_batch_size", "IkkK")
def set_dynamic_batch_size(api, model_id, dataset, index, batch_size):
    """Choose the batch gear for the next execute (written into the ascend_mbatch_shape_data buffer)."""
    return _set_gear(api, model_id, dataset, index, [batch_size], "batch")


@binding("acl.mdl.set_dynamic_hw_size", "IkkKK")
def set_dynamic_hw_size(api, model_id, dataset, index, height, width):
    """Choose the height/width gear for the next execute."""
    return _set_gear(api, model_id, dataset, index, [height, width], "hw")
