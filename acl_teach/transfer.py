"""Steps 6 and 8: ``copy_to_device`` (host bytes -> device buffer) and ``unpack_outputs``
(device buffers -> numpy arrays shaped by ``get_cur_output_dims``).

Run-mode aware, as the docs describe: on a PC with a card (ACL_HOST) the copies are
HOST_TO_DEVICE / DEVICE_TO_HOST; on a board (ACL_DEVICE) host and device share memory and the
copies are DEVICE_TO_DEVICE, as acllite does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Union

import numpy as np

from .spec import dtypes
from .spec.constants import (ACL_MEMCPY_DEVICE_TO_DEVICE as D2D, ACL_MEMCPY_DEVICE_TO_HOST as D2H,
                             ACL_MEMCPY_HOST_TO_DEVICE as H2D, MEMCPY_KIND_NAMES)
from .dataset import Dataset
from .model import Desc
from .resources import Resources
from .step import Step



@dataclass(repr=False)
class Copy(Step):
    """One memcpy: how many bytes, which way."""

    index: int = 0
    nbytes: int = 0
    kind: str = ""


@dataclass(repr=False)
class Outputs(Step):
    """The model outputs as numpy arrays."""

    arrays: List[np.ndarray] = field(default_factory=list)
    names: List[str] = field(default_factory=list)

    def shown(self):
        return [("outputs", [f"{n}: {a.dtype} {list(a.shape)}" for n, a in zip(self.names, self.arrays)])]


def _board(resources: Optional[Resources]) -> bool:
    return bool(resources and resources.on_board)


def _check_size(data: np.ndarray, size: int, desc: Optional[Desc], index: int) -> None:
    if data.nbytes <= size:
        return
    want = ""
    if desc is not None and index < len(desc.inputs):
        t = desc.inputs[index]
        want = f" The model's input #{index} ({t.name}) is {t.size_arithmetic}."
        if data.dtype != t.numpy_dtype:
            want += f" Your array is {data.dtype}: convert it with .astype(np.{t.numpy_dtype})."
    raise ValueError(f"{data.nbytes} bytes ({data.dtype} {list(data.shape)}) do not fit input buffer #{index} of "
                     f"{size} bytes.{want}")


def copy_to_device(data: Union[np.ndarray, bytes], inputs: Dataset, index: int = 0,
                   resources: Optional[Resources] = None, desc: Optional[Desc] = None) -> Copy:
    """bytes_to_ptr(data) + memcpy into input buffer ``index`` (the bytes object lives until the copy ends)."""
    if not isinstance(inputs, Dataset):
        raise TypeError(f"copy_to_device copies into a dataset: pass the one at.build_dataset(desc, 'input') "
                        f"returned as the second argument (got {type(inputs).__name__})")
    if not isinstance(data, (np.ndarray, bytes, bytearray, memoryview)):
        raise TypeError(f"copy_to_device copies a NumPy array or bytes (got {type(data).__name__}): "
                        f"at.preprocess(path) gives the array")
    if not isinstance(index, int) or not 0 <= index < len(inputs.buffers):
        raise IndexError(f"input index {index!r}: this dataset has {len(inputs.buffers)} buffer(s), "
                         f"indices 0 to {len(inputs.buffers) - 1}")
    array = np.ascontiguousarray(data) if isinstance(data, np.ndarray) else np.frombuffer(data, np.uint8)
    buf = inputs.buffers[index]
    _check_size(array, buf.size, desc, index)
    if desc is not None and index < len(desc.inputs) and array.dtype != np.uint8 and \
            array.dtype != desc.inputs[index].numpy_dtype:
        raise ValueError(f"input #{index} ({desc.inputs[index].name}) is {desc.inputs[index].type_name}, your array "
                         f"is {array.dtype}: convert it with .astype(np.{desc.inputs[index].numpy_dtype}).")
    host_bytes = array.tobytes()
    kind = D2D if _board(resources) else H2D
    rec = Copy(index=index, nbytes=len(host_bytes), kind=MEMCPY_KIND_NAMES[kind])
    ptr = rec.call("acl.util.bytes_to_ptr", host_bytes)
    rec.check("acl.rt.memcpy", buf.ptr, buf.size, ptr, len(host_bytes), kind)
    return rec


def unpack_outputs(desc: Desc, outputs: Dataset, resources: Optional[Resources] = None) -> Outputs:
    """Per output: malloc_host -> memcpy back -> ptr_to_bytes -> free_host, shaped by get_cur_output_dims."""
    rec = Outputs()
    kind = D2D if _board(resources) else D2H
    for t, buf in zip(desc.outputs, outputs.buffers):
        dims, _ = rec.check("acl.mdl.get_cur_output_dims", desc.model_desc, t.index)
        shape = tuple(dims["dims"])
        dtype = dtypes.numpy_dtype(t.data_type)
        nbytes = int(np.prod(shape)) * dtype.itemsize
        host_ptr, _ = rec.check("acl.rt.malloc_host", buf.size)
        try:
            rec.check("acl.rt.memcpy", host_ptr, buf.size, buf.ptr, nbytes, kind)
            data = rec.call("acl.util.ptr_to_bytes", host_ptr, nbytes)
        finally:
            rec.check("acl.rt.free_host", host_ptr)
        rec.arrays.append(np.frombuffer(data, dtype).reshape(shape))
        rec.names.append(t.name)
    return rec
