"""aclmdlDataset: the ordered list of aclDataBuffers a model reads (inputs) or writes (outputs).

Destroying a dataset destroys neither its data buffers nor their memory — each has its own
release call, which is why the official samples loop over the buffers first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Set

from ..core.args import binding
from ..base.databuffer import lookup_buffer
from ..base.tensor_desc import TensorDesc, lookup_desc
from ..core.state import create_handle, destroy_handle, fail, state


@dataclass
class Dataset:
    """The buffers, in the order the model's inputs/outputs are numbered."""

    buffers: List[int] = field(default_factory=list)
    descs: Dict[int, int] = field(default_factory=dict)   # index -> aclTensorDesc (set_dataset_tensor_desc)
    owned: Set[int] = field(default_factory=set)          # descs the runtime made (outputs of a dynamic model)


def lookup_dataset(handle: int):
    """The live Dataset behind a handle, or None."""
    return state().lookup(handle, Dataset)


@binding("acl.mdl.create_dataset")
def create_dataset(api):
    """A new empty aclmdlDataset."""
    return create_handle(Dataset(), "dataset", "0 buffers")


@binding("acl.mdl.destroy_dataset", "k")
def destroy_dataset(api, dataset):
    """Destroy the dataset only (its data buffers and memory stay; tensor descs the runtime made go with it)."""
    ds = lookup_dataset(dataset)
    ret = destroy_handle(api, dataset, Dataset, "dataset")
    if not ret and ds is not None:
        for handle in ds.owned:
            state().handles.pop(handle, None)
    return ret


@binding("acl.mdl.add_dataset_buffer", "kk")
def add_dataset_buffer(api, dataset, data_buffer):
    """(dataset, ret): append a data buffer; its position is the model input/output index."""
    st = state()
    ds = lookup_dataset(dataset)
    if ds is None:
        return dataset, fail(100000, api, f"dataset {st.describe_handle(dataset)} is not a live dataset.")
    if lookup_buffer(data_buffer) is None:
        return dataset, fail(100000, api, f"data buffer {st.describe_handle(data_buffer)} is not a live "
                             f"aclDataBuffer (acl.create_data_buffer).")
    ds.buffers.append(data_buffer)
    entry = st.ledger.get(dataset)
    if entry is not None:
        entry.detail = f"{len(ds.buffers)} buffer(s)"
    return dataset, 0


@binding("acl.mdl.get_dataset_buffer", "kk")
def get_dataset_buffer(api, dataset, index):
    """The data buffer at ``index`` (0 when out of range)."""
    ds = lookup_dataset(dataset)
    return ds.buffers[index] if ds is not None and 0 <= index < len(ds.buffers) else 0


@binding("acl.mdl.get_dataset_num_buffers", "k")
def get_dataset_num_buffers(api, dataset):
    """How many data buffers the dataset holds (0 for an unknown dataset)."""
    ds = lookup_dataset(dataset)
    return len(ds.buffers) if ds is not None else 0


@binding("acl.mdl.set_dataset_tensor_desc", "kkk")
def set_dataset_tensor_desc(api, dataset, tensor_desc, index):
    """(dataset, ret): attach a tensor desc to buffer ``index`` — the real shape of a dynamic-shape input.

    UNCONFIRMED: 100000 for an unknown dataset or desc, or an index past the buffers added so far.
    """
    ds = lookup_dataset(dataset)
    if ds is None:
        return dataset, fail(100000, api, f"dataset {state().describe_handle(dataset)} is not a live dataset.")
    if lookup_desc(tensor_desc) is None:
        return dataset, fail(100000, api, f"{state().describe_handle(tensor_desc)} is not a live tensor desc.")
    if index >= len(ds.buffers):
        return dataset, fail(100000, api, f"index {index}: the dataset has {len(ds.buffers)} buffer(s); add the "
                             f"data buffer first.")
    ds.owned.discard(ds.descs.get(index, 0))
    ds.descs[index] = tensor_desc
    return dataset, 0


@binding("acl.mdl.get_dataset_tensor_desc", "kk")
def get_dataset_tensor_desc(api, dataset, index):
    """The tensor desc of buffer ``index``: one you set, or (outputs of a dynamic model) the runtime's; else 0."""
    ds = lookup_dataset(dataset)
    if ds is None:
        return 0
    handle = ds.descs.get(index, 0)
    return handle if state().handles.get(handle) is not None else 0


def note_output_shape(dataset: int, index: int, data_type: int, dims: List[int], fmt: int) -> None:
    """After a run of a dynamic model: the output's real shape, as a tensor desc the dataset owns."""
    ds = lookup_dataset(dataset)
    if ds is None or (index in ds.descs and ds.descs[index] not in ds.owned):
        return  # the learner's own desc stays
    handle = ds.descs.get(index, 0)
    desc = state().lookup(handle, TensorDesc)
    if desc is None:
        with state().lock:
            handle = state().new_handle(TensorDesc(data_type, list(dims), fmt))
        ds.descs[index] = handle
        ds.owned.add(handle)
    else:
        desc.data_type, desc.dims, desc.format = data_type, list(dims), fmt
