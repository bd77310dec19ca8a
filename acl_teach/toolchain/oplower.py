"""How the simulator computes each Ascend operator: a small ONNX graph per compiled op (opset 18).

``lower(op, graph, names, inputs, outputs, attrs)`` adds the nodes for one operator. Arithmetic on
float16 runs in float32 and is rounded back once (what numpy does; the NPU computes fp16 natively,
which rounds the same way for + - * /). Inputs whose *values* steer the kernel (axes, offsets,
shapes) are used as constants when compiled with ``"is_const": true``, else read at run time where
ONNX allows it. Semantics the public sources leave open are marked UNCONFIRMED below.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ..spec import dtypes
from ..spec.constants import ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64
from .opdefs import OPS

OPSET = 18
INT64_MAX = (1 << 63) - 1


class LowerError(ValueError):
    """The operator cannot be built for these descs/attrs; the message is the reason."""


@dataclass
class TensorInfo:
    """Compile-time view of one input or output: type, dims, and the values of a const input."""

    data_type: int
    dims: List[int]
    values: Optional[List[int]] = None


class Graph:
    """A growing ONNX graph with helpers for constants, casts and nodes."""

    def __init__(self) -> None:
        self.nodes: list = []
        self.inits: list = []
        self.inputs: list = []
        self.count = 0
        self.checks: Dict[int, List[List[int]]] = {}  # input index -> values it may hold at run time

    def _name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}_{self.count}"

    def input(self, name: str, data_type: int, dims: List[int]) -> str:
        """Declare a runtime graph input."""
        from onnx import helper
        self.inputs.append(helper.make_tensor_value_info(name, dtypes.ACL_TO_ONNX[data_type], dims))
        return name

    def const(self, array: np.ndarray) -> str:
        """A constant tensor (initializer)."""
        from onnx import numpy_helper
        name = self._name("const")
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op: str, inputs: List[str], **attrs: Any) -> str:
        """Add one node; return its (single) output name."""
        from onnx import helper
        out = self._name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def cast(self, name: str, to: int) -> str:
        return self.node("Cast", [name], to=dtypes.ACL_TO_ONNX[to])

    def up(self, name: str, data_type: int) -> Tuple[str, int]:
        """(name, type) computed in float32 when the type is float16."""
        return (self.cast(name, ACL_FLOAT), ACL_FLOAT) if data_type == ACL_FLOAT16 else (name, data_type)

    def down(self, name: str, have: int, want: int) -> str:
        return name if have == want else self.cast(name, want)

    def model(self, outputs: List[Tuple[str, str, int]]):
        """The ModelProto with ``outputs`` = [(node output, graph output name, expected type)]."""
        from onnx import helper
        from onnx import ValueInfoProto
        nodes = list(self.nodes)
        infos = []
        for src, name, _ in outputs:  # untyped: shape inference says what the op produces
            nodes.append(helper.make_node("Identity", [src], [name]))
            infos.append(ValueInfoProto(name=name))
        graph = helper.make_graph(nodes, "acl_teach_single_op", self.inputs, infos, self.inits)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                 producer_name="acl-teach atc --singleop")


Lowering = Callable[[Graph, List[str], List[TensorInfo], List[TensorInfo], Dict[str, Any]], List[str]]
LOWER: Dict[str, Lowering] = {}


def lowering(*ops: str):
    """Register a lowering for ``ops``."""
    def deco(func: Lowering) -> Lowering:
        for op in ops:
            LOWER[op] = func
        return func
    return deco


def _rank_axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < max(rank, 1):
        raise LowerError(f"{what} {axis} is out of range for a rank-{rank} input (valid: {-rank} .. {rank - 1})")
    return axis % rank if rank else 0


def _i64(g: Graph, values: List[int]) -> str:
    return g.const(np.array(values, np.int64))


_BINARY = {"Add": "Add", "Sub": "Sub", "Mul": "Mul", "Div": "Div", "RealDiv": "Div", "Maximum": "Max",
           "Minimum": "Min"}


@lowering(*_BINARY)
def _binary(g, xs, ins, outs, attrs):
    """Element-wise with broadcasting; Mul promotes mixed types (IR Promote); RealDiv on integers
    divides like Div (truncating; UNCONFIRMED)."""
    t = np.promote_types(dtypes.numpy_dtype(ins[0].data_type), dtypes.numpy_dtype(ins[1].data_type))
    want = next(k for k, v in dtypes.ACL_TYPES.items() if np.dtype(v[1]) == t)
    a, have = g.up(g.down(xs[0], ins[0].data_type, want), want)
    b, _ = g.up(g.down(xs[1], ins[1].data_type, want), want)
    return [g.down(g.node(_BINARY[attrs["__op__"]], [a, b]), have, want)]


_UNARY = {"Relu": "Relu", "Sigmoid": "Sigmoid", "Tanh": "Tanh", "Sqrt": "Sqrt", "Abs": "Abs", "Neg": "Neg"}


@lowering(*_UNARY)
def _unary(g, xs, ins, outs, attrs):
    x, have = g.up(xs[0], ins[0].data_type)
    return [g.down(g.node(_UNARY[attrs["__op__"]], [x]), have, ins[0].data_type)]


@lowering("Square")
def _square(g, xs, ins, outs, attrs):
    x, have = g.up(xs[0], ins[0].data_type)
    return [g.down(g.node("Mul", [x, x]), have, ins[0].data_type)]


def _affine(g: Graph, x: str, have: int, attrs: Dict[str, Any]) -> str:
    """scale * x + shift, skipping the identity parts."""
    ctype = dtypes.numpy_dtype(have)
    if attrs["scale"] != 1.0:
        x = g.node("Mul", [x, g.const(np.array(attrs["scale"], ctype))])
    if attrs["shift"] != 0.0:
        x = g.node("Add", [x, g.const(np.array(attrs["shift"], ctype))])
    return x


def _base(attrs: Dict[str, Any]) -> Optional[float]:
    """ln(base), or None for the natural base (-1); other non-positive bases are invalid."""
    base = attrs["base"]
    if base == -1.0:
        return None
    if base <= 0 or base == 1.0:
        raise LowerError(f"attribute base={base} must be -1 (natural) or a positive number other than 1")
    return math.log(base)


@lowering("Exp")
def _exp(g, xs, ins, outs, attrs):
    """y = base ** (scale * x + shift), base -1 meaning e (IR Exp)."""
    x, have = g.up(xs[0], ins[0].data_type)
    t, ln = _affine(g, x, have, attrs), _base(attrs)
    if ln is not None:
        t = g.node("Mul", [t, g.const(np.array(ln, dtypes.numpy_dtype(have)))])
    return [g.down(g.node("Exp", [t]), have, ins[0].data_type)]


@lowering("Log")
def _log(g, xs, ins, outs, attrs):
    """y = log_base(scale * x + shift), base -1 meaning e (IR Log)."""
    x, have = g.up(xs[0], ins[0].data_type)
    y, ln = g.node("Log", [_affine(g, x, have, attrs)]), _base(attrs)
    if ln is not None:
        y = g.node("Div", [y, g.const(np.array(ln, dtypes.numpy_dtype(have)))])
    return [g.down(y, have, ins[0].data_type)]


@lowering("Cast")
def _cast(g, xs, ins, outs, attrs):
    """ONNX Cast (float -> integer truncates toward zero; whether the NPU rounds instead: UNCONFIRMED).
    The optional ``truncate`` attribute is accepted and ignored (UNCONFIRMED)."""
    dst = attrs["dst_type"]
    if dst not in dtypes.ACL_TO_ONNX:
        raise LowerError(f"dst_type {dst} is not a data type the simulator can produce")
    return [g.cast(xs[0], dst)]


def _argmax(g: Graph, x: str, info: TensorInfo, axis: int, out_type: int) -> str:
    x, _ = g.up(x, info.data_type)
    return g.cast(g.node("ArgMax", [x], axis=axis, keepdims=0), out_type)


@lowering("ArgMaxD")
def _argmax_d(g, xs, ins, outs, attrs):
    """Index of the first maximum along ``dimension`` (int32 out, whatever ``dtype`` says — IR)."""
    axis = _rank_axis(attrs["dimension"], len(ins[0].dims), "dimension")
    return [_argmax(g, xs[0], ins[0], axis, ACL_INT32)]


def _axis_candidates(info: TensorInfo, out_dims: List[int]) -> List[int]:
    """Axes whose removal gives the output shape (a [1] output also fits a rank-1 input)."""
    found = []
    for axis in range(len(info.dims)):
        reduced = info.dims[:axis] + info.dims[axis + 1:]
        if reduced == out_dims or (not reduced and out_dims == [1]):
            found.append(axis)
    return found


@lowering("ArgMaxV2")
def _argmax_v2(g, xs, ins, outs, attrs):
    """``dimension`` is a tensor: its compiled const value, else the one axis the output shape
    allows (the run checks the tensor holds it; see value_checks)."""
    rank = len(ins[0].dims)
    if ins[1].values is not None:
        if len(ins[1].values) != 1:
            raise LowerError(f"dimension must hold one value, it holds {ins[1].values}")
        axis = _rank_axis(ins[1].values[0], rank, "dimension")
    else:
        found = _axis_candidates(ins[0], outs[0].dims)
        if len(found) != 1:
            raise LowerError(f"the output shape {outs[0].dims} does not single out the dimension of input "
                             f"{ins[0].dims}; compile dimension as a const (\"is_const\": true, "
                             f"\"const_value\": [axis])")
        axis = found[0]
        g.checks[1] = [[axis], [axis - rank]]
    return [_argmax(g, xs[0], ins[0], axis, attrs["dtype"])]


def _slice_ends(offsets: List[int], size: List[int]) -> List[int]:
    return [INT64_MAX if s == -1 else o + s for o, s in zip(offsets, size)]


@lowering("SliceD")
def _slice_d(g, xs, ins, outs, attrs):
    """y = x[offsets : offsets + size] per dimension (size -1: to the end)."""
    rank = len(ins[0].dims)
    offsets, size = list(attrs["offsets"]), list(attrs["size"])
    if len(offsets) != rank or len(size) != rank:
        raise LowerError(f"offsets {offsets} and size {size} need one entry per dimension of {ins[0].dims}")
    bad = [i for i in range(rank) if offsets[i] < 0 or size[i] < -1 or
           (size[i] != -1 and offsets[i] + size[i] > ins[0].dims[i])]
    if bad:
        raise LowerError(f"offsets {offsets} + size {size} leave the input dims {ins[0].dims} at dimension {bad[0]}")
    return [g.node("Slice", [xs[0], _i64(g, offsets), _i64(g, _slice_ends(offsets, size)),
                             _i64(g, list(range(rank)))])]


@lowering("Slice")
def _slice(g, xs, ins, outs, attrs):
    """Slice with offsets/size tensors: consts when compiled so, else read at run time."""
    if ins[1].values is not None and ins[2].values is not None:
        return _slice_d(g, xs[:1], ins[:1], outs, {"offsets": ins[1].values, "size": ins[2].values})
    starts, size = g.cast(xs[1], ACL_INT64), g.cast(xs[2], ACL_INT64)
    ends = g.node("Where", [g.node("Equal", [size, _i64(g, [-1])]), _i64(g, [INT64_MAX]),
                            g.node("Add", [starts, size])])
    return [g.node("Slice", [xs[0], starts, ends])]


def _last_two(g: Graph, x: str, rank: int) -> str:
    if rank < 2:
        raise LowerError("a transposed matrix input needs at least 2 dimensions")
    return g.node("Transpose", [x], perm=list(range(rank - 2)) + [rank - 1, rank - 2])


def _matmul(g, xs, ins, outs, flags: Tuple[bool, bool]) -> List[str]:
    a, have = g.up(xs[0], ins[0].data_type)
    b, _ = g.up(xs[1], ins[1].data_type)
    if flags[0]:
        a = _last_two(g, a, len(ins[0].dims))
    if flags[1]:
        b = _last_two(g, b, len(ins[1].dims))
    y = g.node("MatMul", [a, b])
    if len(xs) > 2:
        y = g.node("Add", [y, g.up(xs[2], ins[2].data_type)[0]])
    return [g.down(y, have, ins[0].data_type)]


@lowering("BatchMatMul", "BatchMatMulV2")
def _batch_matmul(g, xs, ins, outs, attrs):
    """x1 @ x2 over the last two dims, batch dims broadcast; adj_x* transposes them first."""
    if min(len(ins[0].dims), len(ins[1].dims)) < 2:
        raise LowerError(f"BatchMatMul needs inputs of rank >= 2, got {ins[0].dims} and {ins[1].dims}")
    return _matmul(g, xs, ins, outs, (attrs["adj_x1"], attrs["adj_x2"]))


@lowering("MatMul", "MatMulV2")
def _plain_matmul(g, xs, ins, outs, attrs):
    """2-D x1 @ x2 (+ bias); transpose_x* transposes first."""
    if len(ins[0].dims) != 2 or len(ins[1].dims) != 2:
        raise LowerError(f"MatMul takes 2-D inputs, got {ins[0].dims} and {ins[1].dims} (use BatchMatMul)")
    return _matmul(g, xs, ins, outs, (attrs["transpose_x1"], attrs["transpose_x2"]))


@lowering("SoftmaxV2")
def _softmax(g, xs, ins, outs, attrs):
    """exp(x - max) / sum over ``axes``; half_to_float gives a float32 output for float16 input."""
    rank = len(ins[0].dims)
    axes = sorted({_rank_axis(a, rank, "axes entry") for a in attrs["axes"]})
    x, have = g.up(xs[0], ins[0].data_type)
    if len(axes) == 1:
        y = g.node("Softmax", [x], axis=axes[0])
    else:
        shifted = g.node("Sub", [x, g.node("ReduceMax", [x, _i64(g, axes)], keepdims=1)])
        e = g.node("Exp", [shifted])
        y = g.node("Div", [e, g.node("ReduceSum", [e, _i64(g, axes)], keepdims=1)])
    want = ACL_FLOAT if attrs["half_to_float"] and ins[0].data_type == ACL_FLOAT16 else ins[0].data_type
    return [g.down(y, have, want)]


def _perm(values: List[int], rank: int) -> List[int]:
    perm = [_rank_axis(v, rank, "perm entry") for v in values]
    if sorted(perm) != list(range(rank)):
        raise LowerError(f"perm {list(values)} is not a permutation of the {rank} dimensions")
    return perm


@lowering("TransposeD")
def _transpose_d(g, xs, ins, outs, attrs):
    return [g.node("Transpose", [xs[0]], perm=_perm(list(attrs["perm"]), len(ins[0].dims)))]


@lowering("Transpose")
def _transpose(g, xs, ins, outs, attrs):
    """perm must be compiled as a const (acl-teach: ONNX needs the permutation at build time)."""
    if ins[1].values is None:
        raise LowerError("acl-teach compiles Transpose only with a const perm (\"is_const\": true, "
                         "\"const_value\": [...]); or use TransposeD with the perm attribute")
    return [g.node("Transpose", [xs[0]], perm=_perm(ins[1].values, len(ins[0].dims)))]


@lowering("Reshape")
def _reshape(g, xs, ins, outs, attrs):
    """Reshape to the shape tensor (-1 inferred, 0 a literal zero as in TensorFlow: UNCONFIRMED)."""
    if attrs["axis"] != 0 or attrs["num_axes"] != -1:
        raise LowerError("acl-teach supports Reshape with the default axis=0, num_axes=-1 only")
    shape = _i64(g, ins[1].values) if ins[1].values is not None else g.cast(xs[1], ACL_INT64)
    return [g.node("Reshape", [xs[0], shape], allowzero=1)]


def _reduce(g: Graph, onnx_op: str, x: str, info: TensorInfo, axes: str, attrs: Dict[str, Any]) -> List[str]:
    x, have = g.up(x, info.data_type)
    y = g.node(onnx_op, [x, axes], keepdims=int(attrs["keep_dims"]),
               noop_with_empty_axes=int(attrs.get("noop_with_empty_axes", False)))
    return [g.down(y, have, info.data_type)]


@lowering("ReduceSumD", "ReduceMeanD")
def _reduce_d(g, xs, ins, outs, attrs):
    """Sum/mean over ``axes``; empty axes reduce everything unless noop_with_empty_axes (UNCONFIRMED
    for ReduceSumD, whose IR has no such attribute)."""
    rank = len(ins[0].dims)
    axes = [_rank_axis(a, rank, "axes entry") for a in attrs["axes"]]
    return _reduce(g, attrs["__op__"][:-1], xs[0], ins[0], _i64(g, axes), attrs)


@lowering("ReduceSum", "ReduceMean")
def _reduce_t(g, xs, ins, outs, attrs):
    axes = _i64(g, ins[1].values) if ins[1].values is not None else g.cast(xs[1], ACL_INT64)
    return _reduce(g, attrs["__op__"], xs[0], ins[0], axes, attrs)


@lowering("ConcatD", "ConcatV2D")
def _concat(g, xs, ins, outs, attrs):
    """Join the inputs along concat_dim (N is kept for matching, not checked: UNCONFIRMED)."""
    axis = _rank_axis(attrs["concat_dim"], len(ins[0].dims), "concat_dim")
    return [g.node("Concat", list(xs), axis=axis)]


def _pads(paddings: List[List[int]], rank: int) -> List[int]:
    if len(paddings) != rank or any(len(p) != 2 or min(p) < 0 for p in paddings):
        raise LowerError(f"paddings {paddings} need one non-negative [before, after] pair per dimension ({rank})")
    return [p[0] for p in paddings] + [p[1] for p in paddings]


@lowering("PadD")
def _pad_d(g, xs, ins, outs, attrs):
    """Zero padding: paddings[d] = [before, after]."""
    pads = _pads([list(p) for p in attrs["paddings"]], len(ins[0].dims))
    return [g.node("Pad", [xs[0], _i64(g, pads)])]


@lowering("Pad")
def _pad(g, xs, ins, outs, attrs):
    if ins[1].values is not None:
        rank = len(ins[0].dims)
        pairs = [ins[1].values[i:i + 2] for i in range(0, len(ins[1].values), 2)]
        return [g.node("Pad", [xs[0], _i64(g, _pads(pairs, rank))])]
    pads = g.node("Reshape", [g.node("Transpose", [g.cast(xs[1], ACL_INT64)], perm=[1, 0]), _i64(g, [-1])])
    return [g.node("Pad", [xs[0], pads])]


def lower(op: str, graph: Graph, names: List[str], inputs: List[TensorInfo], outputs: List[TensorInfo],
          attrs: Dict[str, Any]) -> List[str]:
    """Add ``op``'s nodes to ``graph``; return the names of its outputs (LowerError when impossible)."""
    assert op in OPS and op in LOWER, op
    return LOWER[op](graph, names, inputs, outputs, dict(attrs, __op__=op))
