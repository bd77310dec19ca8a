"""The ``acl.set_tensor_*`` setters and the remaining aclTensorDesc getters (names, dims, dim ranges).

Formats and return shapes from py_init_acl.cpp at 134e2edb: the setters return the bare ret
(``set_tensor_desc_name`` None); shape lists are parsed like GetValuesFromPyList (int64 each),
ranges like ConvertPyListToLongLongArrayV2 (a list of [min, max] lists). What the runtime keeps:
format and shape replace the desc's own (they decide its size and what an operator is matched
with); storage/origin format and shape, shape and value ranges, the dynamic-input name and the
placement are kept on the desc for the op-model matching and for inspection.
UNCONFIRMED: 100000 for a NULL desc (ACL_REQUIRES_NOT_NULL) and for a range whose min > max.
"""
from __future__ import annotations

from typing import Any, List

from ..core.args import binding
from .tensor_desc import INT64_MAX, INT64_MIN, _dims, lookup_desc
from ..core.state import fail, state


def _desc(api: str, handle: int):
    obj = lookup_desc(handle)
    if obj is None:
        return None, fail(100000, api, f"{state().describe_handle(handle)} is not a live tensor desc "
                          f"(acl.create_tensor_desc).")
    return obj, 0


def _ranges(api: str, value: Any) -> List[List[int]]:
    """ConvertPyListToLongLongArrayV2(rows, 2): [[min, max], …] of int64."""
    if not isinstance(value, list):
        raise TypeError("argument 2 is not list")
    out = []
    for row in value:
        if not isinstance(row, list):
            raise TypeError("the list argument is not list")
        if len(row) < 2 or not all(isinstance(v, int) for v in row[:2]):
            raise TypeError("the list argument is not list of int")
        if not all(INT64_MIN <= v <= INT64_MAX for v in row[:2]):
            raise ValueError("PyLong_AsLongLong failed")
        out.append([int(row[0]), int(row[1])])
    return out


def _set(api: str, handle: int, key: str, value: Any) -> int:
    obj, ret = _desc(api, handle)
    if ret:
        return ret
    if key == "format":
        obj.format = value
    elif key == "shape":
        obj.dims = value
    else:
        obj.extra[key] = value
    return 0


@binding("acl.set_tensor_format", "ki")
def set_tensor_format(api, tensor_desc, format):
    """Change the desc's format (what an operator is matched and sized with)."""
    return _set(api, tensor_desc, "format", format)


@binding("acl.set_tensor_shape", "kO")
def set_tensor_shape(api, tensor_desc, dims):
    """Change the desc's dims (a list of int64) — e.g. the real shape of a dynamic-shape input."""
    return _set(api, tensor_desc, "shape", _dims(api, dims))


@binding("acl.set_tensor_storage_format", "ki")
def set_tensor_storage_format(api, tensor_desc, format):
    """Record the format the data has in device memory (kept on the desc)."""
    return _set(api, tensor_desc, "storage_format", format)


@binding("acl.set_tensor_storage_shape", "kO")
def set_tensor_storage_shape(api, tensor_desc, dims):
    """Record the shape the data has in device memory (kept on the desc)."""
    return _set(api, tensor_desc, "storage_shape", _dims(api, dims))


@binding("acl.set_tensor_origin_format", "ki")
def set_tensor_origin_format(api, tensor_desc, format):
    """Record the format of the original framework tensor (kept on the desc)."""
    return _set(api, tensor_desc, "origin_format", format)


@binding("acl.set_tensor_origin_shape", "kO")
def set_tensor_origin_shape(api, tensor_desc, dims):
    """Record the shape of the original framework tensor (kept on the desc)."""
    return _set(api, tensor_desc, "origin_shape", _dims(api, dims))


@binding("acl.set_tensor_dynamic_input", "ks")
def set_tensor_dynamic_input(api, tensor_desc, dynamic_input_name):
    """Name the dynamic input (an operator input that takes a list of tensors) this desc belongs to."""
    return _set(api, tensor_desc, "dynamic_input", dynamic_input_name)


@binding("acl.set_tensor_shape_range", "kO")
def set_tensor_shape_range(api, tensor_desc, dims_range):
    """Record [min, max] per dim of a dynamic-shape tensor (-1 as max: unbounded)."""
    ranges = _ranges(api, dims_range)
    if any(lo > hi and hi != -1 for lo, hi in ranges):
        return fail(100000, api, f"shape range {ranges}: every [min, max] needs min <= max (max -1: no limit).")
    return _set(api, tensor_desc, "shape_range", ranges)


@binding("acl.set_tensor_value_range", "kO")
def set_tensor_value_range(api, tensor_desc, value_range):
    """Record [min, max] of the values a tensor may hold (used by the operator compiler)."""
    return _set(api, tensor_desc, "value_range", _ranges(api, value_range))


@binding("acl.set_tensor_place_ment", "ki")
def set_tensor_place_ment(api, tensor_desc, mem_type):
    """Say where the tensor's data lives: ACL_MEMTYPE_DEVICE 0, ACL_MEMTYPE_HOST 1, HOST_COMPILE_INDEPENDENT 2."""
    if mem_type not in (0, 1, 2):
        return fail(100000, api, f"mem_type {mem_type} is not an aclMemType (0 device, 1 host, 2 host, "
                    f"compile-independent).")
    return _set(api, tensor_desc, "placement", mem_type)


@binding("acl.set_tensor_desc_name", "ks")
def set_tensor_desc_name(api, desc, name):
    """Name the tensor (returns None, like the C void function)."""
    obj = lookup_desc(desc)
    if obj is not None:
        obj.name = name
    return None


@binding("acl.get_tensor_desc_name", "k")
def get_tensor_desc_name(api, desc):
    """The tensor's name ('' when none was set or the desc is NULL)."""
    obj = lookup_desc(desc)
    return obj.name if obj else ""


@binding("acl.get_tensor_desc_dim", "kk")
def get_tensor_desc_dim(api, desc, index):
    """Dim ``index`` (-1 for a NULL desc or an index past the last dim; deprecated for get_tensor_desc_dim_v2)."""
    obj = lookup_desc(desc)
    if obj is None or index >= len(obj.dims):
        fail(100000, api, "NULL desc or index out of range; returned -1.", quiet=True)
        return -1
    return obj.dims[index]


@binding("acl.get_tensor_desc_dim_range", "kkk")
def get_tensor_desc_dim_range(api, desc, index, dim_range_num):
    """([min, max], ret) of dim ``index``: its shape range, or [dim, dim] for a fixed dim (dim_range_num 2)."""
    if dim_range_num > 4096:
        return None, 100000
    obj, ret = _desc(api, desc)
    if ret:
        return None, ret
    if index >= len(obj.dims) or dim_range_num != 2:
        return None, fail(100000, api, f"index {index} must be < {len(obj.dims)} and dim_range_num 2 "
                          f"(ACL_TENSOR_SHAPE_RANGE_NUM), got {dim_range_num}.")
    ranges = obj.extra.get("shape_range")
    if ranges and index < len(ranges):
        return list(ranges[index]), 0
    return [obj.dims[index], obj.dims[index]], 0


__all__ = ["set_tensor_format", "set_tensor_shape", "set_tensor_storage_format", "set_tensor_storage_shape",
           "set_tensor_origin_format", "set_tensor_origin_shape", "set_tensor_dynamic_input",
           "set_tensor_shape_range", "set_tensor_value_range", "set_tensor_place_ment", "set_tensor_desc_name",
           "get_tensor_desc_name", "get_tensor_desc_dim", "get_tensor_desc_dim_range"]
