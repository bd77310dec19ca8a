"""``acl.op`` and tensor descs: the single-operator subset the samples use to post-process outputs.

Supported operators: ``Cast`` (also as ``acl.op.cast``), ``ArgMaxV2`` (inputs x and dimension,
attr ``dtype``) and ``ArgMaxD`` (attr ``dimension``). As on the NPU, operators run on a stream
(results after synchronize_stream), read and write device memory, and need
``acl.op.set_model_dir`` first (there the compiled operator models live; the simulator only
checks the directory exists). Anything else returns 100024 ACL_ERROR_OP_NOT_FOUND.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np

from ..spec import dtypes
from ._args import INIT, binding
from .databuffer import DataBuffer, lookup_buffer
from .execute import ExecError, _memory
from .state import create_handle, destroy_handle, fail, state
from .streams import enqueue, resolve_stream

SUPPORTED = ("Cast", "ArgMaxV2", "ArgMaxD")


@dataclass
class TensorDesc:
    """aclTensorDesc: data type, dims and format of an operator input/output."""

    data_type: int
    dims: List[int]
    format: int

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.dims, dtype=np.int64)) * dtypes.itemsize(self.data_type)


@dataclass
class OpAttr:
    """aclopAttr: named operator attributes."""

    values: Dict[str, Any] = field(default_factory=dict)


@binding("acl.create_tensor_desc", "iOi")
def create_tensor_desc(api, data_type, dims, format):
    """A tensor desc (dims must be a list of ints); 0 when the data type is unknown."""
    if not isinstance(dims, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        raise TypeError("argument 2 is not list\n[acl-teach] acl.create_tensor_desc(data_type, dims, format) "
                        "takes dims as a list of ints, e.g. [1, 1000].")
    if data_type not in dtypes.ACL_TYPES:
        return 0
    return create_handle(TensorDesc(data_type, list(dims), format), "tensor desc",
                         f"{dtypes.type_name(data_type)} {dims}")


@binding("acl.destroy_tensor_desc", "k")
def destroy_tensor_desc(api, desc):
    """Destroy a tensor desc (returns None, like the C void function)."""
    destroy_handle(api, desc, TensorDesc, "tensor desc")


@binding("acl.op.set_model_dir", "s", needs=INIT)
def set_model_dir(api, model_dir):
    """Point at the directory of compiled single-operator models (must exist)."""
    if not os.path.isdir(model_dir):
        return fail(100000, api, f"{model_dir!r} is not a directory.")
    state().subsystems["op_model_dir"] = model_dir
    return 0


@binding("acl.op.create_attr")
def create_attr(api):
    """A new empty operator attribute set."""
    return create_handle(OpAttr(), "op attr", "")


@binding("acl.op.destroy_attr", "k")
def destroy_attr(api, attr):
    """Destroy an attribute set (returns None)."""
    destroy_handle(api, attr, OpAttr, "op attr")


def _set_attr(api: str, attr: int, name: str, value: Any) -> int:
    obj = state().lookup(attr, OpAttr)
    if obj is None:
        return fail(100000, api, f"{state().describe_handle(attr)} is not an op attr (acl.op.create_attr).")
    obj.values[name] = value
    return 0


@binding("acl.op.set_attr_int", "ksL")
def set_attr_int(api, attr, attr_name, attr_value):
    """Set an int attribute, e.g. ArgMaxD's 'dimension'."""
    return _set_attr(api, attr, attr_name, attr_value)


@binding("acl.op.set_attr_list_int", "ksO")
def set_attr_list_int(api, attr, attr_name, values):
    """Set a list-of-int attribute (a list or an integer ndarray)."""
    seq = values.tolist() if isinstance(values, np.ndarray) else values
    if not isinstance(seq, list) or not all(isinstance(v, int) for v in seq):
        raise TypeError("acl.op.set_attr_list_int args parse failed\n[acl-teach] values must be a list of ints.")
    return _set_attr(api, attr, attr_name, list(seq))


def _tensor(desc_handle: int, buf_handle: int, what: str) -> Tuple[TensorDesc, DataBuffer]:
    desc = state().lookup(desc_handle, TensorDesc)
    buf = lookup_buffer(buf_handle)
    if desc is None or buf is None:
        raise ExecError(100000, f"{what}: {'tensor desc' if desc is None else 'data buffer'} "
                        f"{desc_handle if desc is None else buf_handle:#x} is not live.")
    if buf.size < desc.nbytes:
        raise ExecError(100000, f"{what}: the desc needs {desc.nbytes} bytes, the data buffer has {buf.size}.")
    return desc, buf


def _read(desc: TensorDesc, buf: DataBuffer, what: str) -> np.ndarray:
    region, offset = _memory(buf, desc.nbytes, what)
    return region.view(offset, desc.nbytes).view(dtypes.numpy_dtype(desc.data_type)).reshape(desc.dims).copy()


def _write(desc: TensorDesc, buf: DataBuffer, value: np.ndarray, what: str) -> None:
    data = np.ascontiguousarray(value, dtype=dtypes.numpy_dtype(desc.data_type))
    if data.size != int(np.prod(desc.dims, dtype=np.int64)):
        raise ExecError(100022, f"{what}: the result has {data.size} elements, the output desc {desc.dims} "
                        f"has {int(np.prod(desc.dims))}.")
    region, offset = _memory(buf, desc.nbytes, what)
    np.copyto(region.view(offset, desc.nbytes), data.reshape(-1).view(np.uint8))


def _compute(op_type: str, ins: List[np.ndarray], attrs: Dict[str, Any]) -> np.ndarray:
    if op_type == "Cast":
        return ins[0]
    if op_type == "ArgMaxV2":
        if len(ins) != 2:
            raise ExecError(100021, "ArgMaxV2 takes two inputs: x and dimension.")
        return np.argmax(ins[0], axis=int(np.asarray(ins[1]).reshape(-1)[0]))
    if len(ins) != 1 or "dimension" not in attrs:
        raise ExecError(100021, "ArgMaxD takes one input and the int attribute 'dimension'.")
    return np.argmax(ins[0], axis=int(attrs["dimension"]))


def _launch(api: str, op_type: str, in_descs: List[int], in_bufs: List[int], out_descs: List[int],
            out_bufs: List[int], attr: int, stream: int) -> int:
    if op_type not in SUPPORTED:
        return fail(100024, api, f"operator {op_type!r} is not available (the simulator runs {SUPPORTED}).")
    if "op_model_dir" not in state().subsystems:
        return fail(100024, api, f"no operator models are loaded: call acl.op.set_model_dir(dir) with the "
                    f"directory of the {op_type} model compiled by `atc --singleop`.")
    if len(in_descs) != len(in_bufs) or len(out_descs) != len(out_bufs) or len(out_descs) != 1:
        return fail(100000, api, "each input/output needs one tensor desc and one data buffer; the supported "
                    "operators have exactly one output.")
    handle, ret = resolve_stream(api, stream)
    if ret:
        return ret
    attrs = state().lookup(attr, OpAttr) if attr else OpAttr()
    if attrs is None:
        return fail(100000, api, f"{state().describe_handle(attr)} is not an op attr.")
    try:
        ins = [_tensor(d, b, f"{op_type} input #{i}") for i, (d, b) in enumerate(zip(in_descs, in_bufs))]
        out = _tensor(out_descs[0], out_bufs[0], f"{op_type} output")
    except ExecError as exc:
        return fail(exc.code, api, exc.why)
    values = dict(attrs.values)

    def task():
        try:
            arrays = [_read(d, b, f"{op_type} input #{i}") for i, (d, b) in enumerate(ins)]
            _write(out[0], out[1], _compute(op_type, arrays, values), f"{op_type} output")
        except ExecError as exc:
            return 507011, f"{op_type}: {exc.why}"
        return None

    enqueue(handle, f"op {op_type}", task)
    return 0


def _handle_list(value: Any, what: str) -> List[int]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) for v in value):
        raise TypeError(f"acl.op.execute_v2 args parse failed\n[acl-teach] {what} must be a list of int handles.")
    return list(value)


@binding("acl.op.execute_v2", "sOOOOkk", needs=INIT)
def execute_v2(api, op_type, input_desc, inputs, output_desc, outputs, attr, stream):
    """Queue a single operator on ``stream`` (lists of tensor descs and data buffers)."""
    return _launch(api, op_type, _handle_list(input_desc, "input_desc"),
                   _handle_list(inputs, "inputs"), _handle_list(output_desc, "output_desc"),
                   _handle_list(outputs, "outputs"), attr, stream)


@binding("acl.op.cast", "kkkkik", needs=INIT)
def cast(api, input_desc, input_buf, output_desc, output_buf, truncate, stream):
    """Queue a type conversion (input desc's type -> output desc's type) on ``stream``."""
    return _launch(api, "Cast", [input_desc], [input_buf], [output_desc], [output_buf], 0, stream)
