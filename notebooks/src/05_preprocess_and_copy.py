# %% [markdown] tags=["lang:en"]
# # 05 · Image → bytes → pointer → device memory (内存复制)
# **Why.** Three things surprise every newcomer here. First, the model only gives right answers if the image
# is prepared *exactly* as during training — resize, crop, channel order, scaling, data type, layout — and each
# model has its own recipe. Second, AscendCL is C: "Python data must be converted to a C pointer before
# AscendCL can use it", as a learner put it, and such a pointer does not live forever. Third, the data must
# then be *copied* into device memory with `memcpy` — host to device on a PC with a card, device to device on a
# board, synchronously or on a stream ([data transfer, run modes](https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/aclpythondevg_0010.html)).
#
# **You will be able to:** preprocess a photo for the default model and for the official ResNet-50 sample,
# turn an array into a pointer with the version fallback real code uses, copy it to the device, know which
# copy mistakes the runtime rejects and which it cannot see, and copy device to device, synchronously and
# asynchronously.

# %% [markdown] tags=["lang:zh"]
# # 05 · 图片 → 字节 → 指针 → Device 内存（内存复制）
# **为什么。** 这一步有三件事会让每个新手意外。第一，只有把图片处理得与训练时*完全一样*——缩放、裁剪、通道顺序、归一化、数据类型、
# 排布——模型才会给出正确答案，而每个模型都有自己的预处理方法。第二，AscendCL 是 C 写的：正如一位学习者所说，“Python 数据需要转换为
# C 指针才可以被 AscendCL 执行”，而且这个指针不会一直有效。第三，数据随后必须用 `memcpy` *复制*到 Device 内存——插卡的 PC 上是
# Host 到 Device，开发板上是 Device 到 Device，可以同步复制，也可以在 Stream 上异步复制（[数据传输与运行模式](https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/aclpythondevg_0010.html)）。
#
# **学完本节你将能够：** 分别按默认模型和官方 ResNet-50 样例的要求预处理照片，用真实代码使用的版本兼容写法把数组变成指针，把它复制到
# Device，分清运行时会拒绝哪些内存复制错误、又有哪些它根本看不见，并完成同步和异步的 Device 到 Device 内存复制。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import numpy as np
from acl_teach.lab import check_ret

# %% [markdown] tags=["lang:en"]
# ## Two preprocessing recipes side by side
# **EfficientNet-Lite0** (the default model): resize the short side to 256 (bicubic), centre-crop 224 × 224,
# keep **RGB**, scale each value as `(x − 127) / 128` (about −1…1), convert to **fp16**, reorder HWC → **NCHW**
# and add the batch axis. `at.preprocess` applies the recipe the model carries.
#
# **ResNet-50, the official Caffe sample** (`transfer_pic` in `acl_net.py`): resize to 256 × 256 (aspect ratio
# not kept), centre-crop 224, flip **RGB → BGR**, convert to **fp16**, subtract the per-channel means
# **104 / 117 / 123** (B, G, R; no division), reorder to **NCHW**. Same shape and byte count — 301,056 — but
# different numbers: values around ±120 instead of ±1, channels in the other order. Feed a model the other one's
# preprocessing and it still runs, and classifies worse.

# %% [markdown] tags=["lang:zh"]
# ## 两种预处理方法对照
# **EfficientNet-Lite0**（默认模型）：把短边缩放到 256（双三次插值），居中裁剪 224 × 224，保持 **RGB**，每个值按 `(x − 127) / 128`
# 缩放（约为 −1…1），转为 **fp16**，把 HWC 调整为 **NCHW** 并加上 batch 维。`at.preprocess` 使用模型自带的预处理配方。
#
# **ResNet-50 官方 Caffe 样例**（`acl_net.py` 中的 `transfer_pic`）：缩放到 256 × 256（不保持宽高比），居中裁剪 224，**RGB → BGR**，
# 转为 **fp16**，减去各通道均值 **104 / 117 / 123**（B、G、R；不做除法），调整为 **NCHW**。形状和字节数相同——301,056——但数值不同：
# 取值在 ±120 左右而不是 ±1，通道顺序相反。把一个模型的预处理用在另一个模型上照样能运行，只是分类效果变差。

# %%
from PIL import Image

def transfer_pic(path):                                       # the ResNet-50 sample's preprocessing
    image = Image.open(path).convert("RGB").resize((256, 256))    # PIL's default resampling, as in the sample
    img = np.array(image)
    off = (256 - 224) // 2
    img = img[off:256 - off, off:256 - off, :]                # centre crop 224 x 224
    img = img[:, :, ::-1].astype("float16")                   # RGB -> BGR, fp16
    img[:, :, 0] -= 104; img[:, :, 1] -= 117; img[:, :, 2] -= 123    # B, G, R means, no std
    return np.ascontiguousarray(img.reshape([1, 224, 224, 3]).transpose([0, 3, 1, 2]))   # NHWC -> NCHW

photo = at.models.image("chelsea.png")
x = at.preprocess(photo, dims=(1, 3, 224, 224), dtype=np.float16)     # EfficientNet-Lite recipe
caffe = transfer_pic(photo)
for name, a in (("EfficientNet-Lite", x), ("ResNet-50 sample", caffe)):
    print(f"{name:18s} {a.dtype} {list(a.shape)} {a.nbytes} bytes  min {float(a.min()):8.3f}  max {float(a.max()):8.3f}")

# %% [markdown] tags=["lang:en"]
# ## What the model receives
# The photo before and after each recipe. To draw a tensor you undo the recipe: EfficientNet-Lite's input times
# 128 plus 127; the sample's plus its means, and its channels flipped back from BGR to RGB. Both are the centre
# 224 × 224 of the photo — the sample's squashed first, since it resizes to 256 × 256 without keeping the
# aspect ratio; the EfficientNet-Lite crop keeps the proportions, so it cuts more from the sides.

# %% [markdown] tags=["lang:zh"]
# ## 模型实际收到的是什么
# 下面是照片本身，以及经过两种预处理之后的样子。要把张量画出来，就把预处理反过来做：EfficientNet-Lite 的输入乘以 128 再加 127；
# 样例的输入加回各通道均值，再把通道从 BGR 翻回 RGB。两者都是照片中央的 224 × 224——样例先把照片缩放成 256 × 256，不保持宽高比，
# 所以画面被压扁；EfficientNet-Lite 保持宽高比缩放，所以两侧裁掉得更多。

# %%
from acl_teach.widgets import plots

def to_pixels(hwc):
    """A float HWC array back to 8-bit pixels, only to draw it."""
    return np.clip(np.rint(hwc), 0, 255).astype(np.uint8)

original = Image.open(photo).convert("RGB")
lite_pixels = to_pixels(x[0].transpose(1, 2, 0).astype(np.float32) * 128 + 127)    # undo (x - 127) / 128
caffe_pixels = to_pixels(caffe[0].transpose(1, 2, 0).astype(np.float32) + [104, 117, 123])   # add the means back
caffe_pixels = caffe_pixels[:, :, ::-1]                                         # BGR -> RGB, to draw it
plots.pictures([
    (np.asarray(original), f"original: {original.width} × {original.height}, uint8 RGB"),
    (lite_pixels, f"EfficientNet-Lite input: {list(x.shape)} {x.dtype}\nRGB, (x − 127) / 128, shown undone"),
    (caffe_pixels, f"ResNet-50 sample input: {list(caffe.shape)} {caffe.dtype}\nBGR − means, shown undone as RGB"),
])

# %% [markdown] tags=["lang:en"]
# The three channels of each tensor, in the order the model reads them — channel 0 first in memory — with each
# channel's value range. EfficientNet-Lite gets R, G, B in about −1…1; the sample gets B, G, R as pixel minus
# mean, so never below −123 or above +151.
# The cat's red-brown fur is bright in R and dark in B: in the sample's row it moves from the first picture to the
# last. This order is all that tells the model which channel is which, so a swapped order is silently wrong.

# %% [markdown] tags=["lang:zh"]
# 下面是每个张量的三个通道，按模型读取的顺序排列（内存中通道 0 在前），并标出每个通道的取值范围。EfficientNet-Lite 收到的是
# R、G、B，取值约为 −1…1；样例收到的是 B、G、R，即像素值减去均值，所以不会低于 −123，也不会高于 +151。猫的红棕色皮毛在 R 通道中亮、在 B 通道中暗：在样例那一行里，
# 它从第一张图移到了最后一张。模型只能靠这个顺序分辨通道，所以顺序弄反不会报错，只会悄悄地出错。

# %%
plots.channels([("EfficientNet-Lite", x[0], ["R", "G", "B"]),
                ("ResNet-50 sample", caffe[0], ["B", "G", "R"])])

# %% [markdown] tags=["lang:en"]
# ## Python bytes → C pointer (指针), with the version fallback
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) returns the address of the buffer *inside* a `bytes`
# object — no copy. The pointer is valid only while that object lives, so keep it in a variable until the copy
# that reads it has finished. Older CANN versions lack `bytes_to_ptr`; the samples test for it and fall back to
# [`acl.util.numpy_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/runtimeapi/aclpythondevg_01_0052.html), a pointer into the numpy array itself (deprecated now,
# and it warns — the cell catches the warning and prints it). In the other direction
# [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html) *copies* memory into a new `bytes` object. The same
# fallback exists for reading: `ptr_to_bytes` if present, else [`acl.util.ptr_to_numpy`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0054.html).

# %% [markdown] tags=["lang:zh"]
# ## Python 字节 → C 指针，以及版本兼容写法
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) 返回 `bytes` 对象*内部*缓冲区的地址——不复制。这个指针只在该对象存活期间有效，
# 所以要把对象保存在变量里，直到读取它的内存复制完成。较老的 CANN 版本没有 `bytes_to_ptr`；样例会先检测它，没有时退回
# [`acl.util.numpy_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/runtimeapi/aclpythondevg_01_0052.html)，得到指向 numpy 数组本身的指针（现已废弃，会给出警告——下面的单元格捕获并打印这条警告）。反方向，[`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html) 把内存*复制*到一个新的 `bytes` 对象。读取方向也有同样的
# 兼容写法：有 `ptr_to_bytes` 就用它，否则用 [`acl.util.ptr_to_numpy`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0054.html)。

# %%
if "bytes_to_ptr" in dir(acl.util):        # CANN versions that have it
    host_bytes = x.tobytes()               # keep this object alive while the pointer is in use
    ptr = acl.util.bytes_to_ptr(host_bytes)
else:                                      # older versions: a pointer into the array itself
    ptr = acl.util.numpy_to_ptr(x)
size = x.nbytes
print("first 8 bytes read back:", acl.util.ptr_to_bytes(ptr, 8) == x.tobytes()[:8])
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("numpy_to_ptr points into the array:", acl.util.numpy_to_ptr(x) == x.ctypes.data)
print("pyACL warns:", caught[0].message if caught else "(nothing)")

# %% [markdown] tags=["lang:en"]
# ## Host → device: `memcpy`
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)`(dst, dst_max, src, count, kind)` copies `count` bytes; `dst_max` is the
# size of the destination, so the runtime can refuse a copy that would run past it. The kinds are
# `ACL_MEMCPY_HOST_TO_HOST = 0`, `HOST_TO_DEVICE = 1`, `DEVICE_TO_HOST = 2`, `DEVICE_TO_DEVICE = 3`. Below: the
# usual start ([`acl.init`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html), [`acl.rt.set_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0061.html),
# [`acl.rt.create_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0075.html)), device memory from [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html),
# and the `BufferView` before and after the copy.
#
# *simulator:* "before" shows the simulator's 0xCD fill pattern; on hardware fresh memory holds undefined bytes.

# %% [markdown] tags=["lang:zh"]
# ## Host → Device：`memcpy`
# [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)`(dst, dst_max, src, count, kind)` 复制 `count` 个字节；`dst_max` 是目的内存的大小，运行时据此拒绝
# 越界的复制。复制方向 kind 的取值：`ACL_MEMCPY_HOST_TO_HOST = 0`、`HOST_TO_DEVICE = 1`、`DEVICE_TO_HOST = 2`、`DEVICE_TO_DEVICE = 3`。
# 下面先做常规的开头（[`acl.init`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html)、[`acl.rt.set_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0058.html)、[`acl.rt.create_context`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/context/function-create_context.md)），
# 用 [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html) 申请 Device 内存，并在复制前后查看 `BufferView`。
#
# *模拟器：* “before”一行显示的是模拟器的 0xCD 填充图案；在硬件上，新内存中是未定义的字节。

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
dev_ptr, ret = acl.rt.malloc(size, 0)
check_ret("acl.rt.malloc", ret)
from acl_teach.widgets import BufferView
view = BufferView(dev_ptr, size, dtype="float16", shape=[1, 3, 224, 224])
print("before:", view.hex_lines[0])
check_ret("acl.rt.memcpy", acl.rt.memcpy(dev_ptr, size, ptr, size, 1))     # 1 = ACL_MEMCPY_HOST_TO_DEVICE
view.refresh()
print("after: ", view.hex_lines[0])
view

# %% [markdown] tags=["lang:en"]
# ## The direction comes from the pointers
# The official `aclrtMemcpy` pages describe `kind` as a *reserved* parameter: the runtime works the direction out
# from where the two pointers live. So on a board a "wrong" kind is **not** reliably rejected — the copy
# simply goes where the pointers say, and your code now lies about what it does. Write the kind that matches
# (acllite derives it from the run mode), and read `ret` anyway.
#
# *simulator:* it accepts the call like the runtime, copies by the pointers, and records a warning (printed
# below; with explanations on, `lab.setup(quiet=False)`, also on stderr). `sim.configure(strict=True)` turns
# such warnings into refusals for a teaching moment.

# %% [markdown] tags=["lang:zh"]
# ## 复制方向由指针决定
# 官方 `aclrtMemcpy` 文档把 `kind` 描述为*预留*参数：运行时根据两个指针所在的位置自行判断方向。所以在开发板上，“写错”的 kind
# **不一定**会被拒绝——复制照指针的实际位置进行，而你的代码从此描述的与实际不符。请写与实际相符的方向（acllite 根据运行模式决定），
# 并照样检查 `ret`。
#
# *模拟器：* 它像运行时一样接受这个调用，按指针位置复制，并记录一条警告（下面打印出来；打开解释 `lab.setup(quiet=False)` 时也会输出到
# stderr）。`sim.configure(strict=True)` 可以把这类警告变成拒绝，用于教学。

# %%
ret = acl.rt.memcpy(dev_ptr, size, ptr, size, 2)      # says DEVICE_TO_HOST, but the source is host memory
print("memcpy with the wrong kind ->", ret)
if lab.on_simulator():
    from acl_teach import sim
    print("simulator warning:", sim.warnings()[-1].message.split(". ")[0] + ".")

# %% [markdown] tags=["lang:en"]
# ## A mistake the runtime rejects: count > dst_max
# Asking for more bytes than the destination holds is refused before anything is copied: **107000**
# ACL_ERROR_RT_PARAM_INVALID (the runtime's parameter check). A `count` of 0 is a no-op that succeeds.

# %% [markdown] tags=["lang:zh"]
# ## 运行时会拒绝的错误：count > dst_max
# 要复制的字节数超过目的内存的大小时，运行时在复制之前就拒绝：**107000** ACL_ERROR_RT_PARAM_INVALID（运行时的参数检查）。
# `count` 为 0 时什么也不做，返回成功。

# %%
print(acl.rt.memcpy(dev_ptr, size // 2, ptr, size, 1), "<- count > dst_max")
print(acl.rt.memcpy(dev_ptr, size, ptr, 0, 1), "<- count 0")

# %% [markdown] tags=["lang:en"]
# ## A mistake a board cannot see: a dangling pointer
# `acl.util.bytes_to_ptr(x.tobytes())` takes the address of a temporary `bytes` object that Python frees as soon
# as the line ends. The integer stays; the memory behind it is freed. **On a board nothing checks this**: the copy
# returns 0 and reads freed memory — undefined behaviour: usually the old bytes are still there, but memory the
# process reuses in between turns into garbage in your input, or a crash. This is the "pointers do not persist"
# trap the learner describes.
#
# *simulator:* it accepts the copy as a board does (0), keeps the dead object so the copy gets the bytes it held,
# and warns once per object — so the program behaves like its usual run on a board, and you still hear about it.

# %% [markdown] tags=["lang:zh"]
# ## 开发板看不见的错误：悬空指针
# `acl.util.bytes_to_ptr(x.tobytes())` 取的是一个临时 `bytes` 对象的地址，这一行结束时 Python 就释放了它。整数还在，它背后的内存
# 已被释放。**在开发板上没有任何检查**：内存复制返回 0，读取的是已释放的内存——这是未定义行为：通常旧的字节还在，但如果进程在此期间
# 重用了这块内存，输入里就会混进垃圾数据，甚至程序崩溃。这正是那位学习者所说的“指针不能一直保持”的陷阱。
#
# *模拟器：* 它像开发板一样接受这次复制（返回 0），保留已失效的对象，让复制得到它原来的字节，并对每个对象警告一次——程序的表现与它在
# 开发板上通常的运行一致，你也会得到提醒。

# %%
dangling = acl.util.bytes_to_ptr(x.tobytes())   # the temporary bytes object dies right away
ret = acl.rt.memcpy(dev_ptr, size, dangling, size, 1)
print("dangling pointer ->", ret, "| a board does not check it either: it reads freed memory")
if lab.on_simulator():
    note = sim.warnings()[-1].message
    print("simulator warning: the pointer", note[note.index("came from"):].split(". ")[0] + ".")

# %% [markdown] tags=["lang:en"]
# ## Device → device, synchronous and asynchronous
# On a board (ACL_DEVICE) there is no host side: a model's input is filled by a **device-to-device** copy, or
# by no copy at all when the data already sits in device memory. It is also how you keep data whose `bytes`
# object will not live: copy it into device memory you own. [`acl.rt.memcpy_async`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0125.html)
# takes one more argument, a stream made by [`acl.rt.create_stream`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html): it only *queues* the copy. Unlike `memcpy`,
# whose `kind` the pages call reserved, `memcpy_async`'s `kind` is a real parameter — write the true direction — and
# on a PC with a card (EP) a host-to-host async copy is not supported; the copy
# is done when [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) returns (the official page
# asks for 64-byte-aligned addresses, and with host memory that is not page-locked — not from
# [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) — the call returns only once the copy is done). Reading device memory back from the host takes one more
# copy, device → host, into host memory ([`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md) releases it).

# %% [markdown] tags=["lang:zh"]
# ## Device → Device，同步与异步
# 在开发板上（ACL_DEVICE）没有 Host 一侧：模型输入用 **Device 到 Device** 的内存复制填充，数据本来就在 Device 内存中时甚至不用复制。
# 想保住一份其 `bytes` 对象活不长的数据，也是这样做：把它复制到你自己拥有的 Device 内存中。[`acl.rt.memcpy_async`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha001/API/appdevgapi/aclpythondevg_01_0121.html)
# 多一个参数，即由 [`acl.rt.create_stream`](https://hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/aadgp/aclpythondevg_01_0074.html) 创建的 Stream：它只是把复制任务*放入队列*。与 `memcpy`（页面称其 `kind` 为预留参数）不同，`memcpy_async` 的 `kind` 是真正起作用的参数——要写真实的方向；在插卡的 PC（EP）上不支持 Host 到 Host 的异步复制。复制在
# [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) 返回时才算完成（官方文档要求地址 64 字节对齐；若 Host 内存不是锁页内存——不是由
# [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html) 申请的——该接口要等复制完成才返回）。要在 Host 上读回 Device 内存，还需要再做一次 Device → Host 的复制，
# 复制到 Host 内存中（用 [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md) 释放）。

# %%
copy_ptr, ret = acl.rt.malloc(size, 0)
check_ret("acl.rt.malloc", ret)
check_ret("acl.rt.memcpy", acl.rt.memcpy(copy_ptr, size, dev_ptr, size, 3))    # 3 = ACL_MEMCPY_DEVICE_TO_DEVICE
stream, ret = acl.rt.create_stream()
check_ret("acl.rt.create_stream", ret)
check_ret("acl.rt.memcpy_async", acl.rt.memcpy_async(copy_ptr, size, dev_ptr, size, 3, stream))  # queued
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))                       # done now
host_ptr, ret = acl.rt.malloc_host(size)
check_ret("acl.rt.malloc_host", ret)
check_ret("acl.rt.memcpy", acl.rt.memcpy(host_ptr, size, copy_ptr, size, 2))   # 2 = ACL_MEMCPY_DEVICE_TO_HOST
print("device copy equals the image:", acl.util.ptr_to_bytes(host_ptr, size) == host_bytes)

# %% [markdown] tags=["lang:en"]
# Release what this part made — [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md), [`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html),
# [`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html):

# %% [markdown] tags=["lang:zh"]
# 释放这一部分创建的资源——[`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)、[`acl.rt.free`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0115.html)、[`acl.rt.destroy_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0081.html)：

# %%
check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
check_ret("acl.rt.free", acl.rt.free(copy_ptr))
check_ret("acl.rt.free", acl.rt.free(dev_ptr))
check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))

# %% [markdown] tags=["lang:en"]
# ## The step API: `copy_to_device` checks dtype and size against the desc first
# It refuses an array whose data type or byte size does not match the input before any copy, keeps the `bytes`
# object alive for the copy, and uses the kind that matches the run mode.

# %% [markdown] tags=["lang:zh"]
# ## 分步 API：`copy_to_device` 先按模型描述检查数据类型和大小
# 数据类型或字节大小与输入不符时，它在复制之前就拒绝；复制期间它保证 `bytes` 对象存活，并使用与运行模式相符的复制方向。

# %%
d = at.query_desc(at.load_model(at.models.default_om()))
inputs = at.build_dataset(d, "input")
try:
    at.copy_to_device(x.astype(np.float32), inputs, 0, desc=d)
except ValueError as e:
    print(e)
print(at.copy_to_device(x, inputs, 0, desc=d))

# %% [markdown] tags=["lang:en"]
# ## Exercise (2 + 2 points)
# 1. Write `preprocess(path)` for the default model, by hand with PIL and NumPy: the EfficientNet-Lite recipe above
#    (short side to 256 bicubic, centre crop 224, RGB, `(x − 127) / 128`, fp16, NCHW with the batch axis). The
#    checker compares your array with the recipe's own preprocessing of the same photo, within a tolerance.
# 2. Write `copy_in(array, dataset)`: copy the array into the device memory of the dataset's buffer 0 with
#    `acl.rt.memcpy` (host to device) and return the `ret`; the buffer is [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md)`(dataset, 0)`,
#    its address [`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md)`(buffer)`. The checker reads the bytes back from the device.

# %% [markdown] tags=["lang:zh"]
# ## 练习（2 + 2 分）
# 1. 用 PIL 和 NumPy 手写默认模型的 `preprocess(path)`：上面的 EfficientNet-Lite 配方（短边双三次缩放到 256，居中裁剪 224，RGB，
#    `(x − 127) / 128`，fp16，NCHW 并带 batch 维）。检查器把你的数组与该配方对同一张照片的预处理结果比较，允许一定误差。
# 2. 编写 `copy_in(array, dataset)`：用 `acl.rt.memcpy`（Host 到 Device）把数组复制到数据集缓冲 0 的 Device 内存中，返回 `ret`；
#    缓冲是 [`acl.mdl.get_dataset_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-get_dataset_buffer.md)`(dataset, 0)`，它的地址是 [`acl.get_data_buffer_addr`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/datatypes/function-get_data_buffer_addr.md)`(buffer)`。
#    检查器会从 Device 上把字节读回来。

# %% tags=["solution", "grade_id:nb05-preprocess"]
def preprocess(path):
    """The EfficientNet-Lite recipe by hand: an fp16 [1, 3, 224, 224] array."""
    ### BEGIN SOLUTION
    img = Image.open(path).convert("RGB")
    scale = 256 / min(img.size)
    img = img.resize((max(224, round(img.width * scale)), max(224, round(img.height * scale))), Image.BICUBIC)
    left, top = (img.width - 224) // 2, (img.height - 224) // 2
    pixels = np.asarray(img.crop((left, top, left + 224, top + 224)), np.float32)
    pixels = (pixels - 127) / 128
    return np.ascontiguousarray(pixels.transpose(2, 0, 1)[np.newaxis].astype(np.float16))
    ### END SOLUTION

# %% tags=["grade", "points:2", "grade_id:nb05-preprocess-test"]
feedback = lab.check_input_array(preprocess, d, at.models.image("rocket.jpg"))
print(feedback)
assert feedback, feedback

# %% tags=["solution", "grade_id:nb05-copy-in"]
def copy_in(array, dataset):
    """Host array -> the device memory behind the dataset's buffer 0; returns the memcpy's ret."""
    ### BEGIN SOLUTION
    buf = acl.mdl.get_dataset_buffer(dataset.dataset, 0)
    data = array.tobytes()                  # keep the bytes alive while the pointer is in use
    return acl.rt.memcpy(acl.get_data_buffer_addr(buf), len(data), acl.util.bytes_to_ptr(data), len(data), 1)
    ### END SOLUTION

# %% tags=["grade", "points:2", "grade_id:nb05-copy-in-test"]
feedback = lab.check_device_input(copy_in, inputs, d, at.models.image("rocket.jpg"))
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# Release: the step API's records, then [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md), [`acl.mdl.unload`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0157.html),
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html), [`acl.rt.reset_device`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0063.html);
# [`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) runs once, when the kernel exits.

# %% [markdown] tags=["lang:zh"]
# 释放：先是分步 API 的记录，然后 [`acl.mdl.destroy_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_desc.md)、[`acl.mdl.unload`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-unload.md)、
# [`acl.rt.destroy_context`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0073.html)、[`acl.rt.reset_device`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0060.html)；[`acl.finalize`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0006.html) 在内核退出时执行一次。

# %%
at.release_dataset(inputs)
check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(d.model_desc))
check_ret("acl.mdl.unload", acl.mdl.unload(d.model_id))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(0))

# %% [markdown] tags=["lang:en"]
# ## Summary
# * Preprocess exactly as the model was trained: EfficientNet-Lite (RGB, (x−127)/128) and the Caffe ResNet-50
#   (BGR, minus 104/117/123) give the same byte count and different numbers.
# * `bytes_to_ptr` (fallback `numpy_to_ptr`) is zero-copy and valid only while the object lives; a dangling
#   pointer is invisible to a board.
# * `memcpy(dst, dst_max, src, count, kind)`: the runtime refuses count > dst_max; the direction comes from the
#   pointers, so write the kind that is true. D2D and `memcpy_async` + `synchronize_stream` complete the set.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * 严格按训练时的方式预处理：EfficientNet-Lite（RGB，(x−127)/128）与 Caffe 版 ResNet-50（BGR，减去 104/117/123）字节数相同，数值不同。
# * `bytes_to_ptr`（兼容写法 `numpy_to_ptr`）不复制数据，只在对象存活期间有效；开发板看不见悬空指针。
# * `memcpy(dst, dst_max, src, count, kind)`：运行时拒绝 count > dst_max；复制方向由指针决定，所以要写与实际相符的 kind。
#   D2D 复制和 `memcpy_async` + `synchronize_stream` 补全了内存复制的全部用法。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. Both recipes produce 301,056 bytes. Name two differences between them.
# 2. Why is `ptr = acl.util.bytes_to_ptr(img.tobytes())` on one line a bug, and what does a board do with it?
# 3. You pass `ACL_MEMCPY_DEVICE_TO_HOST` for a host → device copy on a board. What happens, and what should
#    the code say instead?
# 4. When is the destination of `memcpy_async` safe to read?
#
# **Next →** [06_execute](06_execute.ipynb)

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 两种预处理都得到 301,056 字节。说出它们的两点不同。
# 2. 为什么一行写成 `ptr = acl.util.bytes_to_ptr(img.tobytes())` 是错误的？开发板会怎样处理它？
# 3. 在开发板上做 Host → Device 复制时你传了 `ACL_MEMCPY_DEVICE_TO_HOST`。会发生什么？代码应该怎么写？
# 4. `memcpy_async` 的目的内存什么时候才可以安全读取？
#
# **下一节 →** [06_execute](06_execute.ipynb)

# %%
print(lab.ledger_summary())
