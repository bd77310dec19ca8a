"""Argument parsing behaves like the C binding: positional only, ints for handles, TypeError otherwise."""
import pytest


def test_keyword_arguments_are_rejected(ready):
    with pytest.raises(TypeError, match="takes no keyword arguments"):
        ready.rt.malloc(size=16, policy=0)


def test_none_for_a_handle_is_a_type_error_in_binding_style(ready):
    with pytest.raises(TypeError) as info:
        ready.rt.synchronize_stream(None)
    assert str(info.value).startswith("acl.rt.synchronize_stream args parse failed")
    assert "0 for NULL" in str(info.value)


def test_wrong_count_and_types(ready):
    with pytest.raises(TypeError, match="^acl.rt.malloc args parse failed"):
        ready.rt.malloc(16)
    with pytest.raises(TypeError, match="^acl.rt.malloc args parse failed"):
        ready.rt.malloc("16", 0)
    with pytest.raises(TypeError, match="^acl.rt.malloc args parse failed"):
        ready.rt.malloc(16.0, 0)
    with pytest.raises(TypeError, match="^acl.rt.memcpy args parse failed"):
        ready.rt.memcpy(1, 2, 3, 4)


def test_bool_is_accepted_as_int_like_pyarg_parsetuple(ready):
    assert ready.rt.set_device(False) == 0  # device 0
    assert ready.rt.set_device(True) == 107001  # device 1 does not exist here
    with pytest.raises(TypeError, match="expected int, got float"):
        ready.rt.set_device(0.0)


def test_int_out_of_c_range(ready):
    with pytest.raises(TypeError, match="out of range"):
        ready.rt.set_device(1 << 40)


def test_unsigned_long_masks_negative_values_like_k_format(ready):
    # -1 as a size_t becomes 2**64-1: far beyond device memory
    ptr, ret = ready.rt.malloc(-1, 0)
    assert (ptr, ret) == (0, 207001)


def test_init_optional_argument(acl):
    with pytest.raises(TypeError, match="^acl.init args parse failed"):
        acl.init(None)
    with pytest.raises(TypeError):
        acl.init("a", "b")
