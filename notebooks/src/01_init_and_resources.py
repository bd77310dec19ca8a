# %% [markdown] tags=["lang:en"]
# # 01 · `acl.init` and the runtime resources: Device, Context, Stream
# **Why.** The guide is blunt: an application *must* call `acl.init` before anything else, "otherwise the
# initialisation of internal resources may fail and other services behave abnormally"; then it must request
# the runtime resources in a fixed order — Device, Context, Stream — and release them in the reverse order.
# It also offers two ways to get a Context and a Stream (created *implicitly* by `set_device`, or
# *explicitly*), and says the **run mode** decides which memory calls you need later. Every later notebook
# stands on these calls, and on one habit: read the `ret` of every call.
#
# **You will be able to:** initialise AscendCL (with or without a JSON config), open a Device (设备), create
# a Context (上下文) and a Stream (流) explicitly or use the implicit ones, read the run mode (运行模式) and
# see what changes on a board, tell the three return shapes of pyACL apart, check every `ret`, and explain
# `100002` when a cell is re-run.

# %% [markdown] tags=["lang:zh"]
# # 01 · `acl.init` 与运行管理资源：Device、Context、Stream
# **为什么。** 官方指南说得很直接：使用 pyACL 开发应用时，*必须*先调用 `acl.init` 初始化，“否则可能会导致后续系统内部资源
# 初始化出错，进而导致其它业务异常”；然后按固定顺序申请运行管理资源——Device、Context、Stream，最后按相反顺序释放。
# 指南还给出了获得 Context 和 Stream 的两种方式（由 `set_device` *隐式创建*，或*显式创建*），并说明**运行模式**决定后面
# 需要调用哪些内存接口。后面的每一节都建立在这些调用之上，也建立在一个习惯之上：检查每个调用的 `ret`。
#
# **学完本节你将能够：** 初始化 AscendCL（带或不带 JSON 配置文件），打开 Device，显式创建 Context 和 Stream 或使用隐式创建的默认
# Context/Stream，查询运行模式并了解它在开发板上改变了什么，分清 pyACL 的三种返回值形状，检查每个 `ret`，并解释重复运行
# 单元格时出现的 `100002`。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %% [markdown] tags=["lang:en"]
# ## Initialise, optionally with a configuration file
# [`acl.init`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0004.html) takes an optional path to a JSON file. The file switches on extras such as
# model dump or profiling; if the defaults suit you, call `acl.init()` with no argument or pass a file that
# holds only `{}` — the guide's example passes `"../src/acl.json"`, relative to the script. Its partner is
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html), called once everything else is released (it may take up to about two
# seconds). Both return a bare `ret`: 0 means success.

# %% [markdown] tags=["lang:zh"]
# ## 初始化，可选地带配置文件
# [`acl.init`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0004.html) 可以接收一个 JSON 配置文件的路径。配置文件用于开启模型 Dump、性能数据采集等功能；如果默认配置已满足需求，
# 可以不传参数直接调用 `acl.init()`，或者传入只含 `{}` 的文件——指南的示例代码传的是相对于脚本的 `"../src/acl.json"`。
# 与它配对的是 [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html)（去初始化），在其他资源都释放之后调用（可能耗时约两秒）。
# 两者都只返回一个 `ret`：0 表示成功。

# %%
import json, os, tempfile
workdir = tempfile.TemporaryDirectory()   # removed when the kernel stops
config = os.path.join(workdir.name, "acl.json")
with open(config, "w") as fh:
    json.dump({}, fh)                 # {}: keep every default (no dump, no profiling)
ret = acl.init(config)                # acl.init() without an argument does the same
print("acl.init ->", ret)

# %% [markdown] tags=["lang:en"]
# ## Three return shapes, and the `check_ret` habit
# pyACL is a thin C binding, and its Python return value follows the C function:
# * a C call that only returns an `aclError` gives a **bare `ret`** — `acl.init`, `acl.rt.set_device`,
#   `acl.rt.free`, `acl.mdl.execute`;
# * a C call with **out-parameters** gives a tuple, **outputs first, `ret` last** —
#   `context, ret = acl.rt.create_context(0)`, `ptr, ret = acl.rt.malloc(size, policy)`,
#   `work, weight, ret = acl.mdl.query_size(path)`;
# * **creators and getters** return **only the value**, no `ret` at all — `acl.mdl.create_desc() -> desc`,
#   `acl.mdl.create_dataset()`, `acl.create_data_buffer(ptr, size)`, `acl.mdl.get_num_inputs(desc) -> int`.
#   They signal failure with 0 (a NULL handle) or an empty value.
#
# One oddity: `acl.mdl.add_dataset_buffer(dataset, buffer)` returns `(dataset, ret)`, which is why the samples
# write `_, ret = acl.mdl.add_dataset_buffer(...)`. The samples wrap every `ret` in a `check_ret` helper that
# raises; real code has no other way to notice a failure, because pyACL reports a failing call only
# through its `ret` (it raises only for malformed arguments, such as `None` for a handle).
#
# The calls: [`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html) opens Device 0 (reference-counted: each call needs
# its own reset); [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html) creates a Context on it *and makes it
# current for the calling thread*; [`acl.rt.create_stream`](https://github.com/hicann/runtime/tree/HEAD/python/docs) creates a Stream in the current
# Context; [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) says where this program runs.

# %% [markdown] tags=["lang:zh"]
# ## 三种返回值形状，以及 `check_ret` 习惯
# pyACL 是一层很薄的 C 绑定，Python 返回值由 C 函数决定：
# * 只返回 `aclError` 的 C 接口，Python 中**只返回 `ret`**——`acl.init`、`acl.rt.set_device`、`acl.rt.free`、`acl.mdl.execute`；
# * 带**输出参数**的 C 接口，返回一个元组，**输出在前，`ret` 在最后**——`context, ret = acl.rt.create_context(0)`、
#   `ptr, ret = acl.rt.malloc(size, policy)`、`work, weight, ret = acl.mdl.query_size(path)`；
# * **创建类和查询类接口**只返回**值本身**，根本没有 `ret`——`acl.mdl.create_desc() -> desc`、`acl.mdl.create_dataset()`、
#   `acl.create_data_buffer(ptr, size)`、`acl.mdl.get_num_inputs(desc) -> int`。它们用 0（空句柄）或空值表示失败。
#
# 有一个特例：`acl.mdl.add_dataset_buffer(dataset, buffer)` 返回 `(dataset, ret)`，所以样例写成
# `_, ret = acl.mdl.add_dataset_buffer(...)`。样例用 `check_ret` 辅助函数包住每个 `ret`，失败就抛异常；真实代码没有别的办法
# 发现失败，因为调用失败时 pyACL 只通过 `ret` 报告（只有参数本身不合法时才抛异常，例如把 `None` 当句柄）。
#
# 本节的调用：[`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html) 打开 Device 0（有引用计数：每调用一次就要对应复位一次）；
# [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html) 在该 Device 上创建 Context，*并把它设为调用线程的当前 Context*；
# [`acl.rt.create_stream`](https://github.com/hicann/runtime/tree/HEAD/python/docs) 在当前 Context 中创建 Stream；[`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html)
# 查询程序运行在哪里。

# %%
def check_ret(message, ret):          # the samples' helper (acl_net.py, acllite_utils.py)
    if ret != 0:
        raise Exception("{} failed ret={}".format(message, ret))

check_ret("acl.rt.set_device", acl.rt.set_device(0))      # a bare ret
context, ret = acl.rt.create_context(0)                     # (value, ret): ret last
check_ret("acl.rt.create_context", ret)
stream, ret = acl.rt.create_stream()
check_ret("acl.rt.create_stream", ret)
run_mode, ret = acl.rt.get_run_mode()
check_ret("acl.rt.get_run_mode", ret)
print("context and stream are plain ints:", type(context).__name__, type(stream).__name__)
print("run mode:", {0: "ACL_DEVICE (the program runs on the board's own CPU)",
                    1: "ACL_HOST (a PC or server with an accelerator card)"}[run_mode])

# %% [markdown] tags=["lang:en"]
# The creators and getters, and the one oddity, on an empty dataset:
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/tree/HEAD/python/docs) returns the handle itself, so does
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) (an empty `(0, 0)` buffer is allowed);
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) returns `(dataset, ret)`;
# [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/tree/HEAD/python/docs) returns the count itself. Their destroyers,
# [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/tree/HEAD/python/docs) and [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/tree/HEAD/python/docs), return a bare `ret`.
# From here on the notebooks use `lab.check_ret`, which does what the samples' helper does and also says
# what the code means.

# %% [markdown] tags=["lang:zh"]
# 在一个空的数据集上看创建类、查询类接口和那个特例：[`acl.mdl.create_dataset`](https://github.com/hicann/runtime/tree/HEAD/python/docs) 返回句柄本身，
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) 也一样（允许创建 `(0, 0)` 的空缓冲）；
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) 返回 `(dataset, ret)`；
# [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/tree/HEAD/python/docs) 直接返回个数。对应的销毁接口 [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/tree/HEAD/python/docs)
# 和 [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/tree/HEAD/python/docs) 只返回 `ret`。从这里开始，各节使用 `lab.check_ret`：它与样例的辅助函数作用相同，
# 还会说明错误码的含义。

# %%
from acl_teach.lab import check_ret
dataset = acl.mdl.create_dataset()                        # a creator: the handle itself
buffer = acl.create_data_buffer(0, 0)                     # an empty aclDataBuffer is allowed
same, ret = acl.mdl.add_dataset_buffer(dataset, buffer)   # the oddity: (dataset, ret)
print("add_dataset_buffer -> (dataset, ret):", same == dataset, ret)
print("get_dataset_num_buffers ->", acl.mdl.get_dataset_num_buffers(dataset))   # a getter: the value itself
check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buffer))
check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))

# %% [markdown] tags=["lang:en"]
# ## Re-running a cell: 100002, and what error codes look like
# `acl.init()` a second time in the same process returns **100002 ACL_ERROR_REPEAT_INITIALIZE** (the C
# runtime counts the calls). It is not fatal — the process is still initialised — and it is what you get when
# you re-run the first cells of a notebook. The code's digits carry meaning ([aclError classes](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/API/appdevgapi/aclcppdevg_03_1345.html)):
# the first digit is the class — **1**xxxxx your call or environment (a parameter, the order of calls),
# **2**xxxxx resources (memory, device, an unsupported feature), **3**xxxxx business limits, **5**xxxxx
# internal errors (collect the logs); the next digits name the component — 100xxx/148xxx AscendCL itself,
# 107xxx/207xxx/507xxx the runtime, 145xxx/245xxx/545xxx the graph engine that loads and runs models.

# %% [markdown] tags=["lang:zh"]
# ## 重复运行单元格：100002，以及错误码的样子
# 同一进程中第二次调用 `acl.init()` 会返回 **100002 ACL_ERROR_REPEAT_INITIALIZE**（C 运行时对调用次数计数）。这不是致命错误——
# 进程仍处于已初始化状态——重新运行 notebook 开头几个单元格时就会遇到它。错误码的各位数字有含义（[aclError 错误码分类](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/API/appdevgapi/aclcppdevg_03_1345.html)）：
# 第一位是类别——**1**xxxxx 表示调用方或环境的问题（参数、调用顺序），**2**xxxxx 表示资源问题（内存、设备、不支持的特性），
# **3**xxxxx 表示业务限制，**5**xxxxx 表示内部错误（需收集日志）；接下来几位表示组件——100xxx/148xxx 是 AscendCL 本身，
# 107xxx/207xxx/507xxx 是运行时（Runtime），145xxx/245xxx/545xxx 是负责加载和运行模型的图引擎（GE）。

# %%
ret = acl.init()
print(ret)
print(at.explain(ret).text())
for code in (100002, 107000, 145002, 207001, 507011):
    print(code, "class", code // 100000, at.explain(code).name)

# %%
from acl_teach.widgets import ErrorExplainer
ErrorExplainer(ret)      # type any code you meet, or pick a common one: name, meaning, cause and fix (EN / 中文)

# %% [markdown] tags=["lang:en"]
# ## Explicit and implicit Context and Stream
# The guide recommends **explicit** creation — the cells above — for anything beyond a toy: the Context you
# created is current in *this* thread; another thread (a callback thread, notebook 09) must make it current
# itself with [`acl.rt.set_context`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0074.html). [`acl.rt.get_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html)
# tells which Context is current. Release goes Stream → Context → Device:
# [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html), [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html),
# [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html).

# %% [markdown] tags=["lang:zh"]
# ## 显式与隐式创建 Context 和 Stream
# 对于稍复杂的应用，指南推荐**显式创建**——也就是上面的做法：你创建的 Context 是*当前线程*的当前 Context；
# 其他线程（例如第 09 节的回调线程）必须自己调用 [`acl.rt.set_context`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0074.html) 把它设为当前 Context。
# [`acl.rt.get_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html) 查询当前 Context。释放顺序是 Stream → Context → Device：
# [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html)、[`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、
# [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)。

# %%
current, ret = acl.rt.get_context()
check_ret("acl.rt.get_context", ret)
print("the explicit context is current in this thread:", current == context)
check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
check_ret("acl.finalize", acl.finalize())

# %% [markdown] tags=["lang:en"]
# **Implicit** creation is what `set_device` does by itself: it opens the Device with a *default Context* and
# a *default Stream*. Calls that take a stream accept `0` for that default stream
# ([`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) below). It suits small single-threaded
# programs — the official ResNet-50 sample never creates a stream. The guide's warning: in a multi-threaded
# program every thread shares the default Context and Stream, and the order of tasks on the default Stream
# then depends on how the operating system schedules the threads. `reset_device` releases the defaults.

# %% [markdown] tags=["lang:zh"]
# **隐式创建**就是 `set_device` 自己完成的事：它打开 Device 的同时创建*默认 Context* 和*默认 Stream*。需要传入 Stream 的接口
# 可以用 `0` 表示默认 Stream（见下面的 [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html)）。它适合简单的单线程程序——
# 官方 ResNet-50 样例就从不创建 Stream。指南的提醒是：多线程程序中每个线程都使用默认 Context 和默认 Stream，默认 Stream 中任务的
# 执行顺序就取决于操作系统的线程调度顺序。`reset_device` 会一并释放默认 Context 和默认 Stream。

# %%
check_ret("acl.init", acl.init())
check_ret("acl.rt.set_device", acl.rt.set_device(0))        # also creates the default context and stream
implicit, ret = acl.rt.get_context()
check_ret("acl.rt.get_context", ret)
print("a default context is current:", implicit != 0)
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(0))   # 0: the default stream
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))    # releases the default context and stream too
check_ret("acl.finalize", acl.finalize())

# %% [markdown] tags=["lang:en"]
# ## Run modes: where does the program run?
# `get_run_mode` answers **ACL_HOST (1)** on a PC or server with an accelerator card: your Python runs on the
# host CPU, device memory sits across PCIe, and data must be copied with `memcpy` host → device and back. It
# answers **ACL_DEVICE (0)** on a board such as the Atlas 200I DK A2: there is no separate host — *your
# program runs on the device's own control CPU*, next to the AI cores, in the same memory. Consequences the
# [data-transfer guide](https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/aclpythondevg_0010.html) spells out: [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html) then
# returns device memory, a "host" buffer needs no H2D copy, and copies that remain become device-to-device
# ones or are skipped (acllite picks `ACL_MEMCPY_DEVICE_TO_DEVICE` when the run mode is ACL_DEVICE).
#
# *simulator:* `sim.configure(run_mode="device")` makes the simulator a board for the next cell, then
# `run_mode="host"` makes it a PC again; on a real machine the cell runs once, in the machine's own mode. It
# uses [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0110.html), [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) (notebook 05 explains the
# copy kinds), [`acl.rt.free`](https://github.com/hicann/runtime/tree/HEAD/python/docs) and [`acl.rt.free_host`](https://github.com/hicann/runtime/tree/HEAD/python/docs).

# %% [markdown] tags=["lang:zh"]
# ## 运行模式：程序运行在哪里？
# 在插有加速卡的 PC 或服务器上，`get_run_mode` 返回 **ACL_HOST (1)**：Python 运行在 Host CPU 上，Device 内存在 PCIe 的另一端，
# 数据必须用 `memcpy` 从 Host 复制到 Device，再复制回来。在 Atlas 200I DK A2 这样的开发板上，它返回 **ACL_DEVICE (0)**：
# 没有独立的 Host——*程序就运行在 Device 自己的控制 CPU 上*，与 AI Core 共用同一块内存。[数据传输指南](https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/aclpythondevg_0010.html)写明了后果：
# 此时 [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html) 返回的是 Device 内存，“Host”缓冲不需要 H2D 内存复制，剩下的内存复制变成
# Device 到 Device，或者干脆省掉（acllite 在运行模式为 ACL_DEVICE 时选择 `ACL_MEMCPY_DEVICE_TO_DEVICE`）。
#
# *模拟器：* `sim.configure(run_mode="device")` 让模拟器在下一个单元格中扮演开发板，之后 `run_mode="host"` 再变回 PC；
# 在真实机器上，该单元格按机器本身的运行模式只运行一次。它用到 [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0110.html)、
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)（第 05 节讲解内存复制方向）、[`acl.rt.free`](https://github.com/hicann/runtime/tree/HEAD/python/docs) 和 [`acl.rt.free_host`](https://github.com/hicann/runtime/tree/HEAD/python/docs)。

# %%
from acl_teach import backend

def where_does_malloc_host_point():
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    run_mode, ret = acl.rt.get_run_mode()
    check_ret("acl.rt.get_run_mode", ret)
    host_ptr, ret = acl.rt.malloc_host(16)
    check_ret("acl.rt.malloc_host", ret)
    dev_ptr, ret = acl.rt.malloc(16, 0)
    check_ret("acl.rt.malloc", ret)
    kind = 3 if run_mode == 0 else 1     # like acllite: DEVICE_TO_DEVICE on a board, HOST_TO_DEVICE on a PC + card
    check_ret("acl.rt.memcpy", acl.rt.memcpy(dev_ptr, 16, host_ptr, 16, kind))
    print(f"{'ACL_DEVICE' if run_mode == 0 else 'ACL_HOST'}: malloc_host gave "
          f"{backend.inspector().where(host_ptr)}; copied with kind {kind}")
    check_ret("acl.rt.free", acl.rt.free(dev_ptr))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
    check_ret("acl.finalize", acl.finalize())

if lab.on_simulator():                   # simulator: be a board (ACL_DEVICE), then a PC with a card again
    from acl_teach import sim
    for mode in ("device", "host"):
        sim.configure(run_mode=mode)
        where_does_malloc_host_point()
else:                                    # a real machine is what it is
    where_does_malloc_host_point()

# %% [markdown] tags=["lang:en"]
# ## The same with the step API
# `at.init()` reports 100002 instead of raising; `at.request_resources()` does set_device → create_context →
# create_stream → get_run_mode (explicit creation, as recommended) and shows the calls it made. Its record
# keeps the handles, and `at.release_resources` releases them in the reverse order.

# %% [markdown] tags=["lang:zh"]
# ## 用分步 API 完成同样的事
# `at.init()` 遇到 100002 时只报告、不抛异常；`at.request_resources()` 依次执行 set_device → create_context → create_stream →
# get_run_mode（按推荐的显式创建方式），并显示它调用了哪些接口。它返回的记录保存了各个句柄，`at.release_resources` 按相反顺序释放它们。

# %%
init = at.init()
res = at.request_resources(0)
print(res)
print(res.code())

# %%
print(at.release_resources(res).code())
print(at.finalize().code())

# %% [markdown] tags=["lang:en"]
# ## Exercise (2 points)
# Write `init_twice()`: call `acl.init()` twice, keep both return codes, call `acl.finalize()`, and return the two
# codes. The checker runs your function and records the calls it makes, so typed-in numbers do not pass.

# %% [markdown] tags=["lang:zh"]
# ## 练习（2 分）
# 编写 `init_twice()`：调用两次 `acl.init()`，保存两个返回码，再调用 `acl.finalize()`，返回这两个返回码。检查器会运行你的函数并记录
# 它发出的调用，所以直接写数字是通不过的。

# %% tags=["solution", "grade_id:nb01-init"]
def init_twice():
    """Initialise twice, finalize, and return both rets of acl.init()."""
    ### BEGIN SOLUTION
    first = acl.init()
    second = acl.init()
    check_ret("acl.finalize", acl.finalize())
    return first, second
    ### END SOLUTION

# %% tags=["grade", "points:2", "grade_id:nb01-init-test"]
feedback = lab.check_init_codes(init_twice)
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Summary
# * `acl.init([config.json])` first, `acl.finalize()` last; a second init returns 100002, which is harmless.
# * Resources come in the order Device → Context → Stream and go in the reverse order. Explicit Contexts are
#   current in the thread that made them; `set_device` alone gives a default Context and Stream (stream `0`).
# * Return shapes: a bare `ret`; `(outputs…, ret)` for out-parameters; the bare value for creators and getters;
#   `(dataset, ret)` for `add_dataset_buffer`. Check every `ret`: pyACL never raises for one.
# * ACL_HOST copies across PCIe; ACL_DEVICE runs on the board's CPU, where `malloc_host` is device memory.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 最先调用 `acl.init([config.json])`，最后调用 `acl.finalize()`；第二次初始化返回 100002，无害。
# * 资源按 Device → Context → Stream 的顺序申请，按相反顺序释放。显式创建的 Context 是创建它的线程的当前 Context；
#   只调用 `set_device` 时得到默认 Context 和默认 Stream（Stream 写 `0`）。
# * 返回值形状：只有 `ret`；有输出参数时为 `(输出…, ret)`；创建类和查询类接口返回值本身；`add_dataset_buffer` 返回 `(dataset, ret)`。
#   检查每个 `ret`：pyACL 从不因错误码抛异常。
# * ACL_HOST 模式通过 PCIe 复制数据；ACL_DEVICE 模式下程序运行在开发板的 CPU 上，`malloc_host` 得到的就是 Device 内存。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. What does `acl.mdl.get_num_inputs(desc)` return: an int, or `(int, ret)`? And `acl.rt.malloc(size, 0)`?
# 2. A notebook's first cell is run twice and prints 100002. Is the process broken? What class of error is it?
# 3. Your callback thread calls `acl.rt.synchronize_stream(stream)` on a stream made in another thread and
#    fails. Which call did the thread forget?
# 4. On an Atlas 200I DK A2, what kind of memory does `acl.rt.malloc_host` return, and which copy kind does
#    acllite use to move it into a model's input?
#
# **Next →** [02_load_model](02_load_model.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. `acl.mdl.get_num_inputs(desc)` 返回什么：一个 int，还是 `(int, ret)`？`acl.rt.malloc(size, 0)` 呢？
# 2. 某个 notebook 的第一个单元格运行了两次，输出 100002。进程坏了吗？这属于哪一类错误？
# 3. 回调线程对另一个线程创建的 Stream 调用 `acl.rt.synchronize_stream(stream)` 失败了，这个线程漏掉了哪个调用？
# 4. 在 Atlas 200I DK A2 上，`acl.rt.malloc_host` 返回的是哪种内存？acllite 用哪种内存复制方向把它送进模型输入？
#
# **下一节 →** [02_load_model](02_load_model.ipynb)

# %%
print(lab.ledger_summary())
