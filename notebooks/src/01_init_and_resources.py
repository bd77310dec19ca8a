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
# see what changes on a board, tell pyACL's return shapes apart, check every `ret`, explain `100002` when a cell
# is re-run, and say why a program — and so a notebook kernel — calls `acl.init` once and `acl.finalize` once.

# %% [markdown] tags=["lang:zh"]
# # 01 · `acl.init` 与运行管理资源：Device、Context、Stream
# **为什么。** 官方指南说得很直接：使用 pyACL 开发应用时，*必须*先调用 `acl.init` 初始化，“否则可能会导致后续系统内部资源
# 初始化出错，进而导致其它业务异常”；然后按固定顺序申请运行管理资源——Device、Context、Stream，最后按相反顺序释放。
# 指南还给出了获得 Context 和 Stream 的两种方式（由 `set_device` *隐式创建*，或*显式创建*），并说明**运行模式**决定后面
# 需要调用哪些内存接口。后面的每一节都建立在这些调用之上，也建立在一个习惯之上：检查每个调用的 `ret`。
#
# **学完本节你将能够：** 初始化 AscendCL（带或不带 JSON 配置文件），打开 Device，显式创建 Context 和 Stream 或使用隐式创建的默认
# Context/Stream，查询运行模式并了解它在开发板上改变了什么，分清 pyACL 的返回值形状，检查每个 `ret`，解释重复运行
# 单元格时出现的 `100002`，并说明为什么一个程序（也就是一个 notebook 内核）只调用一次 `acl.init`、一次 `acl.finalize`。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np

# %% [markdown] tags=["lang:en"]
# ## Initialise once, optionally with a configuration file
# [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) takes an optional path to a JSON file. The file switches on extras such as
# model dump or profiling; if the defaults suit you, call `acl.init()` with no argument or pass a file that
# holds only `{}` — the guide's example passes `"../src/acl.json"`, relative to the script (a relative path is
# resolved against the process's working directory, not the script's folder: build it from `__file__` in a
# script). Its partner is [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html), called once everything else is released (it may take up
# to about two seconds). Both return a bare `ret`: 0 means success.
#
# **How often?** The `acl.init` page up to CANN 8.0 — the page linked here included — says
# "一个进程内只能调用一次acl.init接口，且与acl.finalize去初始化接口配对使用": *once per process*, paired with
# finalize. The runtime of that time never clears its "initialised" flag, so an `acl.init` after `acl.finalize`
# returns 100002 and the process stays finalized. Only the 2025/26 open-source runtime (`hicann/runtime`)
# documents repeated init/finalize pairs in one process. Most boards in the field run the older rule, so these
# notebooks follow it: a kernel is one process; the next cell calls `acl.init` once and registers the one
# `acl.finalize` with `atexit`, which runs when the kernel shuts down. Run All again and `acl.init` answers
# 100002 — still initialised, nothing to do. The section "init → finalize → init" below shows both rules in
# a process of its own.
#
# *simulator:* `acl_teach.sim.configure(init_once=True)` (or `ACL_TEACH_SIM_INIT_ONCE=1`) enforces the older
# rule; the notebook tests run with it on. Without it the simulator follows the newer runtime.

# %% [markdown] tags=["lang:zh"]
# ## 只初始化一次，可选地带配置文件
# [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) 可以接收一个 JSON 配置文件的路径。配置文件用于开启模型 Dump、性能数据采集等功能；如果默认配置已满足需求，
# 可以不传参数直接调用 `acl.init()`，或者传入只含 `{}` 的文件——指南的示例代码传的是相对于脚本的 `"../src/acl.json"`（相对路径按进程的
# 当前工作目录解析，而不是按脚本所在目录：脚本里请用 `__file__` 拼出路径）。与它配对的是 [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html)（去初始化），
# 在其他资源都释放之后调用（可能耗时约两秒）。两者都只返回一个 `ret`：0 表示成功。
#
# **调用几次？** CANN 8.0 及以前的 `acl.init` 页面（包括这里链接的页面）写明“一个进程内只能调用一次acl.init接口，且与acl.finalize
# 去初始化接口配对使用”：*每个进程一次*，与 finalize 配对。那时的运行时从不清除“已初始化”标志，所以 `acl.finalize` 之后再调用
# `acl.init` 会返回 100002，进程仍处于去初始化状态。只有 2025/26 年开源的运行时（`hicann/runtime`）才支持在一个进程内多次成对地
# 初始化/去初始化。现场的大多数开发板运行的是旧规则，所以本系列按旧规则写：一个内核就是一个进程；下一个单元格调用一次 `acl.init`，
# 并用 `atexit` 登记唯一的一次 `acl.finalize`，在内核关闭时执行。再次 Run All 时 `acl.init` 返回 100002——仍处于初始化状态，无需处理。
# 下面的“init → finalize → init”一节在单独的进程中演示两种规则。
#
# *模拟器：* `acl_teach.sim.configure(init_once=True)`（或 `ACL_TEACH_SIM_INIT_ONCE=1`）启用旧规则；notebook 的测试都在该规则下运行。
# 不设置时，模拟器按新的运行时行事。

# %%
import json, os, tempfile
workdir = tempfile.TemporaryDirectory()   # removed when the kernel stops
config = os.path.join(workdir.name, "acl.json")
with open(config, "w") as fh:
    json.dump({}, fh)                 # {}: keep every default (no dump, no profiling)
import atexit
ret = acl.init(config)                # acl.init() without an argument does the same
print("acl.init ->", "0 (initialised)" if ret == 0 else f"{ret} (this kernel was initialised already)")
if ret == 0:
    atexit.register(acl.finalize)     # the one acl.finalize of this process, when the kernel exits

# %% [markdown] tags=["lang:en"]
# ## Return shapes, and the `check_ret` habit
# pyACL is a thin C binding, and its Python return value follows the C function:
# * a C call that only returns an `aclError` gives a **bare `ret`** — `acl.init`, `acl.rt.set_device`,
#   `acl.rt.free`, `acl.mdl.execute`;
# * a C call with **out-parameters** gives a tuple, **outputs first, `ret` last** —
#   `context, ret = acl.rt.create_context(0)`, `ptr, ret = acl.rt.malloc(size, policy)`,
#   `work, weight, ret = acl.mdl.query_size(path)`;
# * a C call that **returns the value itself** (most creators and many getters) gives **only that value**, no
#   `ret` — `acl.mdl.create_desc() -> desc`, `acl.mdl.create_dataset()`, `acl.create_data_buffer(ptr, size)`,
#   `acl.mdl.get_num_inputs(desc) -> int`; they signal failure with 0 (a NULL handle) or an empty value. A getter
#   whose C function fills an out-parameter follows the previous rule instead: `dims, ret =
#   acl.mdl.get_input_dims(desc, 0)`, `batch, ret = acl.mdl.get_dynamic_batch(desc)`, `context, ret =
#   acl.rt.get_context()`. The rule is the C signature, not the word "get".
#
# One oddity: `acl.mdl.add_dataset_buffer(dataset, buffer)` returns `(dataset, ret)`, which is why the samples
# write `_, ret = acl.mdl.add_dataset_buffer(...)`. The samples wrap every `ret` in a `check_ret` helper that
# raises; real code has no other way to notice a failure, because pyACL reports a failing call only
# through its `ret` (it raises only for malformed arguments, such as `None` for a handle).
#
# The calls: [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html) opens Device 0 (reference-counted: each call needs
# its own reset); [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html) creates a Context on it *and makes it
# current for the calling thread*; [`acl.rt.create_stream`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html) creates a Stream in the current
# Context; [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) says where this program runs.

# %% [markdown] tags=["lang:zh"]
# ## 返回值形状，以及 `check_ret` 习惯
# pyACL 是一层很薄的 C 绑定，Python 返回值由 C 函数决定：
# * 只返回 `aclError` 的 C 接口，Python 中**只返回 `ret`**——`acl.init`、`acl.rt.set_device`、`acl.rt.free`、`acl.mdl.execute`；
# * 带**输出参数**的 C 接口，返回一个元组，**输出在前，`ret` 在最后**——`context, ret = acl.rt.create_context(0)`、
#   `ptr, ret = acl.rt.malloc(size, policy)`、`work, weight, ret = acl.mdl.query_size(path)`；
# * **直接返回值本身**的 C 接口（大多数创建类和许多查询类接口）只返回**这个值**，没有 `ret`——`acl.mdl.create_desc() -> desc`、
#   `acl.mdl.create_dataset()`、`acl.create_data_buffer(ptr, size)`、`acl.mdl.get_num_inputs(desc) -> int`；它们用 0（空句柄）或空值
#   表示失败。C 函数通过输出参数给出结果的查询接口则按上一条规则：`dims, ret = acl.mdl.get_input_dims(desc, 0)`、
#   `batch, ret = acl.mdl.get_dynamic_batch(desc)`、`context, ret = acl.rt.get_context()`。规则看的是 C 函数签名，而不是名字里的 “get”。
#
# 有一个特例：`acl.mdl.add_dataset_buffer(dataset, buffer)` 返回 `(dataset, ret)`，所以样例写成
# `_, ret = acl.mdl.add_dataset_buffer(...)`。样例用 `check_ret` 辅助函数包住每个 `ret`，失败就抛异常；真实代码没有别的办法
# 发现失败，因为调用失败时 pyACL 只通过 `ret` 报告（只有参数本身不合法时才抛异常，例如把 `None` 当句柄）。
#
# 本节的调用：[`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html) 打开 Device 0（有引用计数：每调用一次就要对应复位一次）；
# [`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md) 在该 Device 上创建 Context，*并把它设为调用线程的当前 Context*；
# [`acl.rt.create_stream`](https://hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/aadgp/aclpythondevg_01_0074.html) 在当前 Context 中创建 Stream；[`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html)
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
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md) returns the handle itself, so does
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) (an empty `(0, 0)` buffer is allowed);
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) returns `(dataset, ret)`;
# [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md) returns the count itself. Their destroyers,
# [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md) and [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md), return a bare `ret`.
# From here on the notebooks use `lab.check_ret`, which does what the samples' helper does and also says
# what the code means.

# %% [markdown] tags=["lang:zh"]
# 在一个空的数据集上看创建类、查询类接口和那个特例：[`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md) 返回句柄本身，
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) 也一样（允许创建 `(0, 0)` 的空缓冲）；
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) 返回 `(dataset, ret)`；
# [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md) 直接返回个数。对应的销毁接口 [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)
# 和 [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md) 只返回 `ret`。从这里开始，各节使用 `lab.check_ret`：它与样例的辅助函数作用相同，
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
# `acl.init()` a second time in the same process, with no finalize in between, returns **100002
# ACL_ERROR_REPEAT_INITIALIZE** under both rules. It is not fatal — the process is still initialised — and it is
# what you get when you re-run the first cells of a notebook. The code's digits carry meaning ([aclError classes](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/API/appdevgapi/aclcppdevg_03_1345.html)):
# the first digit is the class — **1**xxxxx your call or environment (a parameter, the order of calls),
# **2**xxxxx resources (memory, device, an unsupported feature), **3**xxxxx a service failed (a queue full or empty, for example), **5**xxxxx
# internal errors (collect the logs); the next digits name the component — 100xxx/148xxx AscendCL itself,
# 107xxx/207xxx/507xxx the runtime, 145xxx/245xxx/545xxx the graph engine that loads and runs models.

# %% [markdown] tags=["lang:zh"]
# ## 重复运行单元格：100002，以及错误码的样子
# 在同一进程中、中间没有 finalize 时第二次调用 `acl.init()`，两种规则下都返回 **100002 ACL_ERROR_REPEAT_INITIALIZE**。这不是致命错误——
# 进程仍处于已初始化状态——重新运行 notebook 开头几个单元格时就会遇到它。错误码的各位数字有含义（[aclError 错误码分类](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/API/appdevgapi/aclcppdevg_03_1345.html)）：
# 第一位是类别——**1**xxxxx 表示调用方或环境的问题（参数、调用顺序），**2**xxxxx 表示资源问题（内存、设备、不支持的特性），
# **3**xxxxx 表示业务功能异常（例如队列满、队列空），**5**xxxxx 表示内部错误（需收集日志）；接下来几位表示组件——100xxx/148xxx 是 AscendCL 本身，
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
# itself with [`acl.rt.set_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0077.html). [`acl.rt.get_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html)
# tells which Context is current. Release goes Stream → Context → Device:
# [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html), [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html),
# [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html).

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

# %% [markdown] tags=["lang:en"]
# **Implicit** creation is what `set_device` does by itself: it opens the Device with a *default Context* and
# a *default Stream*. Calls that take a stream accept `0` for that default stream
# ([`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) below). It suits small single-threaded
# programs — the official ResNet-50 sample never creates a stream. The guide's warning: in a multi-threaded
# program every thread shares the default Context and Stream, and the order of tasks on the default Stream
# then depends on how the operating system schedules the threads. `reset_device` releases the defaults. Leave the
# default Context alone: the pyACL programming-model page says not to use it with the Context calls
# (`get_context`, `set_context`, `destroy_context`) — they are for Contexts you created.

# %% [markdown] tags=["lang:zh"]
# **隐式创建**就是 `set_device` 自己完成的事：它打开 Device 的同时创建*默认 Context* 和*默认 Stream*。需要传入 Stream 的接口
# 可以用 `0` 表示默认 Stream（见下面的 [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html)）。它适合简单的单线程程序——
# 官方 ResNet-50 样例就从不创建 Stream。指南的提醒是：多线程程序中每个线程都使用默认 Context 和默认 Stream，默认 Stream 中任务的
# 执行顺序就取决于操作系统的线程调度顺序。`reset_device` 会一并释放默认 Context 和默认 Stream。不要去动默认 Context：pyACL 编程模型
# 页面说明不要对它使用 Context 接口（`get_context`、`set_context`、`destroy_context`）——它们是给你自己创建的 Context 用的。

# %%
check_ret("acl.rt.set_device", acl.rt.set_device(0))        # also creates the default context and stream
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(0))   # 0: the default stream
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))    # releases the default context and stream too
print("set_device -> synchronize_stream(0) -> reset_device: the default context and stream came and went")

# %% [markdown] tags=["lang:en"]
# ## Run modes: where does the program run?
# `get_run_mode` answers **ACL_HOST (1)** on a PC or server with an accelerator card: your Python runs on the
# host CPU, device memory sits across PCIe, and data must be copied with `memcpy` host → device and back. It
# answers **ACL_DEVICE (0)** on a board such as the Atlas 200I DK A2: there is no separate host — *your
# program runs on the device's own control CPU*, next to the AI cores, in the same memory. Consequences the
# [data-transfer guide](https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/aclpythondevg_0010.html) spells out: [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) then
# returns device memory, a "host" buffer needs no H2D copy, and copies that remain become device-to-device
# ones or are skipped (acllite picks `ACL_MEMCPY_DEVICE_TO_DEVICE` when the run mode is ACL_DEVICE).
#
# *simulator:* `sim.configure(run_mode="device")` makes the simulator a board for the next cell, then
# `run_mode="host"` makes it a PC again; on a real machine the cell runs once, in the machine's own mode. It
# uses [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) (notebook 05 explains the
# copy kinds), [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html) and [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md).

# %% [markdown] tags=["lang:zh"]
# ## 运行模式：程序运行在哪里？
# 在插有加速卡的 PC 或服务器上，`get_run_mode` 返回 **ACL_HOST (1)**：Python 运行在 Host CPU 上，Device 内存在 PCIe 的另一端，
# 数据必须用 `memcpy` 从 Host 复制到 Device，再复制回来。在 Atlas 200I DK A2 这样的开发板上，它返回 **ACL_DEVICE (0)**：
# 没有独立的 Host——*程序就运行在 Device 自己的控制 CPU 上*，与 AI Core 共用同一块内存。[数据传输指南](https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/aclpythondevg_0010.html)写明了后果：
# 此时 [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html) 返回的是 Device 内存，“Host”缓冲不需要 H2D 内存复制，剩下的内存复制变成
# Device 到 Device，或者干脆省掉（acllite 在运行模式为 ACL_DEVICE 时选择 `ACL_MEMCPY_DEVICE_TO_DEVICE`）。
#
# *模拟器：* `sim.configure(run_mode="device")` 让模拟器在下一个单元格中扮演开发板，之后 `run_mode="host"` 再变回 PC；
# 在真实机器上，该单元格按机器本身的运行模式只运行一次。它用到 [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)、
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)（第 05 节讲解内存复制方向）、[`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html) 和 [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)。

# %%
from acl_teach import backend

def where_does_malloc_host_point():
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

if lab.on_simulator():                   # simulator: be a board (ACL_DEVICE), then a PC with a card again
    from acl_teach import sim
    for mode in ("device", "host"):
        sim.configure(run_mode=mode)
        where_does_malloc_host_point()
else:                                    # a real machine is what it is
    where_does_malloc_host_point()

# %% [markdown] tags=["lang:en"]
# ## The same with the step API
# `at.init()` reports 100002 instead of raising (this kernel is initialised already, so that is what it says
# here); `at.request_resources()` does set_device → create_context →
# create_stream → get_run_mode (explicit creation, as recommended) and shows the calls it made. Its record
# keeps the handles, and `at.release_resources` releases them in the reverse order.

# %% [markdown] tags=["lang:zh"]
# ## 用分步 API 完成同样的事
# `at.init()` 遇到 100002 时只报告、不抛异常（本内核已经初始化，所以这里它报告的正是 100002）；`at.request_resources()` 依次执行 set_device → create_context → create_stream →
# get_run_mode（按推荐的显式创建方式），并显示它调用了哪些接口。它返回的记录保存了各个句柄，`at.release_resources` 按相反顺序释放它们。

# %%
init = at.init()
print(init.notes[0] if init.notes else "acl.init -> 0")
res = at.request_resources(0)
print(res)
print(res.code())

# %%
print(at.release_resources(res).code())

# %% [markdown] tags=["lang:en"]
# ## init → finalize → init: the two rules, in a process of its own
# What happens when one process finalizes and initialises again is exactly where the two runtimes differ, and a
# finalize here would end this kernel's pyACL for good under the older rule. So the demonstration is a small
# program of its own, run as a child process with `lab.run_program` (`python3 program.py` on a board, the same
# under `python -m acl_teach.sim` here). The program prints each `ret`; then it does what every program should:
# one init, one finalize.
#
# *simulator:* the cell runs the program twice, once with the CANN ≤ 8.0 rule (`ACL_TEACH_SIM_INIT_ONCE=1`: the
# second `acl.init` returns 100002 and the process stays finalized, so `set_device` gets 100001 here — which code
# a board returns for that call is UNCONFIRMED) and once with the newer runtime's (init works again). A board
# runs it once and shows its own rule.

# %% [markdown] tags=["lang:zh"]
# ## init → finalize → init：两种规则，在单独的进程中演示
# 一个进程去初始化之后再初始化会怎样，正是两代运行时的区别所在；而在旧规则下，在这里调用 finalize 会让本内核的 pyACL 永远无法再用。
# 所以演示写成一个独立的小程序，用 `lab.run_program` 作为子进程运行（开发板上是 `python3 program.py`，这里是在 `python -m acl_teach.sim`
# 下运行同一个程序）。程序打印每个 `ret`；然后按每个程序都应有的方式收尾：一次 init，一次 finalize。
#
# *模拟器：* 单元格把程序运行两次，一次按 CANN 8.0 及以前的规则（`ACL_TEACH_SIM_INIT_ONCE=1`：第二次 `acl.init` 返回 100002，进程仍处于
# 去初始化状态，所以这里 `set_device` 得到 100001——开发板对这个调用返回哪个错误码尚未确认，UNCONFIRMED），一次按新运行时的规则
# （可以再次初始化）。开发板上只运行一次，显示它自己的规则。

# %%
program = """
import acl
print("init     ->", acl.init())
print("finalize ->", acl.finalize())
again = acl.init()
print("init     ->", again, "(100002: this process cannot init again)" if again == 100002 else "(initialised again)")
print("set_device ->", acl.rt.set_device(0))
if again == 0:
    print("reset_device ->", acl.rt.reset_device(0))
    print("finalize ->", acl.finalize())
"""
if lab.on_simulator():
    for rule, flag in (("CANN <= 8.0: one acl.init per process", "1"), ("2025/26 runtime: init again", "0")):
        print("--", rule)
        lab.run_program(program, env={"ACL_TEACH_SIM_INIT_ONCE": flag, "ACL_TEACH_SIM_QUIET": "1"})
else:
    lab.run_program(program)

# %% [markdown] tags=["lang:en"]
# ## Exercise (2 points)
# Write `open_device(device_id)`: open the device, create a Context on it and a Stream explicitly, check every
# `ret`, and return `(context, stream)`. Then write `close_device(device_id, context, stream)`: release them in
# the reverse order. Neither function may call `acl.init` or `acl.finalize` — this kernel is initialised once,
# above, and finalizes once, at exit. The checker runs both in this kernel's process, records their calls and
# reads the ledger afterwards, so returned numbers that your calls did not make do not pass.

# %% [markdown] tags=["lang:zh"]
# ## 练习（2 分）
# 编写 `open_device(device_id)`：打开 Device，在其上显式创建一个 Context 和一个 Stream，检查每个 `ret`，返回 `(context, stream)`。再编写
# `close_device(device_id, context, stream)`：按相反顺序释放它们。两个函数都不能调用 `acl.init` 或 `acl.finalize`——本内核在上面初始化
# 一次、在退出时去初始化一次。检查器在本内核的进程中运行这两个函数，记录它们的调用，并在之后查看资源台账，所以返回并非由你的调用创建的
# 数字是通不过的。

# %% tags=["solution", "grade_id:nb01-init"]
def open_device(device_id):
    """set_device, then an explicit Context and Stream; return (context, stream)."""
    ### BEGIN SOLUTION
    check_ret("acl.rt.set_device", acl.rt.set_device(device_id))
    context, ret = acl.rt.create_context(device_id)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    return context, stream
    ### END SOLUTION


def close_device(device_id, context, stream):
    """Release in the reverse order: Stream, Context, Device."""
    ### BEGIN SOLUTION
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(device_id))
    ### END SOLUTION

# %% tags=["grade", "points:2", "grade_id:nb01-init-test"]
feedback = lab.check_open_close(open_device, close_device)
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Summary
# * `acl.init([config.json])` first, `acl.finalize()` last, once each per process: up to CANN 8.0 a finalized
#   process cannot init again (100002); the 2025/26 runtime allows it. A second init without finalize returns
#   100002, which is harmless. A notebook kernel is one process: init once, finalize at exit (`atexit`).
# * Resources come in the order Device → Context → Stream and go in the reverse order. Explicit Contexts are
#   current in the thread that made them; `set_device` alone gives a default Context and Stream (stream `0`).
# * Return shapes follow the C signature: a bare `ret`; `(outputs…, ret)` for out-parameters (`get_input_dims`,
#   `rt.get_context` too); the bare value where C returns it; `(dataset, ret)` for `add_dataset_buffer`. Check
#   every `ret`: pyACL never raises for one.
# * ACL_HOST copies across PCIe; ACL_DEVICE runs on the board's CPU, where `malloc_host` is device memory.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 最先调用 `acl.init([config.json])`，最后调用 `acl.finalize()`，每个进程各一次：CANN 8.0 及以前，进程 finalize 之后不能再初始化
#   （100002）；2025/26 年的运行时允许。没有 finalize 时第二次初始化返回 100002，无害。一个 notebook 内核就是一个进程：初始化一次，
#   退出时去初始化（`atexit`）。
# * 资源按 Device → Context → Stream 的顺序申请，按相反顺序释放。显式创建的 Context 是创建它的线程的当前 Context；
#   只调用 `set_device` 时得到默认 Context 和默认 Stream（Stream 写 `0`）。
# * 返回值形状由 C 函数签名决定：只有 `ret`；有输出参数时为 `(输出…, ret)`（`get_input_dims`、`rt.get_context` 也是）；C 直接返回值时
#   只返回值本身；`add_dataset_buffer` 返回 `(dataset, ret)`。检查每个 `ret`：pyACL 从不因错误码抛异常。
# * ACL_HOST 模式通过 PCIe 复制数据；ACL_DEVICE 模式下程序运行在开发板的 CPU 上，`malloc_host` 得到的就是 Device 内存。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. What does `acl.mdl.get_num_inputs(desc)` return: an int, or `(int, ret)`? And `acl.rt.malloc(size, 0)`?
# 2. A notebook's first cell is run twice and prints 100002. Is the process broken? What class of error is it?
#    And on a CANN 8.0 board, what would an `acl.finalize` in the middle of the notebook have done to the rest?
# 3. Your callback thread calls `acl.rt.synchronize_stream(stream)` on a stream made in another thread and
#    fails. Which call did the thread forget?
# 4. On an Atlas 200I DK A2, what kind of memory does `acl.rt.malloc_host` return, and which copy kind does
#    acllite use to move it into a model's input?
#
# **Next →** [02_load_model](02_load_model.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. `acl.mdl.get_num_inputs(desc)` 返回什么：一个 int，还是 `(int, ret)`？`acl.rt.malloc(size, 0)` 呢？
# 2. 某个 notebook 的第一个单元格运行了两次，输出 100002。进程坏了吗？这属于哪一类错误？在 CANN 8.0 的开发板上，如果在 notebook
#    中间调用了 `acl.finalize`，后面的单元格会怎样？
# 3. 回调线程对另一个线程创建的 Stream 调用 `acl.rt.synchronize_stream(stream)` 失败了，这个线程漏掉了哪个调用？
# 4. 在 Atlas 200I DK A2 上，`acl.rt.malloc_host` 返回的是哪种内存？acllite 用哪种内存复制方向把它送进模型输入？
#
# **下一节 →** [02_load_model](02_load_model.ipynb)

# %%
print(lab.ledger_summary())
