"""aclopAttr: typed operator attributes (``acl.op.create_attr`` and the ``set_attr_*`` family).

Argument handling copies pyACL's op.cpp: scalars parse with PyArg_ParseTuple ("ksB", "ksL", "ksf",
"kss", "ksi"); lists go through GetValuesFromPyList (ints — bools count — for int/bool lists, Python
floats only for float lists) and fail with ValueError("get values from PyList failed"); an ndarray
is accepted with a Warning and its memory read as the C element type. ``set_attr_data_type`` and
``set_attr_list_data_type`` return ``(attr, ret)`` as the binding does. Setting on a NULL attr
returns 100000; an attribute set twice keeps the last value (CANN's map assignment).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

import numpy as np

from ...spec import opmodel
from ..core.args import binding
from ..core.state import create_handle, destroy_handle, fail, state

LIST_WARNING = "argument 3 only support the format of list in the future."


@dataclass
class OpAttr:
    """aclopAttr: name -> (JSON attribute type, canonical value), as ATC's op list spells them."""

    values: Dict[str, Tuple[str, Any]] = field(default_factory=dict)


def lookup_attr(handle: int):
    """The live OpAttr behind a handle, or None."""
    return state().lookup(handle, OpAttr)


def _set(api: str, attr: int, name: str, kind: str, value: Any) -> int:
    obj = lookup_attr(attr)
    if obj is None:
        return fail(100000, api, f"{state().describe_handle(attr)} is not an op attr (acl.op.create_attr).")
    obj.values[name] = (kind, opmodel.canonical_attr(kind, value))
    return 0


def _array_values(values: Any, ctype: Any) -> List[Any]:
    """What the C code reads from an ndarray's memory: its elements as ``ctype`` (same-width arrays are
    reinterpreted; other widths are converted — real pyACL would read past or short: UNCONFIRMED)."""
    if not isinstance(values, np.ndarray):
        raise TypeError("argument 3 is not list or numpy array")
    flat = np.ascontiguousarray(values).reshape(-1)
    if flat.dtype.itemsize == np.dtype(ctype).itemsize:
        return flat.view(ctype).tolist()
    return flat.astype(ctype).tolist()


def _list_items(values: list, check) -> List[Any]:
    out = []
    for item in values:
        if not check(item):
            raise ValueError("get values from PyList failed")
        out.append(item)
    return out


def _is_int64(item: Any) -> bool:
    return isinstance(item, int) and -(1 << 63) <= item < (1 << 63)


def _list_or_array(api: str, values: Any, check, ctype: Any) -> List[Any]:
    """A list checked item by item, or (with pyACL's Warning) an ndarray read as ``ctype``."""
    if isinstance(values, list):
        return _list_items(values, check)
    warnings.warn(LIST_WARNING, Warning, stacklevel=4)
    return _array_values(values, ctype)


@binding("acl.op.create_attr")
def create_attr(api):
    """A new empty attribute set."""
    return create_handle(OpAttr(), "op attr", "")


@binding("acl.op.destroy_attr", "k")
def destroy_attr(api, attr):
    """Destroy an attribute set (returns None)."""
    destroy_handle(api, attr, OpAttr, "op attr")


@binding("acl.op.set_attr_bool", "ksB")
def set_attr_bool(api, attr, attr_name, attr_value):
    """A bool attribute (True/False or an int, stored as a C unsigned char: 256 is false)."""
    return _set(api, attr, attr_name, "bool", attr_value != 0)


@binding("acl.op.set_attr_int", "ksL")
def set_attr_int(api, attr, attr_name, attr_value):
    """An int64 attribute, e.g. ArgMaxD's 'dimension'."""
    return _set(api, attr, attr_name, "int", attr_value)


@binding("acl.op.set_attr_float", "ksf")
def set_attr_float(api, attr, attr_name, attr_value):
    """A float (C float, so float32-rounded by the 'f' parse) attribute."""
    return _set(api, attr, attr_name, "float", attr_value)


@binding("acl.op.set_attr_string", "kss")
def set_attr_string(api, attr, attr_name, attr_value):
    """A string attribute."""
    return _set(api, attr, attr_name, "string", attr_value)


@binding("acl.op.set_attr_list_bool", "ksO")
def set_attr_list_bool(api, attr, attr_name, values):
    """A list of bools: ints 0..255 (bools count), or an ndarray read as uint8."""
    items = _list_or_array(api, values, lambda v: isinstance(v, int) and 0 <= v <= 255, np.uint8)
    return _set(api, attr, attr_name, "list_bool", [v != 0 for v in items])


@binding("acl.op.set_attr_list_int", "ksO")
def set_attr_list_int(api, attr, attr_name, values):
    """A list of int64: a list of ints, or an ndarray read as int64."""
    return _set(api, attr, attr_name, "list_int", _list_or_array(api, values, _is_int64, np.int64))


@binding("acl.op.set_attr_list_float", "ksO")
def set_attr_list_float(api, attr, attr_name, values):
    """A list of floats: Python floats only (an int in the list fails), or an ndarray read as float32."""
    return _set(api, attr, attr_name, "list_float",
                _list_or_array(api, values, lambda v: isinstance(v, float), np.float32))


@binding("acl.op.set_attr_list_string", "ksO")
def set_attr_list_string(api, attr, attr_name, values):
    """A list of strings (a list is required; a non-str item raises RuntimeError as in the binding)."""
    if not isinstance(values, list):
        raise TypeError("argument 3 is not list")
    if not all(isinstance(v, str) for v in values):
        raise RuntimeError("PyUnicode_AsUTF8String failed")
    return _set(api, attr, attr_name, "list_string", values)


def _row(api: str, row: Any) -> List[int]:
    if isinstance(row, list):
        if not all(_is_int64(v) for v in row):
            raise ValueError("parse argument 3 failed")
        return row
    warnings.warn(LIST_WARNING, Warning, stacklevel=5)
    try:
        return _array_values(row, np.int64)
    except TypeError:
        raise ValueError("parse argument 3 failed") from None


@binding("acl.op.set_attr_list_list_int", "ksO")
def set_attr_list_list_int(api, attr, attr_name, values):
    """A list of int64 lists (each a list, or an ndarray read as int64), e.g. PadD's paddings."""
    if not isinstance(values, list):
        raise TypeError("argument 3 is not list")
    return _set(api, attr, attr_name, "list_list_int", [_row(api, r) for r in values])


def _ge_type(value: int) -> int:
    """aclDataType -> ge::DataType (same numbers; ACL_DT_UNDEFINED becomes DT_UNDEFINED)."""
    return opmodel.GE_DT_UNDEFINED if value == -1 else value


@binding("acl.op.set_attr_data_type", "ksi")
def set_attr_data_type(api, attr, attr_name, attr_value):
    """(attr, ret): a data type attribute, e.g. ArgMaxV2's 'dtype'."""
    return attr, _set(api, attr, attr_name, "data_type", _ge_type(attr_value))


@binding("acl.op.set_attr_list_data_type", "ksO")
def set_attr_list_data_type(api, attr, attr_name, values):
    """(attr, ret): a list of data types (a list of ints is required)."""
    if not isinstance(values, list):
        raise TypeError("the third argument is not list")
    if not all(isinstance(v, int) for v in values):
        raise TypeError("the list argument is not list of int")
    if not all(-(1 << 63) <= v < (1 << 63) for v in values):
        raise ValueError("PyLong_AsLong failed")
    return attr, _set(api, attr, attr_name, "list_data_type", [_ge_type(v) for v in values])
