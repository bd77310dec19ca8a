"""`acl-teach atc --singleop`: CANN's op list JSON in, one simulator op model per operator out, ATC-style refusals."""
import json
import os

import pytest

from acl_teach import cli
from acl_teach.spec import opmodel
from acl_teach.toolchain import assets, board
from test_sim_op_helpers import compile_ops, om_files, op, run_atc, tensor

ADD = op("Add", [tensor("float16", [8, 16]), tensor("float16", [8, 16])], [tensor("float16", [8, 16])])


def _fails(tmp_path, ops, code):
    rc, out, err, folder = run_atc(tmp_path, ops)
    assert rc == 1
    assert "ATC run failed" in err and code in err, err
    assert not os.path.isdir(folder) or om_files(folder) == []  # nothing written
    return err


def test_files_are_named_like_atc_names_them(tmp_path):
    ops = [ADD, op("Cast", [tensor("float32", [1000], "NCHW")], [tensor("float16", [1000], "NCHW")],
                   {"dst_type": ("int", 1)}),
           {"compile_flag": 1},  # a flag entry: not an op, not counted
           op("Relu", [tensor("float32", [2])], [tensor("float32", [2])], name="my_relu"),
           op("Relu", [tensor("float32", [3])], [tensor("float32", [3])], name="bad name!")]
    rc, out, err, folder = run_atc(tmp_path, ops)
    assert rc == 0, err
    assert "ATC run success" in out
    assert om_files(folder) == ["0_Add_1_2_8_16_1_2_8_16_1_2_8_16.om", "1_Cast_0_0_1000_1_0_1000.om",
                                "3_Relu_0_2_3_0_2_3.om", "my_relu.om"]
    long = op("ConcatD", [tensor("float32", [1, 2, 3, 4])] * 12, [tensor("float32", [12, 2, 3, 4])],
              {"concat_dim": ("int", 0)})
    name = opmodel.file_name(0, "ConcatD", [(0, 2, [1, 2, 3, 4])] * 12, [(0, 2, [12, 2, 3, 4])])
    assert len(name) == 128 + 3 and name.startswith("0_ConcatD_0_2_1_2_3_4_")
    assert om_files(compile_ops(tmp_path, [long], folder="long")) == [name]


def test_the_file_format_round_trips(tmp_path):
    folder = compile_ops(tmp_path, [op("ArgMaxD", [tensor("float16", [1000])], [tensor("int32", [1])],
                                       {"dimension": ("int", 0)})])
    path = os.path.join(folder, om_files(folder)[0])
    with open(path, "rb") as fh:
        data = fh.read()
    assert data.startswith(opmodel.MAGIC)
    model = opmodel.loads(data)
    assert model.op == "ArgMaxD" and model.attrs == {"dimension": ("int", 0)}
    assert [(t.data_type, t.format, t.dims) for t in model.inputs] == [(1, 2, [1000])]
    assert model.header["soc_version"] == "Ascend310" and model.graph_inputs == [0]
    assert "--singleop=" in model.header["atc_command"]
    with pytest.raises(opmodel.OpModelError, match="checksum"):
        opmodel.loads(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(opmodel.OpModelError, match="real Ascend op model"):
        opmodel.loads(b"IMOD" + bytes(40))


def test_the_cli_runs_singleop(tmp_path, capsys):
    op_list = tmp_path / "ops.json"
    op_list.write_text(json.dumps([ADD]))
    assert cli.main(["atc", f"--singleop={op_list}", f"--output={tmp_path / 'out'}", "--soc_version=Ascend310"]) == 0
    assert "0_Add_1_2_8_16_1_2_8_16_1_2_8_16.om" in capsys.readouterr().out
    assert cli.main(["atc", f"--singleop={op_list}", f"--output={tmp_path / 'out'}"]) == 1
    assert "E10004: Value for parameter [--soc_version] is required." in capsys.readouterr().err


@pytest.mark.parametrize("ops, code", [
    ("[{", "E10025"),
    ('{"op": "Add"}', "E10032"),
    ([op("", [], [])], "E10026"),
    ([op("Add", [tensor("float64", [2])] * 2, [tensor("double", [2])])], "E10027"),
    ([op("Add", [tensor("float32", [2], "NXYZ")] * 2, [tensor("float32", [2])])], "E10027"),
    ([op("Cast", [tensor("float32", [2])], [tensor("int32", [2])], {"dst_type": ("int64", 3)})], "E13006"),
    ([op("Cast", [tensor("float32", [2])], [tensor("int32", [2])], {"dst_type": ("int", "three")})], "E10032"),
    ([op("Add", [{"format": "ND", "type": "float32"}] * 2, [tensor("float32", [2])])], "E10032"),
    ([op("Softmax", [tensor("float32", [2])], [tensor("float32", [2])])], "E10501"),
])
def test_op_list_problems_fail_like_ge_single_op_parser(tmp_path, ops, code):
    _fails(tmp_path, ops, code)


def test_a_missing_op_list_is_e10023(tmp_path, capsys):
    missing = tmp_path / "nope.json"
    assert cli.main(["atc", f"--singleop={missing}", f"--output={tmp_path}", "--soc_version=Ascend310"]) == 1
    assert f"E10023: Value {missing} for parameter --singleop is invalid." in capsys.readouterr().err


@pytest.mark.parametrize("entry, reason", [
    (op("Cast", [tensor("float32", [2])], [tensor("int32", [2])]), "required attribute dst_type"),
    (op("Cast", [tensor("float32", [2])], [tensor("int32", [2])], {"dst_type": ("float", 3.0)}),
     "must be of type int"),
    (op("Cast", [tensor("float32", [2])], [tensor("float16", [2])], {"dst_type": ("int", 3)}),
     "produces int32 here, the output_desc says float16"),
    (op("ArgMaxD", [tensor("double", [4])], [tensor("int32", [1])], {"dimension": ("int", 0)}),
     "data type double is not supported by ArgMaxD; it takes float, float16"),
    (op("ArgMaxD", [tensor("float32", [4])], [tensor("int32", [1])], {"dimension": ("int", 2 ** 40)}),
     "dimension 1099511627776 is out of range"),
    (op("ArgMaxD", [tensor("float16", [0])], [tensor("int32", [1])], {"dimension": ("int", 0)}),
     "cannot run on these shapes"),
    (op("Add", [tensor("float32", [2, 3]), tensor("float32", [4])], [tensor("float32", [2, 3])]),
     "the operator rejects these inputs"),
    (op("Add", [tensor("float32", [2])] * 2, [tensor("float32", [3])]), "produces shape [2] here"),
    (op("Add", [tensor("float32", [2]), tensor("int32", [2])], [tensor("float32", [2])]), "one data type"),
    (op("Add", [tensor("float32", [2])], [tensor("float32", [2])]), "input size"),
    (op("Cast", [tensor("float32", [2 ** 31, 2 ** 31, 4])], [tensor("float16", [2 ** 31, 2 ** 31, 4])],
        {"dst_type": ("int", 1)}), "larger than int64 bytes"),
    (op("Relu", [tensor("float32", [-1, 4])], [tensor("float32", [-1, 4])]), "dynamic shapes"),
    (op("Add", [tensor("bfloat16", [2])] * 2, [tensor("bfloat16", [2])]), "cannot hold it"),
    (op("Relu", [tensor("float32", [2], "NC1HWC0")], [tensor("float32", [2], "NC1HWC0")]), "cannot hold it"),
    (op("Transpose", [tensor("float32", [2, 3]), tensor("int32", [2])], [tensor("float32", [3, 2])]),
     "only with a const perm"),
    (op("SliceD", [tensor("float32", [4])], [tensor("float32", [2])],
        {"offsets": ("list_int", [3]), "size": ("list_int", [2])}), "leave the input dims"),
])
def test_ir_violations_fail_with_e14001_or_e13014(tmp_path, entry, reason):
    err = _fails(tmp_path, [ADD, entry], "E1")
    assert reason in err, err


def test_sim_op_model_dir_holds_notebook_07s_ops(tmp_path, monkeypatch):
    monkeypatch.setenv("ACL_TEACH_CACHE", str(tmp_path / "cache"))
    folder = assets.op_model_dir("sim")
    assert folder == str(tmp_path / "cache" / "op_models" / "sim")
    assert om_files(folder) == ["0_Cast_0_2_1000_1_2_1000.om", "1_ArgMaxD_1_2_1000_3_2_1.om"]
    with open(os.path.join(folder, "op_list.json")) as fh:
        assert json.load(fh) == board.TOP1_OPS
    stamp = os.stat(os.path.join(folder, om_files(folder)[0])).st_mtime_ns
    assert assets.op_model_dir("sim") == folder
    assert os.stat(os.path.join(folder, om_files(folder)[0])).st_mtime_ns == stamp  # built once
