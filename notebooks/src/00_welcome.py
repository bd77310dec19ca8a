# %% [markdown] tags=["lang:en"]
# # 00 · Welcome: the pyACL inference flow in one picture
# **Why this series.** A learner who built a super-resolution app on an Atlas 200I DK A2 wrote down what
# stopped him: the official documentation has many beginner pages, but *no page that ties the whole flow
# together*; the Dataset — the structure every inference reads and writes — appears only deep inside the
# "model execution" chapter; and nobody says early that Python data must become a C pointer before
# AscendCL can use it. The official guide itself admits that its call-flow picture leaves out "memory
# allocation and release, data transfer, creating and destroying data types" because they occur at every
# step ([pyACL call flow](https://www.hiascend.com/doc_center/source/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_0005.html)). This series puts those hidden steps in order, one notebook each,
# always showing the raw `acl` calls first and then the helper that does the same.
#
# **You will be able to:** tell which backend runs your code, name the steps of whole-model inference with
# pyACL (AscendCL for Python, `import acl`), say which of these notebooks' cells run unchanged on a real
# Ascend NPU and which are simulator extras, and find your way through the series.

# %% [markdown] tags=["lang:zh"]
# # 00 · 欢迎：一张图看懂 pyACL 推理流程
# **为什么要有这个系列。** 一位在 Atlas 200I DK A2 上开发超分辨率应用的学习者记下了让他卡住的地方：官方文档有很多
# “新手教程”，却*没有一个把整个流程串起来的页面*；每次推理都要读写的数据结构 Dataset，直到“模型执行”一节才出现；
# 也没有人一开始就告诉你：Python 数据必须先变成 C 指针，AscendCL 才能使用。官方的接口调用流程图也坦言，
# 内存申请与释放、数据传输、数据类型的创建与销毁“各环节都涉及”，因此没有在图中一一标识（[pyACL 接口调用流程](https://www.hiascend.com/doc_center/source/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_0005.html)）。
# 本系列把这些隐藏的步骤按顺序讲清楚：每个 notebook 讲一步，总是先展示原始的 `acl` 调用，再展示完成同样工作的辅助函数。
#
# **学完本节你将能够：** 判断代码运行在哪个后端上；说出用 pyACL（AscendCL 的 Python 接口，`import acl`）做整网推理的各个步骤；
# 分清本系列哪些单元格可以不加修改地在真实昇腾 NPU 上运行、哪些是模拟器的附加功能；并知道去哪一节找什么。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
import atexit
if acl.init() == 0:                  # one acl.init per kernel (a process); Run All again: 100002, still initialised
    atexit.register(acl.finalize)    # and its one acl.finalize, when the kernel exits (notebook 01 says why)

# %% [markdown] tags=["lang:en"]
# ## Which backend runs this notebook?
# `lab.setup()` looks for CANN's real pyACL first. When `import acl` works (on an Atlas board or a server
# with a card, after `set_env.sh`), every cell talks to the NPU. Otherwise it registers the acl-teach
# **simulator** under the name `acl`: a CPU model of the same functions, with the same arguments, the same
# return shapes and the error codes the public sources document. The line above tells you which one you
# got. [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) names the chip the code runs on — the value you pass to ATC's
# `--soc_version` when you convert a model for it.
# The same cell calls [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) once for this kernel and registers [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html)
# for the kernel's exit: one of each per process, the rule notebook 01 explains.

# %% [markdown] tags=["lang:zh"]
# ## 这个 notebook 运行在哪个后端上？
# `lab.setup()` 首先查找 CANN 自带的真实 pyACL。若 `import acl` 可用（在 Atlas 开发板或插卡服务器上，执行
# `set_env.sh` 之后），每个单元格都直接调用 NPU；否则它把 acl-teach **模拟器**注册为 `acl`：这是同一套函数在 CPU
# 上的实现，参数相同、返回值形状相同，错误码与公开资料记载的一致。上面一行输出告诉你当前是哪一个。
# [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) 返回代码所运行芯片的名称，也就是用 ATC 为它转换模型时 `--soc_version` 要填的值。
# 同一个单元格还为本内核调用一次 [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)，并登记在内核退出时执行的 [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html)：每个进程各一次，第 01 节解释原因。

# %%
print("SoC:", acl.get_soc_name())
print("simulator" if lab.on_simulator() else "real pyACL")

# %% [markdown] tags=["lang:en"]
# ## The whole flow (推理全流程)
# ![The pyACL inference flow: init, Device/Context/Stream, load, desc, datasets, copy, execute, copy back, top-5, release in reverse, finalize](../../data/diagrams/flow_en.svg)
#
# Read it top-down to create, bottom-up to release: step 10 undoes steps 5, 3–4 and 2 in that order, and
# `acl.finalize` undoes `acl.init`. Steps 6–9 repeat for every image (the dashed arrow). The two dashed boxes
# are the alternatives later notebooks show: media data processing (DVPP decodes and resizes the JPEG in device
# memory, or AIPP inside the model does the preprocessing — notebook 14) instead of preprocessing on the host,
# and single operators on the device (notebook 07) instead of copying all 1000 scores back.
#
# The official [model execution guide](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html) lists the same seven steps for the middle part:
# create the desc, get it, prepare input and output datasets, execute, read the results, free the memory,
# destroy the data types. Each step is also one function of the *step API* (`import acl_teach as at`); each
# returns a record whose `code()` shows the pyACL calls it made, so the helper never hides the real API.

# %% [markdown] tags=["lang:zh"]
# ## 推理全流程
# ![pyACL 推理全流程：初始化、Device/Context/Stream、加载模型、模型描述、数据集、内存复制、推理、拷回、top-5、逆序释放、去初始化](../../data/diagrams/flow_zh.svg)
#
# 创建时自上而下看，释放时自下而上看：第 10 步依次撤销第 5 步、第 3–4 步和第 2 步，`acl.finalize` 撤销 `acl.init`。
# 第 6–9 步对每张图片重复一次（虚线箭头）。两个虚线框是后面几节介绍的另一种做法：用媒体数据处理代替 Host 上的预处理（DVPP 在
# Device 内存中解码、缩放 JPEG，或由模型中的 AIPP 完成预处理——第 14 节），以及在 Device 上执行单算子（第 07 节），不必把 1000 个
# 分数全部拷回。
#
# 官方[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)一节为中间部分列出了同样的七步：创建模型描述、获取模型描述、准备输入输出数据集、执行推理、
# 获取推理结果、释放内存、销毁数据类型。每一步也是“分步 API”（`import acl_teach as at`）中的一个函数；每个函数都返回一条记录，
# 记录的 `code()` 会列出它实际调用的 pyACL 接口，所以辅助函数从不把真实 API 藏起来。

# %%
steps = ["init", "request_resources", "load_model", "query_desc", "build_dataset", "copy_to_device",
         "execute", "unpack_outputs", "top_k", "release_dataset", "unload_model", "release_resources", "finalize"]
for i, name in enumerate(steps, 1):
    print(f"{i:2d}. at.{name}: {getattr(at, name).__doc__.splitlines()[0]}")

# %% [markdown] tags=["lang:en"]
# ## The whole flow, run once
# `at.Session` runs every step and releases in order even when a step fails. Here it classifies the shipped
# photo of an espresso, prints the top-5 the way the official sample does (class index and probability) and draws
# them with their ImageNet names (`Top5View`). The photo's path comes from `at.models.image(...)`, which finds the shipped data
# wherever acl-teach is installed — that is why the code cells of both editions of this series run from any
# folder.

# %% [markdown] tags=["lang:zh"]
# ## 完整流程跑一遍
# `at.Session` 依次执行每一步，即使中途某步失败也会按顺序释放资源。这里它对随包附带的一张浓缩咖啡照片做分类。
# 它先按官方样例的格式打印 top-5（类别索引和概率），再用 `Top5View` 画出这五个类别及其 ImageNet 名称。照片路径来自 `at.models.image(...)`：无论 acl-teach 安装在哪里，它都能找到附带的数据，所以本系列中英文两个版本的
# 代码单元格在任何目录下都能运行。

# %%
with at.Session() as s:
    result = s.classify(at.models.image("coffee.png"))
print(result.topk.sample_format())
from acl_teach.widgets import Top5View
Top5View(result.topk, image=at.models.image("coffee.png"))     # the same five, with their ImageNet names

# %% [markdown] tags=["lang:en"]
# ## About the model
# The default model is **EfficientNet-Lite0** (ImageNet-1k), shipped as an ONNX file and converted with
# `--input_fp16_nodes=data --output_type=FP32`. Those two flags give it the same *input/output contract* as
# the official ResNet-50 Python sample: one input named `data`, fp16, NCHW `[1, 3, 224, 224]` = 301,056
# bytes; one fp32 output of 1000 scores = 4,000 bytes, already probabilities (the network ends in a softmax,
# like the sample's `prob` layer). That is all it shares with the sample. The sample converts a **Caffe**
# model (`--framework=0 --weight=… --input_format=NCHW --out_nodes=prob:0`); ours is ONNX (`--framework=5`),
# its output is named after the ONNX graph, and its **preprocessing differs**: EfficientNet-Lite wants RGB
# scaled to about [-1, 1], the Caffe ResNet-50 wants BGR minus per-channel means (notebook 05 shows both).
# Feeding one model the other's preprocessing still runs — the sizes match — but classifies worse.
#
# `acl-teach fetch resnet50` downloads a third model: the ONNX ResNet-50 of the newer quick-start sample,
# with an **fp32** input `actual_input_1` (602,112 bytes) and **logits** (not probabilities) out. After a
# fetch, `at.Session` (this notebook and 11), `acl-teach classify` and notebook 12 use it; notebooks 03–10,
# 13 and 16 always load `at.models.default_om()`, so their numbers stay as written.

# %% [markdown] tags=["lang:zh"]
# ## 关于模型
# 默认模型是 **EfficientNet-Lite0**（ImageNet-1k），以 ONNX 文件随包提供，转换时使用 `--input_fp16_nodes=data --output_type=FP32`。
# 这两个参数让它具有与官方 ResNet-50 Python 样例相同的*输入/输出约定*：一个名为 `data` 的输入，fp16，NCHW `[1, 3, 224, 224]`，
# 共 301,056 字节；一个 fp32 输出，1000 个分数，共 4,000 字节，而且已经是概率（网络最后是 softmax，与样例的 `prob` 层一样）。
# 它与样例相同的仅此而已。样例转换的是 **Caffe** 模型（`--framework=0 --weight=… --input_format=NCHW --out_nodes=prob:0`）；
# 我们的是 ONNX（`--framework=5`），输出名称来自 ONNX 图，**预处理也不同**：EfficientNet-Lite 需要 RGB 并缩放到约 [-1, 1]，
# Caffe 版 ResNet-50 需要 BGR 并减去各通道均值（第 05 节并排展示两者）。把一个模型的预处理用在另一个模型上照样能运行——大小一致——
# 但分类效果会变差。
#
# `acl-teach fetch resnet50` 会下载第三个模型：较新的快速入门样例所用的 ONNX ResNet-50，输入 `actual_input_1` 为 **fp32**
# （602,112 字节），输出为 **logits**（不是概率）。下载之后，`at.Session`（本节和第 11 节）、`acl-teach classify` 和第 12 节
# 会改用它；第 03–10 节、第 13 节和第 16 节始终加载 `at.models.default_om()`，因此其中的数字与正文一致。

# %% [markdown] tags=["lang:en"]
# ## What runs unchanged on a real NPU — precisely
# * **Every code cell runs on a board unchanged** once CANN's pyACL is importable: `lab.setup()` picks the
#   real `acl`, and `at.models.default_om()` and its siblings build each model with CANN's own `atc` for
#   `acl.get_soc_name()` (on the simulator they use the ATC emulator). A real OM and an emulator OM are not
#   interchangeable: a board refuses the emulator's files, and the simulator refuses real ones.
# * **Outputs differ**: pointer values, timings, the work/weight sizes the real `atc` reports, and the codes of
#   the few failures whose real value no public source confirms. Such prose is labelled *simulator:*.
# * **Simulator extras are guarded** by `if lab.on_simulator():` — the resource ledger, `sim.configure(...)`,
#   the simulator's warnings. On a board these cells print that they are skipped, or show the real value.
# * **Notebook 02** converts a model itself: on the simulator with `acl-teach atc` (the emulator), on a
#   board with CANN's `atc` and the same flags.
#
# Before the first `import acl` on a board, set up the environment as the guide says (one line, to copy as is):
#
#     . /usr/local/Ascend/ascend-toolkit/set_env.sh
#
# The `nnrt` package (runtime only, with its own `set_env.sh`) runs models but has no `atc`; the notebooks
# convert models with `atc`, so install the toolkit (or convert on another machine and copy the OMs). The pyACL
# guide these notebooks quote builds pyACL's `acl.so` for Python 3.7.5–3.9.2, so use a Python 3.9 there (acl-teach needs ≥ 3.9); newer
# CANN versions list their own range. An Atlas 200I DK A2 reports `Ascend310B4`, the `--soc_version` its
# models need ([converting models for the 200I DK A2](https://www.hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/tmuacop/tmuacop_0001.html)).
#
# **API links.** Each `acl.*` function these notebooks link goes to its own page in the pyACL API reference of
# **CANN 8.0.0** (`canncommercial/800`), the version whose pages cover most of the functions used here; the English
# edition links the English page where one exists. Where no 8.0.0 page was found, the link goes to another version's
# page, or to the function's page in the open-source runtime's pyACL reference (`hicann/runtime`, `python/docs/zh`,
# Chinese only). `tests/test_notebook_structure.py` lists each of these fallbacks and why. Versions can differ: the
# `acl.init` rule in notebook 01 is one example, so check the page for your board's CANN.

# %% [markdown] tags=["lang:zh"]
# ## 到底哪些内容能不加修改地在真实 NPU 上运行
# * **每个代码单元格都能不加修改地在开发板上运行**，前提是 CANN 的 pyACL 可以导入：`lab.setup()` 会选择真实的 `acl`，
#   `at.models.default_om()` 等函数会用 CANN 自带的 `atc` 按 `acl.get_soc_name()` 转换模型（在模拟器上则用 ATC 模拟器）。
#   真实 OM 与模拟器 OM 不能混用：开发板拒绝模拟器生成的文件，模拟器也拒绝真实的 OM。
# * **输出会不同**：指针数值、耗时、真实 `atc` 给出的工作内存/权值内存大小，以及少数几个公开资料未确认真实返回码的失败情形。
#   这些地方的正文标有“模拟器：”。
# * **模拟器专有的功能**都放在 `if lab.on_simulator():` 之下——资源台账、`sim.configure(...)`、模拟器的警告。
#   在开发板上，这些单元格会说明已跳过，或显示真实值。
# * **第 02 节**会自己转换模型：在模拟器上用 `acl-teach atc`（ATC 模拟器），在开发板上用 CANN 的 `atc`，参数相同。
#
# 在开发板上第一次 `import acl` 之前，按官方指南设置环境（一整行，原样复制）：
#
#     . /usr/local/Ascend/ascend-toolkit/set_env.sh
#
# `nnrt` 软件包（只有运行时，带自己的 `set_env.sh`）能运行模型，但没有 `atc`；本系列用 `atc` 转换模型，所以请安装 toolkit（或在另一台机器上
# 转换后把 OM 复制过来）。本系列引用的 pyACL 指南中，pyACL 的 `acl.so` 依赖的 Python 版本范围为 3.7.5～3.9.2，所以在板上请使用
# Python 3.9（acl-teach 需要 ≥ 3.9）；更新的 CANN 版本会给出各自的范围。Atlas 200I DK A2 的芯片名是 `Ascend310B4`，
# 为它转换模型时 `--soc_version` 就填这个值（[Atlas 200I DK A2 转换模型](https://www.hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/tmuacop/tmuacop_0001.html)）。
#
# **接口链接。** 本系列链接的每个 `acl.*` 函数都指向它在 **CANN 8.0.0**（`canncommercial/800`）pyACL 接口参考中的
# 专属页面；选这个版本，是因为它的页面覆盖了本系列用到的大多数函数。中文版链接中文页面。没有找到 8.0.0 页面的函数，
# 链接指向另一版本的页面，或开源 runtime 的 pyACL 参考（`hicann/runtime` 的 `python/docs/zh`）中该函数的页面。
# 每一处这样的替代及其原因都列在 `tests/test_notebook_structure.py` 中。不同版本的说明可能不同（第 01 节的
# `acl.init` 规则就是一例），请以开发板上 CANN 版本的页面为准。

# %% [markdown] tags=["lang:en"]
# ## How to use this series
# | notebook | you learn |
# |---|---|
# | 01 | `acl.init`, Device / Context / Stream (implicit and explicit), run modes, return shapes, `check_ret` |
# | 02 | ATC, the four ways to load a model, `query_size` |
# | 03 | every `acl.mdl.get_*`, sizes from dims × data type |
# | 04 | malloc, aclDataBuffer, aclmdlDataset — how they nest and who owns what |
# | 05 | preprocessing, `bytes_to_ptr`, memcpy H2D / D2D / async |
# | 06 | synchronous execute, error-code classes, a model with two inputs |
# | 07 | results back to the host, top-5, single operators |
# | 08 | release orders that are safe, the ledger, leaks |
# | 09 | `execute_async`, reading results in a callback |
# | 10 | dynamic batch and dynamic image size |
# | 11 | the whole pipeline: stepper, Session, CLI, running on a board |
# | 12 | the desc explorer on several models |
# | 13 | the capstone: one complete raw program, sync and async |
# | 14 | media data processing: DVPP memory, JPEGD, VPC resize and crop, AIPP in the model |
# | 15 | video: VDEC with a callback thread, a model per frame, JPEGE |
# | 16 | events to time and order work on streams, profiling with `acl.prof` and `acl.init`'s config |
#
# Each notebook starts with *why*, ends with an exercise and a checker (`acl_teach.lab`), a summary and a few
# questions. `acl-teach lab` opens the series; `acl-teach lab --lang zh` opens the Chinese edition.

# %% [markdown] tags=["lang:zh"]
# ## 如何使用本系列
# | notebook | 内容 |
# |---|---|
# | 01 | `acl.init`、Device / Context / Stream（隐式与显式创建）、运行模式、返回值形状、`check_ret` |
# | 02 | ATC 模型转换、四种模型加载方式、`query_size` |
# | 03 | 所有 `acl.mdl.get_*`，由维度 × 数据类型得到大小 |
# | 04 | malloc、aclDataBuffer、aclmdlDataset：如何嵌套，谁拥有什么 |
# | 05 | 预处理、`bytes_to_ptr`、H2D / D2D / 异步内存复制 |
# | 06 | 同步推理、错误码分类、双输入模型 |
# | 07 | 结果拷回 Host、top-5、单算子 |
# | 08 | 安全的释放顺序、资源台账、内存泄漏 |
# | 09 | `execute_async`，在回调函数中获取推理结果 |
# | 10 | 动态 Batch 与动态分辨率 |
# | 11 | 完整流程：单步器、Session、命令行、在开发板上运行 |
# | 12 | 在多个模型上使用模型描述浏览器 |
# | 13 | 综合练习：一个完整的原始 pyACL 程序，同步与异步 |
# | 14 | 媒体数据处理：DVPP 内存、JPEGD、VPC 缩放与抠图、模型中的 AIPP |
# | 15 | 视频：VDEC 与回调线程、逐帧推理、JPEGE |
# | 16 | 用 Event 给 Stream 上的任务计时和排序，用 `acl.prof` 和 `acl.init` 的配置文件采集性能数据 |
#
# 每一节都先讲“为什么”，最后有一个由检查器（`acl_teach.lab`）给出反馈的练习、一段小结和几道自测题。`acl-teach lab`
# 打开英文版，`acl-teach lab --lang zh` 打开中文版。

# %% [markdown] tags=["lang:en"]
# ## Exercise (practice, not graded): where am I?
# Write `where_am_i()` in raw pyACL: open Device 0 with
# [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html)`(0)`,
# ask the chip's name with [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) and the run mode with
# [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) (it returns
# `(run_mode, ret)`: 1 is `ACL_HOST`, a PC with a card; 0 is `ACL_DEVICE`, code running on the board itself), close
# the Device with [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html)`(0)`
# and return `(soc_name, run_mode)`. Check each `ret` with `check_ret`. The checker runs it and looks at the calls
# it made; on the simulator it runs it a second time on another simulated machine (*simulator:* another SoC name
# and run mode, yours given back after), so typed-in answers fail. Notebook 01 explains Devices and run modes.
# This welcome is not part of the graded course: the feedback is for you.

# %% [markdown] tags=["lang:zh"]
# ## 练习（自测，不计分）：我在哪里？
# 用原始 pyACL 编写 `where_am_i()`：用 [`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)`(0)` 打开 Device 0，
# 用 [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) 询问芯片名称，用 [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) 询问运行模式（它返回 `(run_mode, ret)`：1 是 `ACL_HOST`，
# 即插卡的 PC；0 是 `ACL_DEVICE`，即代码运行在开发板自身上），再用 [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)`(0)`
# 关闭 Device，返回 `(soc_name, run_mode)`。每个 `ret` 都用 `check_ret` 检查。检查器运行它并查看它做过的调用；在模拟器上还会在另一台
# 模拟机器上再运行一次（*模拟器：* 换一个 SoC 名称和运行模式，之后还原成你的），所以直接写出答案通不过。Device 和运行模式在第 01 节详细讲解。
# 欢迎页不属于计分课程：反馈只给你自己看。

# %% tags=["solution", "grade_id:nb00-where-am-i"]
from acl_teach.lab import check_ret

def where_am_i():
    """(SoC name, run mode) of this machine, asked from pyACL with Device 0 open."""
    ### BEGIN SOLUTION
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    soc_name = acl.get_soc_name()
    run_mode, ret = acl.rt.get_run_mode()
    check_ret("acl.rt.get_run_mode", ret)
    check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
    return soc_name, run_mode
    ### END SOLUTION

# %%
print(lab.check_where_am_i(where_am_i))
print(lab.ledger_summary())     # what is still alive: the session above and your function released everything

# %% [markdown] tags=["lang:en"]
# ## Summary
# * pyACL inference is a fixed sequence: init → Device/Context/Stream → load → desc → datasets → copy →
#   execute → copy back → release in reverse → finalize. The guide's picture hides memory, copies and data
#   types; this series shows them.
# * `lab.setup()` chooses real pyACL when present, else the simulator; code cells run on both, outputs and a
#   few labelled details differ.
# * The default model shares only the ResNet-50 sample's I/O contract, not its conversion or preprocessing.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * pyACL 推理是固定的顺序：初始化 → Device/Context/Stream → 加载模型 → 模型描述 → 数据集 → 内存复制 → 推理 → 拷回 →
#   逆序释放 → 去初始化。官方流程图省略了内存、内存复制和数据类型，本系列把它们展示出来。
# * `lab.setup()` 在有真实 pyACL 时使用它，否则使用模拟器；代码单元格两边都能运行，输出以及少数标注出来的细节会不同。
# * 默认模型与 ResNet-50 样例只共享输入/输出约定，转换方式和预处理都不同。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Which call must come first in every pyACL program, and which last?
# 2. What does `acl.get_soc_name()` tell you, and where do you use the answer?
# 3. The default model and the ResNet-50 sample both take 301,056 bytes of input. Why can one not simply
#    reuse the other's preprocessing?
# 4. Name one thing that differs when this notebook runs on a real Atlas board.
#
# **Next →** [01_init_and_resources](01_init_and_resources.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 每个 pyACL 程序中哪个调用必须最先执行，哪个最后执行？
# 2. `acl.get_soc_name()` 告诉你什么？这个结果用在哪里？
# 3. 默认模型和 ResNet-50 样例的输入都是 301,056 字节，为什么不能直接套用对方的预处理？
# 4. 说出本 notebook 在真实 Atlas 开发板上运行时会有哪一点不同。
#
# **下一节 →** [01_init_and_resources](01_init_and_resources.ipynb)
