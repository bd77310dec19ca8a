# %% [markdown] tags=["lang:en"]
# # 04 · Device memory, aclDataBuffer (数据缓冲) and aclmdlDataset (数据集)
# **Why.** "The quick start never explains the Dataset, so I did not know what a model expects to be given", a
# learner wrote; he found the concept only in the "model execution" section. Yet every execute takes exactly
# two things besides the model id: an input dataset and an output dataset. The guide describes three layers —
# an `aclmdlDataset` holds the model's inputs (or outputs), each an `aclDataBuffer` that records the address
# and size of a piece of memory, and the memory itself, which you allocate ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)).
# Knowing which layer owns what is what keeps a long-running program from leaking.
#
# **You will be able to:** allocate device memory for each input and output, wrap it in data buffers, add them
# to datasets in index order, inspect and re-point a buffer, and release each layer with its own call. The picture
# shows what lives inside what: the Device holds its Context and Stream, the device memory (the bytes) and the
# loaded model; a dataset is an ordered list of data buffers, and each buffer is only a (pointer, size) label on
# memory you allocated — it owns nothing. At the bottom: who releases what, and in which order.
#
# ![Device ⊃ Context ⊃ Stream; device memory from acl.rt.malloc; aclmdlDataset ⊃ aclDataBuffer = (pointer, size) pointing at it; host memory for the copies; the release order](../../data/diagrams/memory_nesting_en.svg)

# %% [markdown] tags=["lang:zh"]
# # 04 · Device 内存、aclDataBuffer 与 aclmdlDataset
# **为什么。** 一位学习者写道：“快速入门中没有 Dataset 概念的讲解，导致我不知道模型推理需要传入什么东西进去”；他直到“模型执行”
# 一节才找到这个概念。然而除了模型 ID，每次推理恰好只需要两样东西：输入数据集和输出数据集。指南描述了三层结构——`aclmdlDataset`
# 描述模型的输入（或输出），其中每一项是一个 `aclDataBuffer`，记录一块内存的地址和大小，而内存本身由你申请（[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。
# 弄清每一层拥有什么，才能让长时间运行的程序不泄漏内存。
#
# **学完本节你将能够：** 为每个输入和输出申请 Device 内存，用数据缓冲包装它们，按索引顺序加入数据集，查看并重新指向一个缓冲，
# 并用各自的接口逐层释放。下图画出谁包含谁：Device 里有它的 Context 和 Stream、Device 内存（真正的字节）以及已加载的模型；
# 数据集是数据缓冲的有序列表，而每个缓冲只是贴在你申请的内存上的（指针, 大小）标签——它不拥有任何东西。图的下方是谁释放什么、按什么顺序。
#
# ![Device ⊃ Context ⊃ Stream；acl.rt.malloc 申请的 Device 内存；aclmdlDataset ⊃ aclDataBuffer =（指针, 大小）指向它；用于复制的 Host 内存；释放顺序](../../data/diagrams/memory_nesting_zh.svg)

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# The start of notebooks 01–03: [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html), [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html),
# [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html), [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html)
# on the default model, [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) and [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md).

# %% [markdown] tags=["lang:zh"]
# 第 01–03 节的开头：[`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)、[`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)、[`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md)、
# 用 [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md) 加载默认模型，再 [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) 和 [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)。

# %%
import atexit
ret = acl.init()                      # once per process: Run All again in this kernel gives 100002, still initialised
if ret == 0:
    atexit.register(acl.finalize)     # the one acl.finalize, when the kernel (the process) exits
elif ret != 100002:
    check_ret("acl.init", ret)
check_ret("acl.rt.set_device", acl.rt.set_device(0))
context, ret = acl.rt.create_context(0)
check_ret("acl.rt.create_context", ret)
model_id, ret = acl.mdl.load_from_file(at.models.default_om())
check_ret("acl.mdl.load_from_file", ret)
desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(desc, model_id))

# %% [markdown] tags=["lang:en"]
# ## Raw pyACL: one dataset for the inputs, one for the outputs
# This is the guide's code, made runnable. For each input (then each output): ask the desc for the size
# ([`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html), [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md) — for outputs
# [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0207.html), [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)), allocate that
# many bytes of device memory with [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), wrap them with
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) and append the buffer to a dataset made by
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md) with [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html).
# Appending is the only way in, so **the order you add is the order the model reads**: buffer *i* is input *i*.
#
# The second argument of `malloc` is the allocation policy: `ACL_MEM_MALLOC_HUGE_FIRST = 0` (huge pages if
# possible, the samples' choice), `ACL_MEM_MALLOC_HUGE_ONLY = 1`, `ACL_MEM_MALLOC_NORMAL_ONLY = 2`. Keep the
# pointers and sizes in your own list, as the sample does: the dataset is not the owner of the memory.

# %% [markdown] tags=["lang:zh"]
# ## 原始 pyACL：一个输入数据集，一个输出数据集
# 下面就是指南中的示例代码，改成了可以运行的版本。对每个输入（然后是每个输出）：向模型描述查询大小（[`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md)、
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md)；输出用 [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0198.html)、[`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)），
# 用 [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html) 申请这么多字节的 Device 内存，用 [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) 包装，
# 再用 [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) 追加到由 [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md) 创建的数据集中。
# 只能追加，所以**添加的顺序就是模型读取的顺序**：第 *i* 个缓冲就是第 *i* 个输入。
#
# `malloc` 的第二个参数是内存分配规则：`ACL_MEM_MALLOC_HUGE_FIRST = 0`（优先大页，样例的选择）、`ACL_MEM_MALLOC_HUGE_ONLY = 1`、
# `ACL_MEM_MALLOC_NORMAL_ONLY = 2`。像样例那样把指针和大小保存在自己的列表里：数据集并不拥有这些内存。

# %%
ACL_MEM_MALLOC_HUGE_FIRST = 0

def build(count, size_of):
    dataset = acl.mdl.create_dataset()
    items = []
    for i in range(count):
        size = size_of(desc, i)
        ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        buffer = acl.create_data_buffer(ptr, size)              # a label on the memory: (pointer, size)
        _, ret = acl.mdl.add_dataset_buffer(dataset, buffer)    # appended: buffer i = tensor i
        check_ret("acl.mdl.add_dataset_buffer", ret)
        items.append({"buffer": ptr, "size": size})
    return dataset, items

input_dataset, input_items = build(acl.mdl.get_num_inputs(desc), acl.mdl.get_input_size_by_index)
output_dataset, output_items = build(acl.mdl.get_num_outputs(desc), acl.mdl.get_output_size_by_index)
print("input sizes:", [i["size"] for i in input_items], "| output sizes:", [i["size"] for i in output_items])

# %% [markdown] tags=["lang:en"]
# ## Looking inside
# [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md) counts the buffers, [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md)
# returns buffer *i* (0, a NULL handle, past the end), and [`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md) and
# [`acl.get_data_buffer_size_v2`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0020.html) read the label back. The `BufferView` widget
# shows the bytes the buffer points at.
#
# *simulator:* fresh device memory shows `cd cd cd …` because the simulator fills every new allocation with
# 0xCD, so that reading memory nobody wrote stands out. On real hardware the contents of fresh memory are
# **undefined** — whatever was there before. Never rely on either: write before you read.

# %% [markdown] tags=["lang:zh"]
# ## 看看里面
# [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md) 返回缓冲个数，[`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md) 返回第 *i* 个缓冲
# （越界时返回 0，即空句柄），[`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md) 和 [`acl.get_data_buffer_size_v2`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0020.html)
# 读回标签上的地址和大小。`BufferView` 控件显示缓冲所指向的字节。
#
# *模拟器：* 新申请的 Device 内存显示为 `cd cd cd …`，因为模拟器会把每块新内存填成 0xCD，让“读取了没人写过的内存”一眼就能看出来。
# 在真实硬件上，新内存的内容是**未定义的**——之前留下的是什么就是什么。两者都不能依赖：先写，再读。

# %%
buf0 = acl.mdl.get_dataset_buffer(input_dataset, 0)
print("buffers in the input dataset:", acl.mdl.get_dataset_num_buffers(input_dataset))
print("buffer 0 points at the malloc'd memory:", acl.get_data_buffer_addr(buf0) == input_items[0]["buffer"])
print("buffer 0 size:", acl.get_data_buffer_size_v2(buf0))
print("buffer 1 (past the end) ->", acl.mdl.get_dataset_buffer(input_dataset, 1))

# %%
from acl_teach.widgets import BufferView
view = BufferView(buf0, dtype="float16")
view

# %% [markdown] tags=["lang:en"]
# ## Re-pointing a buffer
# A data buffer is only a label, so it can be moved: [`acl.update_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha001/API/appdevgapi/aclpythondevg_01_0021.html)
# `(buffer, ptr, size)` makes it describe other memory. Programs that alternate between two input memories (one
# being filled while the other is read) keep one dataset and re-point its buffer instead of rebuilding it. The
# old memory is untouched and still yours to free.

# %% [markdown] tags=["lang:zh"]
# ## 重新指向一个缓冲
# 数据缓冲只是一个标签，所以可以改：[`acl.update_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha001/API/appdevgapi/aclpythondevg_01_0021.html)`(buffer, ptr, size)` 让它描述另一块内存。
# 在两块输入内存之间交替使用的程序（一块在写入时另一块在被读取），可以保留同一个数据集，只重新指向其中的缓冲，而不必重建数据集。
# 原来的内存不受影响，仍需由你释放。

# %%
spare, ret = acl.rt.malloc(input_items[0]["size"], ACL_MEM_MALLOC_HUGE_FIRST)
check_ret("acl.rt.malloc", ret)
check_ret("acl.update_data_buffer", acl.update_data_buffer(buf0, spare, input_items[0]["size"]))
print("now points at the spare memory:", acl.get_data_buffer_addr(buf0) == spare)
check_ret("acl.update_data_buffer", acl.update_data_buffer(buf0, input_items[0]["buffer"], input_items[0]["size"]))
check_ret("acl.rt.free", acl.rt.free(spare))

# %% [markdown] tags=["lang:en"]
# ## Release: each layer has its own call
# Destroying a dataset ([`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)) does not destroy its buffers; destroying a
# buffer ([`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)) does not free its memory; only [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)
# does. The cell releases the layers one at a time; on the simulator the ledger shows what is still alive after
# each (the model, its desc and the device stay until the end of the notebook). Notebook 08 discusses which
# release orders are safe.

# %% [markdown] tags=["lang:zh"]
# ## 释放：每一层都有自己的接口
# 销毁数据集（[`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)）不会销毁其中的缓冲；销毁缓冲（[`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)）
# 不会释放它指向的内存；只有 [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html) 才释放内存。下面的单元格逐层释放；在模拟器上，资源台账显示每一步之后仍然存活的资源
# （模型、模型描述和 Device 留到本节最后）。第 08 节讨论哪些释放顺序是安全的。

# %%
buffers = [acl.mdl.get_dataset_buffer(ds, i) for ds in (input_dataset, output_dataset)
           for i in range(acl.mdl.get_dataset_num_buffers(ds))]
for ds in (input_dataset, output_dataset):
    check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(ds))
print("datasets destroyed:    ", lab.ledger_summary())
for b in buffers:
    check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(b))
print("data buffers destroyed:", lab.ledger_summary())
for item in input_items + output_items:
    check_ret("acl.rt.free", acl.rt.free(item["buffer"]))
print("memory freed:          ", lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## The step API builds the whole thing from the desc
# `at.build_dataset(desc, "input")` does the loop above for every input (or output) and records the pointers,
# so `at.release_dataset` can destroy the buffers, the dataset and then free the memory.

# %% [markdown] tags=["lang:zh"]
# ## 分步 API 根据模型描述一次建好
# `at.build_dataset(desc, "input")` 对每个输入（或输出）执行上面的循环并记录指针，因此 `at.release_dataset` 可以依次销毁缓冲、
# 销毁数据集、再释放内存。

# %%
d = at.query_desc(at.Model(model_id=model_id))
inputs = at.build_dataset(d, "input")
outputs = at.build_dataset(d, "output")
print(inputs)
print(outputs.code())

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points)
# Write `build_output_dataset(desc)`: a new dataset with one data buffer per output, in index order, each over
# device memory of the size the desc gives. Return the dataset. The checker reads your dataset back through
# `get_dataset_num_buffers`, `get_dataset_buffer` and the buffer's address and size, then releases it.

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）
# 编写 `build_output_dataset(desc)`：新建一个数据集，每个输出一个数据缓冲，按索引顺序，每个缓冲指向大小与 desc 一致的 Device 内存。
# 返回这个数据集。检查器通过 `get_dataset_num_buffers`、`get_dataset_buffer` 以及缓冲的地址和大小把它读回来，然后释放它。

# %% tags=["solution", "grade_id:nb04-dataset"]
def build_output_dataset(desc):
    """One device buffer per output, in index order, wrapped in a new dataset."""
    ### BEGIN SOLUTION
    dataset = acl.mdl.create_dataset()
    for i in range(acl.mdl.get_num_outputs(desc)):
        size = acl.mdl.get_output_size_by_index(desc, i)
        ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        _, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size))
        check_ret("acl.mdl.add_dataset_buffer", ret)
    return dataset
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb04-dataset-test"]
feedback = lab.check_dataset(build_output_dataset, desc, "output")
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# Release everything, in the order of notebooks 01–03: [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md),
# [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html), [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html),
# [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html); [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) runs once, when the kernel exits.

# %% [markdown] tags=["lang:zh"]
# 按第 01–03 节的顺序释放全部资源：[`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)、[`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md)、
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、[`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)；[`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) 在内核退出时执行一次。

# %%
at.release_dataset(inputs); at.release_dataset(outputs)
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(desc))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(d.model_desc))
check_ret("acl.mdl.unload", acl.mdl.unload(model_id))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))

# %% [markdown] tags=["lang:en"]
# ## Summary
# * Three layers: memory (`acl.rt.malloc`, owns the bytes), aclDataBuffer (pointer + size, owns nothing),
#   aclmdlDataset (ordered buffers, one per input or output, owns nothing).
# * Sizes come from the desc; buffers are appended, so add them in index order.
# * A buffer can be re-pointed with `update_data_buffer`. Fresh memory is undefined (simulator: filled with 0xCD).
# * Release each layer with its own call; destroying the outer one never frees the inner one.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 三层结构：内存（`acl.rt.malloc`，拥有字节）、aclDataBuffer（指针 + 大小，不拥有任何东西）、aclmdlDataset（有序的缓冲，
#   每个输入或输出一个，也不拥有任何东西）。
# * 大小来自模型描述；缓冲只能追加，所以要按索引顺序添加。
# * 可以用 `update_data_buffer` 让缓冲指向别的内存。新内存的内容未定义（模拟器：填充为 0xCD）。
# * 每一层都用自己的接口释放；销毁外层永远不会释放内层。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. After `acl.mdl.destroy_dataset(ds)`, which resources of that dataset are still alive?
# 2. A model has inputs `image` (index 0) and `mask` (index 1). You add the mask's buffer first. What happens
#    at execute time?
# 3. What does `acl.create_data_buffer` return, and how do you notice that it failed?
# 4. Why do the samples keep their own list of `{"buffer": ptr, "size": size}` next to the dataset?
#
# **Next →** [05_preprocess_and_copy](05_preprocess_and_copy.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 调用 `acl.mdl.destroy_dataset(ds)` 之后，该数据集相关的哪些资源仍然存活？
# 2. 某模型的输入是 `image`（索引 0）和 `mask`（索引 1）。你先添加了 mask 的缓冲，推理时会发生什么？
# 3. `acl.create_data_buffer` 返回什么？怎样发现它失败了？
# 4. 为什么样例要在数据集之外另存一份 `{"buffer": ptr, "size": size}` 列表？
#
# **下一节 →** [05_preprocess_and_copy](05_preprocess_and_copy.ipynb)

# %%
print(lab.ledger_summary())
