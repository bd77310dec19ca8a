"""aclTensorDesc: the data type, dims and format of an operator input/output, and data type sizes.

Behaviour follows pyACL's binding (py_init_acl.cpp: ``create_tensor_desc`` parses dims with
GetValuesFromPyList into int64, ``data_type_size``/``get_tensor_desc_size`` return size_t) and
CANN's implementation (aclCreateTensorDesc accepts any data type; aclGetTensorDescElementCount is 0
for a negative dim or a size_t overflow; aclDataTypeSize is 8 for types it does not list).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ...spec import constants as C
from ...spec import dtypes
from ..core.args import binding
from ..rt.memory import host_view
from ..core.state import create_handle, destroy_handle, fail, state

SIZE_T_MAX = (1 << 64) - 1
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
# aclDataTypeSizeImpl (runtime src/acl/aclrt_impl/data_buffer.cpp); anything else (and INT64, DOUBLE,
# COMPLEX64 …) is 8 bytes, STRING and UNDEFINED 0
_TYPE_SIZES = {C.ACL_STRING: 0, C.ACL_DT_UNDEFINED: 0, C.ACL_UINT1: 1, C.ACL_INT4: 1, C.ACL_BOOL: 1, C.ACL_INT8: 1,
               C.ACL_UINT8: 1, C.ACL_HIFLOAT8: 1, C.ACL_FLOAT8_E5M2: 1, C.ACL_FLOAT8_E4M3FN: 1,
               C.ACL_FLOAT8_E8M0: 1, C.ACL_FLOAT16: 2, C.ACL_INT16: 2, C.ACL_UINT16: 2, C.ACL_BF16: 2,
               C.ACL_FLOAT: 4, C.ACL_INT32: 4, C.ACL_UINT32: 4, C.ACL_COMPLEX32: 4, C.ACL_COMPLEX128: 16}


def type_size(data_type: int) -> int:
    """Bytes per element as aclDataTypeSize reports them."""
    return _TYPE_SIZES.get(data_type, 8)


@dataclass
class TensorDesc:
    """aclTensorDesc: data type, dims, format, name, and const data once set_tensor_const ran."""

    data_type: int
    dims: List[int]
    format: int
    name: str = ""
    const: Optional[bytes] = None
    extra: Dict[str, Any] = field(default_factory=dict)  # storage/origin format, shape, ranges (base/tensor_desc_set.py)

    @property
    def elements(self) -> int:
        """aclGetTensorDescElementCount: 1 for no dims, 0 for a negative dim or a size_t overflow."""
        count = 1
        for dim in self.dims:
            if dim < 0:
                return 0
            count *= dim
            if count > SIZE_T_MAX:
                return 0
        return count

    @property
    def nbytes(self) -> int:
        """aclGetTensorDescSize: elements x type size (0 when that overflows size_t)."""
        size = self.elements * type_size(self.data_type)
        return size if size <= SIZE_T_MAX else 0

    def describe(self) -> str:
        """'ACL_FLOAT16 [8, 16] ND' for messages."""
        const = " const" if self.const is not None else ""
        return f"{dtypes.type_name(self.data_type)} {self.dims} {dtypes.format_name(self.format)[11:]}{const}"


def lookup_desc(handle: int) -> Optional[TensorDesc]:
    """The live TensorDesc behind a handle, or None."""
    return state().lookup(handle, TensorDesc)


def _dims(api: str, dims: Any) -> List[int]:
    """GetValuesFromPyList(int64): a list of ints (bools count as ints), each within int64."""
    if not isinstance(dims, list):
        raise TypeError(f"argument 2 is not list\n[acl-teach] {api}(data_type, dims, format) takes dims as a "
                        f"list of ints, e.g. [1, 1000].")
    out = []
    for value in dims:
        if not isinstance(value, int):
            raise TypeError(f"invalid data type\n[acl-teach] every dim must be a Python int, got "
                            f"{type(value).__name__} ({value!r}); use int(x) for numpy integers.")
        if not INT64_MIN <= value <= INT64_MAX:
            raise ValueError(f"PyLong_AsLongLong failed\n[acl-teach] dim {value} does not fit int64.")
        out.append(int(value))
    return out


@binding("acl.create_tensor_desc", "iOi")
def create_tensor_desc(api, data_type, dims, format):
    """A tensor desc (dims: a list of int64); any data type and format number is accepted, as in CANN."""
    parsed = _dims(api, dims)
    return create_handle(TensorDesc(data_type, parsed, format), "tensor desc",
                         f"{dtypes.type_name(data_type)} {parsed}")


@binding("acl.destroy_tensor_desc", "k")
def destroy_tensor_desc(api, desc):
    """Destroy a tensor desc (returns None, like the C void function)."""
    destroy_handle(api, desc, TensorDesc, "tensor desc")


@binding("acl.data_type_size", "i")
def data_type_size(api, data_type):
    """Bytes per element of an aclDataType (0 for ACL_STRING and ACL_DT_UNDEFINED, 8 for unknown types)."""
    return type_size(data_type)


@binding("acl.get_tensor_desc_size", "k")
def get_tensor_desc_size(api, desc):
    """Bytes of the tensor: element count x type size; 0 for a NULL/unknown desc or an overflow."""
    obj = lookup_desc(desc)
    return obj.nbytes if obj else 0


@binding("acl.get_tensor_desc_element_count", "k")
def get_tensor_desc_element_count(api, desc):
    """Product of the dims (1 for none); 0 for a NULL desc, a negative dim or an overflow."""
    obj = lookup_desc(desc)
    return obj.elements if obj else 0


@binding("acl.get_tensor_desc_type", "k")
def get_tensor_desc_type(api, desc):
    """The aclDataType, or ACL_DT_UNDEFINED (-1) for a NULL desc."""
    obj = lookup_desc(desc)
    return obj.data_type if obj else C.ACL_DT_UNDEFINED


@binding("acl.get_tensor_desc_format", "k")
def get_tensor_desc_format(api, desc):
    """The aclFormat, or ACL_FORMAT_UNDEFINED (-1) for a NULL desc."""
    obj = lookup_desc(desc)
    return obj.format if obj else C.ACL_FORMAT_UNDEFINED


@binding("acl.get_tensor_desc_num_dims", "k")
def get_tensor_desc_num_dims(api, desc):
    """Number of dims (0 for a NULL desc)."""
    obj = lookup_desc(desc)
    return len(obj.dims) if obj else 0


@binding("acl.get_tensor_desc_dim_v2", "kk")
def get_tensor_desc_dim_v2(api, desc, index):
    """(dim, ret): 100000 for a NULL desc or an index past the last dim."""
    obj = lookup_desc(desc)
    if obj is None:
        return 0, fail(100000, api, f"{state().describe_handle(desc)} is not a live tensor desc.")
    if index >= len(obj.dims):
        return 0, fail(100000, api, f"index {index} is out of range: the desc has {len(obj.dims)} dim(s).")
    return obj.dims[index], 0


@binding("acl.set_tensor_const", "kkk")
def set_tensor_const(api, desc, data_ptr, size):
    """Mark the desc const with a copy of ``size`` host bytes at ``data_ptr`` (for op models compiled with
    "is_const": true). 100000 for a NULL desc or pointer, or size 0."""
    obj = lookup_desc(desc)
    if obj is None:
        return fail(100000, api, f"{state().describe_handle(desc)} is not a live tensor desc.")
    if data_ptr == 0 or size == 0:
        return fail(100000, api, "the const data pointer is NULL or its length is 0.")
    obj.const = host_view(api, data_ptr, size).tobytes()
    return 0
