# %% [markdown] tags=["lang:en"]
# # 08 · Releasing in a safe order, and what a leak looks like (资源释放)
# **Why.** The guide ends model execution with two steps that are easy to get half right: "free the memory",
# then "destroy the data types — call `acl.destroy_data_buffer` and `acl.mdl.destroy_dataset` in turn; with
# several inputs and outputs call `destroy_data_buffer` several times" ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)). Miss one
# and nothing fails: the process just grows, image after image, until a long-running service runs out of device
# memory — the official debugging notes list unpaired malloc/free as a classic. Worse, the guide's own text and
# the official sample release in *different* orders, so a learner rightly asks which one is correct.
#
# **You will be able to:** see what is alive with the simulator's ledger (资源台账), recognise a leak and its
# report, explain why several release orders are safe and which orders are not, and release everything a model
# run created.

# %% [markdown] tags=["lang:zh"]
# # 08 · 按安全的顺序释放资源，以及内存泄漏是什么样子
# **为什么。** 指南在模型执行的最后有两步很容易只做对一半：“释放内存”，然后“释放相关数据类型的数据——依次调用 `acl.destroy_data_buffer`
# 接口和 `acl.mdl.destroy_dataset` 接口；如果存在多个输入、输出，需多次调用 `acl.destroy_data_buffer`”（[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。漏掉一个，
# 什么都不会报错：进程只是一张图一张图地变大，直到长时间运行的服务耗尽 Device 内存——官方的调试经验把 malloc/free 不配对列为典型问题。
# 更麻烦的是，指南自己的文字和官方样例采用了*不同*的释放顺序，学习者自然会问：到底哪个才对？
#
# **学完本节你将能够：** 用模拟器的资源台账查看哪些资源还活着，认出内存泄漏及其报告，解释为什么好几种释放顺序都是安全的、哪些顺序不安全，
# 并释放一次模型推理创建的全部资源。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# ## The ledger
# *simulator:* every resource the simulated process creates is recorded with the notebook cell or script line
# that created it. `LedgerView` shows them live (click refresh after any cell); a board keeps no such record,
# which is exactly why leaks there go unnoticed.

# %% [markdown] tags=["lang:zh"]
# ## 资源台账
# *模拟器：* 模拟进程创建的每个资源都被记录下来，并附上创建它的 notebook 单元格或脚本行号。`LedgerView` 实时显示它们（执行任何单元格后点
# refresh）；开发板上没有这样的记录，这恰恰是那里的泄漏无人察觉的原因。

# %%
import atexit
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
model = at.load_model(at.models.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
from acl_teach.widgets import LedgerView
LedgerView()     # live: click refresh after any cell to see what is alive now

# %% [markdown] tags=["lang:en"]
# ## A leak
# Release the datasets, then look: the model and its desc are still alive — and so are the stream, the context
# and the device, which is right, because we still need them. If the program now called `release_resources`
# and `finalize`, the model and desc would be leaks.

# %% [markdown] tags=["lang:zh"]
# ## 一次泄漏
# 释放两个数据集，然后看一看：模型和模型描述还活着——Stream、Context 和 Device 也还活着，这是对的，因为我们还要用它们。如果程序现在
# 就调用 `release_resources` 和 `finalize`，模型和模型描述就泄漏了。

# %%
at.release_dataset(inputs); at.release_dataset(outputs)
LedgerView()     # alive now: the model and its desc, and the runtime resources we still use

# %% [markdown] tags=["lang:en"]
# What does such a leak look like? The next cell runs a small leaky script in a separate simulated process
# (`python -m acl_teach.sim script.py`, explanations on): it loads a model and allocates memory, then resets the
# device without unloading or freeing, frees the memory only *after* the reset (an unsafe order), and finalizes — [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html),
# [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html), [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html),
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html), [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html),
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html). `acl.finalize` reclaims everything and prints the
# simulator's leak report, naming each resource and the line that created it. *On a board no report appears:*
# the memory is reclaimed at the latest when the process exits, and until then it is simply gone.
#
# *simulator:* the late `free` returns 107000 and the message names the reset that reclaimed the memory; on a board
# the outcome of freeing a reclaimed pointer is not documented — do not count on an error.

# %% [markdown] tags=["lang:zh"]
# 这样的泄漏是什么样子？下一个单元格在单独的模拟进程中运行一个会泄漏的小脚本（`python -m acl_teach.sim script.py`，解释已打开）：
# 它加载模型并申请内存，然后不卸载、不释放就复位 Device，*复位之后*才释放内存（不安全的顺序），再去初始化——
# [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)、[`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)、[`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md)、
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)、[`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)、[`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)、[`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html)。`acl.finalize` 回收一切，并打印模拟器的泄漏报告，列出每个资源及创建
# 它的代码行。*在开发板上不会出现任何报告：*内存最迟在进程退出时才被回收，在那之前它就这样丢失了。
#
# *模拟器：* 迟到的 `free` 返回 107000，错误信息指出是哪次复位回收了这块内存；在开发板上，释放一个已被回收的指针会怎样并无文档说明——
# 不要指望它一定报错。

# %%
import os, subprocess, sys, tempfile
workdir = tempfile.TemporaryDirectory()   # removed when the kernel stops
leaky = os.path.join(workdir.name, "leaky.py")
with open(leaky, "w") as fh:
    fh.write("import acl\nimport acl_teach.models as models\n"
             "acl.init(); acl.rt.set_device(0)\n"
             "model_id, ret = acl.mdl.load_from_file(models.default_om())\n"
             "ptr, ret = acl.rt.malloc(1024, 0)\n"
             "acl.rt.reset_device(0)\n"
             "print('free after reset_device ->', acl.rt.free(ptr))\n"
             "acl.finalize()\n")
if lab.on_simulator():
    done = subprocess.run([sys.executable, "-m", "acl_teach.sim", leaky], capture_output=True, text=True)
    print(done.stdout.strip())
    print(done.stderr.strip())
else:
    print("a board prints no leak report: nothing tells you")

# %% [markdown] tags=["lang:en"]
# Our notebook does not leak: unload the model and destroy its desc (`at.unload_model` calls
# [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html) then [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)), release the runtime resources.
# The ledger is empty; only the process itself stays initialised, until the one `acl.finalize` at the kernel's exit.

# %% [markdown] tags=["lang:zh"]
# 本 notebook 自己不泄漏：卸载模型并销毁模型描述（`at.unload_model` 依次调用 [`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md) 和
# [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)），释放运行管理资源。资源台账为空；只有进程本身仍处于初始化状态，直到内核退出时那唯一一次 `acl.finalize`。

# %%
at.unload_model(model, d)
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Which release orders are safe — and why several are
# The official sources do not agree on one order for the model's inputs and outputs:
# * the **model-execution page** frees the memory first (its step 6, `acl.rt.free`), then destroys the data
#   buffers (step 7) it finds through the dataset, then the dataset — and its release code does exactly that;
# * the **same page's introduction** names the two calls in the opposite order in one version of the page
#   ("destroy the aclDataBuffer … and free the memory") and in this order in another;
# * the **official sample** (`acl_net.py`) destroys data buffers and datasets right after each execute, and frees
#   the device memory only at the very end — after `acl.mdl.unload` and `destroy_desc`, before `destroy_context`.
#
# All of these are safe, because an `aclDataBuffer` and an `aclmdlDataset` **own nothing**: they are labels that
# only an execute reads. Once no execute is running or queued, the order of free / destroy-buffer /
# destroy-dataset does not matter — as long as you still hold the handles you need (destroy the dataset first and
# you must have kept the buffer handles yourself, or they leak). Unload and destroy-desc are independent too.
#
# What is **not** safe:
# 1. freeing memory or destroying a dataset while an `execute_async` that uses it is still queued — call
#    `synchronize_stream` first, or the device writes into freed memory;
# 2. `destroy_context` or `reset_device` before models are unloaded and memory is freed — the memory and the model
#    are the process's, allocated on that Device, and the reset reclaims what is still there, so your later
#    `free` or `unload` acts on a dead handle (a model must also be unloaded while a Context on its Device is current);
# 3. destroying a Context before its Streams, or `finalize` before `reset_device`;
# 4. using any handle after its release call.

# %% [markdown] tags=["lang:zh"]
# ## 哪些释放顺序是安全的——为什么不止一种
# 对模型输入输出的释放顺序，官方资料并不一致：
# * **模型执行页面**先释放内存（第 6 步 `acl.rt.free`），再销毁通过数据集找到的数据缓冲（第 7 步），最后销毁数据集——它的释放示例代码正是这样做的；
# * **同一页面的“基本原理”段落**在一个版本中按相反的顺序提到这两个接口（“销毁相应的 aclDataBuffer 类型，并调用 acl.rt.free 接口释放内存”），
#   在另一个版本中则按上面的顺序；
# * **官方样例**（`acl_net.py`）在每次推理之后立即销毁数据缓冲和数据集，而 Device 内存直到最后才释放——在 `acl.mdl.unload` 和
#   `destroy_desc` 之后、`destroy_context` 之前。
#
# 这些顺序都是安全的，因为 `aclDataBuffer` 和 `aclmdlDataset` **不拥有任何东西**：它们只是标签，只有推理接口会读取。只要没有推理正在执行
# 或在队列中等待，释放内存、销毁缓冲、销毁数据集的先后就无关紧要——前提是你仍然握有需要的句柄（先销毁数据集的话，缓冲句柄必须自己另外
# 保存，否则就泄漏了）。卸载模型和销毁模型描述之间也互不依赖。
#
# **不安全**的做法：
# 1. 在仍使用它们的 `execute_async` 还在队列中时释放内存或销毁数据集——先调用 `synchronize_stream`，否则 Device 会写入已释放的内存；
# 2. 在卸载模型、释放内存之前 `destroy_context` 或 `reset_device`——内存和模型属于进程、分配在该 Device 上，复位会回收仍在那里的一切，之后的 `free` 或
#    `unload` 操作的是已失效的句柄；
# 3. 先销毁 Context 再销毁它的 Stream，或先 `finalize` 再 `reset_device`；
# 4. 在释放之后继续使用任何句柄。

# %% [markdown] tags=["lang:en"]
# Two safe orders, side by side, on a model's input dataset built as in notebook 04 — the guide's (free first)
# and the sample's (descriptors first) — with [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html),
# [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html), [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html),
# [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md), [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md), [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md),
# [`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html), [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md),
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html),
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html), and for the release
# [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md), [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md),
# [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html), [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md), [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md).
# The model goes last: [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html), [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md), then
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html), [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html).

# %% [markdown] tags=["lang:zh"]
# 两种安全的顺序并排演示，对象是按第 04 节方式构造的模型输入数据集——指南的顺序（先释放内存）和样例的顺序（先销毁描述结构）——用到
# [`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)、[`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md)、
# [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md)、[`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md)、[`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)、
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md)、[`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md)、[`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md)、
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)、[`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html)、[`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html)，
# 释放时用到 [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md)、[`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md)、[`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)、
# [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)、[`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)。最后释放模型：
# [`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md)、[`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)，然后 [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、
# [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)。

# %%
check_ret("acl.rt.set_device", acl.rt.set_device(0))
context, ret = acl.rt.create_context(0)
check_ret("acl.rt.create_context", ret)
model_id, ret = acl.mdl.load_from_file(at.models.default_om())
check_ret("acl.mdl.load_from_file", ret)
desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(desc, model_id))

def input_dataset():
    dataset, items = acl.mdl.create_dataset(), []
    for i in range(acl.mdl.get_num_inputs(desc)):
        size = acl.mdl.get_input_size_by_index(desc, i)
        ptr, ret = acl.rt.malloc(size, 0)
        check_ret("acl.rt.malloc", ret)
        _, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size))
        check_ret("acl.mdl.add_dataset_buffer", ret)
        items.append(ptr)
    return dataset, items

def buffers_of(dataset):
    return [acl.mdl.get_dataset_buffer(dataset, i) for i in range(acl.mdl.get_dataset_num_buffers(dataset))]

dataset, items = input_dataset()                   # the guide: memory, then buffers, then the dataset
for ptr in items:
    check_ret("acl.rt.free", acl.rt.free(ptr))
for buf in buffers_of(dataset):
    check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buf))
check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
print("free -> destroy_data_buffer -> destroy_dataset:", lab.ledger_summary())

dataset, items = input_dataset()                   # the sample and the checker: buffers, dataset, then memory
for buf in buffers_of(dataset):
    check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buf))
check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
for ptr in items:
    check_ret("acl.rt.free", acl.rt.free(ptr))
print("destroy_data_buffer -> destroy_dataset -> free:", lab.ledger_summary())

# %%
check_ret("acl.mdl.unload", acl.mdl.unload(model_id))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(desc))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))

# %% [markdown] tags=["lang:en"]
# ## The checker's order
# `lab.RELEASE_ORDER` is one safe order for everything a run creates. The checker does not compare your calls with
# it: it runs your release code and then reads the ledger, so any order passes that releases every resource by its
# own call with `ret` 0 before `reset_device` — the official sample's order (no stream of its own) included. Your
# release code must not finalize: a program finalizes once, when it ends (here: when the kernel exits).

# %% [markdown] tags=["lang:zh"]
# ## 检查器的顺序
# `lab.RELEASE_ORDER` 是释放一次推理所建全部资源的一种安全顺序。检查器不拿你的调用和它比较：它运行你的释放代码，然后读取台账，所以只要在
# `reset_device` 之前每个资源都由它自己的释放调用释放、`ret` 为 0，任何顺序都能通过——包括官方样例的顺序（样例没有自己的 Stream）。
# 你的释放代码不能 finalize：一个程序只在结束时 finalize 一次（这里是内核退出时）。

# %%
print("\n".join(lab.RELEASE_ORDER))

# %% [markdown] tags=["lang:en"]
# ## Exercise (4 points)
# Write `release_all(run)`: release everything in `run` — the output dataset's buffers, the dataset, its device
# memory (`run["ptrs"]`), the model, its desc, the stream, the context — then reset the device. Do not finalize:
# this kernel finalizes once, at exit. Each `ret` must be 0. The checker does not compare names: after your code
# the ledger must be empty, and nothing may have been reclaimed by `reset_device` instead of its own release call.
# The stream goes with [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html).

# %% [markdown] tags=["lang:zh"]
# ## 练习（4 分）
# 编写 `release_all(run)`：释放 `run` 中的一切——输出数据集的缓冲、数据集、它的 Device 内存（`run["ptrs"]`）、模型、模型描述、Stream、
# Context——然后复位 Device。不要去初始化：本内核只在退出时 finalize 一次。每个 `ret` 都必须为 0。检查器不比较名字：你的代码执行后台账
# 必须为空，并且没有任何资源是被 `reset_device` 回收、而不是由它自己的释放调用释放的。
# Stream 用 [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html) 销毁。

# %% tags=["solution", "grade_id:nb08-release"]
def release_all(run):
    """Release one run's resources, innermost first, then the device (the process stays initialised)."""
    ### BEGIN SOLUTION
    dataset = run["dataset"]
    for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i)))
    check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
    for ptr in run["ptrs"]:
        check_ret("acl.rt.free", acl.rt.free(ptr))
    check_ret("acl.mdl.unload", acl.mdl.unload(run["model_id"]))
    check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(run["desc"]))
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(run["stream"]))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(run["context"]))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
    ### END SOLUTION

# %% tags=["grade", "points:4", "grade_id:nb08-release-test"]
res = at.request_resources(0)
model = at.load_model(at.models.default_om())
d = at.query_desc(model)
outputs = at.build_dataset(d, "output")
run = {"context": res.context, "stream": res.stream, "model_id": model.model_id, "desc": d.model_desc,
       "dataset": outputs.dataset, "ptrs": [b.ptr for b in outputs.buffers]}
feedback = lab.check_release_order(release_all, run)
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Summary
# * A leak fails nothing; it only grows. The simulator's ledger and leak report show it; a board does not.
# * Data buffers and datasets own nothing, so free / destroy-buffer / destroy-dataset may come in any order once
#   no execute uses them — the guide's steps, its introduction and the sample differ here and are all safe.
# * Unsafe: releasing what a queued async execute still uses; resetting the device or destroying the context
#   before models and memory are released; finalize before reset, or any call after finalize; any use after
#   release. One finalize per program, at its end.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 内存泄漏不会让任何调用失败，只会让占用不断增长。模拟器的资源台账和泄漏报告能显示它，开发板不能。
# * 数据缓冲和数据集不拥有任何东西，所以一旦没有推理在使用它们，释放内存、销毁缓冲、销毁数据集的顺序可以任意——指南的步骤、它的引言段落和样例
#   在这一点上各不相同，但都是安全的。
# * 不安全的做法：释放仍在队列中的异步推理要用的资源；在释放模型和内存之前复位 Device 或销毁 Context；先 finalize 再复位；释放后继续使用。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Why is "free the memory, then destroy the data buffer" as safe as the reverse?
# 2. You destroy the dataset first. What must you have done beforehand so the data buffers do not leak?
# 3. After `execute_async`, why can you not free the output memory straight away?
# 4. What happens on a board if a service forgets `acl.mdl.unload` for every request?
#
# **Next →** [09_async_and_callbacks](09_async_and_callbacks.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 为什么“先释放内存、再销毁数据缓冲”与相反的顺序一样安全？
# 2. 如果先销毁数据集，事先必须做什么，数据缓冲才不会泄漏？
# 3. 调用 `execute_async` 之后，为什么不能马上释放输出内存？
# 4. 在开发板上，如果一个服务每处理一个请求都忘了调用 `acl.mdl.unload`，会发生什么？
#
# **下一节 →** [09_async_and_callbacks](09_async_and_callbacks.ipynb)

# %%
print(lab.ledger_summary())
