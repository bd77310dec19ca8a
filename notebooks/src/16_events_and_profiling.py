# %% [markdown] tags=["lang:en"]
# # 16 · Events and profiling: timing and ordering work on the device (Event 与 Profiling)
# **Why.** "How long does one inference take?" sounds like `time.perf_counter()` around `execute_async`. It is not:
# `execute_async` only *queues* the work and returns, so the host's clock measures the queueing, and around a
# synchronous call it adds the host's own overhead. The device keeps its own time. An **Event** is a marker you put
# into a Stream; when the Stream reaches it, the device stamps it, and
# [`acl.rt.event_elapsed_time`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0104.html)
# "统计两个Event之间的耗时" — the time between two of them, in milliseconds, with a documented call order: create →
# record start and end in the same Stream → synchronize → elapsed time. The same markers order work *between*
# streams ([`acl.rt.stream_wait_event`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0101.html)).
# For the whole picture — every copy, the model, each operator — there is **profiling**: `acl.prof` sessions, or a
# `profiler` section in the JSON file given to `acl.init`.
#
# **You will be able to:** time device work with a pair of events; split an inference into its copy / execute /
# copy-back times; make one stream wait for another with `stream_wait_event`; collect a profile with `acl.prof`,
# marking your own ranges, and draw its timeline; switch profiling on from `acl.init`'s config file.
#
# *simulator:* every time in this notebook is the simulator's **cost model** (`acl_teach/sim/core/timeline.py`: a launch
# cost per task, copies at a bandwidth per direction, models from the work ATC recorded), not a measurement. Its
# clock is simulated, so the same program gives the same numbers on every run; a board gives its own, different
# and varying, numbers.

# %% [markdown] tags=["lang:zh"]
# # 16 · Event 与 Profiling：在 Device 上计时、给任务排序
# **为什么。** “一次推理要多长时间？”听起来像是在 `execute_async` 前后调用 `time.perf_counter()`。其实不然：`execute_async`
# 只是把任务*放入队列*就返回，所以 Host 的时钟量到的是入队的时间；包在同步调用外面，又会加上 Host 自己的开销。Device 有自己的时间。
# **Event** 是你放进 Stream 的一个标记；Stream 执行到它时，Device 给它打上时间戳。
# [`acl.rt.event_elapsed_time`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0100.html)
# “统计两个Event之间的耗时”，单位毫秒，文档给出了调用顺序：创建 → 在同一个 Stream 中记录起始和结尾 Event → 同步 → 统计耗时。
# 同样的标记也能在 Stream *之间*排序（[`acl.rt.stream_wait_event`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0101.html)）。
# 要看全貌——每次复制、模型、每个算子——就用 **Profiling**：`acl.prof` 采集会话，或者在传给 `acl.init` 的 JSON 文件中写一个
# `profiler` 配置段。
#
# **学完本节你将能够：** 用一对 Event 给 Device 上的任务计时；把一次推理拆成复制 / 执行 / 拷回三段时间；用 `stream_wait_event`
# 让一个 Stream 等待另一个；用 `acl.prof` 采集性能数据、标出你自己的区间并画出时间线；通过 `acl.init` 的配置文件开启 Profiling。
#
# *模拟器：* 本节中的每个时间都来自模拟器的**代价模型**（`acl_teach/sim/core/timeline.py`：每个任务一个下发开销，复制按各方向的带宽，
# 模型按 ATC 记录的计算量），不是测量值。它的时钟是模拟的，所以同一个程序每次运行都得到同样的数字；开发板给出的是它自己的、不同且会波动的数字。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# Preparation: resources with an explicit stream, the default model, its datasets, and the cat photo in
# page-locked host memory ([`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)),
# so that `memcpy_async` really is asynchronous (notebook 05); a second host buffer takes the scores back. A second
# stream, `copy_stream`, is for the part on ordering.
#
# Every pyACL call the code cells make, with its page (the pyACL API index where no page is given):
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html),
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html),
# [`acl.rt.create_stream`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html),
# [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html),
# [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0156.html),
# [`acl.rt.query_event_status`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0100.html),
# [`acl.rt.destroy_event`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/event/function-destroy_event.md),
# [`acl.rt.memset`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0118.html),
# [`acl.rt.reset_event`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/event/function-reset_event.md),
# [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html),
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md),
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html),
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html),
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html),
# [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html),
# [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html),
# [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html),
# [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html),
# [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md),
# [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md),
# [`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html),
# [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0207.html),
# [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md),
# [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html),
# [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md),
# [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md),
# [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html),
# [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html),
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html),
# [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html),
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html),
# [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html),
# [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md).

# %% [markdown] tags=["lang:zh"]
# 准备：带显式 Stream 的运行管理资源、默认模型及其数据集，以及放在锁页 Host 内存（[`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html)）
# 中的猫的照片——这样 `memcpy_async` 才真正是异步的（第 05 节）；另一块 Host 缓冲用来取回分数。第二个 Stream `copy_stream` 留给讲排序的部分。
#
# 代码单元格用到的每个 pyACL 调用及其页面（没有单独页面的链接到 pyACL API 索引）：
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html),
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html),
# [`acl.rt.create_stream`](https://hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/aadgp/aclpythondevg_01_0074.html),
# [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html),
# [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0147.html),
# [`acl.rt.query_event_status`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/event/function-query_event_status.md),
# [`acl.rt.destroy_event`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/event/function-destroy_event.md),
# [`acl.rt.memset`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0118.html),
# [`acl.rt.reset_event`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/event/function-reset_event.md),
# [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html),
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md),
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html),
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html),
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html),
# [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html),
# [`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html),
# [`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md),
# [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md),
# [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md),
# [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md),
# [`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md),
# [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0198.html),
# [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md),
# [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html),
# [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md),
# [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md),
# [`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md),
# [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html),
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html),
# [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html),
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html),
# [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html),
# [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md).

# %%
import atexit
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
model = at.load_model(at.models.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
dev_in, dev_out = inputs.buffers[0], outputs.buffers[0]
photo = at.preprocess(at.models.image("chelsea.png")).tobytes()
host_in, ret = acl.rt.malloc_host(len(photo))
check_ret("acl.rt.malloc_host", ret)
check_ret("acl.rt.memcpy", acl.rt.memcpy(host_in, len(photo), acl.util.bytes_to_ptr(photo), len(photo), 0))
host_out, ret = acl.rt.malloc_host(dev_out.size)
check_ret("acl.rt.malloc_host", ret)
run_mode, ret = acl.rt.get_run_mode()    # ACL_DEVICE (0): this code runs on the board, where all memory is device memory
check_ret("acl.rt.get_run_mode", ret)
TO_DEV, FROM_DEV = (3, 3) if run_mode == 0 else (1, 2)   # DEVICE_TO_DEVICE on a board; else HOST_TO_DEVICE / _TO_HOST
copy_stream, ret = acl.rt.create_stream()
check_ret("acl.rt.create_stream", ret)
labels = at.models.labels()

def top_class():
    """The best class of the scores in host_out (after the copy back has run)."""
    best = int(np.frombuffer(acl.util.ptr_to_bytes(host_out, dev_out.size), np.float32).argmax())
    return f"{best} {labels[best].split(',')[0]}"

# %% [markdown] tags=["lang:en"]
# ## Two events around one inference
# [`acl.rt.create_event`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0092.html)`()`
# returns `(event, ret)`. [`acl.rt.record_event`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0097.html)`(event, stream)`
# is itself an asynchronous task: it "捕获当前Stream上已下发的任务" — captures the tasks already queued on that stream —
# and is stamped when the stream gets there. So: record `start`, queue the inference, record `end`, then wait for
# `end` with [`acl.rt.synchronize_event`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0098.html)
# ("阻塞当前线程运行直到Event捕获的所有任务都执行完成") and read `ms, ret = acl.rt.event_elapsed_time(start, end)`.
# Only the work *between* the two records on that stream is measured.
#
# `acl.rt.query_event_status(event)` asks without blocking: `(status, ret)` with 1 = ACL_EVENT_RECORDED_STATUS_COMPLETE,
# 0 = NOT_READY (CANN's `acl_rt.h`). Mind the older `acl.rt.query_event`: its `aclrtEventStatus` counts the other way
# round (0 = COMPLETE, 1 = NOT_READY). Each event is destroyed with `acl.rt.destroy_event` when done.
#
# *simulator:* a query lets the device catch up (it is assumed to have worked meanwhile), so the query right after the
# record already says 1. On a board it may well say 0 — the inference is still running.

# %% [markdown] tags=["lang:zh"]
# ## 一次推理前后的两个 Event
# [`acl.rt.create_event`](https://www.hiascend.com/doc_center/source/zh/canncommercial/601/inferapplicationdev/aclpythondevg/aclpythondevg_01_0073.html)`()`
# 返回 `(event, ret)`。[`acl.rt.record_event`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0093.html)`(event, stream)`
# 本身也是一个异步任务：它“捕获当前Stream上已下发的任务”，在 Stream 执行到它时打上时间戳。所以：记录 `start`，放入推理，记录 `end`，
# 再用 [`acl.rt.synchronize_event`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0098.html)
# （“阻塞当前线程运行直到Event捕获的所有任务都执行完成”）等待 `end`，最后读 `ms, ret = acl.rt.event_elapsed_time(start, end)`。
# 量到的只是该 Stream 上两次记录*之间*的任务。
#
# `acl.rt.query_event_status(event)` 不阻塞地询问：返回 `(status, ret)`，1 = ACL_EVENT_RECORDED_STATUS_COMPLETE，0 = NOT_READY
# （CANN 的 `acl_rt.h`）。注意较老的 `acl.rt.query_event`：它的 `aclrtEventStatus` 正好反过来（0 = COMPLETE，1 = NOT_READY）。
# 用完的 Event 要用 `acl.rt.destroy_event` 销毁。
#
# *模拟器：* 查询会让 Device 赶上进度（假定它在此期间一直在工作），所以记录之后马上查询就已经是 1。在开发板上它很可能是 0——推理还在执行。

# %%
def new_event():
    event, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)
    return event

check_ret("acl.rt.memcpy", acl.rt.memcpy(dev_in.ptr, dev_in.size, host_in, len(photo), TO_DEV))   # the photo in
start, end = new_event(), new_event()
check_ret("acl.rt.record_event", acl.rt.record_event(start, res.stream))
check_ret("acl.mdl.execute_async",
          acl.mdl.execute_async(model.model_id, inputs.dataset, outputs.dataset, res.stream))
check_ret("acl.rt.record_event", acl.rt.record_event(end, res.stream))
status, ret = acl.rt.query_event_status(end)
print("query_event_status right after the record:", status, "(1 COMPLETE, 0 NOT_READY; simulator: already 1)")
check_ret("acl.rt.synchronize_event", acl.rt.synchronize_event(end))
ms, ret = acl.rt.event_elapsed_time(start, end)
check_ret("acl.rt.event_elapsed_time", ret)
print(f"one execute_async: {ms:.3f} ms  (simulator: cost model)")
for event in (start, end):
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(event))

# %% [markdown] tags=["lang:en"]
# ## Where the time of one photo goes
# Four events on one stream split the pipeline into its three asynchronous steps: copy in
# ([`acl.rt.memcpy_async`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0125.html),
# kind `TO_DEV`), execute, copy the 4,000 bytes of scores back (kind `FROM_DEV`) — 1 and 2 on a PC with a card, 3
# (device to device) on a board, chosen from [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) as in notebooks 14 and 15. One `synchronize_event` on the last event waits for
# all of them: tasks on one stream run in order.
#
# *simulator:* copies cost a launch plus bytes over a bandwidth (12 GB/s each way between host and device), the model
# its operators' multiply-accumulates and bytes plus its weights read once. The proportions — the model dwarfs both
# copies of this small photo — are what to take from it; the values are the cost model's.

# %% [markdown] tags=["lang:zh"]
# ## 一张照片的时间花在哪里
# 同一个 Stream 上的四个 Event 把流程分成三个异步步骤：复制进去（[`acl.rt.memcpy_async`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha001/API/appdevgapi/aclpythondevg_01_0121.html)，
# kind `TO_DEV`）、执行、把 4,000 字节的分数拷回（kind `FROM_DEV`）——插卡的 PC 上是 1 和 2，开发板上是 3（Device 到 Device），
# 与第 14、15 节一样由 [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) 决定。对最后一个 Event 调用一次 `synchronize_event` 就等到了全部任务：同一个 Stream 上的任务按顺序执行。
#
# *模拟器：* 复制的代价是一次下发开销加上字节数除以带宽（Host 与 Device 之间每个方向 12 GB/s），模型的代价是各算子的乘加次数和字节数，
# 再加上读一遍权重。要看的是比例——对这张小照片来说，模型远远超过两次复制；数值则来自代价模型。

# %%
marks = [new_event() for _ in range(4)]
check_ret("acl.rt.memset", acl.rt.memset(dev_in.ptr, dev_in.size, 0, dev_in.size))   # no photo yet
check_ret("acl.rt.record_event", acl.rt.record_event(marks[0], res.stream))
check_ret("acl.rt.memcpy_async", acl.rt.memcpy_async(dev_in.ptr, dev_in.size, host_in, len(photo), TO_DEV, res.stream))
check_ret("acl.rt.record_event", acl.rt.record_event(marks[1], res.stream))
check_ret("acl.mdl.execute_async",
          acl.mdl.execute_async(model.model_id, inputs.dataset, outputs.dataset, res.stream))
check_ret("acl.rt.record_event", acl.rt.record_event(marks[2], res.stream))
check_ret("acl.rt.memcpy_async",
          acl.rt.memcpy_async(host_out, dev_out.size, dev_out.ptr, dev_out.size, FROM_DEV, res.stream))
check_ret("acl.rt.record_event", acl.rt.record_event(marks[3], res.stream))
check_ret("acl.rt.synchronize_event", acl.rt.synchronize_event(marks[3]))
print("simulator (cost model):")
for name, a, b in (("copy in ", 0, 1), ("execute ", 1, 2), ("copy out", 2, 3), ("total   ", 0, 3)):
    ms, ret = acl.rt.event_elapsed_time(marks[a], marks[b])
    check_ret("acl.rt.event_elapsed_time", ret)
    print(f"  {name} {ms:8.3f} ms")
print("top class:", top_class())
for event in marks:
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(event))

# %% [markdown] tags=["lang:en"]
# ## Ordering two streams: `stream_wait_event`
# Tasks on *different* streams have no order at all. A common layout puts copies on one stream and inference on
# another; then the execute must not start before its input has arrived.
# [`acl.rt.stream_wait_event`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0101.html)`(stream, event)`
# queues a wait: "提交到Stream上的所有后续任务都需要等待Event捕获的任务都完成后才能开始执行" — everything queued on `stream`
# after it waits until the tasks the event captured are done. It is asynchronous; a failed wait shows at the
# synchronize ([aclrtStreamWaitEvent](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclcppdevg_03_0091.html)).
# The older guides give the order create → record → wait → `acl.rt.reset_event(event, stream)`, the reset releasing
# the event's resource once the wait has passed; the code below keeps it (harmless on newer runtimes).
#
# The cell runs the same two-stream pipeline twice, after clearing the input: without and with the wait.
#
# *simulator:* a stream's work runs when something waits for it, so without the wait the compute stream, synchronised
# first, executes on the cleared input, every time. **On a board it is a race**: the copy may or may not have landed;
# you may get the cat, garbage or a mix. Only the wait makes the result certain.

# %% [markdown] tags=["lang:zh"]
# ## 给两个 Stream 排序：`stream_wait_event`
# *不同* Stream 上的任务之间没有任何顺序。常见的做法是把复制放在一个 Stream、推理放在另一个 Stream；这时执行不能在输入到达之前开始。
# [`acl.rt.stream_wait_event`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0101.html)`(stream, event)`
# 放入一个等待任务：“提交到Stream上的所有后续任务都需要等待Event捕获的任务都完成后才能开始执行”。它是异步接口；等待失败要到同步时才显现
# （[aclrtStreamWaitEvent](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclcppdevg_03_0091.html)）。
# 较早的指南给出的顺序是 create → record → wait → `acl.rt.reset_event(event, stream)`，等待通过之后用 reset 释放 Event 的资源；
# 下面的代码保留了这一步（在新的运行时上也无害）。
#
# 单元格在清空输入之后把同一个双 Stream 流程运行两次：一次不等待，一次等待。
#
# *模拟器：* Stream 上的任务在有人等待它时才执行，所以不等待时，先被同步的计算 Stream 每次都在清空的输入上执行。**在开发板上这是竞争**：
# 复制可能到了，也可能没到；你可能得到猫、乱码或二者的混合。只有等待才能让结果确定。

# %%
def two_streams(wait):
    """Copy the photo in on copy_stream, infer and copy back on res.stream; with or without the wait between."""
    check_ret("acl.rt.memset", acl.rt.memset(dev_in.ptr, dev_in.size, 0, dev_in.size))
    copied = new_event()
    check_ret("acl.rt.memcpy_async",
              acl.rt.memcpy_async(dev_in.ptr, dev_in.size, host_in, len(photo), TO_DEV, copy_stream))
    check_ret("acl.rt.record_event", acl.rt.record_event(copied, copy_stream))
    if wait:
        check_ret("acl.rt.stream_wait_event", acl.rt.stream_wait_event(res.stream, copied))
        check_ret("acl.rt.reset_event", acl.rt.reset_event(copied, res.stream))
    check_ret("acl.mdl.execute_async",
              acl.mdl.execute_async(model.model_id, inputs.dataset, outputs.dataset, res.stream))
    check_ret("acl.rt.memcpy_async",
              acl.rt.memcpy_async(host_out, dev_out.size, dev_out.ptr, dev_out.size, FROM_DEV, res.stream))
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(copy_stream))
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(copied))
    return top_class()

print("without stream_wait_event:", two_streams(False), " (simulator: the copy had not run; on a board: a race)")
print("with stream_wait_event:   ", two_streams(True))

# %% [markdown] tags=["lang:en"]
# ## Profiling with `acl.prof`: the whole timeline
# Events answer one question each. A profiling session records everything: the calls
# [`acl.prof.init`](https://hiascend.com/doc_center/source/zh/canncommercial/80RC1/apiref/appdevgapi/aclpythondevg_01_0848.html)`(folder)` →
# `config = acl.prof.create_config(device_ids, aicore_metrics, aicore_events, data_types)` →
# [`acl.prof.start`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0852.html)`(config)`
# … `acl.prof.stop(config)` → `acl.prof.destroy_config` → `acl.prof.finalize()`. "Profling采集到的数据为调用该接口之后的数据":
# only what runs after `start` is collected. The data types are OR-ed macros
# ([aclprofCreateConfig](https://hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclcppdevg/aclcppdevg_03_0752.html)):
# `ACL_PROF_ACL_API` (0x1, the AscendCL calls and copies), `ACL_PROF_TASK_TIME` (0x2, operator execution times),
# `ACL_PROF_MSPROFTX` (0x80, what your own program marks). `ACL_AICORE_NONE` (0xFF) collects no AI Core metrics; the
# events argument is 0 (NULL).
#
# With `ACL_PROF_MSPROFTX` you mark your own ranges: a stamp (`acl.prof.create_stamp`), its message
# (`acl.prof.set_stamp_trace_message(stamp, msg, len)`), then `range_id, ret = acl.prof.range_start(stamp)` …
# `acl.prof.range_stop(range_id)`; `acl.prof.destroy_stamp` releases it. The guide's rules: `init` before `start`;
# no model subscription (`acl.prof.model_subscribe`) between `init` and `finalize`; and if `acl.init`'s config already
# switched profiling on, these calls return an error.
#
# On a board the folder receives msprof's raw data (`PROF_XXX/`); `msprof --export=on --output=FOLDER` parses it into
# timeline JSON files for chrome://tracing ([export](https://www.hiascend.com/document/detail/zh/canncommercial/601/devtools/auxiliarydevtool/atlasprofiling_16_0098.html)).
# *simulator:* `stop` writes one Chrome-trace file, `FOLDER/PROF_<n>_<time>_sim/trace_view.json`, with the cost
# model's times; the cell reads it, prints a summary and draws it.

# %% [markdown] tags=["lang:zh"]
# ## 用 `acl.prof` 采集性能数据：完整的时间线
# 一个 Event 只回答一个问题。一次 Profiling 采集会话记录一切，调用顺序为
# [`acl.prof.init`](https://hiascend.com/doc_center/source/zh/canncommercial/80RC1/apiref/appdevgapi/aclpythondevg_01_0848.html)`(folder)` →
# `config = acl.prof.create_config(device_ids, aicore_metrics, aicore_events, data_types)` →
# [`acl.prof.start`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0852.html)`(config)`
# … `acl.prof.stop(config)` → `acl.prof.destroy_config` → `acl.prof.finalize()`。“Profling采集到的数据为调用该接口之后的数据”：
# 只采集 `start` 之后执行的任务。数据类型是若干宏的按位或（[aclprofCreateConfig](https://hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclcppdevg/aclcppdevg_03_0752.html)）：
# `ACL_PROF_ACL_API`（0x1，AscendCL 接口及内存复制）、`ACL_PROF_TASK_TIME`（0x2，算子执行时间）、`ACL_PROF_MSPROFTX`（0x80，你的程序自己标记的数据）。
# `ACL_AICORE_NONE`（0xFF）表示不采集 AI Core 指标；events 参数为 0（NULL）。
#
# 有了 `ACL_PROF_MSPROFTX` 就可以标出自己的区间：一个 stamp（`acl.prof.create_stamp`）及其消息（`acl.prof.set_stamp_trace_message(stamp, msg, len)`），
# 然后 `range_id, ret = acl.prof.range_start(stamp)` … `acl.prof.range_stop(range_id)`；用 `acl.prof.destroy_stamp` 释放。指南的规则：
# `init` 在 `start` 之前；`init` 与 `finalize` 之间不能做模型订阅（`acl.prof.model_subscribe`）；如果 `acl.init` 的配置文件已经开启了 Profiling，
# 这些接口会返回错误。
#
# 在开发板上，文件夹中得到的是 msprof 的原始数据（`PROF_XXX/`）；`msprof --export=on --output=FOLDER` 把它解析成可在 chrome://tracing
# 中打开的 timeline JSON 文件（[导出](https://www.hiascend.com/document/detail/zh/canncommercial/601/devtools/auxiliarydevtool/atlasprofiling_16_0098.html)）。
# *模拟器：* `stop` 写出一个 Chrome-trace 文件 `FOLDER/PROF_<n>_<time>_sim/trace_view.json`，其中是代价模型的时间；下面的单元格读取它、
# 打印摘要并画出来。

# %%
import glob, json, os, tempfile
ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_MSPROFTX, ACL_AICORE_NONE = 0x1, 0x2, 0x80, 0xFF
workdir = tempfile.TemporaryDirectory()        # removed when the kernel stops (or the next Run All)
prof_dir = os.path.join(workdir.name, "prof")
check_ret("acl.prof.init", acl.prof.init(prof_dir))
config = acl.prof.create_config([0], ACL_AICORE_NONE, 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX)
if not config:
    raise RuntimeError("acl.prof.create_config returned 0 (NULL)")
check_ret("acl.prof.start", acl.prof.start(config))
stamp = acl.prof.create_stamp()
message = "one photo, two streams"
check_ret("acl.prof.set_stamp_trace_message", acl.prof.set_stamp_trace_message(stamp, message, len(message)))
range_id, ret = acl.prof.range_start(stamp)
check_ret("acl.prof.range_start", ret)
print("profiled:", two_streams(True))
check_ret("acl.prof.range_stop", acl.prof.range_stop(range_id))
check_ret("acl.prof.stop", acl.prof.stop(config))
acl.prof.destroy_stamp(stamp)                   # returns None
check_ret("acl.prof.destroy_config", acl.prof.destroy_config(config))
check_ret("acl.prof.finalize", acl.prof.finalize())
print("folders written:", [name[:11] + "…" for name in sorted(os.listdir(prof_dir))])

# %% [markdown] tags=["lang:en"]
# The file is plain JSON in the Chrome trace format: `traceEvents` holds one `"ph": "X"` event per task (`ts` start
# and `dur`, in µs), its `tid` a lane — a stream, or your program's thread for the ranges — named by a
# `thread_name` metadata event. Summing `dur` per category and per operator type is all it takes for a first
# analysis; the picture draws each lane, the model's operators on a row under their stream, coloured by type.
#
# *simulator:* the lanes, categories and operator names are the simulator's; the operators are those of the ONNX
# graph the OM was built from (a board's ATC fuses and renames them), their times the cost model's.

# %% [markdown] tags=["lang:zh"]
# 这个文件是 Chrome trace 格式的普通 JSON：`traceEvents` 中每个任务对应一个 `"ph": "X"` 事件（`ts` 为开始时间，`dur` 为时长，单位 µs），
# 它的 `tid` 是一条泳道——一个 Stream，或者（对于区间）你的程序的线程——名称由 `thread_name` 元数据事件给出。按类别、按算子类型把 `dur`
# 加起来，就是最初步的分析；图中画出每条泳道，模型的算子画在所属 Stream 下面单独一行，按类型着色。
#
# *模拟器：* 泳道、类别和算子名称是模拟器的；算子是构建 OM 所用 ONNX 图中的算子（开发板上的 ATC 会融合并重命名它们），时间来自代价模型。

# %%
def summary(doc):
    """Simulated µs per task category, and the five operator types that took longest."""
    per_cat, per_type = {}, {}
    for ev in doc["traceEvents"]:
        if ev.get("ph") != "X":
            continue
        per_cat[ev["cat"]] = per_cat.get(ev["cat"], 0.0) + ev["dur"]
        if ev["cat"] == "op":
            kind = ev["args"]["type"]
            per_type[kind] = per_type.get(kind, 0.0) + ev["dur"]
    print("simulator (cost model), µs per category:", {k: round(v, 1) for k, v in sorted(per_cat.items())})
    top = sorted(per_type.items(), key=lambda kv: -kv[1])[:5]
    print("slowest operator types:", [(k, round(v, 1)) for k, v in top])

if lab.on_simulator():
    trace = glob.glob(os.path.join(prof_dir, "PROF_*_sim", "trace_view.json"))[0]
    with open(trace, encoding="utf-8") as fh:
        doc = json.load(fh)
    summary(doc)
    from acl_teach.widgets import plots
    lanes = {f"stream {res.stream:#x}": "res.stream (compute)", f"stream {copy_stream:#x}": "copy_stream"}
    picture = plots.trace_timeline(doc, ("simulator: one photo, two streams", "模拟器：一张照片，两个 Stream"), lanes)
else:
    picture = None
    print("on a board: msprof --export=on --output=" + prof_dir + "  (then open the timeline JSON in chrome://tracing)")
picture

# %% [markdown] tags=["lang:en"]
# Read the picture from the top: the copy on `copy_stream` is a sliver; on the compute stream the wait lasts exactly
# until the copy's event, then the model runs, and its operators fill the row below; the green range is the one your
# program marked around the whole thing. That is what profiling is for: it shows *which* part to work on.

# %% [markdown] tags=["lang:zh"]
# 从上往下读这张图：`copy_stream` 上的复制只有细细一条；计算 Stream 上的等待正好持续到复制的 Event，然后模型开始执行，它的算子铺满了下面一行；
# 绿色的区间是你的程序在整个过程外面标出的那一段。这正是 Profiling 的用处：它告诉你该优化*哪一部分*。

# %% [markdown] tags=["lang:en"]
# ## Profiling from `acl.init`'s config file
# The JSON file given to [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)
# can switch profiling on for the whole process, with no `acl.prof` call in the code
# ([acl.json 配置文件方式](https://www.hiascend.com/document/detail/zh/canncommercial/700/devtools/auxiliarydevtool/atlasprofiling_16_0152.html)):
# `{"profiler": {"switch": "on", "output": "FOLDER"}}` — `switch` must be `"on"` (missing or anything else: off);
# `output` is where the data goes (default: the folder of the executable), and options such as `"aicpu": "on"`
# add data. Collection runs from `acl.init` to `acl.finalize`, so the demonstration is a program of its own, run as a
# child process by `lab.run_program` (`python3 program.py` on a board) — this kernel initialised once, long ago.
#
# The same file holds the **dump** configuration, which writes every layer's input or output data to files for
# accuracy comparison, for example `{"dump": {"dump_list": [{"model_name": "NAME"}], "dump_path": "FOLDER",
# "dump_mode": "output"}}` ([dump configuration](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0155.html)).
# The `acl.init` page advises against configuring dump and profiling together ("建议不要同时配置dump信息和Profiling采集信息"):
# dumping slows the run and spoils the profile. *simulator:* a `dump` section is accepted and writes nothing.

# %% [markdown] tags=["lang:zh"]
# ## 通过 `acl.init` 的配置文件开启 Profiling
# 传给 [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html) 的 JSON 文件可以为整个进程开启 Profiling，
# 代码中不需要任何 `acl.prof` 调用（[acl.json 配置文件方式](https://www.hiascend.com/document/detail/zh/canncommercial/700/devtools/auxiliarydevtool/atlasprofiling_16_0152.html)）：
# `{"profiler": {"switch": "on", "output": "FOLDER"}}`——`switch` 必须是 `"on"`（缺失或取其他值即关闭）；`output` 是数据存放的位置
# （默认为可执行文件所在目录），`"aicpu": "on"` 等选项可以增加采集内容。采集从 `acl.init` 持续到 `acl.finalize`，所以演示写成一个独立的程序，
# 由 `lab.run_program` 作为子进程运行（开发板上是 `python3 program.py`）——本内核很早以前就已经初始化过一次了。
#
# 同一个文件中还可以写 **Dump** 配置，把每一层算子的输入或输出数据写到文件中用于精度比对，例如 `{"dump": {"dump_list": [{"model_name": "NAME"}],
# "dump_path": "FOLDER", "dump_mode": "output"}}`（[Dump 配置](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0155.html)）。
# `acl.init` 的页面建议“不要同时配置dump信息和Profiling采集信息”：Dump 会拖慢运行，使采集到的性能数据失真。*模拟器：* 接受 `dump` 配置段，但什么也不写。

# %%
init_dir = os.path.join(workdir.name, "prof_from_init")
acl_json = os.path.join(workdir.name, "acl.json")
with open(acl_json, "w") as fh:
    json.dump({"profiler": {"switch": "on", "output": init_dir}}, fh)
program = f"""
import acl
CONFIG, MODEL = {acl_json!r}, {at.models.default_om()!r}

def check_ret(api, ret):
    if ret != 0:
        raise Exception(api + " failed ret=" + str(ret))

def dataset(desc, count, size_of):
    data, parts = acl.mdl.create_dataset(), []
    for i in range(count):
        size = size_of(desc, i)
        ptr, ret = acl.rt.malloc(size, 0)
        check_ret("acl.rt.malloc", ret)
        check_ret("acl.rt.memset", acl.rt.memset(ptr, size, 0, size))
        buf = acl.create_data_buffer(ptr, size)
        _, ret = acl.mdl.add_dataset_buffer(data, buf)
        check_ret("acl.mdl.add_dataset_buffer", ret)
        parts.append((buf, ptr))
    return data, parts

check_ret("acl.init", acl.init(CONFIG))          # the profiler section: collecting from here ...
check_ret("acl.rt.set_device", acl.rt.set_device(0))
context, ret = acl.rt.create_context(0)
check_ret("acl.rt.create_context", ret)
stream, ret = acl.rt.create_stream()
check_ret("acl.rt.create_stream", ret)
model_id, ret = acl.mdl.load_from_file(MODEL)
check_ret("acl.mdl.load_from_file", ret)
desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(desc, model_id))
ins, in_parts = dataset(desc, acl.mdl.get_num_inputs(desc), acl.mdl.get_input_size_by_index)
outs, out_parts = dataset(desc, acl.mdl.get_num_outputs(desc), acl.mdl.get_output_size_by_index)
for _ in range(2):
    check_ret("acl.mdl.execute_async", acl.mdl.execute_async(model_id, ins, outs, stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
print("2 inferences queued and synchronised")
for data, parts in ((ins, in_parts), (outs, out_parts)):
    for buf, ptr in parts:
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buf))
        check_ret("acl.rt.free", acl.rt.free(ptr))
    check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(data))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(desc))
check_ret("acl.mdl.unload", acl.mdl.unload(model_id))
check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
check_ret("acl.finalize", acl.finalize())         # ... to here, where the data is written
print("acl.finalize -> 0")
"""
print("exit status:", lab.run_program(program))
print("folders written:", [name[:11] + "…" for name in sorted(os.listdir(init_dir))])
if lab.on_simulator():
    with open(glob.glob(os.path.join(init_dir, "PROF_*_sim", "trace_view.json"))[0], encoding="utf-8") as fh:
        from_init = json.load(fh)
    summary(from_init)
    picture = plots.trace_timeline(from_init, ("simulator: acl.init's profiler section, two inferences",
                                               "模拟器：acl.init 的 profiler 配置段，两次推理"))
picture

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points)
# Write `time_execute(model_id, inputs, outputs, stream)`: time **one** `acl.mdl.execute_async` of the model on
# `stream` with a pair of events your function creates — record `start` on `stream`, queue the inference on `stream`,
# record `end` on `stream`, wait for `end`, and return the milliseconds `acl.rt.event_elapsed_time` gives. Destroy both
# events before returning; check every `ret`. `inputs` and `outputs` are step-API datasets (`.dataset` is the
# handle). The checker records your calls: the events must be your own, recorded on that stream around exactly one
# inference there, waited for, and the value you return must be what they gave — a typed number does not pass.

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）
# 编写 `time_execute(model_id, inputs, outputs, stream)`：用函数自己创建的一对 Event，给 `stream` 上的**一次** `acl.mdl.execute_async` 计时——
# 在 `stream` 上记录 `start`，把推理放入 `stream`，在 `stream` 上记录 `end`，等待 `end`，返回 `acl.rt.event_elapsed_time` 给出的毫秒数。
# 返回之前销毁两个 Event；检查每个 `ret`。`inputs` 和 `outputs` 是分步 API 的数据集（`.dataset` 是句柄）。检查器会记录你的调用：Event 必须是你自己的，
# 记录在该 Stream 上、正好夹住其上的一次推理，并且已经等待过；你返回的值必须就是它们给出的值——手写的数字通不过。

# %% tags=["solution", "grade_id:nb16-events"]
def time_execute(model_id, inputs, outputs, stream):
    """Milliseconds of one execute_async on stream, from two events recorded around it."""
    ### BEGIN SOLUTION
    start, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)
    end, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)
    check_ret("acl.rt.record_event", acl.rt.record_event(start, stream))
    check_ret("acl.mdl.execute_async", acl.mdl.execute_async(model_id, inputs.dataset, outputs.dataset, stream))
    check_ret("acl.rt.record_event", acl.rt.record_event(end, stream))
    check_ret("acl.rt.synchronize_event", acl.rt.synchronize_event(end))
    ms, ret = acl.rt.event_elapsed_time(start, end)
    check_ret("acl.rt.event_elapsed_time", ret)
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(start))
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(end))
    return ms
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb16-events-test"]
feedback = lab.check_event_timing(time_execute, model.model_id, inputs, outputs, res.stream)
print(feedback)
assert feedback, feedback

# %%
check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(copy_stream))
for ptr in (host_in, host_out):
    check_ret("acl.rt.free_host", acl.rt.free_host(ptr))
at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Summary
# * Host clocks around `execute_async` measure the queueing. Events measure the device: create → `record_event(start,
#   stream)` → work → `record_event(end, stream)` → `synchronize_event(end)` → `event_elapsed_time(start, end)` (ms)
#   → `destroy_event`. Only work between the two records on that stream counts.
# * `query_event_status` asks without blocking (1 COMPLETE, 0 NOT_READY; the older `query_event` counts the other way).
# * Tasks on different streams are unordered: `record_event` on one, `stream_wait_event(other, event)` on the other
#   (then `reset_event` on older runtimes). Without it, reading the copy's destination is a race.
# * `acl.prof`: init(folder) → create_config(devices, ACL_AICORE_NONE, 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME |
#   ACL_PROF_MSPROFTX) → start … ranges … stop → destroy_config → finalize; a board's raw data becomes timelines with
#   `msprof --export=on`. Or `{"profiler": {"switch": "on", "output": …}}` in `acl.init`'s file, from init to finalize —
#   not together with dump.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 在 `execute_async` 前后读 Host 时钟，量到的是入队。Event 量的是 Device：create → `record_event(start, stream)` → 任务 →
#   `record_event(end, stream)` → `synchronize_event(end)` → `event_elapsed_time(start, end)`（毫秒）→ `destroy_event`。只有该 Stream 上两次记录之间的任务才算在内。
# * `query_event_status` 不阻塞地询问（1 COMPLETE，0 NOT_READY；较老的 `query_event` 正好相反）。
# * 不同 Stream 上的任务没有顺序：在一个 Stream 上 `record_event`，在另一个上 `stream_wait_event(other, event)`（较老的运行时之后再 `reset_event`）。
#   不这样做，读取复制的目的地址就是竞争。
# * `acl.prof`：init(folder) → create_config(devices, ACL_AICORE_NONE, 0, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX) → start … 区间 …
#   stop → destroy_config → finalize；开发板上的原始数据用 `msprof --export=on` 变成时间线。或者在 `acl.init` 的文件中写
#   `{"profiler": {"switch": "on", "output": …}}`，从 init 采集到 finalize——不要与 Dump 同时配置。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. You print `time.perf_counter()` before and after `execute_async` and get 0.05 ms. What did you measure?
# 2. Why must `start` and `end` be recorded on the stream the inference runs on, and why do you synchronise before
#    `event_elapsed_time`?
# 3. The copy runs on `copy_stream`, the model on `res.stream`, and nothing connects them. What can the model read on
#    a board, and which two calls fix it?
# 4. Your program calls `acl.init("acl.json")` with a profiler section switched on, then `acl.prof.init(...)`. What
#    does the guide say happens, and when is the data of the config-file session complete?
#
# **Next →** [00_welcome](00_welcome.ipynb) — back to the start, or on to `acl_teach/examples/time_and_profile.py`.

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 你在 `execute_async` 前后打印 `time.perf_counter()`，得到 0.05 ms。你量到的是什么？
# 2. 为什么 `start` 和 `end` 必须记录在推理所在的 Stream 上？为什么在 `event_elapsed_time` 之前要先同步？
# 3. 复制在 `copy_stream` 上，模型在 `res.stream` 上，二者之间没有任何联系。在开发板上模型可能读到什么？用哪两个调用来修正？
# 4. 你的程序调用 `acl.init("acl.json")` 并在其中开启了 profiler 配置段，然后又调用 `acl.prof.init(...)`。指南说会怎样？配置文件方式的采集数据什么时候才完整？
#
# **下一节 →** [00_welcome](00_welcome.ipynb)——回到开头，或者继续阅读 `acl_teach/examples/time_and_profile.py`。
