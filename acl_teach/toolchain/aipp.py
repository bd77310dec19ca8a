"""ATC's ``--insert_op_conf``: parse an AIPP cfg, fill GE's defaults, and compile static AIPP into the graph.

The emulator prepends AIPP as ONNX ops, so the simulator's execute needs nothing new: the model
input becomes the uint8 image (YUV420SP: ``[N, H*3/2, W, 1]``, 1.5 bytes a pixel) and the ops apply,
in the hardware's order, rbuv_swap -> crop -> CSC (the cfg's matrix and biases, ``>> 8``, clipped
to 0..255; UNCONFIRMED rounding) -> (x - mean_chn - min_chn) * var_reci_chn -> padding, before the
original graph. Chroma of YUV420SP is upsampled by repetition (UNCONFIRMED: the AIPP's filter is
unpublished). Dynamic AIPP is not emulated (ATC error).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

import numpy as np

from ..spec import aipp as A
from ..spec import dtypes
from ..spec.constants import ACL_FORMAT_NHWC, ACL_UINT8


class AippError(ValueError):
    """The cfg is malformed or does not fit the model (ATC refuses it)."""


def _value(key: str, raw: str) -> Any:
    raw = raw.strip().strip('"').strip("'")
    if key in A.BOOL_KEYS:
        if raw.lower() in ("true", "1"):
            return True
        if raw.lower() in ("false", "0"):
            return False
        raise AippError(f"E10001: {key} : {raw} — expected true or false.")
    try:
        if key in A.INT_KEYS:
            return int(raw)
        if key in A.FLOAT_KEYS:
            return float(raw)
    except ValueError:
        raise AippError(f"E10001: {key} : {raw} — expected a number.") from None
    return raw


def parse(text: str) -> List[Dict[str, Any]]:
    """The aipp_op blocks of a cfg as {key: value} dicts (a key given twice is refused, as GE does)."""
    text = re.sub(r"#[^\n]*", "", text)
    blocks = re.findall(r"aipp_op\s*\{([^{}]*)\}", text)
    if not blocks:
        raise AippError("E10001: the insert_op_conf file has no aipp_op { ... } block.")
    out = []
    for body in blocks:
        cfg: Dict[str, Any] = {}
        for key, raw in re.findall(r"(\w+)\s*:\s*([^\s]+)", body):
            if key not in A.KEYS:
                raise AippError(f"E10001: unknown AIPP parameter [{key}].")
            if key in cfg:
                raise AippError(f"E10001: AIPP parameter [{key}] is given more than once.")
            cfg[key] = _value(key, raw)
        out.append(cfg)
    return out


def normalise(raw: Dict[str, Any], model_h: int, model_w: int) -> Dict[str, Any]:
    """GE's defaults filled in and the template's rules checked, for a model input of model_h x model_w."""
    mode = raw.get("aipp_mode")
    if mode not in A.MODES:
        raise AippError("E10001: aipp_mode must be set to static or dynamic.")
    if mode == "dynamic":
        raise AippError("dynamic AIPP (aipp_mode: dynamic) is not emulated by acl-teach's ATC yet.")
    if raw.get("input_format") not in A.INPUT_FORMATS:
        raise AippError(f"E10001: static AIPP needs input_format: one of {', '.join(A.INPUT_FORMATS)}.")
    cfg = {**A.DEFAULTS, **raw}
    fmt = cfg["input_format_id"] = A.INPUT_FORMATS[cfg["input_format"]]
    yuv = fmt in (1, 4)
    if not cfg["src_image_size_w"] or not cfg["src_image_size_h"]:
        if cfg["crop"] or cfg["padding"]:
            raise AippError("E10001: src_image_size_w/h may be 0 only when crop and padding are off.")
        cfg["src_image_size_w"], cfg["src_image_size_h"] = model_w, model_h
    sw, sh = cfg["src_image_size_w"], cfg["src_image_size_h"]
    if not (2 <= sw <= 4096 and 1 <= sh <= 4096) or (fmt == 1 and (sw % 2 or sh % 2)):
        raise AippError(f"E10001: src_image_size {sw}x{sh}: w in [2, 4096], h in [1, 4096], both even for YUV420SP_U8.")
    if not cfg["crop"]:
        cfg["load_start_pos_w"] = cfg["load_start_pos_h"] = 0
        cfg["crop_size_w"], cfg["crop_size_h"] = sw, sh
    elif not cfg["crop_size_w"] or not cfg["crop_size_h"]:
        cfg["crop_size_w"], cfg["crop_size_h"] = model_w, model_h
    x0, y0, cw, ch = cfg["load_start_pos_w"], cfg["load_start_pos_h"], cfg["crop_size_w"], cfg["crop_size_h"]
    if fmt == 1 and (x0 % 2 or y0 % 2):
        raise AippError(f"E10001: load_start_pos ({x0}, {y0}) must be even for YUV420SP_U8.")
    if x0 + cw > sw or y0 + ch > sh:
        raise AippError(f"E10001: the crop ({x0}, {y0}) + {cw}x{ch} runs past the {sw}x{sh} source image.")
    pads = [cfg[f"{side}_padding_size"] if cfg["padding"] else 0 for side in ("top", "bottom", "left", "right")]
    if any(not 0 <= p <= 32 for p in pads):
        raise AippError("E10001: padding sizes must be in [0, 32].")
    out_h, out_w = ch + pads[0] + pads[1], cw + pads[2] + pads[3]
    if (out_h, out_w) != (model_h, model_w):
        raise AippError(f"E10001: AIPP produces {out_h}x{out_w} (crop/src size + padding), but the model input "
                        f"is {model_h}x{model_w}: they must be equal.")
    given = [k for k in A.MATRIX_KEYS if k in raw]
    default = A.YUV2RGB_DEFAULT if yuv else A.RGB2YUV_DEFAULT
    cfg["matrix"] = [raw.get(k, default[i]) for i, k in enumerate(A.MATRIX_KEYS)]
    cfg["input_bias"] = [raw.get(f"input_bias_{i}", A.BIAS_DEFAULT[i]) for i in range(3)]
    cfg["output_bias"] = [raw.get(f"output_bias_{i}", A.BIAS_DEFAULT[i]) for i in range(3)]
    cfg["matrix_given"] = bool(given)
    cfg["pads"] = pads
    return cfg


class _Graph:
    """A tiny builder for the nodes and constants prepended to the model."""

    def __init__(self, prefix: str) -> None:
        self.prefix, self.nodes, self.inits, self.n = prefix, [], [], 0

    def name(self) -> str:
        self.n += 1
        return f"{self.prefix}_{self.n}"

    def const(self, value, dtype=np.float32) -> str:
        from onnx import numpy_helper
        name = self.name()
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype), name))
        return name

    def op(self, op_type: str, inputs: List[str], **attrs) -> str:
        from onnx import helper
        out = self.name()
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def slice(self, x: str, starts, ends, axes) -> str:
        i64 = np.int64
        return self.op("Slice", [x, self.const(starts, i64), self.const(ends, i64), self.const(axes, i64)])

    def reshape(self, x: str, shape) -> str:
        return self.op("Reshape", [x, self.const(shape, np.int64)])


def _channels(g: _Graph, x: str, cfg: Dict[str, Any], n: int) -> Tuple[str, int]:
    """The uint8 input as float [N, C, h, w] channels (YUV: Y, U, V; RGB: R, G, B), rbuv_swap applied."""
    fmt, w, h = cfg["input_format_id"], cfg["src_image_size_w"], cfg["src_image_size_h"]
    xf = g.op("Cast", [x], to=1)
    if fmt == 1:
        r = g.reshape(xf, [n, h * 3 // 2, w])
        y = g.reshape(g.slice(r, [0], [h], [1]), [n, 1, h, w])
        uv = g.reshape(g.slice(r, [h], [h * 3 // 2], [1]), [n, h // 2, 1, w // 2, 1, 2])
        uv = g.op("Expand", [uv, g.const([n, h // 2, 2, w // 2, 2, 2], np.int64)])
        uv = g.op("Transpose", [g.reshape(uv, [n, h, w, 2])], perm=[0, 3, 1, 2])
        u, v = g.slice(uv, [0], [1], [1]), g.slice(uv, [1], [2], [1])
        parts = [y, v, u] if cfg["rbuv_swap_switch"] else [y, u, v]
        return g.op("Concat", parts, axis=1), 3
    if fmt == 4:
        return g.reshape(xf, [n, 1, h, w]), 1
    c = 3 if fmt == 3 else 4
    img = g.op("Transpose", [g.reshape(xf, [n, h, w, c])], perm=[0, 3, 1, 2])
    if fmt == 2:  # XRGB: the X byte first (UNCONFIRMED), ax_swap_switch means RGBX
        img = g.slice(img, [0], [3], [1]) if cfg["ax_swap_switch"] else g.slice(img, [1], [4], [1])
    if cfg["rbuv_swap_switch"]:
        img = g.op("Concat", [g.slice(img, [2], [3], [1]), g.slice(img, [1], [2], [1]), g.slice(img, [0], [1], [1])],
                   axis=1)
    return img, 3


def _csc(g: _Graph, img: str, cfg: Dict[str, Any]) -> str:
    """Colour-space conversion: (M . (x - input_bias)) >> 8 for YUV input, (M . x) >> 8 + output_bias for RGB."""
    yuv = cfg["input_format_id"] in (1, 4)
    m = np.array(cfg["matrix"], np.float32).reshape(3, 3)
    if yuv:
        img = g.op("Sub", [img, g.const(np.array(cfg["input_bias"]).reshape(1, 3, 1, 1))])
    p = g.op("Transpose", [img], perm=[0, 2, 3, 1])
    q = g.op("Floor", [g.op("Div", [g.op("MatMul", [p, g.const(m.T)]), g.const(256.0)])])
    q = g.op("Transpose", [q], perm=[0, 3, 1, 2])
    if not yuv:
        q = g.op("Add", [q, g.const(np.array(cfg["output_bias"]).reshape(1, 3, 1, 1))])
    return g.op("Clip", [q, g.const(0.0), g.const(255.0)])


def build_nodes(name: str, cfg: Dict[str, Any], n: int, channels: int, onnx_elem: int):
    """(nodes, initializers, output name): AIPP from the uint8 input ``name`` to the graph's float input."""
    g = _Graph(f"{name}__aipp")
    img, c = _channels(g, name, cfg, n)
    if c != channels:
        raise AippError(f"E10001: AIPP with input_format {cfg['input_format']} produces {c} channel(s), but the "
                        f"model input has {channels}.")
    if cfg["crop"]:
        x0, y0 = cfg["load_start_pos_w"], cfg["load_start_pos_h"]
        img = g.slice(img, [y0, x0], [y0 + cfg["crop_size_h"], x0 + cfg["crop_size_w"]], [2, 3])
    if cfg["csc_switch"] and c == 3:
        img = _csc(g, img, cfg)
    mean = np.array([cfg[f"mean_chn_{i}"] + cfg[f"min_chn_{i}"] for i in range(c)], np.float32).reshape(1, c, 1, 1)
    var = np.array([cfg[f"var_reci_chn_{i}"] for i in range(c)], np.float32).reshape(1, c, 1, 1)
    img = g.op("Mul", [g.op("Sub", [img, g.const(mean)]), g.const(var)])
    if cfg["padding"]:
        t, b, l, r = cfg["pads"]
        img = g.op("Pad", [img, g.const([0, 0, t, l, 0, 0, b, r], np.int64), g.const(cfg["padding_value"])])
    if onnx_elem != 1:
        img = g.op("Cast", [img], to=onnx_elem)
    return g.nodes, g.inits, img


def apply(onnx_bytes: bytes, inputs: List[Dict[str, Any]], cfg_text: str) -> bytes:
    """Prepend each aipp_op block's AIPP to its input (related_input_rank) and update the desc entries."""
    import onnx
    model = onnx.ModelProto.FromString(onnx_bytes)
    opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
    if opset < 13:
        raise AippError(f"the acl-teach ATC needs ONNX opset >= 13 to insert AIPP (this model has {opset}).")
    done = set()
    for raw in parse(cfg_text):
        rank = raw.get("related_input_rank", 0)
        if not 0 <= rank < len(inputs) or rank in done:
            raise AippError(f"E10001: related_input_rank {rank} is not a model input, or has AIPP twice.")
        done.add(rank)
        entry = inputs[rank]
        dims = entry["dims"]
        if len(dims) != 4 or entry["format"] != 0 or -1 in dims:
            raise AippError(f"E10001: AIPP needs a static 4-D NCHW model input; [{entry['name']}] is {dims}.")
        n, c, h, w = dims
        cfg = normalise(raw, h, w)
        name = entry["onnx_name"]
        elem = dtypes.ACL_TO_ONNX[entry["onnx_type"]]
        nodes, inits, out = build_nodes(name, cfg, n, c, elem)
        for node in model.graph.node:
            node.input[:] = [out if i == name else i for i in node.input]
        for node in reversed(nodes):
            model.graph.node.insert(0, node)
        model.graph.initializer.extend(inits)
        fmt, sw, sh = cfg["input_format_id"], cfg["src_image_size_w"], cfg["src_image_size_h"]
        info = next(i for i in model.graph.input if i.name == name)
        info.type.tensor_type.elem_type = onnx.TensorProto.UINT8
        shape = info.type.tensor_type.shape
        del shape.dim[:]
        new_dims = A.v2_dims(fmt, n, sw, sh)
        for d in new_dims:
            shape.dim.add().dim_value = d
        src_dims, src_size = list(dims), int(np.prod(dims)) * dtypes.itemsize(entry["data_type"])
        cfg_out = {k: v for k, v in cfg.items() if k in A.KEYS or k in
                   ("input_format_id", "matrix", "input_bias", "output_bias", "pads")}
        entry.update({"dims": new_dims, "data_type": ACL_UINT8, "onnx_type": ACL_UINT8, "format": ACL_FORMAT_NHWC,
                      "aipp": {"type": 1, "cfg": cfg_out, "dims": [n, sh, sw, A.CHANNELS[fmt]],
                               "src_dims": src_dims, "src_size": src_size, "src_format": 0,
                               "src_data_type": entry["data_type"]}})
    return model.SerializeToString()
