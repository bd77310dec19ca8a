"""Static AIPP: ATC's --insert_op_conf compiled into the model, fed NV12/RGB bytes, checked against numpy."""
import numpy as np
import pytest

from helpers import build

PY_SAMPLE_CFG = """aipp_op {
\taipp_mode : static
\trelated_input_rank : 0
\tinput_format : YUV420SP_U8
\tcsc_switch : true
\trbuv_swap_switch : false
\tvar_reci_chn_0 : 1
\tvar_reci_chn_1 : 1
\tvar_reci_chn_2 : 1
\tmin_chn_0 : 123
\tmin_chn_1 : 117
\tmin_chn_2 : 104
\tload_start_pos_h : 0
\tload_start_pos_w : 0
\tsrc_image_size_w : {w}
\tsrc_image_size_h : {h}
}
"""  # the vpc samples' caffe_model/aipp.cfg (reference §7.5), sized for the test model


def identity_onnx(path, h, w, c=3):
    """output = input * 1 (float32 NCHW): the AIPP's output is what the model sees."""
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, c, h, w])
    y = helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, c, h, w])
    one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
    graph = helper.make_graph([helper.make_node("Mul", ["data", "one"], ["out"])], "id", [x], [y], initializer=[one])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return str(path)


def convert(tmp_path, cfg_text, h=8, w=8, c=3, name="m"):
    (tmp_path / f"{name}.cfg").write_text(cfg_text)
    return build(identity_onnx(tmp_path / f"{name}.onnx", h, w, c), tmp_path / name,
                 f"--insert_op_conf={tmp_path / f'{name}.cfg'}")


def run(acl, om, data):
    """Load, execute with ``data`` bytes as input 0, return (output float32, desc, model_id)."""
    model_id, ret = acl.mdl.load_from_file(str(om))
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    n_in = acl.mdl.get_input_size_by_index(desc, 0)
    assert n_in == len(data)
    dev, _ = acl.rt.malloc(n_in, 0)
    acl.rt.memcpy(dev, n_in, acl.util.bytes_to_ptr(data), n_in, 1)
    n_out = acl.mdl.get_output_size_by_index(desc, 0)
    out_dev, _ = acl.rt.malloc(n_out, 0)
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(dev, n_in))
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(out_dev, n_out))
    assert acl.mdl.execute(model_id, ins, outs) == 0
    host_buf, _ = acl.rt.malloc_host(n_out)
    acl.rt.memcpy(host_buf, n_out, out_dev, n_out, 2)
    result = np.frombuffer(acl.util.ptr_to_bytes(host_buf, n_out), np.float32).copy()
    return result, desc, model_id


def nv12_to_channels(buf, h, w):
    """Reference: Y, U, V full resolution with chroma repeated 2x2."""
    y = buf[:h * w].reshape(h, w).astype(np.int64)
    uv = buf[h * w:].reshape(h // 2, w // 2, 2).astype(np.int64)
    u = uv[..., 0].repeat(2, 0).repeat(2, 1)
    v = uv[..., 1].repeat(2, 0).repeat(2, 1)
    return y, u, v


def test_the_vpc_samples_cfg_gives_bgr_minus_means(ready, tmp_path):
    acl = ready
    h = w = 8
    om = convert(tmp_path, PY_SAMPLE_CFG.replace("{w}", str(w)).replace("{h}", str(h)))
    rng = np.random.default_rng(1)
    buf = rng.integers(16, 236, h * w * 3 // 2, dtype=np.uint8)
    out, desc, model_id = run(acl, om, buf.tobytes())
    y, u, v = nv12_to_channels(buf, h, w)
    m = np.array([298, 516, 0, 298, -100, -208, 298, 0, 409]).reshape(3, 3)  # GE's default: rows B, G, R
    yuv = np.stack([y - 16, u - 128, v - 128])
    bgr = np.clip(np.floor(np.einsum("ij,jhw->ihw", m, yuv) / 256), 0, 255)
    expect = bgr - np.array([123, 117, 104]).reshape(3, 1, 1)
    assert np.array_equal(out.reshape(3, h, w), expect.astype(np.float32))
    # the desc the reference gives for an AIPP input
    assert acl.mdl.get_input_size_by_index(desc, 0) == h * w * 3 // 2
    assert acl.mdl.get_input_data_type(desc, 0) == 4  # ACL_UINT8
    assert acl.mdl.get_input_format(desc, 0) == 1  # NHWC
    assert acl.mdl.get_input_dims_v2(desc, 0)[0]["dims"] == [1, h * 3 // 2, w, 1]
    assert acl.mdl.get_input_dims(desc, 0)[0]["dims"] == [1, h, w, 3]
    assert acl.mdl.get_input_name_by_index(desc, 0) == "data"
    assert acl.mdl.get_aipp_type(model_id, 0) == (1, 0xFFFFFFFF, 0)
    info, ret = acl.mdl.get_first_aipp_info(model_id, 0)
    assert ret == 0 and info["cscSwitch"] == 1 and info["matrixR0C0"] == 298 and info["matrixR0C1"] == 516
    assert info["inputBias0"] == 16 and info["minChn0"] == 123.0 and info["srcImageSizeW"] == w
    assert info["inputFormat"] == 1 and "matrixR0C2" not in info  # the binding's missing keys
    assert info["outDims"][0]["srcDims"]["dims"] == [1, 3, h, w]


def test_crop_rbuv_swap_explicit_matrix_and_normalisation(ready, tmp_path):
    acl = ready
    cfg = """aipp_op {
  aipp_mode: static
  input_format: YUV420SP_U8
  src_image_size_w: 12
  src_image_size_h: 10
  crop: true
  load_start_pos_w: 2
  load_start_pos_h: 2
  crop_size_w: 8
  crop_size_h: 8
  csc_switch: true
  rbuv_swap_switch: true   # NV21 fed to a YUV420SP_U8 model
  matrix_r0c0: 256
  matrix_r0c1: 0
  matrix_r0c2: 359
  matrix_r1c0: 256
  matrix_r1c1: -88
  matrix_r1c2: -183
  matrix_r2c0: 256
  matrix_r2c1: 454
  matrix_r2c2: 0
  input_bias_0: 0
  input_bias_1: 128
  input_bias_2: 128
  mean_chn_0: 10
  min_chn_0: 0.5
  var_reci_chn_0: 0.5
  var_reci_chn_1: 2.0
}"""
    om = convert(tmp_path, cfg)
    rng = np.random.default_rng(2)
    buf = rng.integers(0, 256, 12 * 10 * 3 // 2, dtype=np.uint8)
    out, _, _ = run(acl, om, buf.tobytes())
    y, v, u = nv12_to_channels(buf, 10, 12)  # rbuv_swap: the second chroma byte is U
    yuv = np.stack([y, u - 128, v - 128])[:, 2:10, 2:10]
    m = np.array([256, 0, 359, 256, -88, -183, 256, 454, 0]).reshape(3, 3)
    rgb = np.clip(np.floor(np.einsum("ij,jhw->ihw", m, yuv) / 256), 0, 255)
    expect = (rgb - np.array([10.5, 0, 0]).reshape(3, 1, 1)) * np.array([0.5, 2.0, 1.0]).reshape(3, 1, 1)
    assert np.allclose(out.reshape(3, 8, 8), expect)


def test_rgb888_input_without_csc(ready, tmp_path):
    acl = ready
    cfg = "aipp_op {\n aipp_mode : static\n input_format : RGB888_U8\n src_image_size_w : 8\n src_image_size_h : 8\n" \
          " min_chn_0 : 123.675\n var_reci_chn_0 : 0.0171247538316637\n}\n"
    om = convert(tmp_path, cfg)
    img = np.random.default_rng(3).integers(0, 256, (8, 8, 3), dtype=np.uint8)
    out, desc, _ = run(acl, om, img.tobytes())
    assert acl.mdl.get_input_size_by_index(desc, 0) == 8 * 8 * 3
    expect = img.transpose(2, 0, 1).astype(np.float32)
    expect[0] = (expect[0] - np.float32(123.675)) * np.float32(0.0171247538316637)
    assert np.allclose(out.reshape(3, 8, 8), expect, atol=1e-5)


def test_model_without_aipp_reports_none(ready, tmp_path):
    acl = ready
    om = build(identity_onnx(tmp_path / "plain.onnx", 8, 8), tmp_path / "plain")
    model_id, _ = acl.mdl.load_from_file(str(om))
    assert acl.mdl.get_aipp_type(model_id, 0) == (0, 0xFFFFFFFF, 0)
    assert acl.mdl.get_first_aipp_info(model_id, 0) == (None, 145015)  # GE's AIPP_NOT_EXIST, returned as is


@pytest.mark.parametrize("cfg, why", [
    ("aipp_op { input_format : YUV420SP_U8 }", "aipp_mode"),
    ("aipp_op { aipp_mode : static }", "input_format"),
    ("aipp_op { aipp_mode : static input_format : YUV420SP_U8 src_image_size_w : 7 src_image_size_h : 8 }", "even"),
    ("aipp_op { aipp_mode : static input_format : YUV420SP_U8 src_image_size_w : 16 src_image_size_h : 16 }",
     "must be equal"),
    ("aipp_op { aipp_mode : static input_format : YUV420SP_U8 mean_chn_0 : 1 mean_chn_0 : 2 }", "more than once"),
    ("aipp_op { aipp_mode : static input_format : YUV420SP_U8 crop : true load_start_pos_w : 1 "
     "src_image_size_w : 16 src_image_size_h : 16 }", "even"),
    ("aipp_op { aipp_mode : dynamic }", "max_src_image_size"),
])
def test_atc_refuses_bad_cfgs(tmp_path, cfg, why):
    from acl_teach.toolchain import atc
    with pytest.raises(atc.AtcError, match=why):
        convert(tmp_path, cfg)


def test_atc_command_line_reports_failure(tmp_path, capsys):
    from acl_teach.toolchain import atc
    onnx_path = identity_onnx(tmp_path / "x.onnx", 8, 8)
    argv = [f"--model={onnx_path}", "--framework=5", f"--output={tmp_path / 'x'}", "--soc_version=Ascend310",
            f"--insert_op_conf={tmp_path / 'missing.cfg'}"]
    assert atc.run(argv) == 1
    assert "insert_op_conf" in capsys.readouterr().err


def test_jpegd_vpc_aipp_pipeline_classifies_the_photo(ready, tmp_path):
    """The vpc samples end to end: JPEG -> JPEGD -> VPC 224x224 NV12 (75264 bytes) -> a static-AIPP model -> top-1."""
    import io
    import os

    from PIL import Image

    from acl_teach.spec.dvpp import align_up
    from acl_teach.toolchain import assets
    acl = ready
    cfg = ("aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n src_image_size_w: 224\n"
           " src_image_size_h: 224\n csc_switch: true\n matrix_r0c0: 256\n matrix_r0c1: 0\n matrix_r0c2: 359\n"
           " matrix_r1c0: 256\n matrix_r1c1: -88\n matrix_r1c2: -183\n matrix_r2c0: 256\n matrix_r2c1: 454\n"
           " matrix_r2c2: 0\n input_bias_0: 0\n input_bias_1: 128\n input_bias_2: 128\n"
           + "".join(f" min_chn_{i}: 127\n var_reci_chn_{i}: 0.0078125\n" for i in range(3)) + "}\n")
    (tmp_path / "aipp.cfg").write_text(cfg)  # JPEG YUV -> RGB, then EfficientNet-Lite0's (x - 127) / 128
    om = build(assets.default_onnx(), tmp_path / "effnet_aipp", f"--insert_op_conf={tmp_path / 'aipp.cfg'}")
    buf = io.BytesIO()
    Image.open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "images", "coffee.png")) \
        .convert("RGB").save(buf, "JPEG", quality=95)
    raw = buf.getvalue()
    media = acl.media
    stream, _ = acl.rt.create_stream()
    ch = media.dvpp_create_channel_desc()
    assert media.dvpp_create_channel(ch) == 0
    w, h, _, _ = media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(raw), len(raw))
    jpeg_dev, _ = media.dvpp_malloc(len(raw))
    acl.rt.memcpy(jpeg_dev, len(raw), acl.util.bytes_to_ptr(raw), len(raw), 1)

    def desc(width, height, ws, hs):
        size = ws * hs * 3 // 2
        data, _ = media.dvpp_malloc(size)
        d = media.dvpp_create_pic_desc()
        for setter, value in ((media.dvpp_set_pic_desc_data, data), (media.dvpp_set_pic_desc_size, size),
                              (media.dvpp_set_pic_desc_format, 1), (media.dvpp_set_pic_desc_width, width),
                              (media.dvpp_set_pic_desc_height, height),
                              (media.dvpp_set_pic_desc_width_stride, ws),
                              (media.dvpp_set_pic_desc_height_stride, hs)):
            setter(d, value)
        return d, data

    dec, _ = desc(w, h, align_up(w, 128), align_up(h, 16))
    assert media.dvpp_jpeg_decode_async(ch, jpeg_dev, len(raw), dec, stream) == 0
    out, out_dev = desc(224, 224, 224, 224)
    cfg_h = media.dvpp_create_resize_config()
    assert media.dvpp_vpc_resize_async(ch, dec, out, cfg_h, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    model_id, _ = acl.mdl.load_from_file(str(om))
    mdesc = acl.mdl.create_desc()
    acl.mdl.get_desc(mdesc, model_id)
    assert acl.mdl.get_input_size_by_index(mdesc, 0) == 75264
    n_out = acl.mdl.get_output_size_by_index(mdesc, 0)
    res_dev, _ = acl.rt.malloc(n_out, 0)
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(out_dev, 75264))  # DVPP memory straight in
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(res_dev, n_out))
    assert acl.mdl.execute(model_id, ins, outs) == 0
    host, _ = acl.rt.malloc_host(n_out)
    acl.rt.memcpy(host, n_out, res_dev, n_out, 2)
    scores = np.frombuffer(acl.util.ptr_to_bytes(host, n_out), np.float32)
    assert int(scores.argmax()) == 967  # espresso


def test_dynamic_aipp_parameter_set_follows_the_yolov3_sample(ready, tmp_path):
    """The C++ YOLOV3 dynamic-AIPP sample's calls, translated 1:1; the setters' documented ranges."""
    acl = ready
    mdl = acl.mdl
    a = mdl.create_aipp(1)
    assert a
    assert mdl.set_aipp_input_format(a, 15) == 100000 and mdl.set_aipp_input_format(a, 1) == 0
    assert mdl.set_aipp_csc_params(a, 1, 298, 516, 0, 298, -100, -208, 298, 0, 409, 0, 0, 0, 16, 128, 128) == 0
    assert mdl.set_aipp_rbuv_swap_switch(a, 0) == 0 and mdl.set_aipp_ax_swap_switch(a, 0) == 0
    assert mdl.set_aipp_src_image_size(a, 416, 416) == 0
    assert mdl.set_aipp_src_image_size(a, 1, 416) == 100000  # w in [2, 4096] (evenness: set_input_aipp)
    assert mdl.set_aipp_crop_params(a, 0, 0, 0, 416, 416, 0) == 0
    assert mdl.set_aipp_crop_params(a, 1, 4096, 0, 100, 100, 0) == 100000  # start in [0, 4095]
    assert mdl.set_aipp_padding_params(a, 1, 0, 0, 0, 33, 0) == 100000
    assert mdl.set_aipp_dtc_pixel_mean(a, 0, 0, 0, 0, 0) == 0
    assert mdl.set_aipp_dtc_pixel_min(a, 0.0, 0.0, 0.0, 0.0, 0) == 0
    assert mdl.set_aipp_pixel_var_reci(a, 1 / 255, 1 / 255, 1 / 255, 1.0, 0) == 0
    assert mdl.set_aipp_pixel_var_reci(a, 1.0, 1.0, 1.0, 1.0, 1) == 100000  # batch index out of range
    with pytest.raises(TypeError) as info:  # 'h' overflow: the binding's CHECK text, not OverflowError
        mdl.set_aipp_csc_params(a, 1, 40000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert str(info.value) == "acl.mdl.set_aipp_csc_params args parse failed!"
    assert mdl.get_aipp_data_size(1) == (160, 0)
    om = build(identity_onnx(tmp_path / "plain.onnx", 8, 8), tmp_path / "plain")
    model_id, _ = mdl.load_from_file(str(om))
    assert mdl.set_input_aipp(model_id, mdl.create_dataset(), 0, a) == 100000  # no dynamic-AIPP input
    assert mdl.destroy_aipp(a) == 0


def test_static_aipp_with_dynamic_batch(ready, tmp_path):
    """googlenet_imagenet_dynamic_batch's shape: YUV420SP AIPP on an input of -1 batch, gears 1 and 2."""
    acl = ready
    (tmp_path / "b.cfg").write_text(PY_SAMPLE_CFG.replace("{w}", "8").replace("{h}", "8"))
    om = build(identity_onnx(tmp_path / "b.onnx", 8, 8), tmp_path / "b", f"--insert_op_conf={tmp_path / 'b.cfg'}",
               "--input_shape=data:-1,3,8,8", "--dynamic_batch_size=1,2")
    model_id, _ = acl.mdl.load_from_file(str(om))
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    n_in = acl.mdl.get_input_size_by_index(desc, 0)
    assert n_in == 2 * 96 and acl.mdl.get_input_dims_v2(desc, 0)[0]["dims"] == [-1, 12, 8, 1]
    bufs = np.random.default_rng(4).integers(0, 256, (2, 96), dtype=np.uint8)
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    dev, _ = acl.rt.malloc(n_in, 0)
    data = bufs.tobytes()  # keep the bytes object alive while its pointer is used
    assert acl.rt.memcpy(dev, n_in, acl.util.bytes_to_ptr(data), n_in, 1) == 0
    shape_dev, _ = acl.rt.malloc(8, 0)
    n_out = acl.mdl.get_output_size_by_index(desc, 0)
    out_dev, _ = acl.rt.malloc(n_out, 0)
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(dev, n_in))
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(shape_dev, 8))
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(out_dev, n_out))
    assert acl.mdl.set_dynamic_batch_size(model_id, ins, 1, 2) == 0
    assert acl.mdl.execute(model_id, ins, outs) == 0
    host, _ = acl.rt.malloc_host(n_out)
    acl.rt.memcpy(host, n_out, out_dev, n_out, 2)
    out = np.frombuffer(acl.util.ptr_to_bytes(host, n_out), np.float32).reshape(2, 3, 8, 8)
    m = np.array([298, 516, 0, 298, -100, -208, 298, 0, 409]).reshape(3, 3)
    for b in range(2):
        y, u, v = nv12_to_channels(bufs[b], 8, 8)
        bgr = np.clip(np.floor(np.einsum("ij,jhw->ihw", m, np.stack([y - 16, u - 128, v - 128])) / 256), 0, 255)
        assert np.array_equal(out[b], (bgr - np.array([123, 117, 104]).reshape(3, 1, 1)).astype(np.float32))


def test_static_rgb_aipp_on_an_nhwc_input_with_dynamic_image_size(ready, tmp_path):
    """resnet50_imagenet_dynamic_hw's shape: RGB888_U8 AIPP, src size from each gear, NHWC model input."""
    acl = ready
    cfg = "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n min_chn_0: 1.5\n var_reci_chn_2: 0.25\n}\n"
    (tmp_path / "hw.cfg").write_text(cfg)
    om = build(identity_onnx(tmp_path / "hw.onnx", 8, 8), tmp_path / "hw", f"--insert_op_conf={tmp_path / 'hw.cfg'}",
               "--input_format=NHWC", "--input_shape=data:1,-1,-1,3", "--dynamic_image_size=4,6;8,8")
    model_id, _ = acl.mdl.load_from_file(str(om))
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    n_in = acl.mdl.get_input_size_by_index(desc, 0)
    assert n_in == 8 * 8 * 3 and acl.mdl.get_dynamic_hw(desc, -1)[0]["hw"] == [[4, 6], [8, 8]]
    img = np.random.default_rng(6).integers(0, 256, (4, 6, 3), dtype=np.uint8)
    dev, _ = acl.rt.malloc(n_in, 0)
    data = img.tobytes()
    assert acl.rt.memcpy(dev, n_in, acl.util.bytes_to_ptr(data), img.size, 1) == 0
    shape_dev, _ = acl.rt.malloc(16, 0)
    n_out = acl.mdl.get_output_size_by_index(desc, 0)
    out_dev, _ = acl.rt.malloc(n_out, 0)
    ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(dev, n_in))
    acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(shape_dev, 16))
    acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(out_dev, n_out))
    assert acl.mdl.set_dynamic_hw_size(model_id, ins, 1, 4, 6) == 0
    assert acl.mdl.execute(model_id, ins, outs) == 0
    host, _ = acl.rt.malloc_host(n_out)
    acl.rt.memcpy(host, n_out, out_dev, n_out, 2)
    out = np.frombuffer(acl.util.ptr_to_bytes(host, n_out), np.float32)[:4 * 6 * 3].reshape(4, 6, 3)
    expect = img.astype(np.float32)
    expect[..., 0] -= np.float32(1.5)
    expect[..., 2] *= np.float32(0.25)
    assert np.array_equal(out, expect)
    assert acl.mdl.get_cur_output_dims(desc, 0)[0]["dims"] == [1, 4, 6, 3]


def test_static_onnx_aipp_equals_the_numpy_reference(ready, tmp_path):
    """The graph ops the ATC emulator compiles and spec.aipp.run (dynamic AIPP's path) agree byte for byte."""
    from acl_teach.spec import aipp as A
    from acl_teach.toolchain import aipp as T
    acl = ready
    cfg = ("aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n src_image_size_w: 12\n src_image_size_h: 10\n"
           " crop: true\n load_start_pos_w: 2\n load_start_pos_h: 2\n crop_size_w: 6\n crop_size_h: 6\n"
           " padding: true\n left_padding_size: 1\n right_padding_size: 1\n top_padding_size: 2\n"
           " padding_value: 3\n csc_switch: true\n rbuv_swap_switch: true\n mean_chn_1: 9\n min_chn_0: 0.5\n"
           " var_reci_chn_2: 0.125\n}\n")
    om = convert(tmp_path, cfg)
    buf = np.random.default_rng(8).integers(0, 256, 12 * 10 * 3 // 2, dtype=np.uint8)
    out, _, _ = run(acl, om, buf.tobytes())
    ref = A.run(buf, T.normalise(T.parse(cfg)[0], 8, 8))
    assert np.array_equal(out.reshape(3, 8, 8), ref)
