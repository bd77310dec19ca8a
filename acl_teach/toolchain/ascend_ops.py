"""Ascend post-processing operators inside an ONNX graph, lowered to standard ONNX for the simulator.

ATC compiles ``YoloPreDetection``, ``YoloV5DetectionOutput`` and ``YoloV3DetectionOutput`` nodes of an ONNX
graph (the official sampleYOLOV7NMSONNX builds its post-processing model from the first two; the Caffe
prototxt of YOLOV3_coco_detection_picture_with_postprocess_op holds ATC's ``Yolo`` layers, the same
operator as YoloPreDetection, and a ``YoloV3DetectionOutput``); ONNX Runtime
does not know them, so the emulator replaces each with a subgraph of standard operators before the
graph is checked. What the subgraphs compute follows the operators' documented contract; the
details the public sources leave open are the simulator's choices, marked UNCONFIRMED:

* ``YoloPreDetection`` (``yolo_version`` V5): input [N, boxes*(coords+1+classes), H, W]; outputs
  coord [N, boxes*coords, H*W], obj [N, boxes*H*W], classes [N, classes, boxes*H*W], all through a
  sigmoid (V3: every channel but w and h). The order of the boxes inside each output: UNCONFIRMED.
* ``YoloV5DetectionOutput``: per scale i (anchors ``biases[2*boxes*i:]``), x = (2 sx - 0.5 + gx) *
  netW / W, w = (2 sw)^2 * anchor_w (YOLOv5's decode), corners x1 y1 x2 y2 in the network's pixels
  scaled by img_info's scale / net size (img_info = [netH, netW, scaleH, scaleW]: UNCONFIRMED);
  score = obj * max class probability, kept when obj > ``obj_threshold`` and score >
  ``score_threshold``; class-aware NMS at ``iou_threshold`` keeps at most ``post_nms_topn``
  (``pre_nms_topn`` is not applied: UNCONFIRMED). Outputs box_out [N, 6 * post_nms_topn] holding
  x1[K], y1[K], x2[K], y2[K], score[K], class[K] for the K boxes, zeros after, and box_out_num
  [N, 8] int32 with K first (the layout the sample reads). Batch 1 only (UNCONFIRMED beyond).
* ``YoloV3DetectionOutput`` (the operator reference: ten inputs, coord/obj/classes of three Yolo operators
  then img_info; required ``biases_low``, ``biases_mid``, ``biases_high``; ``boxes`` 3, ``coords`` 4,
  ``classes`` 80, ``obj_threshold`` 0.5, ``score_threshold`` 0.5, ``iou_threshold`` 0.45, ``post_nms_topn``
  512, ``pre_nms_topn`` 512 by default; box_out [N, 6 * post_nms_topn], box_out_num [N, 8] int32, its first
  value valid): as YoloV5DetectionOutput, with YOLOv3's decode x = (sx + gx) * netW / W, w = exp(tw) *
  anchor_w (anchors in the network's pixels: UNCONFIRMED), ``biases_low`` for the first scale's inputs,
  ``biases_mid`` the second's, ``biases_high`` the third's (by the inputs' names; which grid size "low" is
  the operator reference does not say: UNCONFIRMED). The reference gives the coord/obj/classes inputs a
  last dimension padded to ceil(H*W, 16) + 16; the lowered YoloPreDetection gives them unpadded (the
  padding is internal to the lowered graph: UNCONFIRMED).
"""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

ASCEND_OPS = ("YoloPreDetection", "YoloV5DetectionOutput", "YoloV3DetectionOutput")
_OFFSET = 1 << 16  # class-aware NMS: each class's boxes are moved this far apart


class AscendOpError(ValueError):
    """The node cannot be lowered (shape unknown, attribute out of range); the message is the reason."""


def has_ascend_ops(model) -> bool:
    """Whether the graph holds an operator this module lowers."""
    return any(n.op_type in ASCEND_OPS for n in model.graph.node)


class _Builder:
    """New nodes and constants with fresh names."""

    def __init__(self, prefix: str) -> None:
        self.prefix, self.nodes, self.inits, self._n = prefix, [], [], 0

    def name(self, hint: str) -> str:
        self._n += 1
        return f"{self.prefix}/{hint}_{self._n}"

    def const(self, value: Any, dtype=np.int64) -> str:
        from onnx import numpy_helper
        name = self.name("const")
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def op(self, op_type: str, inputs: List[str], outputs: Any = None, **attrs: Any) -> Any:
        from onnx import helper
        outs = outputs if outputs is not None else [self.name(op_type.lower())]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=self.name(op_type), **attrs))
        return outs[0] if outputs is None else outs

    def output(self, op_type: str, inputs: List[str], original, edge: int, **attrs: Any) -> None:
        """The node that makes output ``edge`` of the ``original`` node, marked so ATC names it after that node."""
        self.op(op_type, inputs, [original.output[edge]], **attrs)
        self.nodes[-1].doc_string = f"{MARK}{original.name}:{edge}"


    def slice(self, x: str, start: int, end: int, axis: int) -> str:
        return self.op("Slice", [x, self.const([start]), self.const([end]), self.const([axis])])


MARK = "ascend_ops output of "  # doc_string prefix: the original node and output index a lowered output stands for


def original_producer(node) -> Any:
    """(original node name, output index) for a node that makes a lowered Ascend operator's output, else None."""
    if node.doc_string.startswith(MARK):
        name, _, edge = node.doc_string[len(MARK):].rpartition(":")
        return name, int(edge)
    return None


def _attrs(node) -> Dict[str, Any]:
    from onnx import helper
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _pre_detection(b: _Builder, node, dims: List[Any]) -> Tuple[int, int]:
    """Lower one YoloPreDetection; (H, W) of its grid."""
    a = _attrs(node)
    boxes, coords, classes = int(a.get("boxes", 3)), int(a.get("coords", 4)), int(a.get("classes", 80))
    version = a.get("yolo_version", b"V5")
    version = version.decode() if isinstance(version, bytes) else str(version)
    if len(dims) != 4 or not all(isinstance(d, int) and d > 0 for d in dims[1:]):
        raise AscendOpError(f"YoloPreDetection {node.name}: input dims {dims} must be [N, C, H, W] with known C, H, W "
                            f"(give them with --input_shape).")
    per = coords + 1 + classes
    if dims[1] != boxes * per or coords != 4:
        raise AscendOpError(f"YoloPreDetection {node.name}: {dims[1]} channels, but boxes*(coords+1+classes) = "
                            f"{boxes}*({coords}+1+{classes}) = {boxes * per} (coords must be 4).")
    h, w = dims[2], dims[3]
    r = b.op("Reshape", [node.input[0], b.const([0, boxes, per, h * w])])
    if version.upper() == "V3":  # x, y, obj and classes through the sigmoid; w, h stay raw
        xy, wh, rest = b.slice(r, 0, 2, 2), b.slice(r, 2, 4, 2), b.slice(r, 4, per, 2)
        s = b.op("Concat", [b.op("Sigmoid", [xy]), wh, b.op("Sigmoid", [rest])], axis=2)
    else:
        s = b.op("Sigmoid", [r])
    coord_out, obj_out, cls_out = (list(node.output) + ["", "", ""])[:3]
    if coord_out:
        b.output("Reshape", [b.slice(s, 0, 4, 2), b.const([0, boxes * 4, h * w])], node, 0)
    if obj_out:
        b.output("Reshape", [b.slice(s, 4, 5, 2), b.const([0, boxes * h * w])], node, 1)
    if cls_out:
        t = b.op("Transpose", [b.slice(s, 5, per, 2)], perm=[0, 2, 1, 3])
        b.output("Reshape", [t, b.const([0, classes, boxes * h * w])], node, 2)
    return h, w


def _scale(b: _Builder, coord: str, obj: str, cls: str, hw: Tuple[int, int], anchors: List[float], boxes: int,
           classes: int, net: Tuple[str, str], scale: Tuple[str, str], v3: bool = False) -> Tuple[str, str, str]:
    """Decoded corners [M, 4], objectness [M] and class probabilities [classes, M] of one scale (YOLOv5 or v3)."""
    h, w = hw
    c = b.op("Reshape", [coord, b.const([boxes, 4, h * w])])
    sx, sy, sw, sh = (b.op("Squeeze", [b.slice(c, k, k + 1, 1), b.const([1])]) for k in range(4))
    gx = b.const(np.tile(np.arange(w), h)[None, :], np.float32)
    gy = b.const(np.repeat(np.arange(h), w)[None, :], np.float32)
    two, half = b.const(2.0, np.float32), b.const(0.5, np.float32)
    net_h, net_w = net
    stride_x = b.op("Div", [net_w, b.const(float(w), np.float32)])
    stride_y = b.op("Div", [net_h, b.const(float(h), np.float32)])
    aw = b.const(np.asarray(anchors[0::2], np.float32)[:, None], np.float32)
    ah = b.const(np.asarray(anchors[1::2], np.float32)[:, None], np.float32)
    if v3:  # centre = sigmoid already applied + cell; size = exp(raw) * anchor
        cx = b.op("Mul", [b.op("Add", [sx, gx]), stride_x])
        cy = b.op("Mul", [b.op("Add", [sy, gy]), stride_y])
        bw = b.op("Mul", [b.op("Exp", [sw]), aw])
        bh = b.op("Mul", [b.op("Exp", [sh]), ah])
    else:
        cx = b.op("Mul", [b.op("Add", [b.op("Sub", [b.op("Mul", [sx, two]), half]), gx]), stride_x])
        cy = b.op("Mul", [b.op("Add", [b.op("Sub", [b.op("Mul", [sy, two]), half]), gy]), stride_y])
        bw = b.op("Mul", [b.op("Mul", [b.op("Mul", [sw, two]), b.op("Mul", [sw, two])]), aw])
        bh = b.op("Mul", [b.op("Mul", [b.op("Mul", [sh, two]), b.op("Mul", [sh, two])]), ah])
    hw_, hh = b.op("Mul", [bw, half]), b.op("Mul", [bh, half])
    fx = b.op("Div", [scale[1], net_w])
    fy = b.op("Div", [scale[0], net_h])
    corners = [b.op("Mul", [b.op(op, [centre, size]), f]) for op, centre, size, f in
               (("Sub", cx, hw_, fx), ("Sub", cy, hh, fy), ("Add", cx, hw_, fx), ("Add", cy, hh, fy))]
    flat = [b.op("Reshape", [k, b.const([-1, 1])]) for k in corners]
    return (b.op("Concat", flat, axis=1), b.op("Reshape", [obj, b.const([-1])]),
            b.op("Reshape", [cls, b.const([classes, -1])]))


V3_BIASES = ("biases_low", "biases_mid", "biases_high")


def _anchors(node, a: Dict[str, Any], boxes: int, k: int) -> List[float]:
    """The anchors of all scales in input order: ``biases`` (V5) or biases_low/mid/high (V3)."""
    if node.op_type == "YoloV3DetectionOutput":
        if k != 3:
            raise AscendOpError(f"YoloV3DetectionOutput {node.name}: ten inputs (coord, obj, classes of three Yolo "
                                f"operators, then img_info); got {3 * k + 1}.")
        lists = [[float(v) for v in a.get(name, [])] for name in V3_BIASES]
        bad = [f"{name} ({len(v)})" for name, v in zip(V3_BIASES, lists) if len(v) != 2 * boxes]
        if bad:
            raise AscendOpError(f"YoloV3DetectionOutput {node.name}: biases_low, biases_mid and biases_high are "
                                f"required, 2*boxes = {2 * boxes} values each; wrong: {', '.join(bad)}.")
        return [v for values in lists for v in values]
    anchors = [float(v) for v in a.get("biases", [])]
    if len(anchors) != 2 * boxes * k:
        raise AscendOpError(f"YoloV5DetectionOutput {node.name}: biases needs 2*boxes*scales = {2 * boxes * k} "
                            f"values, got {len(anchors)}.")
    return anchors


def _detection_output(b: _Builder, node, grids: Dict[str, Tuple[int, int]]) -> None:
    """Lower one YoloV5DetectionOutput or YoloV3DetectionOutput (see the module docstring for what they compute)."""
    a = _attrs(node)
    v3 = node.op_type == "YoloV3DetectionOutput"
    boxes, classes = int(a.get("boxes", 3)), int(a.get("classes", 80))
    top = int(a.get("post_nms_topn", 512 if v3 else 1024))
    ins = list(node.input)
    if (len(ins) - 1) % 3 or len(ins) < 4:
        raise AscendOpError(f"{node.op_type} {node.name}: inputs are coord_i…, obj_i…, classes_i…, img_info "
                            f"(3 per scale + 1); got {len(ins)}.")
    k = (len(ins) - 1) // 3
    anchors = _anchors(node, a, boxes, k)
    missing = [n for n in ins[:k] if n not in grids]
    if missing:
        raise AscendOpError(f"{node.op_type} {node.name}: the grid size of {missing} is unknown (the coord "
                            f"inputs must come from YoloPreDetection nodes).")
    info = b.op("Reshape", [ins[-1], b.const([4])])
    net_h, net_w, sc_h, sc_w = (b.op("Squeeze", [b.slice(info, i, i + 1, 0), b.const([0])]) for i in range(4))
    parts = [_scale(b, ins[i], ins[k + i], ins[2 * k + i], grids[ins[i]], anchors[2 * boxes * i:2 * boxes * (i + 1)],
                    boxes, classes, (net_h, net_w), (sc_h, sc_w), v3) for i in range(k)]
    corners = b.op("Concat", [p[0] for p in parts], axis=0)
    obj = b.op("Concat", [p[1] for p in parts], axis=0)
    probs = b.op("Concat", [p[2] for p in parts], axis=1)
    values, indices = b.op("TopK", [b.op("Transpose", [probs], perm=[1, 0]), b.const([1])],
                           [b.name("best"), b.name("label")], axis=1)
    best = b.op("Reshape", [values, b.const([-1])])
    label = b.op("Reshape", [indices, b.const([-1])])
    score = b.op("Mul", [best, obj])
    keep = b.op("Greater", [obj, b.const(float(a.get("obj_threshold", 0.5)), np.float32)])
    score = b.op("Where", [keep, score, b.const(0.0, np.float32)])
    shift = b.op("Mul", [b.op("Cast", [b.op("Unsqueeze", [label, b.const([1])])], to=1),
                         b.const(float(_OFFSET), np.float32)])
    nms = b.op("NonMaxSuppression", [b.op("Unsqueeze", [b.op("Add", [corners, shift]), b.const([0])]),
                                     b.op("Reshape", [score, b.const([1, 1, -1])]), b.const([top]),
                                     b.const([float(a.get("iou_threshold", 0.45))], np.float32),
                                     b.const([float(a.get("score_threshold", 0.5))], np.float32)])
    index = b.op("Squeeze", [b.slice(nms, 2, 3, 1), b.const([1])])
    picked = b.op("Gather", [corners, index], axis=0)
    columns = [b.op("Squeeze", [b.slice(b.op("Transpose", [picked], perm=[1, 0]), i, i + 1, 0), b.const([0])])
               for i in range(4)]
    columns += [b.op("Gather", [score, index], axis=0), b.op("Cast", [b.op("Gather", [label, index], axis=0)], to=1)]
    flat = b.op("Concat", columns, axis=0)
    count = b.op("Shape", [index])
    fill = b.op("Sub", [b.const([6 * top]), b.op("Shape", [flat])])
    pads = b.op("Concat", [b.const([0]), fill], axis=0)
    box_out, num_out = (list(node.output) + ["", ""])[:2]
    if box_out:
        b.output("Reshape", [b.op("Pad", [flat, pads, b.const(0.0, np.float32)]), b.const([1, 6 * top])], node, 0)
    if num_out:
        n32 = b.op("Cast", [count], to=6)
        padded = b.op("Pad", [n32, b.const([0, 7]), b.const(0, np.int32)])
        b.output("Reshape", [padded, b.const([1, 8])], node, 1)


def lower(model, input_dims: Dict[str, List[Any]]):
    """A copy of ``model`` with every Ascend post-processing node replaced by standard ONNX (opset 13 at least)."""
    import onnx
    model = onnx.ModelProto.FromString(model.SerializeToString())
    dims = {i.name: [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?")
                     for d in i.type.tensor_type.shape.dim] for i in model.graph.input}
    dims.update(input_dims)
    b = _Builder("ascend_ops")
    grids: Dict[str, Tuple[int, int]] = {}
    nodes = []
    for node in model.graph.node:
        if node.op_type == "YoloPreDetection":
            hw = _pre_detection(b, node, dims.get(node.input[0], []))
            grids.update({out: hw for out in node.output})
        elif node.op_type in ("YoloV5DetectionOutput", "YoloV3DetectionOutput"):
            _detection_output(b, node, grids)
        else:
            nodes.append(node)
            continue
        nodes.extend(b.nodes)
        b.nodes = []
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.extend(b.inits)
    for op in model.opset_import:
        if op.domain in ("", "ai.onnx") and op.version < 13:
            op.version = 13  # the subgraphs use opset-13 Squeeze/Unsqueeze signatures
    del model.graph.value_info[:]
    return model
