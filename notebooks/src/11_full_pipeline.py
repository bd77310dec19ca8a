# %% [markdown] tags=["lang:en"]
# # 11 · The full pipeline: stepper, Session, CLI — and running on a board
# **Why.** "The Ascend documentation needs one page that ties all the steps together," the learner who built an
# app on an Atlas 200I DK A2 wrote, and then listed his own eleven steps: import, initialise and get the
# resources, load, query the model, preprocess, turn data into pointers, copy to the device, build the datasets,
# execute, copy back, unpack. The official flow has the same shape ([pyACL call flow](https://www.hiascend.com/doc_center/source/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_0005.html)). This notebook
# is that page three times over: as a stepper you click in order, as one `Session`, and as a command — and it
# says exactly what changes when the same notebook runs on real hardware.
#
# **You will be able to:** run the whole flow step by step and see what each step requires first, classify
# several photos with one `Session`, call the same from the command line, map every step to its pyACL calls, and
# set up a board so that these notebooks run there.

# %% [markdown] tags=["lang:zh"]
# # 11 · 完整流程：单步器、Session、命令行——以及在开发板上运行
# **为什么。** 那位在 Atlas 200I DK A2 上开发应用的学习者写道：“昇腾文档需要一个统合所有流程的页面”，并列出了他自己的十一个步骤：导入、
# 初始化并获取资源、加载模型、查询模型信息、预处理、数据转指针、复制到 Device、构造 Dataset、推理、复制回来、取出数据。官方的流程也是这个样子
# （[pyACL 接口调用流程](https://www.hiascend.com/doc_center/source/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_0005.html)）。本节就是那样一个页面，而且有三种形式：按顺序点击的单步器、一个 `Session`、一条命令——并准确说明同一个
# notebook 在真实硬件上运行时有哪些不同。
#
# **学完本节你将能够：** 逐步运行完整流程并看到每一步需要什么前提，用一个 `Session` 对多张照片分类，在命令行中完成同样的事，把每一步对应到它的
# pyACL 调用，并把开发板配置好，让这些 notebook 在板上运行。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
import atexit
if acl.init() == 0:                  # one acl.init per kernel (a process); Run All again: 100002, still initialised
    atexit.register(acl.finalize)    # and its one acl.finalize, when the kernel exits (notebook 01 says why)

# %% [markdown] tags=["lang:en"]
# ## The pipeline stepper
# Fourteen buttons for the thirteen steps (step 5 has two: the input and the output dataset). A step that is clicked too early is refused with the reason — the copy needs
# the input buffers, the execute needs the copy — which is the order of the whole series in one widget. The first
# stepper is yours to click from step 1; the second is clicked by code.
# The cell above already called [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) once for this kernel (and registered [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) for its exit), so
# the stepper's step 1 answers 100002 and its step 13 leaves the finalize to the kernel's exit: one of each per
# process (notebook 01).

# %% [markdown] tags=["lang:zh"]
# ## 流程单步器
# 十三个步骤共十四个按钮（第 5 步分为两个：输入数据集和输出数据集）。过早点击某一步会被拒绝并说明原因——复制需要输入缓冲，推理需要先复制——整个系列的顺序就在这一个控件里。第一个单步器
# 留给你从第 1 步开始点击；第二个由代码点击。
# 上面的单元格已经为本内核调用过一次 [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)（并登记了退出时执行的 [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html)），所以单步器的第 1 步返回 100002，第 13 步把
# finalize 留给内核退出时执行：每个进程各一次（第 01 节）。

# %%
from acl_teach.widgets import PipelineStepper
stepper = PipelineStepper(image=at.models.image("coffee.png"))
print(stepper.click(6))          # refused: too early
print(stepper.message)
stepper                          # yours to click, from step 1

# %%
clicked = PipelineStepper(image=at.models.image("coffee.png"))
for i in range(14):
    clicked.click(i)
print(clicked.records["topk"].sample_format())
print(clicked.message)

# %% [markdown] tags=["lang:en"]
# ## Every step and its pyACL calls
# | step | pyACL calls (official page at first mention) |
# |---|---|
# | init | [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) |
# | resources | [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html), [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html), `acl.rt.create_stream`, [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) |
# | load | [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html) (or `_from_mem`, `_with_mem`, after [`acl.mdl.query_size`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0149.html)) |
# | desc | `acl.mdl.create_desc`, `get_desc`, [`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html), … |
# | datasets | [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html), [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) |
# | copy | [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html), [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) |
# | execute | [`acl.mdl.execute`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0154.html) or [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0156.html) + [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) |
# | unpack | [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html), `memcpy`, [`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html), [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html) |
# | release | `acl.destroy_data_buffer`, `acl.mdl.destroy_dataset`, `acl.rt.free`, `acl.mdl.unload`, `acl.mdl.destroy_desc`, [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html), [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html), [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html) |
# | finalize | [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) |
#
# The calls without a link here are linked to their own pages where notebooks 01–10 first use them. Each record of the stepper and of
# the step API prints the exact calls it made with `.code()`.

# %% [markdown] tags=["lang:zh"]
# ## 每一步及其 pyACL 调用
# | 步骤 | pyACL 调用（首次出现处链接官方页面） |
# |---|---|
# | 初始化 | [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) |
# | 运行管理资源 | [`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)、[`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md)、`acl.rt.create_stream`、[`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) |
# | 加载模型 | [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md)（或 `_from_mem`、`_with_mem`，先调用 [`acl.mdl.query_size`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0149.html)） |
# | 模型描述 | `acl.mdl.create_desc`、`get_desc`、[`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html) …… |
# | 数据集 | [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)、[`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html)、[`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) |
# | 内存复制 | [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html)、[`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) |
# | 推理 | [`acl.mdl.execute`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0145.html)，或 [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0147.html) + [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) |
# | 取出结果 | [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html)、`memcpy`、[`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html)、[`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html) |
# | 释放 | `acl.destroy_data_buffer`、`acl.mdl.destroy_dataset`、`acl.rt.free`、`acl.mdl.unload`、`acl.mdl.destroy_desc`、[`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html)、[`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、[`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html) |
# | 去初始化 | [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) |
#
# 这里没有链接的调用，在第 01–10 节首次使用它们的地方都链接了各自的页面。单步器和分步 API 的每条记录都能用 `.code()` 打印出它实际做过的调用。

# %% [markdown] tags=["lang:en"]
# ## One `Session` for several photos
# `at.Session` opens everything once and classifies photo after photo, releasing in order at the end (even when a
# step fails). Its model is `at.models.best_om()`: the default EfficientNet-Lite0, or — after
# `acl-teach fetch resnet50` — the quick-start ONNX ResNet-50 (fp32 input of 602,112 bytes, logits out, its own
# preprocessing), so after a fetch the lines below show ResNet-50's answers.

# %% [markdown] tags=["lang:zh"]
# ## 一个 `Session` 处理多张照片
# `at.Session` 一次性打开所有资源，逐张照片分类，最后按顺序释放（即使中途某步失败）。它使用的模型是 `at.models.best_om()`：默认的
# EfficientNet-Lite0，或者——执行 `acl-teach fetch resnet50` 之后——快速入门样例的 ONNX ResNet-50（fp32 输入 602,112 字节，输出 logits，
# 有自己的预处理），所以下载之后下面几行显示的是 ResNet-50 的答案。

# %%
with at.Session() as s:
    for photo in at.models.sample_images():
        r = s.classify(photo)
        print(photo.split("/")[-1], [(p.index, p.label.split(",")[0]) for p in r.topk.top[:3]])

# %% [markdown] tags=["lang:en"]
# ## On the command line
# ```
# acl-teach classify data/images --top 5 [--async] [--trace] [--json] [--backend sim|npu|auto]
# ```
# `--trace` prints every pyACL call, `--json` one object per image per line. `--backend auto` (the default)
# picks real pyACL when it is importable, like `lab.setup()`.

# %% [markdown] tags=["lang:zh"]
# ## 命令行
# ```
# acl-teach classify data/images --top 5 [--async] [--trace] [--json] [--backend sim|npu|auto]
# ```
# `--trace` 打印每个 pyACL 调用，`--json` 每张图片输出一行 JSON。`--backend auto`（默认）与 `lab.setup()` 一样，能导入真实 pyACL 时就使用它。

# %%
import subprocess, sys, json
out = subprocess.run([sys.executable, "-m", "acl_teach", "classify", at.models.image("coffee.png"), "--json",
                      "--backend", "auto"], capture_output=True, text=True).stdout
row = json.loads(out)
print(row["image"].split("/")[-1], row["top"][0])

# %% [markdown] tags=["lang:en"]
# ## On an Atlas board
# 1. Install CANN (the toolkit, or the `nnrt` runtime package) and set its environment before Python starts:
#    `. /usr/local/Ascend/ascend-toolkit/set_env.sh` (as root; `${HOME}/Ascend/ascend-toolkit/set_env.sh` for a
#    user install; `…/nnrt/set_env.sh` for nnrt). Without it `import acl` fails. `nnrt` has no `atc`: with it
#    alone, convert the models on a machine with the toolkit and copy the OMs.
# 2. Use a Python that pyACL's `acl.so` supports — the guide quoted in these notebooks gives 3.7.5–3.9.2, so
#    Python 3.9 (acl-teach needs ≥ 3.9); newer CANN releases list their own range.
# 3. Install acl-teach (`pip install -e .` in a checkout) and run `acl-teach lab` (`--lang zh` for 中文).
#    `lab.setup()` prints "real pyACL on an Ascend NPU" and the SoC, e.g. `Ascend310B4` on an Atlas 200I DK A2.
# 4. The first `at.models.default_om()` runs CANN's `atc` with `--soc_version` set to that SoC (a few minutes), then
#    caches the OM; notebook 02 runs `atc` itself.
#
# Then every code cell runs as on the simulator. What differs: addresses and timings; `query_size` and other
# numbers the real `atc` decides; the few error codes labelled *simulator:*; the run mode (ACL_DEVICE on the board,
# where `malloc_host` is device memory); and the simulator's extras (ledger, leak report, warnings), which the
# cells skip there.

# %% [markdown] tags=["lang:zh"]
# ## 在 Atlas 开发板上
# 1. 安装 CANN（toolkit，或运行时软件包 `nnrt`），并在启动 Python 之前设置环境变量：`. /usr/local/Ascend/ascend-toolkit/set_env.sh`
#    （root 用户安装时；非 root 用户为 `${HOME}/Ascend/ascend-toolkit/set_env.sh`；nnrt 为 `…/nnrt/set_env.sh`）。否则 `import acl` 会失败。
#    `nnrt` 不带 `atc`：只装它时，请在装有 toolkit 的机器上转换模型，再把 OM 复制过来。
# 2. 使用 pyACL 的 `acl.so` 支持的 Python——本系列引用的指南给出的范围是 3.7.5～3.9.2，所以用 Python 3.9（acl-teach 需要 ≥ 3.9）；更新的 CANN
#    版本会给出各自的范围。
# 3. 安装 acl-teach（在源码目录中 `pip install -e .`），运行 `acl-teach lab`（中文版加 `--lang zh`）。`lab.setup()` 会打印
#    “real pyACL on an Ascend NPU”和芯片名，例如 Atlas 200I DK A2 上是 `Ascend310B4`。
# 4. 第一次调用 `at.models.default_om()` 时，会用 CANN 的 `atc` 以该芯片名为 `--soc_version` 转换模型（需要几分钟），之后缓存 OM；第 02 节
#    自己调用 `atc`。
#
# 之后每个代码单元格都像在模拟器上一样运行。不同之处：地址和耗时；`query_size` 等由真实 `atc` 决定的数字；少数标有“模拟器：”的错误码；运行模式
# （开发板上是 ACL_DEVICE，`malloc_host` 得到的是 Device 内存）；以及模拟器的附加功能（资源台账、泄漏报告、警告），这些单元格在板上会跳过。

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points): the loop of a pipeline
# A `Session` pays the one-off steps once and then repeats only the per-image part — that split is what makes a
# pipeline fast (notebook 06 measured it). Write that per-image part in raw pyACL:
# `classify_all(model_id, inputs, outputs, desc, photos)` gets a loaded model, its two step-API datasets (raw handles
# `.dataset`; the buffers' addresses via [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md) and [`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md)) and its
# desc, and a list of photo paths. For each photo: preprocess on the host (`at.preprocess(path)`, notebook 05), copy
# into the input buffer (`acl.rt.memcpy`, kind 1), `acl.mdl.execute`, copy the output back (`malloc_host`,
# `memcpy` kind 2, `ptr_to_bytes`, `free_host`) and take the top-1 class; return the list of top-1 classes, in the
# photos' order. No device, stream or model is opened inside: the checker fails a function that loads per photo,
# counts one copy in, one execute and one copy out per photo, and compares with its own run; the hidden test uses
# another list of photos.
#
# The calls: [`acl.get_data_buffer_size_v2`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0020.html), [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md).

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）：流水线的循环
# `Session` 只付一次一次性步骤的代价，之后只重复每张图片的那一部分——正是这种划分让流水线变快（第 06 节测过）。用原始 pyACL 写出这每张图片的部分：
# `classify_all(model_id, inputs, outputs, desc, photos)` 接收已加载的模型、它的两个分步 API 数据集（原始句柄为 `.dataset`；缓冲地址用
# [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md) 和 [`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md) 取得）、它的 desc，以及照片路径列表。对每张照片：在 Host 上预处理（`at.preprocess(path)`，
# 第 05 节），复制进输入缓冲（`acl.rt.memcpy`，kind 1），`acl.mdl.execute`，把输出拷回（`malloc_host`、kind 2 的 `memcpy`、`ptr_to_bytes`、
# `free_host`），取 top-1 类别；按照片顺序返回 top-1 类别列表。函数里不打开 Device、Stream 或模型：检查器会判每张照片都加载模型的函数不通过，
# 会数每张照片是否正好一次复制、一次推理、一次拷回，并与自己的运行结果比较；隐藏测试使用另一组照片。
#
# 用到的调用：[`acl.get_data_buffer_size_v2`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0020.html)、[`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)。

# %% tags=["solution", "grade_id:nb11-loop"]
from acl_teach.lab import check_ret

def classify_all(model_id, inputs, outputs, desc, photos):
    """Per photo: preprocess, copy in, execute, copy back, top-1; the model and datasets are reused."""
    ### BEGIN SOLUTION
    in_buf = acl.mdl.get_dataset_buffer(inputs.dataset, 0)
    in_ptr, in_size = acl.get_data_buffer_addr(in_buf), acl.get_data_buffer_size_v2(in_buf)
    out_buf = acl.mdl.get_dataset_buffer(outputs.dataset, 0)
    out_ptr, out_size = acl.get_data_buffer_addr(out_buf), acl.get_data_buffer_size_v2(out_buf)
    best = []
    for path in photos:
        data = at.preprocess(path).tobytes()            # alive while its pointer is used
        check_ret("acl.rt.memcpy", acl.rt.memcpy(in_ptr, in_size, acl.util.bytes_to_ptr(data), len(data), 1))
        check_ret("acl.mdl.execute", acl.mdl.execute(model_id, inputs.dataset, outputs.dataset))
        host, ret = acl.rt.malloc_host(out_size)
        check_ret("acl.rt.malloc_host", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(host, out_size, out_ptr, out_size, 2))
        scores = np.frombuffer(acl.util.ptr_to_bytes(host, out_size), np.float32)
        check_ret("acl.rt.free_host", acl.rt.free_host(host))
        best.append(int(scores.argmax()))
    return best
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb11-loop-test"]
res = at.request_resources(0)                      # the kernel is initialised (first cell)
model = at.load_model(at.models.default_om()); d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
try:
    photos = [at.models.image(p) for p in ("coffee.png", "chelsea.png")]
    feedback = lab.check_classify_loop(classify_all, model.model_id, inputs, outputs, d, photos)
    print(feedback)
    assert feedback, feedback
    ### BEGIN HIDDEN TESTS
    photos = [at.models.image(p) for p in ("rocket.jpg", "coffee.png", "chelsea.png", "rocket.jpg")]
    feedback = lab.check_classify_loop(classify_all, model.model_id, inputs, outputs, d, photos)
    assert feedback, feedback
    ### END HIDDEN TESTS
finally:
    at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
    at.release_resources(res)

# %% [markdown] tags=["lang:en"]
# ## Summary
# * The whole flow is thirteen steps with fixed prerequisites; the stepper, `Session` and `acl-teach classify` run
#   the same calls, and every record shows them with `.code()`.
# * `Session` uses `best_om()`: ResNet-50 after `acl-teach fetch resnet50`, else the default; notebooks 03–10 always
#   use the default.
# * On a board: CANN installed, `set_env.sh` sourced, a Python pyACL supports; models are then built by CANN's `atc`
#   for the board's SoC, and the cells run unchanged.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 完整流程共十三步，每一步都有固定的前提；单步器、`Session` 和 `acl-teach classify` 调用的是同一组接口，每条记录都能用 `.code()` 显示它们。
# * `Session` 使用 `best_om()`：执行过 `acl-teach fetch resnet50` 时为 ResNet-50，否则为默认模型；第 03–10 节始终使用默认模型。
# * 在开发板上：安装 CANN，执行 `set_env.sh`，使用 pyACL 支持的 Python；之后模型由 CANN 的 `atc` 为板上的芯片转换，各单元格不加修改即可运行。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. The stepper refuses "copy image to device" as step 2. What must exist first?
# 2. You fetched ResNet-50. Which notebooks now show different numbers, and which do not?
# 3. What two things must be true of the shell and the Python on a board before `import acl` works?
# 4. Which `--soc_version` does an OM for the Atlas 200I DK A2 need, and how can a program find it?
#
# **Next →** [12_model_desc_explorer](12_model_desc_explorer.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 单步器拒绝把“复制图片到 Device”作为第 2 步。之前必须先有什么？
# 2. 你下载了 ResNet-50。哪些 notebook 的数字会变化，哪些不会？
# 3. 在开发板上，`import acl` 能成功之前，Shell 和 Python 必须满足哪两点？
# 4. 为 Atlas 200I DK A2 转换 OM 需要哪个 `--soc_version`？程序如何查到它？
#
# **下一节 →** [12_model_desc_explorer](12_model_desc_explorer.ipynb)

# %%
print(lab.ledger_summary())
