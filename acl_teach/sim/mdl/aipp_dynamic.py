"""acl.mdl's dynamic AIPP: the parameter set (aclmdlAIPP), its setters, and set_input_aipp writing it into the model.

Follows ACL's implementation (hicann/ge ``api/acl/acl_model/model/acl_aipp.cpp``, ``acl_aipp_om2.cpp``,
``aipp_param_check.cpp``): the setters check only their own ranges (100000 ACL_ERROR_INVALID_PARAM), and
``set_input_aipp`` checks the whole set against the model — the index must be the ascend_dynamic_aipp_data
input, the source must fit ``max_src_image_size``, the set's batch and output W x H must equal the model's,
the input format and source size must be set, crops must fit — all 100000; then GE's ``SetDynamicAippData``
copies the block (spec.aipp.DYNAMIC_HEAD + one DYNAMIC_BATCH per batch index, 64 + 96 N bytes) into that
input's data buffer (a buffer shorter than the block: 145012). ``acl.mdl.execute`` reads the block back from
the buffer and applies it (mdl/execution.py, spec.aipp.run). min and var_reci are stored as fp16 bit patterns
(ACL's Fp16Type), so the hardware uses the rounded values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from ...spec import aipp as A
from ...spec.constants import ACL_DATA_WITH_DYNAMIC_AIPP, ACL_DYNAMIC_AIPP_NODE
from ..core.args import INIT, binding
from ..base.databuffer import lookup_buffer
from .dataset import lookup_dataset
from ..media.dvpp.common import bad_handle, create, destroy, lookup
from ..rt.memory import space, write_problem
from .model import get_model
from ..core.state import fail, state

HEAD, PER_BATCH = A.DYNAMIC_HEAD.itemsize, A.DYNAMIC_BATCH.itemsize  # 64 + 96 * N (GE dynamic_aipp.h)
SWITCH = (0, 1)        # AIPP_SWITCH_OFF / ON (ACL model_common.h)
CSC_MATRIX = (-32677, 32676)
IMAGE_SIZE = (1, 4096)
PADDING = (0, 32)
MEAN_CHN = (0, 255)
MIN_CHN = (0.0, 255.0)
VR_CHN = (-65504.0, 65504.0)
PADDED_W_MAX = 1080    # GetAippOutputHW: after padding, W <= 1080 on the 310 family


@dataclass
class AippSet:
    """aclmdlAIPP: the head and one batch entry per image, held in GE's byte layout."""

    batch: int
    head: np.ndarray   # one DYNAMIC_HEAD record
    per_batch: np.ndarray  # batch DYNAMIC_BATCH records


def _aipp(api: str, handle: int) -> Tuple[Optional[AippSet], int]:
    obj = lookup(handle, AippSet)
    return obj, (0 if obj is not None else bad_handle(api, handle, "AIPP parameter set (acl.mdl.create_aipp)"))


def _batch(api: str, obj: AippSet, index: int) -> int:
    """ACL checks batch_index before anything else of a per-batch setter."""
    if index >= obj.batch:
        return fail(100000, api, f"batch_index ({index}) is greater than or equal to batch_number ({obj.batch}).")
    return 0


def _in_range(api: str, values, bounds, what: str) -> int:
    """ACL_CHECK_RANGE_INT/FLOAT: 100000 when a value is outside [lo, hi]."""
    lo, hi = bounds
    bad = [v for v in values if not lo <= v <= hi]
    return fail(100000, api, f"{what} {bad[0]} is outside [{lo}, {hi}].") if bad else 0


@binding("acl.mdl.create_aipp", "K")
def create_aipp(api, batch_size):
    """A parameter set for ``batch_size`` images, var_reci 1.0 everywhere else 0 (0 on failure: batch 0)."""
    if batch_size == 0:
        fail(100000, api, "the batchSize can't be zero (the model's batch).")
        return 0
    if batch_size > 127:  # batchNum is an int8 in the block; UNCONFIRMED that ACL refuses rather than wraps
        fail(100000, api, f"batch_size {batch_size} does not fit the block's int8 batchNum.")
        return 0
    head = np.zeros(1, A.DYNAMIC_HEAD)[0]
    head["batchNum"] = batch_size
    per_batch = np.zeros(batch_size, A.DYNAMIC_BATCH)
    per_batch["varReci"] = A.fp16_bits(1.0)
    return create(api, AippSet(batch_size, head, per_batch), "aipp set", f"batch {batch_size}")


@binding("acl.mdl.destroy_aipp", "k")
def destroy_aipp(api, aipp_parm_set):
    """Free a parameter set."""
    return destroy(api, aipp_parm_set, AippSet, "AIPP parameter set")


@binding("acl.mdl.get_aipp_data_size", "K", needs=INIT, outs=1)
def get_aipp_data_size(api, batch_size):
    """(bytes, ret): the ascend_dynamic_aipp_data block, 64 + 96 * batch (aclmdlGetAippDataSize).

    UNCONFIRMED: a batch above 127 (the block's int8 batchNum, as create_aipp) is refused with 100000
    rather than returning a size no block can have.
    """
    if batch_size == 0:
        return 0, fail(100000, api, "batch_size must be at least 1.")
    if batch_size > 127:
        return 0, fail(100000, api, f"batch_size {batch_size} does not fit the block's int8 batchNum (1..127).")
    return A.dynamic_data_size(batch_size), 0


@binding("acl.mdl.set_aipp_input_format", "kI")
def set_aipp_input_format(api, aipp_parm_set, input_format):
    """aclAippInputFormat 1..14 accepted (stored as ACL's CceAippInputFormat); set_input_aipp refuses all but 1..4."""
    obj, ret = _aipp(api, aipp_parm_set)
    if ret:
        return ret
    if input_format not in A.ACL_TO_CCE:
        return fail(100000, api, f"unsupported inputFormat[{input_format}] (aclAippInputFormat 1..14).")
    obj.head["inputFormat"] = A.ACL_TO_CCE[input_format]
    return 0


@binding("acl.mdl.set_aipp_csc_params", "kbhhhhhhhhhBBBBBB")
def set_aipp_csc_params(api, aipp_parm_set, csc_switch, r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0, r2c1, r2c2,
                        output_bias_0, output_bias_1, output_bias_2, input_bias_0, input_bias_1, input_bias_2):
    """CSC switch (0/1), 3x3 matrix in [-32677, 32676], output and input biases (uint8); off keeps the rest."""
    matrix = [r0c0, r0c1, r0c2, r1c0, r1c1, r1c2, r2c0, r2c1, r2c2]
    obj, ret = _aipp(api, aipp_parm_set)
    ret = ret or _in_range(api, [csc_switch], SWITCH, "cscSwitch")
    if ret:
        return ret
    obj.head["cscSwitch"] = csc_switch
    if not csc_switch:
        return 0
    ret = _in_range(api, matrix, CSC_MATRIX, "a CSC matrix value")
    if ret:
        return ret
    biases = [output_bias_0, output_bias_1, output_bias_2, input_bias_0, input_bias_1, input_bias_2]  # 'B' masked
    obj.head["cscMatrix"] = matrix
    obj.head["cscOutputBias"], obj.head["cscInputBias"] = biases[:3], biases[3:]
    return 0


def _switch_setter(name: str, field: str):
    @binding(f"acl.mdl.set_aipp_{name}", "kb")
    def setter(api, aipp_parm_set, value):
        obj, ret = _aipp(api, aipp_parm_set)
        ret = ret or _in_range(api, [value], SWITCH, field)
        if ret:
            return ret
        obj.head[field] = value
        return 0
    setter.__name__ = f"set_aipp_{name}"
    setter.__doc__ = f"Turn {name.replace('_', ' ')} on (1) or off (0); anything else is 100000."
    return setter


set_aipp_rbuv_swap_switch = _switch_setter("rbuv_swap_switch", "rbuvSwapSwitch")
set_aipp_ax_swap_switch = _switch_setter("ax_swap_switch", "axSwapSwitch")


@binding("acl.mdl.set_aipp_src_image_size", "kii")
def set_aipp_src_image_size(api, aipp_parm_set, src_image_size_w, src_image_size_h):
    """Mandatory: w in [2, 4096], h in [1, 4096] (evenness for YUV420SP is checked by set_input_aipp)."""
    obj, ret = _aipp(api, aipp_parm_set)
    ret = ret or _in_range(api, [src_image_size_w], (2, 4096), "srcImageSizeW") or \
        _in_range(api, [src_image_size_h], IMAGE_SIZE, "srcImageSizeH")
    if ret:
        return ret
    obj.head["srcImageSizeW"], obj.head["srcImageSizeH"] = src_image_size_w, src_image_size_h
    return 0


def _switched(api: str, handle: int, batch_index: int, switch: int, key: str) -> Tuple[Optional[dict], int]:
    """(the batch entry with its switch stored, 0), or (None, code): the prologue every per-batch setter shares."""
    obj, ret = _aipp(api, handle)
    ret = ret or _batch(api, obj, batch_index) or _in_range(api, [switch], SWITCH, key)
    if ret:
        return None, ret
    entry = obj.per_batch[batch_index]
    entry[key] = switch
    return entry, 0


@binding("acl.mdl.set_aipp_crop_params", "kbiiiiK")
def set_aipp_crop_params(api, aipp_parm_set, crop_switch, load_start_pos_w, load_start_pos_h, crop_size_w,
                         crop_size_h, batch_index):
    """Crop of one batch entry: starts in [0, 4095], sizes in [1, 4096] (fit and evenness: set_input_aipp)."""
    entry, ret = _switched(api, aipp_parm_set, batch_index, crop_switch, "cropSwitch")
    if ret or not crop_switch:
        return ret
    ret = _in_range(api, [load_start_pos_w, load_start_pos_h], (0, 4095), "a crop start") or \
        _in_range(api, [crop_size_w, crop_size_h], IMAGE_SIZE, "a crop size")
    if ret:
        return ret
    entry["crop"] = [load_start_pos_w, load_start_pos_h, crop_size_w, crop_size_h]
    return 0


@binding("acl.mdl.set_aipp_padding_params", "kbiiiiK")
def set_aipp_padding_params(api, aipp_parm_set, padding_switch, top, bottom, left, right, batch_index):
    """Padding of one batch entry: each side in [0, 32]."""
    entry, ret = _switched(api, aipp_parm_set, batch_index, padding_switch, "paddingSwitch")
    if ret or not padding_switch:
        return ret
    ret = _in_range(api, [top, bottom, left, right], PADDING, "a padding size")
    if ret:
        return ret
    entry["padding"] = [top, bottom, left, right]
    return 0


@binding("acl.mdl.set_aipp_dtc_pixel_mean", "khhhhK")
def set_aipp_dtc_pixel_mean(api, aipp_parm_set, mean_chn_0, mean_chn_1, mean_chn_2, mean_chn_3, batch_index):
    """Per-channel mean of one batch entry: int16 parsed, [0, 255] accepted."""
    means = [mean_chn_0, mean_chn_1, mean_chn_2, mean_chn_3]
    obj, ret = _aipp(api, aipp_parm_set)
    ret = ret or _batch(api, obj, batch_index) or _in_range(api, means, MEAN_CHN, "a mean")
    if ret:
        return ret
    obj.per_batch[batch_index]["mean"] = means
    return 0


def _float_setter(name: str, field: str, bounds):
    @binding(f"acl.mdl.set_aipp_{name}", "kffffK")
    def setter(api, aipp_parm_set, chn_0, chn_1, chn_2, chn_3, batch_index):
        values = [chn_0, chn_1, chn_2, chn_3]  # 'f': already C floats
        obj, ret = _aipp(api, aipp_parm_set)
        ret = ret or _batch(api, obj, batch_index) or _in_range(api, values, bounds, f"a {field} value")
        if ret:
            return ret
        obj.per_batch[batch_index][field] = [A.fp16_bits(v) for v in values]
        return 0
    setter.__name__ = f"set_aipp_{name}"
    setter.__doc__ = f"Per-channel {field} of one batch entry, in {list(bounds)}, stored as fp16 (ACL's Fp16Type)."
    return setter


set_aipp_dtc_pixel_min = _float_setter("dtc_pixel_min", "min", MIN_CHN)
set_aipp_pixel_var_reci = _float_setter("pixel_var_reci", "varReci", VR_CHN)


def _output_hw(obj: AippSet, i: int) -> Tuple[int, int]:
    """GetAippOutputHW: (W, H) batch entry ``i`` produces (crop size or source size, plus padding)."""
    entry = obj.per_batch[i]
    if entry["cropSwitch"]:
        w, h = int(entry["crop"][2]), int(entry["crop"][3])
    else:
        w, h = int(obj.head["srcImageSizeW"]), int(obj.head["srcImageSizeH"])
    if entry["paddingSwitch"]:
        t, b, l, r = (int(v) for v in entry["padding"])
        w, h = w + l + r, h + t + b
    return w, h


def _params_problem(obj: AippSet) -> str:
    """AippParamsCheck (aipp_param_check.cpp) for the 310 family: why the set is invalid, or ''."""
    fmt = int(obj.head["inputFormat"])
    w, h = int(obj.head["srcImageSizeW"]), int(obj.head["srcImageSizeH"])
    if fmt < 1:
        return "inputFormat must be set (acl.mdl.set_aipp_input_format)"
    if fmt not in (1, 2, 5, 10):
        return f"this SoC's dynamic AIPP supports only YUV420SP_U8, XRGB8888_U8, RGB888_U8, YUV400_U8 (format " \
               f"{A.CCE_TO_ACL.get(fmt)})"
    if fmt == 10 and obj.head["cscSwitch"] == 1:
        return "YUV400 does not support the CSC switch"
    if not w or not h:
        return "srcImageSizeW and srcImageSizeH must be set (acl.mdl.set_aipp_src_image_size)"
    if fmt == 1 and (w % 2 or h % 2):
        return f"srcImageSize {w}x{h} must be even for YUV420SP_U8"
    first = _output_hw(obj, 0)
    for i, entry in enumerate(obj.per_batch):
        if entry["cropSwitch"]:
            x0, y0, cw, ch = (int(v) for v in entry["crop"])
            if x0 + cw > w or y0 + ch > h:
                return f"batch {i}: the crop ({x0}, {y0}) + {cw}x{ch} runs past the {w}x{h} source"
            if fmt == 1 and (x0 % 2 or y0 % 2):
                return f"batch {i}: crop start ({x0}, {y0}) must be even for YUV420SP_U8"
        out = _output_hw(obj, i)
        if entry["paddingSwitch"] and out[0] > PADDED_W_MAX:
            return f"batch {i}: after padding the AIPP output W {out[0]} exceeds {PADDED_W_MAX}"
        if out != first:
            return f"batch {i} produces {out[0]}x{out[1]} (WxH), the first batch {first[0]}x{first[1]}: all must match"
    return ""


def _model_problem(entry: dict, obj: AippSet) -> str:
    """GetAndCheckAippParams: source size vs max_src_image_size, batch and output W x H vs the model input."""
    data = entry["aipp"]
    size = A.src_image_size(int(obj.head["inputFormat"]), obj.batch, int(obj.head["srcImageSizeW"]),
                            int(obj.head["srcImageSizeH"]))
    limit = data["cfg"]["max_src_image_size"]
    if size > limit:
        return f"the dynamic aipp size[{size}] is bigger than max_src_image_size[{limit}]"
    n, (h, w) = data["src_dims"][0], data["model_hw"]
    out_w, out_h = _output_hw(obj, 0)
    if (obj.batch, out_w, out_h) != (n, w, h):
        return (f"aipp output shape set by ACL must be equal to aipp output shape in the model! AclAippBatchSize = "
                f"{obj.batch}, AclAippOutputW = {out_w}, AclAippOutputH = {out_h}, ModelAippBatchSize = {n}, "
                f"ModelAippOutputW = {w}, ModelAippOutputH = {h}")
    return ""


def _bad(values, lo, hi) -> list:
    """The values outside [lo, hi] (NaN included), as Python numbers."""
    return [v for v in (float(x) for x in np.ravel(values)) if not lo <= v <= hi]


def _field_problem(head, batches) -> str:
    """Why a block's fields are outside what the setters accept (a hand-made or memset block), or ''."""
    limits = [("srcImageSizeW", head["srcImageSizeW"], (2, 4096)), ("srcImageSizeH", head["srcImageSizeH"],
              IMAGE_SIZE)] + [(key, head[key], SWITCH) for key in ("cscSwitch", "rbuvSwapSwitch", "axSwapSwitch")]
    if head["cscSwitch"] == 1:
        limits.append(("a CSC matrix value", head["cscMatrix"], CSC_MATRIX))
    for i, b in enumerate(batches):
        limits += [(f"batch {i} {key}", b[key], SWITCH) for key in ("cropSwitch", "paddingSwitch")]
        if b["cropSwitch"] == 1:
            limits += [(f"batch {i} crop start", b["crop"][:2], (0, 4095)),
                       (f"batch {i} crop size", b["crop"][2:], IMAGE_SIZE)]
        if b["paddingSwitch"] == 1:
            limits.append((f"batch {i} padding", b["padding"], PADDING))
        limits += [(f"batch {i} mean", b["mean"], MEAN_CHN), (f"batch {i} min", A.fp16_value(b["min"]), MIN_CHN),
                   (f"batch {i} var_reci", A.fp16_value(b["varReci"]), VR_CHN)]
    for what, values, (lo, hi) in limits:
        bad = _bad(values, lo, hi)
        if bad:
            return f"{what} {bad[0]:g} is outside [{lo}, {hi}]"
    return ""


def block_problem(entry: dict, head, batches) -> str:
    """Why an ascend_dynamic_aipp_data block read back at execute is not one set_input_aipp could have written.

    Every size is checked before anything is sized from it (a memset or hand-made block asked execute for
    petabytes): the setters' ranges, then set_input_aipp's own checks against the model.
    """
    why = _field_problem(head, batches)
    if why:
        return why
    obj = AippSet(len(batches), head, batches)
    return _params_problem(obj) or _model_problem(entry, obj)


def _write_block(api: str, dataset: int, index: int, obj: AippSet) -> int:
    """GE's SetDynamicAippData: the block copied into the dataset's buffer ``index`` (145012 if it is too short)."""
    ds = lookup_dataset(dataset)
    buf = lookup_buffer(ds.buffers[index]) if ds is not None and index < len(ds.buffers) else None
    if buf is None:
        return fail(100000, api, f"failed to get data buffer by index[{index}]: add the "
                    f"{A.DYNAMIC_DATA_NAME} buffer to the dataset first.")
    if buf.addr == 0:
        return fail(100000, api, f"failed to get addr by index[{index}] (the data buffer points at 0).")
    block = obj.head.tobytes() + obj.per_batch.tobytes()
    if len(block) > buf.size:
        return fail(145012, api, f"input dynamic aipp param len [{len(block)}] is larger than aipp_data size "
                    f"[{buf.size}].")
    region, offset, why = space().resolve(buf.addr, len(block))
    refusal = why or write_problem(region, f"the {A.DYNAMIC_DATA_NAME} buffer")[0]
    if refusal:
        return fail(107000, api, f"the {A.DYNAMIC_DATA_NAME} buffer: {refusal}.")
    region.view(offset, len(block))[:] = np.frombuffer(block, np.uint8)
    return 0


def _aipp_input(inputs, index: int) -> Tuple[Optional[dict], str]:
    """CheckAippDataIndex: the entry when ``index`` is the dynamic-AIPP node input, else why not."""
    kind = (inputs[index].get("aipp") or {}).get("type", 0)
    if kind == ACL_DYNAMIC_AIPP_NODE:
        linked = next(e for e in inputs if (e.get("aipp") or {}).get("type") == ACL_DATA_WITH_DYNAMIC_AIPP)
        return linked, ""
    names = [e["name"] for e in inputs]
    if kind == 0 and A.DYNAMIC_DATA_NAME not in names:
        return None, f"the model is not a dynamic aipp model, there is no {A.DYNAMIC_DATA_NAME} input"
    return None, (f"index[{index}] entered by the user is not the dynamic aipp data index "
                  f"[{names.index(A.DYNAMIC_DATA_NAME) if A.DYNAMIC_DATA_NAME in names else '-'}]")


def _model_inputs(api: str, model_id: int, index: int) -> Tuple[Optional[list], int]:
    """(the loaded model's inputs, 0) when ``index`` is one of them, else (None, the code ACL returns)."""
    loaded, ret = get_model(api, model_id)
    if ret:
        return None, ret
    inputs = loaded.model.inputs
    if index >= len(inputs):
        return None, fail(100000, api, f"index[{index}] should be smaller than {len(inputs)}.")
    return inputs, 0


@binding("acl.mdl.set_input_aipp", "Ikkk", needs=INIT)
def set_input_aipp(api, model_id, dataset, index, aipp_parm_set):
    """Check the set against the model and write it into the dataset's ascend_dynamic_aipp_data buffer ``index``."""
    if dataset == 0 or lookup_dataset(dataset) is None:
        return fail(100000, api, f"{state().describe_handle(dataset)} is not a live aclmdlDataset.")
    obj, ret = _aipp(api, aipp_parm_set)
    inputs, ret = (None, ret) if ret else _model_inputs(api, model_id, index)
    if ret:
        return ret
    linked, why = _aipp_input(inputs, index)
    why = why or _model_problem(linked, obj) or _params_problem(obj)
    if why:
        return fail(100000, api, f"Dynamic AIPP: {why}.")
    return _write_block(api, dataset, index, obj)


@binding("acl.mdl.set_aipp_by_input_index", "Ikkk", needs=INIT)
def set_aipp_by_input_index(api, model_id, dataset, index, aipp_parm_set):
    """Same, naming the data input that dynamic AIPP is linked to (any other input: 500001 ACL_ERROR_FAILURE)."""
    obj, ret = _aipp(api, aipp_parm_set)
    if ret:
        return ret
    ds = lookup_dataset(dataset) if dataset else None
    if ds is None or index >= len(ds.buffers):
        return fail(100000, api, f"input param is invalid, dataset {state().describe_handle(dataset)}, "
                    f"index[{index}].")
    inputs, ret = _model_inputs(api, model_id, index)
    if ret:
        return ret
    aipp = inputs[index].get("aipp") or {}
    if aipp.get("type") != ACL_DATA_WITH_DYNAMIC_AIPP:
        return fail(500001, api, f"input {index} has no dynamic aipp linked.")
    node = [e["name"] for e in inputs].index(A.DYNAMIC_DATA_NAME)
    return set_input_aipp(model_id, dataset, node, aipp_parm_set)
