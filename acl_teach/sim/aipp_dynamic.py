"""acl.mdl's dynamic-AIPP parameter set (aclmdlAIPP): create_aipp, the set_aipp_* setters with their documented ranges.

The setters validate what the pyACL pages document (100000 otherwise). The ATC emulator does not build
dynamic-AIPP models yet (aipp_mode: dynamic is an ATC error), so set_input_aipp / set_aipp_by_input_index
find no ascend_dynamic_aipp_data input and return 100000 (UNCONFIRMED code).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List

from ..spec.constants import ACL_DYNAMIC_AIPP_NAME
from ._args import INIT, binding
from .dvpp_common import bad_handle, create, destroy, lookup
from .model import models
from .state import fail

HEAD, PER_BATCH = 64, 96  # bytes of the parameter block: 64 + 96 * N for the 310 family (GE dynamic_aipp.h)


@dataclass
class AippSet:
    """The parameters a dynamic-AIPP input will apply: a head plus one entry per batch index."""

    batch: int
    head: Dict[str, Any] = field(default_factory=dict)
    per_batch: List[Dict[str, Any]] = field(default_factory=list)


def _small(value: int, lo: int, hi: int, what: str) -> None:
    """PyArg_ParseTuple's 'b' (0..255) / 'h' (int16) range checks (OverflowError), for args parsed as 'i' here."""
    if not lo <= value <= hi:
        raise OverflowError(f"{what} is {'less than minimum' if value < lo else 'greater than maximum'}")


def _float(value: Any) -> float:
    """PyArg_ParseTuple's 'f': any number, else TypeError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    return float(value)


def _aipp(api: str, handle: int):
    obj = lookup(handle, AippSet)
    return obj, (0 if obj is not None else bad_handle(api, handle, "AIPP parameter set (acl.mdl.create_aipp)"))


def _batch(api: str, obj: AippSet, index: int) -> int:
    if index >= obj.batch:
        return fail(100000, api, f"batch_index {index} is out of range (the set was created for {obj.batch}).")
    return 0


@binding("acl.mdl.create_aipp", "K")
def create_aipp(api, batch_size):
    """A parameter set for ``batch_size`` images (0 on failure; batch 0 -> 0, UNCONFIRMED)."""
    if batch_size == 0:
        fail(100000, api, "batch_size must be at least 1 (the model's batch).")
        return 0
    return create(api, AippSet(batch_size, per_batch=[{} for _ in range(batch_size)]), "aipp set",
                  f"batch {batch_size}")


@binding("acl.mdl.destroy_aipp", "k")
def destroy_aipp(api, aipp_parm_set):
    """Free a parameter set."""
    return destroy(api, aipp_parm_set, AippSet, "AIPP parameter set")


@binding("acl.mdl.get_aipp_data_size", "K", needs=INIT, outs=1)
def get_aipp_data_size(api, batch_size):
    """(bytes, ret): the ascend_dynamic_aipp_data block, 64 + 96 * batch (UNCONFIRMED that the API says exactly so)."""
    if batch_size == 0:
        return 0, fail(100000, api, "batch_size must be at least 1.")
    return HEAD + PER_BATCH * batch_size, 0


@binding("acl.mdl.set_aipp_input_format", "kI")
def set_aipp_input_format(api, aipp_parm_set, input_format):
    """aclAippInputFormat 1..4 (YUV420SP_U8, XRGB8888_U8, RGB888_U8, YUV400_U8); 5..14 are not supported."""
    obj, ret = _aipp(api, aipp_parm_set)
    if ret:
        return ret
    if input_format not in (1, 2, 3, 4):
        return fail(100000, api, f"input format {input_format}: static and dynamic AIPP take 1..4 only.")
    obj.head["input_format"] = input_format
    return 0


@binding("acl.mdl.set_aipp_csc_params", "kiiiiiiiiiiiiiiii")
def set_aipp_csc_params(api, aipp_parm_set, csc_switch, r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0, r2c1, r2c2,
                        output_bias_0, output_bias_1, output_bias_2, input_bias_0, input_bias_1, input_bias_2):
    """CSC switch, 3x3 int16 matrix, output and input biases (uint8), as the cfg's keys."""
    _small(csc_switch, 0, 255, "unsigned byte integer")
    matrix = [r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0, r2c1, r2c2]
    for value in matrix:
        _small(value, -32768, 32767, "signed short integer")
    obj, ret = _aipp(api, aipp_parm_set)
    if ret:
        return ret
    biases = [b & 0xFF for b in (output_bias_0, output_bias_1, output_bias_2, input_bias_0, input_bias_1,
                                 input_bias_2)]  # 'B' masks, as CPython does
    obj.head.update(csc_switch=csc_switch, matrix=matrix, output_bias=biases[:3], input_bias=biases[3:])
    return 0


def _switch_setter(name: str):
    @binding(f"acl.mdl.set_aipp_{name}", "ki")
    def setter(api, aipp_parm_set, value):
        _small(value, 0, 255, "unsigned byte integer")
        obj, ret = _aipp(api, aipp_parm_set)
        if ret:
            return ret
        obj.head[name] = value
        return 0
    setter.__name__ = f"set_aipp_{name}"
    setter.__doc__ = f"Turn {name.replace('_', ' ')} on (1) or off (0)."
    return setter


set_aipp_rbuv_swap_switch = _switch_setter("rbuv_swap_switch")
set_aipp_ax_swap_switch = _switch_setter("ax_swap_switch")


@binding("acl.mdl.set_aipp_src_image_size", "kii")
def set_aipp_src_image_size(api, aipp_parm_set, src_image_size_w, src_image_size_h):
    """Mandatory: w in [2, 4096], h in [1, 4096], both even for YUV420SP_U8."""
    obj, ret = _aipp(api, aipp_parm_set)
    if ret:
        return ret
    w, h = src_image_size_w, src_image_size_h
    yuv = obj.head.get("input_format") == 1
    if not (2 <= w <= 4096 and 1 <= h <= 4096) or (yuv and (w % 2 or h % 2)):
        return fail(100000, api, f"source size {w}x{h}: w in [2, 4096], h in [1, 4096], even for YUV420SP_U8.")
    obj.head.update(src_w=w, src_h=h)
    return 0


@binding("acl.mdl.set_aipp_crop_params", "kiiiiiK")
def set_aipp_crop_params(api, aipp_parm_set, crop_switch, load_start_pos_w, load_start_pos_h, crop_size_w,
                         crop_size_h, batch_index):
    """Crop of one batch entry: starts in [0, 4095] (even for YUV420SP), sizes in [1, 4096]."""
    _small(crop_switch, 0, 255, "unsigned byte integer")
    obj, ret = _aipp(api, aipp_parm_set)
    ret = ret or _batch(api, obj, batch_index)
    if ret:
        return ret
    if crop_switch:
        x0, y0, cw, ch = load_start_pos_w, load_start_pos_h, crop_size_w, crop_size_h
        yuv = obj.head.get("input_format") == 1
        if not (0 <= x0 <= 4095 and 0 <= y0 <= 4095 and 1 <= cw <= 4096 and 1 <= ch <= 4096) or \
                (yuv and (x0 % 2 or y0 % 2)):
            return fail(100000, api, f"crop ({x0}, {y0}) {cw}x{ch}: starts in [0, 4095] (even for YUV420SP_U8), "
                        f"sizes in [1, 4096].")
    obj.per_batch[batch_index].update(crop=(crop_switch, load_start_pos_w, load_start_pos_h, crop_size_w,
                                            crop_size_h))
    return 0


@binding("acl.mdl.set_aipp_padding_params", "kiiiiiK")
def set_aipp_padding_params(api, aipp_parm_set, padding_switch, top, bottom, left, right, batch_index):
    """Padding of one batch entry: each side in [0, 32]."""
    _small(padding_switch, 0, 255, "unsigned byte integer")
    obj, ret = _aipp(api, aipp_parm_set)
    ret = ret or _batch(api, obj, batch_index)
    if ret:
        return ret
    if padding_switch and not all(0 <= v <= 32 for v in (top, bottom, left, right)):
        return fail(100000, api, "padding sizes must be in [0, 32].")
    obj.per_batch[batch_index].update(padding=(padding_switch, top, bottom, left, right))
    return 0


@binding("acl.mdl.set_aipp_dtc_pixel_mean", "kiiiiK")
def set_aipp_dtc_pixel_mean(api, aipp_parm_set, mean_chn_0, mean_chn_1, mean_chn_2, mean_chn_3, batch_index):
    """Per-channel mean (int16) of one batch entry."""
    means = [mean_chn_0, mean_chn_1, mean_chn_2, mean_chn_3]
    for value in means:
        _small(value, -32768, 32767, "signed short integer")
    obj, ret = _aipp(api, aipp_parm_set)
    ret = ret or _batch(api, obj, batch_index)
    if ret:
        return ret
    obj.per_batch[batch_index]["mean"] = means
    return 0


def _float_setter(name: str, key: str):
    @binding(f"acl.mdl.set_aipp_{name}", "kOOOOK")
    def setter(api, aipp_parm_set, chn_0, chn_1, chn_2, chn_3, batch_index):
        values = [_float(v) for v in (chn_0, chn_1, chn_2, chn_3)]
        obj, ret = _aipp(api, aipp_parm_set)
        ret = ret or _batch(api, obj, batch_index)
        if ret:
            return ret
        obj.per_batch[batch_index][key] = values
        return 0
    setter.__name__ = f"set_aipp_{name}"
    setter.__doc__ = f"Per-channel {key} (float) of one batch entry."
    return setter


set_aipp_dtc_pixel_min = _float_setter("dtc_pixel_min", "min")
set_aipp_pixel_var_reci = _float_setter("pixel_var_reci", "var_reci")


def _attach(api: str, model_id: int, index: int, aipp_parm_set: int, by_data_input: bool) -> int:
    obj, ret = _aipp(api, aipp_parm_set)
    if ret:
        return ret
    loaded = models().loaded.get(model_id)
    if loaded is None:
        return fail(100000, api, f"model id {model_id} is not a loaded model.")
    inputs = loaded.model.inputs
    entry = inputs[index] if 0 <= index < len(inputs) else None
    what = "a data input with dynamic AIPP" if by_data_input else f"the {ACL_DYNAMIC_AIPP_NAME} input"
    if entry is None or (entry.get("aipp") or {}).get("type") != 2:
        return fail(100000, api, f"input {index} is not {what}: the model has no dynamic AIPP (convert it with "
                    f"aipp_mode: dynamic; acl-teach's ATC does not build such models yet). UNCONFIRMED code.")
    return fail(200006, api, "dynamic AIPP execution is not simulated yet.")  # unreachable until ATC builds them


@binding("acl.mdl.set_input_aipp", "Ikkk", needs=INIT)
def set_input_aipp(api, model_id, dataset, index, aipp_parm_set):
    """Bind the parameters to the dataset's ascend_dynamic_aipp_data input ``index``."""
    return _attach(api, model_id, index, aipp_parm_set, False)


@binding("acl.mdl.set_aipp_by_input_index", "Ikkk", needs=INIT)
def set_aipp_by_input_index(api, model_id, dataset, index, aipp_parm_set):
    """Same, naming the data input that dynamic AIPP is linked to."""
    return _attach(api, model_id, index, aipp_parm_set, True)
