"""aclDataBuffer calls: create/destroy/get_addr/get_size/get_size_v2/update."""
import pytest
from acl_teach import sim


def test_data_buffer_round_trip(ready):
    acl = ready
    ptr, _ = acl.rt.malloc(64, 0)
    buf = acl.create_data_buffer(ptr, 64)
    assert buf != 0 and acl.get_data_buffer_addr(buf) == ptr
    assert acl.get_data_buffer_size(buf) == 64 and acl.get_data_buffer_size_v2(buf) == 64
    assert any(e.kind == "data buffer" and e.handle == buf for e in sim.ledger())
    other, _ = acl.rt.malloc(128, 0)
    assert acl.update_data_buffer(buf, other, 128) == 0
    assert (acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)) == (other, 128)
    assert acl.destroy_data_buffer(buf) == 0
    assert acl.rt.free(ptr) == 0  # the memory outlived its label
    assert acl.get_data_buffer_addr(buf) == 0 and acl.get_data_buffer_size_v2(buf) == 0
    assert acl.destroy_data_buffer(buf) == 100000
    assert "released by acl.destroy_data_buffer" in acl.get_recent_err_msg()
    assert acl.update_data_buffer(buf, other, 1) == 100000


def test_data_buffer_null_and_sizes(ready):
    acl = ready
    empty = acl.create_data_buffer(0, 0)  # allowed: e.g. an output the system fills
    assert empty != 0 and acl.get_data_buffer_addr(empty) == 0
    big = acl.create_data_buffer(0x1000_0000_0000_0000, (1 << 32) + 5)
    assert acl.get_data_buffer_size(big) == 5  # the deprecated call is 32-bit
    assert acl.get_data_buffer_size_v2(big) == (1 << 32) + 5
    assert acl.destroy_data_buffer(0) == 100000
    assert acl.get_data_buffer_addr(0) == 0
    with pytest.raises(TypeError, match="^acl.create_data_buffer args parse failed"):
        acl.create_data_buffer(None, 4)


def test_get_device_without_context(acl):
    acl.init()
    assert acl.rt.get_device() == (0, 107002)
    assert acl.rt.get_device_count() == (1, 0)


def test_cli_lab_starts_jupyterlab_on_the_notebooks(monkeypatch):
    import shutil
    import subprocess
    from acl_teach import cli
    seen = {}
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/jupyter")
    monkeypatch.setattr(subprocess, "call", lambda argv: seen.setdefault("argv", argv) and 0)
    assert cli.main(["lab"]) == 0
    assert seen["argv"][:2] == ["/usr/bin/jupyter", "lab"] and seen["argv"][2].endswith("notebooks")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert cli.main(["lab"]) == 2
