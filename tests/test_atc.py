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
    (["--output_type=sum:0:FP16"], "[--output_type] is invalid"),
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
