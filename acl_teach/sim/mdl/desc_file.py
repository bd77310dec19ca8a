"""``acl.mdl`` model descriptions without loading: get_desc_from_file / get_desc_from_mem, and get_tensor_real_name.

The desc is filled from the OM's header exactly as get_desc fills it from a loaded model, so every getter
answers the same; nothing is loaded (no model id, no device memory). Its pages say such a desc does not serve
get_op_attr or get_cur_output_dims (the latter refuses here, see desc.py).
From the runtime's checks (aclmdlGetDescFromMem/File): a NULL desc, path or model pointer and a zero size are
100000; a file that cannot be read or parsed returns the loader's code, as load_from_file does.
get_tensor_real_name: the full name of an input or output given its name, or the last ':' part of an output's
'op:edge:name' (simulator's reading of "the real name"; UNCONFIRMED), None when nothing matches or the desc
is not filled (the binding builds 's' from NULL as None).
"""
from __future__ import annotations

from typing import Optional

from ..core.args import binding
from .desc import ModelDesc, _desc
from .model import _open
from ..core.state import fail, require_init, state

__all__ = ["get_desc_from_file", "get_desc_from_mem", "get_tensor_real_name"]


def _target(api: str, model_desc: int) -> Optional[ModelDesc]:
    desc = state().lookup(model_desc, ModelDesc)
    if desc is None:
        fail(100000, api, f"{state().describe_handle(model_desc)} is not a model desc from acl.mdl.create_desc.")
    return desc


def _fill(api: str, model_desc: int, **source) -> int:
    ret = require_init(api)
    if ret:
        return ret
    desc = _target(api, model_desc)
    if desc is None:
        return 100000
    model, ret = _open(api, **source)
    if ret:
        return ret
    desc.header, desc.model_id, desc.unloaded = model.header, 0, True
    entry = state().ledger.get(model_desc)
    if entry is not None:
        entry.detail = f"of {source.get('path') or 'a model in memory'} (not loaded)"
    return 0


@binding("acl.mdl.get_desc_from_file", "ks")
def get_desc_from_file(api, model_desc, model_path):
    """Fill ``model_desc`` from an .om file without loading it (inputs, outputs, dims, sizes, gears)."""
    return _fill(api, model_desc, path=model_path)


@binding("acl.mdl.get_desc_from_mem", "kkk")
def get_desc_from_mem(api, model_desc, model, model_size):
    """Fill ``model_desc`` from an .om held in host memory (bytes_to_ptr of the file's bytes)."""
    return _fill(api, model_desc, ptr=model, size=model_size)


@binding("acl.mdl.get_tensor_real_name", "ks")
def get_tensor_real_name(api, model_desc, name):
    """The real name of an input/output tensor called ``name`` (None when the desc has no such tensor)."""
    desc = _desc(model_desc)
    if desc is None or not name:
        return None
    entries = desc.header["inputs"] + desc.header["outputs"]
    for entry in entries:
        if entry["name"] == name:
            return name
    for entry in desc.header["outputs"]:
        if entry["name"].rsplit(":", 1)[-1] == name:
            return entry["name"]
    return None
