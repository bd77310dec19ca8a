# %% [markdown] tags=["lang:en"]
# # 13 · Capstone: one complete pyACL classification program, sync and async
# **Why.** Every official code example carries the same warning: "key steps only — it cannot be copied and run
# as is; add exception handling and logs yourself" ([model execution](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)). The learner who asked for "one
# page that ties the whole flow together" had to assemble the complete program himself from a dozen pages. This
# notebook is that program, start to finish, in raw pyACL: no step API, no widgets — only `acl` calls, written in
# the order and style of the official ResNet-50 sample and its asynchronous sibling, with every `ret` checked and
# every resource released. It runs here on the simulator and, unchanged, on a board.
#
# **You will be able to:** write the whole classification program yourself — initialise, request resources, load
# the model, read its desc, allocate memory once, preprocess, copy, execute synchronously, read and rank the
# results, then do the same asynchronously with the results read in a callback, and release everything in a safe
# order — and relate it to the sample scripts in `acl_teach/examples/`.

# %% [markdown] tags=["lang:zh"]
# # 13 · 综合练习：一个完整的 pyACL 分类程序，同步与异步
# **为什么。** 官方每段示例代码都带着同一句提醒：“以下是关键步骤的代码示例，不可以直接拷贝运行，仅供参考；调用接口后，需增加异常处理的分支，
# 并记录报错日志”（[模型执行](https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html)）。那位希望有“一个统合所有流程的页面”的学习者，只好自己从十几个页面里拼出完整的程序。本节就是这个程序，
# 从头到尾只用原始 pyACL：不用分步 API，不用控件——只有 `acl` 调用，按官方 ResNet-50 样例及其异步版本的顺序和风格编写，检查每个 `ret`，释放
# 每个资源。它在这里运行于模拟器，不加修改也能在开发板上运行。
#
# **学完本节你将能够：** 自己写出完整的分类程序——初始化、申请运行管理资源、加载模型、读取模型描述、一次性申请内存、预处理、内存复制、同步推理、
# 读取结果并排序，再用异步方式在回调函数中获取结果完成同样的事，并按安全的顺序释放一切——还能把它与 `acl_teach/examples/` 中的样例脚本对应起来。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # here only for at.models: which OM and photos to use on this backend
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# ## 1 · Constants
# The sample keeps pyACL's enum values in a `constant.py`; these are the ones the program needs. `MODEL_PATH` is
# the default model for this backend (on a board: built by CANN's `atc` for its SoC).

# %% [markdown] tags=["lang:zh"]
# ## 1 · 常量
# 样例把 pyACL 的枚举值放在 `constant.py` 中；这里是本程序需要的那些。`MODEL_PATH` 是当前后端的默认模型（在开发板上由 CANN 的 `atc` 为其芯片构建）。

# %%
DEVICE_ID = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_DEVICE_TO_DEVICE = 1, 2, 3
ACL_DEVICE, ACL_HOST = 0, 1
ACL_CALLBACK_BLOCK = 1
NPY_FLOAT32 = 11
MODEL_PATH = at.models.default_om()
IMAGES = [at.models.image(name) for name in ("coffee.png", "chelsea.png", "rocket.jpg")]

# %% [markdown] tags=["lang:en"]
# ## 2 · Initialise and request the runtime resources
# [`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html), then Device, Context, Stream: [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html),
# [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html), [`acl.rt.create_stream`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html) (the synchronous
# sample needs none; the asynchronous part does). [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) decides the
# copy kinds: host ↔ device on a PC with a card, device ↔ device on a board — the acllite rule.

# %% [markdown] tags=["lang:zh"]
# ## 2 · 初始化并申请运行管理资源
# [`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)，然后是 Device、Context、Stream：[`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)、
# [`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md)、[`acl.rt.create_stream`](https://hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/aadgp/aclpythondevg_01_0074.html)（同步样例不需要 Stream，异步部分需要）。
# [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) 决定内存复制方向：插卡的 PC 上是 Host ↔ Device，开发板上是 Device ↔ Device——这是 acllite 的规则。

# %%
import atexit
ret = acl.init()                      # once per process: Run All again in this kernel gives 100002, still initialised
if ret == 0:
    atexit.register(acl.finalize)     # the program's one acl.finalize: here at the kernel's exit (section 8)
elif ret != 100002:
    check_ret("acl.init", ret)
check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
context, ret = acl.rt.create_context(DEVICE_ID)
check_ret("acl.rt.create_context", ret)
stream, ret = acl.rt.create_stream()
check_ret("acl.rt.create_stream", ret)
run_mode, ret = acl.rt.get_run_mode()
check_ret("acl.rt.get_run_mode", ret)
to_device = ACL_MEMCPY_HOST_TO_DEVICE if run_mode == ACL_HOST else ACL_MEMCPY_DEVICE_TO_DEVICE
to_host = ACL_MEMCPY_DEVICE_TO_HOST if run_mode == ACL_HOST else ACL_MEMCPY_DEVICE_TO_DEVICE
print("run mode:", "ACL_HOST" if run_mode == ACL_HOST else "ACL_DEVICE")

# %% [markdown] tags=["lang:en"]
# ## 3 · Load the model and read its desc
# [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html) → model id; [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) +
# [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md); then the counts ([`acl.mdl.get_num_inputs`](https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_0197.html),
# [`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0207.html)), the sizes ([`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md),
# [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)), and the input's dims
# ([`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html)) for the preprocessing.

# %% [markdown] tags=["lang:zh"]
# ## 3 · 加载模型并读取模型描述
# [`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md) → 模型 ID；[`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) + [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md)；
# 然后是个数（[`acl.mdl.get_num_inputs`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_num_inputs.md)、[`acl.mdl.get_num_outputs`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0198.html)）、大小（[`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md)、
# [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md)），以及预处理要用的输入维度（[`acl.mdl.get_input_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0201.html)）。

# %%
model_id, ret = acl.mdl.load_from_file(MODEL_PATH)
check_ret("acl.mdl.load_from_file", ret)
model_desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(model_desc, model_id))
input_sizes = [acl.mdl.get_input_size_by_index(model_desc, i) for i in range(acl.mdl.get_num_inputs(model_desc))]
output_sizes = [acl.mdl.get_output_size_by_index(model_desc, i) for i in range(acl.mdl.get_num_outputs(model_desc))]
in_dims, ret = acl.mdl.get_input_dims(model_desc, 0)
check_ret("acl.mdl.get_input_dims", ret)
print("model_id:{}".format(model_id), "| input", in_dims["dims"], input_sizes, "| output", output_sizes)

# %% [markdown] tags=["lang:en"]
# ## 4 · Allocate device memory once
# Like the sample, allocate one device buffer per input and output at start-up with
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html) and reuse it for every image; keep the pointers and sizes in plain lists.

# %% [markdown] tags=["lang:zh"]
# ## 4 · 一次性申请 Device 内存
# 与样例一样，在启动时用 [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html) 为每个输入和输出各申请一块 Device 内存，所有图片重复使用；指针和大小保存在普通列表里。

# %%
def malloc_all(sizes):
    items = []
    for size in sizes:
        ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        items.append({"buffer": ptr, "size": size})
    return items

input_data, output_data = malloc_all(input_sizes), malloc_all(output_sizes)

# %% [markdown] tags=["lang:en"]
# ## 5 · Preprocess
# The default model's recipe (notebook 05), in plain PIL and numpy: short side to 256 (bicubic), centre crop 224,
# RGB, `(x − 127) / 128`, fp16, NCHW. For the Caffe ResNet-50 sample you would use its `transfer_pic` instead.

# %% [markdown] tags=["lang:zh"]
# ## 5 · 预处理
# 默认模型的预处理（第 05 节），只用 PIL 和 numpy：短边缩放到 256（双三次插值），居中裁剪 224，RGB，`(x − 127) / 128`，fp16，NCHW。若是 Caffe 版
# ResNet-50 样例，则改用它的 `transfer_pic`。

# %%
from PIL import Image

def preprocess(path, size=224):
    image = Image.open(path).convert("RGB")
    width, height = image.size
    scale = 256.0 / min(width, height)
    image = image.resize((round(width * scale), round(height * scale)), Image.BICUBIC)
    left, top = (image.size[0] - size) // 2, (image.size[1] - size) // 2
    image = image.crop((left, top, left + size, top + size))
    pixels = (np.asarray(image, dtype=np.float32) - 127.0) / 128.0
    return np.ascontiguousarray(pixels.transpose(2, 0, 1)[np.newaxis].astype(np.float16))

print(preprocess(IMAGES[0]).shape, preprocess(IMAGES[0]).nbytes == input_sizes[0])

# %% [markdown] tags=["lang:en"]
# ## 6 · Synchronous inference, one image at a time
# Per image: the pointer ([`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html), or
# [`acl.util.numpy_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/runtimeapi/aclpythondevg_01_0052.html) on old versions), the copy in ([`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)),
# the datasets ([`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md), [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html),
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html)), [`acl.mdl.execute`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0154.html), the
# datasets destroyed right away as the sample does ([`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md),
# [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md), [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md),
# [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)) — the memory stays for the next image — then the result: host memory
# ([`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)), the copy out, the current dims
# ([`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html)), the bytes
# ([`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html), or the view from [`acl.util.ptr_to_numpy`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0054.html)),
# [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md), and the sample's top-5 printout.

# %% [markdown] tags=["lang:zh"]
# ## 6 · 同步推理，每次一张图片
# 对每张图片：取得指针（[`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html)，旧版本用 [`acl.util.numpy_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/runtimeapi/aclpythondevg_01_0052.html)），复制进去
# （[`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)），构造数据集（[`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md)、[`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html)、
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html)），[`acl.mdl.execute`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0145.html)，随即像样例那样销毁数据集
# （[`acl.mdl.get_dataset_num_buffers`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_dataset_num_buffers.md)、[`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md)、[`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md)、
# [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md)）——内存留给下一张图片——然后取结果：Host 内存（[`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html)）、复制出来、
# 当前维度（[`acl.mdl.get_cur_output_dims`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0214.html)）、字节（[`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html)，或
# [`acl.util.ptr_to_numpy`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0054.html) 给出的视图）、[`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)，最后按样例的格式打印 top-5。

# %%
def create_dataset(items):
    dataset = acl.mdl.create_dataset()
    for item in items:
        data = acl.create_data_buffer(item["buffer"], item["size"])
        _, ret = acl.mdl.add_dataset_buffer(dataset, data)
        check_ret("acl.mdl.add_dataset_buffer", ret)
    return dataset

def destroy_dataset(dataset):
    for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i)))
    check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))

def copy_in(item, img):
    if "bytes_to_ptr" in dir(acl.util):
        bytes_data = img.tobytes()                 # alive until the copy below has finished
        ptr = acl.util.bytes_to_ptr(bytes_data)
    else:
        ptr = acl.util.numpy_to_ptr(img)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(item["buffer"], item["size"], ptr, img.nbytes, to_device))

def read_output(item, index=0):
    host, ret = acl.rt.malloc_host(item["size"])
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, item["size"], item["buffer"], item["size"], to_host))
    dims, ret = acl.mdl.get_cur_output_dims(model_desc, index)
    check_ret("acl.mdl.get_cur_output_dims", ret)
    if "ptr_to_bytes" in dir(acl.util):
        result = np.frombuffer(acl.util.ptr_to_bytes(host, item["size"]), dtype=np.float32).reshape(dims["dims"])
    else:
        result = acl.util.ptr_to_numpy(host, tuple(dims["dims"]), NPY_FLOAT32).copy()
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    return result

def print_top5(path, result):
    vals = result.flatten()
    print("images:{}".format(path.split("/")[-1]))
    print("======== top5 inference results: =============")
    for j in vals.argsort()[-1:-6:-1]:
        print("[%d]: %f" % (j, vals[j]))

def run_sync(path):
    copy_in(input_data[0], preprocess(path))
    input_dataset, output_dataset = create_dataset(input_data), create_dataset(output_data)
    check_ret("acl.mdl.execute", acl.mdl.execute(model_id, input_dataset, output_dataset))
    destroy_dataset(input_dataset)
    destroy_dataset(output_dataset)
    return read_output(output_data[0])

sync_results = {}
for path in IMAGES:
    sync_results[path] = run_sync(path)
    print_top5(path, sync_results[path])

# %% [markdown] tags=["lang:en"]
# ## 7 · Asynchronous inference, results read in the callback
# The asynchronous sample's pattern (notebook 09): a thread from [`acl.util.start_thread`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0058.html)
# sets the context ([`acl.rt.set_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0077.html)) and loops on
# [`acl.rt.process_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html); [`acl.rt.subscribe_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0108.html) binds it
# to the stream; per image [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0156.html) and
# [`acl.rt.launch_callback`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0109.html) with a **list** as user data; then
# [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html), [`acl.rt.unsubscribe_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0111.html), the exit flag,
# [`acl.util.stop_thread`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha003/API/appdevgapi/aclpythondevg_01_0059.html). All images are in flight together, so each gets its own
# memory; the callback reads its image's result. Afterwards each job's memory is freed ([`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)).

# %% [markdown] tags=["lang:zh"]
# ## 7 · 异步推理，在回调函数中获取结果
# 异步样例的模式（第 09 节）：由 [`acl.util.start_thread`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0058.html) 启动的线程设置 Context（[`acl.rt.set_context`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0074.html)），
# 并循环调用 [`acl.rt.process_report`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0106.html)；[`acl.rt.subscribe_report`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0103.html) 把它绑定到 Stream；每张图片调用
# [`acl.mdl.execute_async`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0147.html) 和 [`acl.rt.launch_callback`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0105.html)，用户数据是一个**列表**；然后
# [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html)、[`acl.rt.unsubscribe_report`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/control/function-unsubscribe_report.md)、设置退出标志、
# [`acl.util.stop_thread`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha003/API/appdevgapi/aclpythondevg_01_0059.html)。所有图片同时在途，所以每张都有自己的内存；回调函数读取本图片的结果。最后释放每个任务的内存
# （[`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)）。

# %%
jobs, exit_flag = [], {"stop": False}

def callback_loop(args):
    ctx, timeout_ms = args
    check_ret("acl.rt.set_context", acl.rt.set_context(ctx))
    while not exit_flag["stop"]:
        ret = acl.rt.process_report(timeout_ms)     # a timeout with nothing due is normal

def on_done(user_data):
    job = jobs[user_data[0]]
    job["result"] = read_output(job["outputs"][0])

tid, ret = acl.util.start_thread(callback_loop, [context, 50])
check_ret("acl.util.start_thread", ret)
check_ret("acl.rt.subscribe_report", acl.rt.subscribe_report(tid, stream))
for path in IMAGES:
    job = {"image": path, "inputs": malloc_all(input_sizes), "outputs": malloc_all(output_sizes)}
    copy_in(job["inputs"][0], preprocess(path))
    job["in"], job["out"] = create_dataset(job["inputs"]), create_dataset(job["outputs"])
    jobs.append(job)
    check_ret("acl.mdl.execute_async", acl.mdl.execute_async(model_id, job["in"], job["out"], stream))
    check_ret("acl.rt.launch_callback", acl.rt.launch_callback(on_done, [len(jobs) - 1], ACL_CALLBACK_BLOCK, stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
check_ret("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, stream))
exit_flag["stop"] = True
check_ret("acl.util.stop_thread", acl.util.stop_thread(tid))
labels = at.models.labels()                    # ImageNet names, one per class index
for job in jobs:
    best = int(job["result"].argmax())
    print(job["image"].split("/")[-1], "top-1", best, labels[best].split(",")[0],
          "| same as sync:", np.array_equal(job["result"], sync_results[job["image"]]))
    destroy_dataset(job["in"]); destroy_dataset(job["out"])
    for item in job["inputs"] + job["outputs"]:
        check_ret("acl.rt.free", acl.rt.free(item["buffer"]))

# %% [markdown] tags=["lang:en"]
# ## 8 · Release, in a safe order
# The sample's order: [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html), [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md), free the memory
# allocated at start-up, then [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html),
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html), [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html) and
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) (notebook 08 explains why this and other orders are safe). A script calls `acl.finalize()` as its last
# line (the two scripts below do); in this notebook the program's process is the kernel, so its one finalize was
# registered with `atexit` in section 2 and runs when the kernel exits — on CANN ≤ 8.0 a finalized process cannot
# init again (notebook 01), and the exercise below still needs this one.

# %% [markdown] tags=["lang:zh"]
# ## 8 · 按安全的顺序释放
# 样例的顺序：[`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md)、[`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)、释放启动时申请的内存，然后
# [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html)、[`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、[`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)
# 和 [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html)（第 08 节解释了为什么这种顺序以及其他几种顺序是安全的）。脚本把 `acl.finalize()` 作为最后一行（下面两个脚本就是这样）；
# 在本 notebook 中，程序的进程就是内核，所以唯一一次 finalize 已在第 2 部分用 `atexit` 登记，在内核退出时执行——CANN 8.0 及以前，进程
# finalize 之后不能再初始化（第 01 节），而下面的练习还要用这个进程。

# %%
check_ret("acl.mdl.unload", acl.mdl.unload(model_id))
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(model_desc))
for item in input_data + output_data:
    check_ret("acl.rt.free", acl.rt.free(item["buffer"]))
check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## The same program as scripts
# [`acl_teach/examples/classify_sync.py`](../acl_teach/examples/classify_sync.py) and
# [`classify_async.py`](../acl_teach/examples/classify_async.py) are this program as two files in the sample's class
# style (`python3 classify_sync.py MODEL.om IMAGE…`). On the simulator they run under `python -m acl_teach.sim`,
# which makes their `import acl` the simulator; on a board they run with plain `python3`. The cell runs both on the
# espresso photo; they print what the sample prints, ending with `*****run finish******`.

# %% [markdown] tags=["lang:zh"]
# ## 写成脚本的同一个程序
# [`acl_teach/examples/classify_sync.py`](../../acl_teach/examples/classify_sync.py) 和 [`classify_async.py`](../../acl_teach/examples/classify_async.py)
# 就是本程序按样例的类风格写成的两个文件（`python3 classify_sync.py MODEL.om IMAGE…`）。在模拟器上用 `python -m acl_teach.sim` 运行，让其中的
# `import acl` 得到模拟器；在开发板上直接用 `python3` 运行。下面的单元格对浓缩咖啡照片运行这两个脚本；它们的输出与样例相同，以 `*****run finish******` 结尾。

# %%
import os, subprocess, sys
from acl_teach import examples
launcher = [sys.executable, "-m", "acl_teach.sim"] if lab.on_simulator() else [sys.executable]
for script in ("classify_sync.py", "classify_async.py"):
    done = subprocess.run(launcher + [os.path.join(os.path.dirname(examples.__file__), script), MODEL_PATH, IMAGES[0]],
                          capture_output=True, text=True)
    lines = [line if not line.startswith("images:") else "images:" + line.split("/")[-1]
             for line in done.stdout.splitlines()]
    print(f"== {script} (exit {done.returncode})", *lines, sep="\n")

# %% [markdown] tags=["lang:en"]
# ## Exercise (5 points)
# Write `classify(path, om)`: the whole flow in raw pyACL for one image, in this kernel's initialised process —
# device, context, load, desc, datasets, copy in (use `preprocess` from section 5; copy kinds by the run mode, as in
# section 2), execute, copy out, top-5 — and release everything, ending with `reset_device`. No `acl.init` and no
# `acl.finalize` inside: a function that finalizes would end the process's pyACL on CANN ≤ 8.0. Return the five
# best classes, best first. The checker compares them with the step API's answer for the same photo and requires
# an empty ledger afterwards, with nothing reclaimed by `reset_device`.
# See the rubric in docs/instructor.md for the capstone's manually graded part.

# %% [markdown] tags=["lang:zh"]
# ## 练习（5 分）
# 编写 `classify(path, om)`：在本内核已初始化的进程中，用原始 pyACL 对一张图片完成整个流程——Device、Context、加载、模型描述、数据集、
# 复制进去（用第 5 部分的 `preprocess`；复制方向按第 2 部分的运行模式选择）、执行、复制出来、top-5——并释放一切，最后 `reset_device`。函数里
# 不要 `acl.init`，也不要 `acl.finalize`：在 CANN 8.0 及以前，函数里的 finalize 会让整个进程的 pyACL 无法再用。返回得分最高的五个类别，
# 从高到低。检查器把它们与分步 API 对同一张照片的结果比较，并要求之后台账为空、没有任何资源由 `reset_device` 回收。综合练习的人工评分部分见 docs/instructor_zh.md 中的评分标准。

# %% tags=["solution", "grade_id:nb13-classify"]
def classify(path, om):
    """One image through the whole raw pyACL flow (the process is initialised); returns the top-5 class indices."""
    ### BEGIN SOLUTION
    check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
    context, ret = acl.rt.create_context(DEVICE_ID)
    check_ret("acl.rt.create_context", ret)
    model_id, ret = acl.mdl.load_from_file(om)
    check_ret("acl.mdl.load_from_file", ret)
    desc = acl.mdl.create_desc()
    check_ret("acl.mdl.get_desc", acl.mdl.get_desc(desc, model_id))
    sets = []
    for count, size_of in ((acl.mdl.get_num_inputs, acl.mdl.get_input_size_by_index),
                           (acl.mdl.get_num_outputs, acl.mdl.get_output_size_by_index)):
        dataset, ptrs = acl.mdl.create_dataset(), []
        for i in range(count(desc)):
            size = size_of(desc, i)
            ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            _, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size))
            check_ret("acl.mdl.add_dataset_buffer", ret)
            ptrs.append((ptr, size))
        sets.append((dataset, ptrs))
    (inputs, in_ptrs), (outputs, out_ptrs) = sets
    data = preprocess(path).tobytes()
    check_ret("acl.rt.memcpy", acl.rt.memcpy(in_ptrs[0][0], in_ptrs[0][1], acl.util.bytes_to_ptr(data), len(data),
                                             to_device))
    check_ret("acl.mdl.execute", acl.mdl.execute(model_id, inputs, outputs))
    ptr, size = out_ptrs[0]
    host, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, ptr, size, to_host))
    scores = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32)
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    for dataset, ptrs in sets:
        for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
            check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i)))
        check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
        for ptr, _ in ptrs:
            check_ret("acl.rt.free", acl.rt.free(ptr))
    check_ret("acl.mdl.unload", acl.mdl.unload(model_id))
    check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(desc))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    return [int(i) for i in scores.argsort()[-1:-6:-1]]
    ### END SOLUTION

# %% tags=["grade", "points:5", "grade_id:nb13-classify-test"]
feedback = lab.check_classify(classify, IMAGES[0], MODEL_PATH)
print(feedback)
assert feedback, feedback
### BEGIN HIDDEN TESTS
feedback = lab.check_classify(classify, IMAGES[-1], MODEL_PATH)
assert feedback, feedback
### END HIDDEN TESTS

# %% [markdown] tags=["lang:en"]
# ## Summary
# * The complete program is: constants → init → Device/Context/Stream → run mode → load + desc → malloc once →
#   per image: preprocess, pointer, memcpy, datasets, execute, destroy datasets, D2H, current dims, top-5 →
#   release (unload, desc, memory, stream, context, device) → finalize, once, at the end of the process.
# * The asynchronous variant gives each in-flight image its own memory and datasets and reads each result in its
#   callback; user data is a list.
# * Every `ret` is checked; the version fallbacks (`bytes_to_ptr`/`numpy_to_ptr`, `ptr_to_bytes`/`ptr_to_numpy`) and
#   the run-mode copy kinds make the same code run on a PC with a card and on a board.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 完整的程序是：常量 → 初始化 → Device/Context/Stream → 运行模式 → 加载模型 + 模型描述 → 一次性申请内存 → 每张图片：预处理、指针、内存复制、
#   数据集、推理、销毁数据集、D2H、当前维度、top-5 → 释放（卸载模型、模型描述、内存、Stream、Context、Device）→ 去初始化（进程结束时一次）。
# * 异步版本为每张在途图片准备独立的内存和数据集，并在各自的回调函数中获取结果；用户数据是列表。
# * 检查每个 `ret`；版本兼容写法（`bytes_to_ptr`/`numpy_to_ptr`、`ptr_to_bytes`/`ptr_to_numpy`）和按运行模式选择的复制方向，让同一份代码既能在插卡
#   的 PC 上运行，也能在开发板上运行。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Why may the synchronous part reuse the same device memory for every image, while the asynchronous part may not?
# 2. Which two values does the program derive from `get_run_mode`, and what are they on an Atlas 200I DK A2?
# 3. The program destroys each image's datasets right after execute but frees the memory only at the end. Why is that
#    safe?
# 4. What would you change to run the Caffe ResNet-50 sample's model instead of the default one?
#
# **Next →** [14_media_dvpp](14_media_dvpp.ipynb) — pre-processing on the device: DVPP and AIPP.

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 为什么同步部分可以对每张图片重复使用同一块 Device 内存，而异步部分不行？
# 2. 程序根据 `get_run_mode` 得出哪两个值？在 Atlas 200I DK A2 上它们分别是什么？
# 3. 程序在每次推理后立即销毁该图片的数据集，却到最后才释放内存。为什么这样是安全的？
# 4. 要改为运行 Caffe 版 ResNet-50 样例的模型而不是默认模型，需要改哪些地方？
#
# **下一节 →** [14_media_dvpp](14_media_dvpp.ipynb)——在 Device 上做预处理：DVPP 与 AIPP。
