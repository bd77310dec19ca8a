# %% [markdown] tags=["lang:en"]
# # 02 · Converting and loading an offline model (离线模型)
# **Why.** "A network model from an open-source framework such as Caffe or TensorFlow cannot run inference on
# the Ascend AI processor directly", says the guide: it must first be compiled by **ATC** (Ascend Tensor
# Compiler) into an *offline model*, an `.om` file built for one specific chip. Only then can pyACL load it —
# and it can load it four ways, letting AscendCL manage the model's memory or managing the *work memory*
# (工作内存, scratch space for the run) and *weight memory* (权值内存) yourself, sized with `query_size`
# ([CANN 文档速递 09](https://www.hiascend.com/developer/techArticles/20220527-4)). Loading is also the first place a wrong file, a wrong chip or a wrong path
# shows up as an error code.
#
# **You will be able to:** run ATC on an ONNX model (the emulator here, CANN's `atc` on a board), load the
# `.om` from a file or from memory, with system-managed or your own work/weight memory, size that memory with
# `query_size`, unload in the right order, and read the codes loading returns.

# %% [markdown] tags=["lang:zh"]
# # 02 · 转换并加载离线模型
# **为什么。** 指南写道：“对于开源框架的网络模型（如 Caffe、TensorFlow 等），不能直接在昇腾 AI 处理器上运行推理”，
# 必须先用 **ATC**（Ascend Tensor Compiler）把它编译成*离线模型*——一个为某一款芯片构建的 `.om` 文件。之后 pyACL 才能加载它，
# 而且有四种加载方式：由 AscendCL 管理模型所需内存，或者由你自己管理*工作内存*（推理过程中的临时数据）和*权值内存*，
# 其大小用 `query_size` 查询（[CANN 文档速递 09 期](https://www.hiascend.com/developer/techArticles/20220527-4)）。文件不对、芯片不对、路径不对，也都是在加载这一步第一次以
# 错误码的形式出现。
#
# **学完本节你将能够：** 对 ONNX 模型运行 ATC（这里是模拟器，开发板上是 CANN 的 `atc`），从文件或内存加载 `.om`，由系统管理或
# 自己管理工作内存/权值内存，用 `query_size` 确定内存大小，按正确顺序卸载模型，并读懂加载时返回的错误码。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# ## About the model
# The official ResNet-50 Python sample converts a **Caffe** model:
# ```
# atc --model=caffe_model/resnet50.prototxt --weight=caffe_model/resnet50.caffemodel --framework=0 \
#     --output=model/resnet50 --soc_version=Ascend310 --input_format=NCHW \
#     --input_fp16_nodes=data --output_type=FP32 --out_nodes=prob:0
# ```
# This series ships **EfficientNet-Lite0 as ONNX** and converts it with
# `--framework=5 --input_fp16_nodes=data --output_type=FP32`. Those two flags make its input/output contract
# the sample's — input `data`, fp16 `[1, 3, 224, 224]` (301,056 bytes), output fp32 × 1000 (4,000 bytes) — so
# the buffer sizes, data types and call sequence of the sample apply unchanged. It is not the sample's model:
# no Caffe weights, no `--out_nodes`, other output names, other preprocessing (notebook 05). ONNX needs no
# `--input_format`; its input shape is in the file.

# %% [markdown] tags=["lang:zh"]
# ## 关于模型
# 官方 ResNet-50 Python 样例转换的是 **Caffe** 模型：
# ```
# atc --model=caffe_model/resnet50.prototxt --weight=caffe_model/resnet50.caffemodel --framework=0 \
#     --output=model/resnet50 --soc_version=Ascend310 --input_format=NCHW \
#     --input_fp16_nodes=data --output_type=FP32 --out_nodes=prob:0
# ```
# 本系列随包提供 **ONNX 格式的 EfficientNet-Lite0**，转换参数为 `--framework=5 --input_fp16_nodes=data --output_type=FP32`。
# 这两个参数让它的输入/输出约定与样例一致——输入 `data`，fp16 `[1, 3, 224, 224]`（301,056 字节），输出 fp32 × 1000（4,000 字节）——
# 因此样例中的缓冲大小、数据类型和调用顺序都原样适用。但它不是样例的模型：没有 Caffe 权重，没有 `--out_nodes`，输出名称不同，
# 预处理也不同（见第 05 节）。ONNX 模型不需要 `--input_format`，输入形状已写在文件里。

# %% [markdown] tags=["lang:en"]
# ## ATC: ONNX → OM
# The flags: `--model` the source file, `--framework=5` ONNX (0 is Caffe, 3 TensorFlow), `--output` the OM path
# without `.om`, `--soc_version` the chip the OM will run on — what [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) returns
# there (`Ascend310B4` on an Atlas 200I DK A2). **On the simulator** the cell runs `acl-teach atc`, an emulator
# that takes the same flags and writes a simulator OM (a description plus the ONNX graph). **On a board** the
# same cell runs CANN's own `atc` with the same flags, which compiles for the real chip:
# ```
# atc --model=efficientnet_lite0.onnx --framework=5 --output=efficientnet_lite0 \
#     --soc_version=Ascend310B4 --input_fp16_nodes=data --output_type=FP32
# ```
# The two kinds of OM are not interchangeable: a board refuses the emulator's file and the simulator refuses
# a real one (`at.models.*` therefore builds each model with the converter of the active backend).

# %% [markdown] tags=["lang:zh"]
# ## ATC：ONNX → OM
# 各参数：`--model` 源模型文件，`--framework=5` 表示 ONNX（0 是 Caffe，3 是 TensorFlow），`--output` 输出 OM 路径（不带 `.om`），
# `--soc_version` OM 将运行的芯片——即在那台机器上 [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) 的返回值（Atlas 200I DK A2 为 `Ascend310B4`）。
# **在模拟器上**，下面的单元格运行 `acl-teach atc`：一个接受相同参数、生成模拟器 OM（模型描述加 ONNX 图）的模拟工具。
# **在开发板上**，同一个单元格用相同参数运行 CANN 自带的 `atc`，为真实芯片编译：
# ```
# atc --model=efficientnet_lite0.onnx --framework=5 --output=efficientnet_lite0 \
#     --soc_version=Ascend310B4 --input_fp16_nodes=data --output_type=FP32
# ```
# 两种 OM 不能混用：开发板拒绝模拟器生成的文件，模拟器也拒绝真实的 OM（所以 `at.models.*` 总是用当前后端对应的转换工具构建模型）。

# %%
import os, subprocess, sys, tempfile
from acl_teach.toolchain import assets
onnx_path = assets.default_onnx()          # the shipped EfficientNet-Lite0 ONNX file
workdir = tempfile.TemporaryDirectory()    # this kernel's own folder (removed when the kernel stops)
flags = [f"--model={onnx_path}", "--framework=5", "--output=efficientnet_lite0",
         f"--soc_version={acl.get_soc_name()}", "--input_fp16_nodes=data", "--output_type=FP32"]
atc = [sys.executable, "-m", "acl_teach", "atc"] if lab.on_simulator() else ["atc"]   # the emulator / CANN's atc
print("atc", f"--model={os.path.basename(onnx_path)}", *flags[1:])
print(subprocess.run(atc + flags, capture_output=True, text=True, cwd=workdir.name).stdout)

# %% [markdown] tags=["lang:en"]
# ## Load from a file
# [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html) reads the OM and returns `(model_id, ret)`; the system
# allocates and manages the model's memory. The id is a small integer (the first model is usually 1) that
# every later model call takes. A Context must be current: the model belongs to it, so the cell first runs
# [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) — once per kernel, with the one `acl.finalize` registered for
# the kernel's exit (notebook 01 says why) — then [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html) and
# [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html) (notebook 01).

# %% [markdown] tags=["lang:zh"]
# ## 从文件加载
# [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md) 读取 OM，返回 `(model_id, ret)`；模型所需内存由系统申请和管理。
# 模型 ID 是一个小整数（第一个模型通常为 1），之后所有模型相关调用都要用到它。加载时必须有当前 Context：模型属于这个 Context，所以单元格先调用
# [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)（每个内核一次，唯一的 `acl.finalize` 登记在内核退出时执行，原因见第 01 节），再调用 [`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html) 和 [`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md)（第 01 节）。

# %%
om_path = os.path.join(workdir.name, "efficientnet_lite0.om")
import atexit
ret = acl.init()                      # once per process: Run All again in this kernel gives 100002, still initialised
if ret == 0:
    atexit.register(acl.finalize)     # the one acl.finalize, when the kernel (the process) exits
elif ret != 100002:
    check_ret("acl.init", ret)
check_ret("acl.rt.set_device", acl.rt.set_device(0))
context, ret = acl.rt.create_context(0)
check_ret("acl.rt.create_context", ret)
model_id, ret = acl.mdl.load_from_file(om_path)
check_ret("acl.mdl.load_from_file", ret)
print("load_from_file -> model_id", model_id)

# %% [markdown] tags=["lang:en"]
# ## From memory, and with your own memory
# [`acl.mdl.load_from_mem`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0140.html) takes the *bytes* of an OM you already hold — through
# a pointer from [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) (notebook 05 explains pointers) and the
# length. Which memory depends on the run mode ([`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html), notebook 01); the pyACL page of `load_from_mem` says "Ascend
# EP形态下，model参数处需申请Host上的内存。Ascend RC形态下，model参数处需申请Device上的内存": on a PC with a card
# (ACL_HOST) host memory — the bytes object itself will do —, on a board (ACL_DEVICE, the Atlas 200I DK A2) device
# memory from `acl.rt.malloc`, into which the cell copies the file's bytes with [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html). [`acl.mdl.query_size`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0149.html) returns `(work_size, weight_size, ret)`: how much
# device memory the model needs for its work space and its weights. Allocate both with
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html) and hand them to
# [`acl.mdl.load_from_file_with_mem`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0141.html) (or `load_from_mem_with_mem`, the
# fourth way): the model then lives in memory you control, for example memory you reuse between models that
# never run at the same time.
#
# *simulator:* the sizes below are the simulator's **upper bounds** estimated from the ONNX graph (weights as
# stored in the ONNX file; work as the sum of every intermediate tensor at the largest gear, with no memory reuse); CANN's `atc` fuses operators and lays memory out
# for the real chip, so on a board `query_size` reports other, usually smaller, numbers. Always ask
# `query_size`; never hard-code the sizes.

# %% [markdown] tags=["lang:zh"]
# ## 从内存加载，以及使用自己管理的内存
# [`acl.mdl.load_from_mem`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0140.html) 接收你已经读入的 OM *字节*——通过 [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html)
# 得到的指针（第 05 节讲解指针）和长度。用哪种内存取决于运行模式（[`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html)，第 01 节）：pyACL 的 `load_from_mem` 页面写明“Ascend EP形态下，
# model参数处需申请Host上的内存。Ascend RC形态下，model参数处需申请Device上的内存”——插卡的 PC（ACL_HOST）上用 Host 内存（bytes 对象
# 本身即可），开发板（ACL_DEVICE，Atlas 200I DK A2）上用 `acl.rt.malloc` 申请的 Device 内存，单元格用 [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) 把文件内容复制进去。
# [`acl.mdl.query_size`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0149.html) 返回 `(work_size, weight_size, ret)`：
# 模型执行所需的工作内存和权值内存大小。用 [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html) 申请这两块内存，再交给
# [`acl.mdl.load_from_file_with_mem`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0141.html)（或第四种方式 `load_from_mem_with_mem`）：
# 这样模型就位于你控制的内存中，例如可以在不会同时运行的几个模型之间复用同一块内存。
#
# *模拟器：* 下面的大小是模拟器根据 ONNX 图估算的**上限**（权值按 ONNX 文件中的存储大小；工作内存按最大档位下所有中间张量之和，不做内存复用）；
# CANN 的 `atc` 会融合算子并为真实芯片规划内存，所以在开发板上 `query_size` 给出的数字不同，通常更小。请始终调用 `query_size`，
# 不要把大小写死在代码里。

# %%
data = open(om_path, "rb").read()
run_mode, ret = acl.rt.get_run_mode()
check_ret("acl.rt.get_run_mode", ret)
if run_mode == 0:     # ACL_DEVICE (RC, a board such as the 200I DK A2): the model must be in device memory
    model_mem, ret = acl.rt.malloc(len(data), 0)
    check_ret("acl.rt.malloc", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(model_mem, len(data), acl.util.bytes_to_ptr(data), len(data), 1))
else:                 # ACL_HOST (EP, a PC with a card): host memory, here the bytes object itself (keep `data`)
    model_mem = acl.util.bytes_to_ptr(data)
model_id2, ret = acl.mdl.load_from_mem(model_mem, len(data))
check_ret("acl.mdl.load_from_mem", ret)
work_size, weight_size, ret = acl.mdl.query_size(om_path)
check_ret("acl.mdl.query_size", ret)
print("work", work_size, "bytes, weights", weight_size, "bytes")
work_ptr, ret = acl.rt.malloc(work_size, 0)
check_ret("acl.rt.malloc", ret)
weight_ptr, ret = acl.rt.malloc(weight_size, 0)
check_ret("acl.rt.malloc", ret)
model_id3, ret = acl.mdl.load_from_file_with_mem(om_path, work_ptr, work_size, weight_ptr, weight_size)
check_ret("acl.mdl.load_from_file_with_mem", ret)
print("model ids:", model_id, model_id2, model_id3)

# %% [markdown] tags=["lang:en"]
# ## Unload, then free the memory you gave
# [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html) releases a model. Memory you passed to a `*_with_mem` load belongs to you and
# must outlive the model: free it with [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html) only **after** the unload. Unloading the
# same id twice is an error.
#
# *simulator:* the second unload returns 145003 (ACL_ERROR_GE_EXEC_MODEL_ID_INVALID). The public sources do not
# confirm which code real pyACL returns for a repeated unload (100011 ACL_ERROR_INVALID_MODEL_ID also exists);
# expect a non-zero `ret`, not this exact number.

# %% [markdown] tags=["lang:zh"]
# ## 先卸载，再释放你提供的内存
# [`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md) 卸载模型。传给 `*_with_mem` 加载接口的内存归你所有，必须比模型活得更久：**卸载之后**才能用
# [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html) 释放。同一个模型 ID 卸载两次是错误的。
#
# *模拟器：* 第二次卸载返回 145003（ACL_ERROR_GE_EXEC_MODEL_ID_INVALID）。公开资料无法确认真实 pyACL 对重复卸载返回哪个错误码
# （还有 100011 ACL_ERROR_INVALID_MODEL_ID）；请把它理解为“一个非 0 的 `ret`”，而不是这个确切的数字。

# %%
for m in (model_id, model_id2, model_id3):
    check_ret("acl.mdl.unload", acl.mdl.unload(m))
check_ret("acl.rt.free", acl.rt.free(work_ptr))        # only after the unload
check_ret("acl.rt.free", acl.rt.free(weight_ptr))
if run_mode == 0:
    check_ret("acl.rt.free", acl.rt.free(model_mem))   # the model's bytes in device memory (ACL_DEVICE)
print("unload again ->", acl.mdl.unload(model_id))

# %% [markdown] tags=["lang:en"]
# ## Files that are not an OM for this machine
# An ONNX file is not an OM; neither is an OM built for another chip or by the other converter. Loading one
# fails. [`acl.get_recent_err_msg`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/exception/function-get_recent_err_msg.md) returns the runtime's latest error text (on the simulator it
# explains the fix).
#
# *simulator:* loading the ONNX file returns 100013 (ACL_ERROR_PARSE_MODEL), the simulator's choice: the
# public sources do not pin the code a board returns for a file that is not an OM. A missing path is
# 145002 ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID, the graph engine's code for an invalid model path (from GE's source;
# that a board's pyACL returns exactly it here is UNCONFIRMED). The cell ends with the release of notebook 01:
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html), [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html);
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) waits for the kernel's exit.

# %% [markdown] tags=["lang:zh"]
# ## 不是本机 OM 的文件
# ONNX 文件不是 OM；为别的芯片构建的 OM、或由另一种转换工具生成的 OM，对本机来说也不是可用的 OM。加载它们会失败。
# [`acl.get_recent_err_msg`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/exception/function-get_recent_err_msg.md) 返回运行时最近一次的错误描述（在模拟器上还会说明如何解决）。
#
# *模拟器：* 加载 ONNX 文件返回 100013（ACL_ERROR_PARSE_MODEL），这是模拟器的选择：公开资料没有确定开发板对“不是 OM 的文件”
# 返回哪个错误码。路径不存在时返回 145002 ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID，这是图引擎对无效模型路径的错误码（来自 GE 的源码；开发板上的 pyACL
# 在这里是否正是返回它尚未确认，UNCONFIRMED）。单元格最后按第 01 节的方式释放：
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、[`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)；
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) 留到内核退出时执行。

# %%
bad_id, ret = acl.mdl.load_from_file(onnx_path)
print("load the ONNX file ->", ret, "|", acl.get_recent_err_msg().split(":")[0])
missing_id, ret = acl.mdl.load_from_file("/tmp/no_such_model.om")
print("load a missing file ->", ret)
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))

# %% [markdown] tags=["lang:en"]
# ## The step API: `load_model(path, how)`
# `how` is `file`, `mem`, `file_with_mem` or `mem_with_mem`; for the last two it calls `query_size`, allocates
# the work and weight memory, and `at.unload_model` frees it after the unload, in that order. The two `mem` ways
# ask the run mode first and, on a board, load from device memory as above.

# %% [markdown] tags=["lang:zh"]
# ## 分步 API：`load_model(path, how)`
# `how` 取 `file`、`mem`、`file_with_mem` 或 `mem_with_mem`；后两种会先调用 `query_size` 并申请工作内存和权值内存，
# `at.unload_model` 先卸载模型再释放这些内存。两种 `mem` 方式先查询运行模式，在开发板上像上面一样从 Device 内存加载。

# %%
res = at.request_resources(0)        # this kernel is initialised already (the cell above)
for how in ("file", "mem", "file_with_mem", "mem_with_mem"):
    m = at.load_model(om_path, how)
    print(f"{how:14s} model_id {m.model_id}")
    at.unload_model(m)
print(m.code())
_ = at.release_resources(res)

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points)
# Write `load_with_my_memory(path)`: ask `acl.mdl.query_size` how much work and weight memory the model needs,
# allocate both with `acl.rt.malloc`, load with `acl.mdl.load_from_file_with_mem`, and return the `model_id`. The
# checker runs it on an open device, checks the memory it finds behind your pointers, then unloads the model and
# frees your memory.

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）
# 编写 `load_with_my_memory(path)`：用 `acl.mdl.query_size` 查询模型需要多少工作内存和权值内存，用 `acl.rt.malloc` 分别申请，
# 再用 `acl.mdl.load_from_file_with_mem` 加载，返回 `model_id`。检查器在已打开的 Device 上运行它，检查你的指针背后的内存，
# 然后卸载模型并释放你的内存。

# %% tags=["solution", "grade_id:nb02-load-with-mem"]
def load_with_my_memory(path):
    """Load the model into device memory you allocate yourself; return its model_id."""
    ### BEGIN SOLUTION
    work_size, weight_size, ret = acl.mdl.query_size(path)
    check_ret("acl.mdl.query_size", ret)
    work_ptr, ret = acl.rt.malloc(work_size, 0)          # 0: ACL_MEM_MALLOC_HUGE_FIRST
    check_ret("acl.rt.malloc", ret)
    weight_ptr, ret = acl.rt.malloc(weight_size, 0)
    check_ret("acl.rt.malloc", ret)
    model_id, ret = acl.mdl.load_from_file_with_mem(path, work_ptr, work_size, weight_ptr, weight_size)
    check_ret("acl.mdl.load_from_file_with_mem", ret)
    return model_id
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb02-load-with-mem-test"]
check_ret("acl.rt.set_device", acl.rt.set_device(0))   # the checker uses this kernel's initialised process
feedback = lab.check_model_memory(load_with_my_memory, om_path)
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Summary
# * ATC compiles a framework model into an OM for one chip (`--soc_version`); the simulator's emulator and CANN's
#   `atc` take the same flags, but their OMs only load on their own side.
# * Four loads: from a file or from memory, with memory the system manages or work/weight memory you allocate
#   after `query_size`. Unload first, free your memory after. `load_from_mem` reads host memory on ACL_HOST and
#   device memory on ACL_DEVICE (a board).
# * Loading fails with a non-zero `ret` for a wrong or missing file; check it before using the model id.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * ATC 把框架模型编译成面向某一款芯片（`--soc_version`）的 OM；模拟器的转换工具与 CANN 的 `atc` 参数相同，但各自生成的 OM
#   只能在各自那一侧加载。
# * 四种加载方式：从文件或从内存加载，内存由系统管理，或在 `query_size` 之后自己申请工作内存/权值内存。先卸载模型，再释放自己的内存。
#   `load_from_mem` 在 ACL_HOST 上读 Host 内存，在 ACL_DEVICE（开发板）上读 Device 内存。
# * 文件不对或不存在时，加载返回非 0 的 `ret`；使用模型 ID 之前先检查它。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Which ATC flag ties an OM to one chip, and how do you find the right value on a board?
# 2. You loaded with `load_from_file_with_mem`. In which order do you unload the model and free its memory, and why?
# 3. `query_size` on the simulator and on a board give different numbers for the same ONNX file. Which one
#    should your code use?
# 4. Why does `load_from_mem` need `bytes_to_ptr` on a PC with a card, what must stay alive while it runs, and
#    which memory must the model be in on an Atlas 200I DK A2?
#
# **Next →** [03_model_desc](03_model_desc.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 哪个 ATC 参数把 OM 绑定到某一款芯片？在开发板上如何得到正确的取值？
# 2. 你用 `load_from_file_with_mem` 加载了模型。卸载模型与释放其内存的先后顺序是什么？为什么？
# 3. 同一个 ONNX 文件，`query_size` 在模拟器和开发板上给出不同的数字。你的代码应该用哪一个？
# 4. 在插卡的 PC 上，为什么 `load_from_mem` 需要 `bytes_to_ptr`？调用期间什么必须保持存活？在 Atlas 200I DK A2 上，模型必须放在哪种内存中？
#
# **下一节 →** [03_model_desc](03_model_desc.ipynb)

# %%
print(lab.ledger_summary())
workdir.cleanup()   # this kernel's converted OM goes now (a kernel that is killed would leave it behind)
