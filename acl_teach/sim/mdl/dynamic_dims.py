"""ND dynamic dims (``atc --dynamic_dims``): ``acl.mdl.set_input_dynamic_dims`` and ``get_input_dims_range``.

A model converted with ``--input_format=ND --input_shape="x:-1,-1" --dynamic_dims="1,4;8,16"`` has
gears of one value per -1 of all its inputs, and the hidden ``ascend_mbatch_shape_data`` input
(8 bytes per value). ``set_input_dynamic_dims(model_id, dataset, index, dims)`` takes, like GE's
GetCurDynamicDims, the dims of *all* inputs concatenated (``{"name": "", "dimCount": n, "dims":
[...]}`` — what ``get_input_dynamic_dims`` lists per gear), keeps the values at the -1 positions,
checks they are a gear and writes them into that input's buffer; execute then runs that gear.

Binding (mdl_wrap.cpp at 134e2edb): ``"IkkO"``, the dict read with PyDict_GetItemString —
``dimCount`` as size_t, ``dims`` a list of ints of which the first dimCount are taken (TypeError
texts as there); get_input_dims_range ``"kk"`` → ``({"rangeCount", "range": [[min, max], …]}, ret)``.
UNCONFIRMED: 100000 for a dimCount that does not match the model's inputs, 145013 for dims that are
no gear (as for the batch and image-size setters); ranges of a -1 dim are the smallest and largest
value its gears give.
"""
from __future__ import annotations

from typing import Any, Dict, List

from ...spec.constants import ACL_DYNAMIC_TENSOR_NAME, ACL_MAX_DIM_CNT
from ..core.args import binding
from .desc import _desc
from .execution import _set_gear
from .model import get_model
from ..core.state import fail


def _parse_dims(dims: Any) -> List[int]:
    """What WrapAclMdlSetInputDynamicDims reads from the dict (raising its TypeErrors)."""
    if not isinstance(dims, dict):
        raise TypeError("argument 4 is not dict")
    count = dims.get("dimCount")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise TypeError("argument 4 is not dict\n[acl-teach] the dict needs \"dimCount\": a non-negative int")
    values = dims.get("dims")
    if not isinstance(values, list):
        raise TypeError("The dims of parameter 4 is not a list.")
    if count > ACL_MAX_DIM_CNT:
        raise TypeError(f"the dims of fourth parameter is not list of int\n[acl-teach] dimCount {count} exceeds "
                        f"ACL_MAX_DIM_CNT ({ACL_MAX_DIM_CNT})")
    out = []
    for i in range(count):
        value = values[i] if i < len(values) else None
        if not isinstance(value, int):
            raise TypeError("the dims of fourth parameter is not list of int")
        out.append(int(value))
    return out


@binding("acl.mdl.set_input_dynamic_dims", "IkkO")
def set_input_dynamic_dims(api, model_id, dataset, index, dims):
    """Choose the ND gear for the next execute: ``dims`` holds all inputs' dims, concatenated."""
    values = _parse_dims(dims)
    loaded, ret = get_model(api, model_id)
    if ret:
        return ret
    if loaded.model.dynamic["kind"] != "dims":
        return fail(100019, api, f"model {model_id} was not converted with --dynamic_dims.")
    inputs = [e for e in loaded.model.inputs if e["name"] != ACL_DYNAMIC_TENSOR_NAME]
    want = sum(len(e["dims"]) for e in inputs)
    if len(values) != want:
        return fail(100000, api, f"dimCount {len(values)}: give the dims of all {len(inputs)} input(s) "
                    f"concatenated ({want} values, -1 positions filled in), as get_input_dynamic_dims lists them.")
    current, pos = [], 0
    for e in inputs:
        for d, v in zip(e["dims"], values[pos:pos + len(e["dims"])]):
            if d == -1:
                current.append(v)
            elif v != d:
                return fail(100000, api, f"input {e['name']} has the fixed dims {e['dims']}; "
                            f"{values[pos:pos + len(e['dims'])]} changes a fixed one.")
        pos += len(e["dims"])
    return _set_gear(api, model_id, dataset, index, current, "dims")


def _range_dict(ranges: List[List[int]]) -> Dict[str, Any]:
    return {"rangeCount": len(ranges), "range": [list(r) for r in ranges]}


@binding("acl.mdl.get_input_dims_range", "kk")
def get_input_dims_range(api, model_desc, index):
    """({"rangeCount", "range": [[min, max] per dim]}, ret) of input ``index``."""
    desc = _desc(model_desc)
    if desc is None:
        return _range_dict([]), fail(100000, api, "the desc is not filled (acl.mdl.get_desc first).")
    inputs = desc.header["inputs"]
    if index >= len(inputs):
        return _range_dict([]), fail(100000, api, f"index {index} is past the model's {len(inputs)} input(s).")
    entry = inputs[index]
    shapes = list(entry["gear_dims"].values()) or [entry["dims"]]
    ranges = [[min(s[i] for s in shapes), max(s[i] for s in shapes)] if d == -1 else [d, d]
              for i, d in enumerate(entry["dims"])]
    return _range_dict(ranges), 0
