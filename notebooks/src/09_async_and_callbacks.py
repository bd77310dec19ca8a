# %% [markdown] tags=["lang:en"]
# # 09 · `execute_async`, streams and callbacks (异步推理与回调)
# **Why.** A synchronous execute makes the caller wait for every image. The guide's alternative: call
# `acl.mdl.execute_async`, which only *queues* the inference on a Stream and returns; then either block with
# `acl.rt.synchronize_stream` until everything queued has run, or — for a steady flow of data — let a
# **callback** pick up each result as soon as it is ready. Its step 5 is explicit: "for asynchronous inference,
# when you implement the callback, get the inference results *inside the callback function*"
# ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)). Tasks on one Stream run in the order they were queued; results are valid only
# after the work that writes them has run.
#
# **You will be able to:** queue work on a stream and know when its results may be read, run the official
# callback-thread pattern (start_thread → subscribe_report → launch_callback → process_report) with the results
# read in the callback, and use the step API's `run_callbacks`.

# %% [markdown] tags=["lang:zh"]
# # 09 · `execute_async`、Stream 与回调（异步推理与回调）
# **为什么。** 同步推理让调用者为每张图片等待。指南给出的另一种方式是：调用 `acl.mdl.execute_async`，它只是把推理任务*放入* Stream
# 的队列就返回；之后要么调用 `acl.rt.synchronize_stream` 阻塞，直到队列中的任务全部完成，要么——对持续到来的数据——让**回调函数**在每个
# 结果就绪时立即取走它。指南第 5 步写得很明确：“对于异步推理，在实现 Callback 功能时，*在回调函数内*获取模型推理的结果”
# （[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。同一个 Stream 中的任务按放入的顺序执行；只有写结果的任务执行完之后，结果才有效。
#
# **学完本节你将能够：** 把任务放入 Stream，并知道何时可以读取结果；按官方的回调线程模式（start_thread → subscribe_report →
# launch_callback → process_report）在回调函数中获取推理结果；并使用分步 API 的 `run_callbacks`。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# Preparation by the step API (resources with an explicit stream, the default model, datasets, the cat photo
# copied in); then [`acl.rt.memset`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0118.html)`(ptr, max_size, value, count)` clears the output buffer
# so we can see when it gets written.

# %% [markdown] tags=["lang:zh"]
# 先用分步 API 做准备（含显式 Stream 的运行管理资源、默认模型、数据集、复制进去的猫的照片）；再用
# [`acl.rt.memset`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0118.html)`(ptr, max_size, value, count)` 把输出缓冲清零，以便看出它何时被写入。

# %%
import atexit
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
model = at.load_model(at.models.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
at.copy_to_device(at.preprocess(at.models.image("chelsea.png")), inputs, 0, res, d)
check_ret("acl.rt.memset", acl.rt.memset(outputs.buffers[0].ptr, 4000, 0, 4000))

# %% [markdown] tags=["lang:en"]
# ## Queue, then wait
# [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0156.html) takes the same arguments as `execute` plus a stream and
# returns as soon as the work is queued. [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) blocks
# until everything queued on that stream has run; only then are the outputs valid.
#
# *simulator:* queued work runs when the stream is synchronised, so the read *before* `synchronize_stream` below
# sees the zeros `memset` wrote. **On hardware that read is a race**: the NPU may not have started, may be half
# way, or may be done — you may get zeros, a mix, or the result. Never read before synchronising (or before the
# callback, below). After the synchronize, `Top5View` draws the cat photo's top-5 with their ImageNet names.

# %% [markdown] tags=["lang:zh"]
# ## 先放入队列，再等待
# [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0147.html) 的参数与 `execute` 相同，另加一个 Stream，任务一放入队列就返回。
# [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) 阻塞到该 Stream 中所有任务都执行完毕；此后输出才有效。
#
# *模拟器：* 队列中的任务在同步 Stream 时才执行，所以下面在 `synchronize_stream` *之前*的读取看到的是 `memset` 写入的 0。**在硬件上这次
# 读取是一个竞争**：NPU 可能还没开始、可能做了一半、也可能已经完成——你可能读到 0、读到混合的数据，也可能读到结果。绝不要在同步之前
# （或在下面的回调之前）读取。同步之后，`Top5View` 画出这张猫照片的 top-5 及其 ImageNet 名称。

# %%
check_ret("acl.mdl.execute_async",
          acl.mdl.execute_async(model.model_id, inputs.dataset, outputs.dataset, res.stream))
early = at.unpack_outputs(d, outputs, res).arrays[0]
print("read before synchronize: largest score %.3f (simulator: zeros; on hardware: a race)" % early.max())
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
labels = at.models.labels()
top = at.top_k(at.unpack_outputs(d, outputs, res).arrays[0], 5, labels)
print("after synchronize, top class:", top.top[0].index, top.top[0].label.split(",")[0])
from acl_teach.widgets import Top5View
Top5View(top, image=at.models.image("chelsea.png"))

# %% [markdown] tags=["lang:en"]
# ## The callback pattern, raw — results read inside the callback
# A callback does not run by itself: a thread you start with [`acl.util.start_thread`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0058.html)
# makes its Context current ([`acl.rt.set_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0077.html)) and loops on
# [`acl.rt.process_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)`(timeout_ms)`, which waits up to `timeout_ms` and runs the
# callbacks that are due (a timeout with nothing to do is normal; the samples ignore that `ret`).
# [`acl.rt.subscribe_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0108.html) binds that thread to the stream. Then, per image,
# `execute_async` and [`acl.rt.launch_callback`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0109.html)`(fn, user_data, block_type, stream)`:
# when the stream reaches the callback — after the inference before it — `fn(user_data)` runs in the thread.
# `user_data` is a **list**, as the documentation gives it; block type 1 (`ACL_CALLBACK_BLOCK`) makes the stream
# wait for the callback. Afterwards: `synchronize_stream`, [`acl.rt.unsubscribe_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0111.html), set the
# exit flag, [`acl.util.stop_thread`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha003/API/appdevgapi/aclpythondevg_01_0059.html).
#
# Each image gets its own datasets, because all three inferences are in flight at once. The callback copies its
# image's output back ([`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html), [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html),
# [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html), [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)) and keeps the top
# class. A `launch_callback` on a stream no thread subscribed to fails with 107015
# (ACL_ERROR_RT_STREAM_NO_CB_REG), as a public experiment shows; the first line tries it.

# %% [markdown] tags=["lang:zh"]
# ## 回调模式（原始 pyACL）——在回调函数内获取结果
# 回调不会自己运行：你用 [`acl.util.start_thread`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0058.html) 启动一个线程，它先把 Context 设为当前
# （[`acl.rt.set_context`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0074.html)），再循环调用 [`acl.rt.process_report`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0106.html)`(timeout_ms)`：
# 最多等待 `timeout_ms`，执行已到期的回调（没有任务时超时返回是正常的，样例忽略这个 `ret`）。[`acl.rt.subscribe_report`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0103.html)
# 把这个线程绑定到 Stream。然后对每张图片调用 `execute_async` 和 [`acl.rt.launch_callback`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0105.html)`(fn, user_data, block_type, stream)`：
# 当 Stream 执行到这个回调——在它之前的推理完成之后——`fn(user_data)` 就在那个线程中运行。按文档，`user_data` 是一个**列表**；
# 阻塞类型 1（`ACL_CALLBACK_BLOCK`）让 Stream 等待回调执行完。结束时：`synchronize_stream`、[`acl.rt.unsubscribe_report`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/control/function-unsubscribe_report.md)、
# 设置退出标志、[`acl.util.stop_thread`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha003/API/appdevgapi/aclpythondevg_01_0059.html)。
#
# 每张图片都有自己的数据集，因为三次推理同时在途。回调函数把本图片的输出复制回来（[`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html)、
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)、[`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html)、[`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)），并记下最可能的类别。
# 在没有线程订阅的 Stream 上调用 `launch_callback` 会失败，返回 107015（ACL_ERROR_RT_STREAM_NO_CB_REG），这一点有公开的实验为证；
# 第一行就试了一下。

# %%
jobs = []
for photo in ("coffee.png", "chelsea.png", "rocket.jpg"):
    job = {"photo": photo, "in": at.build_dataset(d, "input"), "out": at.build_dataset(d, "output")}
    at.copy_to_device(at.preprocess(at.models.image(photo)), job["in"], 0, res, d)
    jobs.append(job)
results, exit_flag = {}, {"stop": False}
import time
launched, called = {}, {}                     # seconds since the first launch, for the timeline below

def callback_loop(args):                      # the thread start_thread runs
    context, timeout_ms = args
    check_ret("acl.rt.set_context", acl.rt.set_context(context))
    while not exit_flag["stop"]:
        ret = acl.rt.process_report(timeout_ms)   # a timeout (nothing due) is normal here

def on_done(user_data):                       # runs in the callback thread, in stream order
    index = user_data[0]                      # the list given to launch_callback
    called[index] = time.perf_counter() - t0
    out = jobs[index]["out"].buffers[0]
    host, ret = acl.rt.malloc_host(out.size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, out.size, out.ptr, out.size, 2))
    scores = np.frombuffer(acl.util.ptr_to_bytes(host, out.size), np.float32)
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    results[index] = int(scores.argmax())

print(acl.rt.launch_callback(on_done, [0], 1, res.stream), "<- no thread subscribed yet")
tid, ret = acl.util.start_thread(callback_loop, [res.context, 50])
check_ret("acl.util.start_thread", ret)
check_ret("acl.rt.subscribe_report", acl.rt.subscribe_report(tid, res.stream))
t0 = time.perf_counter()
for i, job in enumerate(jobs):
    check_ret("acl.mdl.execute_async",
              acl.mdl.execute_async(model.model_id, job["in"].dataset, job["out"].dataset, res.stream))
    check_ret("acl.rt.launch_callback", acl.rt.launch_callback(on_done, [i], 1, res.stream))  # 1: ACL_CALLBACK_BLOCK
    launched[i] = time.perf_counter() - t0
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
synced = time.perf_counter() - t0
check_ret("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, res.stream))
exit_flag["stop"] = True
check_ret("acl.util.stop_thread", acl.util.stop_thread(tid))
for i, job in enumerate(jobs):
    print(f"{job['photo']:12s} -> {results[i]} {labels[results[i]]}")

# %% [markdown] tags=["lang:en"]
# ## When did each callback run?
# The cell above noted, for each photo, when `execute_async` + `launch_callback` had returned (the work is
# queued) and when its callback started in the callback thread, and when `synchronize_stream` returned. The
# order is fixed: on one stream, photo *i*'s callback runs after photo *i*'s inference and before photo *i + 1*'s
# (block type 1 makes the stream wait for it). The times are not (the tests do not compare this picture).
#
# *simulator:* queued work runs when the stream is synchronised, so every callback comes after the last launch,
# one after the other. **On hardware** the NPU starts as soon as work is queued: the first callbacks can run
# while the main thread is still launching the next photos — the overlap that makes the asynchronous pattern
# worth it.

# %% [markdown] tags=["lang:zh"]
# ## 每个回调是什么时候执行的？
# 上面的单元格为每张照片记下了 `execute_async` + `launch_callback` 返回的时刻（任务已入队）、它的回调在回调线程中开始执行的时刻，
# 以及 `synchronize_stream` 返回的时刻。顺序是确定的：在同一个 Stream 上，照片 *i* 的回调在照片 *i* 的推理之后、照片 *i + 1*
# 的推理之前执行（阻塞类型 1 让 Stream 等待回调）。时刻则不确定（测试不比较这张图）。
#
# *模拟器：* 入队的任务在同步 Stream 时才执行，所以所有回调都在最后一次下发之后依次执行。**在硬件上**，任务一入队 NPU 就开始执行：
# 主线程还在下发后面的照片时，前面的回调就可能已经执行了——这种重叠正是异步方式的价值所在。

# %%
from acl_teach.widgets import plots
plots.callback_timeline(launched, called, synced, [job["photo"] for job in jobs])

# %% [markdown] tags=["lang:en"]
# ## The step API: `run_callbacks`
# `at.run_callbacks(res, work)` runs the same thread pattern around your `work(launch)`. `launch(user_data)` queues
# a blocking callback whose user data is the **list** you pass (the documented type; anything else raises
# `TypeError`), and each delivered list lands in `.delivered` in stream order. `code()` shows the main thread's
# calls and the worker's loop.

# %% [markdown] tags=["lang:zh"]
# ## 分步 API：`run_callbacks`
# `at.run_callbacks(res, work)` 在你的 `work(launch)` 周围运行同样的线程模式。`launch(user_data)` 放入一个阻塞回调，其用户数据就是你传入的
# **列表**（文档规定的类型；其他类型会抛出 `TypeError`），每个送达的列表按 Stream 顺序放进 `.delivered`。`code()` 显示主线程的调用和工作线程的循环。

# %%
cb = at.run_callbacks(res, lambda launch: [launch([name]) for name in ("first", "second", "third")])
print(cb.delivered)
print(cb.code())

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points)
# Write the callback `fetch_top1(user_data)`: `user_data` is `[i]`; inside the callback, copy job `i`'s output to
# the host (as `on_done` above does) and return its best class index. The checker runs the thread pattern around
# your callback on the three jobs and checks that the copies happened in the callback thread.

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）
# 编写回调函数 `fetch_top1(user_data)`：`user_data` 是 `[i]`；在回调中把第 `i` 个作业的输出复制到 Host（与上面的 `on_done` 一样），
# 返回最高分类别的索引。检查器在三个作业上围绕你的回调运行线程模式，并检查复制确实发生在回调线程中。

# %% tags=["solution", "grade_id:nb09-callback"]
def fetch_top1(user_data):
    """Runs in the callback thread: D2H copy of job user_data[0]'s output, then its best class."""
    ### BEGIN SOLUTION
    out = jobs[user_data[0]]["out"].buffers[0]
    host, ret = acl.rt.malloc_host(out.size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, out.size, out.ptr, out.size, 2))
    scores = np.frombuffer(acl.util.ptr_to_bytes(host, out.size), np.float32)
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    return int(scores.argmax())
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb09-callback-test"]
feedback = lab.check_callback(fetch_top1, model.model_id, [(j["in"], j["out"]) for j in jobs], res.stream, res.context)
print(feedback)
assert feedback, feedback

# %%
for job in jobs:
    at.release_dataset(job["in"]); at.release_dataset(job["out"])
at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Summary
# * `execute_async` queues; `synchronize_stream` waits. Reading outputs before that is a race on hardware (the
#   simulator shows the untouched buffer).
# * Callbacks: start_thread (the loop sets the context and calls `process_report`) → subscribe_report →
#   `execute_async` + `launch_callback(fn, [user data], 1, stream)` per item → synchronize → unsubscribe → exit flag
#   → stop_thread. Read each result inside its callback; give each in-flight item its own buffers.
# * `user_data` is a list; on one stream, callbacks arrive in the order they were queued.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * `execute_async` 只负责放入队列，`synchronize_stream` 负责等待。在此之前读取输出，在硬件上是竞争（模拟器显示的是未被改动的缓冲）。
# * 回调：start_thread（循环中设置 Context 并调用 `process_report`）→ subscribe_report → 每一项 `execute_async` + `launch_callback(fn, [用户数据], 1, stream)`
#   → synchronize → unsubscribe → 设置退出标志 → stop_thread。在各自的回调函数内获取结果；同时在途的每一项都要有自己的缓冲。
# * `user_data` 是列表；同一个 Stream 上的回调按放入队列的顺序送达。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. `execute_async` returned 0. Does that mean the inference worked?
# 2. Why does the callback thread call `acl.rt.set_context` before its loop?
# 3. Three images are in flight on one stream. Why must each have its own output dataset?
# 4. What does `launch_callback` return on a stream no thread subscribed to, and what is missing?
#
# **Next →** [10_dynamic_batch](10_dynamic_batch.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. `execute_async` 返回了 0，这是否说明推理成功了？
# 2. 为什么回调线程在进入循环之前要调用 `acl.rt.set_context`？
# 3. 一个 Stream 上同时有三张图片在途。为什么每张都必须有自己的输出数据集？
# 4. 在没有线程订阅的 Stream 上，`launch_callback` 返回什么？缺少了哪一步？
#
# **下一节 →** [10_dynamic_batch](10_dynamic_batch.ipynb)
