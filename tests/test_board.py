"""The real-board path, proved on a fake board: a fake CANN ``acl`` and a fake ``atc`` on PATH.

The fake ``acl`` is the simulator behind CANN's door: like CANN, it refuses model files that lack the
real OM magic (``IMOD``), so an emulator OM cannot sneak through. The fake ``atc`` records its
command line and writes ``IMOD`` + a simulator OM, so what it built really runs.
"""
import json
import os
import stat
import sys
import types

import pytest

import acl_teach as at
from acl_teach import backend, cli, sim
from acl_teach.sim import inspect as sim_inspect
from acl_teach.spec import om
from acl_teach.toolchain import assets, board, recipes
from helpers import ROOT

SOC = "Ascend310B4"
COFFEE = os.path.join(ROOT, "data", "images", "coffee.png")
ONNX = os.path.join(ROOT, "data", "models", "efficientnet_lite0.onnx")

FAKE_ATC = """#!{python}
import json, os, sys
with open(os.environ["FAKE_ATC_LOG"], "a") as fh:
    fh.write(" ".join(["atc"] + sys.argv[1:]) + "\\n")
flags = dict(a[2:].split("=", 1) for a in sys.argv[1:])
if os.environ.get("FAKE_ATC_FAIL"):
    print("E10001: the fake atc was told to fail", file=sys.stderr)
    sys.exit(1)
if "singleop" in flags:
    with open(flags["singleop"]) as fh:
        ops = json.load(fh)
    for i, op in enumerate(ops):
        with open(os.path.join(flags["output"], f"{{i}}_{{op['op']}}.om"), "wb") as fh:
            fh.write(b"IMOD" + bytes(60))
    sys.exit(0)
from acl_teach.toolchain import atc
argv = [a for a in sys.argv[1:] if not a.startswith("--output=")] + ["--output=" + flags["output"] + "-sim"]
path, _ = atc.build(atc.parse_flags(argv))
with open(path, "rb") as fh:
    data = fh.read()
os.remove(path)
with open(flags["output"] + ".om", "wb") as fh:
    fh.write(b"IMOD" + data)
"""


def _fake_acl(tmp_path):
    """CANN's acl as the simulator, except that model loads want the real OM magic."""
    def unwrap(path):
        with open(path, "rb") as fh:
            data = fh.read()
        if not data.startswith(om.REAL_OM_MAGIC):
            return None
        inner = tmp_path / f"unwrapped-{os.path.basename(path)}"
        inner.write_bytes(data[len(om.REAL_OM_MAGIC):])
        return str(inner)

    def load_from_file(path):
        inner = unwrap(path)
        return (0, 100013) if inner is None else sim.mdl.load_from_file(inner)

    def query_size(path):
        inner = unwrap(path)
        return (0, 0, 100013) if inner is None else sim.mdl.query_size(inner)

    mdl = types.SimpleNamespace(**{n: getattr(sim.mdl, n) for n in dir(sim.mdl) if not n.startswith("_")})
    mdl.load_from_file, mdl.query_size = load_from_file, query_size
    fake = types.ModuleType("acl")
    for name in ("init", "finalize", "rt", "util", "op", "get_recent_err_msg", "create_data_buffer",
                 "destroy_data_buffer", "get_data_buffer_addr", "get_data_buffer_size_v2", "create_tensor_desc",
                 "destroy_tensor_desc"):
        setattr(fake, name, getattr(sim, name))
    fake.mdl = mdl
    fake.get_soc_name = lambda: SOC
    return fake


@pytest.fixture
def fake_board(tmp_path, monkeypatch):
    """A board: fake CANN acl active (run mode ACL_DEVICE), fake atc on PATH, a private cache."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "atc"
    script.write_text(FAKE_ATC.format(python=sys.executable))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    log = tmp_path / "atc.log"
    monkeypatch.setenv("FAKE_ATC_LOG", str(log))
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("ACL_TEACH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PYTHONPATH", ROOT)
    monkeypatch.setitem(sys.modules, "acl", _fake_acl(tmp_path))
    sim_inspect.reset()
    sim.configure(run_mode="device")
    assert backend.use("npu") == "npu"
    at.reset()
    yield types.SimpleNamespace(log=log, cache=tmp_path / "cache", bin=bin_dir, tmp=tmp_path)
    at.reset()
    backend.use("sim")
    sim_inspect.reset()


def _calls(log):
    return log.read_text().splitlines() if log.exists() else []


def test_default_model_is_built_by_the_real_atc_with_the_samples_flags_and_cached(fake_board):
    path = at.models.default_om()
    out = fake_board.cache / f"efficientnet_lite0_{SOC}"
    assert path == f"{out}.om"
    assert _calls(fake_board.log) == [f"atc --model={ONNX} --framework=5 --output={out} --soc_version={SOC} "
                                      f"--input_fp16_nodes=data --output_type=FP32"]
    assert at.models.default_om() == path and len(_calls(fake_board.log)) == 1  # cached per SoC
    with open(path, "rb") as fh:
        assert fh.read(4) == om.REAL_OM_MAGIC
    assert recipes.recipe_for(path)["name"] == "efficientnet-lite"  # the sidecar written beside it
    dyn = at.models.dynamic_batch_om()
    assert _calls(fake_board.log)[-1] == (
        f"atc --model={ONNX} --framework=5 --output={fake_board.cache}/efficientnet_lite0_dynbatch_{SOC} "
        f"--soc_version={SOC} --input_fp16_nodes=data --output_type=FP32 --input_shape=data:-1,3,224,224 "
        f"--dynamic_batch_size=1,2,4,8")
    assert dyn.endswith(f"efficientnet_lite0_dynbatch_{SOC}.om")


def test_session_classifies_on_the_board_with_the_atc_built_model(fake_board):
    with at.Session() as s:
        assert s.model_path.endswith(f"efficientnet_lite0_{SOC}.om")
        assert s.resources.run_mode == "ACL_DEVICE"
        top = s.classify(COFFEE).topk
    assert top.top[0].index == 967
    copies = [line for line in s.code().splitlines() if "acl.rt.memcpy(" in line]
    assert copies and all(line.endswith(", 3)  # -> 0") for line in copies)  # on a board: DEVICE_TO_DEVICE


def test_an_emulator_om_is_refused_by_the_board_as_cann_would(fake_board):
    sim_om = assets.default_om("sim")
    at.init()
    res = at.request_resources(0)
    with pytest.raises(at.AclError, match="100013"):
        at.load_model(sim_om)
    at.release_resources(res)
    at.finalize()


def test_without_atc_the_error_is_one_line_with_the_command(fake_board, monkeypatch, capsys):
    os.remove(fake_board.bin / "atc")
    with pytest.raises(board.ToolchainError) as err:
        at.models.default_om()
    text = str(err.value)
    assert "\n" not in text and "set_env.sh" in text
    assert f"atc --model={ONNX} --framework=5 --output={fake_board.cache}/efficientnet_lite0_{SOC} " \
           f"--soc_version={SOC} --input_fp16_nodes=data --output_type=FP32" in text
    assert cli.main(["classify", COFFEE, "--backend", "npu"]) == 2
    printed = capsys.readouterr().err
    assert printed.count("\n") == 1 and "atc --model=" in printed and "Traceback" not in printed
    assert sim.ledger() == []  # init was undone


def test_a_failing_atc_says_why_and_writes_nothing(fake_board, monkeypatch):
    monkeypatch.setenv("FAKE_ATC_FAIL", "1")
    with pytest.raises(board.ToolchainError, match=r"atc exited with 1: E10001: the fake atc was told to fail"):
        at.models.default_om()
    assert not (fake_board.cache / f"efficientnet_lite0_{SOC}.om").exists()


def test_a_real_om_without_a_recipe_is_refused_never_guessed(fake_board, capsys):
    built = at.models.default_om()
    bare = fake_board.tmp / "mine.om"
    bare.write_bytes(open(built, "rb").read())
    with pytest.raises(recipes.RecipeError, match=r"recipe= \(Session\) or --recipe \(CLI\)"):
        at.Session(str(bare)).open()
    assert sim.ledger() == []
    assert cli.main(["classify", COFFEE, "--backend", "npu", "--model", str(bare)]) == 2
    assert "--recipe" in capsys.readouterr().err
    with at.Session(str(bare), recipe="efficientnet-lite") as s:
        assert s.classify(COFFEE).topk.top[0].index == 967
    assert cli.main(["classify", COFFEE, "--backend", "npu", "--model", str(bare), "--recipe", "efficientnet-lite",
                     "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["top"][0]["index"] == 967


def test_single_operator_models_come_from_atc_singleop(fake_board):
    folder = at.models.op_model_dir()
    assert folder == str(fake_board.cache / "op_models" / SOC)
    assert _calls(fake_board.log) == [f"atc --singleop={folder}/op_list.json --output={folder} --soc_version={SOC}"]
    with open(os.path.join(folder, "op_list.json")) as fh:
        assert [op["op"] for op in json.load(fh)] == ["Cast", "ArgMaxD"]
    assert at.models.op_model_dir() == folder and len(_calls(fake_board.log)) == 1


def test_your_own_op_list_is_compiled_by_atc_singleop_once(fake_board):
    vec = {"format": "ND", "shape": [1000], "type": "float32"}
    ops = [{"op": "Add", "input_desc": [vec, vec], "output_desc": [vec]}]
    folder = at.models.compile_ops(ops, "scores_add")
    assert folder == str(fake_board.cache / "op_models" / f"scores_add_{SOC}")
    assert _calls(fake_board.log) == [f"atc --singleop={folder}/op_list.json --output={folder} --soc_version={SOC}"]
    with open(os.path.join(folder, "op_list.json")) as fh:
        assert json.load(fh) == ops
    assert at.models.compile_ops(ops, "scores_add") == folder and len(_calls(fake_board.log)) == 1
    with pytest.raises(ValueError, match="plain folder name"):
        at.models.compile_ops(ops, "../elsewhere")


def test_inspection_on_a_board_uses_documented_calls_only(fake_board):
    acl = backend.acl()
    at.init()
    res = at.request_resources(0)
    ptr, _ = acl.rt.malloc(8, 0)
    payload = bytes(range(8))
    assert acl.rt.memcpy(ptr, 8, acl.util.bytes_to_ptr(payload), 8, 3) == 0
    look = backend.inspector()
    assert look.read(ptr, 8) == payload
    assert look.live() is None and look.leaks() is None and not look.AVAILABLE
    from acl_teach.widgets import LedgerView
    assert "only on the simulator" in LedgerView().table.value
    acl.rt.free(ptr)
    at.release_resources(res)
    at.finalize()
