"""acl.mdl's AIPP queries: which inputs carry AIPP (get_aipp_type) and their AIPP config (get_first_aipp_info).

The ATC emulator compiles static AIPP into the graph and marks dynamic AIPP (toolchain/aipp.py), recording
the cfg in the OM header's input entry; these read it back as GE's AippUtils does (hicann/ge
``runtime/v1/graph/load/model_manager/aipp_utils.cc``, ACL ``acl_aipp.cpp``).
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ...spec import aipp as A
from ...spec.constants import ACL_DATA_WITH_DYNAMIC_AIPP, ACL_DATA_WITHOUT_AIPP, ACL_INVALID_NODE_INDEX
from ..core.args import INIT, binding
from .model import models
from ..core.state import fail


def _input(api: str, model_id: int, index: int) -> Tuple[Optional[Dict[str, Any]], int]:
    loaded = models().loaded.get(model_id)
    if loaded is None:
        return None, fail(100000, api, f"model id {model_id} is not a loaded model.")
    inputs = loaded.model.inputs
    if not 0 <= index < len(inputs):
        return None, fail(100000, api, f"index {index} is out of range (the model has {len(inputs)} inputs).")
    return inputs[index], 0


@binding("acl.mdl.get_aipp_type", "Ik", needs=INIT, outs=2)
def get_aipp_type(api, model_id, index):
    """(type, dynamic_attached_data_index, ret): 0 none, 1 static, 2 data with dynamic AIPP (then the index of its
    ascend_dynamic_aipp_data input), 3 that ascend_dynamic_aipp_data input; the index is 0xFFFFFFFF otherwise."""
    entry, ret = _input(api, model_id, index)
    if ret:
        return 0, ACL_INVALID_NODE_INDEX, ret
    kind = entry["aipp"]["type"] if entry.get("aipp") else ACL_DATA_WITHOUT_AIPP
    attached = ACL_INVALID_NODE_INDEX
    if kind == ACL_DATA_WITH_DYNAMIC_AIPP:
        attached = [e["name"] for e in models().loaded[model_id].model.inputs].index(A.DYNAMIC_DATA_NAME)
    return kind, attached, 0


UNSET = {"csc_switch": False, "matrix": [0] * 9, "input_bias": [0] * 3, "output_bias": [0] * 3,
         "rbuv_swap_switch": False, "ax_swap_switch": False, "src_image_size_w": 0, "src_image_size_h": 0,
         "input_format_id": 0, "crop": False, "load_start_pos_w": 0, "load_start_pos_h": 0, "crop_size_w": 0,
         "crop_size_h": 0, "padding": False, "left_padding_size": 0, "right_padding_size": 0, "top_padding_size": 0,
         "bottom_padding_size": 0, **{f"mean_chn_{i}": 0 for i in range(4)}, **{f"min_chn_{i}": 0.0 for i in range(4)},
         **{f"var_reci_chn_{i}": 0.0 for i in range(4)}}  # a dynamic cfg sets none of these (UNCONFIRMED defaults)


@binding("acl.mdl.get_first_aipp_info", "Ik", needs=INIT, outs=1)
def get_first_aipp_info(api, model_id, index):
    """(dict, ret) of an input with AIPP, GE's filled-in defaults included (UNCONFIRMED that a board reports them).

    An input without AIPP gives (None, 145015 ACL_ERROR_GE_AIPP_NOT_EXIST): aclmdlGetFirstAippInfo returns
    GE's GetAippInfo code as is (acl_aipp.cpp). For dynamic AIPP (the data input and its
    ascend_dynamic_aipp_data input) only srcFormat, srcDatatype, srcDimNum, shapeCount and outDims are
    meaningful (pyACL docs); the cfg fields are what the dynamic cfg set, i.e. none.
    """
    entry, ret = _input(api, model_id, index)
    if ret:
        return None, ret
    aipp = entry.get("aipp")
    if not aipp:
        return None, fail(145015, api, f"input {index} ({entry['name']}) is not configured with AIPP (the model "
                          f"was converted without --insert_op_conf for it).")
    cfg = aipp["cfg"] if aipp["type"] == 1 else UNSET
    dims, size = aipp["src_dims"], aipp["src_size"]  # the original input; UNCONFIRMED what aippOutdims holds
    return A.first_aipp_info(cfg, dims, size, dims, size, aipp["src_format"], aipp["src_data_type"],
                             entry["name"]), 0
