"""Helpers shared by the tests: the repository root and a tiny 2-input/2-output ONNX model."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_onnx(path, dynamic=None):
    """A 2-input/2-output model: sum = a + b, scaled = 2 * a (float32, [1,4] unless dynamic)."""
    import onnx
    from onnx import TensorProto, helper
    if dynamic == "batch":
        shape = ["N", 4]
    elif dynamic == "hw":
        shape = [1, 1, "H", "W"]
    else:
        shape = [1, 4]
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, shape)
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, shape)
    s = helper.make_tensor_value_info("sum", TensorProto.FLOAT, shape)
    t = helper.make_tensor_value_info("scaled", TensorProto.FLOAT, shape)
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    nodes = [helper.make_node("Add", ["a", "b"], ["sum"], name="add0"),
             helper.make_node("Mul", ["a", "two"], ["scaled"], name="mul0")]
    graph = helper.make_graph(nodes, "tiny", [a, b], [s, t], initializer=[two])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return str(path)


def build(onnx_path, out, *flags):
    """Run the ATC emulator; return the .om path."""
    from acl_teach.toolchain import atc
    argv = [f"--model={onnx_path}", "--framework=5", f"--output={out}", "--soc_version=Ascend310", *flags]
    path, _ = atc.build(atc.parse_flags(argv))
    return path
