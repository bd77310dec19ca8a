"""Argument parsing that behaves like pyACL's C binding (PyArg_ParseTuple), so wrong calls fail alike.

Format letters follow CPython: ``k`` unsigned long (masked, no overflow check), ``K`` unsigned
long long, ``I`` unsigned int (masked), ``B`` unsigned char (masked to 8 bits), ``i`` int (range checked), ``L`` long long, ``s`` str,
``O`` any object, ``|`` starts the optional arguments.
"""
from __future__ import annotations

import functools
import math
import struct
from typing import Any, Callable, List, Sequence

from .state import require_init

_TYPE_NAMES = {"k": "int (a pointer or handle; 0 is NULL)", "K": "int", "I": "int", "i": "int", "L": "int",
               "B": "a bool or an int (a C unsigned char)", "s": "str", "O": "object",
               "b": "an int 0..255 (a C unsigned char)", "h": "an int -32768..32767 (a C short)",
               "H": "an int (a C unsigned short)", "f": "a number (a C float)"}
_MASKS = {"k": (1 << 64) - 1, "K": (1 << 64) - 1, "I": (1 << 32) - 1, "B": 0xFF, "H": 0xFFFF}
_RANGES = {"b": (0, 255), "h": (-(1 << 15), (1 << 15) - 1)}


def _c_float(value: Any) -> float:
    """``f``: any real number (numpy scalars too), rounded to a C float as the binding stores it."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__float__"):
        raise ValueError(f"must be real number, not {type(value).__name__}")
    x = float(value)
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _convert(letter: str, value: Any) -> Any:
    """Convert one argument or raise ValueError with the reason."""
    if letter == "O":
        return value
    if letter == "f":
        return _c_float(value)
    if letter == "s":
        if not isinstance(value, str):
            raise ValueError(f"expected str, got {type(value).__name__}")
        if "\0" in value:
            raise ValueError("embedded NUL character in str")
        return value
    if isinstance(value, bool):  # PyArg_ParseTuple's integer formats take bool (an int subclass): so do we
        value = int(value)
    if not isinstance(value, int):
        if value is None:
            raise ValueError("got None; pyACL uses 0 for NULL / the default stream")
        raise ValueError(f"expected int, got {type(value).__name__}")
    if letter in _MASKS:
        return value & _MASKS[letter]
    if letter in _RANGES and not _RANGES[letter][0] <= value <= _RANGES[letter][1]:
        raise ValueError(f"{value} is out of range {_RANGES[letter][0]}..{_RANGES[letter][1]}")
    if letter == "i" and not -(1 << 31) <= value < (1 << 31):
        raise ValueError("int out of range for a C int")
    if letter == "L" and not -(1 << 63) <= value < (1 << 63):
        raise ValueError("int out of range for a C long long")
    return value


def parse(api: str, fmt: str, args: Sequence[Any], names: Sequence[str]) -> List[Any]:
    """Parse positional args by ``fmt``; raise TypeError in the binding's style on mismatch."""
    letters = fmt.replace("|", "")
    required = fmt.index("|") if "|" in fmt else len(fmt)
    suffix = "!" if api.startswith("acl.mdl.") else ""
    if not required <= len(args) <= len(letters):
        want = str(required) if required == len(letters) else f"{required} to {len(letters)}"
        raise TypeError(f"{api} args parse failed{suffix}\n[acl-teach] {api} takes {want} positional "
                        f"argument(s) ({', '.join(names)}), got {len(args)}")
    out = []
    for pos, (letter, value) in enumerate(zip(letters, args)):
        try:
            out.append(_double(value) if letter == "d" else _convert(letter, value))
        except ValueError as exc:
            raise TypeError(f"{api} args parse failed{suffix}\n[acl-teach] argument {pos + 1} "
                            f"({names[pos]}) must be {_TYPE_NAMES.get(letter, 'a float (a C double)')}: {exc}") from None
    return out


def _double(value: Any) -> float:
    """``d`` (a C double, PyFloat_AsDouble): floats, ints and anything with __float__ or __index__."""
    if isinstance(value, (str, bytes)) or not (hasattr(value, "__float__") or hasattr(value, "__index__")):
        raise ValueError(f"must be real number, not {type(value).__name__}")
    return float(value)


INIT = "init"          # the call needs acl.init first
CONTEXT = "context"    # ... and a current context in the calling thread


def _precondition(api: str, needs: str) -> int:
    """0, or the code the call returns when acl.init (and a current context) are missing.

    No import runs here (nor anywhere on a call path): during interpreter shutdown the import system
    is gone, and a ``__del__`` that releases resources must still work.
    """
    ret = require_init(api)
    if not ret and needs == CONTEXT:
        ret = _runtime.current_context(api)[1]
    return ret


def binding(api: str, fmt: str = "", needs: str = "", outs: int = 0) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Make ``func(api, *args)`` pyACL's ``api``: positional args parsed like ``fmt``, ``needs`` checked first.

    The body receives the API name as its first argument, so it is written once. A failed
    precondition returns its code the way the call returns codes: bare, or after ``outs`` zero values
    (``(0, ret)`` for create_context, ``(0, 0, ret)`` for get_mem_info).
    """
    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        code = func.__code__
        names = code.co_varnames[1:code.co_argcount]

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                raise TypeError(f"{api.rsplit('.', 1)[-1]}() takes no keyword arguments\n[acl-teach] "
                                f"pyACL functions are C functions: pass {', '.join(names) or 'nothing'} "
                                f"positionally, e.g. {api}({', '.join(names)})")
            parsed = parse(api, fmt, args, names)
            if needs:
                ret = _precondition(api, needs)
                if ret:
                    return (0,) * outs + (ret,) if outs else ret
            return func(api, *parsed)

        call.__acl_api__ = api  # type: ignore[attr-defined]
        call.__acl_fmt__ = fmt  # type: ignore[attr-defined]
        return call
    return wrap


from . import runtime as _runtime  # noqa: E402  (runtime's bindings use this module: imported last)
