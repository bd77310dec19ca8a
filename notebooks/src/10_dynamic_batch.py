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
# resolutions, and read the output shape of the gear just run.

# %% [markdown] tags=["lang:zh"]
# # 10 · 动态 Batch 与动态分辨率
# **为什么。** 离线模型的形状是固定的——正如一位学习者发现的，“昇腾离线模型不能够完全动态的输入”。当每次推理的图片数或图片尺寸会变化时，
# ATC 可以把多个**档位**编译进同一个 OM：`--dynamic_batch_size` 指定 Batch 档位，`--dynamic_image_size` 指定高 × 宽档位。指南随后对你提出
# 两点要求：用 `get_input_size_by_index` 确定输入缓冲大小——它“获取的是最大档位的内存，确保内存够用”；并且*在每次推理前告诉模型本次用哪个档位*
# （[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)；[动态 Batch 与动态分辨率](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_0125.html)）。相比之下，固定 Batch 的模型每次都必须凑满 Batch。
#
# **学完本节你将能够：** 读取模型的档位，找到隐藏的输入 `ascend_mbatch_shape_data`，选择 Batch 档位，在一次推理中对 1、2、4 或 8 张照片分类；
# 转换一个带分辨率档位的模型并以两种分辨率运行它；并读取刚运行的档位的输出形状。

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
# the dataset must already hold a buffer for it. Then [`acl.mdl.execute`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0145.html), and
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

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * ATC 编译档位：`--dynamic_batch_size=1,2,4,8` 或 `--dynamic_image_size="h1,w1;h2,w2"`，并在 `--input_shape` 中把可变的维度写成 `-1`。
#   维度显示为 `-1`；大小按最大档位计算。
# * 这样的模型多一个输入 `ascend_mbatch_shape_data`：给它分配缓冲，但从不填写。
# * 每次推理前：用该输入的索引调用 `set_dynamic_batch_size` 或 `set_dynamic_hw_size`；推理后 `get_cur_output_dims` 给出该档位的输出形状。
#   只有编译进去的档位才存在。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Why is the input buffer of the dynamic-batch model 8 × 301,056 bytes even when you run one image?
# 2. What is `ascend_mbatch_shape_data`, and who writes it?
# 3. You need to classify 5 photos with gears 1, 2, 4, 8. Name two ways.
# 4. After `set_dynamic_hw_size(…, 32, 32)` and an execute, which call tells you the output's shape?
#
# **Next →** [11_full_pipeline](11_full_pipeline.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 为什么即使只推理一张图片，动态 Batch 模型的输入缓冲也是 8 × 301,056 字节？
# 2. `ascend_mbatch_shape_data` 是什么？由谁来写？
# 3. 档位为 1、2、4、8 时要对 5 张照片分类，说出两种做法。
# 4. 调用 `set_dynamic_hw_size(…, 32, 32)` 并推理之后，哪个调用告诉你输出的形状？
#
# **下一节 →** [11_full_pipeline](11_full_pipeline.ipynb)
