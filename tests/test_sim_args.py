"""Argument parsing is the binding's: PyArg_ParseTuple's conversions, the CHECK macro's TypeError text, exactly.

The oracle for every letter is CPython's own PyArg_ParseTuple, called through ctypes on the same values.
"""
import ctypes

import numpy as np
import pytest

from acl_teach.sim.core import args as _args

_C = {"b": ctypes.c_ubyte, "B": ctypes.c_ubyte, "h": ctypes.c_short, "H": ctypes.c_ushort, "i": ctypes.c_int,
      "I": ctypes.c_uint, "l": ctypes.c_long, "k": ctypes.c_ulong, "L": ctypes.c_longlong, "K": ctypes.c_ulonglong,
      "f": ctypes.c_float, "d": ctypes.c_double, "s": ctypes.c_char_p}
_VALUES = [0, 1, -1, 127, 128, 255, 256, -129, 32767, 32768, -32769, 65535, 65536, 2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1,
           2 ** 32, 2 ** 63 - 1, 2 ** 63, 2 ** 64, -2 ** 63 - 1, 10 ** 30, True, False, np.int8(-3), np.int32(7),
           np.int64(-2), np.uint64(2 ** 64 - 1), np.uint8(200), np.float32(1.5), np.float64(2.25), 1.5, -0.0,
           float("inf"), 1e40, 3.4028235677973366e38, 1e-50, "x", "a\0b", b"x", None, 3 + 0j, [1]]


def _cpython(letter, value):
    """('ok', converted) or ('err', exception type) from CPython's PyArg_ParseTuple itself."""
    box = _C[letter]()
    fn = ctypes.pythonapi.PyArg_ParseTuple
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.py_object, ctypes.c_char_p, ctypes.POINTER(_C[letter])]
    try:
        fn((value,), letter.encode(), ctypes.byref(box))
    except Exception as exc:  # noqa: BLE001 - the oracle's error is the point
        return "err", type(exc)
    got = box.value
    return "ok", got.decode() if isinstance(got, bytes) else got


@pytest.mark.parametrize("letter", sorted(_C))
def test_every_letter_converts_as_cpython_does(letter):
    for value in _VALUES:
        expected = _cpython(letter, value)
        try:
            got = ("ok", _args.convert(letter, value))
        except _args.ParseError as exc:
            got = ("err", exc.exc_type)
        assert got == expected, (letter, value)


def test_numpy_scalars_per_letter():
    """__index__ letters take numpy integers, k/K (PyLong_Check) refuse them; f/d take numpy floats."""
    for letter in "bBhHiIlL":
        assert _args.convert(letter, np.int32(5)) == 5
    for letter in "kK":
        with pytest.raises(_args.ParseError, match="must be int, not numpy.int32"):
            _args.convert(letter, np.int32(5))
    assert _args.convert("f", np.float32(0.1)) == float(np.float32(0.1))
    assert _args.convert("d", np.float64(0.1)) == 0.1


def test_parse_failure_is_the_binding_text_exactly(ready):
    for call, text in [(lambda: ready.rt.malloc(16), "acl.rt.malloc args parse failed"),
                       (lambda: ready.rt.malloc("16", 0), "acl.rt.malloc args parse failed"),
                       (lambda: ready.rt.malloc(16.0, 0), "acl.rt.malloc args parse failed"),
                       (lambda: ready.rt.synchronize_stream(None), "acl.rt.synchronize_stream args parse failed"),
                       (lambda: ready.rt.set_device(1 << 40), "acl.rt.set_device args parse failed"),
                       (lambda: ready.mdl.create_desc(), None),
                       (lambda: ready.mdl.get_num_inputs("d"), "acl.mdl.get_num_inputs args parse failed!"),
                       (lambda: ready.media.dvpp_malloc(None), "acl.media.dvpp_malloc args parse failed!"),
                       (lambda: ready.media.dvpp_jpeg_predict_dec_size(0, 1),
                        "acl.media.dvpp_jpeg_predict_dec_size args parse failed"),
                       (lambda: ready.init(None), "acl.init args parse failed")]:
        if text is None:
            call()
            continue
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value) == text
        assert any(n.startswith("[acl-teach]") for n in getattr(info.value, "__notes__", [])) or \
            not hasattr(info.value, "add_note")


def test_keyword_arguments_are_refused_as_cpython_refuses_them(ready):
    with pytest.raises(TypeError) as info:
        ready.rt.malloc(size=16, policy=0)
    assert str(info.value) == "malloc() takes no keyword arguments"


def test_bool_is_an_int_for_every_integer_letter(ready):
    assert ready.rt.set_device(False) == 0  # device 0 ('i')
    assert ready.rt.set_device(True) == 107001  # device 1 does not exist here
    ptr, ret = ready.rt.malloc(True, 0)  # 'k' takes bool (an int subclass)
    assert ret == 0 and ready.rt.free(ptr) == 0


def test_unsigned_long_masks_negative_values_like_k_format(ready):
    ptr, ret = ready.rt.malloc(-1, 0)  # -1 as a size_t is 2**64-1: far beyond device memory
    assert (ptr, ret) == (0, 207001)


def test_init_optional_argument(acl):
    with pytest.raises(TypeError) as info:
        acl.init("a", "b")
    assert str(info.value) == "acl.init args parse failed"


def test_count_messages_of_wrappers_that_keep_cpythons_error():
    """Where the binding's CHECK has no text (start_thread, get_event_id …), CPython's own message stays."""
    with pytest.raises(TypeError) as info:
        _args.parse("acl.util.start_thread", "OO", (print,))
    assert str(info.value) == "function takes exactly 2 arguments (1 given)"
    with pytest.raises(TypeError) as info:
        _args.parse("acl.rt.get_event_id", "k", ("x",))
    assert str(info.value) == "argument 1 must be int, not str"


def test_return_shapes():
    assert _args.shape_matches((1, 0), "ki") and not _args.shape_matches((1, 0, 0), "ki")
    assert _args.shape_matches(None, "None") and _args.shape_matches(None, "s")
    assert _args.shape_matches(({}, 0), "Oi") and not _args.shape_matches((np.int64(1), 0), "ki")
    assert _args.shape_matches(1.5, "f") and not _args.shape_matches(1, "f")
