# %% [markdown] tags=["lang:en"]
# # 07 · Results back to the host, top-5 (后处理)
# **Why.** Step 5 of the guide: "get the inference results for further processing — for synchronous inference,
# read the model's output data directly" ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)). "Directly" hides three moves the
# official code makes: copy the output from device memory to host memory, ask the model for the output's
# *current* dims, and turn the raw bytes into a numpy array of that shape — the C-pointer-to-Python step a
# learner calls "a concept very important to pyACL". The same guide then shows a second way: post-process on the
# device with single operators, so only the answer travels back.
#
# **You will be able to:** copy outputs device → host (D2H), shape them with `get_cur_output_dims`, print the
# top-5 the way the official sample does, run the Cast and ArgMaxD single operators on the device — knowing
# where that example comes from and what it needs — and write an op list of your own, compile it with
# `atc --singleop`, load it with `acl.op.load` and run that operator yourself.

# %% [markdown] tags=["lang:zh"]
# # 07 · 结果拷回 Host，top-5（后处理）
# **为什么。** 指南第 5 步：“获取模型推理的结果，用于后续处理——对于同步推理，直接获取模型推理的输出数据即可”（[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。
# “直接”二字背后是官方代码的三个动作：把输出从 Device 内存复制到 Host 内存，向模型查询输出的*当前*维度，再把原始字节变成该形状的
# numpy 数组——也就是一位学习者所说“对 pyACL 来说非常重要”的 C 指针转 Python 的那一步。同一指南接着给出第二种方式：在 Device 上用单算子
# 做后处理，只把答案传回来。
#
# **学完本节你将能够：** 把输出从 Device 复制到 Host（D2H），用 `get_cur_output_dims` 确定形状，按官方样例的格式打印 top-5，并在 Device
# 上运行 Cast 和 ArgMaxD 单算子——同时知道这个例子出自哪里、需要什么；还能自己写 op list，用 `atc --singleop` 编译，用 `acl.op.load`
# 加载，并亲自运行这个算子。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# Notebooks 01–06 in five lines: the default model classifies the espresso photo; the outputs are in device memory.

# %% [markdown] tags=["lang:zh"]
# 用五行代码完成第 01–06 节：默认模型对浓缩咖啡照片做分类；输出此刻在 Device 内存中。

# %%
import atexit
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
model = at.load_model(at.models.default_om())
d = at.query_desc(model)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
at.copy_to_device(at.preprocess(at.models.image("coffee.png")), inputs, 0, res, d)
_ = at.execute(model, inputs, outputs)

# %% [markdown] tags=["lang:en"]
# ## Raw pyACL: device → host, then bytes → numpy
# The sample's sequence: [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) for a host buffer of the output's size,
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) with kind 2 (`ACL_MEMCPY_DEVICE_TO_HOST`),
# [`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html) for the output dims of the gear currently set —
# read after the execute, the shape of *this* result (for a static model, those of `get_output_dims`) — then [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html) — a copy — and
# `np.frombuffer(...).reshape(dims)`. Versions without `ptr_to_bytes` use
# [`acl.util.ptr_to_numpy`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0054.html)`(ptr, shape, 11)` (11 = NPY_FLOAT32), a *view* of the
# host memory: copy it before [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md). Last, the top-5: `argsort` is ascending, so
# the sample takes `[-1:-6:-1]`. The default model ends in a softmax, so these are probabilities; the fetched
# ONNX ResNet-50 gives logits, which the quick-start sample turns into probabilities with a softmax first.

# %% [markdown] tags=["lang:zh"]
# ## 原始 pyACL：Device → Host，再由字节到 numpy
# 样例的顺序：用 [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html) 申请与输出同样大小的 Host 缓冲，用 [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) 以
# kind 2（`ACL_MEMCPY_DEVICE_TO_HOST`）复制，用 [`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html) 查询*当前所设档位*的输出维度
# ——在推理之后读取，就是*这一次*结果的形状（静态模型与 `get_output_dims` 相同）——再用 [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html)（会复制一份）和 `np.frombuffer(...).reshape(dims)`。
# 没有 `ptr_to_bytes` 的版本使用 [`acl.util.ptr_to_numpy`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0054.html)`(ptr, shape, 11)`（11 = NPY_FLOAT32），它是 Host
# 内存的*视图*：在 [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md) 之前先复制一份。最后是 top-5：`argsort` 是升序，所以样例取 `[-1:-6:-1]`。默认模型
# 最后是 softmax，所以这些是概率；下载的 ONNX ResNet-50 输出 logits，快速入门样例先做 softmax 再取概率。

# %%
out = outputs.buffers[0]
host_ptr, ret = acl.rt.malloc_host(out.size)
check_ret("acl.rt.malloc_host", ret)
check_ret("acl.rt.memcpy", acl.rt.memcpy(host_ptr, out.size, out.ptr, out.size, 2))   # 2 = DEVICE_TO_HOST
dims, ret = acl.mdl.get_cur_output_dims(d.model_desc, 0)
check_ret("acl.mdl.get_cur_output_dims", ret)
if "ptr_to_bytes" in dir(acl.util):
    result = np.frombuffer(acl.util.ptr_to_bytes(host_ptr, out.size), dtype=np.float32).reshape(dims["dims"])
else:                                   # a view of host memory: copy it before free_host
    result = acl.util.ptr_to_numpy(host_ptr, tuple(dims["dims"]), 11).copy()
check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
print(result.shape, "sum %.3f" % result.sum())     # already probabilities: the model ends in softmax
vals = result.flatten()
top_k = vals.argsort()[-1:-6:-1]
print("======== top5 inference results: =============")
for j in top_k:
    print("[%d]: %f" % (j, vals[j]))

# %% [markdown] tags=["lang:en"]
# The step API does the same in `at.unpack_outputs` and `at.top_k`, adding the ImageNet class names; `Top5View`
# draws the photo and the five bars.

# %% [markdown] tags=["lang:zh"]
# 分步 API 的 `at.unpack_outputs` 和 `at.top_k` 做同样的事，并加上 ImageNet 类别名；`Top5View` 画出照片和五个条形。

# %%
labels = at.models.labels()
top = at.top_k(at.unpack_outputs(d, outputs, res).arrays[0], 5, labels)
from acl_teach.widgets import Top5View
Top5View(top, image=at.models.image("coffee.png"))

# %% [markdown] tags=["lang:en"]
# ## On the device: Cast + ArgMaxD (单算子)
# This example is the one in the official [model execution guide](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html) ("处理推理结果：调用单算子"): cast
# the fp32 scores to fp16 with [`acl.op.cast`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0779.html) (Cast is wrapped as a pyACL function), then find
# the index of the largest with the ArgMaxD operator through [`acl.op.execute_v2`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0776.html) — ArgMaxD
# is not wrapped, so you build its tensor descs with [`acl.create_tensor_desc`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/81RC1alpha001/apiref/appdevgapi/aclpythondevg_01_0013.html), its
# attribute (`dimension`) with [`acl.op.create_attr`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_attr.md) and [`acl.op.set_attr_int`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-set_attr_int.md), and
# its buffers with [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html) and [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html);
# the input buffer is the model's output, found with [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md). Both operators
# are queued on the stream; [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) waits for them.
#
# Where it does **not** come from: the vpc sample (`vpc_resnet50_imagenet_classification`, `src/acl_op.py`) also
# post-processes on the device, but its code calls `acl.op.cast` and then **ArgMaxV2**, which takes the dimension
# as a second input tensor, not as an attribute. Both need operator models compiled beforehand —
# `atc --singleop=op_list.json --output=op_models --soc_version=…` — and loaded by directory with
# [`acl.op.set_model_dir`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-set_model_dir.md). `at.models.op_model_dir()` builds that folder once for the active backend
# (the emulator's `--singleop` here, CANN's `atc` on a board). Only a class index comes back; the last line names
# it with the same ImageNet labels `Top5View` used, and compares it with the host's top-1 above.

# %% [markdown] tags=["lang:zh"]
# ## 在 Device 上后处理：Cast + ArgMaxD（单算子）
# 这个例子出自官方[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)一节（“处理推理结果：调用单算子处理推理结果”）：用 [`acl.op.cast`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0779.html) 把 fp32 分数转成
# fp16（Cast 算子被封装成了 pyACL 接口），再通过 [`acl.op.execute_v2`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0776.html) 执行 ArgMaxD 算子找出最大值的下标——ArgMaxD
# 没有被封装，所以要自己用 [`acl.create_tensor_desc`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/81RC1alpha001/apiref/appdevgapi/aclpythondevg_01_0013.html) 构造张量描述，用 [`acl.op.create_attr`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_attr.md) 和
# [`acl.op.set_attr_int`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-set_attr_int.md) 设置属性（`dimension`），用 [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html) 和
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) 准备缓冲；输入缓冲就是模型的输出，用 [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md) 取得。
# 两个算子都在 Stream 上排队；[`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) 等待它们完成。
#
# 它**不是**出自 vpc 样例：vpc 样例（`vpc_resnet50_imagenet_classification` 的 `src/acl_op.py`）也在 Device 上做后处理，但它的代码先调用
# `acl.op.cast`，再调用 **ArgMaxV2**——后者把维度作为第二个输入张量，而不是属性。两者都需要预先编译好的单算子模型——
# `atc --singleop=op_list.json --output=op_models --soc_version=…`——并用 [`acl.op.set_model_dir`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-set_model_dir.md) 按目录加载。
# `at.models.op_model_dir()` 为当前后端构建一次这个目录（这里用模拟工具的 `--singleop`，开发板上用 CANN 的 `atc`）。
# 传回来的只有一个类别索引；最后一行用与 `Top5View` 相同的 ImageNet 标签给出它的名称，并与上面 Host 端的 top-1 比较。

# %%
acl.op.set_model_dir(at.models.op_model_dir())   # the ATC --singleop models of Cast and ArgMaxD
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
best = int(np.frombuffer(acl.util.ptr_to_bytes(host_ptr, 4), np.int32)[0])
print("label of classification result:", best)
print("ImageNet name:", labels[best], "| same as the host's top-1:", best == top.top[0].index)

# %% [markdown] tags=["lang:en"]
# Release what the operators used: the host buffer ([`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)), the attribute
# ([`acl.op.destroy_attr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_attr.md)) and tensor descs ([`acl.destroy_tensor_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-destroy_tensor_desc.md)) — these two
# return `None`, not a `ret` — the data buffers ([`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)) and the memory
# ([`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)). The model's output buffer is not ours to destroy here: it belongs to the dataset.

# %% [markdown] tags=["lang:zh"]
# 释放算子用到的资源：Host 缓冲（[`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)）、属性（[`acl.op.destroy_attr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_attr.md)）和张量描述
# （[`acl.destroy_tensor_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-destroy_tensor_desc.md)）——这两个接口返回 `None` 而不是 `ret`——数据缓冲（[`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)）和内存
# （[`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)）。模型的输出缓冲不由这里销毁：它属于数据集。

# %%
check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
acl.op.destroy_attr(attr)                       # returns None
for t in (src_desc, half_desc, idx_desc):
    acl.destroy_tensor_desc(t)                  # returns None
check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(half_buf))
check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(idx_buf))
check_ret("acl.rt.free", acl.rt.free(half_ptr))
check_ret("acl.rt.free", acl.rt.free(idx_ptr))

# %% [markdown] tags=["lang:en"]
# ## Your own operator: an op list, `atc --singleop`, `acl.op.load`
# Cast and ArgMaxD came precompiled. For any other operator you write the **op list** yourself — the JSON file
# `atc --singleop` reads: one entry per operator with its type (`"op"`), its `input_desc` and `output_desc` (each
# tensor's `format`, `shape` and `type`) and any `attr`. ATC compiles one `.om` file per entry, and the runtime
# only runs an operator call whose types, formats and shapes match a compiled entry exactly. The next cell writes an
# op list for **Add** of two float32 vectors of 1000 scores — two photos' scores summed on the device, a tiny
# ensemble — and compiles it with `at.models.compile_ops` (the emulator's `--singleop` here; on a board the same
# call runs CANN's `atc --singleop=op_list.json --output=… --soc_version=…`). Instead of a second folder, this model
# is loaded from memory with [`acl.op.load`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-load.md)`(ptr, size)` (aclopLoad: "load single-operator model data from memory, the
# memory managed by you"): the file's bytes, a pointer to them from [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html), and the byte count.
#
# *simulator:* `acl.op.set_model_dir` accepts one folder per process (a second call returns 100002) and
# `acl.op.load` any number of models; the guide states neither limit, so whether a board takes a second folder is
# UNCONFIRMED — loading from memory works either way.

# %% [markdown] tags=["lang:zh"]
# ## 你自己的算子：op list、`atc --singleop`、`acl.op.load`
# Cast 和 ArgMaxD 是预先编译好的。其他算子要你自己写 **op list**——也就是 `atc --singleop` 读取的 JSON 文件：每个算子一项，写明类型（`"op"`）、
# `input_desc` 和 `output_desc`（每个张量的 `format`、`shape`、`type`）以及可能的 `attr`。ATC 为每一项编译一个 `.om` 文件，运行时只执行类型、
# 格式和形状与某个编译项完全一致的算子调用。下一个单元格为 **Add** 写一个 op list：两个各含 1000 个分数的 float32 向量相加——在 Device
# 上把两张照片的分数加起来，一个微型的集成——并用 `at.models.compile_ops` 编译（这里是模拟工具的 `--singleop`；在开发板上同一个调用运行
# CANN 的 `atc --singleop=op_list.json --output=… --soc_version=…`）。这里不再设置第二个目录，而是用 [`acl.op.load`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-load.md)`(ptr, size)` 从内存加载
# 这个模型（aclopLoad：“从内存中加载单算子模型数据，由用户管理内存”）：文件的字节、用 [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html)
# 得到的指针，以及字节数。
#
# *模拟器：* `acl.op.set_model_dir` 每个进程只接受一个目录（第二次调用返回 100002），`acl.op.load` 可以加载任意多个模型；指南没有写明这两个
# 限制，所以开发板是否接受第二个目录尚未确认（UNCONFIRMED）——从内存加载在两种情况下都可行。

# %%
import json, os
vector = {"format": "ND", "shape": [1000], "type": "float32"}
add_list = [{"op": "Add", "input_desc": [vector, vector], "output_desc": [vector]}]
print(json.dumps(add_list))
add_dir = at.models.compile_ops(add_list, "scores_add")     # atc --singleop=op_list.json --output=add_dir ...
add_om = next(f for f in sorted(os.listdir(add_dir)) if f.endswith(".om"))
print("compiled:", add_om)
with open(os.path.join(add_dir, add_om), "rb") as fh:
    add_model = fh.read()                      # keep the bytes alive while their pointer is in use
check_ret("acl.op.load", acl.op.load(acl.util.bytes_to_ptr(add_model), len(add_model)))

# %% [markdown] tags=["lang:en"]
# ## Exercise 1 (3 points)
# Write `top5(outputs)`: copy output 0 from the device to the host yourself (`malloc_host`, `memcpy` with kind 2,
# `ptr_to_bytes`, `free_host`), read it as float32 and return the five best class indices, best first. The checker
# reads the same device buffer and checks that your function made the copy.
# The buffer's address and size: [`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md) and [`acl.get_data_buffer_size_v2`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0020.html).

# %% [markdown] tags=["lang:zh"]
# ## 练习 1（3 分）
# 编写 `top5(outputs)`：自己把输出 0 从 Device 复制到 Host（`malloc_host`、kind 为 2 的 `memcpy`、`ptr_to_bytes`、`free_host`），
# 按 float32 读取，返回得分最高的五个类别索引，从高到低。检查器读取同一个 Device 缓冲，并检查复制是你的函数做的。
# 缓冲的地址和大小：[`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md) 和 [`acl.get_data_buffer_size_v2`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0020.html)。

# %% tags=["solution", "grade_id:nb07-top5"]
def top5(outputs):
    """D2H copy of output 0, then the five best classes, best first."""
    ### BEGIN SOLUTION
    buf = acl.mdl.get_dataset_buffer(outputs.dataset, 0)
    ptr, size = acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)
    host, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, ptr, size, 2))
    scores = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32)
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    return [int(i) for i in scores.argsort()[-1:-6:-1]]
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb07-top5-test"]
feedback = lab.check_top5(top5, outputs)
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Exercise 2 (3 points): run the Add operator yourself
# Write `device_add(a, b, stream)`: `a` and `b` are float32 numpy vectors of 1000 values on the host. Run the
# **Add** operator loaded above on the device and return `a + b` as a float32 numpy array — computed by the
# operator, not by numpy: a device buffer per tensor (`acl.rt.malloc`) wrapped with `acl.create_data_buffer`; `a`
# and `b` copied in (`acl.rt.memcpy`, kind 1); one tensor desc matching the op list (`acl.create_tensor_desc(0,
# [1000], 2)`: ACL_FLOAT, ND); an empty attr (`acl.op.create_attr`); `acl.op.execute_v2("Add", …, stream)`;
# `acl.rt.synchronize_stream`; the result copied back (kind 2); and everything you made released. The checker runs
# it twice on random vectors and follows the bytes: your copies must land in the buffers the operator read, and
# your copy back must come from the buffer it wrote.

# %% [markdown] tags=["lang:zh"]
# ## 练习 2（3 分）：自己运行 Add 算子
# 编写 `device_add(a, b, stream)`：`a` 和 `b` 是 Host 上各含 1000 个值的 float32 numpy 向量。在 Device 上运行上面加载的 **Add** 算子，
# 以 float32 numpy 数组返回 `a + b`——由算子计算，而不是 numpy：为每个张量申请 Device 缓冲（`acl.rt.malloc`）并用 `acl.create_data_buffer`
# 包装；把 `a` 和 `b` 复制进去（`acl.rt.memcpy`，kind 1）；一个与 op list 一致的张量描述（`acl.create_tensor_desc(0, [1000], 2)`：ACL_FLOAT、ND）；
# 一个空的属性（`acl.op.create_attr`）；`acl.op.execute_v2("Add", …, stream)`；`acl.rt.synchronize_stream`；把结果复制回来（kind 2）；并释放你创建的
# 一切。检查器用随机向量运行两次，并追踪字节的去向：你复制进去的数据必须落在算子读取的缓冲里，你拷回的数据必须来自算子写入的缓冲。

# %% tags=["solution", "grade_id:nb07-add"]
def device_add(a, b, stream):
    """a + b by the Add operator on the device; everything it makes is released."""
    ### BEGIN SOLUTION
    size = a.nbytes
    desc = acl.create_tensor_desc(0, [a.size], 2)          # ACL_FLOAT, ND: as the op list says
    ptrs, bufs = [], []
    for _ in range(3):                                     # a, b, and the result
        ptr, ret = acl.rt.malloc(size, 0)
        check_ret("acl.rt.malloc", ret)
        ptrs.append(ptr)
        bufs.append(acl.create_data_buffer(ptr, size))
    data = [a.tobytes(), b.tobytes()]                      # alive while their pointers are used
    for ptr, raw in zip(ptrs, data):
        check_ret("acl.rt.memcpy", acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(raw), size, 1))
    attr = acl.op.create_attr()
    check_ret("acl.op.execute_v2", acl.op.execute_v2("Add", [desc, desc], bufs[:2], [desc], bufs[2:], attr, stream))
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
    host, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, ptrs[2], size, 2))
    out = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32).copy()
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    acl.op.destroy_attr(attr)
    acl.destroy_tensor_desc(desc)
    for buf, ptr in zip(bufs, ptrs):
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buf))
        check_ret("acl.rt.free", acl.rt.free(ptr))
    return out
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb07-add-test"]
feedback = lab.check_device_add(device_add, res.stream)
print(feedback)
assert feedback, feedback

# %%
at.release_dataset(inputs); at.release_dataset(outputs); at.unload_model(model, d)
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Summary
# * Results: `malloc_host` → `memcpy(…, DEVICE_TO_HOST)` → `get_cur_output_dims` → `ptr_to_bytes` (or
#   `ptr_to_numpy`, a view) → `np.frombuffer(...).reshape(dims)` → `free_host`.
# * Top-5 is `argsort()[-1:-6:-1]`; know whether your model outputs probabilities or logits.
# * On the device, Cast + ArgMaxD (the guide's example) or Cast + ArgMaxV2 (the vpc sample) return only the
#   answer; both need `atc --singleop` operator models and `acl.op.set_model_dir`.
# * Your own operator: an op list entry (type, input/output descs, attrs) → `atc --singleop` → one `.om` per entry;
#   `acl.op.load` adds one from memory (any number of times), then `execute_v2` with matching tensor descs.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 取结果：`malloc_host` → `memcpy(…, DEVICE_TO_HOST)` → `get_cur_output_dims` → `ptr_to_bytes`（或作为视图的 `ptr_to_numpy`）→
#   `np.frombuffer(...).reshape(dims)` → `free_host`。
# * top-5 是 `argsort()[-1:-6:-1]`；要清楚模型输出的是概率还是 logits。
# * 在 Device 上，Cast + ArgMaxD（指南中的例子）或 Cast + ArgMaxV2（vpc 样例）只把答案传回来；两者都需要 `atc --singleop` 编译的单算子模型
#   和 `acl.op.set_model_dir`。
# * 自己的算子：op list 中的一项（类型、输入/输出描述、属性）→ `atc --singleop` → 每项一个 `.om`；`acl.op.load` 从内存加载一个（可调用任意
#   多次），然后用匹配的张量描述调用 `execute_v2`。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Why does the sample call `get_cur_output_dims` rather than `get_output_dims` before reshaping?
# 2. `ptr_to_numpy` returned an array; you then call `free_host`. What is wrong with the array now?
# 3. Which operator does the vpc sample use for the arg-max, and how does it receive the dimension?
# 4. Why must `synchronize_stream` come before reading the ArgMaxD result?
# 5. Your op list compiled Add for `[1000]` float32. What happens if you call it with a `[1, 1000]` tensor desc, and why?
#
# **Next →** [08_release_and_leaks](08_release_and_leaks.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 为什么样例在 reshape 之前调用 `get_cur_output_dims` 而不是 `get_output_dims`？
# 2. `ptr_to_numpy` 返回了一个数组，随后你调用了 `free_host`。这个数组现在有什么问题？
# 3. vpc 样例用哪个算子求最大值下标？它如何得到维度参数？
# 4. 为什么必须先 `synchronize_stream` 再读取 ArgMaxD 的结果？
# 5. 你的 op list 为 `[1000]` 的 float32 编译了 Add。如果用 `[1, 1000]` 的张量描述调用它，会怎样？为什么？
#
# **下一节 →** [08_release_and_leaks](08_release_and_leaks.ipynb)
