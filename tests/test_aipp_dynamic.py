"""Dynamic AIPP: aipp_mode: dynamic compiled by the ATC emulator, parameters set at run time, applied by execute.

Expectations are computed independently in numpy (the hardware order: swap -> crop -> CSC -> DTC -> padding),
and the failure codes are ACL's (hicann/ge api/acl/acl_model/model/acl_aipp.cpp, aipp_param_check.cpp).
"""
import numpy as np
import pytest

from helpers import build
from test_aipp import convert as convert_static, identity_onnx, nv12_to_channels

DYN_CFG = """aipp_op {
aipp_mode : dynamic
related_input_rank : 0
max_src_image_size: %d
support_rotation: false
}
"""  # the official dynamic-AIPP sample's cfg (reference §8.1), sized for the test model
H = W = 8
FP16 = np.float16


def convert(tmp_path, h=H, w=W, n=1, max_size=4096, c=3, name="dyn"):
    """A float32 identity model [n, c, h, w] compiled with the dynamic cfg."""
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("data", TensorProto.FLOAT, [n, c, h, w])
    y = helper.make_tensor_value_info("out", TensorProto.FLOAT, [n, c, h, w])
    one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
    graph = helper.make_graph([helper.make_node("Mul", ["data", "one"], ["out"])], "id", [x], [y], initializer=[one])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(tmp_path / f"{name}.onnx"))
    (tmp_path / f"{name}.cfg").write_text(DYN_CFG % max_size)
    return build(tmp_path / f"{name}.onnx", tmp_path / name, f"--insert_op_conf={tmp_path / f'{name}.cfg'}")


class Session:
    """A loaded dynamic-AIPP model with its datasets: the image buffer, the AIPP block buffer, one output."""

    def __init__(self, acl, om):
        self.acl = acl
        self.model_id, ret = acl.mdl.load_from_file(str(om))
        assert ret == 0
        self.desc = acl.mdl.create_desc()
        assert acl.mdl.get_desc(self.desc, self.model_id) == 0
        self.ins, self.outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        self.ptrs = []
        for i in range(acl.mdl.get_num_inputs(self.desc)):
            self._add(self.ins, acl.mdl.get_input_size_by_index(self.desc, i))
        self.out_size = acl.mdl.get_output_size_by_index(self.desc, 0)
        self._add(self.outs, self.out_size)

    def _add(self, ds, size):
        ptr, ret = self.acl.rt.malloc(size, 0)
        assert ret == 0
        self.ptrs.append((ptr, size))
        _, ret = self.acl.mdl.add_dataset_buffer(ds, self.acl.create_data_buffer(ptr, size))
        assert ret == 0

    def feed(self, data: bytes):
        ptr, size = self.ptrs[0]
        assert self.acl.rt.memcpy(ptr, size, self.acl.util.bytes_to_ptr(data), len(data), 1) == 0

    def block(self) -> bytes:
        ptr, size = self.ptrs[1]
        host, _ = self.acl.rt.malloc_host(size)
        assert self.acl.rt.memcpy(host, size, ptr, size, 2) == 0
        return self.acl.util.ptr_to_bytes(host, size)

    def execute(self):
        ret = self.acl.mdl.execute(self.model_id, self.ins, self.outs)
        if ret:
            return None, ret
        ptr, _ = self.ptrs[-1]
        host, _ = self.acl.rt.malloc_host(self.out_size)
        assert self.acl.rt.memcpy(host, self.out_size, ptr, self.out_size, 2) == 0
        return np.frombuffer(self.acl.util.ptr_to_bytes(host, self.out_size), np.float32).copy(), 0


def yuv_set(acl, batch=1, w=W, h=H):
    """The official sample's call pattern: YUV420SP, its YUV->BGR CSC, no crop/padding, mean 0, min 0, 1/255."""
    a = acl.mdl.create_aipp(batch)
    assert a
    assert acl.mdl.set_aipp_input_format(a, 1) == 0
    assert acl.mdl.set_aipp_csc_params(a, 1, 298, 516, 0, 298, -100, -208, 298, 0, 409, 0, 0, 0, 16, 128, 128) == 0
    assert acl.mdl.set_aipp_rbuv_swap_switch(a, 0) == 0
    assert acl.mdl.set_aipp_ax_swap_switch(a, 0) == 0
    assert acl.mdl.set_aipp_src_image_size(a, w, h) == 0
    for b in range(batch):
        assert acl.mdl.set_aipp_crop_params(a, 0, 0, 0, 0, 0, b) == 0
        assert acl.mdl.set_aipp_padding_params(a, 0, 0, 0, 0, 0, b) == 0
        assert acl.mdl.set_aipp_dtc_pixel_mean(a, 0, 0, 0, 0, b) == 0
        assert acl.mdl.set_aipp_dtc_pixel_min(a, 0.0, 0.0, 0.0, 0.0, b) == 0
        assert acl.mdl.set_aipp_pixel_var_reci(a, 1 / 255, 1 / 255, 1 / 255, 1.0, b) == 0
    return a


def csc(y, u, v, m, bias):
    """Reference CSC: (M . (YUV - bias)) >> 8, clipped to 0..255."""
    yuv = np.stack([y - bias[0], u - bias[1], v - bias[2]])
    return np.clip(np.floor(np.einsum("ij,jhw->ihw", np.array(m).reshape(3, 3), yuv) / 256), 0, 255)


def test_atc_adds_the_aipp_data_input_and_the_desc_reports_it(ready, tmp_path):
    acl = ready
    s = Session(acl, convert(tmp_path, n=2, max_size=1000))
    assert acl.mdl.get_num_inputs(s.desc) == 2
    assert acl.mdl.get_input_name_by_index(s.desc, 1) == "ascend_dynamic_aipp_data"
    assert acl.mdl.get_input_index_by_name(s.desc, "ascend_dynamic_aipp_data") == (1, 0)
    assert acl.mdl.get_input_size_by_index(s.desc, 1) == 64 + 96 * 2  # GE CalcMaxSize
    assert acl.mdl.get_input_data_type(s.desc, 1) == 4 and acl.mdl.get_input_format(s.desc, 1) == 2  # UINT8, ND
    assert acl.mdl.get_input_size_by_index(s.desc, 0) == 1000  # max_src_image_size (UNCONFIRMED)
    assert acl.mdl.get_input_dims(s.desc, 0)[0]["dims"] == [2, -1, -1, -1]
    assert acl.mdl.get_aipp_type(s.model_id, 0) == (2, 1, 0)
    assert acl.mdl.get_aipp_type(s.model_id, 1) == (3, 0xFFFFFFFF, 0)
    assert acl.mdl.get_aipp_data_size(2) == (256, 0)
    info, ret = acl.mdl.get_first_aipp_info(s.model_id, 0)
    assert ret == 0 and info["srcDimNum"] == 4 and info["shapeCount"] == 1
    assert info["outDims"][0]["srcDims"]["dims"] == [2, 3, H, W] and info["srcDatatype"] == 0


def test_yuv_csc_and_normalisation_match_numpy_and_the_block_is_ges_layout(ready, tmp_path):
    acl = ready
    s = Session(acl, convert(tmp_path))
    rng = np.random.default_rng(3)
    buf = rng.integers(0, 256, H * W * 3 // 2, dtype=np.uint8)
    s.feed(buf.tobytes())
    a = yuv_set(acl)
    assert acl.mdl.set_input_aipp(s.model_id, s.ins, 1, a) == 0
    block = s.block()
    assert block[0] == 1 and block[1] == 1 and block[4] == 1  # CCE YUV420SP_U8, csc on, batchNum
    assert np.frombuffer(block[8:16], "<i4").tolist() == [W, H]
    assert np.frombuffer(block[16:34], "<i2").tolist() == [298, 516, 0, 298, -100, -208, 298, 0, 409]
    assert list(block[40:46]) == [0, 0, 0, 16, 128, 128]
    var = np.frombuffer(block[64 + 72:64 + 80], "<u2")
    assert var.tolist() == [int(FP16(1 / 255).view(np.uint16))] * 3 + [0x3C00]  # fp16 bit patterns
    out, ret = s.execute()
    assert ret == 0
    y, u, v = nv12_to_channels(buf, H, W)
    bgr = csc(y, u, v, [298, 516, 0, 298, -100, -208, 298, 0, 409], (16, 128, 128))
    expect = bgr.astype(np.float32) * np.float32(FP16(1 / 255))  # the hardware uses the fp16 value
    assert np.array_equal(out.reshape(3, H, W), expect)
    assert acl.mdl.destroy_aipp(a) == 0


def test_rgb_crop_padding_mean_min_per_batch(ready, tmp_path):
    acl = ready
    n, sw, sh = 2, 10, 9
    s = Session(acl, convert(tmp_path, n=n))
    rng = np.random.default_rng(5)
    imgs = rng.integers(0, 256, (n, sh, sw, 3), dtype=np.uint8)
    s.feed(imgs.tobytes())
    a = acl.mdl.create_aipp(n)
    assert acl.mdl.set_aipp_input_format(a, 3) == 0  # RGB888_U8
    assert acl.mdl.set_aipp_rbuv_swap_switch(a, 1) == 0  # R <-> B
    assert acl.mdl.set_aipp_src_image_size(a, sw, sh) == 0
    crops = [(1, 2, 6, 7), (3, 1, 6, 7)]  # x0, y0, w, h: 6x7 + padding (1, 0, 1, 1) -> 8x8
    for b, (x0, y0, cw, ch) in enumerate(crops):
        assert acl.mdl.set_aipp_crop_params(a, 1, x0, y0, cw, ch, b) == 0
        assert acl.mdl.set_aipp_padding_params(a, 1, 1, 0, 1, 1, b) == 0
        assert acl.mdl.set_aipp_dtc_pixel_mean(a, 10 * (b + 1), 20, 30, 0, b) == 0
        assert acl.mdl.set_aipp_dtc_pixel_min(a, 0.5, 1.25, 2.0, 0.0, b) == 0
        assert acl.mdl.set_aipp_pixel_var_reci(a, 0.1, 0.2, 0.3, 1.0, b) == 0
    assert acl.mdl.set_input_aipp(s.model_id, s.ins, 1, a) == 0
    out, ret = s.execute()
    assert ret == 0
    for b, (x0, y0, cw, ch) in enumerate(crops):
        bgr = imgs[b, :, :, ::-1].transpose(2, 0, 1).astype(np.float32)[:, y0:y0 + ch, x0:x0 + cw]
        mean = np.array([10 * (b + 1) + 0.5, 20 + 1.25, 30 + 2.0], np.float32).reshape(3, 1, 1)
        var = np.array([FP16(0.1), FP16(0.2), FP16(0.3)], np.float32).reshape(3, 1, 1)
        expect = np.pad((bgr - mean) * var, ((0, 0), (1, 0), (1, 1)))
        assert np.array_equal(out.reshape(n, 3, H, W)[b], expect)


def test_dynamic_equals_static_aipp_for_the_same_parameters(ready, tmp_path):
    acl = ready
    static_cfg = """aipp_op {
  aipp_mode: static
  input_format: YUV420SP_U8
  src_image_size_w: 8
  src_image_size_h: 8
  csc_switch: true
  mean_chn_0: 3
  min_chn_1: 2.5
  var_reci_chn_2: 0.5
}"""
    om = convert_static(tmp_path, static_cfg, name="st")
    buf = np.random.default_rng(9).integers(0, 256, H * W * 3 // 2, dtype=np.uint8)
    st = Session(acl, om)
    st.feed(buf.tobytes())
    want, ret = st.execute()
    assert ret == 0
    s = Session(acl, convert(tmp_path))
    s.feed(buf.tobytes())
    a = acl.mdl.create_aipp(1)
    assert acl.mdl.set_aipp_input_format(a, 1) == 0
    assert acl.mdl.set_aipp_csc_params(a, 1, 298, 516, 0, 298, -100, -208, 298, 0, 409, 16, 128, 128, 16, 128,
                                       128) == 0  # GE's defaults for csc_switch without a matrix
    assert acl.mdl.set_aipp_src_image_size(a, 8, 8) == 0
    assert acl.mdl.set_aipp_dtc_pixel_mean(a, 3, 0, 0, 0, 0) == 0
    assert acl.mdl.set_aipp_dtc_pixel_min(a, 0.0, 2.5, 0.0, 0.0, 0) == 0
    assert acl.mdl.set_aipp_pixel_var_reci(a, 1.0, 1.0, 0.5, 1.0, 0) == 0  # all exact in fp16
    assert acl.mdl.set_input_aipp(s.model_id, s.ins, 1, a) == 0
    got, ret = s.execute()
    assert ret == 0 and np.array_equal(got, want)


def test_set_aipp_by_input_index_names_the_data_input(ready, tmp_path):
    acl = ready
    s = Session(acl, convert(tmp_path))
    s.feed(bytes(H * W * 3 // 2))
    a = yuv_set(acl)
    assert acl.mdl.set_aipp_by_input_index(s.model_id, s.ins, 1, a) == 500001  # the AIPP node is not a data input
    assert acl.mdl.set_aipp_by_input_index(s.model_id, s.ins, 0, a) == 0
    assert s.execute()[1] == 0


def test_execute_without_parameters_fails(ready, tmp_path):
    acl = ready
    s = Session(acl, convert(tmp_path))
    assert s.execute() == (None, 507011)  # simulated: the block was never written


def test_setter_ranges(ready):
    acl = ready
    a = acl.mdl.create_aipp(2)
    assert acl.mdl.create_aipp(0) == 0
    assert acl.mdl.set_aipp_input_format(a, 15) == 100000
    assert acl.mdl.set_aipp_input_format(a, 9) == 0  # accepted here; set_input_aipp refuses it
    assert acl.mdl.set_aipp_csc_params(a, 2, *([0] * 15)) == 100000  # switch is 0/1
    assert acl.mdl.set_aipp_csc_params(a, 1, 32677, *([0] * 14)) == 100000  # matrix in [-32677, 32676]
    assert acl.mdl.set_aipp_csc_params(a, 0, 32677, *([0] * 14)) == 0  # off: the matrix is not checked
    with pytest.raises(TypeError) as info:  # 'h' overflows; the binding's CHECK turns it into its TypeError
        acl.mdl.set_aipp_csc_params(a, 1, 40000, *([0] * 14))
    assert str(info.value) == "acl.mdl.set_aipp_csc_params args parse failed!"
    assert acl.mdl.set_aipp_rbuv_swap_switch(a, 2) == 100000
    assert acl.mdl.set_aipp_src_image_size(a, 1, 8) == 100000
    assert acl.mdl.set_aipp_src_image_size(a, 8, 4097) == 100000
    assert acl.mdl.set_aipp_src_image_size(a, 7, 7) == 0  # evenness is checked by set_input_aipp
    assert acl.mdl.set_aipp_crop_params(a, 1, 0, 0, 4, 4, 2) == 100000  # batch index >= batch
    assert acl.mdl.set_aipp_crop_params(a, 1, 4096, 0, 4, 4, 0) == 100000
    assert acl.mdl.set_aipp_crop_params(a, 1, 0, 0, 0, 4, 0) == 100000
    assert acl.mdl.set_aipp_padding_params(a, 1, 33, 0, 0, 0, 0) == 100000
    assert acl.mdl.set_aipp_dtc_pixel_mean(a, 256, 0, 0, 0, 0) == 100000
    assert acl.mdl.set_aipp_dtc_pixel_min(a, -1.0, 0, 0, 0, 0) == 100000
    assert acl.mdl.set_aipp_pixel_var_reci(a, 70000.0, 0, 0, 0, 1) == 100000
    assert acl.mdl.set_aipp_pixel_var_reci(a, 1.0, 0, 0, 0, 2) == 100000
    assert acl.mdl.get_aipp_data_size(0) == (0, 100000)


@pytest.mark.parametrize("case, code", [
    ("not_the_aipp_index", 100000), ("index_out_of_range", 100000), ("wrong_batch", 100000),
    ("format_unset", 100000), ("src_unset", 100000), ("odd_yuv_src", 100000), ("too_big", 100000),
    ("crop_past_source", 100000), ("odd_crop_start", 100000), ("unsupported_format", 100000),
    ("yuv400_csc", 100000), ("output_not_model_size", 100000), ("short_buffer", 145012)])
def test_set_input_aipp_failure_codes(ready, tmp_path, case, code):
    acl = ready
    s = Session(acl, convert(tmp_path, max_size=H * W * 3 // 2))
    index = 1
    if case == "wrong_batch":
        a = yuv_set(acl, batch=2)
    elif case in ("format_unset", "src_unset", "unsupported_format", "yuv400_csc"):
        a = acl.mdl.create_aipp(1)
        if case != "format_unset":
            acl.mdl.set_aipp_input_format(a, {"src_unset": 1, "unsupported_format": 9, "yuv400_csc": 4}[case])
        if case != "src_unset":
            acl.mdl.set_aipp_src_image_size(a, W, H)
        if case == "yuv400_csc":
            acl.mdl.set_aipp_csc_params(a, 1, *([0] * 15))
    elif case == "odd_yuv_src":
        a = yuv_set(acl)
        acl.mdl.set_aipp_src_image_size(a, 7, 8)
    elif case == "too_big":
        a = yuv_set(acl, w=10, h=10)
        acl.mdl.set_aipp_crop_params(a, 1, 0, 0, W, H, 0)
    elif case in ("crop_past_source", "odd_crop_start"):
        a = yuv_set(acl)
        acl.mdl.set_aipp_crop_params(a, 1, *((2, 0, W, H) if case == "crop_past_source" else (1, 0, 6, 8)), 0)
        acl.mdl.set_aipp_padding_params(a, 1, 0, 0, 2, 0, 0)  # 6 + 2 = W for the odd start
    elif case == "output_not_model_size":
        a = yuv_set(acl, w=6, h=8)
    else:
        a = yuv_set(acl)
    if case == "not_the_aipp_index":
        index = 0
    elif case == "index_out_of_range":
        index = 2
    if case == "short_buffer":
        small = acl.mdl.create_dataset()
        ptr, _ = acl.rt.malloc(64, 0)
        acl.mdl.add_dataset_buffer(small, acl.create_data_buffer(s.ptrs[0][0], s.ptrs[0][1]))
        acl.mdl.add_dataset_buffer(small, acl.create_data_buffer(ptr, 64))
        assert acl.mdl.set_input_aipp(s.model_id, small, 1, a) == code
        return
    assert acl.mdl.set_input_aipp(s.model_id, s.ins, index, a) == code


def test_static_model_has_no_dynamic_aipp_input(ready, tmp_path):
    acl = ready
    om = build(identity_onnx(tmp_path / "plain.onnx", H, W), tmp_path / "plain")
    s = Session(acl, om)
    a = yuv_set(acl)
    assert acl.mdl.set_input_aipp(s.model_id, s.ins, 0, a) == 100000  # no ascend_dynamic_aipp_data input
    assert acl.mdl.get_aipp_type(s.model_id, 0) == (0, 0xFFFFFFFF, 0)
    assert acl.mdl.get_first_aipp_info(s.model_id, 0) == (None, 145015)  # GE's ACL_ERROR_GE_AIPP_NOT_EXIST


def test_atc_refuses_a_dynamic_cfg_without_max_size_or_with_static_keys(tmp_path):
    from acl_teach.toolchain import atc
    path = identity_onnx(tmp_path / "m.onnx", H, W)
    for text in ("aipp_op { aipp_mode: dynamic }", "aipp_op { aipp_mode: dynamic max_src_image_size: 96 "
                                                    "input_format: YUV420SP_U8 }"):
        (tmp_path / "d.cfg").write_text(text)
        with pytest.raises(atc.AtcError):
            build(path, tmp_path / "d", f"--insert_op_conf={tmp_path / 'd.cfg'}")
