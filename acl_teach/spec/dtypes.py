"""aclDataType <-> numpy <-> ONNX element types, and the byte sizes that make up buffer sizes."""
from __future__ import annotations

from typing import Dict

import numpy as np

from . import constants as C

# aclDataType value -> (name, numpy dtype)
ACL_TYPES: Dict[int, tuple] = {
    C.ACL_FLOAT: ("ACL_FLOAT", np.float32), C.ACL_FLOAT16: ("ACL_FLOAT16", np.float16),
    C.ACL_INT8: ("ACL_INT8", np.int8), C.ACL_INT32: ("ACL_INT32", np.int32), C.ACL_UINT8: ("ACL_UINT8", np.uint8),
    C.ACL_INT16: ("ACL_INT16", np.int16), C.ACL_UINT16: ("ACL_UINT16", np.uint16),
    C.ACL_UINT32: ("ACL_UINT32", np.uint32), C.ACL_INT64: ("ACL_INT64", np.int64),
    C.ACL_UINT64: ("ACL_UINT64", np.uint64), C.ACL_DOUBLE: ("ACL_DOUBLE", np.float64),
    C.ACL_BOOL: ("ACL_BOOL", np.bool_),
}
# ONNX TensorProto element type -> aclDataType
ONNX_TO_ACL = {1: C.ACL_FLOAT, 10: C.ACL_FLOAT16, 3: C.ACL_INT8, 6: C.ACL_INT32, 2: C.ACL_UINT8, 5: C.ACL_INT16,
               4: C.ACL_UINT16, 12: C.ACL_UINT32, 7: C.ACL_INT64, 13: C.ACL_UINT64, 11: C.ACL_DOUBLE, 9: C.ACL_BOOL}
ACL_TO_ONNX = {v: k for k, v in ONNX_TO_ACL.items()}
FORMATS = C.FORMAT_NAMES
FORMAT_BY_NAME = {"NCHW": C.ACL_FORMAT_NCHW, "NHWC": C.ACL_FORMAT_NHWC, "ND": C.ACL_FORMAT_ND,
                  "NC1HWC0": C.ACL_FORMAT_NC1HWC0, "NDHWC": C.ACL_FORMAT_NDHWC, "NCDHW": C.ACL_FORMAT_NCDHW}
# ATC --output_type names -> aclDataType
ATC_TYPES = {"FP32": C.ACL_FLOAT, "FP16": C.ACL_FLOAT16, "UINT8": C.ACL_UINT8, "INT8": C.ACL_INT8,
             "INT32": C.ACL_INT32}


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
