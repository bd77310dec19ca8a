"""Running single operators: ``acl.op.execute_v2`` / ``execute`` / ``cast`` and the aclopHandle calls.

Checks happen in CANN's order (ge api/acl/acl_op_executor/single_op/op.cpp, op_executor.cpp;
runtime v1 single_op.cc), all before anything is queued, so a bad call returns its code and never
reaches the stream:

1. a NULL or dead tensor desc / data buffer -> 100000 (the count is the number of *buffers*, as the
   binding passes ``len(inputs)``; missing descs are NULL); a buffer with data NULL but a size -> 100000
2. every output desc has a 0 dim -> 0, nothing runs (IsAllTensorEmpty)
3. no loaded op model with exactly this op type, descs and attributes -> 100024 ACL_ERROR_OP_NOT_FOUND
4. a buffer smaller than its (non-const) tensor -> 145000 ACL_ERROR_GE_PARAM_INVALID (SingleOp
   ValidateArgs; CANN compares 32-byte-aligned sizes, the simulator the exact ones: UNCONFIRMED)
5. the stream: 107000 / 107003 as for every stream call

The kernel then runs when the stream is synchronised. A failure there (memory freed in between, a
value-dependent kernel given other values than it was built for, an integer division by zero) is
reported once by ``synchronize_stream`` — 507011 for memory the device cannot use, 507015
ACL_ERROR_RT_AICORE_EXCEPTION otherwise (UNCONFIRMED codes) — and the stream stays usable.
UNCONFIRMED too: acl.init being required (100001), and 100000 for a handle that is not a live object
(real pyACL would dereference it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...spec import dtypes, opmodel
from ..core.args import binding
from ..base.databuffer import DataBuffer, lookup_buffer
from ..mdl.execution import ExecError, _memory
from .attr import lookup_attr
from ..base.tensor_desc import TensorDesc, lookup_desc
from .graph import run as run_graph
from .models import explain_missing, key_of, match, registry
from ..core.state import create_handle as new_handle
from ..core.state import destroy_handle as drop_handle
from ..core.state import fail, require_init, state
from ..rt.stream import enqueue, resolve_stream
from ..core.timeline import OP_OVERHEAD_US, charge, compute_cost

KERNEL_FAILED = 507015
Attrs = Dict[str, Tuple[str, Any]]


class CallError(Exception):
    """A check failed at the call: the code and why."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code, self.why = code, why


@dataclass
class OpHandle:
    """aclopHandle: the matched op model and the input/output counts it was created for."""

    model: opmodel.OpModel
    num_inputs: int
    num_outputs: int


# ---- argument parsing like op.cpp -----------------------------------------------------------------
def _lists(message: str, *values: Any) -> None:
    if not all(isinstance(v, list) for v in values):
        raise TypeError(f"{message}\n[acl-teach] pass Python lists of handles (a tuple is not accepted).")


def _ptrs(values: list) -> List[int]:
    """ConvertPyListToPtrArray: ints only (bools count); PyLong_AsVoidPtr range."""
    out = []
    for v in values:
        if not isinstance(v, int):
            raise TypeError(f"the list argument is not list of int\n[acl-teach] got {type(v).__name__} {v!r}")
        if not -(1 << 63) <= v < (1 << 64):
            raise ValueError("PyLong_AsVoidPtr failed")
        out.append(v & ((1 << 64) - 1))
    return out


# ---- the checks ------------------------------------------------------------------------------------
def _descs(handles: Sequence[int], count: int, side: str) -> List[TensorDesc]:
    out = []
    for i in range(count):
        handle = handles[i] if i < len(handles) else 0
        desc = lookup_desc(handle)
        if desc is None:
            missing = " (the desc list is shorter than the buffer list)" if i >= len(handles) else ""
            raise CallError(100000, f"{side} desc #{i} is {state().describe_handle(handle)}{missing}: "
                            f"pass acl.create_tensor_desc handles.")
        out.append(desc)
    return out


def _buffers(handles: Sequence[int], side: str, data_check: bool = True) -> List[DataBuffer]:
    """Snapshots of the buffers (the pointer and size are taken at the call, as CANN copies them)."""
    out = []
    for i, handle in enumerate(handles):
        buf = lookup_buffer(handle)
        if buf is None:
            raise CallError(100000, f"{side} buffer #{i} is {state().describe_handle(handle)}: pass "
                            f"acl.create_data_buffer handles.")
        if data_check and buf.addr == 0 and buf.size > 0:
            raise CallError(100000, f"{side} buffer #{i} has data NULL but size {buf.size}.")
        out.append(DataBuffer(buf.addr, buf.size))
    return out


def _attrs(handle: int) -> Attrs:
    if handle == 0:
        return {}
    obj = lookup_attr(handle)
    if obj is None:
        raise CallError(100000, f"attr {state().describe_handle(handle)} is not an op attr (acl.op.create_attr, "
                        f"or 0 for none).")
    return dict(obj.values)


def _all_empty(descs: List[TensorDesc]) -> bool:
    return bool(descs) and all(0 in d.dims for d in descs)


def _model(op_type: str, ins: List[TensorDesc], outs: List[TensorDesc], attrs: Attrs) -> opmodel.OpModel:
    key = key_of(op_type, ins, outs, attrs)
    model = match(key)
    if model is None:
        raise CallError(100024, explain_missing(key))
    return model


def _nbytes(spec: opmodel.TensorSpec) -> int:
    return int(np.prod(spec.dims, dtype=object)) * dtypes.itemsize(spec.data_type)


def _check_sizes(model: opmodel.OpModel, ins: List[DataBuffer], outs: List[DataBuffer]) -> None:
    for side, specs, bufs in (("input", model.inputs, ins), ("output", model.outputs, outs)):
        for i, (spec, buf) in enumerate(zip(specs, bufs)):
            if spec.const is None and buf.size < _nbytes(spec):
                raise CallError(145000, f"{side} #{i} of {model.op} needs {_nbytes(spec)} bytes "
                                f"({dtypes.type_name(spec.data_type)} {spec.dims}); its data buffer says {buf.size}.")


# ---- the kernel --------------------------------------------------------------------------------------
def _read(spec: opmodel.TensorSpec, buf: DataBuffer, what: str) -> np.ndarray:
    need = _nbytes(spec)
    region, offset = _memory(buf, need, what)
    return region.view(offset, need).view(dtypes.numpy_dtype(spec.data_type)).reshape(spec.dims).copy()


def _write(spec: opmodel.TensorSpec, buf: DataBuffer, value: np.ndarray, what: str) -> None:
    data = np.ascontiguousarray(value, dtype=dtypes.numpy_dtype(spec.data_type)).reshape(-1)
    need = int(np.prod(spec.dims, dtype=object))
    if data.size != need:
        raise ExecError(KERNEL_FAILED, f"{what}: the kernel produced {data.size} element(s), the output desc "
                        f"{spec.dims} holds {need}.")
    region, offset = _memory(buf, _nbytes(spec), what, write=True)
    np.copyto(region.view(offset, _nbytes(spec)), data.view(np.uint8))


def _check_values(model: opmodel.OpModel, ins: List[DataBuffer]) -> None:
    for index, accepted in model.checks.items():
        values = _read(model.inputs[index], ins[index], f"{model.op} input #{index}").reshape(-1).tolist()
        if values not in accepted:
            raise ExecError(KERNEL_FAILED, f"{model.op} input #{index} holds {values}, but this kernel was compiled "
                            f"for {accepted[0]} (compile the input as a const to choose another value).")


def _kernel(model: opmodel.OpModel, ins: List[DataBuffer], outs: List[DataBuffer]) -> Optional[Tuple[int, str]]:
    """Run one op on device memory; a kernel that raises is a failed task (streams.run_task, KERNEL_FAILED)."""
    try:
        _check_values(model, ins)
        feeds = {i: _read(model.inputs[i], ins[i], f"{model.op} input #{i}") for i in model.graph_inputs}
        results = run_graph(model, feeds)
        for i, (spec, buf, value) in enumerate(zip(model.outputs, outs, results)):
            _write(spec, buf, value, f"{model.op} output #{i}")
        moved = sum(getattr(v, "nbytes", 0) for v in list(feeds.values()) + list(results))
        charge(f"op {model.op}", "operator", compute_cost(sum(getattr(v, "size", 0) for v in results), moved,
                                                          OP_OVERHEAD_US))
    except ExecError as exc:
        return exc.code, exc.why
    return None


def _launch(api: str, model: opmodel.OpModel, ins: List[DataBuffer], outs: List[DataBuffer], stream: int) -> int:
    _check_sizes(model, ins, outs)
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    return enqueue(handle, model.op, lambda: _kernel(model, ins, outs), api, cat="operator",
                   fault=KERNEL_FAILED) or 0


def _run(api: str, op_type: str, desc_lists: Tuple[list, list], buf_lists: Tuple[list, list], attrs: Any,
         stream: int, data_check: bool = True) -> int:
    """The shared body of execute_v2 / execute / cast."""
    try:
        ins = _descs(desc_lists[0], len(buf_lists[0]), "input")
        outs = _descs(desc_lists[1], len(buf_lists[1]), "output")
        if _all_empty(outs):
            return 0
        in_bufs = _buffers(buf_lists[0], "input", data_check)
        out_bufs = _buffers(buf_lists[1], "output", data_check)
        model = _model(op_type, ins, outs, attrs if isinstance(attrs, dict) else _attrs(attrs))
        return _launch(api, model, in_bufs, out_bufs, stream)
    except CallError as exc:
        return fail(exc.code, api, exc.why)


@binding("acl.op.execute_v2", "sOOOOkk")
def execute_v2(api, op_type, input_desc, inputs, output_desc, outputs, attr, stream):
    """Queue a compiled single operator on ``stream`` (lists of tensor descs and data buffers)."""
    _lists("argument 2, 3, 4, or 5 is not list", input_desc, inputs, output_desc, outputs)
    lists = (_ptrs(input_desc), _ptrs(output_desc)), (_ptrs(inputs), _ptrs(outputs))
    return require_init(api) or _run(api, op_type, *lists, attr, stream)


@binding("acl.op.execute", "sOOOOkk")
def execute(api, op_type, input_desc, inputs, output_desc, outputs, attr, stream):
    """The older execute: like execute_v2 (only NULL buffers are checked, not NULL data)."""
    _lists("argument 2, 3, 4, or 5 is not list", input_desc, inputs, output_desc, outputs)
    lists = (_ptrs(input_desc), _ptrs(output_desc)), (_ptrs(inputs), _ptrs(outputs))
    return require_init(api) or _run(api, op_type, *lists, attr, stream, data_check=False)


def _cast_attrs(dst: TensorDesc, truncate: int) -> Attrs:
    """aclopCast's attributes: dst_type from the output desc, plus truncate when a loaded Cast model has it."""
    attrs: Attrs = {"dst_type": ("int", dst.data_type)}
    if registry().cast_truncate:
        attrs["truncate"] = ("bool", truncate != 0)
    return attrs


@binding("acl.op.cast", "kkkkBk")
def cast(api, input_desc, input_buf, output_desc, output_buf, truncate, stream):
    """Queue Cast (input desc's type -> output desc's type): needs a compiled Cast model like any op."""
    if require_init(api):
        return 100001
    dst = lookup_desc(output_desc)
    if dst is None:
        return fail(100000, api, f"the output desc {state().describe_handle(output_desc)} is not a live tensor desc.")
    return _run(api, "Cast", ([input_desc], [output_desc]), ([input_buf], [output_buf]), _cast_attrs(dst, truncate),
                stream)


def _new_op_handle(api: str, op_type: str, in_handles: List[int], out_handles: List[int], attrs: Any):
    try:
        ins = _descs(in_handles, len(in_handles), "input")
        outs = _descs(out_handles, len(out_handles), "output")
        model = _model(op_type, ins, outs, attrs if isinstance(attrs, dict) else _attrs(attrs))
    except CallError as exc:
        return 0, fail(exc.code, api, exc.why)
    return new_handle(OpHandle(model, len(ins), len(outs)), "op handle", op_type), 0


@binding("acl.op.create_handle", "sOOk")
def create_handle(api, op_type, input_desc, output_desc, attr):
    """(handle, ret): bind a compiled op model once, for execute_with_handle."""
    _lists("argument 2 or 3 is not list", input_desc, output_desc)
    ins, outs = _ptrs(input_desc), _ptrs(output_desc)
    ret = require_init(api)
    return (0, ret) if ret else _new_op_handle(api, op_type, ins, outs, attr)


@binding("acl.op.create_handle_for_cast", "kkB")
def create_handle_for_cast(api, input_desc, output_desc, truncate):
    """(handle, ret): create_handle for Cast, with aclopCast's attributes."""
    if require_init(api):
        return 0, 100001
    dst = lookup_desc(output_desc)
    if dst is None:
        return 0, fail(100000, api, f"the output desc {state().describe_handle(output_desc)} is not a live tensor "
                       f"desc.")
    return _new_op_handle(api, "Cast", [input_desc], [output_desc], _cast_attrs(dst, truncate))


@binding("acl.op.destroy_handle", "k")
def destroy_handle(api, handle):
    """Destroy an op handle (returns None)."""
    drop_handle(api, handle, OpHandle, "op handle")


@binding("acl.op.execute_with_handle", "kOOk")
def execute_with_handle(api, handle, inputs, outputs, stream):
    """Queue the handle's operator on ``stream`` with these data buffers."""
    _lists("argument 2 or 3 is not list", inputs, outputs)
    in_handles, out_handles = _ptrs(inputs), _ptrs(outputs)
    if require_init(api):
        return 100001
    obj = state().lookup(handle, OpHandle)
    try:
        if obj is None:
            raise CallError(100000, f"{state().describe_handle(handle)} is not an op handle (acl.op.create_handle).")
        if len(in_handles) != obj.num_inputs:
            raise CallError(100021, f"{len(in_handles)} input buffer(s) given; the handle's {obj.model.op} takes "
                            f"{obj.num_inputs}.")
        if len(out_handles) != obj.num_outputs:
            raise CallError(100022, f"{len(out_handles)} output buffer(s) given; the handle's {obj.model.op} "
                            f"gives {obj.num_outputs}.")
        ins, outs = _buffers(in_handles, "input", False), _buffers(out_handles, "output", False)
        if outs and all(b.size == 0 for b in outs):
            return 0
        return _launch(api, obj.model, ins, outs, stream)
    except CallError as exc:
        return fail(exc.code, api, exc.why)
