"""Steps 3-4: ``load_model`` (four ways), ``query_desc`` (every acl.mdl.get_* value), ``unload_model``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np

from .spec import dtypes
from .spec.constants import ACL_DEVICE, ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_HOST_TO_DEVICE
from .step import Step

HOW = ("file", "mem", "file_with_mem", "mem_with_mem")


@dataclass(repr=False)
class Model(Step):
    """A loaded model: its id, where it came from, and any memory you manage for it."""

    model_id: int = 0
    path: str = ""
    how: str = "file"
    work_size: int = 0
    weight_size: int = 0
    work_ptr: int = 0
    weight_ptr: int = 0
    data_ptr: int = 0  # the model file's bytes in device memory (how="mem*" on ACL_DEVICE), freed at unload
    unloaded: bool = False


@dataclass
class TensorInfo:
    """One input or output as the desc describes it."""

    index: int
    name: str
    dims: List[int]
    data_type: int
    format: int
    size: int

    @property
    def type_name(self) -> str:
        return dtypes.type_name(self.data_type)

    @property
    def numpy_dtype(self) -> np.dtype:
        return dtypes.numpy_dtype(self.data_type)

    @property
    def size_arithmetic(self) -> str:
        """How the size follows from dims and type, e.g. '1 x 3 x 224 x 224 x 2 bytes (ACL_FLOAT16) = 301056'."""
        try:
            item = dtypes.itemsize(self.data_type)
        except KeyError:
            return f"{self.size} bytes"
        dims = [str(d) for d in self.dims]
        known = int(np.prod([d for d in self.dims if d > 0])) * item
        if self.dims.count(-1) == 1 and known and self.size % known == 0:  # a batch gear: name its size
            dims[self.dims.index(-1)] = f"{self.size // known} (largest gear)"
        elif -1 in self.dims:  # an image-size gear: H and W at the largest gear multiply out to the rest
            dims = [d for d in dims if d != "-1"] + [f"{self.size // known if known else '?'} (H x W, largest gear)"]
        return f"{' x '.join(dims)} x {item} bytes ({self.type_name}) = {self.size}"

    def row(self) -> str:
        return (f"#{self.index} {self.name:<28} dims {str(self.dims):<18} {self.type_name:<12} "
                f"{dtypes.format_name(self.format):<16} {self.size:>9} bytes")


@dataclass(repr=False)
class Desc(Step):
    """What the model expects: inputs, outputs, dynamic gears."""

    model_desc: int = 0
    model_id: int = 0
    inputs: List[TensorInfo] = field(default_factory=list)
    outputs: List[TensorInfo] = field(default_factory=list)
    dynamic_batch: List[int] = field(default_factory=list)
    dynamic_hw: List[List[int]] = field(default_factory=list)
    destroyed: bool = False

    def table(self) -> str:
        """All inputs and outputs, one line each."""
        lines = ["inputs:"] + ["  " + t.row() for t in self.inputs]
        lines += ["outputs:"] + ["  " + t.row() for t in self.outputs]
        if self.dynamic_batch:
            lines.append(f"dynamic batch gears: {self.dynamic_batch}")
        if self.dynamic_hw:
            lines.append(f"dynamic image-size gears: {self.dynamic_hw}")
        return "\n".join(lines)

    def shown(self):
        return [("model_id", self.model_id), ("inputs", [f"{t.name} {t.dims} {t.type_name}" for t in self.inputs]),
                ("outputs", [f"{t.name} {t.dims} {t.type_name}" for t in self.outputs])] + \
            ([("dynamic_batch", self.dynamic_batch)] if self.dynamic_batch else []) + \
            ([("dynamic_hw", self.dynamic_hw)] if self.dynamic_hw else [])


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise FileNotFoundError(f"cannot read model {path!r}: {exc.strerror or exc}. Build one with "
                                f"`acl-teach atc` or pass the path of an .om file.") from None


def _model_data(rec: Model, data: bytes) -> int:
    """Where load_from_mem reads the model: host memory on ACL_HOST, device memory on ACL_DEVICE.

    pyACL's load_from_mem page: "Ascend EP形态下，model参数处需申请Host上的内存。Ascend RC形态下，model参数处需申请
    Device上的内存". On a board (RC) the bytes are copied into acl.rt.malloc memory, kept until unload
    (UNCONFIRMED whether it could be freed right after loading; keeping it is safe either way).
    """
    run_mode, _ = rec.check("acl.rt.get_run_mode")
    if run_mode != ACL_DEVICE:
        return rec.call("acl.util.bytes_to_ptr", data)
    rec.data_ptr, _ = rec.check("acl.rt.malloc", len(data), ACL_MEM_MALLOC_HUGE_FIRST)
    rec.check("acl.rt.memcpy", rec.data_ptr, len(data), rec.call("acl.util.bytes_to_ptr", data), len(data),
              ACL_MEMCPY_HOST_TO_DEVICE)
    return rec.data_ptr


def load_model(path: str, how: str = "file") -> Model:
    """Load an offline model: 'file', 'mem', or with your own work/weight memory ('*_with_mem')."""
    if how not in HOW:
        raise ValueError(f"how must be one of {HOW}")
    if not isinstance(path, str) or not path:
        raise ValueError("load_model needs the path of an .om file, e.g. at.models.default_om()")
    rec = Model(path=path, how=how)
    data = _read_file(path) if how.startswith("mem") else b""
    try:
        ptr = _model_data(rec, data) if data else 0
        if how.endswith("with_mem"):
            if how == "file_with_mem":
                rec.work_size, rec.weight_size, _ = rec.check("acl.mdl.query_size", path)
            else:
                rec.work_size, rec.weight_size, _ = rec.check("acl.mdl.query_size_from_mem", ptr, len(data))
            rec.work_ptr, _ = rec.check("acl.rt.malloc", rec.work_size, ACL_MEM_MALLOC_HUGE_FIRST)
            rec.weight_ptr, _ = rec.check("acl.rt.malloc", rec.weight_size, ACL_MEM_MALLOC_HUGE_FIRST)
        if how == "file":
            rec.model_id, _ = rec.check("acl.mdl.load_from_file", path)
        elif how == "mem":
            rec.model_id, _ = rec.check("acl.mdl.load_from_mem", ptr, len(data))
        elif how == "file_with_mem":
            rec.model_id, _ = rec.check("acl.mdl.load_from_file_with_mem", path, rec.work_ptr, rec.work_size,
                                        rec.weight_ptr, rec.weight_size)
        else:
            rec.model_id, _ = rec.check("acl.mdl.load_from_mem_with_mem", ptr, len(data), rec.work_ptr,
                                        rec.work_size, rec.weight_ptr, rec.weight_size)
    except Exception:
        _free_user_memory(rec)
        raise
    return rec


def _free_user_memory(rec: Step, model: Optional[Model] = None) -> None:
    model = model or rec
    for attr in ("work_ptr", "weight_ptr", "data_ptr"):
        if getattr(model, attr):
            rec.call("acl.rt.free", getattr(model, attr))
            setattr(model, attr, 0)


def _tensors(rec: Desc, which: str) -> List[TensorInfo]:
    kind = "input" if which == "inputs" else "output"
    count = rec.call(f"acl.mdl.get_num_{which}", rec.model_desc)
    out = []
    for i in range(count):
        dims, _ = rec.check(f"acl.mdl.get_{kind}_dims", rec.model_desc, i)
        out.append(TensorInfo(i, rec.call(f"acl.mdl.get_{kind}_name_by_index", rec.model_desc, i),
                              list(dims["dims"]), rec.call(f"acl.mdl.get_{kind}_data_type", rec.model_desc, i),
                              rec.call(f"acl.mdl.get_{kind}_format", rec.model_desc, i),
                              rec.call(f"acl.mdl.get_{kind}_size_by_index", rec.model_desc, i)))
    return out


def query_desc(model: Model) -> Desc:
    """create_desc + get_desc, then every input/output: name, dims, data type, format, size; gears."""
    rec = Desc(model_id=model.model_id)
    rec.model_desc = rec.call("acl.mdl.create_desc")
    try:
        rec.check("acl.mdl.get_desc", rec.model_desc, model.model_id)
        rec.inputs = _tensors(rec, "inputs")
        rec.outputs = _tensors(rec, "outputs")
        batch, _ = rec.check("acl.mdl.get_dynamic_batch", rec.model_desc)
        rec.dynamic_batch = list(batch.get("batch", []))
        hw, _ = rec.check("acl.mdl.get_dynamic_hw", rec.model_desc, -1)
        rec.dynamic_hw = [list(g) for g in hw.get("hw", [])]
    except Exception:
        rec.call("acl.mdl.destroy_desc", rec.model_desc)
        raise
    return rec


def unload_model(model: Model, desc: Optional[Desc] = None) -> Step:
    """unload -> destroy_desc -> free the work/weight memory you gave it (in that order)."""
    from .resources import Release
    rec = Release(what=f"model {model.model_id}")
    if model.unloaded:
        rec.released = False
        rec.notes.append("this model was already unloaded; nothing to do.")
    else:
        rec.check("acl.mdl.unload", model.model_id)
        model.unloaded = True
    if desc is not None and not desc.destroyed:
        rec.check("acl.mdl.destroy_desc", desc.model_desc)
        desc.destroyed = True
    _free_user_memory(rec, model)
    return rec



@dataclass(repr=False)
class TensorQuery(Step):
    """Every acl.mdl.get_* value for one input or output, each from a recorded call (what DescExplorer shows)."""

    kind: str = "input"
    index: int = 0
    values: Dict[str, Any] = field(default_factory=dict)
    sources: Dict[str, str] = field(default_factory=dict, repr=False)  # value -> the call that gave it

    def ask(self, key: str, api: str, *args: Any) -> Any:
        """One getter: record the call and which value it answered."""
        result = self.call(api, *args)
        self.sources[key] = self.calls[-1].expression
        return result

    def ask_checked(self, key: str, api: str, *args: Any) -> Any:
        """One getter with a ret: raise AclError unless it is 0."""
        result = self.check(api, *args)
        self.sources[key] = self.calls[-1].expression
        return result[0]


def query_tensor(desc: Desc, kind: str, index: int) -> TensorQuery:
    """name, index_by_name, dims (v2 / current), data type, format, size and the gears of one tensor."""
    if kind not in ("input", "output"):
        raise ValueError("kind must be 'input' or 'output'")
    rec, d = TensorQuery(kind=kind, index=index), desc.model_desc
    dims = rec.ask_checked("dims", f"acl.mdl.get_{kind}_dims", d, index)
    name = rec.ask("name", f"acl.mdl.get_{kind}_name_by_index", d, index)
    size = rec.ask("size", f"acl.mdl.get_{kind}_size_by_index", d, index)
    dtype = rec.ask("data_type", f"acl.mdl.get_{kind}_data_type", d, index)
    fmt = rec.ask("format", f"acl.mdl.get_{kind}_format", d, index)
    found = rec.ask_checked("index_by_name", f"acl.mdl.get_{kind}_index_by_name", d, name)
    info = TensorInfo(index, name, list(dims.get("dims", [])), dtype, fmt, size)
    rec.values = {"name": name, "index": index, "index_by_name": found, "dims": info.dims,
                  "data_type": f"{dtype} ({dtypes.type_name(dtype)})",
                  "format": f"{fmt} ({dtypes.format_name(fmt)})", "size": size,
                  "size_arithmetic": info.size_arithmetic}
    rec.sources["size_arithmetic"] = "dims x bytes per element of the data type"
    if kind == "input":
        rec.values["dims_v2"] = list(rec.ask_checked("dims_v2", "acl.mdl.get_input_dims_v2", d, index).get("dims", []))
    else:
        cur = rec.ask_checked("cur_output_dims", "acl.mdl.get_cur_output_dims", d, index)
        rec.values["cur_output_dims"] = list(cur.get("dims", []))
    batch = rec.ask_checked("dynamic_batch", "acl.mdl.get_dynamic_batch", d)
    hw = rec.ask_checked("dynamic_hw", "acl.mdl.get_dynamic_hw", d, -1)
    rec.values["dynamic_batch"] = list(batch.get("batch", []))
    rec.values["dynamic_hw"] = [list(g) for g in hw.get("hw", [])]
    return rec
