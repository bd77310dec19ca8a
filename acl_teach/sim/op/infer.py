"""``acl.op.load`` (an op model from memory), ``acl.op.infer_shape`` and ``acl.op.update_params``.

load parses an op model built by ``acl-teach atc --singleop`` from host memory and adds it to the
models set_model_dir loaded (aclopLoad may be called any number of times). infer_shape writes the
output shapes of an operator for the given input descs into the output descs: *simulator:* it
needs an op model of that type with the same attributes and input data types to have been loaded
(the simulator has no operator prototypes of its own) and runs ONNX shape inference on its graph
with the new input shapes. update_params re-selects kernels for operators whose compile function
was registered with ``acl.op.register_compile_func``, which the simulator does not model, so it
answers like the runtime for an op type with none registered.

Formats (op.cpp at 134e2edb): load ``"kk"``, infer_shape ``"sOOiOk"``, update_params ``"sOOk"``, each
returning the bare ret; lists are checked as the binding does ("argument 2, 3, or 5 is not list" …).
UNCONFIRMED codes: 100000 for memory that holds no op model, 100024 when no loaded model lets the
simulator infer the shapes, 100028 (ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED) for update_params.
"""
from __future__ import annotations

import functools
from typing import Any, Dict, List, Optional, Sequence

from ...spec import opmodel
from ..core.args import binding
from ..rt.memory import host_view
from ..base.tensor_desc import TensorDesc
from .execution import CallError, _attrs, _descs, _lists, _ptrs
from .models import registry
from ..core.state import SimulatorFault, fail


@binding("acl.op.load", "kk")
def load(api, model, model_size):
    """Add one op model held in host memory (the bytes of a .om from atc --singleop) to the loaded ones."""
    if model == 0 or model_size == 0:
        return fail(100000, api, "the model pointer is NULL or its size is 0.")
    try:
        data = bytes(host_view(api, model, model_size))
    except SimulatorFault as exc:
        return fail(100000, api, str(exc))
    try:
        parsed = opmodel.loads(data, f"the op model at {model:#x}")
    except opmodel.OpModelError as exc:
        return fail(100000, api, f"{exc}.")
    registry().add(parsed)
    return 0


def _candidate(op_type: str, ins: List[TensorDesc], attrs: Dict) -> Optional[opmodel.OpModel]:
    """A loaded model of this op type, attributes and input data types (the exact shapes first)."""
    want_attrs = tuple(sorted((n, k, v) for n, (k, v) in attrs.items()))
    found = None
    for key, model in registry().by_key.items():
        if key[0] != op_type or key[3] != want_attrs or len(model.inputs) != len(ins):
            continue
        if any(s.data_type != d.data_type for s, d in zip(model.inputs, ins)):
            continue
        if all(list(s.dims) == list(d.dims) for s, d in zip(model.inputs, ins)):
            return model
        found = found or model
    return found


@functools.lru_cache(maxsize=None)
def _onnx() -> Any:
    """onnx with shape_inference, imported on first use and kept: no import runs at a later call (none can at shutdown)."""
    import onnx
    import onnx.shape_inference  # noqa: F401
    return onnx


def _inferred(model: opmodel.OpModel, ins: Sequence[TensorDesc]) -> Optional[List[List[int]]]:
    """Output dims of ``model``'s graph fed inputs of ``ins``' dims (ONNX shape inference), or None."""
    if all(list(s.dims) == list(d.dims) for s, d in zip(model.inputs, ins)):
        return [list(o.dims) for o in model.outputs]
    onnx = _onnx()  # only when shapes differ from the compiled ones
    shape_inference = onnx.shape_inference
    graph = onnx.load_from_string(model.onnx_bytes)
    feeds = [ins[i] for i in model.graph_inputs]
    for info, desc in zip(graph.graph.input, feeds):
        dims = info.type.tensor_type.shape.dim
        del dims[:]
        for value in desc.dims:
            dims.add().dim_value = int(value)
    try:
        graph = shape_inference.infer_shapes(graph, strict_mode=True)
    except Exception:
        return None
    out = []
    for info in graph.graph.output:
        shape = info.type.tensor_type.shape
        if not info.type.tensor_type.HasField("shape") or any(not d.HasField("dim_value") for d in shape.dim):
            return None
        out.append([d.dim_value for d in shape.dim])
    return out


@binding("acl.op.infer_shape", "sOOiOk")
def infer_shape(api, op_type, input_desc, inputs, num_outputs, output_desc, attr):
    """Write the output shapes of ``op_type`` for these inputs into the ``num_outputs`` output descs."""
    _lists("argument 2, 3, or 5 is not list", input_desc, inputs, output_desc)
    in_handles, out_handles = _ptrs(input_desc), _ptrs(output_desc)
    _ptrs(inputs)
    try:
        ins = _descs(in_handles, len(in_handles), "input")
        outs = _descs(out_handles, num_outputs, "output")
        attrs = _attrs(attr)
    except CallError as exc:
        return fail(exc.code, api, exc.why)
    model = _candidate(op_type, ins, attrs)
    if model is None:
        return fail(100024, api, f"no loaded op model of {op_type} with these attributes and input data types: "
                    f"the simulator infers shapes from a compiled one (acl.op.set_model_dir / acl.op.load).")
    if len(model.outputs) != num_outputs:
        return fail(100000, api, f"{op_type} has {len(model.outputs)} output(s), num_outputs is {num_outputs}.")
    shapes = _inferred(model, ins)
    if shapes is None:
        return fail(100024, api, f"the shapes of {op_type}'s outputs for inputs "
                    f"{[d.dims for d in ins]} cannot be inferred (the inputs do not fit the operator).")
    for desc, dims in zip(outs, shapes):
        desc.dims = list(dims)
    return 0


@binding("acl.op.update_params", "sOOk")
def update_params(api, op_type, input_desc, output_desc, attr):
    """Re-run an op type's registered compile function for new shapes (not simulated: none can be registered)."""
    _lists("argument 2 or 3 is not list", input_desc, output_desc)
    _ptrs(input_desc)
    _ptrs(output_desc)
    return fail(100028, api, f"no compile function is registered for op type {op_type!r}: "
                f"acl.op.register_compile_func and custom kernels are not simulated, so update_params has "
                f"nothing to re-run.")
