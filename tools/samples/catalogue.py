"""The official Ascend samples we run unmodified: where each lives, how it is run, what it needs, how it is judged.

Commands are written as the samples' READMEs / testcase scripts give them; the runner swaps
`python3` for `python -m acl_teach.sim` and `atc` for our ATC emulator. Model I/O contracts come
from each README's atc command and from how the code fills inputs and parses outputs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Tuple

import checks
import data
import models

L2 = "python/level2_simple_inference"
CRASHES = (r"Traceback \(most recent call last\)", "Exception ignored in")


@dataclass(frozen=True)
class Model:
    """A model file the sample loads (``om``, relative to the sample): a substitute graph, the README's atc command."""
    om: str
    build: Callable
    atc: str
    cwd: str = "model"


@dataclass(frozen=True)
class OpModels:
    """Single-operator models made by the README's `atc --singleop=…` command, run in ``cwd``."""
    atc: str
    cwd: str


@dataclass(frozen=True)
class File:
    """An input file the sample reads (``path`` relative to the sample), written by ``make(abs_path)``."""
    path: str
    make: Callable[[str], None]


@dataclass(frozen=True)
class Sample:
    """One program run: the sample's directory, its README command and cwd, what to prepare, how to judge it."""
    name: str
    path: str
    run: str
    cwd: str = "."
    models: Tuple[Model, ...] = ()
    op_models: Tuple[OpModels, ...] = ()
    files: Tuple[File, ...] = ()
    acllite: bool = False
    acllite_dir: str = "python/common/acllite"  # the newer samples' README installs inference/acllite/acllitePY
    setup: Tuple[Tuple[str, str], ...] = ()  # (README command, folder) run before the atc commands, e.g. a script
    needs: Tuple[str, ...] = ()
    programs: Tuple[str, ...] = ()  # command-line tools the sample runs (ffmpeg-python calls ffmpeg/ffprobe)
    sim_options: Tuple[str, ...] = ()
    expect: Tuple[str, ...] = ()
    reject: Tuple[str, ...] = CRASHES
    check: Optional[Callable] = None
    notes: str = ""
    timeout: float = 0.0  # seconds, when less than the runner's --timeout (a sample that loops on errors)
    commit: str = ""  # the checkout's commit the sample's folder is taken from, when HEAD's copy is broken upstream
    numpy: str = ""  # a NumPy release line (e.g. "1.23") when the sample needs an older one: run in .venv/samples-np123


RESNET50_ATC = ("atc --model=caffe_model/resnet50.prototxt --weight=caffe_model/resnet50.caffemodel --framework=0 "
                "--output=model/resnet50 --soc_version=Ascend310 --input_format=NCHW --input_fp16_nodes=data "
                "--output_type=FP32 --out_nodes=prob:0")
RESNET50_MODEL = Model("model/resnet50.om", models.imagenet_caffe_bgr, RESNET50_ATC, cwd=".")
DOGS = (File("data/dog1_1024_683.jpg", data.photo("chelsea.png", (1024, 683))),
        File("data/dog2_1024_683.jpg", data.photo("coffee.png", (1024, 683))))
DOGS_TOP1 = {"dog1_1024_683.jpg": checks.CATS, "dog2_1024_683.jpg": checks.ESPRESSO}
ASYNC = f"{L2}/1_classification/resnet50_async_imagenet_classification"
MEMORY = "python/level1_single_api/1_acl/2_memory_management"
CIFAR_NOTE = ("MindSpore AIR model: input/output names are not in the README and the sample reads none; "
              "contract from the code: fp32 [1,3,224,224] in, 10 CIFAR-10 logits out.")
MATMUL_JSON = [{"op": "BatchMatMul",
                "input_desc": [{"format": "NCHW", "shape": [1, 1, 1024, 1024], "type": "float"},
                               {"format": "NCHW", "shape": [1, 1, 1024, 27648], "type": "float"}],
                "output_desc": [{"format": "NCHW", "shape": [1, 1, 1024, 27648], "type": "float"}],
                "attr": [{"name": "adj_x1", "type": "bool", "value": False},
                         {"name": "adj_x2", "type": "bool", "value": False}]}]

VPC = f"{L2}/1_classification/vpc_resnet50_imagenet_classification"
VPC_JPEG = f"{L2}/1_classification/vpc_jpeg_resnet50_imagenet_classification"
AIPP_ATC = ("atc --model=caffe_model/resnet50.prototxt --weight=caffe_model/resnet50.caffemodel --framework=0 "
            "--output=model/resnet50_aipp --soc_version=Ascend310 --insert_op_conf=caffe_model/aipp.cfg")
AIPP_MODEL = Model("model/resnet50_aipp.om", models.imagenet_caffe_bgr, AIPP_ATC, cwd=".")
AIPP_NOTE = ("Static AIPP from the sample's caffe_model/aipp.cfg (YUV420SP_U8 224x224, GE's default YUV->BGR matrix, "
             "min_chn 123/117/104) compiled into the substitute by our ATC; the model takes the 75264-byte NV12 "
             "picture the VPC writes. ")
def _aipp_cfg(fmt: str, w: int = 0, h: int = 0, *, csc=None, crop=None, means=(), recis=()) -> str:
    """Ours (the READMEs download their AIPP cfgs, unpublished): one static aipp_op; ``csc`` None (off),
    "default" (GE's default YUV->BGR matrix) or "jpeg" (JPEG's full-range YUV->RGB); per-channel means and recis."""
    lines = ["aipp_mode : static", "related_input_rank : 0", f"input_format : {fmt}"]
    lines += [f"src_image_size_w : {w}", f"src_image_size_h : {h}"] if w else []
    lines += ["csc_switch : true", "rbuv_swap_switch : false"] if csc else []
    if crop:
        x, y, cw, ch = crop
        lines += ["crop : true", f"load_start_pos_w : {x}", f"load_start_pos_h : {y}", f"crop_size_w : {cw}",
                  f"crop_size_h : {ch}"]
    if csc == "jpeg":
        matrix = (256, 0, 359, 256, -88, -183, 256, 454, 0)
        lines += [f"matrix_r{i // 3}c{i % 3} : {v}" for i, v in enumerate(matrix)]
        lines += ["input_bias_0 : 0", "input_bias_1 : 128", "input_bias_2 : 128"]
    lines += [f"min_chn_{c} : {v}" for c, v in enumerate(means)]
    lines += [f"var_reci_chn_{c} : {v}" for c, v in enumerate(recis)]
    return "aipp_op {\n" + "".join(f"    {line}\n" for line in lines) + "}\n"


def _nv12_cfg(w: int, h: int, crop=None, mean: float = 127, reci: float = 0.0078125) -> str:
    """YUV420SP_U8 w x h through JPEG's matrix, an optional crop (x, y, cw, ch), (x - mean) * reci per channel."""
    return _aipp_cfg("YUV420SP_U8", w, h, csc="jpeg", crop=crop, means=(mean,) * 3, recis=(reci,) * 3)


GOOGLENET_CFG = _nv12_cfg(224, 224)  # the real insert_op.cfg is downloaded and unpublished (reference §7.5)
GOOGLENET_DYN_CFG = _aipp_cfg("YUV420SP_U8", 224, 224, csc="default", means=(104, 117, 123))  # Caffe BGR means
YOLOV7_CFG = _aipp_cfg("YUV420SP_U8", 640, 640, csc="jpeg", recis=(0.0039216,) * 3)  # YUV -> RGB, / 255 (YOLOv7)
RESNET_HW_CFG = _aipp_cfg("RGB888_U8", means=(127,) * 3, recis=(0.0078125,) * 3)  # source = each gear's H x W
RESNET_AIPP_CFG = _aipp_cfg("RGB888_U8", 224, 224, means=(127,) * 3, recis=(0.0078125,) * 3)


VDEC = f"{L2}/1_classification/vdec_resnet50_classification"
VIDEO_NOTE = ("The README downloads a camera clip we cannot ship: ours is coffee.png panned, encoded by PyAV's "
              "x264/x265 (tools/samples/data.py video). ")
DYN_BATCH = f"{L2}/1_classification/googlenet_imagenet_dynamic_batch"
SHORT_TEXT = "中国女排在世界杯决赛中以三比零战胜对手，第十次夺得冠军。"  # < 298 characters: 298 values are sent
DYN_HW = f"{L2}/1_classification/resnet50_imagenet_dynamic_hw"


DEEPLAB_PP = f"{L2}/3_segmentation/deeplabv3_postprocess_optimization"
DEEPLAB_PP_NOTE = ("MindSpore DeepLabv3 (quantised AIR; names not in the README, the code reads output 0 as [1,21,H,W] "
                   "and thresholds each class map at 0.5): substitute x [1,3,513,513] -> output [1,21,513,513] in "
                   "[0, 1], class 15 (person) where bright; no class 2, whose colour 287 makes the sample's "
                   "cv2.merge fail under NumPy 1.x. acllite JPEGD -> VPC resize to 513x513 NV12, strides 528x514 "
                   "(407088 bytes): the odd size is documented as not allowed; the simulator goes on with a warning "
                   "(expected here). aipp.cfg is downloaded and unpublished: ours takes that 528x514 buffer and "
                   "crops its 513x513 picture.")


RESNET_ONNX_ATC = ("atc --model=resnet50.onnx --framework=5 --output=resnet50 "
                   "--input_shape=\"actual_input_1:1,3,224,224\"  --soc_version=Ascend310")
BODY_POSE_MODEL = Model("model/OpenPose_light.om", models.openpose_argmax,
                        "atc --framework=3 --model=model/OpenPose_light.pb --input_shape=\"input001:1,368,368,3\" "
                        "--input_format=NHWC --output=model/OpenPose_light --output_type=FP32 "
                        "--out_nodes=\"light_openpose/stage_1/ArgMax:0\" --soc_version=Ascend310", cwd=".")
BODY_POSE_NOTE = ("TF light OpenPose cut at light_openpose/stage_1/ArgMax (README's --out_nodes): input001 NHWC "
                  "[1,368,368,3] BGR / 255 in; [1,14] out, per joint the peak's index in the flattened 92x92 heatmap "
                  "(FP32 by --output_type). The substitute's peaks come from a fixed 1x1 mix of the picture.")
CLS = f"{L2}/1_classification"
DET = f"{L2}/2_object_detection"
YOLOV3_NOTE = ("Caffe YOLOv3 whose prototxt ends in ATC's YoloV3DetectionOutput: data [1,3,416,416] (static AIPP from "
               "aipp_nv12.cfg, downloaded, unpublished: ours is YUV420SP_U8 416x416) + img_info fp32 [1,4] in; box_out "
               "fp32 [1,6144] + box_out_num int32 [1,8] out. The substitute finds no box (box_out_num 0). ")


HAND = "python/contrib/hand_detection_Gitee"
HAND_BOX = (128, 120, 384, 360)  # models.HAND_BOXES[0] on the 640x480 hand.jpg, as the code scales it (x1, y1, x2, y2)
HAND_LOW = (448, 48, 576, 144)  # models.HAND_BOXES[1]: scores 0.3, under the code's 0.6 threshold
MOT = "python/contrib/object_tracking_video"
MOT_COMMIT = "5e060ddf8c502cf0e248ecbe1c8986e95351cbbd"  # the last before b11558c1 (2022-03-09) broke two imports
MOT_FRAMES = 10
MOT_BOX = (821, 259, 1105, 827)  # models.fairmot's box (grid column 136.5 -/+ 20, row 76.5 -/+ 40) on the code's 1920x1080
# frame: the letterbox (1081x608 in 1088x608) undone, 1932.6 / 272 = 7.105 pixels a cell around (960, 540)
MOT_PICTURE_BOX = (466, 146, 626, 466)  # the same box on a 1088x608 picture: 4 pixels a cell
MOT_ATC = ("atc --input_shape=\"input.1:1,3,608,1088\" --check_report=./network_analysis.report --input_format=NCHW "
           "--output=model/mot_v2 --soc_version=Ascend310 --framework=5 --model=model/mot_v2.onnx")
MOT_TRACK_1 = (111, 51, 87)  # visualization.get_color(1), BGR: the first track's id is 1
NP123_NOTE = ("Calls np.int / np.float (removed in NumPy 1.24): runs in .venv/samples-np123 (numpy 1.23.5, the rest "
              "of tools/samples/requirements.txt as for the other samples, plus requirements-np123.txt's scipy, lap "
              "and cython_bbox, which only the tracker imports; the runner makes it). ")


def _top1(expected, image_re: str):
    """Each top-5 block's first 'label:N' is in its image's expected classes."""
    def check(output: str, sample_dir: str):
        results = checks.top1s(output, r"^label:\s*(\d+)", image_re)
        wrong = [(img, c) for img, c in results if c not in expected.get(img or "", ())]
        seen = ", ".join(f"{img}: {c}" for img, c in results)
        ok = bool(results) and not wrong and {img for img, _ in results} >= set(expected)
        return ok, f"top-1 {seen or 'none printed'}" + (f"; wrong: {wrong}" if wrong else "")
    return check


SAMPLES: Tuple[Sample, ...] = (
    Sample("resnet50_imagenet_classification", f"{L2}/1_classification/resnet50_imagenet_classification",
           "python3 ./src/acl_net.py", models=(RESNET50_MODEL,), files=DOGS,
           expect=(r"\*+run finish\*+", "Resources released successfully"),
           check=checks.imagenet_top1(DOGS_TOP1),
           notes="Substitute: EfficientNet-Lite0 behind an adapter taking the Caffe ResNet-50 input "
                 "(BGR minus 104/117/123, fp16 via --input_fp16_nodes) and giving prob [1,1000] fp32."),
    Sample("resnet50_async_imagenet_classification", ASYNC, "python3 ./src/acl_net.py",
           models=(RESNET50_MODEL,), files=DOGS, expect=("run finish!!!", "release source stage success"),
           check=checks.imagenet_top1(DOGS_TOP1, image_re=None, count=4),
           notes="execute_async x4 with a callback after each (default --callback_interval 1)."),
    Sample("resnet50_async_imagenet_classification+interval0", ASYNC,
           "python3 ./src/acl_net.py --callback_interval 0", models=(RESNET50_MODEL,), files=DOGS,
           expect=("execute stage success", "run finish!!!", "release source stage success"),
           reject=CRASHES + ("top5 inference results",),
           notes="No callbacks: the worker thread returns at once, before acl.rt.subscribe_report names it (its "
                 "id stays valid until stop_thread joins it); the executed datasets are never freed (a sample leak: "
                 "finalize must still succeed)."),
    Sample("memcpy_host_device_python", f"{MEMORY}/memcpy_host_device_python",
           "python3 src/memcpy_host_device.py --release_cycle 10 --number_of_cycles 10 --device_id 0 "
           "--memory_size 10485760 --write_back_host --memory_reuse",
           expect=(r"At memcpy device data is \[7 7 7", r"Write back host data is \[7 7 7",
                   "At number_of_cycles = 10, release_cycle = 10, HBM free memory"),
           reject=CRASHES + ("failed ret",), timeout=180,
           notes="README arguments; sleeps 1 s per cycle (~110 s) and retries a failed call forever (5 s apart). "
                 "With --memory_reuse --write_back_host it frees its write-back buffer and then memsets / copies "
                 "through that freed pointer in every later cycle (a sample bug the README command exercises)."),
    Sample("memcpy_host_device_async_python", f"{MEMORY}/memcpy_host_device_async_python",
           "python3 src/memcpy_host_device_async_python.py --release_cycle 10 --number_of_cycles 10 "
           "--device_id 0 --memory_size 10485760",
           expect=(r"At memcpy device data is \[7 7 7", "run success!"), reject=CRASHES + ("failed ret",),
           notes="The README's command names src/memcpy_host_device.py and passes --write_back_host, which "
                 "this script rejects (a README bug); we run the script with the README's other arguments. "
                 "Needs acl.rt.memset_async and acl.media.dvpp_malloc/dvpp_free (DVPP memory only, no DVPP "
                 "processing). Copies from malloc_host memory with kind DEVICE_TO_HOST (kind is reserved on "
                 "hardware: the runtime infers the direction)."),
    Sample("acl_operator_add", "python/level1_single_api/1_acl/4_blas/acl_operator_add",
           "python3 ../src/acl_execute_add.py", cwd="test_data",
           op_models=(OpModels("atc --singleop=config/add_op.json --soc_version=Ascend310 --output=op_models",
                               "test_data"),),
           expect=("release source success",), check=checks.add_result,
           notes="Single operator Add (int32 [8,16]) through acl.op.execute_v2; op model from atc --singleop."),
    Sample("acl_execute_slice", "python/level1_single_api/4_op_dev/2_verify_op/acl_execute_slice",
           "python3 slice_test.py", cwd="src", sim_options=("--run-mode", "device"),
           op_models=(OpModels("atc --singleop=./slice.json --soc_version=Ascend310 --output=../op_models_fp16",
                               "src"),),
           expect=(r"count: \[1800000\]",),
           notes="acl.op.create_handle + execute_with_handle on Slice (fp16 [600,3000]). The script hands "
                 "bytes_to_ptr host buffers to the operator and reads device output with ptr_to_bytes, which "
                 "only works where host and device share memory: run in ACL_DEVICE mode (an Atlas 200 DK)."),
    Sample("googlenet_mindspore_picture", f"{L2}/1_classification/googlenet_mindspore_picture",
           "python3 classify.py ../data/", cwd="src", acllite=True,
           models=(Model("model/googlenet.om", lambda: models.classifier("x", [1, 3, 224, 224], "output", 10),
                         "atc --model=./googlenet.air --framework=1 --output=./googlenet --soc_version=Ascend310"),),
           files=(File("data/airplane.jpg", data.photo("rocket.jpg")),),
           check=checks.all_of(checks.labels_printed(1), checks.files_written("out/airplane.jpg")),
           notes=CIFAR_NOTE),
    Sample("lenet_mindspore_picture", f"{L2}/1_classification/lenet_mindspore_picture",
           "python3 classify.py ./data/", cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/mnist.om", lambda: models.classifier("x", [1, 1, 32, 32], "output", 10),
                         "atc --framework=1 --model=mnist.air --output=mnist --soc_version=Ascend310"),),
           files=(File("data/test1.png", data.digit("1")),),
           check=checks.all_of(checks.labels_printed(1), checks.files_written("outputs/test1.txt")),
           notes="MindSpore LeNet: fp32 [1,1,32,32] grey image in (the code sends a (32,32) float32 array, "
                 "4096 bytes), 10 logits out (README: output size 40)."),
    Sample("resnet50_mindspore_picture", f"{L2}/1_classification/resnet50_mindspore_picture",
           "python3 classify.py ../data", cwd="src", acllite=True,
           models=(Model("model/resnet50.om", lambda: models.classifier("x", [1, 3, 224, 224], "output", 10, seed=3),
                         "atc --model=./resnet-90_1875.air --framework=1 --output=./resnet50 --soc_version=Ascend310"),),
           files=(File("data/airplane.jpg", data.photo("rocket.jpg")), File("data/car.jpg", data.photo("coffee.png"))),
           check=checks.all_of(checks.labels_printed(2), checks.files_written("out/airplane.jpg", "out/car.jpg")),
           notes=CIFAR_NOTE),
    Sample("inceptionv2_picture", "python/contrib/inceptionv2_picture", "python3 classify.py ../data/", cwd="src",
           acllite=True, needs=("cv2",),
           models=(Model("model/frozen_graph-inception-resnet-test1.om",
                         lambda: models.classifier("input", [1, 299, 299, 3], "output", 10, layout="NHWC",
                                                   softmax=True),
                         "atc --input_shape=\"input:1,299,299,3\" --input_format=NHWC "
                         "--output=\"frozen_graph-inception-resnet-test1\" --soc_version=Ascend310 --framework=3 "
                         "--model=\"./frozen_graph.pb\""),),
           files=(File("data/1101.jpg", data.photo("chelsea.png")), File("data/1108.jpg", data.photo("coffee.png")),
                  File("data/1309.jpg", data.photo("rocket.jpg"))),
           check=checks.all_of(checks.labels_printed(3), checks.files_written("out/1101.jpg")),
           notes="TF frozen graph, NHWC fp32 input 'input' [1,299,299,3]; the class count is not published "
                 "(the sample prints 6 of them): substitute gives 10 probabilities."),
    Sample("YOLOV4_coco_detection_picture", f"{L2}/2_object_detection/YOLOV4_coco_detection_picture",
           "python3 yolov4.py", cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/yolov4_bs1.om",
                         lambda: models.heads("input", [1, 3, 608, 608], [("feature_map_19", 32, 255),
                                              ("feature_map_38", 16, 255), ("feature_map_76", 8, 255)],
                                              objectness=(4, 89, 174)),
                         "atc --model=./yolov4_bs1.onnx --framework=5 --output=./yolov4_bs1 --soc_version=Ascend310"),),
           files=(File("data/test.jpg", data.photo("chelsea.png")),),
           expect=("result = ", "Execute end"), check=checks.files_written("out/out_test.jpg"),
           notes="The README downloads a ready OM (no atc command; ours is written for the substitute). Contract "
                 "from the code: fp32 [1,3,608,608] in; 3 heads [1,255,19|38|76,...] out, strides 32/16/8. "
                 "Substitute objectness is low, so no boxes are drawn. Needs PYTHONPATH=.../acllite (README)."),
    Sample("YOLOV3_mask_detection_picture", f"{L2}/2_object_detection/YOLOV3_mask_detection_picture",
           "python3 mask_detect.py ../data/", cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/mask_detection.om",
                         lambda: models.heads("images", [1, 352, 640, 3], [("yolo_head_32", 32, 24),
                                              ("yolo_head_16", 16, 24), ("yolo_head_8", 8, 24)],
                                              layout="NHWC", objectness=(4, 12, 20)),
                         "atc --input_shape=\"images:1,352,640,3\" --input_format=NHWC --output=\"./mask_detection\" "
                         "--soc_version=Ascend310 --framework=3 --model=\"./mask_detection.pb\""),),
           files=(File("data/mask.jpg", data.photo("chelsea.png")),),
           expect=("result = ", "Execute end"), check=checks.files_written("out/out_mask.jpg"),
           notes="Uses its own copy of acllite in src/acllite (imported as a package). NHWC heads "
                 "[1,11,20,24], [1,22,40,24], [1,44,80,24] (3 anchors x (5 + 3 classes))."),
    Sample("colorization_picture", f"{L2}/6_other/colorization_picture", "python3 colorize.py ../data/",
           cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/colorization_yuv.om", models.colorization,
                         "atc --input_shape=\"data_l:1,1,224,224\" --weight=\"./colorization.caffemodel\" "
                         "--input_format=NCHW --output=\"./colorization_yuv\" --soc_version=Ascend310 --framework=0 "
                         "--model=\"./colorization.prototxt\""),),
           files=(File("data/dog.png", data.photo("chelsea.png")),),
           expect=("Execute end",), check=checks.files_written("out/out_dog.png"),
           notes="Caffe colorization: data_l [1,1,224,224] fp32 in (a (224,224) array is sent), class8_ab "
                 "[1,2,56,56] fp32 out."),
    Sample("style_transfer_picture", f"{L2}/6_other/style_transfer_picture", "python3 main.py ../data xingkong",
           cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/xingkong1_fp32_nchw_no_aipp.om", models.style_transfer,
                         "atc --model=./xingkong1.pb --framework=3 --output=xingkong1_fp32_nchw_no_aipp "
                         "--soc_version=Ascend310"),),
           files=(File("data/test.jpg", data.photo("coffee.png")),),
           expect=("postprocess end",), check=checks.files_written("out/out_test.jpg"),
           notes="TF, NCHW fp32 [1,3,720,1080] in, [1,3,360,540] out (the code reshapes to (3,360,540)); "
                 "style xingkong only (the other three differ only by file name)."),
    Sample("bert_text_classification", f"{L2}/5_nlp/bert_text_classification", "python3 bert_text_classification.py",
           cwd="src", acllite=True,
           models=(Model("model/bert_text_classification.om", models.bert,
                         "atc --model=bert_text_classification.pb --framework=3 --input_format=\"ND\" "
                         "--output=bert_text_classification --input_shape=\"input_1:1,300;input_2:1,300\" "
                         "--out_nodes=dense_1/Softmax:0 --soc_version=Ascend310 --op_select_implmode=\"high_precision\""),),
           files=(File("data/sample.txt", data.text()),),
           expect=("Prediction label: (体育|健康|军事|教育|汽车)", "Execute end"),
           check=checks.files_written("out/prediction_label.txt"),
           notes="Token ids and segment ids as fp32 [1,300] each; softmax [1,5] out. Our text has > 298 "
                 "characters so both inputs are exactly 300 values (a shorter text makes the sample send 298: "
                 "1192 of 1200 bytes)."),
    Sample("bert_text_classification+short_text", f"{L2}/5_nlp/bert_text_classification",
           "python3 bert_text_classification.py", cwd="src", acllite=True,
           models=(Model("model/bert_text_classification.om", models.bert,
                         "atc --model=bert_text_classification.pb --framework=3 --input_format=\"ND\" "
                         "--output=bert_text_classification --input_shape=\"input_1:1,300;input_2:1,300\" "
                         "--out_nodes=dense_1/Softmax:0 --soc_version=Ascend310 --op_select_implmode=\"high_precision\""),),
           files=(File("data/sample.txt", data.text(SHORT_TEXT)),),
           expect=("Prediction label: (体育|健康|军事|教育|汽车)", "Execute end"),
           reject=CRASHES + (r"\bnan\b",),
           check=checks.files_written("out/prediction_label.txt"),
           notes="A text shorter than 298 characters: the sample sends 298 values (1192 of the 1200 bytes) per "
                 "input; acllite mallocs 1192 bytes, and the model reads the last 8 from aclrtMalloc's padding "
                 "(ALIGN_UP(1192, 32) + 32 = 1248 bytes), zeros on the simulator: real scores, no NaN."),
    Sample("googlenet_imagenet_picture", f"{L2}/1_classification/googlenet_imagenet_picture",
           "python3 classify.py ../data/", cwd="src", acllite=True,
           models=(Model("model/googlenet_yuv.om", models.imagenet_caffe_bgr,
                         "atc --model=./googlenet.prototxt --weight=./googlenet.caffemodel --framework=0 "
                         "--output=googlenet_yuv --soc_version=Ascend310 --insert_op_conf=./insert_op.cfg "
                         "--input_shape=\"data:1,3,224,224\" --input_format=NCHW"),),
           files=(File("model/insert_op.cfg", data.text_file(GOOGLENET_DYN_CFG)),
                  File("data/rabit.jpg", data.photo("chelsea.png")), File("data/test2.jpg", data.photo("coffee.png"))),
           check=_top1({"rabit.jpg": checks.CATS, "test2.jpg": checks.ESPRESSO}, r"images:(\S+)"),
           notes="acllite AclLiteImage -> copy_to_dvpp -> JPEGD -> VPC resize 224x224 -> a model with static AIPP "
                 "(YUV420SP_U8). The README downloads insert_op.cfg and rabit.jpg: ours are the dynamic-batch "
                 "sample's cfg (GE's YUV->BGR matrix, Caffe means) and our cat photo under that name, plus the "
                 "espresso photo."),
    Sample("sampleYOLOV7NMSONNX", "inference/modelInference/sampleYOLOV7NMSONNX", "python3.7 sampleYOLOV7NMSONNX.py",
           cwd="src", acllite=True, acllite_dir="inference/acllite/acllitePY", needs=("cv2",),
           setup=(("python3.7 postProcessOperator.py", "src"),),
           models=(Model("model/yolov7x.om",
                         lambda: models.heads("images", [1, 3, 640, 640], [("Conv_404", 32, 255), ("Conv_374", 16, 255),
                                              ("Conv_344", 8, 255)], objectness=(4, 89, 174)),
                         "atc --model=yolov7x.onnx --framework=5 --output=yolov7x --soc_version=Ascend310 "
                         "--out_nodes=\"Conv_404:0;Conv_374:0;Conv_344:0\" --input_shape=\"images:1,3,640,640\" "
                         "--insert_op_conf=aipp.cfg"),),
           op_models=(OpModels("atc --model=postprocess.onnx --soc_version=Ascend310 --output=postprocess --framework=5 "
                               "--input_shape='img_info:1,4'", "model"),),
           files=(File("model/aipp.cfg", data.text_file(YOLOV7_CFG)), File("data/dog.jpg", data.photo("chelsea.png")),
                  File("out/.keep", data.text(""))),
           expect=("success",), check=checks.files_written("out/dog.jpg"),
           notes="The sample builds its post-processing model itself (src/postProcessOperator.py: Ascend's "
                 "YoloPreDetection x 3 + YoloV5DetectionOutput) and converts it with the README's atc command; our ATC "
                 "lowers those operators to ONNX (acl_teach/toolchain/ascend_ops.py). The YOLOv7 heads are the "
                 "substitute (strides 32/16/8, 255 channels, objectness low: no box passes 0.25, box_num 0); the "
                 "README downloads aipp.cfg (unpublished): ours is YUV420SP_U8 640x640 -> RGB / 255. Uses the newer "
                 "acllite (inference/acllite/acllitePY, whose AclLiteImage.data() passes a dead bytes_to_ptr). The README's "
                 "scripts/sample_run.sh makes ../out before running; we make it too."),
    Sample("imageinpainting_hifill", f"{L2}/6_other/imageinpainting_hifill", "python3 main.py", cwd="src",
           acllite=True, needs=("cv2",),
           models=(Model("model/hifill.om", models.hifill,
                         "atc --output_type=FP32 --input_shape=\"img:1,512,512,3;mask:1,512,512,1\" --input_format=NHWC "
                         "--output=\"./hifill\" --soc_version=Ascend310 --framework=3 --save_original_model=false "
                         "--model=\"./hifill.pb\""),),
           op_models=(OpModels("atc --singleop=./matmul_27648.json --output=./0_BatchMatMul_0_0_1_1_1024_1024_0_0_1_1_"
                               "1024_27648_0_0_1_1_1024_27648 --soc_version=Ascend310", "model"),),
           files=(File("model/matmul_27648.json", data.json_file(MATMUL_JSON)),
                  File("data/test.jpg", data.photo("chelsea.png")),
                  File("mask/test.jpg", data.hole_mask("chelsea.png"))),
           expect=(r"\[SingleOp\] batch_matmul run success", "Execute end"),
           check=checks.files_written("out/outpaint_test.jpg"),
           notes="HiFill (TF, NHWC): img [1,512,512,3] + mask [1,512,512,1] in; inpainted [1,512,512,3], attention "
                 "[1,32,32,1024], mask_processed [1,512,512,1] out. Then a BatchMatMul single operator "
                 "([1,1,1024,1024] x [1,1,1024,27648], attrs adj_x1/adj_x2) via acl.op.execute_v2; its JSON is "
                 "downloaded by the README, so we write it from the op model name the README gives."),
    Sample("vpc_resnet50_imagenet_classification", VPC, "python3 ./src/acl_sample.py", models=(AIPP_MODEL,),
           op_models=(OpModels("atc --singleop=op_models/op_list.json --soc_version=Ascend310 --output=op_models", "."),),
           files=DOGS, expect=(r"\[SingleOP\]\[ArgMaxOp\] label of classification result is",),
           check=_top1(DOGS_TOP1, r"\[Sample\] image:(\S+)"),
           notes=AIPP_NOTE + "Per image: JPEGD (128/16 strides) -> VPC resize to 224x224 -> execute -> Cast + "
                 "ArgMaxV2 single ops. Teardown frees the last resize output with acl.rt.free and then dvpp_free."),
    Sample("vpc_jpeg_resnet50_imagenet_classification", VPC_JPEG, "python3 ./src/main.py", models=(AIPP_MODEL,),
           files=(File("data/persian_cat_1024_1536_283.jpg", data.photo("chelsea.png", (1024, 1536))),),
           expect=("top5 inference results",),
           check=_top1({"persian_cat_1024_1536_283.jpg": checks.CATS}, r"\[Sample\] image:(\S+)"),
           notes=AIPP_NOTE + "Test script's default: --dvpp_type 0 (JPEGD -> VPC resize 16/2 strides -> infer)."),
    Sample("vpc_jpeg_resnet50_imagenet_classification+wood_rabbit", VPC_JPEG,
           "python3 ./src/main.py --images_path=\"./data/wood_rabbit_1024_1061_330.jpg\" --dvpp_type=0 "
           "--image_type='jpg'", models=(AIPP_MODEL,),
           files=(File("data/wood_rabbit_1024_1061_330.jpg", data.photo("coffee.png", (1024, 1061))),),
           expect=("top5 inference results",),
           check=_top1({"wood_rabbit_1024_1061_330.jpg": checks.ESPRESSO}, r"\[Sample\] image:(\S+)"),
           notes=AIPP_NOTE + "README type 0 on a 1024x1061 JPEG: the decode is 1024x1072 (16-aligned) but the "
                 "VPC desc says heightStride 1062, and the H2D copy writes 15360 bytes past the requested "
                 "dvpp_malloc size (inside nothing DVPP reserves): the sample's own bugs, reproduced."),
    Sample("vpc_jpeg_resnet50_imagenet_classification+crop", VPC_JPEG,
           "python3 ./src/main.py --images_path=\"./data/wood_rabbit_1024_1068_nv12.yuv\" --dvpp_type=1 "
           "--image_type='yuv'", models=(AIPP_MODEL,),
           files=(File("data/wood_rabbit_1024_1068_nv12.yuv", data.nv12("coffee.png", (1024, 1068))),),
           expect=("top5 inference results",),
           check=_top1({"wood_rabbit_1024_1068_nv12.yuv": checks.ESPRESSO}, r"\[Sample\] image:(\S+)"),
           notes=AIPP_NOTE + "README type 1: VPC crop (224, 1023, 224, 1067) of an NV12 file to 224x224, then infer."),
    Sample("vpc_jpeg_resnet50_imagenet_classification+crop_paste", VPC_JPEG,
           "python3 ./src/main.py --images_path=\"./data/wood_rabbit_1024_1068_nv12.yuv\" --dvpp_type=2 "
           "--image_type='yuv'", models=(AIPP_MODEL,),
           files=(File("data/wood_rabbit_1024_1068_nv12.yuv", data.nv12("coffee.png", (1024, 1068))),),
           expect=("top5 inference results",),
           notes=AIPP_NOTE + "README type 2: crop-and-paste into a 512x534 picture (410112 bytes), which is then "
                 "executed as the 75264-byte model input (a larger buffer: GE only warns)."),
    Sample("vdec_resnet50_classification", VDEC, "python3 ./src/acl_sample.py", models=(AIPP_MODEL,),
           files=(File("data/vdec_h265_1frame_rabbit_1280x720.h265", data.video("coffee.png", (1280, 720), 1,
                                                                                 "h265")),),
           expect=(r"\[Vdec\] vdec finish", "top5 inference results"),
           check=checks.top1_every(checks.ESPRESSO, 10),
           notes=VIDEO_NOTE + AIPP_NOTE + "The sample sends the whole one-frame H.265 file 10 times (no EOS), its "
                 "callback thread loops on process_report, vdec_destroy_channel waits for the 10 callbacks; each "
                 "1280x720 NV21 picture (strides 16/2) -> VPC resize 224x224 -> execute."),
    Sample("venc_image", f"{L2}/0_data_process/venc_image", "python3 ./src/acl_venc.py",
           files=(File("data/dvpp_venc_128x128_nv12.yuv", data.nv12("chelsea.png", (128, 128))),),
           expect=("venc process success",),
           check=checks.video_frames("data/output.h265", "h265", 16),
           notes="The README downloads a 128x128 NV12 picture: ours is chelsea.png (data.py nv12). 16 frames of one "
                 "picture to H.265 main (key frame interval 16) then the EOS frame; the callback copies each frame "
                 "to the host and appends it to data/output.h265, which FFmpeg must decode to 16 frames."),
    Sample("googlenet_onnx_picture", f"{L2}/1_classification/googlenet_onnx_picture", "python3 classify.py ../data/",
           cwd="src", acllite=True,
           models=(Model("model/googlenet_yuv.om", lambda: models.imagenet_rgb("actual_input_1"),
                         "atc --model=./googlenet.onnx --framework=5 --output=googlenet_yuv --soc_version=Ascend310 "
                         "--insert_op_conf=insert_op.cfg --input_shape=\"actual_input_1:1,3,224,224\" "
                         "--input_format=NCHW"),),
           files=(File("model/insert_op.cfg", data.text_file(GOOGLENET_CFG)),
                  File("data/test1.jpg", data.photo("chelsea.png"))),
           check=_top1({"test1.jpg": checks.CATS}, r"images:(\S+)"),
           notes="acllite AclLiteImageProc: JPEGD -> VPC resize 224x224 -> a model with static AIPP. The README "
                 "downloads insert_op.cfg (content unpublished): ours is YUV420SP_U8 224x224, JPEG->RGB matrix, "
                 "(x - 127) / 128, matching the substitute (EfficientNet-Lite0, input actual_input_1)."),
    Sample("vpc_jpeg_resnet50_imagenet_classification+jpege", VPC_JPEG,
           "python3 ./src/main.py --images_path=\"./data/wood_rabbit_1024_1068_nv12.yuv\" --dvpp_type=3 "
           "--image_type='yuv'", models=(AIPP_MODEL,),
           files=(File("data/wood_rabbit_1024_1068_nv12.yuv", data.nv12("coffee.png", (1024, 1068))),),
           check=checks.files_written("vpc_out/wood_rabbit_1024_1068_nv12.jpg"),
           notes="README type 3: JPEGE of the NV12 file (predict_enc_size, a host size holder from bytes_to_ptr). "
                 "The sample reads the size back from its numpy array, not from the bytes the library wrote, so "
                 "the file gets the predicted (2 MiB-rounded) length, as on a board."),
    Sample("vpc_jpeg_resnet50_imagenet_classification+batch_crop", VPC_JPEG,
           "python3 ./src/main.py --images_path=\"./data/wood_rabbit_1024_1068_nv12.yuv\" --dvpp_type=5 "
           "--image_type='yuv' --in_batch_size=1 --out_batch_size=8", models=(AIPP_MODEL,),
           files=(File("data/wood_rabbit_1024_1068_nv12.yuv", data.nv12("coffee.png", (1024, 1068))),),
           expect=(r"write out to file .* success",),
           notes="README type 5: dvpp_vpc_batch_crop_async, 8 ROIs of one picture, ret_code checked per output."),
    Sample("vpc_jpeg_resnet50_imagenet_classification+batch_crop_paste", VPC_JPEG,
           "python3 ./src/main.py --images_path=\"./data/wood_rabbit_1024_1068_nv12.yuv\" --dvpp_type=6 "
           "--image_type='yuv' --in_batch_size=1 --out_batch_size=8", models=(AIPP_MODEL,),
           files=(File("data/wood_rabbit_1024_1068_nv12.yuv", data.nv12("coffee.png", (1024, 1068))),),
           expect=(r"write out to file .* success",),
           notes="README type 6: dvpp_vpc_batch_crop_and_paste_async, paste ROI (112, 223, 112, 223)."),
    Sample("googlenet_imagenet_dynamic_batch", DYN_BATCH, "python3.6 classify.py ../data/", cwd="src", acllite=True,
           models=(Model("model/googlenet_dynamic_batch.om", models.imagenet_caffe_bgr,
                         "atc --input_shape=\"data:-1,3,224,224\" --weight=\"./googlenet.caffemodel\" "
                         "--input_format=NCHW --output=\"./googlenet_dynamic_batch\" --soc_version=Ascend310 "
                         "--insert_op_conf=./insert_op.cfg --framework=0 --model=\"./googlenet.prototxt\" "
                         "--dynamic_batch_size=\"1,2,4,8\""),),
           files=(File("model/insert_op.cfg", data.text_file(GOOGLENET_DYN_CFG)),
                  File("data/test1.jpg", data.photo("chelsea.png")), File("data/test2.jpg", data.photo("coffee.png"))),
           check=_top1({"test1.jpg": checks.CATS, "test2.jpg": checks.ESPRESSO}, r"images:(\S+)"),
           notes="acllite AclLiteImageProc (JPEGD -> VPC resize 224x224) per image, the two NV12 pictures copied "
                 "D2D into one 8 x 75264-byte buffer, then AclLiteModel._execute_with_dynamic_batch_size(batch 2) "
                 "on a model with static AIPP and --dynamic_batch_size 1,2,4,8. The README downloads insert_op.cfg "
                 "(content unpublished): ours is YUV420SP_U8 224x224, GE's default YUV->BGR matrix, Caffe BGR means "
                 "104/117/123, matching the substitute (EfficientNet-Lite0 behind the Caffe adapter, input 'data')."),
    Sample("resnet50_imagenet_dynamic_hw", DYN_HW, "python3 acl_net.py", cwd="src",
           models=(Model("model/tf_resnet50.om", lambda: models.imagenet_nhwc("Placeholder"),
                         "atc --model=./resnet50_tensorflow_1.7.pb --framework=3 --output=./tf_resnet50 "
                         "--soc_version=Ascend310 --input_shape=\"Placeholder:1,-1,-1,3\" "
                         "--dynamic_image_size=\"112,112;224,224;448,448\" "
                         "--insert_op_conf=./aipp_resnet50.aippconfig"),),
           files=(File("model/aipp_resnet50.aippconfig", data.text_file(RESNET_HW_CFG)),) + DOGS,
           expect=(r"\*+run finish\*+", "Resources released successfully"),
           check=checks.imagenet_top1(DOGS_TOP1),
           notes="TensorFlow NHWC input Placeholder [1,-1,-1,3] with --dynamic_image_size 112/224/448 and static "
                 "AIPP (RGB888_U8, source = the gear's H x W); the sample sends a 224x224 RGB picture, allocates "
                 "the largest gear (602112 bytes) and copies that many bytes from its 150528-byte bytes object, "
                 "then set_dynamic_hw_size(224, 224). The README downloads aipp_resnet50.aippconfig (unpublished): "
                 "ours normalises as the substitute (EfficientNet-Lite0 behind a Transpose) wants."),
    Sample("memcpy_host_DVPP_python", f"{MEMORY}/memcpy_host_DVPP_python",
           "python3 memcpy_host_dvpp.py --release_cycle 10 --number_of_cycles 10 --device_id 0 "
           "--memory_size 10485760 --memory_reuse", cwd="src",
           expect=(r"At memcpy device data is \[7 7 7", "At number_of_cycles = 10, release_cycle = 10, HBM free memory",
                   "run success!"),
           reject=CRASHES + ("failed ret",), timeout=180,
           notes="README arguments, run in src/ (where the script is; the st test does the same). dvpp_malloc'd "
                 "device buffer; it views the data by a DEVICE_TO_HOST copy whose source is its malloc_host "
                 "buffer (the kind is reserved on hardware: the runtime infers the direction). Sleeps 1 s per "
                 "cycle (~110 s) and retries a failed call forever."),
    Sample("vgg16_cat_dog_picture", f"{CLS}/vgg16_cat_dog_picture", "python3.6 main.py", cwd="src", acllite=True,
           models=(Model("model/vgg16_cat_dog.om",
                         lambda: models.classifier("input_1", [1, 224, 224, 3], "dense_2/Softmax", 2, layout="NHWC",
                                                   softmax=True),
                         "atc --output_type=FP32 --input_shape=\"input_1:1,224,224,3\"  --input_format=NHWC "
                         "--output=\"vgg16_cat_dog\" --soc_version=Ascend310 --insert_op_conf=insert_op.cfg "
                         "--framework=3 --model=\"./vgg16_cat_dog.pb\""),),
           files=(File("model/insert_op.cfg", data.text_file(_nv12_cfg(224, 256, crop=(0, 0, 224, 224)))),
                  File("data/cat.jpg", data.photo("chelsea.png"))),
           check=checks.files_written("out/cat.jpg"),
           notes="TF VGG16 (Keras), NHWC input_1 [1,224,224,3] with static AIPP; 2 classes (dog, cat). The code "
                 "resizes to 224 wide x 256 high (MODEL_HEIGHT 256): the README's insert_op.cfg (downloaded, "
                 "unpublished) must take that 86016-byte NV12 picture; ours crops its top 224x224. Output name "
                 "unknown (the code reads output 0); the substitute's 2 classes mean nothing."),
    Sample("inceptionv3_picture", f"{CLS}/inceptionv3_picture", "python3 classify.py ../data/", cwd="src",
           acllite=True,
           models=(Model("model/InceptionV3.om", lambda: models.imagenet_sized("actual_input_1", [1, 3, 300, 300]),
                         "atc --model=./inceptionv3.onnx --framework=5 --output=InceptionV3 --soc_version=Ascend310B1 "
                         "--insert_op_conf=./aipp_inceptionv3_pth.config --input_shape=\"actual_input_1:1,3,300,300\" "
                         "--input_format=NCHW"),),
           files=(File("model/aipp_inceptionv3_pth.config", data.text_file(_nv12_cfg(336, 336, crop=(18, 18, 300, 300)))),
                  File("data/rabit.jpg", data.photo("chelsea.png")), File("data/test2.jpg", data.photo("coffee.png"))),
           check=_top1({"rabit.jpg": checks.CATS, "test2.jpg": checks.ESPRESSO}, r"images:(\S+)"),
           notes="ONNX (PyTorch) InceptionV3, actual_input_1 [1,3,300,300] with static AIPP; the code resizes to "
                 "336x336 NV12. The README downloads aipp_inceptionv3_pth.config (unpublished): ours crops the "
                 "central 300x300 and normalises as the substitute (EfficientNet-Lite0 at 300x300) wants. "
                 "README only in Chinese; its soc is Ascend310B1."),
    Sample("googlenet_imagenet_multi_batch", f"{CLS}/googlenet_imagenet_multi_batch", "python3.6 classify.py ../data/",
           cwd="src", acllite=True,
           models=(Model("model/googlenet_yuv.om", lambda: models.imagenet_caffe_bgr_batch(10),
                         "atc --input_shape=\"data:10,3,224,224\" --weight=\"./googlenet.caffemodel\" "
                         "--input_format=NCHW --output=\"./googlenet_yuv\" --soc_version=Ascend310 "
                         "--insert_op_conf=./insert_op.cfg --framework=0 --model=\"./googlenet.prototxt\""),),
           files=(File("model/insert_op.cfg", data.text_file(GOOGLENET_DYN_CFG)),
                  File("data/test1.jpg", data.photo("chelsea.png")), File("data/test2.jpg", data.photo("coffee.png"))),
           check=_top1({"test1.jpg": checks.CATS, "test2.jpg": checks.ESPRESSO}, r"images:(\S+)"),
           notes="Static batch 10 with static AIPP: per image JPEGD -> VPC resize 224x224, the NV12 pictures copied "
                 "D2D into one 10 x 75264-byte buffer (fewer than 10 images: the rest of the buffer is never "
                 "written), one execute, the first `left` results printed. insert_op.cfg (downloaded, unpublished): "
                 "ours is the dynamic-batch sample's (Caffe BGR means), with the Caffe adapter on EfficientNet-Lite0."),
    Sample("YOLOV3_coco_detection_picture", f"{DET}/YOLOV3_coco_detection_picture", "python3.6 object_detect.py ../data/",
           cwd="src", acllite=True,
           models=(Model("model/yolov3_yuv.om", models.yolov3_caffe,
                         "atc --model=yolov3.prototxt --weight=yolov3.caffemodel --framework=0 --output=yolov3_yuv "
                         "--soc_version=Ascend310 --insert_op_conf=aipp_nv12.cfg"),),
           files=(File("model/aipp_nv12.cfg", data.text_file(_nv12_cfg(416, 416, mean=0, reci=0.0039216))),
                  File("data/dog1_1024_683.jpg", data.photo("chelsea.png", (1024, 683)))),
           expect=("box num ", "======== inference results: ============="),
           check=checks.files_written("out/dog1_1024_683.jpg"),
           notes=YOLOV3_NOTE + "acllite JPEGD -> crop_and_paste to 416x416 (aspect kept)."),
    Sample("YOLOV3_coco_detection_picture_with_postprocess_op", f"{DET}/YOLOV3_coco_detection_picture_with_postprocess_op",
           "python3.6 object_detect.py ../data/", cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/yolov3_tf_aipp.om",
                         lambda: models.heads("input", [1, 416, 416, 3],
                                              [("yolov3/yolov3_head/Conv_6/BiasAdd", 32, 255),
                                               ("yolov3/yolov3_head/Conv_14/BiasAdd", 16, 255),
                                               ("yolov3/yolov3_head/Conv_22/BiasAdd", 8, 255)],
                                              layout="NHWC", objectness=(4, 89, 174)),
                         "atc --model=yolov3_tensorflow_1.5.pb --framework=3 --output=yolov3_tf_aipp --output_type=FP32 "
                         "--soc_version=Ascend310 --input_shape=\"input:1,416,416,3\" "
                         "--out_nodes=\"yolov3/yolov3_head/Conv_6/BiasAdd:0;yolov3/yolov3_head/Conv_14/BiasAdd:0;"
                         "yolov3/yolov3_head/Conv_22/BiasAdd:0\" --log=info --insert_op_conf=aipp_nv12.cfg"),
                   Model("model/yolov3_output_op.om", models.yolov3_output_op,
                         "atc --model=yolov3_modify.prototxt --weight=yolov3.caffemodel --framework=0 "
                         "--output=yolov3_output_op --soc_version=Ascend310")),
           files=(File("model/aipp_nv12.cfg", data.text_file(_nv12_cfg(416, 416, mean=0, reci=0.0039216))),
                  File("data/test.jpg", data.photo("chelsea.png"))),
           expect=("post process", "success!", "======== using op postprocess end: ============="),
           check=checks.files_written("out/out_test.jpg"),
           notes="Two models: the TF YOLOv3 (NHWC input [1,416,416,3] + static AIPP from aipp_nv12.cfg, downloaded, "
                 "unpublished: ours YUV420SP_U8 416x416 / 255) -> three NHWC heads [1,13|26|52,…,255]; the code "
                 "transposes them to NCHW and runs the Caffe single-operator model yolov3_output_op (three Yolo "
                 "layers + ATC's YoloV3DetectionOutput, lowered by our ATC: acl_teach/toolchain/ascend_ops.py) with "
                 "img_info [416,416,416,416]. The substitute heads' objectness is low: box_out_num 0, nothing drawn."),
    Sample("video_super_resolution", f"{L2}/6_other/video_super_resolution", "python3.6 video_super_resolution.py",
           cwd="src", acllite=True, needs=("cv2", "imageio", "ffmpeg"), programs=("ffmpeg", "ffprobe"),
           models=(Model("model/EDVR_180_320.om", models.edvr_substitute,
                         "atc --input_shape=\"L_input:1,5,180,320,3\" --input_format=ND --output=\"EDVR_180_320\" "
                         "--soc_version=Ascend310 --framework=3 --model=\"./EDVR_180_320.pb\" --output_type=FP32"),),
           files=(File("data/low_resolution.mp4", data.mp4("rocket.jpg", (320, 180), 10)),),
           expect=("Save high resolution image complete!",),
           check=checks.files_written("out/high_resolution.mp4"),
           notes="EDVR (TF, --input_format=ND): L_input fp32 [1,5,180,320,3] (five frames in [0, 1]) -> one frame "
                 "[1,720,1280,3] in [0, 255]; the substitute upscales the middle frame x4. The code splits the video "
                 "with OpenCV into 320x180 PNGs and a REDS-style test.json (make_reds_dataset.py), runs one execute "
                 "per frame, writes the frames with imageio and builds out/high_resolution.mp4 with ffmpeg-python, "
                 "which runs the ffmpeg and ffprobe programs (Debian's ffmpeg package): the runner checks they are "
                 "on PATH. Our low_resolution.mp4: rocket.jpg panned, 10 frames of 320x180 (OpenCV's mp4v)."),
    Sample("YOLOV4_coco_detection_car_picture", f"{DET}/YOLOV4_coco_detection_car_picture", "python3.6 yolov4.py",
           cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/yolov4_bs1.om",
                         lambda: models.heads("input", [1, 3, 608, 608], [("Conv_434", 32, 255),
                                              ("Conv_418", 16, 255), ("Conv_402", 8, 255)], objectness=(4, 89, 174)),
                         "atc --model=./yolov4_dynamic_bs.onnx --framework=5 --output=yolov4_bs1 --input_format=NCHW "
                         "--soc_version=Ascend310 --input_shape=\"input:1,3,608,608\" "
                         "--out_nodes=\"Conv_434:0;Conv_418:0;Conv_402:0\""),),
           files=(File("data/test.jpg", data.photo("rocket.jpg", (1280, 720))),),
           expect=("result = ",), check=checks.files_written("out/out_test.jpg"),
           notes="As YOLOV4_coco_detection_picture (fp32 [1,3,608,608] in, 3 heads of 255 channels, strides "
                 "32/16/8; objectness low, no box) plus a lane finder on the 1280x720 camera frame (configure.json's "
                 "ORIGINAL_SIZE): our test.jpg is rocket.jpg at 1280x720."),
    Sample("deeplabv3_pascal_pic", f"{L2}/3_segmentation/deeplabv3_pascal_pic", "python3.6 deeplabv3.py ../data",
           cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/deeplabv3_plus.om", models.deeplabv3_tf,
                         "atc --model=./deeplabv3_plus.pb --framework=3 --output=deeplabv3_plus --soc_version=Ascend310 "
                         " --input_shape=\"ImageTensor:1,513,513,3\" --output_type=\"SemanticPredictions:0:FP32\" "
                         "--out_nodes=\"SemanticPredictions:0\""),),
           files=(File("data/cat.jpg", data.photo("chelsea.png")), File("data/dog.jpg", data.photo("coffee.png"))),
           expect=("Execute end",), check=checks.files_written("out/cat.jpg", "out/dog.jpg"),
           notes="TF DeepLabv3+: ImageTensor uint8 NHWC [1,513,513,3] in (the code sends BGR as int8: same bytes), "
                 "SemanticPredictions [1,513,513] out (int64 in TF, FP32 by --output_type). Substitute: class 15 "
                 "(person) where the pixel is bright."),
    *(Sample("deeplabv3_postprocess_optimization" + ("" if script == "deeplab_dvpp_aipp_quant.py" else "+multi"),
             DEEPLAB_PP, f"python3.6 {script}", cwd="src", acllite=True, needs=("cv2",),
             models=(Model("model/deeplab_quant.om", models.deeplabv3_ms,
                           "atc --output=./deeplab_quant --soc_version=Ascend310 --framework=1 "
                           "--model=./deeplabv3_quant.air --insert_op_conf=./aipp.cfg"),),
             files=(File("model/aipp.cfg", data.text_file(_nv12_cfg(528, 514, crop=(0, 0, 513, 513), mean=0,
                                                                     reci=1.0))),
                    File("data/test.jpg", data.photo("chelsea.png"))),
             expect=(r"warning: acl\.media\.dvpp_vpc_resize_async: output 513x513", *expect),
             check=checks.files_written("out/test.jpg"),
             notes=DEEPLAB_PP_NOTE)
      for script, expect in (("deeplab_dvpp_aipp_quant.py", ()), ("deeplab_multi.py", ("Execute end",)))),
    *(Sample("animeGAN_picture" + ("" if size == 256 else f"+{size}"), f"{L2}/6_other/animeGAN_picture",
             f"python3.6 AnimeGAN.py ../data/ {size}", cwd="src", acllite=True, needs=("cv2",),
             models=(Model(f"model/AnimeGANv2_{size}.om",
                           lambda size=size: models.image_to_image("test", [1, size, size, 3],
                                                                   "generator/G_MODEL/out_layer/Tanh", [1, size, size, 3]),
                           f"atc --model=\"./AnimeGAN_{size}_{size}.pb\" --output_type=FP32 "
                           f"--input_shape=\"test:1,{size},{size},3\" --input_format=NHWC --output=\"AnimeGANv2_{size}\" "
                           f"--soc_version=Ascend310 --framework=3 --precision_mode=allow_fp32_to_fp16 "
                           f"--insert_op_conf=aipp_{size}_{size}.cfg"),),
             files=(File(f"model/aipp_{size}_{size}.cfg", data.text_file(_nv12_cfg(size, size, mean=127.5,
                                                                                    reci=0.0078431))),
                    File("data/test.jpg", data.photo("chelsea.png"))),
             check=checks.files_written("out/test.jpg"),
             notes=f"TF AnimeGANv2, NHWC test [1,{size},{size},3] with static AIPP (aipp_{size}_{size}.cfg downloaded, "
                   "unpublished: ours YUV420SP_U8 -> RGB in [-1, 1]) -> the same shape in [-1, 1]; acllite JPEGD -> "
                   "crop_and_paste_get_roi. The README's three sizes differ only by the model.")
      for size in (256, 512, 1024)),
    Sample("YOLOV3_plane_detection", "python/contrib/YOLOV3_plane_detection", "python3.6 object_detect.py ../data",
           cwd="src", acllite=True, needs=("cv2",),
           models=(Model("model/yolov3.om", models.yolov3_caffe,
                         "atc --model=yolov3.prototxt --weight=yolov3.caffemodel --framework=0 --output=yolov3 "
                         "--soc_version=Ascend310 --insert_op_conf=aipp_nv12.cfg"),),
           files=(File("model/aipp_nv12.cfg", data.text_file(_nv12_cfg(416, 416, mean=0, reci=0.0039216))),
                  File("data/test.jpg", data.photo("rocket.jpg")), File("src/outputs/.keep", data.text(""))),
           check=checks.files_written("src/outputs/test.jpg"),
           notes=YOLOV3_NOTE + "acllite JPEGD -> VPC resize 416x416; with no box nothing is cropped. The code saves "
                 "the picture to ./outputs (src/outputs), which neither the repository nor the README creates (the "
                 "README says to look there): the runner makes it."),
    Sample("cartoonGAN_picture", "python/contrib/cartoonGAN_picture", "python3 cartoonization.py ../data/", cwd="src",
           acllite=True, needs=("cv2",),
           models=(Model("model/cartoonization.om",
                         lambda: models.image_to_image("train_real_A", [1, 256, 256, 3], "gen_B", [1, 256, 256, 3]),
                         "atc --output_type=FP32 --input_shape=\"train_real_A:1,256,256,3\" --input_format=NHWC "
                         "--output=\"./cartoonization\" --soc_version=Ascend310 --insert_op_conf=insert_op.cfg "
                         "--framework=3 --save_original_model=false --model=\"./cartoonization.pb\" "
                         "--precision_mode=allow_fp32_to_fp16"),),
           files=(File("model/insert_op.cfg", data.text_file(_nv12_cfg(256, 256, mean=127.5, reci=0.0078431))),
                  File("data/scenery.jpg", data.photo("rocket.jpg"))),
           check=checks.files_written("out/scenery.jpg"),
           notes="TF CartoonGAN, NHWC train_real_A [1,256,256,3] with static AIPP (insert_op.cfg downloaded, "
                 "unpublished: ours YUV420SP_U8 256x256 -> RGB in [-1, 1]) -> [1,256,256,3] in [-1, 1]; acllite "
                 "JPEGD -> crop_and_paste_get_roi. Output name unknown (the code reads output 0)."),
    Sample("crowd_count_picture", "python/contrib/crowd_count_picture", "python3.6 main.py ../data/", cwd="src",
           acllite=True, needs=("cv2",),
           models=(Model("model/count_person.caffe.om",
                         lambda: models.image_to_image("blob1", [1, 3, 800, 1408], "density", [1, 1, 800, 1408],
                                                       layout="NCHW", act="Sigmoid"),
                         "atc --input_shape=\"blob1:1,3,800,1408\" --weight=\"count_person.caffe.caffemodel\" "
                         "--input_format=NCHW --output=\"count_person.caffe\" --soc_version=Ascend310 "
                         "--insert_op_conf=insert_op.cfg --framework=0 --model=\"count_person.caffe.prototxt\""),),
           files=(File("model/insert_op.cfg", data.text_file(_nv12_cfg(1408, 800, mean=0, reci=1.0))),
                  File("data/crowd.jpg", data.photo("rocket.jpg"))),
           check=checks.files_written("out/crowd.jpg"),
           notes="Caffe crowd counting, blob1 [1,3,800,1408] with static AIPP (insert_op.cfg downloaded, unpublished: "
                 "ours YUV420SP_U8 1408x800 -> RGB); the code reshapes output 0 to an 800x1408 density map and sums it "
                 "(count = sum / 1000). acllite JPEGD -> crop_and_paste to 1408x800."),
    Sample("dehaze_picture", "python/contrib/dehaze_picture", "python3.6 main.py ../data/", cwd="src", acllite=True,
           models=(Model("model/deploy_vel.om",
                         lambda: models.image_to_image("t_image_input_to_DHGAN_generator", [1, 512, 512, 3],
                                                       "DHGAN_generator/output", [1, 512, 512, 3]),
                         "atc --model=output_graph.pb --framework=3 --input_shape=\"t_image_input_to_DHGAN_generator:"
                         "1,512,512,3\" --output=deploy_vel --soc_version=Ascend310 "
                         "--input_fp16_nodes=\"t_image_input_to_DHGAN_generator\" --output_type=FP32"),),
           files=(File("data/10992_04_0.8209.png", data.photo("rocket.jpg")),),
           check=checks.files_written("out/out_10992_04_0.8209.png"),
           notes="TF dehazing GAN: fp16 (--input_fp16_nodes) NHWC [1,512,512,3] in [-1, 1] (the code sends BGR "
                 "float16), [1,512,512,3] fp32 out in [-1, 1]."),
    Sample("edge_detection_picture", "python/contrib/edge_detection_picture", "python3.6 main.py ../data/", cwd="src",
           acllite=True,
           models=(Model("model/rcf.om",
                         lambda: models.maps("data", [1, 3, 512, 512], [(f"side{i}", [1, 1, s, s]) for i, s in
                                             enumerate((512, 256, 128, 64, 63))], layout="NCHW"),
                         "atc --model=rcf.prototxt --weight=./rcf_bsds.caffemodel --framework=0 --output=rcf "
                         "--soc_version=Ascend310 --input_fp16_nodes=data --input_format=NCHW --output_type=FP32"),),
           files=(File("data/ori.jpg", data.photo("chelsea.png")),),
           check=checks.files_written("out/outori.jpg"),
           notes="Caffe RCF: data fp16 [1,3,512,512] (BGR, CHW) in; five side outputs [1,1,512|256|128|64|63,...] fp32, "
                 "which the code resizes to 512x512 and fuses with fixed weights."),
    Sample("garbage_picture", "python/contrib/garbage_picture", "python3 classify_test.py ../data/", cwd="src",
           acllite=True,
           models=(Model("model/garbage_yuv.om", lambda: models.classifier("data", [1, 3, 224, 224], "output", 26),
                         "atc --model=./mobilenetv2.air --framework=1 --output=garbage_yuv --soc_version=Ascend310 "
                         "--insert_op_conf=./insert_op_yuv.cfg --input_shape=\"data:1,3,224,224\" "
                         "--input_format=NCHW"),),
           files=(File("model/insert_op_yuv.cfg", data.text_file(_nv12_cfg(224, 224))),
                  File("data/bottle.jpg", data.photo("coffee.png")), File("data/newspaper.jpg", data.photo("rocket.jpg"))),
           check=checks.files_written("out/bottle.jpg", "out/newspaper.jpg"),
           notes="MindSpore MobileNetV2, data [1,3,224,224] with static AIPP (insert_op_yuv.cfg downloaded, "
                 "unpublished); 26 classes (the code's list). acllite JPEGD -> VPC resize 224x224."),
    Sample("gesture_recognition_picture", "python/contrib/gesture_recognition_picture", "python3 main.py ../data/",
           cwd="src", acllite=True,
           models=(Model("model/gesture_yuv.om", lambda: models.classifier("data", [1, 3, 224, 224], "prob", 21,
                                                                           softmax=True),
                         "atc --model=./resnet18_gesture.prototxt --weight=./resnet18_gesture.caffemodel --framework=0 "
                         "--output=gesture_yuv --soc_version=Ascend310 --insert_op_conf=./insert_op.cfg "
                         "--input_shape=\"data:1,3,224,224\" --input_format=NCHW"),),
           files=(File("model/insert_op.cfg", data.text_file(_nv12_cfg(256, 224, crop=(16, 0, 224, 224)))),
                  File("data/test1.jpg", data.photo("chelsea.png"))),
           check=checks.all_of(checks.labels_printed(1), checks.files_written("out/test1.jpg")),
           notes="Caffe ResNet-18, data [1,3,224,224] with static AIPP; 21 gestures (the code's list). The code "
                 "resizes to 256 wide x 224 high: the README's insert_op.cfg (downloaded, unpublished) must take that "
                 "86016-byte NV12 picture; ours crops the central 224x224."),
    Sample("human_protein_map_classification", "python/contrib/human_protein_map_classification",
           "python3 main.py ../data/", cwd="src", acllite=True,
           models=(Model("model/deploy_vel.om", lambda: models.classifier("data", [1, 3, 224, 224], "score", 10),
                         "atc --model=./hpa.prototxt --weight=./hpa.caffemodel --framework=0 --output=./deploy_vel  "
                         "--soc_version=Ascend310 --input_format=NCHW --input_fp16_nodes=data --output_type=FP32 "
                         "--out_nodes=\"score:0\""),),
           files=(File("data/test.jpg", data.photo("chelsea.png")), File("src/font.ttf", data.font())),
           check=checks.files_written("out/out_test.jpg"),
           notes="src/font.ttf is in the repository; a partial mirror may lack its blob, then we put DejaVu Sans there. "
                 "Caffe HPA classifier: data fp16 [1,3,224,224] (BGR, CHW) in, score [1,10] fp32 out (sigmoid in the "
                 "code; the code's 10 labels). The README's data comes from a Kaggle set: ours is our cat photo."),
    Sample("image_HDR_enhance", "python/contrib/image_HDR_enhance", "python3.6 main.py", cwd="src", acllite=True,
           needs=("cv2",),
           models=(Model("model/image_HDR_enhance.om",
                         lambda: models.image_to_image("input", [1, 512, 512, 3], "output", [1, 512, 512, 3],
                                                       act="Sigmoid"),
                         "atc --model=./image_HDR_enhance.pb --framework=3 --output=image_HDR_enhance "
                         "--soc_version=Ascend310  --input_shape=\"input:1,512,512,3\" --input_format=NHWC "
                         "--output_type=FP32"),),
           files=(File("data/data1.png", data.photo("coffee.png")),),
           check=checks.files_written("out/data1.png"),
           notes="TF HDR enhancement: NHWC fp32 [1,512,512,3] RGB in [0, 1] in, [1,512,512,3] in [0, 1] out."),
    Sample("portrait_picture", "python/contrib/portrait_picture", "python3 main.py", cwd="src", acllite=True,
           needs=("cv2",),
           models=(Model("model/portrait.om",
                         lambda: models.image_to_image("Inputs/x_input", [1, 224, 224, 3], "Softmax",
                                                       [1, 224, 224, 2], act="Sigmoid"),
                         "atc --model=./portrait.pb  --insert_op_conf=./insert_op.cfg  --output=\"./portrait\" "
                         "--output_type=FP32 --input_shape=\"Inputs/x_input:1,224,224,3\" --framework=3 "
                         "--soc_version=Ascend310"),),
           files=(File("model/insert_op.cfg", data.text_file(_nv12_cfg(224, 224))),
                  File("data/ori.jpg", data.photo("chelsea.png", (640, 480))),
                  File("data/background.jpg", data.photo("rocket.jpg", (640, 480)))),
           check=checks.files_written("out/mask/ori.jpg", "out/result/ori.jpg"),
           notes="TF PortraitNet, NHWC Inputs/x_input [1,224,224,3] with static AIPP (insert_op.cfg downloaded, "
                 "unpublished) -> [1,224,224,2] mask probabilities; the code pastes data/background.jpg behind the "
                 "mask (it adds the two pictures, so they must have the same size: ours are both 640x480). acllite JPEGD -> VPC "
                 "resize 224x224."),
    Sample("vessel_segmentation", "python/contrib/vessel_segmentation", "python3 main.py", cwd="src", acllite=True,
           needs=("cv2",),
           models=(Model("model/vessel.om",
                         lambda: models.image_to_image("data", [1, 3, 512, 512], "sigmoid", [1, 1, 512, 512],
                                                       layout="NCHW", act="Sigmoid"),
                         "atc --model=./deploy_vel_ascend.prototxt --weight=./vel_hw_iter_5000.caffemodel "
                         "--framework=0 --output=./vessel --soc_version=Ascend310 --input_format=NCHW "
                         "--input_fp16_nodes=data -output_type=FP32"),),
           files=(File("data/test1.png", data.photo("chelsea.png")),),
           check=checks.files_written("out/test1.png"),
           notes="Caffe retina U-Net: data fp16 [1,3,512,512] in (the code sends the BGR picture as [1,512,512,3] "
                 "float16: same size, HWC bytes in a CHW input, as on a board), [1,1,512,512] vessel probability out."),
    Sample("sampleResnetQuickStart", "inference/modelInference/sampleResnetQuickStart/python",
           "python3.7 sampleResnetQuickStart.py", cwd="src", needs=("cv2",),
           models=(Model("model/resnet50.om", lambda: models.imagenet_torch("actual_input_1"), RESNET_ONNX_ATC),),
           files=(File("data/dog1_1024_683.jpg", data.photo("chelsea.png", (1024, 683))),),
           check=checks.top1_every(checks.CATS, 1),
           notes="Raw pyACL, no AIPP: the code normalises RGB with torchvision's mean/std and sends fp32 NCHW; the "
                 "substitute is EfficientNet-Lite0 behind an adapter undoing that normalisation (input actual_input_1, "
                 "1000 logits). The README's command is scripts/sample_run.sh: python3.7 in src/."),
    Sample("sampleResnetAIPP", "inference/modelInference/sampleResnetAIPP/python", "python3.7 sampleResnetAIPP.py",
           cwd="src", needs=("cv2",),
           models=(Model("model/resnet50.om", lambda: models.imagenet_sized("actual_input_1", [1, 3, 224, 224]),
                         RESNET_ONNX_ATC + "  --insert_op_conf=aipp.cfg"),),
           files=(File("model/aipp.cfg", data.text_file(RESNET_AIPP_CFG)),
                  File("data/dog1_1024_683.jpg", data.photo("chelsea.png", (1024, 683)))),
           check=checks.top1_every(checks.CATS, 1),
           notes="The code sends 224x224 RGB uint8 (150528 bytes) to a model with static AIPP; the README downloads "
                 "aipp.cfg (resnet50_CV, unpublished): ours is RGB888_U8 224x224, (x - 127) / 128 as the substitute "
                 "(EfficientNet-Lite0, input actual_input_1) wants."),
    Sample("sampleResnetDVPP", "inference/modelInference/sampleResnetDVPP/python", "python3.7 sampleResnetDVPP.py",
           cwd="src", needs=("cv2",),
           models=(Model("model/resnet50.om", lambda: models.imagenet_sized("actual_input_1", [1, 3, 224, 224]),
                         RESNET_ONNX_ATC + "  --insert_op_conf=aipp.cfg"),),
           files=(File("model/aipp.cfg", data.text_file(_nv12_cfg(224, 224))),
                  File("data/dog1_1024_683.jpg", data.photo("chelsea.png", (1024, 683)))),
           check=checks.top1_every(checks.CATS, 1),
           notes="Raw pyACL DVPP: JPEGD -> VPC resize 224x224 NV12 -> a model with static AIPP (aipp.cfg "
                 "resnet50_DVPP downloaded, unpublished: ours YUV420SP_U8 224x224 -> RGB, (x - 127) / 128). The code "
                 "swaps width_stride and height_stride of the resize output desc (both 224 here)."),
    Sample("sampleResnetDVPP+pyAcllite", "inference/modelInference/sampleResnetDVPP/pyAcllite",
           "python3.7 sampleResnetDVPP.py", cwd="src", acllite=True, acllite_dir="inference/acllite/acllitePY",
           needs=("cv2",),
           models=(Model("model/resnet50.om", lambda: models.imagenet_sized("actual_input_1", [1, 3, 224, 224]),
                         RESNET_ONNX_ATC + "  --insert_op_conf=aipp.cfg"),),
           files=(File("model/aipp.cfg", data.text_file(_nv12_cfg(224, 224))),
                  File("data/dog1_1024_683.jpg", data.photo("chelsea.png", (1024, 683)))),
           check=checks.top1_every(checks.CATS, 1),
           notes="The same with the newer acllite (inference/acllite/acllitePY, on PYTHONPATH as the README says)."),
    Sample("sampleCrowdCounting", "inference/modelInference/sampleCrowdCounting", "python3.7 sampleCrowdCounting.py",
           cwd="src", acllite=True, acllite_dir="inference/acllite/acllitePY", needs=("cv2",),
           models=(Model("model/CrowdCounting.om",
                         lambda: models.maps("input", [1, 3, 850, 1280], [("density", [1, 1, 106, 160]),
                                             ("density_up", [1, 1, 850, 1280])], layout="NCHW", act="Sigmoid"),
                         "atc --model=CrowdCounting.onnx --framework=5 --output=CrowdCounting --soc_version=Ascend310  "
                         "--insert_op_conf=aipp.cfg"),),
           files=(File("model/aipp.cfg", data.text_file(_nv12_cfg(1280, 850, mean=0, reci=0.0039216))),
                  File("data/people.jpg", data.photo("rocket.jpg")), File("out/.keep", data.text(""))),
           check=checks.files_written("out/people.jpg"),
           notes="ONNX crowd counter with static AIPP (aipp.cfg downloaded, unpublished: ours YUV420SP_U8 1280x850); "
                 "acllitePY JPEGD -> resize 1280x850. The code unpacks two outputs and reads output 0 as [1,1,H,W] "
                 "(count = its sum); the names and sizes are not published (ours: 1/8 and full size). "
                 "scripts/sample_run.sh makes ../out; the runner makes it too."),
    Sample("body_pose_picture", "python/contrib/body_pose_picture", "python3 run_image.py", cwd="src", acllite=True,
           needs=("cv2",), models=(BODY_POSE_MODEL,),
           files=(File("data/test.jpg", data.photo("chelsea.png")),),
           check=checks.files_written("output/test_output.jpg"),
           notes=BODY_POSE_NOTE),
    Sample("body_pose_picture+video", "python/contrib/body_pose_picture", "python3 run_video.py", cwd="src",
           acllite=True, needs=("cv2",), models=(BODY_POSE_MODEL,),
           files=(File("data/yoga.mp4", data.mp4("rocket.jpg", (1280, 720), 10)),),
           expect=("Cannot read more, Reach the end of video",),
           notes=BODY_POSE_NOTE + " run_video.py without --is_presenter_server: cv2.VideoCapture of data/yoga.mp4 "
                 "(ours: rocket.jpg panned, 10 frames of 1280x720, OpenCV's mp4v) -> one execute per frame -> an mp4 in "
                 "../output."),
    Sample("head_pose_picture", "python/contrib/head_pose_picture", "python3 main.py", cwd="src", acllite=True,
           needs=("cv2",),
           models=(Model("model/yolo_model.om",
                         lambda: models.heads("input_1", [1, 416, 416, 3], [("conv2d_59/BiasAdd", 32, 18),
                                              ("conv2d_67/BiasAdd", 16, 18), ("conv2d_75/BiasAdd", 8, 18)],
                                              layout="NHWC", objectness=(4, 10, 16)),
                         "atc --framework=3 --model=model/yolo_model.pb --input_shape=\"input_1:1,416,416,3\" "
                         "--input_format=NHWC --output=model/yolo_model --output_type=FP32 --soc_version=Ascend310",
                         cwd="."),
                   Model("model/WHENet_b2_a1_modified.om",
                         lambda: models.multi_classifier("input_1", [1, 224, 224, 3], [("yaw_new/BiasAdd", 120),
                                                         ("pitch_new/BiasAdd", 66), ("roll_new/BiasAdd", 66)]),
                         "atc --framework=3 --model=model/WHENet_b2_a1_modified.pb --input_shape=\"input_1:1,224,224,3\" "
                         "--input_format=NHWC --output=model/WHENet_b2_a1_modified --output_type=FP32 "
                         "--soc_version=Ascend310", cwd=".")),
           files=(File("data/test.jpg", data.photo("chelsea.png")),),
           check=checks.files_written("output/test_output.jpg"),
           notes="Two TF models. Keras YOLOv3 (1 class, 9 anchors): input_1 NHWC [1,416,416,3] in [0, 1] -> heads "
                 "[1,13|26|52,...,18] NHWC; WHENet: input_1 NHWC [1,224,224,3] -> yaw [1,120], pitch [1,66], roll "
                 "[1,66] bins. Output names are not published (the code reads outputs by index). The substitute YOLO's "
                 "objectness is low: no head is found, so WHENet is loaded but never executed."),
    Sample("3Dgesture_recognition", "python/contrib/3Dgesture_recognition", "python3.6 3Dgesture_recognition.py ../data/",
           cwd="src", acllite=True,
           models=(Model("model/3d_gesture_recognition.om",
                         lambda: models.clip_classifier("X", [1, 16, 112, 112, 3], "output", 10),
                         "atc --model=3d_gesture_recognition.pb --framework=3 --output=3d_gesture_recognition "
                         "--soc_version=Ascend310 --input_shape=\"X:1,16,112,112,3\" --input_format=NDHWC"),),
           files=(File("data/test_float32_actiontype7.bin", data.clip_bin("chelsea.png", (112, 112), 16)),),
           expect=("process  end",), check=checks.files_written("out/test_float32_actiontype7.txt"),
           notes="TF 3D CNN: X NDHWC [1,16,112,112,3] fp32 (16 frames) -> [1,10] action scores. The README downloads "
                 "a .bin made by its video2bin script (16 x 112 x 112 x 3 float32): ours is chelsea.png panned, in "
                 "[0, 1] (video2bin's scaling is not published)."),
    Sample("ssd_mobilenetv2_picture", f"{L2}/n_e2e/ssd_mobilenetv2_picture", "python3 main.py", cwd="src",
           acllite=True, needs=("cv2", "easydict"),
           models=(Model("model/ssd_500.om", lambda: models.ssd_boxes("x", [1, 3, 320, 320], 2034, 81),
                         "atc --input_format=NCHW --framework=1 --model=\"ssd_500.air\" --output=\"ssd_500\" "
                         "--soc_version=Ascend310"),),
           files=(File("data/dog1_1024_683.jpg", data.photo("chelsea.png", (1024, 683))),),
           check=checks.files_written("out/outputdog1_1024_683.jpg"),
           notes="MindSpore SSD-MobileNetV2 (AIR; the README gives no download, only the atc command): x [1,3,320,320] "
                 "-> boxes [1,2034,4] + scores [1,2034,81] (config.py's num_ssd_boxes and num_classes; the code runs "
                 "its own NMS). The code sends its normalised picture as float64 (2457600 bytes for a 1228800-byte "
                 "fp32 input): acllite warns, the model reads the first half, as on a board. Needs easydict "
                 "(config.py), which the README does not list."),
    Sample("hand_detection_Gitee", HAND, "python3 hand_detection.py", cwd="src", acllite=True, needs=("cv2",),
           numpy="1.23",
           models=(Model("model/Hand_detection.om", models.hand_ssd,
                         "atc --model=model/Hand_detection.pb --framework=3 --output=model/Hand_detection "
                         "--soc_version=Ascend310 --input_shape=\"image_tensor:1,300,300,3\" --input_format=NHWC "
                         "--output_type=FP32", cwd="."),),
           files=(File("data/hand.jpg", data.photo("chelsea.png", (640, 480))),),
           expect=(r"^detected bbox num: 1$",),
           check=checks.box_drawn("output/output.jpg", HAND_BOX, (0, 255, 0), absent=(HAND_LOW,)),
           notes=NP123_NOTE + "TF SSD-MobileNet with its post-processing: image_tensor uint8 NHWC [1,300,300,3] (RGB) "
                 "-> num_detections [1], detection_classes, detection_scores [1,10], detection_boxes [1,10,4] "
                 "(ymin, xmin, ymax, xmax in [0, 1]), FP32, in that order (the README). The substitute is a constant "
                 "(models.hand_ssd): two detections, one scoring 0.9 (drawn green on output/output.jpg) and one 0.3 "
                 "(under the code's 0.6: not drawn). hand.jpg: our cat photo."),
    Sample("object_tracking_video", MOT, "python3 main.py --conf_thres 0.35 --input_video ../data/london.mp4",
           cwd="src", acllite=True, needs=("cv2", "scipy", "lap", "cython_bbox"), numpy="1.23", commit=MOT_COMMIT,
           models=(Model("model/mot_v2.om", models.fairmot, MOT_ATC, cwd="."),),
           files=(File("data/london.mp4", data.mp4("rocket.jpg", (1280, 720), MOT_FRAMES)),),
           expect=("Results will be saved at ../outputs/london",),
           check=checks.box_in_frames("outputs/london", MOT_FRAMES, MOT_BOX, MOT_TRACK_1),
           notes=NP123_NOTE + "scripts/run_demo.sh's command (src/test.py, the README's single-picture run, imports "
                 "`loader` from utils/dataloader.py, which has none: an ImportError before any pyACL call, whatever "
                 "the NumPy). FairMOT (DLA-34 v0 ONNX): input.1 [1,3,608,1088] letterboxed RGB / 255 -> id_feature "
                 "[152,272,128], reg [152,272,2], wh [152,272,4], hm [152,272] (the order the code unpacks, the shapes "
                 "its decoder's 2-D heatmap mask needs; names ours). The substitute is a constant (models.fairmot): one "
                 "heatmap peak of 0.9 (over --conf_thres 0.35) with the same id feature every frame, so frame 1 starts "
                 "track 1 and every later frame matches it (embedding, Kalman filter, lap): each of the frames "
                 "outputs/london/NNNNN.jpg has track 1's box in its colour at MOT_BOX. london.mp4: our rocket photo "
                 "panned (OpenCV's mp4v; the code resizes each frame to 1920x1080)."),
    Sample("object_tracking_video+picture", MOT, "python3 test.py --test_img ../data/test.jpg --verify_img "
           "../data/verify.jpg", cwd="src", acllite=True, needs=("cv2", "scipy", "lap", "cython_bbox"), numpy="1.23",
           commit=MOT_COMMIT, models=(Model("model/mot_v2.om", models.fairmot, MOT_ATC, cwd="."),),
           files=(File("data/test.jpg", data.photo("rocket.jpg", (1088, 608))),
                  File("data/verify.jpg", data.photo("rocket.jpg", (1088, 608)))),
           expect=("Similarity Test Pass!",),
           check=checks.box_drawn("data/test_output.jpg", MOT_PICTURE_BOX, MOT_TRACK_1),
           notes=NP123_NOTE + "The README's single-picture run, at the same commit: one frame through the same "
                 "substitute; test.jpg is our rocket photo at 1088x608 (the letterbox is the identity, 4 pixels a "
                 "cell). verify.jpg (downloaded: the real model's expected output) is that photo too, so the sample's "
                 "own test (a histogram distance <= 420 from the result) only says the picture was not ruined; the box "
                 "check is ours."),
)
