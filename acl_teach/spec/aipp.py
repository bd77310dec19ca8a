"""Static AIPP facts shared by the ATC emulator and the simulator: the cfg schema, GE's defaults, input sizes.

Sources: ATC's AIPP config template, GE ge_aipp_op.cc (defaults), acl_mdl.h (enums); docs/dvpp.md
summarises them.
"""
from __future__ import annotations

from typing import Any, Dict, List

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
