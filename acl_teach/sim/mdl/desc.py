"""aclmdlDesc: what a loaded model expects — counts, names, dims, data types, formats, sizes, gears.

Getters follow pyACL's shapes: bare values for counts/sizes/names/types (0, '' or -1 when the
index is wrong), ``(dims_dict, ret)`` for dims (``({}, ret)`` on failure), ``(index, ret)`` for
name lookups. Dynamic dims show as -1; sizes are the largest gear's, as the docs say.
UNCONFIRMED: '' for a bad name index, -1 for a bad format/type index, batchCount 0 for static models.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ..core.args import binding
from .model import get_model, models
from ..core.state import create_handle, destroy_handle, fail, state

MAX_GEAR_QUERY = 4096


@dataclass
class ModelDesc:
    """A filled (or still empty) aclmdlDesc."""

    header: Optional[Dict[str, Any]] = None
    model_id: int = 0
    unloaded: bool = False  # filled by get_desc_from_file / _mem: no loaded model behind it


def _desc(handle: int) -> Optional[ModelDesc]:
    desc = state().lookup(handle, ModelDesc)
    return desc if desc is not None and desc.header is not None else None


def _entry(handle: int, which: str, index: int) -> Optional[Dict[str, Any]]:
    desc = _desc(handle)
    if desc is None:
        return None
    items = desc.header[which]
    return items[index] if 0 <= index < len(items) else None


def _dims_dict(name: str, dims: List[int]) -> Dict[str, Any]:
    return {"name": name, "dimCount": len(dims), "dims": list(dims)}


def current_gear(desc: ModelDesc) -> Optional[str]:
    """The gear the model last ran or was set to (None: max gear / static)."""
    loaded = models().loaded.get(desc.model_id)
    return loaded.current_gear if loaded is not None else None


@binding("acl.mdl.create_desc")
def create_desc(api):
    """A new empty aclmdlDesc (fill it with get_desc)."""
    return create_handle(ModelDesc(), "model desc", "empty")


@binding("acl.mdl.get_desc", "kI")
def get_desc(api, model_desc, model_id):
    """Fill ``model_desc`` from a loaded model (note the order: desc, then model id)."""
    st = state()
    desc = st.lookup(model_desc, ModelDesc)
    if desc is None:
        return fail(100000, api, f"{st.describe_handle(model_desc)} is not a model desc from create_desc.")
    loaded, ret = get_model(api, model_id)
    if ret:
        return ret
    desc.header, desc.model_id, desc.unloaded = loaded.model.header, model_id, False
    entry = st.ledger.get(model_desc)
    if entry is not None:
        entry.detail = f"of model {model_id}"
    return 0


@binding("acl.mdl.destroy_desc", "k")
def destroy_desc(api, model_desc):
    """Destroy an aclmdlDesc."""
    return destroy_handle(api, model_desc, ModelDesc, "model desc")


@binding("acl.mdl.get_num_inputs", "k")
def get_num_inputs(api, model_desc):
    """Number of inputs, including the hidden ascend_mbatch_shape_data of dynamic models."""
    desc = _desc(model_desc)
    return len(desc.header["inputs"]) if desc else 0


@binding("acl.mdl.get_num_outputs", "k")
def get_num_outputs(api, model_desc):
    """Number of outputs."""
    desc = _desc(model_desc)
    return len(desc.header["outputs"]) if desc else 0


@binding("acl.mdl.get_input_size_by_index", "kk")
def get_input_size_by_index(api, model_desc, index):
    """Bytes of input ``index`` (largest gear); 0 for a bad index."""
    entry = _entry(model_desc, "inputs", index)
    return entry["size"] if entry else 0


@binding("acl.mdl.get_output_size_by_index", "kk")
def get_output_size_by_index(api, model_desc, index):
    """Bytes of output ``index`` (largest gear); 0 for a bad index."""
    entry = _entry(model_desc, "outputs", index)
    return entry["size"] if entry else 0


def _dims(api: str, model_desc: int, which: str, index: int, key: str = "dims") -> Tuple[Dict[str, Any], int]:
    entry = _entry(model_desc, which, index)
    if entry is None:
        n = len(_desc(model_desc).header[which]) if _desc(model_desc) else 0
        why = "the desc is not filled (acl.mdl.get_desc)" if not _desc(model_desc) else \
            f"index {index} is out of range (the model has {n} {which})"
        return {}, fail(100000, api, why + ".")
    return _dims_dict(entry["name"], entry[key]), 0


@binding("acl.mdl.get_input_dims", "kk")
def get_input_dims(api, model_desc, index):
    """({'name', 'dimCount', 'dims'}, ret) of input ``index``; dynamic dims are -1.

    An AIPP input reports [n, h, w, c] of its image (c = 3 for YUV420SP/RGB888: UNCONFIRMED), while
    get_input_dims_v2 reports the buffer's shape ([n, h*3/2, w, 1] for YUV420SP, product = size).
    """
    entry = _entry(model_desc, "inputs", index)
    if entry is not None and entry.get("aipp"):
        return _dims_dict(entry["name"], entry["aipp"]["dims"]), 0
    return _dims(api, model_desc, "inputs", index)


@binding("acl.mdl.get_input_dims_v2", "kk")
def get_input_dims_v2(api, model_desc, index):
    """Same as get_input_dims without AIPP; for an AIPP input the buffer's shape (see get_input_dims)."""
    return _dims(api, model_desc, "inputs", index)


@binding("acl.mdl.get_output_dims", "kk")
def get_output_dims(api, model_desc, index):
    """({'name', 'dimCount', 'dims'}, ret) of output ``index`` at the largest gear."""
    return _dims(api, model_desc, "outputs", index)


@binding("acl.mdl.get_cur_output_dims", "kk")
def get_cur_output_dims(api, model_desc, index):
    """Output dims for the gear currently chosen (set_dynamic_* or the last execute)."""
    found, ret = _dims(api, model_desc, "outputs", index)
    if ret:
        return found, ret
    if _desc(model_desc).unloaded:  # the get_desc_from_mem page: such a desc does not serve get_cur_output_dims
        return {}, fail(100000, api, "this desc came from get_desc_from_file/_mem (no loaded model, so no current "
                        "gear); use get_output_dims, or get_desc after load (UNCONFIRMED code).")
    gear = current_gear(_desc(model_desc))
    dims = _entry(model_desc, "outputs", index)["gear_dims"].get(gear) if gear else None
    return (_dims_dict(found["name"], dims) if dims else found), 0


@binding("acl.mdl.get_input_name_by_index", "kk")
def get_input_name_by_index(api, model_desc, index):
    """Name of input ``index`` ('' for a bad index)."""
    entry = _entry(model_desc, "inputs", index)
    return entry["name"] if entry else ""


@binding("acl.mdl.get_output_name_by_index", "kk")
def get_output_name_by_index(api, model_desc, index):
    """Name of output ``index`` in the documented 'op:edge:outputname' form ('' for a bad index)."""
    entry = _entry(model_desc, "outputs", index)
    return entry["name"] if entry else ""


def _index_by_name(api: str, model_desc: int, which: str, name: str) -> Tuple[int, int]:
    desc = _desc(model_desc)
    if desc is not None:
        for i, entry in enumerate(desc.header[which]):
            if entry["name"] == name:
                return i, 0
    return 0, fail(100000, api, f"the model has no {which[:-1]} named {name!r}.", quiet=True)


@binding("acl.mdl.get_input_index_by_name", "ks")
def get_input_index_by_name(api, model_desc, name):
    """(index, ret) of the input called ``name``; 100000 when there is none."""
    return _index_by_name(api, model_desc, "inputs", name)


@binding("acl.mdl.get_output_index_by_name", "ks")
def get_output_index_by_name(api, model_desc, name):
    """(index, ret) of the output called ``name``; 100000 when there is none."""
    return _index_by_name(api, model_desc, "outputs", name)


@binding("acl.mdl.get_input_format", "kk")
def get_input_format(api, model_desc, index):
    """aclFormat of input ``index`` (-1 for a bad index)."""
    entry = _entry(model_desc, "inputs", index)
    return entry["format"] if entry else -1


@binding("acl.mdl.get_output_format", "kk")
def get_output_format(api, model_desc, index):
    """aclFormat of output ``index`` (-1 for a bad index)."""
    entry = _entry(model_desc, "outputs", index)
    return entry["format"] if entry else -1


@binding("acl.mdl.get_input_data_type", "kk")
def get_input_data_type(api, model_desc, index):
    """aclDataType of input ``index`` (-1 for a bad index)."""
    entry = _entry(model_desc, "inputs", index)
    return entry["data_type"] if entry else -1


@binding("acl.mdl.get_output_data_type", "kk")
def get_output_data_type(api, model_desc, index):
    """aclDataType of output ``index`` (-1 for a bad index)."""
    entry = _entry(model_desc, "outputs", index)
    return entry["data_type"] if entry else -1


def _gears(model_desc: int, kind: str) -> Optional[List[List[int]]]:
    desc = _desc(model_desc)
    if desc is None:
        return None
    dyn = desc.header.get("dynamic") or {}
    return dyn.get("gears", []) if dyn.get("kind") == kind else []


@binding("acl.mdl.get_dynamic_batch", "k")
def get_dynamic_batch(api, model_desc):
    """({'batchCount': n, 'batch': [...]}, ret); a static model has batchCount 0."""
    gears = _gears(model_desc, "batch")
    if gears is None:
        return {}, fail(100000, api, "the desc is not filled (acl.mdl.get_desc).")
    return {"batchCount": len(gears), "batch": [g[0] for g in gears]}, 0


@binding("acl.mdl.get_dynamic_hw", "kk")
def get_dynamic_hw(api, model_desc, index):
    """({'hwCount': n, 'hw': [[h, w], ...]}, ret); pass index -1 as the docs do."""
    gears = _gears(model_desc, "hw")
    if gears is None:
        return {}, fail(100000, api, "the desc is not filled (acl.mdl.get_desc).")
    return {"hwCount": len(gears), "hw": [list(g) for g in gears]}, 0


def _all_gears(model_desc: int) -> Optional[List[List[int]]]:
    desc = _desc(model_desc)
    if desc is None:
        return None
    return (desc.header.get("dynamic") or {}).get("gears", [])


@binding("acl.mdl.get_input_dynamic_gear_count", "kk")
def get_input_dynamic_gear_count(api, model_desc, index):
    """(number of gears, ret) of a dynamic model (0 for a static one); index is -1."""
    gears = _all_gears(model_desc)
    if gears is None:
        return 0, fail(100000, api, "the desc is not filled.")
    return len(gears), 0


def _unfilled(gear_count: int) -> List[None]:
    """What WrapAclMdlGetInputDynamicDims returns when the C call fails: the list it made with PyList_New.

    In pyACL that list has ``gear_count`` empty (NULL) slots that are unsafe to touch; the
    simulator puts None in them (UNCONFIRMED stand-in). Only gear_count > 4096 gives None itself.
    """
    return [None] * gear_count


@binding("acl.mdl.get_input_dynamic_dims", "kkk")
def get_input_dynamic_dims(api, model_desc, index, gear_count):
    """([dims_dict per gear], ret): each gear's dims of all inputs, concatenated.

    Failure shapes follow the binding (mdl_wrap.cpp): ``(None, 100000)`` when gear_count > 4096,
    else ``(list of gear_count unusable slots, ret)`` for any failure of the C call.
    """
    if gear_count > MAX_GEAR_QUERY:
        return None, fail(100000, api, f"gear_count {gear_count} exceeds {MAX_GEAR_QUERY}.")
    gears = _all_gears(model_desc)
    if gears is None:
        return _unfilled(gear_count), fail(100000, api, "the desc is not filled.")
    if gear_count != len(gears):
        return _unfilled(gear_count), fail(100000, api, f"gear_count {gear_count} differs from the model's "
                                           f"{len(gears)} gears (acl.mdl.get_input_dynamic_gear_count).")
    inputs = [e for e in _desc(model_desc).header["inputs"] if e["gear_dims"]]
    out = []
    for gear in gears:
        key = ",".join(map(str, gear))
        dims = [d for e in inputs for d in e["gear_dims"][key]]
        out.append(_dims_dict("", dims))
    return out, 0
