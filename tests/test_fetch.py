"""`acl-teach fetch resnet50` against a local HTTP server (no real network in tests)."""
import hashlib
import http.server
import io
import os
import threading

import numpy as np
import pytest

from acl_teach import cli
from acl_teach.spec import om
from acl_teach.toolchain import fetch


def resnet_like(path, input_name="actual_input_1"):
    """A small ONNX model with the quick-start ResNet-50's I/O: [1,3,224,224] -> [1,1000]."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    w = numpy_helper.from_array(np.random.default_rng(0).standard_normal((3, 1000)).astype(np.float32), "w")
    nodes = [helper.make_node("GlobalAveragePool", [input_name], ["p"]),
             helper.make_node("Flatten", ["p"], ["f"]),
             helper.make_node("MatMul", ["f", "w"], ["logits"])]
    graph = helper.make_graph(nodes, "r", [helper.make_tensor_value_info(input_name, TensorProto.FLOAT,
                                                                         [1, 3, 224, 224])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])],
                              initializer=[w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path.read_bytes()


def resnet_shaped(path):
    """A small model shaped like ResNet-50 where it counts (53 Conv, 49 Relu) with the quick-start's I/O."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((3, 3, 1, 1)).astype(np.float32) * 0.5, f"k{i}")
             for i in range(53)] + [numpy_helper.from_array(rng.standard_normal((3, 1000)).astype(np.float32), "w")]
    nodes, x = [], "actual_input_1"
    for i in range(53):
        nodes.append(helper.make_node("Conv", [x, f"k{i}"], [f"c{i}"]))
        x = f"c{i}"
        if i < 49:
            nodes.append(helper.make_node("Relu", [x], [f"r{i}"]))
            x = f"r{i}"
    nodes += [helper.make_node("GlobalAveragePool", [x], ["p"]), helper.make_node("Flatten", ["p"], ["f"]),
              helper.make_node("MatMul", ["f", "w"], ["output1"])]
    graph = helper.make_graph(nodes, "r", [helper.make_tensor_value_info("actual_input_1", TensorProto.FLOAT,
                                                                         [1, 3, 224, 224])],
                              [helper.make_tensor_value_info("output1", TensorProto.FLOAT, [1, 1000])],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path.read_bytes()


def sha(data):
    return hashlib.sha256(data).hexdigest()


class RangeHandler(http.server.BaseHTTPRequestHandler):
    """Serves one in-memory file with Range support; counts requests."""

    payload = b""
    requests = []
    send_length = True

    def do_GET(self):  # noqa: N802
        self.requests.append(self.headers.get("Range"))
        if self.path != "/resnet50.onnx":
            self.send_error(404)
            return
        start = 0
        if self.headers.get("Range"):
            start = int(self.headers["Range"].split("=")[1].split("-")[0])
            self.send_response(206)
        else:
            self.send_response(200)
        body = self.payload[start:]
        if self.send_length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("ACL_TEACH_CACHE", str(tmp_path / "cache"))
    RangeHandler.payload = resnet_like(tmp_path / "src.onnx")
    RangeHandler.requests = []
    RangeHandler.send_length = True
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_fetch_downloads_checks_and_builds_the_om(server, tmp_path):
    out = io.StringIO()
    digest = sha(RangeHandler.payload)
    path = fetch.fetch_resnet50(server + "/resnet50.onnx", out, sha256=digest)
    assert "100% [" in out.getvalue() and f"SHA-256 {digest} verified" in out.getvalue()
    header = om.read(path).header
    assert header["inputs"][0]["name"] == "actual_input_1" and header["inputs"][0]["size"] == 602112
    assert header["outputs"][0]["size"] == 4000 and header["recipe"]["output"] == "logits"
    from acl_teach.toolchain import assets as models
    assert models.best_om() == path
    # cached: no second download, but checked again
    n = len(RangeHandler.requests)
    out = io.StringIO()
    assert fetch.fetch_resnet50(server + "/resnet50.onnx", out, sha256=digest.upper()) == path
    assert len(RangeHandler.requests) == n and "verified" in out.getvalue()


def test_fetch_resumes_a_partial_download(server, tmp_path):
    folder = tmp_path / "cache" / "resnet50"
    folder.mkdir(parents=True)
    half = len(RangeHandler.payload) // 2
    (folder / "resnet50.onnx.download.part").write_bytes(RangeHandler.payload[:half])
    fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), sha256=sha(RangeHandler.payload))
    assert RangeHandler.requests == [f"bytes={half}-"]
    assert (folder / "resnet50.onnx").read_bytes() == RangeHandler.payload
    assert sorted(os.listdir(folder)) == ["resnet50.onnx", "resnet50.recipe.json"]  # no temporary left behind


def test_fetch_rejects_a_wrong_file(server, tmp_path):
    RangeHandler.payload = resnet_like(tmp_path / "other.onnx", input_name="images")
    with pytest.raises(fetch.FetchError, match="does not have the quick-start ResNet-50's input"):
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), sha256=sha(RangeHandler.payload))
    assert not (tmp_path / "cache" / "resnet50" / "resnet50.onnx").exists()
    RangeHandler.payload = b"<html>not a model</html>"
    with pytest.raises(fetch.FetchError, match="not a loadable ONNX model"):
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), force=True, insecure=True)


def test_fetch_refuses_a_small_fake_with_the_right_shapes(server, tmp_path):
    """The 12 KB fake with ResNet-50's input and output used to be accepted and then used by classify."""
    fake = RangeHandler.payload
    fetch.check_io("fake", __import__("onnx").load_model_from_string(fake))  # its shapes are right
    with pytest.raises(fetch.FetchError) as info:
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), insecure=True)
    assert "is not the quick-start ResNet-50" in str(info.value) and "0 Conv" in str(info.value)
    assert "53 Conv" in str(info.value) and "25.5 M parameters" in str(info.value)
    assert not (tmp_path / "cache" / "resnet50" / "resnet50.onnx").exists()
    from acl_teach.toolchain import assets as models
    assert models.resnet50_onnx() is None  # classify keeps the embedded default
    with pytest.raises(fetch.FetchError, match="SHA-256 mismatch"):
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), sha256="0" * 64)
    assert models.resnet50_onnx() is None


def test_a_pinned_digest_refuses_any_other_file(server, monkeypatch):
    url = server + "/resnet50.onnx"
    monkeypatch.setattr(fetch, "RESNET50_URL", url)
    monkeypatch.setitem(fetch.PINNED_SHA256, url, "1" * 64)
    with pytest.raises(fetch.FetchError, match="SHA-256 mismatch"):
        fetch.fetch_resnet50(url, io.StringIO(), insecure=True)  # --insecure allows http, not another file


def test_without_a_digest_the_file_must_look_like_resnet50_and_is_reported_unverified(server, tmp_path,
                                                                                      monkeypatch):
    RangeHandler.payload = resnet_shaped(tmp_path / "shaped.onnx")
    size = len(RangeHandler.payload)
    monkeypatch.setattr(fetch, "RESNET50_SIZE", (size - 1, size + 1))  # a 102 MB file is too big for a test
    monkeypatch.setattr(fetch, "RESNET50_PARAMS", (3000, 4000))
    out = io.StringIO()
    path = fetch.fetch_resnet50(server + "/resnet50.onnx", out, insecure=True)
    text = out.getvalue()
    assert "UNVERIFIED" in text and "53 Conv, 49 Relu, 0.00 M parameters" in text
    assert f"--sha256 {sha(RangeHandler.payload)}" in text
    assert om.read(path).header["inputs"][0]["name"] == "actual_input_1"


def test_the_structure_of_a_real_resnet50_passes():
    """53 Conv, 49 Relu, 25.53 M parameters (BatchNorm folded) in about 102 MB: dims only, no weights needed."""
    from onnx import TensorProto, helper

    def shape_only(name, dims):
        t = TensorProto(name=name, data_type=TensorProto.FLOAT)
        t.dims.extend(dims)
        return t
    nodes = [helper.make_node("Conv", ["x", f"k{i}"], [f"c{i}"]) for i in range(53)] + \
        [helper.make_node("Relu", [f"c{i}"], [f"r{i}"]) for i in range(49)]
    weights = [shape_only("fc", [1000, 2048]), shape_only("convs", [25_530_472 - 2_048_000])]
    model = helper.make_model(helper.make_graph(nodes, "g", [], [], initializer=weights))
    assert fetch.check_structure("resnet50.onnx", model, 102_200_000) == \
        "102.2 MB, 53 Conv, 49 Relu, 25.53 M parameters"
    with pytest.raises(fetch.FetchError, match="52 Conv"):
        del model.graph.node[0]
        fetch.check_structure("resnet50.onnx", model, 102_200_000)


def test_http_and_other_urls_need_a_digest_or_insecure(server, capsys):
    url = server + "/resnet50.onnx"
    with pytest.raises(fetch.FetchError, match="refusing plain http://"):
        fetch.fetch_resnet50(url, io.StringIO())
    with pytest.raises(fetch.FetchError, match="is not the quick-start sample's URL"):
        fetch.fetch_resnet50("https://mirror.invalid/resnet50.onnx", io.StringIO())
    with pytest.raises(fetch.FetchError, match="only https://"):
        fetch.fetch_resnet50("file:///etc/passwd", io.StringIO(), insecure=True)
    with pytest.raises(fetch.FetchError, match="is not a SHA-256 digest"):
        fetch.fetch_resnet50(url, io.StringIO(), sha256="abc")
    assert RangeHandler.requests == []  # refused before any request
    assert cli.main(["fetch", "resnet50", "--url", url]) == 2
    err = capsys.readouterr().err
    assert "refusing plain http://" in err and "--insecure" in err and err.count("\n") == 1
    assert cli.main(["fetch", "resnet50", "--url", url, "--sha256", sha(RangeHandler.payload)]) == 0
    assert "ResNet-50 ready" in capsys.readouterr().out


def test_redirects_never_leave_https():
    import urllib.request
    handler = fetch._NoDowngrade()
    with pytest.raises(fetch.FetchError, match="it leaves https"):
        handler.redirect_request(urllib.request.Request("https://a.example/x"), None, 302, "", {}, "http://b.example/x")
    assert handler.redirect_request(urllib.request.Request("https://a.example/x"), None, 302, "", {},
                                    "https://b.example/x").full_url == "https://b.example/x"


def test_a_link_planted_at_the_resume_path_is_not_followed(server, tmp_path):
    folder = tmp_path / "cache" / "resnet50"
    folder.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    (folder / "resnet50.onnx.download.part").symlink_to(victim)
    (folder / "resnet50.recipe.json").symlink_to(tmp_path / "victim2.txt")
    out = io.StringIO()
    fetch.fetch_resnet50(server + "/resnet50.onnx", out, sha256=sha(RangeHandler.payload))
    assert victim.read_bytes() == b"precious" and not (tmp_path / "victim2.txt").exists()
    assert RangeHandler.requests == [None]  # not resumed from the link's target
    assert "not resuming from" in out.getvalue()
    assert (folder / "resnet50.onnx").read_bytes() == RangeHandler.payload
    assert not (folder / "resnet50.recipe.json").is_symlink()


def test_the_size_cap(server, tmp_path):
    size = len(RangeHandler.payload)
    with pytest.raises(fetch.FetchError, match=f"offers {size:,} bytes, more than the {size - 1:,}-byte limit"):
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), insecure=True, max_bytes=size - 1)
    RangeHandler.send_length = False  # the cap also holds while streaming a body of unknown length
    with pytest.raises(fetch.FetchError, match=f"passed the {size - 1:,}-byte limit"):
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), insecure=True, max_bytes=size - 1)
    part = tmp_path / "cache" / "resnet50" / "resnet50.onnx.download.part"
    assert part.stat().st_size == 0  # nothing over the cap is kept to resume from
    assert fetch.MAX_BYTES == 200_000_000


def test_fetch_errors_are_one_line_in_the_cli(server, capsys):
    assert cli.main(["fetch", "resnet50", "--url", server + "/missing.onnx", "--insecure"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("acl-teach: download failed: HTTP 404") and "Traceback" not in err
    assert cli.main(["fetch", "resnet50", "--url", "http://127.0.0.1:9/none.onnx", "--insecure"]) == 2
    assert "cannot reach" in capsys.readouterr().err
