"""ATC's ``--insert_op_conf``: parse an AIPP cfg, fill GE's defaults, compile static AIPP into the graph, and add
dynamic AIPP's extra model input.

Static AIPP is prepended as ONNX ops, so the simulator's execute needs nothing new: the model input
becomes the uint8 image (YUV420SP: ``[N, H*3/2, W, 1]``, 1.5 bytes a pixel) and the ops apply, in the
hardware's order, rbuv_swap -> crop -> CSC (the cfg's matrix and biases, ``>> 8``, clipped to 0..255;
UNCONFIRMED rounding) -> (x - mean_chn - min_chn) * var_reci_chn -> padding, before the original graph
(transposed to NHWC for an NHWC input). Chroma of YUV420SP is upsampled by repetition (UNCONFIRMED: the
AIPP's filter is unpublished). The ops take their sizes from the input at run time, so they serve every
gear of --dynamic_batch_size / --dynamic_image_size. ``aipp_mode: dynamic`` adds the
``ascend_dynamic_aipp_data`` input instead (``dynamic_entries``); the simulator applies its parameters.
"""
from __future__ import annotations

import math
import re
from typing import Any, Dict, Iterator, List, Tuple

import numpy as np

from ..spec import aipp as A
from ..spec import dtypes
from ..spec.constants import ACL_FORMAT_NCHW, ACL_FORMAT_ND, ACL_FORMAT_NHWC, ACL_UINT8


class AippError(ValueError):
    """The cfg is malformed or does not fit the model (ATC refuses it)."""


_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)  # protobuf text: ASCII digits, no '_' separators
_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)
INT32 = (-(1 << 31), (1 << 31) - 1)
_TOKEN = re.compile(r"""(?P<space>\s+)|(?P<comment>\#[^\n]*)|(?P<punct>[{}:])|"""
                    r"""(?P<word>"[^"\n]*"|'[^'\n]*'|[^\s{}:\#"']+)|(?P<bad>.)""")


def _value(key: str, raw: str) -> Any:
    """One value of a cfg line, as protobuf's text format reads it: strict ASCII numbers within int32, finite floats."""
    raw = raw.strip('"').strip("'")
    if key in A.BOOL_KEYS:
        if raw.lower() in ("true", "1"):
            return True
        if raw.lower() in ("false", "0"):
            return False
        raise AippError(f"E10001: {key} : {raw} — expected true or false.")
    if key in A.INT_KEYS:
        if not _INT.fullmatch(raw) or len(raw) > 12 or not INT32[0] <= int(raw) <= INT32[1]:
            raise AippError(f"E10001: {key} : {raw[:40]} — expected an integer in [{INT32[0]}, {INT32[1]}].")
        return int(raw)
    if key in A.FLOAT_KEYS:
        value = float(raw) if _FLOAT.fullmatch(raw) and len(raw) <= 64 else float("nan")
        if not math.isfinite(value):
            raise AippError(f"E10001: {key} : {raw[:40]} — expected a finite number.")
        return value
    return raw


def _tokens(text: str) -> Iterator[str]:
    """The cfg's words and ``{ } :`` in order (comments dropped), scanned lazily in one linear pass."""
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        pos = m.end()
        if m.lastgroup in ("word", "punct"):
            yield m.group()
        elif m.lastgroup == "bad":
            raise AippError(f"E10001: the insert_op_conf file has an unexpected character {m.group()!r}.")


class _Reader:
    """Tokens with a look-ahead, read only as far as the parse gets (an error stops the scan there)."""

    def __init__(self, text: str) -> None:
        self.source, self.ahead = _tokens(text), []

    def peek(self, n: int = 0) -> str:
        while len(self.ahead) <= n:
            self.ahead.append(next(self.source, ""))
        return self.ahead[n]

    def take(self, n: int = 1) -> List[str]:
        got = [self.peek(i) for i in range(n)]
        del self.ahead[:n]
        return got


def _expected(what: str, found: str) -> AippError:
    return AippError(f"E10001: the insert_op_conf file is not an AIPP config: expected {what}, found "
                     f"{found[:40] or 'the end of the file'!r}. Each line of an aipp_op block is 'key : value'.")


def parse(text: str) -> List[Dict[str, Any]]:
    """The aipp_op blocks of a cfg as {key: value} dicts (a key given twice is refused, as GE does).

    Read as protobuf's text format: ``aipp_op { key : value ... }`` blocks and nothing else, so a
    ``key = value`` line or a stray word is refused instead of silently dropped.
    """
    r, out = _Reader(text), []
    while r.peek():
        word = r.take()[0]
        if word != "aipp_op":
            raise _expected("aipp_op {", word)
        if r.peek() == ":":
            r.take()
        if r.take()[0] != "{":
            raise _expected("{ after aipp_op", r.peek())
        cfg: Dict[str, Any] = {}
        while r.peek() not in ("}", ""):
            key, colon, raw = r.take(3)
            if key in "{:" or colon != ":" or raw in ("{", "}", ":", ""):
                raise _expected("key : value", " ".join((key, colon, raw)).strip())
            if key not in A.KEYS:
                raise AippError(f"E10001: unknown AIPP parameter [{key[:40]}].")
            if key in cfg:
                raise AippError(f"E10001: AIPP parameter [{key}] is given more than once.")
            cfg[key] = _value(key, raw)
        if r.take()[0] != "}":
            raise _expected("} closing the aipp_op block", "")
        out.append(cfg)
    if not out:
        raise AippError("E10001: the insert_op_conf file has no aipp_op { ... } block.")
    return out


def normalise(raw: Dict[str, Any], model_h: int, model_w: int) -> Dict[str, Any]:
    """GE's defaults filled in and the template's rules checked, for a model input of model_h x model_w."""
    mode = raw.get("aipp_mode")
    if mode not in A.MODES:
        raise AippError("E10001: aipp_mode must be set to static or dynamic.")
    if mode == "dynamic":
        raise AippError("E10001: a dynamic aipp_op block goes through dynamic_entries, not normalise.")
    if raw.get("input_format") not in A.INPUT_FORMATS:
        raise AippError(f"E10001: static AIPP needs input_format: one of {', '.join(A.INPUT_FORMATS)}.")
    cfg = {**A.DEFAULTS, **raw}
    _check_ranges(cfg)
    fmt = cfg["input_format_id"] = A.INPUT_FORMATS[cfg["input_format"]]
    yuv = fmt in (1, 4)
    if model_h < 0 or model_w < 0:  # --dynamic_image_size: the source is each gear's H x W
        if cfg["crop"] or cfg["padding"] or cfg["src_image_size_w"] or cfg["src_image_size_h"]:
            raise AippError("E10001: with --dynamic_image_size the AIPP source is each gear's size: leave "
                            "src_image_size_w/h at 0 and crop and padding off (other combinations are not "
                            "emulated by acl-teach's ATC).")
        return _finish(cfg, raw, yuv, model_h, model_w, [0, 0, 0, 0])
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
    if not (0 <= x0 <= 4095 and 0 <= y0 <= 4095 and 1 <= cw <= 4096 and 1 <= ch <= 4096):
        raise AippError(f"E10001: load_start_pos ({x0}, {y0}) must be in [0, 4095] and crop_size {cw}x{ch} in "
                        f"[1, 4096].")
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
    return _finish(cfg, raw, yuv, model_h, model_w, pads)


RANGES = {**{k: (-32677, 32676) for k in A.MATRIX_KEYS},
          **{f"{k}_{i}": (0, 255) for k in ("input_bias", "output_bias") for i in range(3)},
          **{f"mean_chn_{i}": (0, 255) for i in range(4)}, **{f"min_chn_{i}": (0.0, 255.0) for i in range(4)},
          **{f"var_reci_chn_{i}": (-65504.0, 65504.0) for i in range(4)}}  # the ATC AIPP cfg template's ranges


def _check_ranges(cfg: Dict[str, Any]) -> None:
    """The template's value ranges (CSC matrix, biases, DTC mean/min/var_reci): AippError names the first outside."""
    for key, (lo, hi) in RANGES.items():
        if key in cfg and not lo <= cfg[key] <= hi:
            raise AippError(f"E10001: {key} : {cfg[key]} is outside [{lo}, {hi}].")


def _finish(cfg: Dict[str, Any], raw: Dict[str, Any], yuv: bool, model_h: int, model_w: int,
            pads: List[int]) -> Dict[str, Any]:
    """GE's CSC defaults (SetCscDefaultValue) and the padding sizes, filled into a checked cfg."""
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


def _channels(g: _Graph, x: str, cfg: Dict[str, Any]) -> Tuple[str, int]:
    """The uint8 input as float [N, C, h, w] channels (YUV: Y, U, V; RGB: R, G, B), rbuv_swap applied.

    Built from the input's runtime shape (Shape, Slice, Resize), so one graph serves every batch and
    image-size gear: YUV420SP_U8 arrives as [N, h*3/2, w, 1], the others as [N, h, w, C].
    """
    fmt = cfg["input_format_id"]
    xf = g.op("Cast", [x], to=1)
    if fmt == 1:
        i64 = np.int64
        rows = g.op("Slice", [g.op("Shape", [x]), g.const([1], i64), g.const([2], i64)])
        h = g.op("Div", [g.op("Mul", [rows, g.const([2], i64)]), g.const([3], i64)])
        y = g.op("Slice", [xf, g.const([0], i64), h, g.const([1], i64)])
        uv = g.op("Slice", [xf, h, rows, g.const([1], i64)])
        uv = g.reshape(uv, [0, 0, -1, 2])  # [N, h/2, w/2, (U, V)]
        uv = g.op("Transpose", [uv], perm=[0, 3, 1, 2])
        uv = g.op("Resize", [uv, "", g.const([1.0, 1.0, 2.0, 2.0])], mode="nearest",
                  coordinate_transformation_mode="asymmetric", nearest_mode="floor")  # chroma repeated 2x2
        y = g.op("Transpose", [y], perm=[0, 3, 1, 2])
        u, v = g.slice(uv, [0], [1], [1]), g.slice(uv, [1], [2], [1])
        parts = [y, v, u] if cfg["rbuv_swap_switch"] else [y, u, v]
        return g.op("Concat", parts, axis=1), 3
    img = g.op("Transpose", [xf], perm=[0, 3, 1, 2])
    if fmt == 4:
        return img, 1
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


def build_nodes(name: str, cfg: Dict[str, Any], channels: int, onnx_elem: int, nhwc: bool = False):
    """(nodes, initializers, output name): AIPP from the uint8 input ``name`` to the graph's float input
    (NCHW, or NHWC for a model input in NHWC: the AIPP output is transposed to the layout the graph reads)."""
    g = _Graph(f"{name}__aipp")
    img, c = _channels(g, name, cfg)
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
    if nhwc:
        img = g.op("Transpose", [img], perm=[0, 2, 3, 1])
    if onnx_elem != 1:
        img = g.op("Cast", [img], to=onnx_elem)
    return g.nodes, g.inits, img


def _layout(entry: Dict[str, Any]) -> Tuple[int, int, int, int, bool]:
    """(n, c, h, w, nhwc) of a 4-D NCHW or NHWC model input (-1 where a gear decides); AippError otherwise."""
    dims = entry["dims"]
    if len(dims) != 4 or entry["format"] not in (ACL_FORMAT_NCHW, ACL_FORMAT_NHWC):
        raise AippError(f"E10001: AIPP needs a 4-D NCHW or NHWC model input; [{entry['name']}] is {dims}.")
    if entry["format"] == ACL_FORMAT_NHWC:
        n, h, w, c = dims
        return n, c, h, w, True
    n, c, h, w = dims
    return n, c, h, w, False


def _set_input(model, name: str, elem: int, dims: List[int]) -> None:
    """Give graph input ``name`` the element type and dims (-1 -> a symbolic dim)."""
    info = next(i for i in model.graph.input if i.name == name)
    info.type.tensor_type.elem_type = elem
    shape = info.type.tensor_type.shape
    del shape.dim[:]
    for i, d in enumerate(dims):
        if d < 0:
            shape.dim.add().dim_param = f"aipp_{i}"
        else:
            shape.dim.add().dim_value = d


def _static(model, entry: Dict[str, Any], raw: Dict[str, Any]) -> None:
    """Prepend static AIPP to ``entry``'s graph input and make the desc entry describe the image buffer."""
    import onnx
    n, c, h, w, nhwc = _layout(entry)
    cfg = normalise(raw, h, w)
    name = entry["onnx_name"]
    nodes, inits, out = build_nodes(name, cfg, c, dtypes.ACL_TO_ONNX[entry["onnx_type"]], nhwc)
    for node in model.graph.node:
        node.input[:] = [out if i == name else i for i in node.input]
    for node in reversed(nodes):
        model.graph.node.insert(0, node)
    model.graph.initializer.extend(inits)
    fmt = cfg["input_format_id"]
    sw, sh = (cfg["src_image_size_w"] or -1), (cfg["src_image_size_h"] or -1)
    new_dims = A.v2_dims(fmt, n, sw, sh) if sh > 0 else [n, -1, sw, 1 if fmt == 1 else A.CHANNELS[fmt]]
    _set_input(model, name, onnx.TensorProto.UINT8, new_dims)
    src_dims = list(entry["dims"])
    src_size = int(np.prod([abs(d) for d in src_dims])) * dtypes.itemsize(entry["data_type"])
    cfg_out = {k: v for k, v in cfg.items() if k in A.KEYS or k in
               ("input_format_id", "matrix", "input_bias", "output_bias", "pads")}
    entry.update({"dims": new_dims, "data_type": ACL_UINT8, "onnx_type": ACL_UINT8, "format": ACL_FORMAT_NHWC,
                  "aipp": {"type": 1, "cfg": cfg_out, "dims": [n, sh, sw, A.CHANNELS[fmt]],
                           "src_dims": src_dims, "src_size": src_size, "src_format": entry["format"],
                           "src_data_type": entry["data_type"]}})


def dynamic_entries(model, entry: Dict[str, Any], raw: Dict[str, Any]) -> Dict[str, Any]:
    """aipp_mode: dynamic on ``entry``: the desc entry becomes the image buffer, and the entry of the extra input.

    As GE's AippOp::CreateAippData: one more model input, ``ascend_dynamic_aipp_data``, UINT8, ND, of
    64 + 96 N bytes (N = the data input's batch); the parameters arrive there at run time (acl.mdl.set_input_aipp)
    and the simulator's execute applies them (spec.aipp.run). The graph keeps the original float input,
    renamed ``NAME__aipp_out`` and made an overridable initializer (a graph input with a zero default) that
    execute feeds with the AIPP output; ``NAME`` itself becomes an unused uint8 graph input of
    ``max_src_image_size`` bytes. What the desc reports for the linked data input is UNCONFIRMED: size =
    max_src_image_size, get_input_dims = GE's ATTR_DYNAMIC_AIPP_INPUT_DIMS [N, -1, -1, -1],
    get_input_dims_v2 = [max_src_image_size], UINT8, NHWC.
    """
    import onnx
    from onnx import helper, numpy_helper
    extra = sorted(set(raw) - A.DYNAMIC_KEYS)
    if extra:  # UNCONFIRMED that ATC refuses rather than ignores them
        raise AippError(f"E10001: a dynamic aipp_op takes its parameters at run time (acl.mdl.set_aipp_*); "
                        f"remove {', '.join(extra)} from the cfg.")
    size = raw.get("max_src_image_size", 0)
    if not isinstance(size, int) or size <= 0:
        raise AippError("E10001: For dynamic AIPP params, max_src_image_size must be set which number should be "
                        "greater than 0.")
    n, c, h, w, nhwc = _layout(entry)
    if -1 in entry["dims"]:
        raise AippError("E10001: dynamic AIPP together with dynamic batch/image size is not emulated by "
                        "acl-teach's ATC.")
    name = entry["onnx_name"]
    inner = f"{name}__aipp_out"
    for node in model.graph.node:
        node.input[:] = [inner if i == name else i for i in node.input]
    info = next(i for i in model.graph.input if i.name == name)
    elem = info.type.tensor_type.elem_type
    model.graph.input.append(helper.make_tensor_value_info(inner, elem, list(entry["dims"])))
    zero = np.zeros(entry["dims"], onnx.helper.tensor_dtype_to_np_dtype(elem))
    model.graph.initializer.append(numpy_helper.from_array(zero, inner))
    _set_input(model, name, onnx.TensorProto.UINT8, [size])
    block = A.dynamic_data_size(n)
    model.graph.input.append(helper.make_tensor_value_info(A.DYNAMIC_DATA_NAME, onnx.TensorProto.UINT8, [block]))
    src_dims = list(entry["dims"])
    src_size = int(np.prod(src_dims)) * dtypes.itemsize(entry["data_type"])
    cfg = {"aipp_mode": "dynamic", "related_input_rank": raw.get("related_input_rank", 0),
           "max_src_image_size": size, "support_rotation": bool(raw.get("support_rotation", False))}
    entry.update({"dims": [size], "data_type": ACL_UINT8, "onnx_type": ACL_UINT8, "format": ACL_FORMAT_NHWC,
                  "aipp": {"type": 2, "cfg": cfg, "dims": [n, -1, -1, -1], "src_dims": src_dims,
                           "src_size": src_size, "src_format": entry["format"], "src_data_type": entry["data_type"],
                           "feed": inner, "feed_type": entry["onnx_type"], "model_hw": [h, w], "channels": c,
                           "nhwc": nhwc}})
    return {"name": A.DYNAMIC_DATA_NAME, "onnx_name": A.DYNAMIC_DATA_NAME, "dims": [block], "data_type": ACL_UINT8,
            "onnx_type": ACL_UINT8, "format": ACL_FORMAT_ND,
            "aipp": {"type": 3, "cfg": cfg, "dims": [block], "src_dims": src_dims, "src_size": src_size,
                     "src_format": entry["format"], "src_data_type": entry["data_type"]}}


def apply(onnx_bytes: bytes, inputs: List[Dict[str, Any]], cfg_text: str) -> bytes:
    """Prepend each aipp_op block's AIPP to its input (related_input_rank) and update the desc entries.

    A dynamic block appends the ascend_dynamic_aipp_data entry to ``inputs`` (after the data inputs).
    """
    import onnx
    model = onnx.ModelProto.FromString(onnx_bytes)
    opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), default=0)
    if opset < 13:
        raise AippError(f"the acl-teach ATC needs ONNX opset >= 13 to insert AIPP (this model has {opset}).")
    done, extra = set(), []
    plain = list(inputs)
    for raw in parse(cfg_text):
        rank = raw.get("related_input_rank", 0)
        if not 0 <= rank < len(plain) or rank in done:
            raise AippError(f"E10001: related_input_rank {rank} is not a model input, or has AIPP twice.")
        done.add(rank)
        if raw.get("aipp_mode") == "dynamic":
            if extra:
                raise AippError("E10001: more than one dynamic aipp_op is not emulated by acl-teach's ATC.")
            extra.append(dynamic_entries(model, plain[rank], raw))
        else:
            _static(model, plain[rank], raw)
    inputs.extend(extra)
    return model.SerializeToString()
