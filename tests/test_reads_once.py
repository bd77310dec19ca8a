"""A model file is read, verified and parsed once per load, however many images a session classifies.

Counted here: every open of the OM file (os.open or open, by any module) and every SHA-256 over
model-sized data (the graph checksum). 32 images through ``Session.classify`` make exactly one of each:
the simulator's ``acl.mdl.load_from_file``. The recipe comes from the header that load parsed.
"""
import builtins
import hashlib
import os

import pytest

from acl_teach.spec import om

BIG = 1 << 20  # the graph checksum covers megabytes; the header checksum a few kilobytes


@pytest.fixture
def counted(monkeypatch):
    """Counters of the opens of one path and of SHA-256 over >= 1 MiB, wherever they happen."""
    seen = {"path": None, "opens": 0, "hashes": 0}
    real_os_open, real_open, real_sha = os.open, builtins.open, hashlib.sha256

    def mine(path):
        try:
            return seen["path"] is not None and os.path.realpath(os.fsdecode(path)) == seen["path"]
        except (TypeError, ValueError):
            return False  # a file descriptor or other non-path

    def os_open(path, *args, **kwargs):
        seen["opens"] += mine(path)
        return real_os_open(path, *args, **kwargs)

    def py_open(file, *args, **kwargs):
        seen["opens"] += mine(file)
        return real_open(file, *args, **kwargs)

    def sha256(data=b"", **kwargs):
        seen["hashes"] += len(data) >= BIG
        return real_sha(data, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", py_open)
    monkeypatch.setattr(hashlib, "sha256", sha256)
    return seen


def test_the_counters_see_a_read(counted, default_om):
    """The counters are not blind: one om.read is one open and one graph checksum."""
    counted["path"] = os.path.realpath(default_om)
    assert om.read(default_om).header["onnx_size"] >= BIG
    assert (counted["opens"], counted["hashes"]) == (1, 1)


def test_32_images_read_the_model_file_once(step_api, default_om, counted):
    images = [step_api.models.image(name) for name in ("coffee.png", "chelsea.png", "rocket.jpg")]
    counted["path"] = os.path.realpath(default_om)
    with step_api.Session(default_om) as s:
        tops = [s.classify(images[i % 3], k=1).topk.top[0].index for i in range(32)]
    assert (counted["opens"], counted["hashes"]) == (1, 1)
    assert tops[:3] == [967, 282, 657] and tops == tops[:3] * 10 + tops[:2]  # espresso, tiger cat, missile


def test_the_recipe_is_the_loaded_models_even_if_the_file_changes(step_api, default_om, tmp_path):
    """What a session classifies with is the model it loaded: replacing the file later cannot mix them up;
    a new session reads the new file."""
    import shutil
    path = str(tmp_path / "m.om")
    shutil.copy(default_om, path)
    with step_api.Session(path) as s:
        blob = om.read(path)
        header = dict(blob.header, recipe=dict(blob.header["recipe"], input="YUV420SP_U8"))
        with open(path + ".new", "wb") as fh:
            fh.write(om.dumps(header, blob.onnx_bytes))
        os.replace(path + ".new", path)  # now an AIPP model's recipe on disk
        assert s.classify(step_api.models.image("coffee.png"), k=1).topk.top[0].index == 967
    with pytest.raises(ValueError, match="has AIPP"):
        with step_api.Session(path) as s:
            s.classify(step_api.models.image("coffee.png"))
