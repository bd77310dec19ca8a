"""AIPP facts shared by the ATC emulator and the simulator: the cfg schema, GE's defaults, input sizes, the
dynamic-AIPP parameter block, and AIPP itself in numpy (``run``, what dynamic AIPP executes).

Sources: ATC's AIPP config template, GE ge_aipp_op.cc / aipp_op.cc (defaults, the extra input),
GE inc/common/dynamic_aipp.h (the block), ACL acl_aipp*.cpp (fp16 storage, format codes), acl_mdl.h
(enums); docs/dvpp.md summarises them.
"""
from __future__ import annotations

from typing import Any, Dict, List

import numpy as np

# cfg input_format names -> aclAippInputFormat (the OM stores 1..4)
INPUT_FORMATS = {"YUV420SP_U8": 1, "XRGB8888_U8": 2, "RGB888_U8": 3, "YUV400_U8": 4}
MODES = {"static": 1, "dynamic": 2}

MATRIX_KEYS = [f"matrix_r{r}c{c}" for r in range(3) for c in range(3)]
BOOL_KEYS = ("crop", "csc_switch", "rbuv_swap_switch", "ax_swap_switch", "padding", "resize", "single_line_mode",
             "support_rotation")
INT_KEYS = ("related_input_rank", "src_image_size_w", "src_image_size_h", "load_start_pos_w", "load_start_pos_h",
            "crop_size_w", "crop_size_h", "left_padding_size", "right_padding_size", "top_padding_size",
            "bottom_padding_size", "resize_output_w", "resize_output_h", "max_src_image_size", "rotation_angle",
            *MATRIX_KEYS, "input_bias_0", "input_bias_1", "input_bias_2", "output_bias_0", "output_bias_1",
            "output_bias_2", "mean_chn_0", "mean_chn_1", "mean_chn_2", "mean_chn_3")
FLOAT_KEYS = ("min_chn_0", "min_chn_1", "min_chn_2", "min_chn_3", "var_reci_chn_0", "var_reci_chn_1",
              "var_reci_chn_2", "var_reci_chn_3", "padding_value", "cpadding_value")
STR_KEYS = ("aipp_mode", "input_format", "related_input_name")
KEYS = frozenset(BOOL_KEYS + INT_KEYS + FLOAT_KEYS + STR_KEYS)

# GE SetCscDefaultValue: YUV -> BGR (rows produce B, G, R) with input bias 16/128/128; RGB -> YUV otherwise
YUV2RGB_DEFAULT = [298, 516, 0, 298, -100, -208, 298, 0, 409]
RGB2YUV_DEFAULT = [66, 129, 25, -38, -74, 112, 112, -94, -18]
BIAS_DEFAULT = [16, 128, 128]

DEFAULTS: Dict[str, Any] = {"related_input_rank": 0, "src_image_size_w": 0, "src_image_size_h": 0, "crop": False,
                            "load_start_pos_w": 0, "load_start_pos_h": 0, "crop_size_w": 0, "crop_size_h": 0,
                            "padding": False, "left_padding_size": 0, "right_padding_size": 0,
                            "top_padding_size": 0, "bottom_padding_size": 0, "padding_value": 0.0,
                            "csc_switch": False, "rbuv_swap_switch": False, "ax_swap_switch": False,
                            "resize": False, "resize_output_w": 0, "resize_output_h": 0,
                            **{f"mean_chn_{i}": 0 for i in range(4)}, **{f"min_chn_{i}": 0.0 for i in range(4)},
                            **{f"var_reci_chn_{i}": 1.0 for i in range(4)}}

# bytes per pixel of the AIPP input buffer (tightly packed src_image_size_w x _h)
BYTES_PER_PIXEL = {1: 1.5, 2: 4, 3: 3, 4: 1}
CHANNELS = {1: 3, 2: 4, 3: 3, 4: 1}


def input_size(fmt: int, n: int, w: int, h: int) -> int:
    """Model input bytes after AIPP: N x src_w x src_h x {1.5 YUV420SP, 4 XRGB, 3 RGB, 1 YUV400}."""
    return int(n * w * h * BYTES_PER_PIXEL[fmt])


def v2_dims(fmt: int, n: int, w: int, h: int) -> List[int]:
    """get_input_dims_v2 of an AIPP input: [n, h*1.5, w, 1] for YUV420SP (product = size), else [n, h, w, c]."""
    return [n, h * 3 // 2, w, 1] if fmt == 1 else [n, h, w, CHANNELS[fmt]]


def first_aipp_info(cfg: Dict[str, Any], src_dims: List[int], src_size: int, out_dims: List[int],
                    out_size: int, src_format: int, src_dtype: int, name: str) -> Dict[str, Any]:
    """The dict acl.mdl.get_first_aipp_info returns (keys of the 2026 binding; matrixR0C2/R2C0/R2C1 are
    missing there, a binding quirk reproduced as is)."""
    m = cfg["matrix"]
    info: Dict[str, Any] = {
        "cscSwitch": int(cfg["csc_switch"]), "matrixR0C0": m[0], "matrixR0C1": m[1], "matrixR1C0": m[3],
        "matrixR1C1": m[4], "matrixR1C2": m[5], "matrixR2C2": m[8],
        **{f"outputBias{i}": cfg["output_bias"][i] for i in range(3)},
        **{f"inputBias{i}": cfg["input_bias"][i] for i in range(3)},
        "rbuvSwapSwitch": int(cfg["rbuv_swap_switch"]), "axSwapSwitch": int(cfg["ax_swap_switch"]),
        "singleLineMode": 0, "srcImageSizeW": cfg["src_image_size_w"], "srcImageSizeH": cfg["src_image_size_h"],
        "srcFormat": src_format, "srcDatatype": src_dtype, "srcDimNum": len(src_dims), "shapeCount": 1,
        "inputFormat": cfg["input_format_id"], "aippExtend": 0, "cropSwitch": int(cfg["crop"]),
        "loadStartPosW": cfg["load_start_pos_w"], "loadStartPosH": cfg["load_start_pos_h"],
        "cropSizeW": cfg["crop_size_w"], "cropSizeH": cfg["crop_size_h"], "resizeSwitch": 0, "resizeOutputW": 0,
        "resizeOutputH": 0, "paddingSwitch": int(cfg["padding"]), "leftPaddingSize": cfg["left_padding_size"],
        "rightPaddingSize": cfg["right_padding_size"], "topPaddingSize": cfg["top_padding_size"],
        "bottomPaddingSize": cfg["bottom_padding_size"],
        **{f"meanChn{i}": cfg[f"mean_chn_{i}"] for i in range(4)},
        **{f"minChn{i}": float(cfg[f"min_chn_{i}"]) for i in range(4)},
        **{f"varReciChn{i}": float(cfg[f"var_reci_chn_{i}"]) for i in range(4)},
        "outDims": [{"srcDims": {"name": name, "dimCount": len(src_dims), "dims": list(src_dims)},
                     "srcSize": src_size,
                     "aippOutdims": {"name": name, "dimCount": len(out_dims), "dims": list(out_dims)},
                     "aippOutSize": out_size}]}
    return info


# ---- dynamic AIPP (aipp_mode: dynamic) ---------------------------------------------------------------------------
# The parameter block ACL writes into the ascend_dynamic_aipp_data input (GE inc/common/dynamic_aipp.h,
# kAippDynamicPara without its embedded batch entry, then one kAippDynamicBatchPara per batch index), little-endian.
DYNAMIC_HEAD = np.dtype([("inputFormat", "u1"), ("cscSwitch", "i1"), ("rbuvSwapSwitch", "i1"), ("axSwapSwitch", "i1"),
                         ("batchNum", "i1"), ("reserve1", "V3"), ("srcImageSizeW", "<i4"), ("srcImageSizeH", "<i4"),
                         ("cscMatrix", "<i2", (9,)), ("reserve2", "V6"), ("cscOutputBias", "u1", (3,)),
                         ("cscInputBias", "u1", (3,)), ("reserve3", "V18")])
DYNAMIC_BATCH = np.dtype([("cropSwitch", "i1"), ("scfSwitch", "i1"), ("paddingSwitch", "i1"), ("rotateSwitch", "i1"),
                          ("reserve", "V4"), ("crop", "<i4", (4,)), ("scf", "<i4", (4,)), ("padding", "<i4", (4,)),
                          ("mean", "<i2", (4,)), ("min", "<u2", (4,)), ("varReci", "<u2", (4,)), ("reserve1", "V16")])
assert DYNAMIC_HEAD.itemsize == 64 and DYNAMIC_BATCH.itemsize == 96
# the extra model input ATC adds for aipp_mode: dynamic (GE aipp_op.cc kDynamicAippData, CalcMaxSize)
DYNAMIC_DATA_NAME = "ascend_dynamic_aipp_data"
# aclAippInputFormat -> the CceAippInputFormat ACL stores in the block (ACL model_desc_internal.h)
ACL_TO_CCE = {1: 1, 2: 2, 3: 5, 4: 10, 5: 3, 6: 4, 7: 6, 8: 7, 9: 8, 10: 9, 11: 11, 12: 12, 13: 13, 14: 16}
CCE_TO_ACL = {v: k for k, v in ACL_TO_CCE.items()}
CCE_BYTES_PER_PIXEL = {1: 1.5, 2: 4, 5: 3, 10: 1, 6: 4, 7: 2, 8: 2, 9: 4, 11: 2, 12: 2, 13: 2, 16: 4}
# cfg keys a dynamic aipp_op block may carry (everything else is set at run time by acl.mdl.set_aipp_*)
DYNAMIC_KEYS = frozenset({"aipp_mode", "related_input_rank", "related_input_name", "max_src_image_size",
                          "support_rotation"})


def dynamic_data_size(batch: int) -> int:
    """Bytes of ascend_dynamic_aipp_data for a batch of N: sizeof(kAippDynamicPara) + (N - 1) * 96 = 64 + 96 N."""
    return DYNAMIC_HEAD.itemsize + DYNAMIC_BATCH.itemsize * batch


def src_image_size(cce_format: int, batch: int, w: int, h: int) -> int:
    """ACL's GetSrcImageSize: bytes of the batch's source images (0 for a format it does not size)."""
    return int(batch * w * h * CCE_BYTES_PER_PIXEL.get(cce_format, 0))


def fp16_bits(value: float) -> int:
    """ACL's Fp16Type: a float as the uint16 bit pattern of the nearest half (round to nearest even)."""
    return int(np.array(value, np.float32).astype(np.float16).view(np.uint16))


def fp16_value(bits) -> np.ndarray:
    """The float32 values of half-precision bit patterns."""
    return np.asarray(bits, np.uint16).view(np.float16).astype(np.float32)


def cfg_from_block(head, batch) -> Dict[str, Any]:
    """One batch entry of a dynamic-AIPP block as the normalised cfg the static path uses (``run`` reads it)."""
    fmt = CCE_TO_ACL.get(int(head["inputFormat"]), 0)
    w, h = int(head["srcImageSizeW"]), int(head["srcImageSizeH"])
    crop = bool(batch["cropSwitch"])
    x0, y0, cw, ch = (int(v) for v in batch["crop"]) if crop else (0, 0, w, h)
    pad = bool(batch["paddingSwitch"])
    mins, varis = fp16_value(batch["min"]), fp16_value(batch["varReci"])
    cfg = {"input_format_id": fmt, "src_image_size_w": w, "src_image_size_h": h, "crop": crop,
           "load_start_pos_w": x0, "load_start_pos_h": y0, "crop_size_w": cw, "crop_size_h": ch,
           "csc_switch": bool(head["cscSwitch"]), "matrix": [int(v) for v in head["cscMatrix"]],
           "input_bias": [int(v) for v in head["cscInputBias"]], "output_bias": [int(v) for v in head["cscOutputBias"]],
           "rbuv_swap_switch": bool(head["rbuvSwapSwitch"]), "ax_swap_switch": bool(head["axSwapSwitch"]),
           "padding": pad, "pads": [int(v) for v in batch["padding"]] if pad else [0, 0, 0, 0],
           "padding_value": 0.0}  # UNCONFIRMED: no dynamic padding value exists; 0 as the cfg's default
    for i in range(4):
        cfg[f"mean_chn_{i}"] = int(batch["mean"][i])
        cfg[f"min_chn_{i}"] = float(mins[i])
        cfg[f"var_reci_chn_{i}"] = float(varis[i])
    return cfg


def _planes(data: np.ndarray, cfg: Dict[str, Any]) -> np.ndarray:
    """One tightly packed source image as float channels [C, h, w] (YUV: Y, U, V; RGB: R, G, B), swaps applied."""
    fmt, w, h = cfg["input_format_id"], cfg["src_image_size_w"], cfg["src_image_size_h"]
    if fmt == 1:
        y = data[:h * w].reshape(h, w)
        uv = data[h * w:h * w * 3 // 2].reshape(h // 2, w // 2, 2).repeat(2, 0).repeat(2, 1)
        u, v = uv[..., 0], uv[..., 1]
        return np.stack([y, v, u] if cfg["rbuv_swap_switch"] else [y, u, v]).astype(np.float32)
    if fmt == 4:
        return data[:h * w].reshape(1, h, w).astype(np.float32)
    c = 3 if fmt == 3 else 4
    img = data[:h * w * c].reshape(h, w, c).transpose(2, 0, 1)
    if fmt == 2:  # XRGB: the X byte first (UNCONFIRMED), ax_swap_switch means RGBX
        img = img[:3] if cfg["ax_swap_switch"] else img[1:]
    if cfg["rbuv_swap_switch"]:
        img = img[::-1]
    return img.astype(np.float32)


def run(data: np.ndarray, cfg: Dict[str, Any]) -> np.ndarray:
    """AIPP of one image in numpy, the hardware's order: swap -> crop -> CSC -> (x - mean - min) * var_reci -> padding.

    The same arithmetic as the ONNX ops the ATC emulator compiles for static AIPP (toolchain/aipp.py):
    CSC is ``(M . (x - input_bias)) >> 8`` for YUV input, ``(M . x) >> 8 + output_bias`` for RGB input, then
    clipped to 0..255 (UNCONFIRMED rounding/saturation); float32 DTC. Returns float32 [C, H, W].
    """
    img = _planes(np.asarray(data, np.uint8), cfg)
    if cfg["crop"]:
        x0, y0 = cfg["load_start_pos_w"], cfg["load_start_pos_h"]
        img = img[:, y0:y0 + cfg["crop_size_h"], x0:x0 + cfg["crop_size_w"]]
    c = img.shape[0]
    if cfg["csc_switch"] and c == 3:
        m = np.array(cfg["matrix"], np.int64).reshape(3, 3)
        x = img.astype(np.int64)
        if cfg["input_format_id"] in (1, 4):
            x = x - np.array(cfg["input_bias"], np.int64).reshape(3, 1, 1)
        q = np.einsum("ij,jhw->ihw", m, x) // 256
        if cfg["input_format_id"] not in (1, 4):
            q = q + np.array(cfg["output_bias"], np.int64).reshape(3, 1, 1)
        img = np.clip(q, 0, 255).astype(np.float32)
    mean = np.array([cfg[f"mean_chn_{i}"] + cfg[f"min_chn_{i}"] for i in range(c)], np.float32).reshape(c, 1, 1)
    var = np.array([cfg[f"var_reci_chn_{i}"] for i in range(c)], np.float32).reshape(c, 1, 1)
    img = (img - mean) * var
    if cfg["padding"]:
        t, b, l, r = cfg["pads"]
        img = np.pad(img, ((0, 0), (t, b), (l, r)), constant_values=np.float32(cfg["padding_value"]))
    return img.astype(np.float32)
