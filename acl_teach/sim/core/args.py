"""Argument parsing exactly as pyACL's C binding: ``PyArg_ParseTuple`` (CPython 3.11 getargs.c) plus its CHECK macro.

Every wrapper of the binding parses with ``CHECK_NULL(PyArg_ParseTuple(args, fmt, ...), "acl.x.y args parse
failed!")``: any parse error (count, type, overflow) is replaced by ``TypeError`` with the binding's own text, which
``acl_teach.spec.binding`` records per function (trailing ``!`` or not, typos included). A wrapper that never calls
``PyArg_ParseTuple`` ignores extra positional arguments. Letters, as CPython converts them:

* ``b`` unsigned char, ``h`` short, ``i`` int, ``l`` long, ``L`` long long: ``__index__`` (int, bool, numpy ints),
  range checked (OverflowError); floats and strings refused.
* ``B``, ``H``, ``I``: ``__index__``, then masked to 8 / 16 / 32 bits (no range check).
* ``k``, ``K`` (unsigned long / long long, the handles and pointers): only ``int`` and its subclasses (bool),
  masked to 64 bits; numpy integers are refused ("must be int, not numpy.int64").
* ``f``, ``d``: any real number (``__float__``, else ``__index__``); ``f`` rounds to a C float (inf past FLT_MAX).
* ``s``: ``str`` without NUL characters, UTF-8 encodable; ``O``: any object; ``|``: the rest is optional.
"""
from __future__ import annotations

import functools
import math
import operator
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from ...spec.binding import TABLE
from .state import require_init

_INDEX_RANGES = {"b": (0, 0xFF, "unsigned byte integer"), "h": (-(1 << 15), (1 << 15) - 1, "signed short integer"),
                 "i": (-(1 << 31), (1 << 31) - 1, "signed integer")}
_MASKS = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFFFFFF, "k": (1 << 64) - 1, "K": (1 << 64) - 1}
_LONG = (-(1 << 63), (1 << 63) - 1)
_HINTS = {"k": "Pass an int (a pointer or handle; 0 is NULL).", "K": "Pass an int."}


class ParseError(Exception):
    """One argument failed: CPython's exception type and text, and a hint for learners."""

    def __init__(self, exc_type: type, text: str, hint: str = "") -> None:
        super().__init__(text)
        self.exc_type, self.text, self.hint = exc_type, text, hint


def _type_name(value: Any) -> str:
    """The name CPython's converterr prints ('None' for None, module-qualified for extension types)."""
    if value is None:
        return "None"
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _index(value: Any) -> int:
    """PyLong_AsLong's first step: ``__index__`` or TypeError."""
    try:
        return operator.index(value)
    except TypeError:
        raise ParseError(TypeError, f"'{type(value).__name__}' object cannot be interpreted as an integer",
                         "Pass an integer (a Python int or a numpy integer).") from None


def _as_double(value: Any) -> float:
    """PyFloat_AsDouble: ``__float__``, else ``__index__``, else TypeError."""
    if isinstance(value, float):
        return value
    if hasattr(type(value), "__float__"):
        return float(value)
    if hasattr(type(value), "__index__"):
        try:
            return float(operator.index(value))
        except OverflowError:
            raise ParseError(OverflowError, "int too large to convert to float", "Pass a smaller number.") from None
    raise ParseError(TypeError, f"must be real number, not {type(value).__name__}",
                     "Pass a number (int, float or a numpy scalar).")


def _c_float(value: float) -> float:
    """A double narrowed to a C float, as the C cast does (round to nearest, inf past FLT_MAX)."""
    if math.isnan(value) or math.isinf(value):
        return value
    with np.errstate(over="ignore"):
        return float(np.float32(value))


def _as_str(value: Any, pos: int) -> str:
    """'s': a str without NUL, encodable as UTF-8."""
    if not isinstance(value, str):
        raise ParseError(TypeError, f"argument {pos} must be str, not {_type_name(value)}", "Pass a str.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ParseError(UnicodeEncodeError, str(exc), "Pass a str without lone surrogates.") from None
    if "\0" in value:
        raise ParseError(ValueError, "embedded null character", "Pass a str without NUL characters.")
    return value


def convert(letter: str, value: Any, pos: int = 1) -> Any:
    """One argument converted as PyArg_ParseTuple's ``letter`` converts it; ParseError with CPython's text."""
    if letter == "O":
        return value
    if letter == "s":
        return _as_str(value, pos)
    if letter in "fd":
        number = _as_double(value)
        return _c_float(number) if letter == "f" else number
    if letter in "kK":
        if not isinstance(value, int):
            hint = "pyACL uses 0 for NULL and the default stream, never None." if value is None else (
                "'k'/'K' take Python ints only (CPython's PyLong_Check): pass int(x) for a numpy integer."
                if isinstance(value, np.integer) else _HINTS[letter])
            raise ParseError(TypeError, f"argument {pos} must be int, not {_type_name(value)}", hint)
        return int(value) & _MASKS[letter]
    number = _index(value)
    if letter in _MASKS:  # PyLong_AsUnsignedLongMask: any size, masked
        return number & _MASKS[letter]
    if not _LONG[0] <= number <= _LONG[1]:
        if letter == "L":
            raise ParseError(OverflowError, "int too big to convert", "Pass a value that fits a C long long.")
        raise ParseError(OverflowError, "Python int too large to convert to C long",
                         "Pass a value that fits a C long.")
    if letter in _INDEX_RANGES:
        lo, hi, what = _INDEX_RANGES[letter]
        if number < lo:
            raise ParseError(OverflowError, f"{what} is less than minimum", f"Pass a value in [{lo}, {hi}].")
        if number > hi:
            raise ParseError(OverflowError, f"{what} is greater than maximum", f"Pass a value in [{lo}, {hi}].")
    return number  # 'l', 'L' and in-range 'b' / 'h' / 'i'


def _convert(letter: str, value: Any) -> Any:
    """``convert`` for PyArg_Parse of one object inside a wrapper (set_config_opt …): ValueError with CPython's text."""
    try:
        return convert(letter, value)
    except ParseError as exc:
        raise ValueError(exc.text) from None


def _count_error(fmt: str, given: int) -> Optional[ParseError]:
    """CPython's 'function takes exactly/at least/at most N argument(s) (M given)', or None."""
    letters = fmt.replace("|", "")
    least = fmt.index("|") if "|" in fmt else len(letters)
    most = len(letters)
    if least <= given <= most:
        return None
    kind = "exactly" if least == most else ("at least" if given < least else "at most")
    n = least if kind == "at least" else most
    return ParseError(TypeError, f"function takes {kind} {n} argument{'s' if n != 1 else ''} ({given} given)",
                      f"Pass {n} positional argument{'s' if n != 1 else ''}.")


def entry(api: str) -> Optional[Tuple[Optional[str], Optional[str], Optional[str], Tuple[str, ...]]]:
    """The binding's (format, parse-failure text, kind, return formats) for ``acl.x.y``, or None if it has none."""
    module, _, name = api.rpartition(".")
    return TABLE.get(module, {}).get(name)


def _fail(api: str, err: ParseError, names: Sequence[str], pos: Optional[int]) -> BaseException:
    """The exception the binding raises: the CHECK macro's TypeError text, else CPython's own error."""
    known = entry(api)
    if known is not None and known[1] is not None:
        exc_type = ValueError if known[2] == "ValueError" else TypeError
        exc: BaseException = exc_type(known[1])
    elif known is None:
        exc = TypeError(f"{api} args parse failed")
    else:  # 'native': CHECK_NULL(cond) without a message keeps CPython's error
        exc = err.exc_type(err.text) if err.exc_type is not UnicodeEncodeError else TypeError(err.text)
    where = f"argument {pos} ({names[pos - 1]})" if pos and pos <= len(names) else "the arguments"
    note = f"[acl-teach] {where}: {err.text}." + (f" {err.hint}" if err.hint else "")
    if hasattr(exc, "add_note"):
        exc.add_note(note)  # shown in tracebacks, not part of str(exc): the text stays the binding's
    return exc


def parse(api: str, fmt: str, args: Sequence[Any], names: Sequence[str] = ()) -> List[Any]:
    """Parse positional args by ``fmt`` exactly as the binding does; raise what it raises on failure."""
    err = _count_error(fmt, len(args))
    if err is not None:
        raise _fail(api, err, names, None)
    out = []
    for pos, (letter, value) in enumerate(zip(fmt.replace("|", ""), args), start=1):
        try:
            out.append(convert(letter, value, pos))
        except ParseError as exc:
            raise _fail(api, exc, names, pos) from None
    return out


# --- return shapes: Py_BuildValue formats, checked when a test suite asks for it ------------------------------------

_checking = False


def check_returns(on: bool = True) -> None:
    """Make every binding function verify its return value against the binding's Py_BuildValue formats."""
    global _checking
    _checking = bool(on)


def _item_ok(letter: str, value: Any) -> bool:
    if letter == "O":
        return True
    if letter in "kKIHBbhilL":
        return type(value) is int and (letter not in "kKIHB" or value >= 0)
    if letter in "fd":
        return type(value) is float
    if letter in "sz":
        return value is None or type(value) is str
    return False


def shape_matches(value: Any, shape: str) -> bool:
    """Whether ``value`` is what ``Py_BuildValue(shape, ...)`` builds (one letter: the item; more: a tuple)."""
    if shape == "None":
        return value is None
    shape = shape.strip("()") if len(shape) > 2 and shape[0] == "(" else shape
    if len(shape) == 1:
        return _item_ok(shape, value)
    return type(value) is tuple and len(value) == len(shape) and all(map(_item_ok, shape, value))


def _check_shape(api: str, value: Any) -> Any:
    known = entry(api)
    if known is not None and known[3] and not any(shape_matches(value, s) for s in known[3]):
        raise AssertionError(f"{api} returned {value!r}; the binding returns Py_BuildValue{list(known[3])}")
    return value


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


def _empty(outs: Any) -> Tuple[Any, ...]:
    """The values before ret when a precondition fails: ``outs`` zeros, or the given values (callables called)."""
    if isinstance(outs, int):
        return (0,) * outs
    return tuple(v() if callable(v) else v for v in outs)


def binding(api: str, fmt: str = "", needs: str = "", outs: Any = 0) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Make ``func(api, *args)`` pyACL's ``api``: positional args parsed like ``fmt``, ``needs`` checked first.

    The body receives the API name as its first argument, so it is written once. A failed
    precondition returns its code the way the call returns codes: bare, or after ``outs`` zero values
    (``(0, ret)`` for create_context, ``(0, 0, ret)`` for get_mem_info); ``outs`` may instead be the tuple of
    values to return before ret (``(0.0,)`` for a C float, ``(dict,)`` for a fresh dict each time). ``fmt`` is recorded on the function
    (``__acl_fmt__``) and checked against the binding's table by tests/test_binding_table.py; when the binding's
    wrapper never parses (its table format is None), extra positional arguments are ignored as on a board.
    """
    known = entry(api)
    never_parses = known is not None and known[0] is None and not fmt

    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        code = func.__code__
        names = code.co_varnames[1:code.co_argcount]
        short = api.rsplit(".", 1)[-1]

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            if kwargs:  # CPython's cfunction_call, before the wrapper runs
                exc = TypeError(f"{short}() takes no keyword arguments")
                if hasattr(exc, "add_note"):
                    exc.add_note(f"[acl-teach] pyACL functions are C functions: pass "
                                 f"{', '.join(names) or 'nothing'} positionally, e.g. {api}({', '.join(names)})")
                raise exc
            parsed = [] if never_parses else parse(api, fmt, args, names)
            if needs:
                ret = _precondition(api, needs)
                if ret:
                    return _empty(outs) + (ret,) if outs else ret
            result = func(api, *parsed)
            return _check_shape(api, result) if _checking else result

        call.__acl_api__ = api  # type: ignore[attr-defined]
        call.__acl_fmt__ = fmt  # type: ignore[attr-defined]
        return call
    return wrap


from ..rt import runtime as _runtime  # noqa: E402  (runtime's bindings use this module: imported last)
