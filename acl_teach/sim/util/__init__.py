"""``acl.util``: turning Python objects into C pointers and back, and native-style worker threads.

``bytes_to_ptr``/``numpy_to_ptr`` return the address *inside* the object (no copy): writes
through the pointer change the object, and the pointer is valid only while the object lives —
after that a board reads freed memory; the simulator copies what the object held and warns
(memory.py). ``ptr_to_bytes`` copies; ``ptr_to_numpy`` is a view.
"""
from __future__ import annotations

import ctypes
import math
import sys
import threading
import warnings
from typing import Any, Dict, List

import numpy as np

from ..core.args import binding
from ..rt.memory import DEVICE_BASE, host_view, space, write_problem
from ..core.state import fail, state

_NPY_TYPES = {0: np.bool_, 1: np.int8, 2: np.uint8, 3: np.int16, 4: np.uint16, 5: np.int32,
              6: np.uint32, 7: np.int64, 8: np.uint64, 9: np.longlong, 10: np.ulonglong,
              11: np.float32, 12: np.float64, 23: np.float16}


try:  # numpy >= 2 moved it; Ascend boards often still run numpy 1.x
    from numpy.lib.array_utils import byte_bounds as _byte_bounds
except ImportError:  # pragma: no cover
    _byte_bounds = np.byte_bounds


def _bytes_address(b: bytes) -> int:
    return ctypes.cast(ctypes.c_char_p(b), ctypes.c_void_p).value or 0


@binding("acl.util.bytes_to_ptr", "O")
def bytes_to_ptr(api, data):
    """Address of the bytes object's own buffer (zero-copy); keep ``data`` alive while you use it."""
    if not isinstance(data, bytes):
        raise ValueError("needs an byte as argument\n[acl-teach] acl.util.bytes_to_ptr takes a bytes "
                         f"object (e.g. array.tobytes()), got {type(data).__name__}.")
    return space().register_user(data, _bytes_address(data), len(data), "bytes")


@binding("acl.util.numpy_to_ptr", "O")
def numpy_to_ptr(api, array):
    """Address of an ndarray's data (zero-copy; deprecated in pyACL in favour of bytes_to_ptr)."""
    if not isinstance(array, np.ndarray):
        raise ValueError("the input parameter is not ndarray\n[acl-teach] acl.util.numpy_to_ptr takes "
                         f"a numpy.ndarray, got {type(array).__name__}.")
    warnings.warn("acl.util.numpy_to_ptr will be deprecated. Please use acl.util.bytes_to_ptr",
                  DeprecationWarning, stacklevel=3)
    address = array.__array_interface__["data"][0]
    size = array.nbytes
    if not array.flags.c_contiguous:
        warnings.warn("acl.util.numpy_to_ptr: the array is not C-contiguous; the bytes at this pointer are "
                      "not in the array's logical order. Use numpy_contiguous_to_ptr or "
                      "np.ascontiguousarray.", RuntimeWarning, stacklevel=3)
        size = max(0, min(size, _byte_bounds(array)[1] - address))
    return space().register_user(array, address, size, "numpy")


@binding("acl.util.numpy_contiguous_to_ptr", "O")
def numpy_contiguous_to_ptr(api, array):
    """(pointer, contiguous array): keep the returned array alive while you use the pointer."""
    if not isinstance(array, np.ndarray):
        raise ValueError("the input parameter is not ndarray")
    contiguous = np.ascontiguousarray(array)
    address = contiguous.__array_interface__["data"][0]
    return space().register_user(contiguous, address, contiguous.nbytes, "numpy"), contiguous


@binding("acl.util.ptr_to_bytes", "kk")
def ptr_to_bytes(api, ptr, size):
    """A *copy* of ``size`` bytes of host memory at ``ptr``."""
    if size == 0:
        return b""
    return host_view(api, ptr, size).tobytes()


_SHAPE_HINT = "\n[acl-teach] shape must be a tuple of non-negative ints, e.g. (1, 1000)."
_NPY_INTP_MAX = (1 << 63) - 1


def _npy_dims(shape: Any) -> List[int]:
    """The dims as numpy would get them from pyACL, raising what WrapPtrToNumpy raises.

    From hicann/runtime python/pyACL/util/numpy_convert.cpp: a shape that is not a tuple fails
    PyTuple_Size -> ValueError("shape is empty"); an element that is not an int -> TypeError("the
    second argument is not list of int"); an int beyond 64 bits -> ValueError("PyLong_AsVoidPtr
    failed"); then numpy's PyArray_NewFromDescr refuses negative dims and arrays over its size limit
    with ValueError.
    """
    if not isinstance(shape, tuple):
        raise ValueError("shape is empty" + _SHAPE_HINT)
    dims = []
    for d in shape:
        if not isinstance(d, int):
            raise TypeError("the second argument is not list of int" + _SHAPE_HINT)
        if not -(1 << 63) <= d < (1 << 64):
            raise ValueError("PyLong_AsVoidPtr failed" + _SHAPE_HINT)
        dims.append(d - (1 << 64) if d > _NPY_INTP_MAX else int(d))  # npy_intp is signed
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed" + _SHAPE_HINT)
    return dims


@binding("acl.util.ptr_to_numpy", "kOi")
def ptr_to_numpy(api, ptr, shape, npy_type):
    """A writable ndarray *view* of host memory at ``ptr`` (no copy; deprecated in pyACL).

    Failures raise what the binding raises (see ``_npy_dims``); memory the simulator cannot vouch
    for raises SimulatorFault, where a real process would read invalid memory. A view of a bytes
    object of length 0 or 1 is read-only: CPython shares those objects interpreter-wide.
    """
    dims = _npy_dims(shape)
    if npy_type not in _NPY_TYPES:
        raise ValueError(f"acl.util.ptr_to_numpy: unsupported numpy type number {npy_type} "
                         f"(use e.g. 11 = NPY_FLOAT, 23 = NPY_HALF).")
    dtype = np.dtype(_NPY_TYPES[npy_type])
    count = math.prod(dims) * dtype.itemsize
    if count > _NPY_INTP_MAX:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
                         "possible size." + _SHAPE_HINT)
    view = host_view(api, ptr, count)
    found = space().find(ptr)
    if found and found[0].obj is not None and ptr < DEVICE_BASE:
        holder = (ctypes.c_ubyte * count).from_address(ptr)
        holder._owner = found[0].obj  # the view keeps the Python object (and so the memory) alive
        view = np.ctypeslib.as_array(holder)
        if write_problem(found[0], "")[0]:
            view.flags.writeable = False
    return view.view(dtype).reshape(dims)


class _Worker:
    """A started thread and what its function raised, if anything."""

    def __init__(self, func: Any, args: Any) -> None:
        self.error: Any = None
        self.thread = threading.Thread(target=self._main, args=(func, args), daemon=True,
                                       name="acl-teach-worker")

    def _main(self, func: Any, args: Any) -> None:
        """ThrFunc in util/thread.cpp: ``func()`` when args is None, else ``func(args)`` (a tuple is one argument)."""
        try:
            func() if args is None else func(args)
        except BaseException as exc:  # reported by stop_thread, like pyACL
            self.error = exc
            print(f"[acl-teach sim] thread function raised {type(exc).__name__}: {exc}", file=sys.stderr)


def _workers() -> Dict[int, _Worker]:
    return state().subsystems.setdefault("workers", {})


@binding("acl.util.start_thread", "OO")
def start_thread(api, func, args):
    """(thread id, ret): run ``func(args)`` in a new thread (``func()`` for None; the callback-thread pattern)."""
    if not callable(func):
        raise TypeError("parameter must be callable")  # thread.cpp: CHECK_NULL(PyCallable_Check(pyFunc), ...)
    worker = _Worker(func, args)
    worker.thread.start()
    _workers()[worker.thread.ident] = worker
    return worker.thread.ident, 0


@binding("acl.util.stop_thread", "K")
def stop_thread(api, thread_id):
    """Join a thread from start_thread (set its exit flag first); re-raise as RuntimeError if it failed.

    UNCONFIRMED: real pyACL joins forever; the simulator gives up after the configured wait
    timeout and returns 107019 so a notebook kernel is never wedged.
    """
    worker = _workers().get(thread_id)
    if worker is None:
        return fail(100000, api, f"{thread_id} is not a thread started by acl.util.start_thread.")
    timeout = state().config.wait_timeout_s
    worker.thread.join(timeout)
    if worker.thread.is_alive():
        return fail(107019, api, f"the thread did not finish within {timeout:.0f} s; make its loop check "
                    f"an exit flag and set the flag before stop_thread.")
    del _workers()[thread_id]
    if worker.error is not None:
        raise RuntimeError(f"the thread function raised {type(worker.error).__name__}: {worker.error}")
    return 0
