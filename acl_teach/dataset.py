"""Step 5: ``build_dataset`` — device memory -> aclDataBuffer -> aclmdlDataset, one buffer per input/output.

The nesting seed 003 asks to see early: a *dataset* is an ordered list of *data buffers*; a data
buffer is a label (pointer, size) on *device memory*; index i of the dataset is the model's
input/output i. ``release_dataset`` undoes all three layers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

from .model import Desc
from .spec.constants import ACL_MEM_MALLOC_HUGE_FIRST
from .step import Step


@dataclass
class Buffer:
    """One slot of a dataset: device memory and the aclDataBuffer around it."""

    index: int
    name: str
    ptr: int
    size: int
    data_buffer: int


@dataclass(repr=False)
class Dataset(Step):
    """An input or output aclmdlDataset and the buffers in it."""

    kind: str = "input"
    dataset: int = 0
    buffers: List[Buffer] = field(default_factory=list)
    released: bool = False
    owns_memory: bool = True  # False when the buffers wrap someone else's memory (a DVPP picture)

    def shown(self):
        return [("kind", self.kind), ("buffers", [f"#{b.index} {b.name}: {b.size} bytes" for b in self.buffers]),
                ("released", self.released)]


def build_dataset(desc: Desc, kind: str = "input") -> Dataset:
    """create_dataset, then per tensor: malloc(size) -> create_data_buffer -> add_dataset_buffer."""
    if kind not in ("input", "output"):
        raise ValueError("kind must be 'input' or 'output'")
    rec = Dataset(kind=kind)
    tensors = desc.inputs if kind == "input" else desc.outputs
    rec.dataset = rec.call("acl.mdl.create_dataset")
    try:
        for t in tensors:
            size = rec.call(f"acl.mdl.get_{kind}_size_by_index", desc.model_desc, t.index)
            ptr, _ = rec.check("acl.rt.malloc", size, ACL_MEM_MALLOC_HUGE_FIRST)
            buf = Buffer(t.index, t.name, ptr, size, 0)
            rec.buffers.append(buf)
            buf.data_buffer = rec.call("acl.create_data_buffer", ptr, size)
            rec.check("acl.mdl.add_dataset_buffer", rec.dataset, buf.data_buffer)
    except Exception:
        release_dataset(rec)
        raise
    return rec


def release_dataset(ds: Dataset) -> Step:
    """destroy each data buffer -> destroy the dataset -> free each buffer's memory."""
    from .resources import Release
    if ds.released:
        return Release.nothing_to_do(f"{ds.kind} dataset", "this dataset was already released; nothing to do.")
    rec = Release(what=f"{ds.kind} dataset")
    for buf in ds.buffers:
        if buf.data_buffer:
            rec.check("acl.destroy_data_buffer", buf.data_buffer)
    rec.check("acl.mdl.destroy_dataset", ds.dataset)
    for buf in ds.buffers if ds.owns_memory else ():
        rec.check("acl.rt.free", buf.ptr)
    ds.released = True
    return rec
