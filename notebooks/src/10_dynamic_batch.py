# %% [markdown] tags=["lang:en"]
# # 10 · Dynamic batch and dynamic image size (动态 Batch 与动态分辨率)
# **Why.** An offline model has fixed shapes — "Ascend offline models cannot take fully dynamic input", as a
# learner found. When the number of images per call or the picture size varies, ATC can compile several
# **gears** (档位) into one OM: `--dynamic_batch_size` for batch sizes, `--dynamic_image_size` for height × width.
# The guide then asks two things of you: size the input buffers with `get_input_size_by_index`, which "returns the
# memory of the largest gear, so it is always enough", and *tell the model before each execute which gear to use*
# ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html); [dynamic batch and image size](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_0125.html)). A model with a fixed batch, by
# contrast, needs a full batch every time.
#
# **You will be able to:** read a model's gears, find the hidden `ascend_mbatch_shape_data` input, choose a batch
# gear and classify 1, 2, 4 or 8 photos in one execute, convert a model with image-size gears and run it at two
# resolutions, read the output shape of the gear just run, run an ND model with dynamic dims, and give one
# dynamic-AIPP model different picture formats at run time.

# %% [markdown] tags=["lang:zh"]
# # 10 · 动态 Batch 与动态分辨率
# **为什么。** 离线模型的形状是固定的——正如一位学习者发现的，“昇腾离线模型不能够完全动态的输入”。当每次推理的图片数或图片尺寸会变化时，
# ATC 可以把多个**档位**编译进同一个 OM：`--dynamic_batch_size` 指定 Batch 档位，`--dynamic_image_size` 指定高 × 宽档位。指南随后对你提出
# 两点要求：用 `get_input_size_by_index` 确定输入缓冲大小——它“获取的是最大档位的内存，确保内存够用”；并且*在每次推理前告诉模型本次用哪个档位*
# （[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)；[动态 Batch 与动态分辨率](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_0125.html)）。相比之下，固定 Batch 的模型每次都必须凑满 Batch。
#
# **学完本节你将能够：** 读取模型的档位，找到隐藏的输入 `ascend_mbatch_shape_data`，选择 Batch 档位，在一次推理中对 1、2、4 或 8 张照片分类；
# 转换一个带分辨率档位的模型并以两种分辨率运行它；读取刚运行的档位的输出形状；运行带动态维度的 ND 模型；并在运行时让同一个动态 AIPP
# 模型接收不同格式的图片。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# ## A model with batch gears
# `at.models.dynamic_batch_om()` is the default model converted with
# `--input_shape=data:-1,3,224,224 --dynamic_batch_size=1,2,4,8` (by the emulator here, by CANN's `atc` on a board).
# Its desc shows three things a static model does not: the batch dimension is `-1`, the sizes are those of the
# largest gear (8 images), and there is a **second input**, `ascend_mbatch_shape_data`, where the runtime keeps
# the chosen gear — you allocate a buffer for it like any input, but you never fill it yourself.

# %% [markdown] tags=["lang:zh"]
# ## 一个带 Batch 档位的模型
# `at.models.dynamic_batch_om()` 是用 `--input_shape=data:-1,3,224,224 --dynamic_batch_size=1,2,4,8` 转换的默认模型（这里由模拟工具转换，开发板上
# 由 CANN 的 `atc` 转换）。它的模型描述显示出静态模型没有的三点：Batch 维是 `-1`，大小按最大档位（8 张图片）计算，并且多了**第二个输入**
# `ascend_mbatch_shape_data`，运行时在其中保存所选档位——你要像对普通输入一样为它申请缓冲，但从不自己填写它。

# %%
om = at.models.dynamic_batch_om()
import atexit
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
model = at.load_model(om)
d = at.query_desc(model)
print(d.table())

# %% [markdown] tags=["lang:en"]
# ## Reading the gears, choosing one per execute
# [`acl.mdl.get_dynamic_batch`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/81RC1alpha002/apiref/appdevgapi/aclpythondevg_01_0212.html) returns `({'batchCount': n, 'batch': [...]}, ret)`.
# [`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html) shows the `-1`, and
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md) the largest gear's bytes. The gear goes in through
# [`acl.mdl.set_dynamic_batch_size`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0151.html)`(model_id, dataset, index, batch)`, where
# `index` is the hidden input's, found with [`acl.mdl.get_input_index_by_name`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0210.html);
# the dataset must already hold a buffer for it. Then [`acl.mdl.execute`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0154.html), and
# [`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html) gives the output shape *of that gear*. The input
# buffer stays the largest gear's size; for a smaller batch only the first `batch` images' bytes are copied and read.

# %% [markdown] tags=["lang:zh"]
# ## 读取档位，每次推理前选择一个
# [`acl.mdl.get_dynamic_batch`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/81RC1alpha002/apiref/appdevgapi/aclpythondevg_01_0212.html) 返回 `({'batchCount': n, 'batch': [...]}, ret)`。
# [`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html) 显示那个 `-1`，[`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md) 给出最大档位的字节数。
# 档位通过 [`acl.mdl.set_dynamic_batch_size`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0151.html)`(model_id, dataset, index, batch)` 设置，其中 `index` 是隐藏输入的
# 索引，用 [`acl.mdl.get_input_index_by_name`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0210.html) 查得；数据集中必须已经有它的缓冲。然后调用
# [`acl.mdl.execute`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0145.html)，再用 [`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html) 得到*该档位*的输出形状。输入缓冲
# 始终是最大档位的大小；Batch 较小时只复制并读取前 `batch` 张图片的字节。

# %%
gears, ret = acl.mdl.get_dynamic_batch(d.model_desc)
check_ret("acl.mdl.get_dynamic_batch", ret)
dims, ret = acl.mdl.get_input_dims(d.model_desc, 0)
check_ret("acl.mdl.get_input_dims", ret)
print("gears:", gears, "| input dims:", dims["dims"], "| input bytes:", acl.mdl.get_input_size_by_index(d.model_desc, 0))
index, ret = acl.mdl.get_input_index_by_name(d.model_desc, "ascend_mbatch_shape_data")
check_ret("acl.mdl.get_input_index_by_name", ret)
inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
photos = at.models.sample_images()
labels = at.models.labels()
for batch in gears["batch"]:
    x = np.concatenate([at.preprocess(photos[i % len(photos)]) for i in range(batch)])
    at.copy_to_device(x, inputs, 0, res, d)
    check_ret("acl.mdl.set_dynamic_batch_size",
              acl.mdl.set_dynamic_batch_size(model.model_id, inputs.dataset, index, batch))
    check_ret("acl.mdl.execute", acl.mdl.execute(model.model_id, inputs.dataset, outputs.dataset))
    cur, ret = acl.mdl.get_cur_output_dims(d.model_desc, 0)
    check_ret("acl.mdl.get_cur_output_dims", ret)
    out = at.unpack_outputs(d, outputs, res).arrays[0]
    print(batch, "->", cur["dims"], "top-1 per image:", out.argmax(axis=1).tolist())
print("the photos' classes:", {int(i): labels[i].split(",")[0] for i in out.argmax(axis=1)})

# %% [markdown] tags=["lang:en"]
# ## Images per second, gear by gear
# Why compile gears at all? On an NPU one execute on a batch of 8 usually costs less than 8 executes on one
# image each, so a program that has several images at hand gets more of them through per second. The next cell measures it:
# for each gear, three executes on the gear's batch, counted as images per second. The numbers differ from run
# to run and from machine to machine (the tests do not compare the picture). On the simulator the executes are
# ONNX Runtime on your CPU, which gains little or nothing from batching; on a board it is the NPU — measure there before
# choosing a gear.

# %% [markdown] tags=["lang:zh"]
# ## 各档位每秒处理多少张图片
# 为什么要编译档位？在 NPU 上，对 8 张图片的一批执行一次推理，通常比对单张图片执行 8 次推理花的时间少，所以手头同时有多张图片的程序每秒能处理更多图片。
# 下面的单元格测量这一点：对每个档位，用该档位的一批图片执行三次推理，折算成每秒图片数。每次运行、每台机器的数字都不同（测试不比较这张图）。
# 在模拟器上推理由你 CPU 上的 ONNX Runtime 执行，批处理几乎带不来提升；在开发板上则是 NPU——选择档位之前请在板上实测。

# %%
import time
per_second = {}
for batch in gears["batch"]:
    x = np.concatenate([at.preprocess(photos[i % len(photos)]) for i in range(batch)])
    at.copy_to_device(x, inputs, 0, res, d)
    check_ret("acl.mdl.set_dynamic_batch_size",
              acl.mdl.set_dynamic_batch_size(model.model_id, inputs.dataset, index, batch))
    start = time.perf_counter()
    for _ in range(3):
        check_ret("acl.mdl.execute", acl.mdl.execute(model.model_id, inputs.dataset, outputs.dataset))
    per_second[batch] = 3 * batch / (time.perf_counter() - start)
from acl_teach.widgets import plots
plots.throughput(per_second)

# %% [markdown] tags=["lang:en"]
# ## A batch that is not a gear
# Only the compiled gears exist. Three photos need the gear 4 (pad the fourth slot, ignore its result), or two
# calls. `at.set_batch` refuses a non-gear before calling pyACL; the raw call returns an error.
#
# *simulator:* `set_dynamic_batch_size` with batch 3 returns 145013 (ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID) — the
# graph engine's code for this case, but no public source confirms that pyACL passes exactly this code through;
# expect a non-zero `ret`.

# %% [markdown] tags=["lang:zh"]
# ## 不在档位中的 Batch
# 只有编译进去的档位才存在。三张照片要么用档位 4（填充第四个位置，忽略它的结果），要么分两次推理。`at.set_batch` 会在调用 pyACL 之前拒绝
# 非档位的 Batch；原始调用则返回错误码。
#
# *模拟器：* Batch 为 3 时 `set_dynamic_batch_size` 返回 145013（ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID）——这是图引擎针对这种情形的错误码，
# 但没有公开资料确认 pyACL 原样返回这个错误码；请预期一个非 0 的 `ret`。

# %%
print("gear 3 ->", acl.mdl.set_dynamic_batch_size(model.model_id, inputs.dataset, index, 3))
try:
    at.set_batch(model, d, inputs, 3)
except ValueError as e:
    print(e)
at.release_dataset(inputs); at.release_dataset(outputs)
_ = at.unload_model(model, d)

# %% [markdown] tags=["lang:en"]
# ## Dynamic image size (动态分辨率)
# The same mechanism for height and width. The next cell builds a tiny ONNX model — the mean of each colour
# channel (`GlobalAveragePool`), input `[1, 3, h, w]` — and converts it with
# `--input_shape=image:1,3,-1,-1 --dynamic_image_size=32,32;64,48`: two gears, 32 × 32 and 64 × 48.
# [`acl.mdl.get_dynamic_hw`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0213.html)`(desc, -1)` lists them as `{'hwCount', 'hw'}`; the input
# dims read `[1, 3, -1, -1]`; the input size is the 64 × 48 gear's; and again there is an
# `ascend_mbatch_shape_data` input. [`acl.mdl.set_dynamic_hw_size`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0152.html)`(model_id,
# dataset, index, height, width)` picks the gear before each execute. The raw calls: [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)
# through `at.query_desc`, then [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) of each picture with
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html).

# %% [markdown] tags=["lang:zh"]
# ## 动态分辨率
# 同样的机制也用于高和宽。下一个单元格构造一个很小的 ONNX 模型——求每个颜色通道的均值（`GlobalAveragePool`），输入 `[1, 3, h, w]`——并用
# `--input_shape=image:1,3,-1,-1 --dynamic_image_size=32,32;64,48` 转换：两个档位，32 × 32 和 64 × 48。
# [`acl.mdl.get_dynamic_hw`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0213.html)`(desc, -1)` 以 `{'hwCount', 'hw'}` 列出它们；输入维度为 `[1, 3, -1, -1]`；输入大小按 64 × 48
# 档位计算；同样多出一个 `ascend_mbatch_shape_data` 输入。[`acl.mdl.set_dynamic_hw_size`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0152.html)`(model_id, dataset,
# index, height, width)` 在每次推理前选择档位。原始调用：通过 `at.query_desc` 完成 [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)，然后用
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) 和 [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) 复制每张图片。

# %%
import onnx, os, tempfile
from onnx import TensorProto, helper
workdir = tempfile.TemporaryDirectory()   # removed when the kernel stops
tmp = workdir.name
x_info = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, "h", "w"])
y_info = helper.make_tensor_value_info("mean", TensorProto.FLOAT, [1, 3, 1, 1])
graph = helper.make_graph([helper.make_node("GlobalAveragePool", ["image"], ["mean"], name="gap")], "hw",
                          [x_info], [y_info])
onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]); onnx_model.ir_version = 8
onnx.save(onnx_model, os.path.join(tmp, "channel_mean.onnx"))
hw_om = at.models.convert(os.path.join(tmp, "channel_mean.onnx"),
                          ["--input_shape=image:1,3,-1,-1", "--dynamic_image_size=32,32;64,48"], "channel_mean")
hw_model = at.load_model(hw_om)
hd = at.query_desc(hw_model)
hw, ret = acl.mdl.get_dynamic_hw(hd.model_desc, -1)
check_ret("acl.mdl.get_dynamic_hw", ret)
print("gears:", hw)
print(hd.table())

# %%
hw_in, hw_out = at.build_dataset(hd, "input"), at.build_dataset(hd, "output")
hw_index, ret = acl.mdl.get_input_index_by_name(hd.model_desc, "ascend_mbatch_shape_data")
check_ret("acl.mdl.get_input_index_by_name", ret)
for h, w in hw["hw"]:
    columns = np.arange(w, dtype=np.float32) + 100 * np.arange(3, dtype=np.float32).reshape(1, 3, 1, 1)
    picture = np.broadcast_to(columns, (1, 3, h, w)).astype(np.float32)   # channel c: 100 c + column index
    data = picture.tobytes()
    buf = hw_in.buffers[0]
    check_ret("acl.rt.memcpy", acl.rt.memcpy(buf.ptr, buf.size, acl.util.bytes_to_ptr(data), len(data), 1))
    check_ret("acl.mdl.set_dynamic_hw_size",
              acl.mdl.set_dynamic_hw_size(hw_model.model_id, hw_in.dataset, hw_index, h, w))
    check_ret("acl.mdl.execute", acl.mdl.execute(hw_model.model_id, hw_in.dataset, hw_out.dataset))
    cur, ret = acl.mdl.get_cur_output_dims(hd.model_desc, 0)
    check_ret("acl.mdl.get_cur_output_dims", ret)
    means = at.unpack_outputs(hd, hw_out, res).arrays[0].reshape(-1)
    print(f"{h} x {w}: output dims {cur['dims']}, means {np.round(means, 3).tolist()}, "
          f"numpy agrees: {np.allclose(means, picture.mean(axis=(2, 3)).reshape(-1), atol=1e-3)}")
at.release_dataset(hw_in); at.release_dataset(hw_out)
_ = at.unload_model(hw_model, hd)

# %% [markdown] tags=["lang:en"]
# ## Dynamic dims (动态维度, ND format)
# **Why.** Batch and image-size gears cover NCHW pictures. Many models take something else: a sequence of
# tokens, a list of detected boxes, a feature matrix with a varying number of rows — tensors in **ND** format,
# where any dimension may vary. ATC compiles gears for them too: `-1` in `--input_shape`, `--input_format=ND`,
# and `--dynamic_dims="d1;d2;…"`, one value per `-1` in each gear (with several inputs, the values of every
# input's `-1`s in order). The [guide for `acl.mdl.set_input_dynamic_dims`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0168.html)
# says how to choose one at run time: the hidden input is again `ascend_mbatch_shape_data`, and the dims you pass
# "must be among the dimension profiles set during model building" — read them with
# `acl.mdl.get_input_dynamic_gear_count(desc, -1)` and `acl.mdl.get_input_dynamic_dims(desc, -1, count)`, which
# returns one `{'name', 'dimCount', 'dims'}` dict per gear, **all inputs' dims concatenated** — exactly the dict
# `set_input_dynamic_dims` takes. `acl.mdl.get_input_dims_range(desc, i)` gives each dimension's smallest and
# largest value over the gears.
#
# The model below sums each row of a `[n, 8]` feature matrix (`ReduceSum`), converted with
# `--input_shape=features:-1,8 --input_format=ND --dynamic_dims=1;3;5`. The input buffer is sized for 5 rows;
# three rows are copied, the gear `[3, 8]` is set, and `get_cur_output_dims` reads `[3, 1]`.
#
# The calls: [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html), [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md), [`acl.mdl.get_input_dynamic_gear_count`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0216.html), [`acl.mdl.get_input_dynamic_dims`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0226.html), [`acl.mdl.get_input_dims_range`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_input_dims_range.md), [`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html), [`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html).

# %% [markdown] tags=["lang:zh"]
# ## 动态维度（ND 格式）
# **为什么。** Batch 档位和分辨率档位针对的是 NCHW 图片。很多模型的输入是别的东西：一串 token、一组检测框、行数会变的特征矩阵——
# 这些是 **ND** 格式的张量，任何一维都可能变化。ATC 也能为它们编译档位：在 `--input_shape` 中写 `-1`，加上 `--input_format=ND` 和
# `--dynamic_dims="d1;d2;…"`，每个档位为每个 `-1` 给一个值（多个输入时，按顺序给出所有输入的 `-1`）。
# [`acl.mdl.set_input_dynamic_dims` 的说明](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0168.html)讲了运行时如何选择：
# 隐藏输入同样是 `ascend_mbatch_shape_data`，传入的维度“只能是模型构建时设置的档位中的某一档”——用
# `acl.mdl.get_input_dynamic_gear_count(desc, -1)` 和 `acl.mdl.get_input_dynamic_dims(desc, -1, count)` 读取档位，后者对每个档位返回一个
# `{'name', 'dimCount', 'dims'}` 字典，其中是**所有输入的维度依次拼接**——正好是 `set_input_dynamic_dims` 要的字典。
# `acl.mdl.get_input_dims_range(desc, i)` 给出每一维在各档位中的最小值和最大值。
#
# 下面的模型对 `[n, 8]` 特征矩阵的每一行求和（`ReduceSum`），用 `--input_shape=features:-1,8 --input_format=ND --dynamic_dims=1;3;5`
# 转换。输入缓冲按 5 行分配；复制三行数据，设置档位 `[3, 8]`，`get_cur_output_dims` 读到 `[3, 1]`。
#
# 用到的调用：[`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md)、[`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md)、[`acl.mdl.get_input_dynamic_gear_count`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0216.html)、[`acl.mdl.get_input_dynamic_dims`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC2alpha002/apiref/appdevgapi/aclpythondevg_01_0217.html)、[`acl.mdl.get_input_dims_range`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_input_dims_range.md)、[`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md)、[`acl.mdl.get_input_name_by_index`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0204.html)。

# %%
axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
rows_in = helper.make_tensor_value_info("features", TensorProto.FLOAT, ["n", 8])
rows_out = helper.make_tensor_value_info("total", TensorProto.FLOAT, ["n", 1])
graph = helper.make_graph([helper.make_node("ReduceSum", ["features", "axes"], ["total"], keepdims=1)], "row_sum",
                          [rows_in], [rows_out], initializer=[axes])
onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]); onnx_model.ir_version = 8
onnx.save(onnx_model, os.path.join(tmp, "row_sum.onnx"))
nd_om = at.models.convert(os.path.join(tmp, "row_sum.onnx"),
                          ["--input_shape=features:-1,8", "--input_format=ND", "--dynamic_dims=1;3;5"], "row_sum")
nd_id, ret = acl.mdl.load_from_file(nd_om)
check_ret("acl.mdl.load_from_file", ret)
nd_desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(nd_desc, nd_id))
count, ret = acl.mdl.get_input_dynamic_gear_count(nd_desc, -1)
check_ret("acl.mdl.get_input_dynamic_gear_count", ret)
nd_gears, ret = acl.mdl.get_input_dynamic_dims(nd_desc, -1, count)
check_ret("acl.mdl.get_input_dynamic_dims", ret)
print("gears:", [g["dims"] for g in nd_gears])
dims, ret = acl.mdl.get_input_dims(nd_desc, 0)
check_ret("acl.mdl.get_input_dims", ret)
span, ret = acl.mdl.get_input_dims_range(nd_desc, 0)
check_ret("acl.mdl.get_input_dims_range", ret)
print("input dims:", dims["dims"], "| range per dim:", span["range"])
for i in range(acl.mdl.get_num_inputs(nd_desc)):
    print(f"input {i}: {acl.mdl.get_input_name_by_index(nd_desc, i)}, {acl.mdl.get_input_size_by_index(nd_desc, i)} bytes")

# %% [markdown] tags=["lang:en"]
# The run, in raw pyACL: a device buffer per input (the hidden one too) and for the output, sized by the desc
# (the largest gear), wrapped into datasets; the data copied with `acl.rt.memcpy`; the gear set with
# `acl.mdl.set_input_dynamic_dims(model_id, dataset, index, gear)`; then `execute` and `get_cur_output_dims`.
# Only the first `3 × 8 × 4 = 96` bytes of the 160-byte input buffer are the gear's; only the first 12 of the
# 20-byte output buffer are written.
#
# The calls: [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md), [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html), [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html), [`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md), [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md), [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md), [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md), [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html), [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md), [`acl.mdl.set_input_dynamic_dims`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0168.html), [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html), [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html), [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md).

# %% [markdown] tags=["lang:zh"]
# 用原始 pyACL 运行：按 desc（最大档位）为每个输入（包括隐藏输入）和输出申请 Device 缓冲，包装成数据集；用 `acl.rt.memcpy` 复制数据；
# 用 `acl.mdl.set_input_dynamic_dims(model_id, dataset, index, gear)` 设置档位；然后 `execute`，再 `get_cur_output_dims`。
# 160 字节的输入缓冲中只有前 `3 × 8 × 4 = 96` 字节属于这个档位；20 字节的输出缓冲中只写入前 12 字节。
#
# 用到的调用：[`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md)、[`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)、[`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html)、[`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html)、[`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md)、[`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)、[`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md)、[`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)、[`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)、[`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)、[`acl.mdl.set_input_dynamic_dims`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_input_dynamic_dims.md)、[`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html)、[`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html)、[`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)。

# %%
def device_dataset(sizes):
    """A dataset of fresh device buffers of these sizes; returns (dataset, [(ptr, size)])."""
    dataset, held = acl.mdl.create_dataset(), []
    for size in sizes:
        ptr, ret = acl.rt.malloc(size, 0)
        check_ret("acl.rt.malloc", ret)
        _, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size))
        check_ret("acl.mdl.add_dataset_buffer", ret)
        held.append((ptr, size))
    return dataset, held


def release_dataset(dataset, held):
    """Data buffers, then the dataset, then the device memory."""
    for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i)))
    check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
    for ptr, _ in held:
        check_ret("acl.rt.free", acl.rt.free(ptr))


nd_in, nd_in_mem = device_dataset([acl.mdl.get_input_size_by_index(nd_desc, i)
                                   for i in range(acl.mdl.get_num_inputs(nd_desc))])
nd_out, nd_out_mem = device_dataset([acl.mdl.get_output_size_by_index(nd_desc, 0)])
nd_index, ret = acl.mdl.get_input_index_by_name(nd_desc, "ascend_mbatch_shape_data")
check_ret("acl.mdl.get_input_index_by_name", ret)
features = np.arange(24, dtype=np.float32).reshape(3, 8)        # three rows: the gear [3, 8]
data = features.tobytes()
ptr, size = nd_in_mem[0]
check_ret("acl.rt.memcpy", acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(data), len(data), 1))
gear = next(g for g in nd_gears if g["dims"][0] == len(features))
check_ret("acl.mdl.set_input_dynamic_dims", acl.mdl.set_input_dynamic_dims(nd_id, nd_in, nd_index, gear))
check_ret("acl.mdl.execute", acl.mdl.execute(nd_id, nd_in, nd_out))
cur, ret = acl.mdl.get_cur_output_dims(nd_desc, 0)
check_ret("acl.mdl.get_cur_output_dims", ret)
out_bytes = int(np.prod(cur["dims"])) * 4
host, ret = acl.rt.malloc_host(out_bytes)
check_ret("acl.rt.malloc_host", ret)
check_ret("acl.rt.memcpy", acl.rt.memcpy(host, out_bytes, nd_out_mem[0][0], out_bytes, 2))
sums = np.frombuffer(acl.util.ptr_to_bytes(host, out_bytes), np.float32).reshape(cur["dims"])
check_ret("acl.rt.free_host", acl.rt.free_host(host))
print("gear", gear["dims"], "-> output dims", cur["dims"], "| row sums", sums.reshape(-1).tolist(),
      "| numpy agrees:", np.array_equal(sums, features.sum(axis=1, keepdims=True)))
print("a gear that was not compiled, [4, 8] ->",
      acl.mdl.set_input_dynamic_dims(nd_id, nd_in, nd_index, {"name": "", "dimCount": 2, "dims": [4, 8]}))

# %% [markdown] tags=["lang:en"]
# *simulator:* the uncompiled gear returns 145013, the graph engine's code for a shape that is no gear; as with
# `set_dynamic_batch_size`, no public source confirms that pyACL passes exactly this code through — expect a
# non-zero `ret` on a board.
#
# The calls: [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html), [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md).

# %% [markdown] tags=["lang:zh"]
# *模拟器：* 没有编译的档位返回 145013，这是图引擎针对“不是档位的形状”的错误码；与 `set_dynamic_batch_size` 一样，没有公开资料确认
# pyACL 原样返回这个错误码——在开发板上请预期一个非 0 的 `ret`。
#
# 用到的调用：[`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md)、[`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)。

# %%
release_dataset(nd_in, nd_in_mem); release_dataset(nd_out, nd_out_mem)
check_ret("acl.mdl.unload", acl.mdl.unload(nd_id))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(nd_desc))

# %% [markdown] tags=["lang:en"]
# ## Dynamic AIPP (动态 AIPP)
# **Why.** Notebook 14's AIPP is *static*: the picture format, size, colour conversion and normalisation are
# written into the model by ATC, so one model takes one kind of picture. A program whose cameras deliver different
# formats, or whose crop changes per frame, would need a model per case. **Dynamic AIPP** compiles only the AIPP
# *slot* — `aipp_mode: dynamic` in the `--insert_op_conf` file, with `max_src_image_size` (the largest picture, in
# bytes) — and the program fills the parameters before each execute. The guide for
# [`acl.mdl.set_input_aipp`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_input_aipp.md) gives the flow and the order the hardware applies them:
# crop → colour-space conversion → mean/normalise → padding, and the output must have the model's width and height.
# The model gets an extra input, `ascend_dynamic_aipp_data`, that holds the parameters; you give it a buffer
# (sized by the desc) and never write it yourself.
#
# The calls: `acl.mdl.create_aipp(batch)` makes the parameter set; `set_aipp_input_format`,
# `set_aipp_src_image_size`, `set_aipp_crop_params`, `set_aipp_csc_params`, `set_aipp_dtc_pixel_mean` /
# `set_aipp_dtc_pixel_min`, `set_aipp_pixel_var_reci` fill it (the last ones per batch index); then
# `acl.mdl.set_input_aipp(model_id, dataset, index, aipp)` with the index of `ascend_dynamic_aipp_data`, and
# `acl.mdl.destroy_aipp` at the end. The model below is an identity on a `[1, 3, 8, 8]` float input, so the output
# *is* what AIPP made. The same loaded model takes, one after the other, a 10 × 10 RGB picture cropped to 8 × 8
# with a mean subtracted, and an 8 × 8 NV12 picture converted to RGB.

# %% [markdown] tags=["lang:zh"]
# ## 动态 AIPP
# **为什么。** Notebook 14 的 AIPP 是*静态*的：图片格式、尺寸、色域转换和归一化都由 ATC 写进模型，一个模型只接收一种图片。如果程序的
# 摄像头给出不同格式，或者每一帧的抠图区域都不同，就需要为每种情况准备一个模型。**动态 AIPP** 只编译 AIPP 的*位置*——在
# `--insert_op_conf` 文件中写 `aipp_mode: dynamic` 和 `max_src_image_size`（最大图片的字节数）——由程序在每次推理前填写参数。
# [`acl.mdl.set_input_aipp`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_input_aipp.md) 的说明给出了调用流程和硬件执行的顺序：
# 抠图 → 色域转换 → 减均值/归一化 → padding，且输出的宽高必须等于模型的宽高。模型多出一个输入 `ascend_dynamic_aipp_data`，
# 用来存放参数；你为它分配缓冲（大小按 desc），但从不自己写它。
#
# 用到的调用：`acl.mdl.create_aipp(batch)` 创建参数集；`set_aipp_input_format`、`set_aipp_src_image_size`、`set_aipp_crop_params`、
# `set_aipp_csc_params`、`set_aipp_dtc_pixel_mean` / `set_aipp_dtc_pixel_min`、`set_aipp_pixel_var_reci` 填写参数（后几个按 batch 下标）；
# 然后用 `ascend_dynamic_aipp_data` 的下标调用 `acl.mdl.set_input_aipp(model_id, dataset, index, aipp)`，最后 `acl.mdl.destroy_aipp`。
# 下面的模型对 `[1, 3, 8, 8]` 的 float 输入做恒等变换，所以输出*就是* AIPP 的结果。同一个已加载的模型先后接收：一张 10 × 10 的 RGB
# 图片，抠出 8 × 8 并减去均值；以及一张 8 × 8 的 NV12 图片，转换为 RGB。

# %%
one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
pic_in = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])
pic_out = helper.make_tensor_value_info("same", TensorProto.FLOAT, [1, 3, 8, 8])
graph = helper.make_graph([helper.make_node("Mul", ["image", "one"], ["same"])], "identity", [pic_in], [pic_out],
                          initializer=[one])
onnx_model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]); onnx_model.ir_version = 8
onnx.save(onnx_model, os.path.join(tmp, "identity.onnx"))
aipp_cfg = os.path.join(tmp, "dynamic_aipp.cfg")
with open(aipp_cfg, "w") as fh:
    fh.write("aipp_op {\n  aipp_mode: dynamic\n  related_input_rank: 0\n  max_src_image_size: 300\n}\n")
print(open(aipp_cfg).read())
aipp_om = at.models.convert(os.path.join(tmp, "identity.onnx"), [f"--insert_op_conf={aipp_cfg}"], "identity_dyn_aipp")
aipp_id, ret = acl.mdl.load_from_file(aipp_om)
check_ret("acl.mdl.load_from_file", ret)
aipp_desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(aipp_desc, aipp_id))
for i in range(acl.mdl.get_num_inputs(aipp_desc)):
    dims, ret = acl.mdl.get_input_dims(aipp_desc, i)
    check_ret("acl.mdl.get_input_dims", ret)
    print(f"input {i}: {acl.mdl.get_input_name_by_index(aipp_desc, i)}, dims {dims['dims']}, "
          f"{acl.mdl.get_input_size_by_index(aipp_desc, i)} bytes")
aipp_index, ret = acl.mdl.get_input_index_by_name(aipp_desc, "ascend_dynamic_aipp_data")
check_ret("acl.mdl.get_input_index_by_name", ret)
a_in, a_in_mem = device_dataset([acl.mdl.get_input_size_by_index(aipp_desc, i)
                                 for i in range(acl.mdl.get_num_inputs(aipp_desc))])
a_out, a_out_mem = device_dataset([acl.mdl.get_output_size_by_index(aipp_desc, 0)])


def run_with_aipp(picture, aipp):
    """Copy the picture's bytes in, set the AIPP parameters, execute; the [3, 8, 8] output on the host."""
    data = picture.tobytes()
    ptr, size = a_in_mem[0]
    check_ret("acl.rt.memcpy", acl.rt.memcpy(ptr, size, acl.util.bytes_to_ptr(data), len(data), 1))
    check_ret("acl.mdl.set_input_aipp", acl.mdl.set_input_aipp(aipp_id, a_in, aipp_index, aipp))
    check_ret("acl.mdl.execute", acl.mdl.execute(aipp_id, a_in, a_out))
    ptr, size = a_out_mem[0]
    host, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, ptr, size, 2))
    out = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32).reshape(3, 8, 8)
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    return out

# %% [markdown] tags=["lang:en"]
# First picture: RGB888 (`input_format` 3, `ACL_RGB888_U8`), 10 × 10 = 300 bytes, crop the 8 × 8 at (2, 2),
# subtract 100 from each channel, scale by 1. The output must equal numpy's crop minus 100.
#
# The calls: [`acl.mdl.create_aipp`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_aipp.md), [`acl.mdl.set_aipp_input_format`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_input_format.md), [`acl.mdl.set_aipp_src_image_size`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_src_image_size.md), [`acl.mdl.set_aipp_crop_params`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_crop_params.md), [`acl.mdl.set_aipp_dtc_pixel_mean`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_dtc_pixel_mean.md), [`acl.mdl.set_aipp_pixel_var_reci`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_pixel_var_reci.md).

# %% [markdown] tags=["lang:zh"]
# 第一张图片：RGB888（`input_format` 为 3，`ACL_RGB888_U8`），10 × 10 = 300 字节，在 (2, 2) 处抠出 8 × 8，每个通道减 100，缩放系数 1。
# 输出必须等于 numpy 的抠图结果减 100。
#
# 用到的调用：[`acl.mdl.create_aipp`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_aipp.md)、[`acl.mdl.set_aipp_input_format`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_input_format.md)、[`acl.mdl.set_aipp_src_image_size`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_src_image_size.md)、[`acl.mdl.set_aipp_crop_params`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_crop_params.md)、[`acl.mdl.set_aipp_dtc_pixel_mean`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_dtc_pixel_mean.md)、[`acl.mdl.set_aipp_pixel_var_reci`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-set_aipp_pixel_var_reci.md)。

# %%
rgb = np.random.default_rng(0).integers(0, 256, (10, 10, 3), dtype=np.uint8)   # HWC, as a camera gives it
crop_rgb = acl.mdl.create_aipp(1)
check_ret("acl.mdl.set_aipp_input_format", acl.mdl.set_aipp_input_format(crop_rgb, 3))      # ACL_RGB888_U8
check_ret("acl.mdl.set_aipp_src_image_size", acl.mdl.set_aipp_src_image_size(crop_rgb, 10, 10))
check_ret("acl.mdl.set_aipp_crop_params", acl.mdl.set_aipp_crop_params(crop_rgb, 1, 2, 2, 8, 8, 0))  # on, x, y, w, h, batch
check_ret("acl.mdl.set_aipp_dtc_pixel_mean", acl.mdl.set_aipp_dtc_pixel_mean(crop_rgb, 100, 100, 100, 0, 0))
check_ret("acl.mdl.set_aipp_pixel_var_reci", acl.mdl.set_aipp_pixel_var_reci(crop_rgb, 1.0, 1.0, 1.0, 1.0, 0))
out = run_with_aipp(rgb, crop_rgb)
want = rgb[2:10, 2:10].transpose(2, 0, 1).astype(np.float32) - 100
print("output", out.shape, "| row 0 of R:", out[0, 0].tolist())
print("numpy agrees:", np.array_equal(out, want))

# %% [markdown] tags=["lang:en"]
# Second picture, same model: NV12 (`input_format` 1, `ACL_YUV420SP_U8`), 8 × 8 × 3 / 2 = 96 bytes, every pixel
# Y = 81, U = 90, V = 240 — pure red in BT.601. `set_aipp_csc_params(aipp, 1, m00 … m22, out_bias ×3, in_bias ×3)`
# takes the YUV → RGB matrix in fixed point (×256) with input biases 16, 128, 128; each channel is
# `(M · (YUV − bias)) >> 8`, clipped to 0..255. Worked by hand: R = (298 · 65 + 409 · 112) >> 8 = 254,
# G = (298 · 65 − 100 · (−38) − 208 · 112) >> 8 < 0 → 0, B = (298 · 65 + 516 · (−38)) >> 8 < 0 → 0.
#
# *simulator:* the AIPP arithmetic (fixed-point CSC, fp16 `var_reci`) follows the graph engine's parameter
# layout; how the AI Core rounds is not published, so a board may differ by one in a channel.
#
# The calls: [`acl.mdl.set_aipp_csc_params`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-set_aipp_csc_params.md), [`acl.mdl.destroy_aipp`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-destroy_aipp.md).

# %% [markdown] tags=["lang:zh"]
# 第二张图片，同一个模型：NV12（`input_format` 为 1，`ACL_YUV420SP_U8`），8 × 8 × 3 / 2 = 96 字节，每个像素 Y = 81、U = 90、V = 240——
# BT.601 中的纯红色。`set_aipp_csc_params(aipp, 1, m00 … m22, 输出偏置 ×3, 输入偏置 ×3)` 接收定点（×256）的 YUV → RGB 矩阵，输入偏置为
# 16、128、128；每个通道为 `(M · (YUV − bias)) >> 8`，截断到 0..255。手算：R = (298 · 65 + 409 · 112) >> 8 = 254，
# G = (298 · 65 − 100 · (−38) − 208 · 112) >> 8 < 0 → 0，B = (298 · 65 + 516 · (−38)) >> 8 < 0 → 0。
#
# *模拟器：* AIPP 的算术（定点 CSC、fp16 的 `var_reci`）按图引擎的参数布局实现；AI Core 如何舍入没有公开，开发板上某个通道可能相差 1。
#
# 用到的调用：[`acl.mdl.set_aipp_csc_params`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-set_aipp_csc_params.md)、[`acl.mdl.destroy_aipp`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-destroy_aipp.md)。

# %%
nv12 = np.concatenate([np.full(64, 81, np.uint8), np.tile(np.array([90, 240], np.uint8), 16)])  # Y plane, then UV
yuv_rgb = acl.mdl.create_aipp(1)
check_ret("acl.mdl.set_aipp_input_format", acl.mdl.set_aipp_input_format(yuv_rgb, 1))       # ACL_YUV420SP_U8
check_ret("acl.mdl.set_aipp_src_image_size", acl.mdl.set_aipp_src_image_size(yuv_rgb, 8, 8))
check_ret("acl.mdl.set_aipp_csc_params", acl.mdl.set_aipp_csc_params(
    yuv_rgb, 1, 298, 0, 409, 298, -100, -208, 298, 516, 0, 0, 0, 0, 16, 128, 128))
check_ret("acl.mdl.set_aipp_pixel_var_reci", acl.mdl.set_aipp_pixel_var_reci(yuv_rgb, 1.0, 1.0, 1.0, 1.0, 0))
out = run_with_aipp(nv12, yuv_rgb)
print("R, G, B of every pixel:", sorted({tuple(int(v) for v in out[:, i, j]) for i in range(8) for j in range(8)}))
for aipp in (crop_rgb, yuv_rgb):
    check_ret("acl.mdl.destroy_aipp", acl.mdl.destroy_aipp(aipp))
release_dataset(a_in, a_in_mem); release_dataset(a_out, a_out_mem)
check_ret("acl.mdl.unload", acl.mdl.unload(aipp_id))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(aipp_desc))

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 + 1 points)
# 1. Write `set_gear(model_id, dataset, desc, n)`: read the gears with `acl.mdl.get_dynamic_batch`, pick the
#    smallest gear that holds `n` images, find the hidden input with `acl.mdl.get_input_index_by_name` and set the
#    gear with `acl.mdl.set_dynamic_batch_size`; return the gear. The checker tries several batch sizes.
# 2. Write `pad_batch(images, gear)`: a `[gear, …]` array with the images first and zeros after.

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 + 1 分）
# 1. 编写 `set_gear(model_id, dataset, desc, n)`：用 `acl.mdl.get_dynamic_batch` 读出档位，选出能装下 `n` 张图片的最小档位，用
#    `acl.mdl.get_input_index_by_name` 找到隐藏输入，再用 `acl.mdl.set_dynamic_batch_size` 设置档位；返回该档位。检查器会试几种 Batch 大小。
# 2. 编写 `pad_batch(images, gear)`：返回 `[gear, …]` 的数组，前面是这些图片，后面补 0。

# %% tags=["solution", "grade_id:nb10-gear"]
def set_gear(model_id, dataset, desc, n):
    """Set the smallest gear that holds n images; return it."""
    ### BEGIN SOLUTION
    gears, ret = acl.mdl.get_dynamic_batch(desc)
    check_ret("acl.mdl.get_dynamic_batch", ret)
    gear = min(g for g in gears["batch"] if g >= n)
    index, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    check_ret("acl.mdl.get_input_index_by_name", ret)
    check_ret("acl.mdl.set_dynamic_batch_size", acl.mdl.set_dynamic_batch_size(model_id, dataset.dataset, index, gear))
    return gear
    ### END SOLUTION

def pad_batch(images, gear):
    """The images, then zero rows up to the gear."""
    ### BEGIN SOLUTION
    batch = np.zeros((gear,) + images.shape[1:], images.dtype)
    batch[:len(images)] = images
    return batch
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb10-gear-test"]
dyn = at.load_model(om)
dd = at.query_desc(dyn)
dyn_in = at.build_dataset(dd, "input")
feedback = lab.check_gear(set_gear, dyn.model_id, dyn_in, dd)
at.release_dataset(dyn_in)
_ = at.unload_model(dyn, dd)
print(feedback)
assert feedback, feedback

# %% tags=["grade", "points:1", "grade_id:nb10-pad-test"]
### BEGIN HIDDEN TESTS
feedback = lab.check_padded_batch(pad_batch)
print(feedback)
assert feedback, feedback
### END HIDDEN TESTS

# %%
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Summary
# * ATC compiles gears: `--dynamic_batch_size=1,2,4,8` or `--dynamic_image_size="h1,w1;h2,w2"`, with `-1` in
#   `--input_shape` where the size varies. Dims show `-1`; sizes are the largest gear's.
# * Such a model has an extra input, `ascend_mbatch_shape_data`: give it a buffer, never fill it.
# * Before each execute: `set_dynamic_batch_size` or `set_dynamic_hw_size` with that input's index; afterwards
#   `get_cur_output_dims` gives the output shape of that gear. Only compiled gears exist.
# * ND tensors: `--input_format=ND --dynamic_dims=…`; read the gears with `get_input_dynamic_dims(desc, -1, count)`
#   and pass one of those dicts to `set_input_dynamic_dims`.
# * Dynamic AIPP: `aipp_mode: dynamic` compiles the slot and adds the `ascend_dynamic_aipp_data` input;
#   `create_aipp` → `set_aipp_*` → `set_input_aipp` before the execute, `destroy_aipp` after.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * ATC 编译档位：`--dynamic_batch_size=1,2,4,8` 或 `--dynamic_image_size="h1,w1;h2,w2"`，并在 `--input_shape` 中把可变的维度写成 `-1`。
#   维度显示为 `-1`；大小按最大档位计算。
# * 这样的模型多一个输入 `ascend_mbatch_shape_data`：给它分配缓冲，但从不填写。
# * 每次推理前：用该输入的索引调用 `set_dynamic_batch_size` 或 `set_dynamic_hw_size`；推理后 `get_cur_output_dims` 给出该档位的输出形状。
#   只有编译进去的档位才存在。
# * ND 张量：`--input_format=ND --dynamic_dims=…`；用 `get_input_dynamic_dims(desc, -1, count)` 读取档位，把其中一个字典传给
#   `set_input_dynamic_dims`。
# * 动态 AIPP：`aipp_mode: dynamic` 只编译 AIPP 的位置，并增加输入 `ascend_dynamic_aipp_data`；推理前 `create_aipp` → `set_aipp_*` →
#   `set_input_aipp`，之后 `destroy_aipp`。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Why is the input buffer of the dynamic-batch model 8 × 301,056 bytes even when you run one image?
# 2. What is `ascend_mbatch_shape_data`, and who writes it?
# 3. You need to classify 5 photos with gears 1, 2, 4, 8. Name two ways.
# 4. After `set_dynamic_hw_size(…, 32, 32)` and an execute, which call tells you the output's shape?
# 5. A model has inputs `a:-1,4;b:-1,4` and `--dynamic_dims=1,1;2,2`. What `dims` does `set_input_dynamic_dims` take for two rows?
#
# **Next →** [11_full_pipeline](11_full_pipeline.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 为什么即使只推理一张图片，动态 Batch 模型的输入缓冲也是 8 × 301,056 字节？
# 2. `ascend_mbatch_shape_data` 是什么？由谁来写？
# 3. 档位为 1、2、4、8 时要对 5 张照片分类，说出两种做法。
# 4. 调用 `set_dynamic_hw_size(…, 32, 32)` 并推理之后，哪个调用告诉你输出的形状？
# 5. 模型的输入为 `a:-1,4;b:-1,4`，`--dynamic_dims=1,1;2,2`。两行数据时 `set_input_dynamic_dims` 要传什么 `dims`？
#
# **下一节 →** [11_full_pipeline](11_full_pipeline.ipynb)
