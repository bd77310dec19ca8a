"""acl.float16_to_float / float_to_float16 (CANN's fp16 arithmetic) and the acl.set_tensor_* setters."""
import numpy as np
import pytest


def test_float16_to_float_matches_numpy_on_every_finite_half(acl):
    bits = np.arange(65536, dtype=np.uint16)
    halves = bits.view(np.float16)
    finite = np.isfinite(halves)
    ours = np.array([acl.float16_to_float(int(b)) for b in bits[finite]], dtype=np.float32)
    assert ours.tobytes() == halves[finite].astype(np.float32).tobytes()  # byte-exact


def test_float16_to_float_reads_inf_and_nan_as_cann_does(acl):
    assert acl.float16_to_float(0x7C00) == 65536.0   # +Inf: exponent 31 read as a number (fp16_impl.cpp)
    assert acl.float16_to_float(0xFC00) == -65536.0
    assert acl.float16_to_float(0x7E00) == 98304.0   # a NaN
    assert acl.float16_to_float(0x13C00) == 1.0      # "H" masks to 16 bits


def test_float_to_float16_matches_numpy_in_range_and_saturates(acl):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(20000) * 10.0 ** rng.integers(-8, 5, 20000)).astype(np.float32)
    x = np.concatenate([x[np.abs(x) <= 65504], np.array([0.0, -0.0, 65504.0, 6e-8, 3e-8, 1e-9], np.float32)])
    ours = np.array([acl.float_to_float16(float(v)) for v in x], dtype=np.uint16)
    assert ours.tobytes() == x.astype(np.float16).view(np.uint16).tobytes()  # byte-exact, ties to even
    assert acl.float_to_float16(float("inf")) == 0x7BFF      # saturating, unlike numpy's inf
    assert acl.float_to_float16(float("-inf")) == 0xFBFF
    assert acl.float_to_float16(float("nan")) == 0x7BFF
    assert acl.float_to_float16(70000.0) == 0x7BFF
    assert acl.float_to_float16(1) == 0x3C00                  # "f" takes ints
    assert acl.float_to_float16(np.float32(0.5)) == 0x3800     # and numpy scalars (__float__)
    with pytest.raises(TypeError, match="acl.float_to_float16 args parse failed"):
        acl.float_to_float16("1.0")


def test_tensor_setters_change_what_the_desc_reports(acl):
    desc = acl.create_tensor_desc(0, [1, 3, 224, 224], 0)
    assert acl.set_tensor_shape(desc, [2, 3, 112, 112]) == 0
    assert acl.get_tensor_desc_num_dims(desc) == 4
    assert acl.get_tensor_desc_dim_v2(desc, 0) == (2, 0)
    assert acl.get_tensor_desc_size(desc) == 2 * 3 * 112 * 112 * 4
    assert acl.set_tensor_format(desc, 1) == 0 and acl.get_tensor_desc_format(desc) == 1
    for setter, value in ((acl.set_tensor_storage_format, 3), (acl.set_tensor_origin_format, 0),
                          (acl.set_tensor_storage_shape, [2, 1, 112, 112, 16]),
                          (acl.set_tensor_origin_shape, [2, 3, 112, 112]),
                          (acl.set_tensor_dynamic_input, "x"), (acl.set_tensor_place_ment, 1),
                          (acl.set_tensor_value_range, [[0, 255]])):
        assert setter(desc, value) == 0
        assert setter(0, value) == 100000
    assert acl.set_tensor_place_ment(desc, 7) == 100000
    assert acl.set_tensor_shape_range(desc, [[1, 8], [3, 3], [1, -1], [1, 224]]) == 0
    assert acl.get_tensor_desc_dim_range(desc, 0, 2) == ([1, 8], 0)
    assert acl.get_tensor_desc_dim_range(desc, 0, 5000) == (None, 100000)
    assert acl.set_tensor_shape_range(desc, [[8, 1]]) == 100000
    with pytest.raises(TypeError, match="the list argument is not list"):
        acl.set_tensor_shape_range(desc, [1, 8])
    with pytest.raises(TypeError, match="argument 2 is not list"):
        acl.set_tensor_shape(desc, (1, 2))
    assert acl.set_tensor_desc_name(desc, "images") is None
    assert acl.get_tensor_desc_name(desc) == "images"
    assert acl.get_tensor_desc_dim(desc, 1) == 3 and acl.get_tensor_desc_dim(desc, 9) == -1
    acl.destroy_tensor_desc(desc)
