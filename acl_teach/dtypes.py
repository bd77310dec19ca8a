"""aclDataType <-> numpy <-> ONNX element types, and the byte sizes that make up buffer sizes."""
from __future__ import annotations

from typing import Dict

import numpy as np

# aclDataType value -> (name, numpy dtype)
ACL_TYPES: Dict[int, tuple] = {
    0: ("ACL_FLOAT", np.float32), 1: ("ACL_FLOAT16", np.float16), 2: ("ACL_INT8", np.int8),
    3: ("ACL_INT32", np.int32), 4: ("ACL_UINT8", np.uint8), 6: ("ACL_INT16", np.int16),
    7: ("ACL_UINT16", np.uint16), 8: ("ACL_UINT32", np.uint32), 9: ("ACL_INT64", np.int64),
    10: ("ACL_UINT64", np.uint64), 11: ("ACL_DOUBLE", np.float64), 12: ("ACL_BOOL", np.bool_),
}
# ONNX TensorProto element type -> aclDataType
ONNX_TO_ACL = {1: 0, 10: 1, 3: 2, 6: 3, 2: 4, 5: 6, 4: 7, 12: 8, 7: 9, 13: 10, 11: 11, 9: 12}
ACL_TO_ONNX = {v: k for k, v in ONNX_TO_ACL.items()}
FORMATS = {-1: "ACL_FORMAT_UNDEFINED", 0: "ACL_FORMAT_NCHW", 1: "ACL_FORMAT_NHWC", 2: "ACL_FORMAT_ND",
           3: "ACL_FORMAT_NC1HWC0", 4: "ACL_FORMAT_FRACTAL_Z", 35: "ACL_FORMAT_NC"}
FORMAT_BY_NAME = {"NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3}
# ATC --output_type names -> aclDataType
ATC_TYPES = {"FP32": 0, "FP16": 1, "UINT8": 4, "INT8": 2, "INT32": 3}


def numpy_dtype(acl_type: int) -> np.dtype:
    """numpy dtype of an aclDataType (KeyError for types a buffer cannot hold here)."""
    return np.dtype(ACL_TYPES[acl_type][1])


def type_name(acl_type: int) -> str:
    """'ACL_FLOAT16' for 1, 'ACL_DT_UNDEFINED' for -1."""
    return ACL_TYPES.get(acl_type, ("ACL_DT_UNDEFINED",))[0]


def itemsize(acl_type: int) -> int:
    """Bytes per element of an aclDataType."""
    return numpy_dtype(acl_type).itemsize


def format_name(fmt: int) -> str:
    """'ACL_FORMAT_NCHW' for 0."""
    return FORMATS.get(fmt, f"ACL_FORMAT_{fmt}")
