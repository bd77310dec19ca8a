"""acl.mdl's AIPP queries: which inputs carry AIPP (get_aipp_type) and the static AIPP config (get_first_aipp_info).

The ATC emulator compiles static AIPP into the graph (toolchain/aipp.py) and records the cfg in the
OM header's input entry; these read it back.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ..spec import aipp as A
from ..spec.constants import ACL_DATA_WITH_STATIC_AIPP, ACL_DATA_WITHOUT_AIPP, ACL_INVALID_NODE_INDEX
from ._args import INIT, binding
from .model import models
from .state import fail


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
    """(type, dynamic_attached_data_index, ret): ACL_DATA_WITH_STATIC_AIPP (1) or WITHOUT (0); index 0xFFFFFFFF."""
    entry, ret = _input(api, model_id, index)
    if ret:
        return 0, ACL_INVALID_NODE_INDEX, ret
    kind = entry["aipp"]["type"] if entry.get("aipp") else ACL_DATA_WITHOUT_AIPP
    return kind, ACL_INVALID_NODE_INDEX, 0


@binding("acl.mdl.get_first_aipp_info", "Ik", needs=INIT, outs=1)
def get_first_aipp_info(api, model_id, index):
    """(dict, ret) of a static-AIPP input, GE's filled-in defaults included (UNCONFIRMED that a board reports them).

    An input without AIPP gives (None, 100038 ACL_ERROR_NOT_STATIC_AIPP) — code UNCONFIRMED.
    """
    entry, ret = _input(api, model_id, index)
    if ret:
        return None, ret
    aipp = entry.get("aipp")
    if not aipp or aipp["type"] != ACL_DATA_WITH_STATIC_AIPP:
        return None, fail(100038, api, f"input {index} ({entry['name']}) has no static AIPP (the model was "
                          f"converted without --insert_op_conf for it).")
    dims, size = aipp["src_dims"], aipp["src_size"]  # the original input; UNCONFIRMED what aippOutdims holds
    return A.first_aipp_info(aipp["cfg"], dims, size, dims, size, aipp["src_format"], aipp["src_data_type"],
                             entry["name"]), 0
