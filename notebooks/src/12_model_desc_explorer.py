# %% [markdown] tags=["lang:en"]
# # 12 · The model desc explorer on several models
# **Why.** Real applications meet more than one model: one with a single fp16 input, one with batch gears, one with
# two inputs, one downloaded from elsewhere with fp32 input and logits out. Code that hard-codes "input 0 is
# 301,056 bytes of fp16" breaks on each of them. The advice from the field is to query the model through the API
# and let the code follow — the learner's own notes include a `PrintModelDesc` helper that prints every
# `acl.mdl.get_*` for whatever model is loaded. Comparing models side by side is the quickest way to see which
# values change and which rules stay ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)).
#
# **You will be able to:** read any model's desc with a generic helper, compare the default, dynamic-batch and
# two-input models (and ResNet-50 if you fetched it), explore them in the `DescExplorer` and `DimsView` widgets,
# and answer questions about a model from its desc alone.

# %% [markdown] tags=["lang:zh"]
# # 12 · 在多个模型上使用模型描述浏览器
# **为什么。** 实际应用遇到的模型不止一个：有单个 fp16 输入的，有 Batch 档位的，有两个输入的，还有从别处下载的 fp32 输入、输出 logits 的。
# 把“输入 0 是 301,056 字节的 fp16”写死的代码，遇到其中任何一个都会出错。实践者的建议是通过 API 查询模型，让代码跟着模型走——那位学习者的笔记里
# 就有一个 `PrintModelDesc` 函数，对任何已加载的模型打印所有 `acl.mdl.get_*` 的值。把几个模型并排比较，是看清哪些值会变、哪些规则不变的最快方法
# （[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。
#
# **学完本节你将能够：** 用一个通用函数读取任何模型的描述，比较默认模型、动态 Batch 模型和双输入模型（如果下载了，还有 ResNet-50），在
# `DescExplorer` 和 `DimsView` 控件中浏览它们，并仅凭模型描述回答关于模型的问题。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# ## Three (or four) models
# The two-input model is built in the cell with `onnx.helper` (inputs `image` and `mask`, outputs their sum and
# product) and converted by `at.models.convert` with `--input_fp16_nodes=mask`, so its two inputs differ in data
# type. If `acl-teach fetch resnet50` has run, the quick-start ResNet-50 joins: fp32 input `actual_input_1` of
# 602,112 bytes, 1000 logits out.

# %% [markdown] tags=["lang:zh"]
# ## 三个（或四个）模型
# 双输入模型在单元格中用 `onnx.helper` 构造（输入 `image` 和 `mask`，输出两者之和与之积），由 `at.models.convert` 以 `--input_fp16_nodes=mask`
# 转换，因此两个输入的数据类型不同。如果执行过 `acl-teach fetch resnet50`，快速入门样例的 ResNet-50 也会加入：fp32 输入 `actual_input_1`，602,112
# 字节，输出 1000 个 logits。

# %%
import onnx, os, tempfile
from onnx import TensorProto, helper
workdir = tempfile.TemporaryDirectory()   # removed when the kernel stops
tmp = workdir.name
a = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 8])
b = helper.make_tensor_value_info("mask", TensorProto.FLOAT, [1, 8])
outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 8]) for n in ("sum", "product")]
g = helper.make_graph([helper.make_node("Add", ["image", "mask"], ["sum"], name="add"),
                       helper.make_node("Mul", ["image", "mask"], ["product"], name="mul")], "two", [a, b], outs)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]); m.ir_version = 8
onnx.save(m, os.path.join(tmp, "two.onnx"))
two_om = at.models.convert(f"{tmp}/two.onnx", ["--input_fp16_nodes=mask"], "two")  # ATC for this backend
models = {"default": at.models.default_om(), "dynamic batch": at.models.dynamic_batch_om(), "two inputs": two_om}
if at.models.fetched_resnet50():
    models["resnet50"] = at.models.best_om()
print(list(models))

# %% [markdown] tags=["lang:en"]
# ## A generic `print_model_desc`
# In the spirit of the learner's `PrintModelDesc`: one function for any loaded model, built only from getters —
# [`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html), [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0207.html),
# [`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html), [`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html),
# [`acl.mdl.get_input_data_type`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0217.html), [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md),
# [`acl.mdl.get_output_name_by_index`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0214.html), [`acl.mdl.get_output_dims`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0212.html),
# [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md), and the gears from [`acl.mdl.get_dynamic_batch`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/81RC1alpha002/apiref/appdevgapi/aclpythondevg_01_0212.html).
# The models are loaded by the step API; the function takes their desc handles.

# %% [markdown] tags=["lang:zh"]
# ## 通用的 `print_model_desc`
# 仿照那位学习者的 `PrintModelDesc`：一个适用于任何已加载模型的函数，只用查询类接口——[`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md)、
# [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0198.html)、[`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html)、
# [`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html)、[`acl.mdl.get_input_data_type`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_data_type.md)、
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md)、[`acl.mdl.get_output_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0205.html)、
# [`acl.mdl.get_output_dims`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_output_dims.md)、[`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)，以及用
# [`acl.mdl.get_dynamic_batch`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/81RC1alpha002/apiref/appdevgapi/aclpythondevg_01_0212.html) 查询档位。模型由分步 API 加载，函数接收它们的模型描述句柄。

# %%
import atexit
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
loaded = {name: at.load_model(path) for name, path in models.items()}
descs = {name: at.query_desc(m) for name, m in loaded.items()}

def print_model_desc(desc):
    for i in range(acl.mdl.get_num_inputs(desc)):
        dims, ret = acl.mdl.get_input_dims(desc, i)
        check_ret("acl.mdl.get_input_dims", ret)
        print(f"  in  {i}: {acl.mdl.get_input_name_by_index(desc, i):26s} {str(dims['dims']):18s} "
              f"type {acl.mdl.get_input_data_type(desc, i)}  {acl.mdl.get_input_size_by_index(desc, i)} bytes")
    for i in range(acl.mdl.get_num_outputs(desc)):
        dims, ret = acl.mdl.get_output_dims(desc, i)
        check_ret("acl.mdl.get_output_dims", ret)
        print(f"  out {i}: {acl.mdl.get_output_name_by_index(desc, i):26s} {str(dims['dims']):18s} "
              f"{acl.mdl.get_output_size_by_index(desc, i)} bytes")
    gears, ret = acl.mdl.get_dynamic_batch(desc)
    check_ret("acl.mdl.get_dynamic_batch", ret)
    if gears.get("batchCount"):
        print("  batch gears:", gears["batch"])

for name, d in descs.items():
    print(f"== {name}")
    print_model_desc(d.model_desc)

# %% [markdown] tags=["lang:en"]
# ## Exploring them
# `DescExplorer` takes one `Desc` or a dict of them: pick a model, then an input or output, and it shows each value
# with the call that produced it. Below it opens on input 1 of the two-input model — fp16 because of
# `--input_fp16_nodes=mask`, so 16 bytes where input 0 has 32. `DimsView` draws the dims of the dynamic-batch model,
# `-1` where the gear goes.

# %% [markdown] tags=["lang:zh"]
# ## 浏览它们
# `DescExplorer` 接收一个 `Desc` 或它们组成的字典：先选模型，再选输入或输出，它会显示每个值以及产生该值的接口。下面它打开双输入模型的输入 1——
# 由于 `--input_fp16_nodes=mask`，它是 fp16，所以是 16 字节，而输入 0 是 32 字节。`DimsView` 画出动态 Batch 模型的维度，档位所在处为 `-1`。

# %%
from acl_teach.widgets import DescExplorer, DimsView
explorer = DescExplorer(descs)          # every loaded model: pick a model, then an input or output
explorer.model.value = "two inputs"
explorer.choice.value = ("input", 1)
explorer

# %%
DimsView(descs["dynamic batch"])

# %% [markdown] tags=["lang:en"]
# ## What changes and what stays
# Names, counts, data types, dims and sizes change from model to model; the rules do not: size = product of dims ×
# bytes per element (largest gear for dynamic models), one buffer per input in index order, the hidden
# `ascend_mbatch_shape_data` input for gears, output names *operator:edge index:output name* for ONNX models
# converted without naming output nodes ([`get_output_name_by_index`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0214.html)). Code written against the
# rules — like `print_model_desc`, or the step API's `build_dataset` — works for all four.

# %% [markdown] tags=["lang:zh"]
# ## 哪些会变，哪些不变
# 名称、个数、数据类型、维度和大小随模型而变；规则不变：大小 = 各维度之积 × 每个元素的字节数（动态模型按最大档位），每个输入一个缓冲并按索引
# 顺序排列，有档位时多出隐藏输入 `ascend_mbatch_shape_data`，未指定输出节点而转换的 ONNX 模型，输出名称为“输出算子名称:算子输出边下标:输出名称”
# （[aclmdlGetOutputNameByIndex](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclcppdevg_03_1457.html)）。按规则而不是按某个模型写出的代码——
# 比如 `print_model_desc`，或分步 API 的 `build_dataset`——对四个模型都适用。

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points): what must a program feed this model?
# Printing a desc is the first half; a program then has to *act* on it. Write `feed_spec(desc)` that returns, for
# every input **your program fills**, a dict `{"name", "dtype", "shape", "bytes"}`, in input order:
#
# * leave out the inputs the runtime fills — `ascend_mbatch_shape_data` (dynamic batch / image size / dims) and
#   `ascend_dynamic_aipp_data` (dynamic AIPP);
# * `dtype`: the numpy dtype of `acl.mdl.get_input_data_type` (aclDataType 0 = float32, 1 = float16, 2 = int8,
#   3 = int32, 4 = uint8);
# * `shape`: `acl.mdl.get_input_dims`, with each `-1` replaced by the **largest gear** — the largest batch of
#   `acl.mdl.get_dynamic_batch`, or the largest h × w of `acl.mdl.get_dynamic_hw(desc, -1)` — the shape the buffer
#   is sized for;
# * `bytes`: `acl.mdl.get_input_size_by_index`.
#
# The checker runs it on every model loaded above (a static fp16 model, the dynamic-batch one with its hidden input,
# the two-input model with an fp32 and an fp16 input), so one model's numbers do not pass, and it checks that the
# values came from the desc.
#
# The calls: [`acl.mdl.get_dynamic_hw`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0213.html).

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）：程序要给这个模型喂什么？
# 打印 desc 只是前一半；程序还得*据此行动*。编写 `feed_spec(desc)`，对**由你的程序填写**的每个输入，按输入顺序返回一个字典
# `{"name", "dtype", "shape", "bytes"}`：
#
# * 去掉由运行时填写的输入——`ascend_mbatch_shape_data`（动态 Batch / 分辨率 / 维度）和 `ascend_dynamic_aipp_data`（动态 AIPP）；
# * `dtype`：`acl.mdl.get_input_data_type` 对应的 numpy 数据类型（aclDataType 0 = float32，1 = float16，2 = int8，3 = int32，4 = uint8）；
# * `shape`：`acl.mdl.get_input_dims`，其中每个 `-1` 换成**最大档位**——`acl.mdl.get_dynamic_batch` 的最大 Batch，或
#   `acl.mdl.get_dynamic_hw(desc, -1)` 中 h × w 最大的一档——也就是缓冲按其分配的形状；
# * `bytes`：`acl.mdl.get_input_size_by_index`。
#
# 检查器会在上面加载的每个模型上运行它（一个静态 fp16 模型、带隐藏输入的动态 Batch 模型、一个输入为 fp32 另一个为 fp16 的双输入模型），
# 所以只对一个模型写对数字是通不过的，它还会检查这些值是否来自 desc。
#
# 用到的调用：[`acl.mdl.get_dynamic_hw`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0213.html)。

# %% tags=["solution", "grade_id:nb12-describe"]
def feed_spec(desc):
    """Name, numpy dtype, largest-gear shape and bytes of each input the program fills, asked from the desc."""
    ### BEGIN SOLUTION
    numpy_of = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.int32, 4: np.uint8}
    batch, ret = acl.mdl.get_dynamic_batch(desc)
    check_ret("acl.mdl.get_dynamic_batch", ret)
    hw, ret = acl.mdl.get_dynamic_hw(desc, -1)
    check_ret("acl.mdl.get_dynamic_hw", ret)
    spec = []
    for i in range(acl.mdl.get_num_inputs(desc)):
        name = acl.mdl.get_input_name_by_index(desc, i)
        if name in ("ascend_mbatch_shape_data", "ascend_dynamic_aipp_data"):
            continue
        dims, ret = acl.mdl.get_input_dims(desc, i)
        check_ret("acl.mdl.get_input_dims", ret)
        shape = list(dims["dims"])
        if batch["batchCount"] and shape[0] == -1:
            shape[0] = max(batch["batch"])
        if hw["hwCount"] and shape[2:] == [-1, -1]:
            shape[2:] = max(hw["hw"], key=lambda g: g[0] * g[1])
        spec.append({"name": name, "dtype": numpy_of[acl.mdl.get_input_data_type(desc, i)], "shape": shape,
                     "bytes": acl.mdl.get_input_size_by_index(desc, i)})
    return spec
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb12-describe-test"]
feedback = lab.check_feed_spec(feed_spec, list(descs.values()))
print(feedback)
assert feedback, feedback
for name, d in descs.items():
    print(name, [(s["name"], np.dtype(s["dtype"]).name, s["shape"], s["bytes"]) for s in feed_spec(d.model_desc)])

# %%
for name in loaded:
    at.unload_model(loaded[name], descs[name])
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Summary
# * Query, don't hard-code: a handful of getters describe any model, and code built on them follows the model.
# * The dynamic-batch model shows `-1`, the largest gear's sizes and the extra `ascend_mbatch_shape_data` input;
#   `--input_fp16_nodes` changes one input's data type and size; a fetched ResNet-50 takes fp32 and gives logits.
# * `DescExplorer` labels each value with the pyACL call that produced it.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 查询，而不是写死：几个查询接口就能描述任何模型，基于它们写的代码会跟着模型走。
# * 动态 Batch 模型显示 `-1`、最大档位的大小和多出来的 `ascend_mbatch_shape_data` 输入；`--input_fp16_nodes` 会改变某个输入的数据类型和大小；
#   下载的 ResNet-50 输入 fp32、输出 logits。
# * `DescExplorer` 为每个值标明产生它的 pyACL 调用。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Input 0 of the two-input model is 32 bytes and input 1 is 16. Why?
# 2. How many inputs does the dynamic-batch model report, and what is the second one for?
# 3. Which getter would tell you that a downloaded model wants fp32 rather than fp16 input?
#
# **Next →** [13_capstone](13_capstone.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 双输入模型的输入 0 是 32 字节，输入 1 是 16 字节。为什么？
# 2. 动态 Batch 模型报告几个输入？第二个输入是做什么的？
# 3. 哪个查询接口能告诉你下载的模型需要 fp32 而不是 fp16 输入？
#
# **下一节 →** [13_capstone](13_capstone.ipynb)
