"""aclmdlDataset: the ordered list of aclDataBuffers a model reads (inputs) or writes (outputs).

Destroying a dataset destroys neither its data buffers nor their memory — each has its own
release call, which is why the official samples loop over the buffers first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

from ._args import binding
from .databuffer import lookup_buffer
from .state import create_handle, destroy_handle, fail, state


@dataclass
class Dataset:
    """The buffers, in the order the model's inputs/outputs are numbered."""

    buffers: List[int] = field(default_factory=list)


def lookup_dataset(handle: int):
    """The live Dataset behind a handle, or None."""
    return state().lookup(handle, Dataset)


@binding("acl.mdl.create_dataset")
def create_dataset(api):
    """A new empty aclmdlDataset."""
    return create_handle(Dataset(), "dataset", "0 buffers")


@binding("acl.mdl.destroy_dataset", "k")
def destroy_dataset(api, dataset):
    """Destroy the dataset only (its data buffers and memory stay)."""
    return destroy_handle(api, dataset, Dataset, "dataset")


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
