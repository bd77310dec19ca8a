"""Substitute ONNX graphs with the I/O contract (names, dtypes, shapes) of each official sample's real OM.

The real models (Caffe, TensorFlow, MindSpore AIR) cannot be fetched or converted here, so each
builder makes a tiny deterministic graph (pooling plus fixed linear layers, weights from a seeded
generator) that accepts exactly the real model's inputs and produces exactly its outputs. The
1000-class ImageNet models reuse the shipped EfficientNet-Lite0 behind an adapter that undoes the
sample's own preprocessing, so their top-1 is meaningful (a cat photo comes out as a cat).
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
FLOAT = TensorProto.FLOAT


def _const(name: str, value) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(value), name)


def _weights(seed: int, shape: Sequence[int], scale: float = 0.1) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


Shapes = List[Tuple[str, List[int]]]


def _model(name: str, nodes, inputs: Shapes, outputs: Shapes, inits) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info(n, FLOAT, s) for n, s in inputs],
                              [helper.make_tensor_value_info(n, FLOAT, s) for n, s in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="acl-teach samples")
    model.ir_version = min(model.ir_version, 8)
    onnx.checker.check_model(model, full_check=True)  # also infers shapes: a wrong output shape fails here
    return model


def _to_nchw(x: str, layout: str, nodes: list) -> str:
    if layout == "NCHW":
        return x
    nodes.append(helper.make_node("Transpose", [x], [x + "__nchw"], perm=[0, 3, 1, 2]))
    return x + "__nchw"


def classifier(input_name: str, shape: List[int], output_name: str, classes: int, layout: str = "NCHW",
               softmax: bool = False, seed: int = 0) -> onnx.ModelProto:
    """Global-average-pool + a fixed linear layer: [1, classes] logits (or probabilities) from an image."""
    nodes: list = []
    x = _to_nchw(input_name, layout, nodes)
    channels = shape[1] if layout == "NCHW" else shape[3]
    nodes += [helper.make_node("GlobalAveragePool", [x], ["gap"]),
              helper.make_node("Flatten", ["gap"], ["feat"]),
              helper.make_node("Gemm", ["feat", "W", "B"], ["logits" if softmax else output_name])]
    if softmax:
        nodes.append(helper.make_node("Softmax", ["logits"], [output_name], axis=1, name=output_name))
    inits = [_const("W", _weights(seed, [channels, classes], 1.0)), _const("B", _weights(seed + 1, [classes]))]
    return _model("classifier", nodes, [(input_name, shape)], [(output_name, [1, classes])], inits)


def heads(input_name: str, shape: List[int], outputs: List[Tuple[str, int, int]], layout: str = "NCHW",
          objectness: Sequence[int] = (), seed: int = 0) -> onnx.ModelProto:
    """Detection heads: per (name, stride, channels) an AveragePool(stride) + fixed 1x1 conv, in ``layout``.

    ``objectness`` lists channels biased to -6 so no box passes the samples' 0.2 score threshold.
    """
    nodes: list = []
    x = _to_nchw(input_name, layout, nodes)
    channels = shape[1] if layout == "NCHW" else shape[3]
    inits = []
    shapes = []
    for i, (name, stride, out_channels) in enumerate(outputs):
        h, w = (shape[2], shape[3]) if layout == "NCHW" else (shape[1], shape[2])
        shapes.append((name, [1, out_channels, h // stride, w // stride] if layout == "NCHW"
                       else [1, h // stride, w // stride, out_channels]))
        bias = _weights(seed + 2 * i + 1, [out_channels])
        bias[list(objectness)] = -6.0
        inits += [_const(f"W{i}", _weights(seed + 2 * i, [out_channels, channels, 1, 1], 0.01)), _const(f"B{i}", bias)]
        conv_out = name if layout == "NCHW" else f"{name}__nchw"
        nodes += [helper.make_node("AveragePool", [x], [f"pool{i}"], kernel_shape=[stride] * 2, strides=[stride] * 2),
                  helper.make_node("Conv", [f"pool{i}", f"W{i}", f"B{i}"], [conv_out], name=name)]
        if layout != "NCHW":
            nodes.append(helper.make_node("Transpose", [conv_out], [name], perm=[0, 2, 3, 1]))
    return _model("heads", nodes, [(input_name, shape)], shapes, inits)


def colorization() -> onnx.ModelProto:
    """Caffe colorization: L channel data_l [1,1,224,224] -> ab prediction class8_ab [1,2,56,56]."""
    nodes = [helper.make_node("AveragePool", ["data_l"], ["pool"], kernel_shape=[4, 4], strides=[4, 4]),
             helper.make_node("Conv", ["pool", "W", "B"], ["class8_ab"], name="class8_ab")]
    inits = [_const("W", _weights(0, [2, 1, 1, 1])), _const("B", np.zeros(2, np.float32))]
    return _model("colorization", nodes, [("data_l", [1, 1, 224, 224])], [("class8_ab", [1, 2, 56, 56])], inits)


def style_transfer() -> onnx.ModelProto:
    """Style transfer (TF, NCHW, no AIPP): RGB [1,3,720,1080] -> stylised RGB at half size [1,3,360,540]."""
    mix = np.array([[0.6, 0.3, 0.1], [0.2, 0.6, 0.2], [0.1, 0.3, 0.6]], np.float32).reshape(3, 3, 1, 1)
    nodes = [helper.make_node("AveragePool", ["input"], ["pool"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Conv", ["pool", "W", "B"], ["output"], name="output")]
    inits = [_const("W", mix), _const("B", np.array([10.0, 0.0, -10.0], np.float32))]
    return _model("style_transfer", nodes, [("input", [1, 3, 720, 1080])], [("output", [1, 3, 360, 540])], inits)


def bert() -> onnx.ModelProto:
    """BERT text classifier (TF): token ids input_1 and segment ids input_2 [1,300] -> softmax [1,5]."""
    nodes = [helper.make_node("Concat", ["input_1", "input_2"], ["ids"], axis=1),
             helper.make_node("Div", ["ids", "scale"], ["scaled"]),
             helper.make_node("Gemm", ["scaled", "W", "B"], ["logits"]),
             helper.make_node("Softmax", ["logits"], ["dense_1/Softmax"], axis=1, name="dense_1/Softmax")]
    inits = [_const("scale", np.float32(21128.0)),  # the vocabulary size: token ids to [0, 1)
             _const("W", _weights(0, [600, 5], 1.0)), _const("B", _weights(1, [5]))]
    return _model("bert", nodes, [("input_1", [1, 300]), ("input_2", [1, 300])], [("dense_1/Softmax", [1, 5])], inits)


def hifill() -> onnx.ModelProto:
    """HiFill inpainting (TF, NHWC): img [1,512,512,3] + mask [1,512,512,1] -> inpainted, attention, mask."""
    nodes = [helper.make_node("Mul", ["img", "one"], ["inpainted"], name="inpainted"),
             helper.make_node("ReduceMean", ["mask"], ["mask_mean"], keepdims=0),
             helper.make_node("Mul", ["mask_mean", "zero"], ["nothing"]),
             helper.make_node("Add", ["nothing", "uniform"], ["weight"]),
             helper.make_node("Expand", ["weight", "attention_shape"], ["attention"], name="attention"),
             helper.make_node("Mul", ["mask", "one"], ["mask_processed"], name="mask_processed")]
    inits = [_const("one", np.float32(1.0)), _const("zero", np.float32(0.0)), _const("uniform", np.float32(1 / 1024)),
             _const("attention_shape", np.array([1, 32, 32, 1024], np.int64))]
    return _model("hifill", nodes, [("img", [1, 512, 512, 3]), ("mask", [1, 512, 512, 1])],
                  [("inpainted", [1, 512, 512, 3]), ("attention", [1, 32, 32, 1024]),
                   ("mask_processed", [1, 512, 512, 1])], inits)


def imagenet_caffe_bgr() -> onnx.ModelProto:
    """Caffe ResNet-50's contract (data [1,3,224,224] BGR minus 104/117/123 -> prob [1,1000]) on EfficientNet-Lite0.

    The adapter adds the Caffe means back, flips BGR to RGB and applies EfficientNet's (x-127)/128.
    """
    from acl_teach.toolchain import assets
    net = onnx.load(assets.default_onnx())
    inner = "data__efficientnet"
    for node in net.graph.node:
        node.input[:] = [inner if i == "data" else i for i in node.input]
    adapter = [helper.make_node("Add", ["data", "caffe_mean"], ["bgr"]),
               helper.make_node("Gather", ["bgr", "bgr_to_rgb"], ["rgb"], axis=1),
               helper.make_node("Sub", ["rgb", "effnet_mean"], ["centred"]),
               helper.make_node("Div", ["centred", "effnet_std"], [inner])]
    for node in net.graph.node:
        if "prob" in node.output:
            node.name = "prob"  # the desc then names the output 'prob:0:prob', as for the Caffe model's top
    nodes = adapter + list(net.graph.node)
    del net.graph.node[:]
    net.graph.node.extend(nodes)
    net.graph.initializer.extend([_const("caffe_mean", np.array([104, 117, 123], np.float32).reshape(1, 3, 1, 1)),
                                  _const("bgr_to_rgb", np.array([2, 1, 0], np.int64)),
                                  _const("effnet_mean", np.float32(127.0)), _const("effnet_std", np.float32(128.0))])
    onnx.checker.check_model(net)
    return net


def imagenet_rgb(input_name: str) -> onnx.ModelProto:
    """An ImageNet classifier taking RGB already normalised as EfficientNet-Lite0 wants ((x - 127) / 128, which
    our googlenet insert_op.cfg's AIPP produces): EfficientNet-Lite0 with its input renamed."""
    from acl_teach.toolchain import assets
    net = onnx.load(assets.default_onnx())
    old = net.graph.input[0].name
    for node in net.graph.node:
        node.input[:] = [input_name if i == old else i for i in node.input]
    net.graph.input[0].name = input_name
    onnx.checker.check_model(net)
    return net


def imagenet_nhwc(input_name: str) -> onnx.ModelProto:
    """A TensorFlow-style ImageNet classifier: NHWC input ``input_name`` already normalised as EfficientNet-Lite0
    wants ((x - 127) / 128, which our aipp_resnet50.aippconfig produces) -> probabilities [1, 1000].

    EfficientNet-Lite0 behind a Transpose to NCHW; its convolutions take any H x W, so one graph serves
    the dynamic image sizes."""
    from acl_teach.toolchain import assets
    net = onnx.load(assets.default_onnx())
    old = net.graph.input[0].name
    inner = old + "__nchw"
    for node in net.graph.node:
        node.input[:] = [inner if i == old else i for i in node.input]
    net.graph.node.insert(0, helper.make_node("Transpose", [input_name], [inner], perm=[0, 3, 1, 2]))
    del net.graph.input[:]
    net.graph.input.append(helper.make_tensor_value_info(input_name, FLOAT, [1, "h", "w", 3]))
    onnx.checker.check_model(net)
    return net


def _set_input(net: onnx.ModelProto, input_name: str, dims: Sequence[int]) -> onnx.ModelProto:
    """Rename the graph's (single) input and give it ``dims`` (EfficientNet-Lite0's convolutions take any N, H, W)."""
    old = net.graph.input[0].name
    for node in net.graph.node:
        node.input[:] = [input_name if i == old else i for i in node.input]
    del net.graph.input[:]
    net.graph.input.append(helper.make_tensor_value_info(input_name, FLOAT, list(dims)))
    onnx.checker.check_model(net)
    return net


def imagenet_sized(input_name: str, dims: Sequence[int]) -> onnx.ModelProto:
    """EfficientNet-Lite0 taking ``input_name`` NCHW of ``dims`` (e.g. InceptionV3's 300x300), normalised as it wants
    ((x - 127) / 128: our AIPP cfgs produce it) -> probabilities [N, 1000]."""
    from acl_teach.toolchain import assets
    return _set_input(onnx.load(assets.default_onnx()), input_name, dims)


def imagenet_caffe_bgr_batch(batch: int) -> onnx.ModelProto:
    """imagenet_caffe_bgr with a fixed batch (the multi-batch sample's data:10,3,224,224)."""
    net = imagenet_caffe_bgr()
    return _set_input(net, "data", [batch, 3, 224, 224])


def yolov3_caffe() -> onnx.ModelProto:
    """Caffe YOLOv3 with its YoloV3DetectionOutput layer: data [1,3,416,416] + img_info [1,4] -> box_out fp32
    [1,6144] (x1, y1, x2, y2, score, class planes of up to 1024 boxes) + box_out_num int32 [1,8].

    The substitute finds no box: box_out_num[0] = 0 (the box planes are a function of the picture, never read)."""
    nodes = [helper.make_node("GlobalAveragePool", ["data"], ["gap"]),
             helper.make_node("ReduceSum", ["gap"], ["level"], keepdims=0),
             helper.make_node("ReduceSum", ["img_info"], ["info"], keepdims=0),
             helper.make_node("Mul", ["info", "zero"], ["info0"]),
             helper.make_node("Add", ["level", "info0"], ["level2"]),
             helper.make_node("Expand", ["level2", "box_shape"], ["box_out"], name="box_out"),
             helper.make_node("Mul", ["level2", "zero"], ["none"]),
             helper.make_node("Expand", ["none", "num_shape"], ["num_f"]),
             helper.make_node("Cast", ["num_f"], ["box_out_num"], to=TensorProto.INT32, name="box_out_num")]
    inits = [_const("zero", np.float32(0.0)), _const("box_shape", np.array([1, 6144], np.int64)),
             _const("num_shape", np.array([1, 8], np.int64))]
    graph = helper.make_graph(nodes, "yolov3_caffe",
                              [helper.make_tensor_value_info("data", FLOAT, [1, 3, 416, 416]),
                               helper.make_tensor_value_info("img_info", FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("box_out", FLOAT, [1, 6144]),
                               helper.make_tensor_value_info("box_out_num", TensorProto.INT32, [1, 8])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="acl-teach samples")
    model.ir_version = min(model.ir_version, 8)
    onnx.checker.check_model(model, full_check=True)
    return model


def deeplabv3_tf() -> onnx.ModelProto:
    """TF DeepLabv3+: ImageTensor uint8 NHWC [1,513,513,3] -> SemanticPredictions [1,513,513] (class per pixel; the
    README's --output_type makes it FP32). Substitute: class 15 (person) where the pixel is brighter than 127."""
    nodes = [helper.make_node("Cast", ["ImageTensor"], ["img"], to=FLOAT),
             helper.make_node("ReduceMean", ["img"], ["grey"], axes=[3], keepdims=0),
             helper.make_node("Greater", ["grey", "half"], ["bright"]),
             helper.make_node("Cast", ["bright"], ["bright_f"], to=FLOAT),
             helper.make_node("Mul", ["bright_f", "person"], ["SemanticPredictions"], name="SemanticPredictions")]
    inits = [_const("half", np.float32(127.0)),
             _const("person", np.float32(15.0))]
    graph = helper.make_graph(nodes, "deeplabv3",
                              [helper.make_tensor_value_info("ImageTensor", TensorProto.UINT8, [1, 513, 513, 3])],
                              [helper.make_tensor_value_info("SemanticPredictions", FLOAT, [1, 513, 513])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="acl-teach samples")
    model.ir_version = min(model.ir_version, 8)
    onnx.checker.check_model(model, full_check=True)
    return model


def deeplabv3_ms(size: int = 513, person: int = 15) -> onnx.ModelProto:
    """MindSpore DeepLabv3 as deeplabv3_postprocess_optimization reads it: x [1,3,H,W] -> output [1,21,H,W] class maps
    in [0, 1]. Substitute: only class ``person`` is on, where the pixel is bright (the sample's draw_label multiplies
    uint8 masks by its colour table, whose 287 for class 2 breaks cv2.merge under NumPy 1.x, so no class 2)."""
    onehot = np.zeros((1, 21, 1, 1), np.float32)
    onehot[0, person] = 1.0
    nodes = [helper.make_node("ReduceMean", ["x"], ["grey"], axes=[1], keepdims=1),
             helper.make_node("Sub", ["grey", "mid"], ["centred"]),
             helper.make_node("Mul", ["centred", "gain"], ["logit"]),
             helper.make_node("Sigmoid", ["logit"], ["bright"]),
             helper.make_node("Mul", ["bright", "onehot"], ["output"], name="output")]
    inits = [_const("mid", np.float32(127.0)), _const("gain", np.float32(0.05)), _const("onehot", onehot)]
    return _model("deeplabv3_ms", nodes, [("x", [1, 3, size, size])], [("output", [1, 21, size, size])], inits)


def maps(input_name: str, shape: List[int], outputs: List[Tuple[str, List[int]]], layout: str = "NHWC",
         act: str = "Tanh", seed: int = 0) -> onnx.ModelProto:
    """Image-to-map networks (GANs, enhancement, segmentation, edge or density maps): per output a fixed 1x1 channel
    mix of the picture, ``act`` (Tanh: [-1, 1]; Sigmoid: [0, 1]), resized to the output's H x W (same layout)."""
    nodes: list = []
    x = _to_nchw(input_name, layout, nodes)
    channels = shape[1] if layout == "NCHW" else shape[3]
    inits = []
    for i, (name, out_shape) in enumerate(outputs):
        n, c, h, w = out_shape if layout == "NCHW" else [out_shape[0], out_shape[3], out_shape[1], out_shape[2]]
        mix = (np.eye(c, channels) + _weights(seed + i, [c, channels], 0.05)).astype(np.float32) / 128.0
        inits += [_const(f"W{i}", mix.reshape(c, channels, 1, 1)), _const(f"B{i}", np.zeros(c, np.float32)),
                  _const(f"size{i}", np.array([n, c, h, w], np.int64))]
        last = name if layout == "NCHW" else f"{name}__nchw"
        nodes += [helper.make_node("Conv", [x, f"W{i}", f"B{i}"], [f"mixed{i}"]),
                  helper.make_node(act, [f"mixed{i}"], [f"act{i}"]),
                  helper.make_node("Resize", [f"act{i}", "", "", f"size{i}"], [last], mode="linear", name=name)]
        if layout != "NCHW":
            nodes.append(helper.make_node("Transpose", [last], [name], perm=[0, 2, 3, 1]))
    return _model("maps", nodes, [(input_name, shape)], outputs, inits)


def image_to_image(input_name: str, shape: List[int], output_name: str, out_shape: List[int], layout: str = "NHWC",
                   act: str = "Tanh") -> onnx.ModelProto:
    """One output map (see ``maps``): a picture in, a picture (or map) out."""
    return maps(input_name, shape, [(output_name, out_shape)], layout, act)


def imagenet_torch(input_name: str) -> onnx.ModelProto:
    """torchvision ResNet-50's contract (RGB, (x/255 - mean) / std per channel, NCHW [1,3,224,224] -> 1000 logits)
    on EfficientNet-Lite0: an adapter undoes the torchvision normalisation and applies EfficientNet's (x-127)/128."""
    from acl_teach.toolchain import assets
    net = onnx.load(assets.default_onnx())
    old = net.graph.input[0].name
    inner = input_name + "__efficientnet"
    for node in net.graph.node:
        node.input[:] = [inner if i == old else i for i in node.input]
    mean = np.array([123.675, 116.28, 103.53], np.float32).reshape(1, 3, 1, 1)
    std = np.array([58.395, 57.12, 57.375], np.float32).reshape(1, 3, 1, 1)
    adapter = [helper.make_node("Mul", [input_name, "torch_std"], ["scaled"]),
               helper.make_node("Add", ["scaled", "torch_mean"], ["rgb"]),
               helper.make_node("Sub", ["rgb", "effnet_mean"], ["centred"]),
               helper.make_node("Div", ["centred", "effnet_std"], [inner])]
    nodes = adapter + list(net.graph.node)
    del net.graph.node[:]
    net.graph.node.extend(nodes)
    net.graph.initializer.extend([_const("torch_std", std), _const("torch_mean", mean),
                                  _const("effnet_mean", np.float32(127.0)), _const("effnet_std", np.float32(128.0))])
    del net.graph.input[:]
    net.graph.input.append(helper.make_tensor_value_info(input_name, FLOAT, [1, 3, 224, 224]))
    onnx.checker.check_model(net)
    return net


def openpose_argmax() -> onnx.ModelProto:
    """Light OpenPose cut at its stage-1 ArgMax (TF, NHWC input001 [1,368,368,3] in [0, 1]): per joint (14) the index
    of the peak in the flattened 92x92 heatmap, [1,14] (int in TF, FP32 by the README's --output_type)."""
    nodes = [helper.make_node("Transpose", ["input001"], ["nchw"], perm=[0, 3, 1, 2]),
             helper.make_node("AveragePool", ["nchw"], ["pool"], kernel_shape=[4, 4], strides=[4, 4]),
             helper.make_node("Conv", ["pool", "W", "B"], ["heat"]),
             helper.make_node("Reshape", ["heat", "flat"], ["heat_flat"]),
             helper.make_node("ArgMax", ["heat_flat"], ["peak"], axis=2, keepdims=0),
             helper.make_node("Cast", ["peak"], ["light_openpose/stage_1/ArgMax"], to=FLOAT,
                              name="light_openpose/stage_1/ArgMax")]
    inits = [_const("W", _weights(0, [14, 3, 1, 1], 1.0)), _const("B", np.zeros(14, np.float32)),
             _const("flat", np.array([1, 14, 92 * 92], np.int64))]
    return _model("openpose", nodes, [("input001", [1, 368, 368, 3])], [("light_openpose/stage_1/ArgMax", [1, 14])],
                  inits)


def multi_classifier(input_name: str, shape: List[int], outputs: List[Tuple[str, int]], layout: str = "NHWC",
                     seed: int = 0) -> onnx.ModelProto:
    """Global-average-pool + one fixed linear layer per output: several [1, n] logit vectors from one picture
    (WHENet's yaw / pitch / roll bins)."""
    nodes: list = []
    x = _to_nchw(input_name, layout, nodes)
    channels = shape[1] if layout == "NCHW" else shape[3]
    nodes += [helper.make_node("GlobalAveragePool", [x], ["gap"]), helper.make_node("Flatten", ["gap"], ["feat"])]
    inits = []
    for i, (name, n) in enumerate(outputs):
        nodes.append(helper.make_node("Gemm", ["feat", f"W{i}", f"B{i}"], [name], name=name))
        inits += [_const(f"W{i}", _weights(seed + 2 * i, [channels, n], 0.01)), _const(f"B{i}", _weights(seed + 2 * i + 1, [n]))]
    return _model("multi_classifier", nodes, [(input_name, shape)], [(name, [1, n]) for name, n in outputs], inits)


def clip_classifier(input_name: str, shape: List[int], output_name: str, classes: int, seed: int = 0) -> onnx.ModelProto:
    """A video-clip classifier (C3D-like, NDHWC [1, D, H, W, C]): the clip's mean colour through a fixed linear layer."""
    nodes = [helper.make_node("ReduceMean", [input_name], ["mean"], axes=[1, 2, 3], keepdims=0),
             helper.make_node("Gemm", ["mean", "W", "B"], [output_name], name=output_name)]
    inits = [_const("W", _weights(seed, [shape[4], classes], 1.0)), _const("B", _weights(seed + 1, [classes]))]
    return _model("clip_classifier", nodes, [(input_name, shape)], [(output_name, [1, classes])], inits)


def ssd_boxes(input_name: str, shape: List[int], boxes: int, classes: int, seed: int = 0) -> onnx.ModelProto:
    """An SSD without its NMS (MindSpore SSD-MobileNetV2): [1, boxes, 4] box corners in [0, 1] and [1, boxes, classes]
    scores. The substitute's boxes are fixed, its scores low (below the samples' 0.6 threshold) and a function of
    the picture's mean, so nothing is drawn."""
    rng = np.random.default_rng(seed)
    corners = np.sort(rng.random((1, boxes, 2, 2)), axis=2).reshape(1, boxes, 4).astype(np.float32)
    nodes = [helper.make_node("ReduceMean", [input_name], ["level"], keepdims=0),
             helper.make_node("Mul", ["level", "zero"], ["none"]),
             helper.make_node("Add", ["corners", "none"], ["boxes"], name="boxes"),
             helper.make_node("Mul", ["level", "small"], ["shift"]),
             helper.make_node("Add", ["score_bias", "shift"], ["score_logits"]),
             helper.make_node("Sigmoid", ["score_logits"], ["scores"], name="scores")]
    inits = [_const("zero", np.float32(0.0)), _const("small", np.float32(0.01)), _const("corners", corners),
             _const("score_bias", (rng.standard_normal((1, boxes, classes)) - 4.0).astype(np.float32))]
    return _model("ssd_boxes", nodes, [(input_name, shape)], [("boxes", [1, boxes, 4]), ("scores", [1, boxes, classes])],
                  inits)


def yolov3_output_op(classes: int = 80, top: int = 1024) -> onnx.ModelProto:
    """The Caffe single-operator YOLOv3 post-processing model: three Yolo layers (ONNX YoloPreDetection V3) and
    ATC's YoloV3DetectionOutput, our ATC lowering them (acl_teach/toolchain/ascend_ops.py).

    Inputs: the three heads NCHW [1,255,13|26|52,…] (the sample transposes the TF model's NHWC heads) and
    img_info [1,4]; outputs box_out fp32 [1,6*top], box_out_num int32 [1,8]. The prototxt is downloaded and
    unpublished: its blob names, ``post_nms_topn`` (1024, as the Caffe YOLOv3 sample's 6144-float box_out) and the
    thresholds are ours; the anchors are YOLOv3's COCO anchors, the largest for the 13x13 grid."""
    grids = (13, 26, 52)
    anchors = {"biases_low": [116., 90., 156., 198., 373., 326.], "biases_mid": [30., 61., 62., 45., 59., 119.],
               "biases_high": [10., 13., 16., 30., 33., 23.]}
    nodes = [helper.make_node("YoloPreDetection", [f"head{i}"], [f"yolo{i}_coords", f"yolo{i}_obj", f"yolo{i}_classes"],
                              boxes=3, coords=4, classes=classes, yolo_version="V3", name=f"yolo{i}")
             for i in range(3)]
    nodes.append(helper.make_node(
        "YoloV3DetectionOutput", [f"yolo{i}_{k}" for k in ("coords", "obj", "classes") for i in range(3)] + ["img_info"],
        ["box_out", "box_out_num"], boxes=3, coords=4, classes=classes, relative=1, obj_threshold=0.5,
        score_threshold=0.5, iou_threshold=0.45, pre_nms_topn=512, post_nms_topn=top, name="detection_out3",
        **anchors))
    per = 3 * (5 + classes)
    graph = helper.make_graph(nodes, "yolov3_output_op",
                              [helper.make_tensor_value_info(f"head{i}", FLOAT, [1, per, g, g])
                               for i, g in enumerate(grids)] + [helper.make_tensor_value_info("img_info", FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("box_out", FLOAT, [1, 6 * top]),
                               helper.make_tensor_value_info("box_out_num", TensorProto.INT32, [1, 8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="acl-teach samples")
    model.ir_version = min(model.ir_version, 8)
    return model  # not checked by onnx.checker: the Ascend operators are unknown to it (our ATC checks the lowered graph)


def edvr_substitute() -> onnx.ModelProto:
    """EDVR video super-resolution (TF, --input_format=ND): L_input fp32 [1,5,180,320,3] (five RGB frames in
    [0, 1]) -> one fp32 [1,720,1280,3] frame in [0, 255] (the code casts it to uint8). The substitute upscales the
    middle frame bilinearly x4; the output's name is not published (the code reads none)."""
    nodes = [helper.make_node("Gather", ["L_input", "middle"], ["frame"], axis=1),
             helper.make_node("Transpose", ["frame"], ["nchw"], perm=[0, 3, 1, 2]),
             helper.make_node("Resize", ["nchw", "", "scales"], ["big"], mode="linear"),
             helper.make_node("Mul", ["big", "k255"], ["scaled"]),
             helper.make_node("Clip", ["scaled", "lo", "hi"], ["clipped"]),
             helper.make_node("Transpose", ["clipped"], ["SR_output"], perm=[0, 2, 3, 1], name="SR_output")]
    inits = [_const("middle", np.array(2, np.int64)), _const("scales", np.array([1, 1, 4, 4], np.float32)),
             _const("k255", np.float32(255.0)), _const("lo", np.float32(0.0)), _const("hi", np.float32(255.0))]
    return _model("edvr", nodes, [("L_input", [1, 5, 180, 320, 3])], [("SR_output", [1, 720, 1280, 3])], inits)


def _constant_outputs(input_name: str, outputs: List[Tuple[str, np.ndarray, List[int]]]):
    """(nodes, initializers) giving each output its value broadcast to its shape plus 0 x the input's mean (the
    graph consumes its input)."""
    nodes = [helper.make_node("Cast", [input_name], ["as_float"], to=FLOAT),
             helper.make_node("ReduceMean", ["as_float"], ["level"], keepdims=0),
             helper.make_node("Mul", ["level", "zero"], ["none"])]
    inits = [_const("zero", np.float32(0.0))]
    for name, value, shape in outputs:
        nodes += [helper.make_node("Expand", [f"{name}__value", f"{name}__shape"], [f"{name}__full"]),
                  helper.make_node("Add", [f"{name}__full", "none"], [name], name=name)]
        inits += [_const(f"{name}__value", np.asarray(value, np.float32)), _const(f"{name}__shape", np.int64(shape))]
    return nodes, inits


HAND_BOXES = np.array([[0.25, 0.20, 0.75, 0.60], [0.10, 0.70, 0.30, 0.90]], np.float32)  # ymin, xmin, ymax, xmax
HAND_SCORES = (0.9, 0.3)  # the sample draws boxes scoring at least 0.6: the first only


def hand_ssd(detections: int = 10) -> onnx.ModelProto:
    """TF SSD-MobileNet hand detector with its post-processing (README: image_tensor uint8 NHWC [1,300,300,3];
    num_detections [1], detection_classes / detection_scores [1,10], detection_boxes [1,10,4], FP32 by
    --output_type). The substitute is a constant: 2 detections, HAND_BOXES scoring HAND_SCORES, the rest zero."""
    scores = np.zeros((1, detections), np.float32)
    scores[0, :len(HAND_SCORES)] = HAND_SCORES
    boxes = np.zeros((1, detections, 4), np.float32)
    boxes[0, :len(HAND_BOXES)] = HAND_BOXES
    outputs = [("num_detections", [len(HAND_BOXES)], [1]), ("detection_classes", [1.0], [1, detections]),
               ("detection_scores", scores, [1, detections]), ("detection_boxes", boxes, [1, detections, 4])]
    nodes, inits = _constant_outputs("image_tensor", outputs)
    graph = helper.make_graph(nodes, "hand_ssd",
                              [helper.make_tensor_value_info("image_tensor", TensorProto.UINT8, [1, 300, 300, 3])],
                              [helper.make_tensor_value_info(n, FLOAT, s) for n, _, s in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="acl-teach samples")
    model.ir_version = min(model.ir_version, 8)
    onnx.checker.check_model(model, full_check=True)
    return model


MOT_GRID = (152, 272)  # FairMOT's output grid: the 608x1088 input / down_ratio 4
MOT_PEAK = (76, 136)  # (row, column) of the one heatmap cell above the sample's 0.35 threshold
MOT_REG = (0.5, 0.5)  # the centre's sub-cell offset (x, y)
MOT_WH = (20.0, 40.0, 20.0, 40.0)  # left, top, right, bottom distances from the centre, in grid cells


def fairmot(features: int = 128) -> onnx.ModelProto:
    """FairMOT (DLA-34 v0, ONNX input.1 [1,3,608,1088] RGB / 255). Outputs in the order the code unpacks them
    (id_feature, reg, wh, hm), shaped as its decoder indexes them with a 2-D heatmap mask: [152,272,128],
    [152,272,2], [152,272,4], [152,272] (names are not published: ours). The substitute is a constant: one heatmap
    peak of 0.9 at MOT_PEAK with offset MOT_REG and box MOT_WH, the same unit id feature everywhere."""
    h, w = MOT_GRID
    hm = np.zeros((h, w), np.float32)
    hm[MOT_PEAK] = 0.9
    outputs = [("id_feature", [1 / np.sqrt(features)], [h, w, features]), ("reg", MOT_REG, [h, w, 2]),
               ("wh", MOT_WH, [h, w, 4]), ("hm", hm, [h, w])]
    nodes, inits = _constant_outputs("input.1", outputs)
    return _model("fairmot", nodes, [("input.1", [1, 3, 608, 1088])], [(n, s) for n, _, s in outputs], inits)
