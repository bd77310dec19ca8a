"""The ATC emulator: flags, failures, and the desc it writes."""
import io

import pytest

from acl_teach.spec import om
from acl_teach.toolchain import atc
from helpers import build, make_onnx


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = atc.run(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_default_model_has_the_resnet50_sample_contract(default_om):
    header = om.read(default_om).header
    (inp,), (out,) = header["inputs"], header["outputs"]
    assert (inp["name"], inp["dims"], inp["data_type"], inp["format"], inp["size"]) == \
        ("data", [1, 3, 224, 224], 1, 0, 301056)
    assert (out["dims"], out["data_type"], out["size"]) == ([1, 1000], 0, 4000)
    assert out["name"].endswith(":0:prob")
    assert header["recipe"]["mean"] == [127.0, 127.0, 127.0]
    assert header["soc_version"] == "Ascend310" and header["weight_size"] > 10_000_000


def test_success_message_and_file(tmp_path):
    src = make_onnx(tmp_path / "m.onnx")
    code, out, err = run([f"--model={src}", "--framework=5", f"--output={tmp_path / 'm'}",
                          "--soc_version=Ascend310P3"])
    assert code == 0 and "ATC run success" in out and err == ""
    assert om.read(str(tmp_path / "m.om")).header["soc_version"] == "Ascend310P3"


def test_space_separated_flags_work(tmp_path):
    src = make_onnx(tmp_path / "m.onnx")
    code, _, err = run(["--model", src, "--framework", "5", "--output", str(tmp_path / "m"),
                        "--soc_version", "Ascend310"])
    assert code == 0, err


@pytest.mark.parametrize("extra, reason", [
    (["--framework=0"], "Caffe) is not supported by the acl-teach simulator"),
    (["--framework=3"], "TensorFlow) is not supported"),
    (["--framework=9"], "[--framework] is invalid"),
    (["--soc_version=x"], "[--soc_version] is invalid"),
    (["--bogus=1"], "Parameter [--bogus] is not supported"),
    (["--input_shape=nope:1,4"], "is not an input of the model"),
    (["--input_shape=a:1,x"], "[--input_shape] is invalid"),
    (["--input_shape=a:-1,4"], "neither --dynamic_batch_size"),
    (["--dynamic_batch_size=1,2"], "needs --input_shape with -1"),
    (["--input_shape=a:-1,4;b:-1,4", "--dynamic_batch_size=1"], "gears [[1]] are invalid"),
    (["--input_shape=a:-1,4;b:-1,4", "--dynamic_batch_size=1,2", "--dynamic_image_size=1,1;2,2"],
     "cannot be used together"),
    (["--input_fp16_nodes=zzz"], "not an input"),
    (["--output_type=nope:0:FP16"], "does not have"),
    (["--output_type=add0:x:FP16"], "[--output_type] is invalid"),
    (["--precision_mode=fastest"], "[--precision_mode] is invalid"),
    (["--input_shape=a:1,5;b:1,5"], None),
    (["--input_shape=a:1,5"], "E19010: the graph could not be compiled"),
])
def test_bad_commands_fail_like_atc(tmp_path, extra, reason):
    src = make_onnx(tmp_path / "m.onnx")
    base = {"--model": src, "--framework": "5", "--output": str(tmp_path / "m"), "--soc_version": "Ascend310"}
    for item in extra:
        key, _, value = item.partition("=")
        base[key] = value
    code, _, err = run([f"{k}={v}" for k, v in base.items()])
    if reason is None:
        assert code == 0, err
        return
    assert code == 1 and err.startswith(atc.FAILED)
    assert reason in err


def test_missing_model_and_required_flags(tmp_path):
    code, _, err = run(["--model=nothere.onnx", "--framework=5", "--output=x", "--soc_version=Ascend310"])
    assert code == 1 and "file not found" in err
    code, _, err = run([f"--model={make_onnx(tmp_path / 'm.onnx')}", "--framework=5", "--output=x"])
    assert code == 1 and "[--soc_version] is required" in err


def test_broken_onnx_fails(tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07garbage")
    code, _, err = run([f"--model={bad}", "--framework=5", f"--output={tmp_path / 'b'}", "--soc_version=Ascend310"])
    assert code == 1 and "E19010" in err


def test_fp16_input_and_fp16_output(tmp_path):
    src = make_onnx(tmp_path / "m.onnx")
    header = om.read(build(src, tmp_path / "m", "--input_fp16_nodes=a", "--output_type=FP16")).header
    assert [i["data_type"] for i in header["inputs"]] == [1, 0]
    assert [i["size"] for i in header["inputs"]] == [8, 16]
    assert [o["data_type"] for o in header["outputs"]] == [1, 1]
    assert [o["name"] for o in header["outputs"]] == ["add0:0:sum", "mul0:0:scaled"]


def test_dynamic_batch_desc(tiny_models):
    header = om.read(tiny_models["batch"]).header
    assert [i["name"] for i in header["inputs"]] == ["a", "b", "ascend_mbatch_shape_data"]
    assert header["inputs"][0]["dims"] == [-1, 4] and header["inputs"][0]["size"] == 4 * 4 * 4
    assert header["inputs"][2]["size"] == 8
    assert header["dynamic"] == {"kind": "batch", "gears": [[1], [2], [4]]}
    assert header["outputs"][0]["gear_dims"] == {"1": [1, 4], "2": [2, 4], "4": [4, 4]}


# -- issue 18 over-strict 7: what the samples' READMEs pass to ATC -------------------------------------------
def test_readme_flags_without_effect_are_accepted_and_say_so(tmp_path):
    """The cartoonization README: --save_original_model=false --precision_mode=allow_fp32_to_fp16."""
    src = make_onnx(tmp_path / "m.onnx")
    code, out, err = run([f"--model={src}", "--framework=5", f"--output={tmp_path / 'm'}", "--soc_version=Ascend310",
                          "--output_type=FP32", "--save_original_model=false", "--precision_mode=allow_fp32_to_fp16",
                          f"--check_report={tmp_path / 'report.json'}", "--op_select_implmode=high_precision"])
    assert code == 0, err
    for flag in ("--save_original_model=false", "--precision_mode=allow_fp32_to_fp16", "--check_report=",
                 "--op_select_implmode=high_precision"):
        assert flag in out and "no effect on the simulator" in out
    assert not (tmp_path / "report.json").exists()  # nothing written but the OM


def test_gflags_spellings(tmp_path):
    """ATC parses gflags: -flag=value, -flag value, --flag value, and --flag / --noflag for booleans."""
    src = make_onnx(tmp_path / "m.onnx")
    code, out, err = run(["-model=" + src, "-framework", "5", "--output", str(tmp_path / "m"), "-soc_version=Ascend310",
                          "-output_type=FP16", "--save_original_model", "--noenable_small_channel"])
    assert code == 0, err
    header = om.read(str(tmp_path / "m.om")).header
    assert {o["data_type"] for o in header["outputs"]} == {1}   # FP16 everywhere
    assert atc.parse_flags(["--save_original_model"]) == {"save_original_model": "true"}
    assert atc.parse_flags(["--nosave_original_model"]) == {"save_original_model": "false"}
    with pytest.raises(atc.AtcError, match="missing"):
        atc.parse_flags(["-model", "--framework=5"])


def test_output_type_per_output(tmp_path):
    """--output_type=node:index:TYPE;… (the samples' detection models keep one output fp32, one fp16)."""
    src = make_onnx(tmp_path / "m.onnx")
    code, _, err = run([f"--model={src}", "--framework=5", f"--output={tmp_path / 'm'}", "--soc_version=Ascend310",
                        "--output_type=add0:0:FP16;mul0:0:FP32"])
    assert code == 0, err
    types = {o["onnx_name"]: o["data_type"] for o in om.read(str(tmp_path / "m.om")).header["outputs"]}
    assert types == {"sum": 1, "scaled": 0}


def test_ndhwc_input_format_for_a_5d_input(tmp_path):
    """The 3D gesture README: --input_shape="X:1,16,112,112,3" --input_format=NDHWC."""
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 4, 8, 8, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])
    node = helper.make_node("ReduceMean", ["X"], ["y"], axes=[1, 2, 3], keepdims=0)
    model = helper.make_model(helper.make_graph([node], "g", [x], [y]), opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(tmp_path / "g.onnx"))
    code, _, err = run([f"--model={tmp_path / 'g.onnx'}", "--framework=5", f"--output={tmp_path / 'g'}",
                        "--soc_version=Ascend310", "--input_shape=X:1,4,8,8,3", "--input_format=NDHWC"])
    assert code == 0, err
    assert om.read(str(tmp_path / "g.om")).header["inputs"][0]["format"] == 27  # ACL_FORMAT_NDHWC


def _yolo_postprocess(path, shapes, classes, anchors, top=16):
    """A post-processing graph made of Ascend's YOLO operators, the way sampleYOLOV7NMSONNX builds one."""
    import onnx
    from onnx import TensorProto, helper
    boxes = 3
    ins = [helper.make_tensor_value_info(f"input_{i}", TensorProto.FLOAT, s) for i, s in enumerate(shapes)]
    k = len(shapes)
    nodes = [helper.make_node("YoloPreDetection", [f"input_{i}"], [f"coord_{i}", f"obj_{i}", f"cls_{i}"], boxes=boxes,
                              coords=4, classes=classes, yolo_version="V5", name=f"pre_{i}") for i in range(k)]
    nodes.append(helper.make_node(
        "YoloV5DetectionOutput", [f"coord_{i}" for i in range(k)] + [f"obj_{i}" for i in range(k)] +
        [f"cls_{i}" for i in range(k)] + ["img_info"], ["box_out", "box_out_num"], boxes=boxes, coords=4,
        classes=classes, pre_nms_topn=top, post_nms_topn=top, relative=1, out_box_dim=2, obj_threshold=0.25,
        score_threshold=0.25, iou_threshold=0.45, biases=anchors, name="detect"))
    info = helper.make_tensor_value_info("img_info", TensorProto.FLOAT, ["batch", 4])
    outs = [helper.make_tensor_value_info("box_out", TensorProto.FLOAT, ["batch", 6 * top]),
            helper.make_tensor_value_info("box_out_num", TensorProto.INT32, ["batch", 8])]
    model = helper.make_model(helper.make_graph(nodes, "yolo", ins + [info], outs), producer_name="onnx-parser")
    model.opset_import[0].version = 12
    onnx.save(model, str(path))
    return str(path)


def test_yolo_post_processing_operators_compile_and_decode(tmp_path):
    """YoloPreDetection + YoloV5DetectionOutput: one confident box decodes to YOLOv5's corners, NMS drops its twin."""
    import numpy as np
    import onnxruntime as ort
    classes = 2
    shapes = [[1, 3 * (5 + classes), 4, 4], [1, 3 * (5 + classes), 2, 2]]
    anchors = [10., 12., 20., 24., 30., 36., 40., 48., 60., 72., 80., 96.]
    src = _yolo_postprocess(tmp_path / "post.onnx", shapes, classes, anchors)
    code, out, err = run([f"--model={src}", "--soc_version=Ascend310", f"--output={tmp_path / 'post'}",
                          "--framework=5", "--input_shape=img_info:1,4"])
    assert code == 0, err
    assert "YoloPreDetection, YoloV5DetectionOutput: Ascend operators" in out
    model = om.read(str(tmp_path / "post.om"))
    assert [(o["name"], o["data_type"], o["dims"]) for o in model.header["outputs"]] == \
        [("detect:0:box_out", 0, [1, 96]), ("detect:1:box_out_num", 3, [1, 8])]
    x0, x1 = np.full(shapes[0], -10, np.float32), np.full(shapes[1], -10, np.float32)
    b = 1 * (5 + classes)                                          # box 1 of the 4x4 grid, cell y=2, x=1
    x0[0, b:b + 4, 2, 1], x0[0, b + 4, 2, 1], x0[0, b + 6, 2, 1] = 0, 10, 10   # sx=sy=sw=sh=0.5, obj, class 1
    x0[0, 0:2, 2, 1], x0[0, 4, 2, 1], x0[0, 6, 2, 1] = 0, 8, 8     # box 0, same cell and class, lower score,
    x0[0, 2:4, 2, 1] = np.log(np.sqrt(0.5) / (1 - np.sqrt(0.5)))   # (2 sw)^2 = 2: its 10x12 anchor -> 20x24, IoU 1
    session = ort.InferenceSession(model.onnx_bytes, providers=["CPUExecutionProvider"])
    box_out, num = session.run(None, {"input_0": x0, "input_1": x1,
                                      "img_info": np.array([[64, 64, 64, 64]], np.float32)})
    assert num.tolist() == [[1, 0, 0, 0, 0, 0, 0, 0]]
    # stride 16: centre ((2*0.5 - 0.5 + 1) * 16, (2*0.5 - 0.5 + 2) * 16) = (24, 40); size (1*20, 1*24)
    assert np.allclose(box_out[0, :6], [14, 28, 34, 52, 1 / (1 + np.exp(-10)) ** 2, 1], atol=1e-5)
    assert not box_out[0, 6:].any()


def _yolov3_postprocess(path, shapes, classes, biases, top=16):
    """Three Yolo (YoloPreDetection V3) operators + YoloV3DetectionOutput, the layers of a Caffe YOLOv3 prototxt."""
    import onnx
    from onnx import TensorProto, helper
    ins = [helper.make_tensor_value_info(f"input_{i}", TensorProto.FLOAT, s) for i, s in enumerate(shapes)]
    nodes = [helper.make_node("YoloPreDetection", [f"input_{i}"], [f"coord_{i}", f"obj_{i}", f"cls_{i}"], boxes=3,
                              coords=4, classes=classes, yolo_version="V3", name=f"yolo{i}") for i in range(3)]
    nodes.append(helper.make_node(
        "YoloV3DetectionOutput", [f"{kind}_{i}" for kind in ("coord", "obj", "cls") for i in range(3)] + ["img_info"],
        ["box_out", "box_out_num"], boxes=3, coords=4, classes=classes, relative=1, obj_threshold=0.5,
        score_threshold=0.5, iou_threshold=0.45, pre_nms_topn=top, post_nms_topn=top, name="detection_out3",
        **biases))
    info = helper.make_tensor_value_info("img_info", TensorProto.FLOAT, [1, 4])
    outs = [helper.make_tensor_value_info("box_out", TensorProto.FLOAT, [1, 6 * top]),
            helper.make_tensor_value_info("box_out_num", TensorProto.INT32, [1, 8])]
    model = helper.make_model(helper.make_graph(nodes, "yolov3", ins + [info], outs), producer_name="onnx-parser")
    model.opset_import[0].version = 12
    onnx.save(model, str(path))
    return str(path)


V3_BIASES = {"biases_low": [10., 12., 20., 24., 30., 36.], "biases_mid": [40., 48., 60., 72., 80., 96.],
             "biases_high": [5., 6., 7., 8., 9., 10.]}


def test_yolov3_detection_output_compiles_and_decodes_yolov3_boxes(tmp_path):
    """YoloV3DetectionOutput: sigmoid centre + cell, exp(tw) * anchor, img_info's scale, NMS drops the twin box."""
    import numpy as np
    import onnxruntime as ort
    classes = 2
    shapes = [[1, 3 * (5 + classes), n, n] for n in (4, 2, 1)]
    src = _yolov3_postprocess(tmp_path / "post.onnx", shapes, classes, V3_BIASES)
    code, out, err = run([f"--model={src}", "--soc_version=Ascend310", f"--output={tmp_path / 'post'}",
                          "--framework=5"])
    assert code == 0, err
    assert "YoloPreDetection, YoloV3DetectionOutput: Ascend operators" in out
    model = om.read(str(tmp_path / "post.om"))
    assert [(o["name"], o["data_type"], o["dims"]) for o in model.header["outputs"]] == \
        [("detection_out3:0:box_out", 0, [1, 96]), ("detection_out3:1:box_out_num", 3, [1, 8])]
    feeds = {f"input_{i}": np.full(s, -10, np.float32) for i, s in enumerate(shapes)}
    x0 = feeds["input_0"]
    b = 1 * (5 + classes)                                          # box 1 of the 4x4 grid, cell y=2, x=1
    x0[0, b:b + 4, 2, 1], x0[0, b + 4, 2, 1], x0[0, b + 6, 2, 1] = 0, 10, 10   # sigmoid 0.5 centre, exp(0) size
    x0[0, 0:2, 2, 1], x0[0, 4, 2, 1], x0[0, 6, 2, 1] = 0, 8, 8     # box 0, same cell and class, lower score,
    x0[0, 2:4, 2, 1] = np.log(2.0)                                 # exp(log 2) * its 10x12 anchor -> 20x24, IoU 1
    session = ort.InferenceSession(model.onnx_bytes, providers=["CPUExecutionProvider"])
    box_out, num = session.run(None, {**feeds, "img_info": np.array([[64, 64, 64, 64]], np.float32)})
    assert num.tolist() == [[1, 0, 0, 0, 0, 0, 0, 0]]
    # stride 16: centre ((0.5 + 1) * 16, (0.5 + 2) * 16) = (24, 40); size biases_low's box 1 = 20x24
    assert np.allclose(box_out[0, :6], [14, 28, 34, 52, 1 / (1 + np.exp(-10)) ** 2, 1], atol=1e-5)
    assert not box_out[0, 6:].any()
    box_out, _ = session.run(None, {**feeds, "img_info": np.array([[64, 64, 128, 32]], np.float32)})
    assert np.allclose(box_out[0, :4], [7, 56, 17, 104], atol=1e-4)  # x by scaleW / netW, y by scaleH / netH


def test_yolov3_detection_output_without_its_biases_is_refused_with_the_reason(tmp_path):
    """A missing biases_mid is an ATC error naming the three required attributes, not a traceback."""
    src = _yolov3_postprocess(tmp_path / "post.onnx", [[1, 21, n, n] for n in (4, 2, 1)], 2,
                              {"biases_low": V3_BIASES["biases_low"], "biases_high": V3_BIASES["biases_high"]})
    code, out, err = run([f"--model={src}", "--soc_version=Ascend310", f"--output={tmp_path / 'post'}",
                          "--framework=5"])
    assert code != 0
    assert "biases_low, biases_mid and biases_high are required" in out + err
    assert "biases_mid (0)" in out + err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("where", ["om_is_a_folder", "tmp_is_a_folder", "proc", "parent_is_a_file"])
def test_an_output_that_cannot_be_written_fails_like_atc_naming_it(tmp_path, where):
    """A folder at x.om or at its temporary name, an unwritable parent or a file where the folder goes: ATC's failure, no traceback."""
    import os
    src = make_onnx(tmp_path / "m.onnx")
    output = {"om_is_a_folder": tmp_path / "m", "tmp_is_a_folder": tmp_path / "m",
              "proc": "/proc/x/y", "parent_is_a_file": tmp_path / "f" / "m"}[where]
    (tmp_path / "f").write_text("a file, not a folder")
    if where == "om_is_a_folder":
        (tmp_path / "m.om").mkdir()
    if where == "tmp_is_a_folder":
        (tmp_path / f"m.om.{os.getpid()}.tmp").mkdir()
    code, out, err = run([f"--model={src}", "--framework=5", f"--output={output}", "--soc_version=Ascend310"])
    assert code == 1 and "ATC run success" not in out
    assert err.splitlines()[0] == atc.FAILED
    assert err.splitlines()[1].startswith("E10001: Value [") and f"{output}.om cannot be written" in err


def test_the_cli_fails_like_atc_when_the_singleop_output_is_a_file(tmp_path, capsys):
    """--singleop's --output names a folder: a file there is ATC's failure, not a FileExistsError traceback."""
    from acl_teach import cli
    from test_sim_op_atc import ADD
    import json
    op_list, blocker = tmp_path / "ops.json", tmp_path / "out"
    op_list.write_text(json.dumps([ADD]))
    blocker.write_text("a file")
    assert cli.main(["atc", f"--singleop={op_list}", f"--output={blocker}", "--soc_version=Ascend310"]) == 1
    err = capsys.readouterr().err
    assert atc.FAILED in err and f"E10001: Value [{blocker}] for parameter [--output] is invalid" in err
