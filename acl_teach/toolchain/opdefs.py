"""Ascend IR of the operators ``acl-teach atc --singleop`` can compile: inputs, outputs, attributes, data types.

Transcribed from CANN's operator prototypes (``REG_OP(...)`` in ``opp/built-in/op_proto/inc/*.h``;
copies in hicann/ge ``tests/framework/eager_style_graph_builder/proto/test_ops.h`` for Add, Sub, Mul,
Div, Relu, Sigmoid, Abs, Neg, Log, Exp, Cast, MatMul, SoftmaxV2, TransposeD, SliceD, Slice, Reshape,
Transpose, Pad, ReduceSum(D), ConcatV2D, BatchMatMulV2, MatMulV2). Data types are limited to the
ones the simulator can hold (no bfloat16, complex or quantised types). Data type sets of RealDiv,
Maximum, Minimum, Sqrt, ReduceMeanD and PadD differ between CANN versions: UNCONFIRMED.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Tuple

from ..spec import constants as C

REQUIRED = object()  # marker: REQUIRED_ATTR

F32, F16, I8, I32, U8, I16, U16, U32, I64, U64, F64, BOOL = (
    C.ACL_FLOAT, C.ACL_FLOAT16, C.ACL_INT8, C.ACL_INT32, C.ACL_UINT8, C.ACL_INT16, C.ACL_UINT16, C.ACL_UINT32,
    C.ACL_INT64, C.ACL_UINT64, C.ACL_DOUBLE, C.ACL_BOOL)
FLOATS = frozenset({F16, F32, F64})
BASIC = frozenset({F32, F16, I8, I32, U8, I16, U16, U32, I64, U64, F64})
ALL = BASIC | {BOOL}
INDEX = frozenset({I32, I64})
MATMUL = frozenset({F32, F16, I32})


@dataclass(frozen=True)
class Port:
    """An IR input/output: name, allowed data types, and its kind.

    kind: "data" (a tensor the kernel computes on), "value" (an index tensor whose *values* steer
    the kernel: axes, offsets, shapes), "optional" (may be left out at the end), "dynamic" (one or
    more tensors, DYNAMIC_INPUT).
    """

    name: str
    types: FrozenSet[int]
    kind: str = "data"


@dataclass(frozen=True)
class Attr:
    """An IR attribute: name, JSON type, default (REQUIRED when it has none)."""

    name: str
    kind: str
    default: Any = REQUIRED


@dataclass(frozen=True)
class OpDef:
    """One operator's IR. ``same_type``: the data inputs and the output share one type T."""

    inputs: Tuple[Port, ...]
    outputs: Tuple[Port, ...]
    attrs: Tuple[Attr, ...] = ()
    same_type: bool = True

    def attr(self, name: str) -> Any:
        """The IR attribute called ``name``, or None."""
        return next((a for a in self.attrs if a.name == name), None)


def _binary(types: FrozenSet[int], same_type: bool = True) -> OpDef:
    return OpDef((Port("x1", types), Port("x2", types)), (Port("y", types),), same_type=same_type)


def _unary(types: FrozenSet[int], *attrs: Attr) -> OpDef:
    return OpDef((Port("x", types),), (Port("y", types),), attrs)


_EXP_LOG = (Attr("base", "float", -1.0), Attr("scale", "float", 1.0), Attr("shift", "float", 0.0))
_CAST = ALL
_CONCAT = frozenset({F32, F16, I8, I16, I32, I64, U8, U16, U32, U64})

OPS: Dict[str, OpDef] = {
    "Add": _binary(frozenset({BOOL, F32, I32, I64, F16, I16, I8, U8, F64})),
    "Sub": _binary(frozenset({F32, F16, F64, U8, I8, U16, I16, I32, I64, BOOL})),
    "Mul": _binary(frozenset({BOOL, F16, F32, F64, U8, I8, U16, I16, I32, I64}), same_type=False),
    "Div": _binary(frozenset({F32, F16, I8, U8, I32, F64, I64, U16, I16})),
    "RealDiv": _binary(frozenset({F16, F32, F64, U8, I8, U16, I16, I32, I64})),
    "Maximum": _binary(frozenset({F16, F32, F64, I32, I64})),
    "Minimum": _binary(frozenset({F16, F32, F64, I32, I64})),
    "Relu": _unary(frozenset({F32, F16, F64, I8, I32, I16, I64, U8, U16})),
    "Sigmoid": _unary(FLOATS),
    "Tanh": _unary(FLOATS),
    "Sqrt": _unary(FLOATS),
    "Square": _unary(frozenset({F64, F16, F32, I32, I64})),
    "Exp": _unary(FLOATS, *_EXP_LOG),
    "Log": _unary(FLOATS, *_EXP_LOG),
    "Abs": _unary(frozenset({U8, BOOL, F16, F32, F64, I8, I16, I32, I64})),
    "Neg": _unary(frozenset({F16, F32, F64, I8, I32, I64})),
    "Cast": OpDef((Port("x", _CAST),), (Port("y", _CAST),),
                  (Attr("dst_type", "int"), Attr("truncate", "bool", False)), same_type=False),
    "ArgMaxV2": OpDef((Port("x", BASIC), Port("dimension", INDEX, "value")), (Port("y", INDEX),),
                      (Attr("dtype", "data_type", C.ACL_INT64),), same_type=False),
    "ArgMaxD": OpDef((Port("x", frozenset({F32, F16})),), (Port("y", frozenset({I32})),),
                     (Attr("dimension", "int"), Attr("dtype", "data_type", C.ACL_INT64)), same_type=False),
    "SliceD": OpDef((Port("x", BASIC),), (Port("y", BASIC),), (Attr("offsets", "list_int"), Attr("size", "list_int"))),
    "Slice": OpDef((Port("x", BASIC), Port("offsets", INDEX, "value"), Port("size", INDEX, "value")),
                   (Port("y", BASIC),)),
    "BatchMatMul": OpDef((Port("x1", MATMUL), Port("x2", MATMUL)), (Port("y", MATMUL),),
                         (Attr("adj_x1", "bool", False), Attr("adj_x2", "bool", False))),
    "BatchMatMulV2": OpDef((Port("x1", MATMUL), Port("x2", MATMUL), Port("bias", MATMUL, "optional")),
                           (Port("y", MATMUL),),
                           (Attr("adj_x1", "bool", False), Attr("adj_x2", "bool", False), Attr("offset_x", "int", 0))),
    "MatMul": OpDef((Port("x1", MATMUL), Port("x2", MATMUL), Port("bias", MATMUL, "optional")), (Port("y", MATMUL),),
                    (Attr("transpose_x1", "bool", False), Attr("transpose_x2", "bool", False))),
    "MatMulV2": OpDef((Port("x1", MATMUL), Port("x2", MATMUL), Port("bias", MATMUL, "optional")), (Port("y", MATMUL),),
                      (Attr("transpose_x1", "bool", False), Attr("transpose_x2", "bool", False),
                       Attr("offset_x", "int", 0))),
    "SoftmaxV2": OpDef((Port("x", FLOATS),), (Port("y", FLOATS),),
                       (Attr("axes", "list_int", (-1,)), Attr("half_to_float", "bool", False)), same_type=False),
    "TransposeD": OpDef((Port("x", _CONCAT),), (Port("y", _CONCAT),), (Attr("perm", "list_int"),)),
    "Transpose": OpDef((Port("x", ALL), Port("perm", INDEX, "value")), (Port("y", ALL),)),
    "Reshape": OpDef((Port("x", ALL), Port("shape", INDEX, "value")), (Port("y", ALL),),
                     (Attr("axis", "int", 0), Attr("num_axes", "int", -1))),
    "ReduceSumD": OpDef((Port("x", frozenset({F16, F32})),), (Port("y", frozenset({F16, F32})),),
                        (Attr("axes", "list_int"), Attr("keep_dims", "bool", False))),
    "ReduceSum": OpDef((Port("x", BASIC), Port("axes", INDEX, "value")), (Port("y", BASIC),),
                       (Attr("keep_dims", "bool", False), Attr("noop_with_empty_axes", "bool", True))),
    "ReduceMeanD": OpDef((Port("x", frozenset({F16, F32})),), (Port("y", frozenset({F16, F32})),),
                         (Attr("axes", "list_int"), Attr("keep_dims", "bool", False),
                          Attr("noop_with_empty_axes", "bool", False))),
    "ReduceMean": OpDef((Port("x", BASIC), Port("axes", INDEX, "value")), (Port("y", BASIC),),
                        (Attr("keep_dims", "bool", False), Attr("noop_with_empty_axes", "bool", True))),
    "ConcatD": OpDef((Port("x", _CONCAT, "dynamic"),), (Port("y", _CONCAT),),
                     (Attr("concat_dim", "int"), Attr("N", "int", 1))),
    "ConcatV2D": OpDef((Port("x", _CONCAT, "dynamic"),), (Port("y", _CONCAT),),
                       (Attr("concat_dim", "int"), Attr("N", "int", 1))),
    "PadD": OpDef((Port("x", frozenset({F16, F32, I32, I8, U8})),), (Port("y", frozenset({F16, F32, I32, I8, U8})),),
                  (Attr("paddings", "list_list_int"),)),
    "Pad": OpDef((Port("x", ALL), Port("paddings", INDEX, "value")), (Port("y", ALL),)),
}
