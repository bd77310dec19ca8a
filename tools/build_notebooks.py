"""Write notebooks/NN_*.ipynb from the cell lists below and execute them to store their outputs.

Run after changing a notebook's cells: python tools/build_notebooks.py [NAME ...]
Outputs are produced on the simulator; nbval compares them (addresses and timings sanitised).
"""
from __future__ import annotations

import os
import sys

import nbformat
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "notebooks")

SETUP = """from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np"""

END = """print(lab.ledger_summary())"""


def md(text):
    return nbformat.v4.new_markdown_cell(text.strip())


def code(text, ignore=False):
    cell = nbformat.v4.new_code_cell(text.strip())
    if ignore:
        cell.metadata["tags"] = ["nbval-ignore-output"]
    return cell


NOTEBOOKS = {}

NOTEBOOKS["00_welcome"] = [
    md("""# 00 · Welcome: the pyACL inference flow in one picture
**You will be able to:** tell which backend runs your code, name the thirteen steps of whole-model
inference with pyACL (AscendCL for Python, `import acl`), and find your way through this series.

Every notebook runs on a laptop through the acl-teach **simulator** (模拟器) and unchanged on a real
Ascend NPU: the first cell picks real pyACL when it is installed."""),
    code(SETUP),
    md("""## The whole flow (推理全流程)
```
acl.init                               初始化
  └ set_device → create_context → create_stream      Device / Context / Stream
      └ load model (.om) → model desc                  加载模型 → 模型描述
          └ Dataset ⊃ DataBuffer → device memory        数据集 ⊃ 数据缓冲 → Device 内存
              └ H2D copy → execute → D2H copy → top-5    拷贝 → 推理 → 拷回 → 后处理
          ┌ release datasets / buffers / memory          释放
      ┌ unload model, destroy desc
  ┌ destroy stream / context, reset device
acl.finalize                           去初始化
```
Each step is also a function of the step API; each returns a record that can show the pyACL calls it made."""),
    code("""steps = ["init", "request_resources", "load_model", "query_desc", "build_dataset", "copy_to_device",
         "execute", "unpack_outputs", "top_k", "release_dataset", "unload_model", "release_resources", "finalize"]
for i, name in enumerate(steps, 1):
    print(f"{i:2d}. at.{name}: {getattr(at, name).__doc__.splitlines()[0]}")"""),
    md("""## The whole flow, run once
`at.Session` runs every step and releases in the documented order. Here it classifies the shipped
photo of an espresso with the embedded default model (EfficientNet-Lite0, converted like the
official ResNet-50 sample: fp16 input, fp32 output)."""),
    code("""with at.Session() as s:
    result = s.classify("../data/images/coffee.png")
print(result.topk.sample_format())"""),
    md("""## How to use this series
| notebook | you learn |
|---|---|
| 01 | init, device/context/stream, run modes, what 100002 means |
| 02 | ATC, the four ways to load a model, `query_size` |
| 03 | every `acl.mdl.get_*`, sizes from dims × dtype |
| 04 | malloc, aclDataBuffer, aclmdlDataset — how they nest |
| 05 | image → fp16 NCHW bytes, `bytes_to_ptr`, memcpy H2D |
| 06 | synchronous execute and what it checks |
| 07 | results back, top-5, single operators |
| 08 | release order, the ledger, leaks |
| 09 | execute_async, callbacks |
| 10 | dynamic batch |
| 11 | the whole pipeline: stepper, Session, CLI |
| 12 | the desc explorer on several models |

Each notebook ends with an exercise and a checker (`acl_teach.lab`). Open the series with `acl-teach lab`."""),
    code(END),
]

NOTEBOOKS["01_init_and_resources"] = [
    md("""# 01 · `acl.init` and the runtime resources: Device, Context, Stream
**You will be able to:** initialise AscendCL, open a Device (设备), create a Context (上下文) and a
Stream (流), read the run mode (运行模式), and explain `100002` when a cell is re-run."""),
    code(SETUP),
    md("""## Raw pyACL
Every call returns an aclError code (`ret`, 0 = success); calls that create something return
`(value, ret)` — value first, `ret` last."""),
    code("""ret = acl.init()
print("acl.init ->", ret)
ret = acl.rt.set_device(0)
print("set_device ->", ret)
context, ret = acl.rt.create_context(0)
print("create_context -> ret", ret, "| context is a plain int handle:", type(context).__name__)
stream, ret = acl.rt.create_stream()
print("create_stream -> ret", ret)
run_mode, ret = acl.rt.get_run_mode()
print("run mode:", {0: "ACL_DEVICE (code runs on the board)", 1: "ACL_HOST (PC + accelerator card)"}[run_mode])"""),
    md("""## Re-running a cell: 100002
`acl.init()` a second time in the same process returns **100002 ACL_ERROR_REPEAT_INITIALIZE**. It is not
fatal — the process is still initialised."""),
    code("""ret = acl.init()
print(ret)
print(at.explain(ret).text())"""),
    md("""## Run modes
On a PC with a card (ACL_HOST) the host CPU cannot read device memory: data goes across with
`memcpy`. On a board such as the Atlas 200I DK A2 (ACL_DEVICE) host and device share memory. The
simulator can be either; here it is a PC with a card."""),
    code("""ret = acl.rt.destroy_stream(stream); print("destroy_stream ->", ret)
ret = acl.rt.destroy_context(context); print("destroy_context ->", ret)
ret = acl.rt.reset_device(0); print("reset_device ->", ret)
ret = acl.finalize(); print("finalize ->", ret)"""),
    md("""## The same with the step API
`at.init()` reports 100002 instead of raising; `at.request_resources()` does set_device →
create_context → create_stream → get_run_mode and shows the calls."""),
    code("""init = at.init()
res = at.request_resources(0)
print(res)
print(res.code())"""),
    code("""print(at.release_resources(res).code())
print(at.finalize().code())"""),
    md("""## Exercise
Call `acl.init()` twice and pass both return codes to the checker."""),
    code("""first = acl.init()
second = acl.init()
acl.finalize()
lab.check_init_codes(first, second)"""),
    code(END),
]

NOTEBOOKS["02_load_model"] = [
    md("""# 02 · Loading an offline model (离线模型)
**You will be able to:** convert an ONNX model with ATC, load the `.om` four ways, and size
user-managed memory with `query_size`."""),
    code(SETUP),
    md("""## ATC: ONNX → OM
On Ascend hardware, `atc` compiles a model for one SoC. `acl-teach atc` takes the same flags and writes a
simulator OM (desc + graph). The default model is converted exactly like the ResNet-50 sample:
`--input_fp16_nodes=data --output_type=FP32`."""),
    code("""import subprocess, sys
cmd = [sys.executable, "-m", "acl_teach", "atc", "--model=../data/models/efficientnet_lite0.onnx", "--framework=5",
       "--output=/tmp/acl_teach_nb02", "--soc_version=Ascend310", "--input_fp16_nodes=data", "--output_type=FP32"]
print(subprocess.run(cmd, capture_output=True, text=True).stdout)"""),
    code("""om_path = "/tmp/acl_teach_nb02.om"
acl.init(); acl.rt.set_device(0)
context, ret = acl.rt.create_context(0)
model_id, ret = acl.mdl.load_from_file(om_path)
print("load_from_file -> model_id", model_id, "ret", ret)"""),
    md("""## From memory, and with your own memory
`load_from_mem` takes the bytes of the file (through `bytes_to_ptr`). `query_size` tells how much
device memory the model needs for work space and weights, so you can allocate it yourself and use
`load_from_file_with_mem`."""),
    code("""data = open(om_path, "rb").read()
model_id2, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
print("load_from_mem -> ret", ret)
work_size, weight_size, ret = acl.mdl.query_size(om_path)
print("work", work_size, "bytes, weights", weight_size, "bytes")
work_ptr, ret = acl.rt.malloc(work_size, 0)
weight_ptr, ret = acl.rt.malloc(weight_size, 0)
model_id3, ret = acl.mdl.load_from_file_with_mem(om_path, work_ptr, work_size, weight_ptr, weight_size)
print("load_from_file_with_mem -> ret", ret)"""),
    code("""for m in (model_id, model_id2, model_id3):
    print("unload", m, "->", acl.mdl.unload(m))
print(acl.rt.free(work_ptr), acl.rt.free(weight_ptr))   # only after unload
print("unload again ->", acl.mdl.unload(model_id))      # 145003: not a loaded model"""),
    md("""A real Ascend OM cannot run on the simulator, and an ONNX file is not an OM: both are refused with a
code and an explanation."""),
    code("""model_id, ret = acl.mdl.load_from_file("../data/models/efficientnet_lite0.onnx")
print(ret, "|", acl.get_recent_err_msg()[:120])
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()"""),
    md("## The step API: `load_model(path, how)` with how = file / mem / file_with_mem / mem_with_mem"),
    code("""at.init(); res = at.request_resources(0)
m = at.load_model(om_path, "file_with_mem")
print(m)
print(m.code())
at.unload_model(m); at.release_resources(res)
_ = at.finalize()"""),
    md("## Exercise\nHow many bytes of device memory does the model need in total (work + weights)?"),
    code("""acl.init()
work_size, weight_size, ret = acl.mdl.query_size(om_path)
acl.finalize()
print(lab.check_model_memory(weight_size, work_size, weight_size))      # a typical mistake
lab.check_model_memory(work_size + weight_size, work_size, weight_size)"""),
    code(END),
]

NOTEBOOKS["03_model_desc"] = [
    md("""# 03 · The model desc (模型描述, aclmdlDesc)
**You will be able to:** read every `acl.mdl.get_*` value and compute each buffer size from dims × data type."""),
    code(SETUP),
    code("""acl.init(); acl.rt.set_device(0)
context, _ = acl.rt.create_context(0)
model_id, _ = acl.mdl.load_from_file(at.assets.default_om())"""),
    code("""desc = acl.mdl.create_desc()
print("get_desc ->", acl.mdl.get_desc(desc, model_id))    # note the order: desc, model_id
n_in, n_out = acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)
print("inputs:", n_in, "outputs:", n_out)
for i in range(n_in):
    dims, ret = acl.mdl.get_input_dims(desc, i)
    print("input", i, acl.mdl.get_input_name_by_index(desc, i), dims["dims"],
          "type", acl.mdl.get_input_data_type(desc, i), "format", acl.mdl.get_input_format(desc, i),
          "size", acl.mdl.get_input_size_by_index(desc, i))
for i in range(n_out):
    dims, ret = acl.mdl.get_output_dims(desc, i)
    print("output", i, acl.mdl.get_output_name_by_index(desc, i), dims["dims"],
          "type", acl.mdl.get_output_data_type(desc, i), "size", acl.mdl.get_output_size_by_index(desc, i))"""),
    md("""## Sizes come from dims × bytes per element
Data type 1 is ACL_FLOAT16 (2 bytes), 0 is ACL_FLOAT (4 bytes):"""),
    code("""print(1 * 3 * 224 * 224 * 2, "= input size")
print(1 * 1000 * 4, "= output size")
print(acl.mdl.get_input_index_by_name(desc, "data"), acl.mdl.get_input_index_by_name(desc, "nope"))"""),
    md("## The same with the step API, and the desc explorer widget"),
    code("""m = at.Model(model_id=model_id)
d = at.query_desc(m)
print(d.table())
for t in d.inputs + d.outputs:
    print(t.size_arithmetic)"""),
    code("""from acl_teach.widgets import DescExplorer
explorer = DescExplorer(d)
explorer"""),
    md("## Exercise\nHow big must an output buffer be? The checker explains a wrong answer."),
    code("""print(lab.check_buffer_size(2000, d, "output"))      # a typical mistake
lab.check_buffer_size(1000 * 4, d, "output")"""),
    code("""acl.mdl.destroy_desc(desc); acl.mdl.destroy_desc(d.model_desc); acl.mdl.unload(model_id)
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()
print(lab.ledger_summary())"""),
]

NOTEBOOKS["04_buffers_and_datasets"] = [
    md("""# 04 · Device memory, aclDataBuffer (数据缓冲) and aclmdlDataset (数据集)
**You will be able to:** build the input and output datasets a model executes on, and say what each
layer owns. This is the concept the official quick start introduces too late:
```
aclmdlDataset  (ordered list: index i = model input i)
 ├─ aclDataBuffer #0  = (pointer, size) label — owns nothing
 │    └─ device memory from acl.rt.malloc — the bytes
 └─ aclDataBuffer #1 …
```"""),
    code(SETUP),
    code("""acl.init(); acl.rt.set_device(0)
context, _ = acl.rt.create_context(0)
model_id, _ = acl.mdl.load_from_file(at.assets.default_om())
desc = acl.mdl.create_desc(); acl.mdl.get_desc(desc, model_id)"""),
    md("## Raw pyACL: create the dataset first, then fill it"),
    code("""input_dataset = acl.mdl.create_dataset()
size = acl.mdl.get_input_size_by_index(desc, 0)
dev_ptr, ret = acl.rt.malloc(size, 0)                 # 0 = ACL_MEM_MALLOC_HUGE_FIRST
data_buffer = acl.create_data_buffer(dev_ptr, size)   # a label on the memory
_, ret = acl.mdl.add_dataset_buffer(input_dataset, data_buffer)   # note: returns (dataset, ret)
print("buffers in dataset:", acl.mdl.get_dataset_num_buffers(input_dataset))
print("buffer size:", acl.get_data_buffer_size_v2(acl.mdl.get_dataset_buffer(input_dataset, 0)))"""),
    md("The device memory is not zeroed — the buffer view shows the fresh bytes (`cd` here):"),
    code("""from acl_teach.widgets import BufferView
view = BufferView(data_buffer, dtype="float16")
print(view.hex_lines[0])"""),
    md("## Release: each layer has its own call — destroying the dataset frees neither buffers nor memory"),
    code("""print(acl.destroy_data_buffer(data_buffer), acl.mdl.destroy_dataset(input_dataset), acl.rt.free(dev_ptr))"""),
    md("## The step API builds the whole thing per the desc"),
    code("""d = at.query_desc(at.Model(model_id=model_id))
inputs = at.build_dataset(d, "input")
outputs = at.build_dataset(d, "output")
print(inputs)
print(outputs.code())"""),
    md("## Exercise\nCheck the output dataset the step API built (and see what a wrong one says)."),
    code("""print(lab.check_dataset(acl.mdl.create_dataset(), d, "output"))
lab.check_dataset(outputs, d, "output")"""),
    code("""at.release_dataset(inputs); at.release_dataset(outputs)
acl.mdl.destroy_desc(desc); acl.mdl.destroy_desc(d.model_desc); acl.mdl.unload(model_id)
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()
print(lab.ledger_summary())"""),
]

NOTEBOOKS["05_preprocess_and_copy"] = [
    md("""# 05 · Image → fp16 NCHW bytes → device
**You will be able to:** preprocess a photo the way the model was trained, turn it into a C pointer
with `bytes_to_ptr` (and know how long that pointer lives), and copy it host → device (H2D)."""),
    code(SETUP),
    code("""from PIL import Image
img = at.load_image("../data/images/chelsea.png")
print(img.size, img.mode)
x = at.preprocess(img, dims=(1, 3, 224, 224), dtype=np.float16)    # EfficientNet-Lite recipe
print(x.dtype, x.shape, x.nbytes, "bytes", "min %.3f max %.3f" % (float(x.min()), float(x.max())))"""),
    md("""## Python bytes → C pointer (指针)
`bytes_to_ptr` returns the address *inside* the bytes object — no copy. The pointer is valid only
while the object lives: keep it in a variable. `ptr_to_bytes` goes the other way and copies."""),
    code("""acl.init(); acl.rt.set_device(0)
context, _ = acl.rt.create_context(0)
host_bytes = x.tobytes()
ptr = acl.util.bytes_to_ptr(host_bytes)
print(acl.util.ptr_to_bytes(ptr, 8) == host_bytes[:8])"""),
    code("""size = len(host_bytes)
dev_ptr, _ = acl.rt.malloc(size, 0)
from acl_teach.widgets import BufferView
view = BufferView(dev_ptr, size, dtype="float16", shape=[1, 3, 224, 224])
print("before:", view.hex_lines[0])
ret = acl.rt.memcpy(dev_ptr, size, ptr, size, 1)     # 1 = ACL_MEMCPY_HOST_TO_DEVICE
view.refresh()
print("memcpy ->", ret)
print("after: ", view.hex_lines[0])
view"""),
    md("""## Mistakes the runtime rejects
The copy kind must match where the memory lives; the count must fit the destination; a pointer
whose bytes object is gone is refused (on real hardware it would read garbage)."""),
    code("""print(acl.rt.memcpy(dev_ptr, size, ptr, size, 2), "<- DEVICE_TO_HOST with a host source")
print(acl.rt.memcpy(dev_ptr, size // 2, ptr, size, 1), "<- count > dst_max")
dangling = acl.util.bytes_to_ptr(x.tobytes())   # the temporary bytes object dies right away
print(acl.rt.memcpy(dev_ptr, size, dangling, size, 1), "<- dangling pointer")"""),
    md("## The step API: `copy_to_device` checks dtype and size against the desc first"),
    code("""acl.rt.free(dev_ptr)
d = at.query_desc(at.load_model(at.assets.default_om()))
inputs = at.build_dataset(d, "input")
try:
    at.copy_to_device(x.astype(np.float32), inputs, 0, desc=d)
except ValueError as e:
    print(e)
print(at.copy_to_device(x, inputs, 0, desc=d))"""),
    md("## Exercise\nPrepare the rocket photo for this model's input and check it."),
    code("""rocket = at.preprocess("../data/images/rocket.jpg", dims=d.inputs[0].dims, dtype=np.float16)
print(lab.check_input_array(rocket.astype(np.float32), d))
lab.check_input_array(rocket, d)"""),
    code("""at.release_dataset(inputs); acl.mdl.destroy_desc(d.model_desc); acl.mdl.unload(d.model_id)
acl.rt.destroy_context(context); acl.rt.reset_device(0); acl.finalize()
print(lab.ledger_summary())"""),
]

NOTEBOOKS["06_execute"] = [
    md("""# 06 · Synchronous execute (同步推理)
**You will be able to:** run `acl.mdl.execute`, and read the codes it returns when the datasets do not fit."""),
    code(SETUP),
    code("""at.init(); res = at.request_resources(0)
model = at.load_model(at.assets.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
_ = at.copy_to_device(at.preprocess("../data/images/coffee.png"), inputs, 0, res, d)"""),
    code("""ret = acl.mdl.execute(model.model_id, inputs.dataset, outputs.dataset)
print("execute ->", ret)"""),
    md("""## What execute checks
One buffer per input and output, each big enough, in memory the device can reach."""),
    code("""one_too_few = acl.mdl.create_dataset()
print(acl.mdl.execute(model.model_id, one_too_few, outputs.dataset), "<- empty input dataset")
print(acl.get_recent_err_msg().split(":")[1])
small = acl.mdl.create_dataset()
ptr, _ = acl.rt.malloc(1000, 0)
buf = acl.create_data_buffer(ptr, 1000)
acl.mdl.add_dataset_buffer(small, buf)
print(acl.mdl.execute(model.model_id, small, outputs.dataset), "<- input buffer too small")
print(acl.mdl.execute(99, inputs.dataset, outputs.dataset), "<- no such model")
acl.destroy_data_buffer(buf); acl.rt.free(ptr); acl.mdl.destroy_dataset(small); acl.mdl.destroy_dataset(one_too_few)"""),
    md("Timings vary from machine to machine (this cell's output is not compared):"),
    code("""run = at.execute(model, inputs, outputs)
print(f"execute took {run.elapsed_ms:.1f} ms")""", ignore=True),
    md("## Exercise\nPass the return code of an execute to the checker."),
    code("""print(lab.check_execute_ret(100017))
lab.check_execute_ret(acl.mdl.execute(model.model_id, inputs.dataset, outputs.dataset))"""),
    code("""at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())"""),
]

NOTEBOOKS["07_results_top5"] = [
    md("""# 07 · Results back to the host, top-5 (后处理)
**You will be able to:** copy outputs device → host (D2H), shape them with `get_cur_output_dims`,
compute the top-5, and do the same on the device with the Cast and ArgMax single operators."""),
    code(SETUP),
    code("""at.init(); res = at.request_resources(0)
model = at.load_model(at.assets.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
at.copy_to_device(at.preprocess("../data/images/coffee.png"), inputs, 0, res, d)
_ = at.execute(model, inputs, outputs)"""),
    code("""out = outputs.buffers[0]
host_ptr, ret = acl.rt.malloc_host(out.size)
ret = acl.rt.memcpy(host_ptr, out.size, out.ptr, out.size, 2)      # 2 = ACL_MEMCPY_DEVICE_TO_HOST
dims, ret = acl.mdl.get_cur_output_dims(d.model_desc, 0)
result = np.frombuffer(acl.util.ptr_to_bytes(host_ptr, out.size), dtype=np.float32).reshape(dims["dims"])
acl.rt.free_host(host_ptr)
print(result.shape, "sum %.3f" % result.sum())     # already probabilities: the model ends in softmax
vals = result.flatten()
top_k = vals.argsort()[-1:-6:-1]
print("======== top5 inference results: =============")
for j in top_k:
    print("[%d]: %f" % (j, vals[j]))"""),
    code("""labels = at.assets.labels()
top = at.top_k(at.unpack_outputs(d, outputs, res).arrays[0], 5, labels)
from acl_teach.widgets import Top5View
Top5View(top, image="../data/images/coffee.png")"""),
    md("""## On the device: Cast + ArgMaxD (单算子)
The vpc sample post-processes on the NPU: cast the fp32 scores to fp16, then ArgMaxD over dimension 0."""),
    code("""import tempfile
acl.op.set_model_dir(tempfile.gettempdir())      # where ATC --singleop models would live
src_desc = acl.create_tensor_desc(0, [1000], 2)   # ACL_FLOAT, ND
half_desc = acl.create_tensor_desc(1, [1000], 2)  # ACL_FLOAT16
idx_desc = acl.create_tensor_desc(3, [1], 2)      # ACL_INT32
half_ptr, _ = acl.rt.malloc(2000, 0); idx_ptr, _ = acl.rt.malloc(4, 0)
half_buf, idx_buf = acl.create_data_buffer(half_ptr, 2000), acl.create_data_buffer(idx_ptr, 4)
src_buf = acl.mdl.get_dataset_buffer(outputs.dataset, 0)
print("cast ->", acl.op.cast(src_desc, src_buf, half_desc, half_buf, 0, res.stream))
attr = acl.op.create_attr(); acl.op.set_attr_int(attr, "dimension", 0)
print("ArgMaxD ->", acl.op.execute_v2("ArgMaxD", [half_desc], [half_buf], [idx_desc], [idx_buf], attr, res.stream))
print("synchronize ->", acl.rt.synchronize_stream(res.stream))
host_ptr, _ = acl.rt.malloc_host(4)
acl.rt.memcpy(host_ptr, 4, idx_ptr, 4, 2)
print("label of classification result:", np.frombuffer(acl.util.ptr_to_bytes(host_ptr, 4), np.int32)[0])"""),
    code("""acl.rt.free_host(host_ptr); acl.op.destroy_attr(attr)
for t in (src_desc, half_desc, idx_desc): acl.destroy_tensor_desc(t)
acl.destroy_data_buffer(half_buf); acl.destroy_data_buffer(idx_buf); acl.rt.free(half_ptr); acl.rt.free(idx_ptr)"""),
    md("## Exercise\nGive the top-5 class indices, best first."),
    code("""print(lab.check_top5(vals.argsort()[-5:], vals))     # ascending: a typical mistake
lab.check_top5(vals.argsort()[-1:-6:-1], vals)"""),
    code("""at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())"""),
]

NOTEBOOKS["08_release_and_leaks"] = [
    md("""# 08 · Releasing in order, and what a leak looks like (资源释放)
**You will be able to:** release every resource in the documented order and read the simulator's
ledger (资源台账) and leak report."""),
    code(SETUP),
    code("""at.init(); res = at.request_resources(0)
model = at.load_model(at.assets.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
from acl_teach.widgets import LedgerView
ledger = LedgerView()
print(ledger)"""),
    md("""## A leak
Release the datasets and the device but forget the model and its desc:"""),
    code("""at.release_dataset(inputs); at.release_dataset(outputs)
at.release_resources(res)
ledger.refresh(after_release=True)
print(ledger)"""),
    md("With explanations on (`lab.setup(quiet=False)`), `acl.finalize()` on the simulator prints this report to stderr."),
    code("""acl.mdl.destroy_desc(d.model_desc)
rec = at.finalize()
print(lab.ledger_summary())"""),
    md("""## The documented order
datasets' buffers → datasets → memory → model → desc → stream → context → device → finalize."""),
    code("""print("\\n".join(lab.RELEASE_ORDER))"""),
    md("## Exercise\nGive a release order; the checker tells you what would break."),
    code("""print(lab.check_release_order(["acl.rt.reset_device", "acl.rt.destroy_context"]))
lab.check_release_order(lab.RELEASE_ORDER)"""),
    code(END),
]

NOTEBOOKS["09_async_and_callbacks"] = [
    md("""# 09 · `execute_async`, streams and callbacks (异步推理与回调)
**You will be able to:** queue work on a stream, know when its results are valid (after
`synchronize_stream`), and run the official callback-thread pattern."""),
    code(SETUP),
    code("""at.init(); res = at.request_resources(0)
model = at.load_model(at.assets.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
at.copy_to_device(at.preprocess("../data/images/chelsea.png"), inputs, 0, res, d)
ret = acl.rt.memset(outputs.buffers[0].ptr, 4000, 0, 4000)"""),
    code("""ret = acl.mdl.execute_async(model.model_id, inputs.dataset, outputs.dataset, res.stream)
print("execute_async ->", ret)
print("before synchronize, top class:", int(at.unpack_outputs(d, outputs, res).arrays[0].argmax()), "(zeros)")
print("synchronize_stream ->", acl.rt.synchronize_stream(res.stream))
print("after synchronize, top class:", int(at.unpack_outputs(d, outputs, res).arrays[0].argmax()))"""),
    md("""## Callbacks
A callback runs in a thread that subscribed to the stream and loops on `process_report`:
`start_thread` → `subscribe_report` → `launch_callback` … → `synchronize_stream` → `unsubscribe_report` → `stop_thread`."""),
    code("""print(acl.rt.launch_callback(print, ["hello"], 1, res.stream), "<- 107015: no thread subscribed")
cb = at.run_callbacks(res, lambda launch: [launch(name) for name in ("first", "second", "third")])
print(cb.delivered)
print(cb.code())"""),
    md("## Exercise\nThe callbacks must arrive in the order they were queued."),
    code("""print(lab.check_callback_results(["second", "first", "third"], ["first", "second", "third"]))
lab.check_callback_results(cb.delivered, ["first", "second", "third"])"""),
    code("""at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())"""),
]

NOTEBOOKS["10_dynamic_batch"] = [
    md("""# 10 · Dynamic batch (动态 Batch)
**You will be able to:** convert with batch gears, find the hidden `ascend_mbatch_shape_data` input,
choose a gear, and classify 1, 2, 4 or 8 photos in one execute."""),
    code(SETUP),
    code("""om = at.assets.dynamic_batch_om()     # atc ... --input_shape=data:-1,3,224,224 --dynamic_batch_size=1,2,4,8
at.init(); res = at.request_resources(0)
model = at.load_model(om)
d = at.query_desc(model)
print(d.table())"""),
    md("""`get_input_dims` shows -1 for the batch; the sizes are the largest gear's; the extra input is where
`set_dynamic_batch_size` writes the chosen gear."""),
    code("""inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
photos = at.assets.sample_images()
for batch in (1, 2, 4, 8):
    x = np.concatenate([at.preprocess(photos[i % len(photos)]) for i in range(batch)])
    at.copy_to_device(x, inputs, 0, res, d)
    at.set_batch(model, d, inputs, batch)
    at.execute(model, inputs, outputs)
    out = at.unpack_outputs(d, outputs, res).arrays[0]
    print(batch, "->", out.shape, "top-1 per image:", out.argmax(axis=1).tolist())"""),
    code("""index, _ = acl.mdl.get_input_index_by_name(d.model_desc, "ascend_mbatch_shape_data")
print("gear 3 ->", acl.mdl.set_dynamic_batch_size(model.model_id, inputs.dataset, index, 3))"""),
    md("## Exercise\nWhich batch sizes can this model run?"),
    code("""print(lab.check_gear(3, d))
lab.check_gear(4, d)"""),
    code("""at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
at.release_resources(res); at.finalize()
print(lab.ledger_summary())"""),
]

NOTEBOOKS["11_full_pipeline"] = [
    md("""# 11 · The full pipeline: stepper, Session, CLI
**You will be able to:** run the whole flow step by step with the pipeline stepper, as one `Session`,
and from the command line — and run this notebook on an Atlas board unchanged."""),
    code(SETUP),
    code("""from acl_teach.widgets import PipelineStepper
stepper = PipelineStepper(image="../data/images/coffee.png")
print(stepper.click(6))          # refused: too early
print(stepper.message)"""),
    code("""for i in range(14):
    stepper.click(i)
print(stepper.records["topk"].sample_format())
stepper"""),
    code("""with at.Session() as s:
    for photo in at.assets.sample_images():
        r = s.classify(photo)
        print(photo.split("/")[-1], [(p.index, p.label.split(",")[0]) for p in r.topk.top[:3]])"""),
    md("""## On the command line
```
acl-teach classify data/images --top 5 [--async] [--trace] [--json]
```"""),
    code("""import subprocess, sys, json
out = subprocess.run([sys.executable, "-m", "acl_teach", "classify", "../data/images/coffee.png", "--json",
                      "--backend", "sim"], capture_output=True, text=True).stdout
row = json.loads(out)
print(row["image"].split("/")[-1], row["top"][0])"""),
    md("""## On an Atlas board
Install acl-teach on the board (`pip install -e .`), source CANN's `set_env.sh`, and open the same
notebook: `lab.setup()` finds the real `acl` and every cell runs on the NPU."""),
    md("## Exercise\nWhat did the session predict for the espresso photo? Check the top-5."),
    code("""with at.Session() as s:
    r = s.classify("../data/images/coffee.png")
scores = np.zeros(1000); scores[[p.index for p in r.topk.top]] = [p.prob for p in r.topk.top]
lab.check_top5([p.index for p in r.topk.top], scores)"""),
    code(END),
]

NOTEBOOKS["12_model_desc_explorer"] = [
    md("""# 12 · The model desc explorer on several models
**You will be able to:** read any model's desc — the default, a dynamic-batch one, a two-input one,
and ResNet-50 if you fetched it (`acl-teach fetch resnet50`)."""),
    code(SETUP),
    code("""import onnx, os, tempfile
from onnx import TensorProto, helper
from acl_teach import atc
tmp = tempfile.mkdtemp()
a = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 8])
b = helper.make_tensor_value_info("mask", TensorProto.FLOAT, [1, 8])
outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 8]) for n in ("sum", "product")]
g = helper.make_graph([helper.make_node("Add", ["image", "mask"], ["sum"], name="add"),
                       helper.make_node("Mul", ["image", "mask"], ["product"], name="mul")], "two", [a, b], outs)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]); m.ir_version = 8
onnx.save(m, os.path.join(tmp, "two.onnx"))
two_om, _ = atc.build(atc.parse_flags([f"--model={tmp}/two.onnx", "--framework=5", f"--output={tmp}/two",
                                       "--soc_version=Ascend310", "--input_fp16_nodes=mask"]))
models = {"default": at.assets.default_om(), "dynamic batch": at.assets.dynamic_batch_om(), "two inputs": two_om}
if at.assets.resnet50_onnx():
    models["resnet50"] = at.assets.best_om()
print(list(models))"""),
    code("""at.init(); res = at.request_resources(0)
loaded = {name: at.load_model(path) for name, path in models.items()}
descs = {name: at.query_desc(m) for name, m in loaded.items()}
for name, d in descs.items():
    print(f"== {name}")
    print(d.table())"""),
    code("""from acl_teach.widgets import DescExplorer, DimsView
explorer = DescExplorer(descs["two inputs"])
explorer.choice.value = ("input", 1)
print(explorer)
explorer"""),
    code("""DimsView(descs["dynamic batch"])"""),
    md("## Exercise\nRead the two-input model's desc: how many inputs and outputs, and how many bytes is input 0?"),
    code("""print(lab.check_desc_answer({"inputs": 2, "outputs": 2, "input_bytes": 16}, descs["two inputs"]))
lab.check_desc_answer({"inputs": 2, "outputs": 2, "input_bytes": 32}, descs["two inputs"])"""),
    code("""for name in loaded:
    at.unload_model(loaded[name], descs[name])
at.release_resources(res); at.finalize()
print(lab.ledger_summary())"""),
]


def build(name: str, cells: list, execute: bool = True) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = cells
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    path = os.path.join(OUT, f"{name}.ipynb")
    if execute:
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": OUT}}).execute()
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = [o for o in cell.outputs if o.get("name") != "stderr"]
    for i, cell in enumerate(nb.cells):  # stable ids and no timestamps: diffs show only real changes
        cell.id = f"{name[:2]}-{i:02d}"
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    return path


def main(names):
    os.makedirs(OUT, exist_ok=True)
    for name in names or NOTEBOOKS:
        print("building", build(name, NOTEBOOKS[name]))


if __name__ == "__main__":
    main(sys.argv[1:])
