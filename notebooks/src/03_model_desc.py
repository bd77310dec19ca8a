# %% [markdown] tags=["lang:en"]
# # 03 · The model desc (模型描述, aclmdlDesc)
# **Why.** Before you can run a model you must know what it eats and what it returns: how many inputs and
# outputs, their names, data types, formats, dimensions and byte sizes. The guide's first two steps of model
# execution are exactly this — create an `aclmdlDesc`, then fill it from the loaded model's id — and every
# buffer you allocate later takes its size from it ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)). A learner's advice from
# the field says the same: query the model through the API instead of hard-coding shapes, and the code keeps
# working when the model changes.
#
# **You will be able to:** create and fill a model desc, read every `acl.mdl.get_*` value of each input and
# output, compute each buffer size from dims × bytes per element, tell `get_input_dims` from `_v2` and
# `get_output_dims` from `get_cur_output_dims`, find an input by name, and release the desc.

# %% [markdown] tags=["lang:zh"]
# # 03 · 模型描述（aclmdlDesc）
# **为什么。** 运行模型之前，必须先知道它吃什么、吐什么：有几个输入几个输出，它们的名称、数据类型、Format、维度和字节大小。
# 官方“模型执行”流程的前两步正是这件事——创建 `aclmdlDesc`，再根据已加载模型的 ID 填充它——之后申请的每一块缓冲，大小都来自它
# （[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。一位实践者的经验也是如此：通过 API 查询模型信息，而不是把形状写死，模型换了代码照样能用。
#
# **学完本节你将能够：** 创建并填充模型描述，读出每个输入、输出的所有 `acl.mdl.get_*` 值，由维度 × 每个元素的字节数算出缓冲大小，
# 区分 `get_input_dims` 与 `_v2`、`get_output_dims` 与 `get_cur_output_dims`，按名称查找输入，并销毁模型描述。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# First the usual start (notebooks 01 and 02): [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html),
# [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html), [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html) and
# [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html) on `at.models.default_om()` — the default model for
# this backend. This notebook always uses that model, even after `acl-teach fetch resnet50`, so the numbers
# below stay true.

# %% [markdown] tags=["lang:zh"]
# 先做常规的开头（第 01、02 节）：[`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)、[`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)、
# [`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md)，再用 [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md)
# 加载 `at.models.default_om()`——当前后端的默认模型。即使执行过 `acl-teach fetch resnet50`，本节也始终使用这个模型，
# 所以下面的数字始终成立。

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

# %% [markdown] tags=["lang:en"]
# ## Create the desc, fill it, read it
# [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) returns an empty desc handle (a creator: no `ret`);
# [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)`(desc, model_id)` fills it — note the order, desc first. Then the getters,
# each returning its value directly: [`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html) and
# [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0207.html); per input the name
# ([`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html)), the data type
# ([`acl.mdl.get_input_data_type`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0217.html)), the format
# ([`acl.mdl.get_input_format`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0215.html)) and the size in bytes
# ([`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md)). The dims come as `(dict, ret)` with keys `name`,
# `dimCount`, `dims` from [`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html); the outputs have the
# matching [`acl.mdl.get_output_name_by_index`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0214.html),
# [`acl.mdl.get_output_dims`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0212.html), [`acl.mdl.get_output_data_type`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_output_data_type.md),
# [`acl.mdl.get_output_format`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_format.md) and [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md).

# %% [markdown] tags=["lang:zh"]
# ## 创建、填充、读取模型描述
# [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) 返回一个空的描述句柄（创建类接口：没有 `ret`）；[`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)`(desc, model_id)`
# 填充它——注意参数顺序，desc 在前。然后是各个查询接口，直接返回值：[`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md) 与
# [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0198.html)；每个输入的名称（[`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html)）、
# 数据类型（[`acl.mdl.get_input_data_type`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_data_type.md)）、Format（[`acl.mdl.get_input_format`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_input_format.md)）
# 和字节大小（[`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md)）。维度由 [`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html)
# 以 `(dict, ret)` 返回，字典键为 `name`、`dimCount`、`dims`；输出有对应的 [`acl.mdl.get_output_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0205.html)、
# [`acl.mdl.get_output_dims`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_output_dims.md)、[`acl.mdl.get_output_data_type`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_output_data_type.md)、
# [`acl.mdl.get_output_format`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_format.md) 和 [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)。

# %%
desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(desc, model_id))    # note the order: desc, model_id
n_in, n_out = acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)
print("inputs:", n_in, "outputs:", n_out)
for i in range(n_in):
    dims, ret = acl.mdl.get_input_dims(desc, i)
    check_ret("acl.mdl.get_input_dims", ret)
    print("input", i, acl.mdl.get_input_name_by_index(desc, i), dims["dims"],
          "type", acl.mdl.get_input_data_type(desc, i), "format", acl.mdl.get_input_format(desc, i),
          "size", acl.mdl.get_input_size_by_index(desc, i))
for i in range(n_out):
    dims, ret = acl.mdl.get_output_dims(desc, i)
    check_ret("acl.mdl.get_output_dims", ret)
    print("output", i, acl.mdl.get_output_name_by_index(desc, i), dims["dims"],
          "type", acl.mdl.get_output_data_type(desc, i), "format", acl.mdl.get_output_format(desc, i),
          "size", acl.mdl.get_output_size_by_index(desc, i))

# %% [markdown] tags=["lang:en"]
# ## Reading the numbers
# Data types and formats are enums: data type 1 is `ACL_FLOAT16` (2 bytes), 0 is `ACL_FLOAT` (4 bytes); format
# 0 is `ACL_FORMAT_NCHW`, 2 is `ACL_FORMAT_ND` (no layout meaning). A size is the product of the dims times the
# bytes per element — for a dynamic model, of the largest gear (notebook 10). The output's name follows the
# documented format for an ONNX model built with ATC without naming output nodes, *output operator name : output
# edge index : output name* ([`get_output_name_by_index`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0214.html)): the softmax node, its output 0, the graph
# output `prob`.
#
# Two pairs of getters look alike. [`acl.mdl.get_input_dims_v2`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0211.html) differs from
# `get_input_dims` only for models with static AIPP (image preprocessing compiled into the model), where it
# reports dims whose product equals the input's byte size; for this model both agree.
# [`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html) gives the output dims *of the gear currently
# set* on a dynamic model (`set_dynamic_batch_size` / `_hw_size`) — so, read after an execute, the shape of that
# result — and the same as `get_output_dims` for a static one; the samples use it to shape results. [`acl.mdl.get_input_index_by_name`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0210.html) returns
# `(index, ret)`; an unknown name gives ret 100000 (ACL_ERROR_INVALID_PARAM).
# [`acl.mdl.get_output_index_by_name`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_output_index_by_name.md) does the same for outputs.

# %% [markdown] tags=["lang:zh"]
# ## 读懂这些数字
# 数据类型和 Format 都是枚举：数据类型 1 是 `ACL_FLOAT16`（2 字节），0 是 `ACL_FLOAT`（4 字节）；Format 0 是 `ACL_FORMAT_NCHW`，
# 2 是 `ACL_FORMAT_ND`（不带排布含义）。大小等于各维度之积乘以每个元素的字节数——对动态模型则按最大档位计算（第 10 节）。
# 输出名称遵循文档中 ONNX 模型（用 ATC 构建、未指定输出节点）的格式“输出算子名称:算子输出边下标:输出名称”
# （[aclmdlGetOutputNameByIndex](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclcppdevg_03_1457.html)）：softmax 节点、它的第 0 个输出、图输出名 `prob`。
#
# 有两对查询接口长得很像。[`acl.mdl.get_input_dims_v2`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_input_dims_v2.md) 只在带静态 AIPP（编译进模型的图像预处理）的
# 模型上与 `get_input_dims` 不同：它给出的维度之积等于输入的字节大小；对本模型两者一致。
# [`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html) 对动态模型给出*当前所设档位*（`set_dynamic_batch_size` / `_hw_size`）的输出维度——
# 所以在推理之后读取，就是这次结果的形状——对静态模型与 `get_output_dims` 相同；样例用它来整理推理结果的形状。[`acl.mdl.get_input_index_by_name`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0210.html)
# 返回 `(index, ret)`；名称不存在时 ret 为 100000（ACL_ERROR_INVALID_PARAM）。
# [`acl.mdl.get_output_index_by_name`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_output_index_by_name.md) 对输出做同样的事。

# %%
print(1 * 3 * 224 * 224 * 2, "= input size (fp16)")
print(1 * 1000 * 4, "= output size (fp32)")
print("input dims v2:", acl.mdl.get_input_dims_v2(desc, 0))
print("current output dims:", acl.mdl.get_cur_output_dims(desc, 0))
print("index of 'data':", acl.mdl.get_input_index_by_name(desc, "data"),
      "| of 'nope':", acl.mdl.get_input_index_by_name(desc, "nope"))
print("output index by name:", acl.mdl.get_output_index_by_name(desc, acl.mdl.get_output_name_by_index(desc, 0)))

# %% [markdown] tags=["lang:en"]
# ## The same with the step API, and the desc explorer widget
# `at.query_desc` makes the same calls and keeps the answers in a `Desc` record: a table, and for each tensor
# the size arithmetic. `at.Model(model_id=…)` wraps a model you loaded yourself. The `DescExplorer` widget
# shows every getter's value for the input or output you pick, labelled with the call that produced it.

# %% [markdown] tags=["lang:zh"]
# ## 用分步 API 完成同样的事，以及模型描述浏览器控件
# `at.query_desc` 做同样的调用，把结果保存在 `Desc` 记录中：一张表，以及每个张量大小的计算式。`at.Model(model_id=…)` 包装一个你自己加载
# 的模型。`DescExplorer` 控件显示你所选输入或输出的每个查询结果，并标明它来自哪个接口。

# %%
m = at.Model(model_id=model_id)
d = at.query_desc(m)
print(d.table())
for t in d.inputs + d.outputs:
    print(t.size_arithmetic)

# %%
from acl_teach.widgets import DescExplorer
explorer = DescExplorer(d)
explorer

# %% [markdown] tags=["lang:en"]
# ## Exercise (2 points)
# Write `tensor_bytes(desc, index)`: the byte size of output `index`, computed from `acl.mdl.get_output_dims` and
# `acl.mdl.get_output_data_type`. Inside it, first write `ITEMSIZE`, the bytes per element of each aclDataType you may meet —
# at least `ACL_FLOAT` (0) and `ACL_FLOAT16` (1); other enum values: `ACL_INT8` = 2, `ACL_INT32` = 3, `ACL_UINT8` = 4,
# `ACL_INT64` = 9.
# The checker runs it on every output of this model, then on a second model of its own (an fp16 and an fp32 output of
# other shapes), and compares with the size each desc reports — so a number typed in does not pass.

# %% [markdown] tags=["lang:zh"]
# ## 练习（2 分）
# 编写 `tensor_bytes(desc, index)`：根据 `acl.mdl.get_output_dims` 和 `acl.mdl.get_output_data_type` 计算第 `index` 个输出的字节数。
# 在函数里先写好 `ITEMSIZE`：你可能遇到的每种 aclDataType 每个元素占几个字节——至少 `ACL_FLOAT`（0）和 `ACL_FLOAT16`（1）；其他枚举值：`ACL_INT8` = 2，
# `ACL_INT32` = 3，`ACL_UINT8` = 4，`ACL_INT64` = 9。检查器对本模型的每个输出运行它，再在它自己的第二个模型（形状不同的一个 fp16 输出和一个
# fp32 输出）上运行，并与各自 desc 给出的大小比较——所以直接写数字通不过。

# %% tags=["solution", "grade_id:nb03-tensor-bytes"]
def tensor_bytes(desc, index):
    """Bytes of output `index`: product of its dims x bytes per element."""
    ### BEGIN SOLUTION
    ITEMSIZE = {0: 4, 1: 2, 2: 1, 3: 4, 4: 1, 9: 8}   # aclDataType -> bytes per element
    dims, ret = acl.mdl.get_output_dims(desc, index)
    check_ret("acl.mdl.get_output_dims", ret)
    count = 1
    for n in dims["dims"]:
        count *= n
    return count * ITEMSIZE[acl.mdl.get_output_data_type(desc, index)]
    ### END SOLUTION

# %% tags=["grade", "points:2", "grade_id:nb03-tensor-bytes-test"]
feedback = lab.check_buffer_size(tensor_bytes, desc, "output")
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Release
# Each desc is destroyed with [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md) (two here: yours and the step API's), the
# model with [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html), then the Context and Device
# ([`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html), [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html))
# and, once when the kernel exits, [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html). A desc is only a description: destroying it does not unload the model,
# and unloading does not destroy it.

# %% [markdown] tags=["lang:zh"]
# ## 释放
# 每个模型描述用 [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md) 销毁（这里有两个：你的和分步 API 的），模型用 [`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md) 卸载，
# 然后是 Context 和 Device（[`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、[`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)），
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) 在内核退出时执行一次。模型描述只是一份描述：销毁它不会卸载模型，卸载模型也不会销毁它。

# %%
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(desc))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(d.model_desc))
check_ret("acl.mdl.unload", acl.mdl.unload(model_id))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))

# %% [markdown] tags=["lang:en"]
# ## Summary
# * `create_desc` + `get_desc(desc, model_id)` describe a loaded model; getters return values directly, dims
#   come as `(dict, ret)`.
# * Size = product of dims × bytes per element (fp16 2, fp32 4); for dynamic models, of the largest gear.
# * `get_cur_output_dims` is the output shape at the gear currently set (after an execute: that result's); `get_input_dims_v2` matters only with static AIPP.
# * Look inputs up by name when a model has several; destroy each desc yourself.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * `create_desc` + `get_desc(desc, model_id)` 描述一个已加载的模型；查询接口直接返回值，维度以 `(dict, ret)` 返回。
# * 大小 = 各维度之积 × 每个元素的字节数（fp16 为 2，fp32 为 4）；动态模型按最大档位计算。
# * `get_cur_output_dims` 是当前所设档位下的输出形状（推理之后读取：即这次结果的形状）；`get_input_dims_v2` 只在有静态 AIPP 时才有区别。
# * 模型有多个输入时按名称查找；每个模型描述都要自己销毁。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. An input is fp16 with dims `[1, 3, 224, 224]`. How many bytes, and which getter confirms it?
# 2. What does `acl.mdl.get_input_index_by_name(desc, "nope")` return, and what shape is that?
# 3. After `get_desc` fails, what does `get_num_inputs(desc)` tell you, and why must you check the `ret` of
#    `get_desc` rather than rely on it?
# 4. When do `get_output_dims` and `get_cur_output_dims` disagree?
#
# **Next →** [04_buffers_and_datasets](04_buffers_and_datasets.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 某输入为 fp16，维度 `[1, 3, 224, 224]`。它有多少字节？哪个查询接口可以确认？
# 2. `acl.mdl.get_input_index_by_name(desc, "nope")` 返回什么？是什么形状？
# 3. `get_desc` 失败后，`get_num_inputs(desc)` 会告诉你什么？为什么必须检查 `get_desc` 的 `ret`，而不能依赖它？
# 4. `get_output_dims` 与 `get_cur_output_dims` 什么时候会不一致？
#
# **下一节 →** [04_buffers_and_datasets](04_buffers_and_datasets.ipynb)

# %%
print(lab.ledger_summary())
