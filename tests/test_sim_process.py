"""acl.init / finalize / version / errors messages / leak report."""
import json
from acl_teach import sim


def test_init_twice_returns_100002_and_stays_initialised(acl):
    assert acl.init() == 0
    assert acl.init() == 100002
    assert "already initialised" in acl.get_recent_err_msg()
    assert acl.rt.set_device(0) == 0


def test_finalize_twice_returns_100037(acl):
    assert acl.init() == 0
    assert acl.finalize() == 0
    assert acl.finalize() == 100037


def test_finalize_without_init_returns_100037(acl):
    assert acl.finalize() == 100037


def test_init_again_after_finalize_works(acl):
    assert acl.init() == 0 and acl.finalize() == 0
    assert acl.init() == 0


def test_init_with_config_file(acl, tmp_path):
    good = tmp_path / "acl.json"
    good.write_text(json.dumps({"dump": {}}))
    assert acl.init(str(good)) == 0


def test_init_with_missing_or_broken_config(acl, tmp_path):
    assert acl.init(str(tmp_path / "missing.json")) == 100003
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert acl.init(str(bad)) == 100006
    assert sim.state().initialized is False


def test_runtime_before_init_returns_100001(acl):
    assert acl.rt.set_device(0) == 100001
    assert acl.rt.malloc(16, 0) == (0, 100001)
    assert acl.rt.create_context(0) == (0, 100001)
    assert acl.rt.get_run_mode() == (1, 0)  # aclrtGetRunMode needs no init (acllite calls it at import)


def test_soc_and_version_work_before_init(acl):
    assert acl.get_soc_name() == "Ascend310"
    major, minor, patch, ret = acl.get_version()
    assert ret == 0 and (major, minor, patch) == (1, 0, 0)


def test_recent_err_msg_is_per_call_and_cleared(acl):
    assert acl.get_recent_err_msg() is None
    acl.rt.malloc(16, 0)
    msg = acl.get_recent_err_msg()
    assert "acl.rt.malloc returned 100001" in msg and "ACL_ERROR_UNINITIALIZE" in msg
    assert acl.get_recent_err_msg() is None


def test_finalize_prints_leak_report_with_creating_line(acl, capsys):
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(1024, 0)
    assert ret == 0
    capsys.readouterr()
    assert acl.finalize() == 0
    err = capsys.readouterr().err
    assert "leak report" in err
    assert "device memory" in err and f"{ptr:#x}" in err and "test_sim_process.py" in err
    assert "default context" in err  # reset_device was never called
    assert sim.ledger() == []


def test_clean_run_prints_no_leak_report(acl, capsys):
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(ptr) == 0 and acl.rt.reset_device(0) == 0
    capsys.readouterr()
    assert acl.finalize() == 0
    assert "leak report" not in capsys.readouterr().err
    assert sim.leak_report() == ""


def test_reset_returns_a_fresh_process(acl):
    assert acl.init() == 0
    sim.reset()
    assert acl.init() == 0  # not 100002: the simulated process is new
    assert sim.ledger()[0].kind == "acl"


def test_explain_off_keeps_stderr_quiet(acl, capsys):
    sim.configure(explain=False)
    acl.rt.malloc(1, 0)
    assert capsys.readouterr().err == ""


def test_init_once_rule_refuses_init_after_finalize(acl):
    """CANN <= 8.0 (acl.cpp of 2019-2020: aclFinalize never clears aclInitFlag): one acl.init per process."""
    sim.configure(init_once=True)
    assert acl.init() == 0 and acl.init() == 100002
    assert acl.finalize() == 0
    assert acl.init() == 100002
    assert "once per process" in acl.get_recent_err_msg()
    assert sim.state().initialized is False
    assert acl.rt.set_device(0) == 100001
    assert acl.finalize() == 100037


def test_init_once_from_the_environment(monkeypatch):
    from acl_teach.sim.core.state import Config
    monkeypatch.setenv("ACL_TEACH_SIM_INIT_ONCE", "1")
    assert Config.from_env().init_once is True
    monkeypatch.delenv("ACL_TEACH_SIM_INIT_ONCE")
    assert Config.from_env().init_once is False


def test_a_kernel_rerun_keeps_the_process(acl):
    """lab.setup() re-run in one kernel: fresh resources, same process (init -> 100002; init_once remembered)."""
    from acl_teach.sim import inspect
    sim.configure(init_once=True)
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    inspect.reset(keep_process=True)
    assert acl.init() == 100002 and acl.rt.set_device(0) == 0 and acl.rt.reset_device(0) == 0
    assert [e.kind for e in inspect.live(include_init=True)] == ["acl"]
    assert acl.finalize() == 0
    inspect.reset(keep_process=True)
    assert acl.init() == 100002 and sim.state().initialized is False


def test_load_from_mem_on_a_board_warns_for_a_python_pointer(acl):
    from acl_teach import models
    sim.configure(run_mode="device")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    data = open(models.default_om(), "rb").read()
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0 and any("device memory" in w.message for w in sim.warnings())
    assert acl.mdl.unload(model_id) == 0
    n = len(sim.warnings())
    dev, ret = acl.rt.malloc(len(data), 0)
    assert acl.rt.memcpy(dev, len(data), acl.util.bytes_to_ptr(data), len(data), 1) == 0
    model_id, ret = acl.mdl.load_from_mem(dev, len(data))
    assert ret == 0 and len(sim.warnings()) == n
    assert acl.mdl.unload(model_id) == 0 and acl.rt.free(dev) == 0


def test_init_refuses_a_config_over_one_mib_like_an_unreadable_one(acl, tmp_path):
    """acl.json is a few lines: a valid but >1 MiB file is refused (100006, as unreadable configs are), unread."""
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"pad": "x" * (1 << 20)}))
    assert acl.init(str(big)) == 100006
    assert "limit" in acl.get_recent_err_msg() and sim.state().initialized is False
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"pad": "x" * 1000}))
    assert acl.init(str(small)) == 0
