"""`acl-teach fetch resnet50` against a local HTTP server (no real network in tests)."""
import http.server
import io
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


class RangeHandler(http.server.BaseHTTPRequestHandler):
    """Serves one in-memory file with Range support; counts requests."""

    payload = b""
    requests = []

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
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_fetch_downloads_checks_and_builds_the_om(server, tmp_path):
    out = io.StringIO()
    path = fetch.fetch_resnet50(server + "/resnet50.onnx", out)
    assert "100% [" in out.getvalue()
    header = om.read(path).header
    assert header["inputs"][0]["name"] == "actual_input_1" and header["inputs"][0]["size"] == 602112
    assert header["outputs"][0]["size"] == 4000 and header["recipe"]["output"] == "logits"
    from acl_teach.toolchain import assets as models
    assert models.best_om() == path
    # cached: no second download
    n = len(RangeHandler.requests)
    assert fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO()) == path
    assert len(RangeHandler.requests) == n


def test_fetch_resumes_a_partial_download(server, tmp_path):
    folder = tmp_path / "cache" / "resnet50"
    folder.mkdir(parents=True)
    half = len(RangeHandler.payload) // 2
    (folder / "resnet50.onnx.download.part").write_bytes(RangeHandler.payload[:half])
    fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO())
    assert RangeHandler.requests == [f"bytes={half}-"]
    assert (folder / "resnet50.onnx").read_bytes() == RangeHandler.payload


def test_fetch_rejects_a_wrong_file(server, tmp_path):
    RangeHandler.payload = resnet_like(tmp_path / "other.onnx", input_name="images")
    with pytest.raises(fetch.FetchError, match="does not have the quick-start ResNet-50's input"):
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO())
    assert not (tmp_path / "cache" / "resnet50" / "resnet50.onnx").exists()
    RangeHandler.payload = b"<html>not a model</html>"
    with pytest.raises(fetch.FetchError, match="not a loadable ONNX model"):
        fetch.fetch_resnet50(server + "/resnet50.onnx", io.StringIO(), force=True)


def test_fetch_errors_are_one_line_in_the_cli(server, capsys):
    assert cli.main(["fetch", "resnet50", "--url", server + "/missing.onnx"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("acl-teach: download failed: HTTP 404") and "Traceback" not in err
    assert cli.main(["fetch", "resnet50", "--url", "http://127.0.0.1:9/none.onnx"]) == 2
    assert "cannot reach" in capsys.readouterr().err
