# %% [markdown] tags=["lang:en"]
# # 06 · Synchronous execute (同步推理) and reading error codes
# **Why.** Everything so far prepares one call. The guide's step 4: "execute the model — synchronous inference
# calls `acl.mdl.execute`, asynchronous calls `acl.mdl.execute_async`" ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)).
# *Synchronous* is seen from the caller: the call returns when the inference is finished and the outputs are in
# their buffers ([CANN 文档速递 09](https://www.hiascend.com/developer/techArticles/20220527-4)). For a model with a fixed batch, you must also have a full
# batch before you call it. And when something does not fit, execute answers with a number — so this is where
# reading codes, and checking every `ret`, pays off. Models with several inputs add one more trap: the order of
# the buffers.
#
# **You will be able to:** run `acl.mdl.execute`, read the codes it returns when the datasets do not fit and
# classify any code by its digits, keep the `check_ret` habit, and execute a model with two inputs whose
# dataset you order by `get_input_name_by_index`.

# %% [markdown] tags=["lang:zh"]
# # 06 · 同步推理，以及读懂错误码
# **为什么。** 前面所有准备都是为了一个调用。指南的第 4 步：“执行模型推理——同步推理时调用 `acl.mdl.execute`，异步推理时调用
# `acl.mdl.execute_async`”（[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。*同步*是站在调用者的角度说的：推理完成、输出已经放进缓冲之后调用才返回
# （[CANN 文档速递 09 期](https://www.hiascend.com/developer/techArticles/20220527-4)）。对于固定多 Batch 的模型，还必须凑满 Batch 数才能调用。一旦有什么对不上，推理接口会回给你一个
# 数字——这时读懂错误码、检查每个 `ret` 的习惯就派上用场了。有多个输入的模型还多一个陷阱：缓冲的顺序。
#
# **学完本节你将能够：** 调用 `acl.mdl.execute`，读懂数据集对不上时它返回的错误码，并按数字分类任何错误码，保持 `check_ret` 的习惯，
# 并执行一个双输入模型，其数据集按 `get_input_name_by_index` 的顺序构造。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# The preparation of notebooks 01–05, done by the step API: resources, the default model, its desc, the two
# datasets, and the espresso photo copied into the input buffer. `timed` notes how long each step takes; the
# chart at the end of the notebook draws them.

# %% [markdown] tags=["lang:zh"]
# 第 01–05 节的准备工作由分步 API 完成：运行管理资源、默认模型、模型描述、两个数据集，以及已复制到输入缓冲中的浓缩咖啡照片。`timed` 记录每一步的耗时，
# notebook 末尾的图表把它们画出来。

# %%
import time
took = {}                                   # milliseconds per step, drawn at the end of the notebook

def timed(step, run, *args):
    """Run one step and note how long it took."""
    start = time.perf_counter()
    result = run(*args)
    took[step] = 1000 * (time.perf_counter() - start)
    return result

import atexit
if not timed("init", at.init).already_initialised:   # once per kernel; Run All again: 100002, reported
    atexit.register(at.finalize)                      # the one acl.finalize, when the kernel exits
res = timed("resources", at.request_resources, 0)
model = timed("load", at.load_model, at.models.default_om())
d = timed("desc", at.query_desc, model)
inputs, outputs = timed("datasets", lambda: (at.build_dataset(d, "input"), at.build_dataset(d, "output")))
x = timed("preprocess", at.preprocess, at.models.image("coffee.png"))
_ = timed("copy", at.copy_to_device, x, inputs, 0, res, d)

# %% [markdown] tags=["lang:en"]
# ## `acl.mdl.execute`
# [`acl.mdl.execute`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0154.html)`(model_id, input_dataset, output_dataset)` returns a bare `ret`; 0
# means the outputs are in their device buffers now. Notebook 07 copies them back; here the step API reads the
# top class to show that something happened.

# %% [markdown] tags=["lang:zh"]
# ## `acl.mdl.execute`
# [`acl.mdl.execute`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0145.html)`(model_id, input_dataset, output_dataset)` 只返回 `ret`；0 表示此刻输出已经在各自的 Device
# 缓冲中。第 07 节把它们复制回来；这里先用分步 API 读出最可能的类别，证明确实算了点什么。

# %%
ret = acl.mdl.execute(model.model_id, inputs.dataset, outputs.dataset)
check_ret("acl.mdl.execute", ret)
print("execute ->", ret, "| top class:", int(at.unpack_outputs(d, outputs, res).arrays[0].argmax()))

# %% [markdown] tags=["lang:en"]
# ## What execute checks
# One buffer per input and per output, each at least the size the desc gives, and a loaded model. The cell
# breaks each rule once, building small datasets with [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md),
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) and
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html), then releases them
# ([`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md), [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html),
# [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)). [`acl.get_recent_err_msg`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/exception/function-get_recent_err_msg.md) gives the runtime's text
# for the last failure.
#
# *simulator:* the codes here are the simulator's choice. AscendCL defines 100017 ACL_ERROR_MODEL_INPUT_NOT_MATCH
# (and 100018 for outputs) and the graph engine 145006 for a wrong data size and 145003 for an invalid model
# id, but no public source confirms which one real pyACL returns in each case. On a board, rely on "non-zero",
# then read the logs or `get_recent_err_msg()`.

# %% [markdown] tags=["lang:zh"]
# ## 推理接口检查什么
# 每个输入、每个输出各一个缓冲，每个缓冲不小于模型描述给出的大小，以及模型已加载。下面的单元格逐条违反这些规则：用
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md)、[`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)、[`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html) 和
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html) 构造小数据集，最后释放它们（[`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)、
# [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)、[`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)）。[`acl.get_recent_err_msg`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/exception/function-get_recent_err_msg.md) 返回运行时对上一次失败的描述。
#
# *模拟器：* 这里的错误码是模拟器的选择。AscendCL 定义了 100017 ACL_ERROR_MODEL_INPUT_NOT_MATCH（输出对应 100018），图引擎定义了
# 数据大小错误的 145006 和模型 ID 无效的 145003，但没有公开资料能确认真实 pyACL 在每种情形下返回哪一个。在开发板上请只依赖
# “非 0”，再去看日志或 `get_recent_err_msg()`。

# %%
one_too_few = acl.mdl.create_dataset()
print(acl.mdl.execute(model.model_id, one_too_few, outputs.dataset), "<- empty input dataset")
print("  ", acl.get_recent_err_msg().split(":")[0])
small = acl.mdl.create_dataset()
ptr, ret = acl.rt.malloc(1000, 0)
check_ret("acl.rt.malloc", ret)
buf = acl.create_data_buffer(ptr, 1000)
_, ret = acl.mdl.add_dataset_buffer(small, buf)
check_ret("acl.mdl.add_dataset_buffer", ret)
print(acl.mdl.execute(model.model_id, small, outputs.dataset), "<- input buffer too small")
print(acl.mdl.execute(99, inputs.dataset, outputs.dataset), "<- no such model")
check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buf))
check_ret("acl.rt.free", acl.rt.free(ptr))
check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(small))
check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(one_too_few))

# %% [markdown] tags=["lang:en"]
# ## Reading any code
# A code's first digit is its class ([aclError classes](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/API/appdevgapi/aclcppdevg_03_1345.html)): 1xxxxx your call or environment — fix the
# code; 2xxxxx resources — memory, device, an unsupported feature; 3xxxxx a service failed (a queue full or empty, for example); 5xxxxx internal —
# collect the logs (`$HOME/ascend/log`) and report. The next digits name the component: 100xxx AscendCL, 107xxx /
# 207xxx / 507xxx the runtime, 145xxx / 245xxx / 545xxx the graph engine. `acl-teach explain CODE` and the widget
# below give the meaning, usual cause and fix; type another code into it.
#
# `lab.check_ret` raises `at.AclError`, which carries the call, the code and its meaning in English and Chinese —
# the samples' `check_ret` habit with the explanation attached. Catch it where you can recover, let it stop the
# program where you cannot.

# %% [markdown] tags=["lang:zh"]
# ## 读懂任意错误码
# 错误码的第一位是类别（[aclError 错误码分类](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/API/appdevgapi/aclcppdevg_03_1345.html)）：1xxxxx 是调用方或环境的问题——改代码；2xxxxx 是资源问题——内存、设备、
# 不支持的特性；3xxxxx 是业务功能异常（例如队列满、队列空）；5xxxxx 是内部错误——收集日志（`$HOME/ascend/log`）并反馈。接下来几位表示组件：100xxx 是 AscendCL，
# 107xxx / 207xxx / 507xxx 是运行时，145xxx / 245xxx / 545xxx 是图引擎。`acl-teach explain CODE` 和下面的控件给出错误码的含义、常见原因和
# 解决方法；可以在控件里输入别的错误码试试。
#
# `lab.check_ret` 抛出 `at.AclError`，其中带有调用名、错误码及其中英文含义——也就是样例的 `check_ret` 习惯再加上解释。能恢复的地方捕获它，
# 不能恢复的地方就让它终止程序。

# %%
from acl_teach.widgets import ErrorExplainer
ErrorExplainer(100017)

# %%
try:
    check_ret("acl.mdl.execute", acl.mdl.execute(99, inputs.dataset, outputs.dataset))
except at.AclError as err:
    print("caught:", err.api, err.code, err.name, "| class", err.code // 100000)

# %% [markdown] tags=["lang:en"]
# ## A model with two inputs: order the buffers by name
# The guide's advice for several inputs: "to avoid getting the order wrong, first get the input and output
# names with [`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html) and
# [`acl.mdl.get_output_name_by_index`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0214.html), then add them in the order of the
# index that belongs to each name". The next cell builds a tiny ONNX model with inputs `image` and `mask`
# (outputs: their sum and their product) and converts it with `at.models.convert` — the emulator here, CANN's
# `atc` on a board. The data arrives keyed by name in the *wrong* order; the loop asks the desc which name is
# index *i*. It uses [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html), [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md),
# [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md), [`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html),
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md), [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0207.html),
# [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md), [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) and
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html).

# %% [markdown] tags=["lang:zh"]
# ## 双输入模型：按名称排列缓冲
# 指南对多输入的建议：“为避免顺序出错，可以先调用 [`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html)、
# [`acl.mdl.get_output_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0205.html) 接口获取输入、输出的名称，根据输入、输出名称所对应的 index 的
# 顺序添加”。下一个单元格构造一个很小的 ONNX 模型，输入为 `image` 和 `mask`（输出为两者之和与之积），用 `at.models.convert` 转换——
# 这里用模拟工具，开发板上用 CANN 的 `atc`。数据按名称给出，而且顺序是*错*的；循环向模型描述询问第 *i* 个输入叫什么。用到的接口有
# [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md)、[`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md)、[`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)、
# [`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md)、[`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md)、[`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0198.html)、
# [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)、[`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) 和 [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)。

# %%
import onnx, os, tempfile
from onnx import TensorProto, helper
workdir = tempfile.TemporaryDirectory()   # removed when the kernel stops
tmp = workdir.name
ins = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4]) for n in ("image", "mask")]
outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4]) for n in ("sum", "masked")]
graph = helper.make_graph([helper.make_node("Add", ["image", "mask"], ["sum"], name="add"),
                           helper.make_node("Mul", ["image", "mask"], ["masked"], name="mul")], "two", ins, outs)
onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]); onnx_model.ir_version = 8
onnx.save(onnx_model, os.path.join(tmp, "two_inputs.onnx"))
two_om = at.models.convert(os.path.join(tmp, "two_inputs.onnx"), [], "two_inputs")   # ATC for this backend

two_id, ret = acl.mdl.load_from_file(two_om)
check_ret("acl.mdl.load_from_file", ret)
two_desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(two_desc, two_id))
arrays = {"mask": np.array([[1, 0, 1, 0]], np.float32), "image": np.array([[1, 2, 3, 4]], np.float32)}

def dataset_by_index(count, name_of, size_of, data_for):
    dataset, ptrs = acl.mdl.create_dataset(), []
    for i in range(count):
        name, size = name_of(two_desc, i), size_of(two_desc, i)
        ptr, ret = acl.rt.malloc(size, 0)
        check_ret("acl.rt.malloc", ret)
        if data_for is not None:
            data = data_for[name].tobytes()          # the array that belongs to this index's name
            check_ret("acl.rt.memcpy", acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(data), len(data), 1))
        _, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size))
        check_ret("acl.mdl.add_dataset_buffer", ret)
        ptrs.append((name, ptr, size))
    return dataset, ptrs

two_in, in_ptrs = dataset_by_index(acl.mdl.get_num_inputs(two_desc), acl.mdl.get_input_name_by_index,
                                   acl.mdl.get_input_size_by_index, arrays)
two_out, out_ptrs = dataset_by_index(acl.mdl.get_num_outputs(two_desc), acl.mdl.get_output_name_by_index,
                                     acl.mdl.get_output_size_by_index, None)
print("inputs in index order:", [name for name, _, _ in in_ptrs])
check_ret("acl.mdl.execute", acl.mdl.execute(two_id, two_in, two_out))

# %% [markdown] tags=["lang:en"]
# Read both outputs back (notebook 07 explains these calls: [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html),
# [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html), [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)) and release the
# model's resources — the buffers found through [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md) and
# [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md), the datasets, the memory, then [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html)
# and [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md). `image + mask` and `image × mask` come out right only because each
# buffer sits at its name's index.

# %% [markdown] tags=["lang:zh"]
# 把两个输出读回来（第 07 节讲解这些接口：[`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html)、[`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html)、
# [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)），再释放这个模型的资源——通过 [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md) 和
# [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md) 找到的缓冲、数据集、内存，然后 [`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md) 和
# [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)。`image + mask` 和 `image × mask` 之所以正确，只是因为每个缓冲都放在了其名称对应的索引上。

# %%
for name, ptr, size in out_ptrs:
    host, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, ptr, size, 2))
    print(name, np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32))
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
for dataset, ptrs in ((two_in, in_ptrs), (two_out, out_ptrs)):
    for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i)))
    check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
    for _, ptr, _ in ptrs:
        check_ret("acl.rt.free", acl.rt.free(ptr))
check_ret("acl.mdl.unload", acl.mdl.unload(two_id))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(two_desc))

# %% [markdown] tags=["lang:en"]
# ## How long does it take?
# Timings vary from machine to machine (nbval does not compare this cell's output). On the simulator the time is
# ONNX Runtime on your CPU; on a board it is the NPU.

# %% [markdown] tags=["lang:zh"]
# ## 需要多长时间？
# 耗时因机器而异（nbval 不比较这个单元格的输出）。在模拟器上，这是 ONNX Runtime 在你的 CPU 上的耗时；在开发板上则是 NPU 的耗时。

# %% tags=["nbval-ignore-output"]
run = at.execute(model, inputs, outputs)
took["execute"] = run.elapsed_ms
_ = timed("copy back", at.unpack_outputs, d, outputs, res)
print(f"execute took {run.elapsed_ms:.1f} ms")

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points)
# So far the step API built the output dataset for you. Write `run_model(model_id, desc, input_dataset)` that
# builds it **itself** and runs the model: for each output the desc reports (`acl.mdl.get_num_outputs`), a device
# buffer of `acl.mdl.get_output_size_by_index` bytes (`acl.rt.malloc`), wrapped with `acl.create_data_buffer` and
# added to a dataset from `acl.mdl.create_dataset` (`acl.mdl.add_dataset_buffer`); then one synchronous
# `acl.mdl.execute` into it, its `ret` checked; return the output dataset handle. The checker runs the same inputs
# through its own execute and compares every output byte for byte; it accepts only a dataset your function
# created, in buffers your function allocated — the notebook's `outputs`, or its buffers, do not pass — and then
# releases what you returned.

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）
# 到目前为止，输出数据集都是分步 API 替你构造的。编写 `run_model(model_id, desc, input_dataset)`，**自己**构造它并运行模型：对 desc 报告的每个
# 输出（`acl.mdl.get_num_outputs`），申请 `acl.mdl.get_output_size_by_index` 字节的 Device 缓冲（`acl.rt.malloc`），用 `acl.create_data_buffer`
# 包装，加入由 `acl.mdl.create_dataset` 创建的数据集（`acl.mdl.add_dataset_buffer`）；然后同步执行一次 `acl.mdl.execute`，检查它的 `ret`；
# 返回输出数据集句柄。检查器用自己的推理处理同样的输入，逐字节比较每个输出；它只接受你的函数新建的数据集、你的函数申请的缓冲——notebook 里的
# `outputs` 或它的缓冲都通不过——之后由检查器释放你返回的东西。

# %% tags=["solution", "grade_id:nb06-execute"]
def run_model(model_id, desc, input_dataset):
    """An output dataset built from the desc, one synchronous execute into it; returns the dataset."""
    ### BEGIN SOLUTION
    outputs = acl.mdl.create_dataset()
    for i in range(acl.mdl.get_num_outputs(desc)):
        size = acl.mdl.get_output_size_by_index(desc, i)
        ptr, ret = acl.rt.malloc(size, 0)
        check_ret("acl.rt.malloc", ret)
        _, ret = acl.mdl.add_dataset_buffer(outputs, acl.create_data_buffer(ptr, size))
        check_ret("acl.mdl.add_dataset_buffer", ret)
    check_ret("acl.mdl.execute", acl.mdl.execute(model_id, input_dataset, outputs))
    return outputs
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb06-execute-test"]
feedback = lab.check_run_model(run_model, model.model_id, d.model_desc, inputs.dataset)
print(feedback)
assert feedback, feedback

# %%
timed("release", lambda: (at.release_dataset(inputs), at.release_dataset(outputs), at.unload_model(model, d),
                           at.release_resources(res)))
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Where the time went
# Each step of this notebook's main flow, as `timed` measured it (a log axis, so the short steps stay visible;
# the picture is not compared by the tests, since times differ on every run). On the simulator, loading and
# executing are ONNX Runtime on your CPU, and the copies are numpy copies; on a board the same cells measure the
# NPU and its runtime. Whatever the machine, the one-off steps (init, resources, load) are paid once per process,
# while preprocess, copy, execute and copy back are paid for every image: that is the part worth making fast.

# %% [markdown] tags=["lang:zh"]
# ## 时间都花在哪里
# 本 notebook 主流程的每一步，由 `timed` 测得（对数坐标，短的步骤也看得见；每次运行的耗时都不同，所以测试不比较这张图）。
# 在模拟器上，加载和推理是在你的 CPU 上运行的 ONNX Runtime，内存复制是 numpy 复制；在开发板上，同样的单元格测到的是 NPU 及其运行时。
# 无论在哪台机器上，一次性的步骤（初始化、运行资源、加载模型）每个进程只付出一次，而预处理、内存复制、推理和拷回是每张图片都要付出的：
# 值得优化的是这一部分。

# %%
from acl_teach.widgets import plots
plots.step_times(took)

# %% [markdown] tags=["lang:en"]
# ## Summary
# * `acl.mdl.execute(model_id, inputs, outputs)` returns when the outputs are written; check its `ret`.
# * It needs one big-enough buffer per input and per output, in index order, and a loaded model; the exact code
#   for each violation is not documented publicly (the simulator's are labelled).
# * The first digit of a code is its class (1 your call, 2 resources, 3 a service failed, 5 internal), the next digits the
#   component. `check_ret` turns a silent failure into an error that says what happened.
# * With several inputs, add buffers in the order `get_input_name_by_index` gives.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * `acl.mdl.execute(model_id, inputs, outputs)` 在输出写好之后返回；要检查它的 `ret`。
# * 它要求每个输入、每个输出各有一个足够大的缓冲，按索引顺序排列，并且模型已加载；每种违规对应的确切错误码没有公开记载
#   （模拟器的选择已标注）。
# * 错误码第一位是类别（1 调用方，2 资源，3 业务功能异常，5 内部），接下来几位表示组件。`check_ret` 把悄无声息的失败变成能说明情况的异常。
# * 有多个输入时，按 `get_input_name_by_index` 给出的顺序添加缓冲。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. `acl.mdl.execute` returned 0. Where are the results now, and what must happen before Python can print them?
# 2. Classify 107000, 207001 and 507011 by their digits: whose problem is each?
# 3. A model has inputs `image` and `mask`. Which call tells you which of them is index 0?
# 4. Why does this notebook say "expect non-zero" rather than quoting the simulator's code for a too-small buffer?
#
# **Next →** [07_results_top5](07_results_top5.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. `acl.mdl.execute` 返回了 0。结果此刻在哪里？Python 要打印它们之前还必须做什么？
# 2. 按数字给 107000、207001 和 507011 分类：分别是谁的问题？
# 3. 某模型的输入是 `image` 和 `mask`。哪个调用告诉你哪一个是索引 0？
# 4. 对于缓冲太小的情形，为什么本节说“预期非 0”，而不是引用模拟器的错误码？
#
# **下一节 →** [07_results_top5](07_results_top5.ipynb)
