# %% [markdown] tags=["lang:en"]
# # 14 · Media data processing: DVPP decode/resize and AIPP (媒体数据处理)
# **Why.** So far every photo reached the model through numpy on the host: decode, resize, normalise, copy.
# The guide's call flow names the case this notebook is about: "if the model's required width and height differ
# from the source image, media data processing is needed to crop the source image to what the model requires"
# ([the pyACL call flow for the Atlas 200I DK A2](https://www.hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/tmuacop/tmuacop_0001.html)). On an Ascend board that work has its own hardware,
# **DVPP** (the digital vision pre-processing unit), reached through `acl.media`: **JPEGD** decodes JPEG, **VPC**
# resizes, crops and pastes. DVPP is fast, but it is strict about memory: it works on its own memory, on YUV
# pictures whose rows and columns are padded to **alignment strides**. Most DVPP bugs are alignment bugs, and
# they are invisible in the code — so this notebook prints every stride and *draws* the padding. At the end,
# **AIPP** (compiled into the model by ATC) turns the DVPP output into the model's input on the AI Core, so the
# whole pre-processing never leaves the device.
#
# **You will be able to:** allocate DVPP memory with `dvpp_malloc` and say why its rules differ from
# `acl.rt.malloc`; decode a JPEG into YUV420SP (NV12) with the right width/height strides and buffer size; read
# the padding in a decoded picture; resize to 224 × 224 with VPC; crop with the even/odd coordinate rule and
# recognise the error when it is broken; convert NV12 to NV21 with VPC; encode a decoded picture back to JPEG with
# JPEGE; convert a model with `--insert_op_conf` and classify the DVPP output end to end; release every media object.

# %% [markdown] tags=["lang:zh"]
# # 14 · 媒体数据处理：DVPP 图片解码/缩放与 AIPP
# **为什么。** 到目前为止，每张照片都是在 Host 上用 numpy 处理后才送进模型的：解码、缩放、归一化、复制。指南的接口调用流程专门
# 说到本节要讲的情形：“如果模型对输入图片的宽高要求与用户提供的源图不一致，则需要媒体数据处理，将源图裁剪成符合模型的要求”
# （[Atlas 200I DK A2 的 pyACL 接口调用流程](https://www.hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/tmuacop/tmuacop_0001.html)）。在昇腾开发板上，这项工作由专门的硬件 **DVPP**（数字视觉预处理）完成，
# 通过 `acl.media` 调用：**JPEGD** 负责图片解码，**VPC** 负责缩放、抠图和贴图。DVPP 很快，但对内存要求严格：它只使用自己的内存，
# 处理的是 YUV 图片，图片的行和列要补齐到**对齐后的宽/高 stride**。DVPP 的大多数问题都是对齐问题，而且在代码里看不出来——所以本节
# 会打印每个 stride，并把补齐区域*画出来*。最后，**AIPP**（由 ATC 编译进模型）在 AI Core 上把 DVPP 的输出变成模型的输入，
# 整个预处理都不离开 Device。
#
# **学完本节你将能够：** 用 `dvpp_malloc` 申请 DVPP 内存，并说明它的规则为何不同于 `acl.rt.malloc`；把 JPEG 解码为 YUV420SP（NV12），
# 给出正确的宽/高 stride 和缓冲大小；看懂解码图片中的补齐区域；用 VPC 缩放到 224 × 224；按奇偶坐标规则抠图，并认出违反规则时的错误；
# 用 VPC 把 NV12 转换为 NV21；用 JPEGE 把解码后的图片重新编码为 JPEG；用 `--insert_op_conf` 转换模型，把 DVPP 的输出端到端地分类；
# 释放所有媒体对象。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import io
import numpy as np
from PIL import Image
from IPython.display import display
from acl_teach.lab import check_ret
from acl_teach.widgets import YuvView
media = acl.media          # pyACL's media data processing module (acl.media.dvpp_*)

# %% [markdown] tags=["lang:en"]
# ## A JPEG to decode
# JPEGD decodes JPEG files, so the next cell turns the shipped photo `coffee.png` into JPEG bytes with Pillow —
# the bytes a camera or a file would give you. It also shrinks the photo from 600 × 400 to **600 × 390**, so that
# neither side is a multiple of the alignment DVPP needs and both kinds of padding show up below.
# [`acl.media.dvpp_jpeg_get_image_info`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0324.html) reads the width, height and colour components from the JPEG
# header on the host, before any device work. The usual start follows: `at.init()` and `at.request_resources(0)`
# (device, context, stream — notebook 01), because every DVPP call is queued on a stream.

# %% [markdown] tags=["lang:zh"]
# ## 一张待解码的 JPEG
# JPEGD 解码的是 JPEG 文件，所以下一个单元格用 Pillow 把自带的照片 `coffee.png` 转成 JPEG 字节——就像相机或文件给你的那样。
# 同时把照片从 600 × 400 缩小到 **600 × 390**，使宽和高都不是 DVPP 所需对齐值的倍数，下面两种补齐区域就都能看到。
# [`acl.media.dvpp_jpeg_get_image_info`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0324.html) 在 Host 上从 JPEG 文件头读出宽、高和颜色分量数，不需要任何 Device 操作。
# 接着是常规的开头：`at.init()` 和 `at.request_resources(0)`（Device、Context、Stream——见第 01 节），因为每个 DVPP 调用都要下发到 Stream 上。

# %%
photo = Image.open(at.models.image("coffee.png")).convert("RGB").resize((600, 390))
buf = io.BytesIO()
photo.save(buf, "JPEG", quality=95)
jpeg = buf.getvalue()                       # keep this object alive while its pointer is in use
import atexit
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
width, height, components, ret = media.dvpp_jpeg_get_image_info(acl.util.bytes_to_ptr(jpeg), len(jpeg))
check_ret("acl.media.dvpp_jpeg_get_image_info", ret)
print(f"JPEG: {len(jpeg)} bytes, {width} x {height}, {components} components")

# %% [markdown] tags=["lang:en"]
# ## DVPP memory: `dvpp_malloc`
# DVPP reads and writes only memory from [`acl.media.dvpp_malloc`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/850/API/appdevgapi/aclpythondevg_01_0223.html), which returns `(ptr, ret)`; its
# page says why the rules differ from `acl.rt.malloc`: the start address is **128-byte aligned**, and the
# runtime rounds the size up to a multiple of 32 and **adds 32 bytes** internally (invisible to you). So if you
# carve one big DVPP block into pieces yourself, each piece needs `ALIGN_UP(len, 32) + 32` bytes and a
# 128-aligned start. The picture data pointer of a pic desc "must be the memory requested using acldvppMalloc";
# it is freed with `acl.media.dvpp_free`, never `acl.rt.free`. DVPP memory is still device memory: copy into it
# with [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html)
# (host pointer from [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html)),
# and a model can read it directly. Both JPEGD's input (the JPEG bytes) and its output live there.
# The copy kind depends on where the code runs, so the cell asks [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html) (notebook 01): 0 (ACL_DEVICE, on
# the board) copies DEVICE_TO_DEVICE (3), 1 (ACL_HOST, a PC with a card) HOST_TO_DEVICE (1) and DEVICE_TO_HOST (2).
#
# *simulator:* `acl.rt.free` of a DVPP pointer frees it with a warning (the wrong allocator; the vpc samples do
# it); on a board the outcome is not documented (UNCONFIRMED) — use `dvpp_free`.

# %% [markdown] tags=["lang:zh"]
# ## DVPP 内存：`dvpp_malloc`
# DVPP 只读写由 [`acl.media.dvpp_malloc`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/850/API/appdevgapi/aclpythondevg_01_0223.html) 申请的内存，它返回 `(ptr, ret)`；该接口的文档说明了它的规则为何不同于
# `acl.rt.malloc`：起始地址 **128 字节对齐**，运行时在内部把大小向上对齐到 32 的倍数并**再加 32 字节**（调用者看不到）。所以如果你自己
# 把一大块 DVPP 内存切成几份，每一份都需要 `ALIGN_UP(len, 32) + 32` 字节，并且起始地址 128 字节对齐。图片描述中的图片数据指针
# “必须是用 acldvppMalloc 申请的内存”；它要用 `acl.media.dvpp_free` 释放，绝不能用 `acl.rt.free`。DVPP 内存仍然是 Device 内存：
# 用 [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) 向其中复制数据（Host 指针来自
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html)），模型也可以直接读取它。JPEGD 的输入（JPEG 字节）和输出都放在这种内存里。
# 复制方向取决于代码在哪里运行，所以单元格调用 [`acl.rt.get_run_mode`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0062.html)（第 01 节）：0（ACL_DEVICE，在开发板上）用 DEVICE_TO_DEVICE（3），
# 1（ACL_HOST，插卡的 PC）用 HOST_TO_DEVICE（1）和 DEVICE_TO_HOST（2）。
#
# *模拟器：* 对 DVPP 指针调用 `acl.rt.free` 会释放它并给出警告（分配器不对；vpc 样例就这样做）；在开发板上，结果没有文档说明
# （UNCONFIRMED）——请用 `dvpp_free`。

# %%
jpeg_dev, ret = media.dvpp_malloc(len(jpeg))
check_ret("acl.media.dvpp_malloc", ret)
print("start address 128-byte aligned:", jpeg_dev % 128 == 0)
print("what the runtime reserves for", len(jpeg), "bytes:", (len(jpeg) + 31) // 32 * 32 + 32)
run_mode, ret = acl.rt.get_run_mode()     # 0 ACL_DEVICE: this code runs on the board; 1 ACL_HOST: a PC with a card
check_ret("acl.rt.get_run_mode", ret)
TO_DVPP, FROM_DVPP = (3, 3) if run_mode == 0 else (1, 2)   # memcpy kinds: DEVICE_TO_DEVICE, or HOST_TO/TO_HOST
check_ret("acl.rt.memcpy", acl.rt.memcpy(jpeg_dev, len(jpeg), acl.util.bytes_to_ptr(jpeg), len(jpeg), TO_DVPP))

# %% [markdown] tags=["lang:en"]
# ## Decode into YUV420SP with width/height strides (宽/高 stride)
# JPEGD writes **YUV420SP NV12** (`PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1`): a Y plane of one byte per pixel, then
# one interleaved UV plane at half resolution (U, V, U, V…). Each row of the buffer is **width stride** bytes
# long and there are **height stride** rows. For the Ascend 310, the [JPEGD constraints page](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0321.html) requires
#
# * width stride = `ALIGN_UP(width, 128)`, height stride = `ALIGN_UP(height, 16)`;
# * buffer size ≥ `width_stride × height_stride × 3 / 2` (the Y plane, plus half of it for UV);
# * the UV plane starts at offset `width_stride × height_stride`, not at `width × height`.
#
# The 310P and the 310B — the Atlas 200I DK A2's chip — use a width alignment of **64** (same page), so the cell
# reads the chip with [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) and aligns for it: the same code is right on each board. The picture is described by a **pic desc**: `dvpp_create_pic_desc`,
# then `dvpp_set_pic_desc_data / size / format / width / height / width_stride / height_stride`. A **channel**
# (`dvpp_create_channel_desc` + `dvpp_create_channel`) is the session with the DVPP hardware. Then
# [`acl.media.dvpp_jpeg_decode_async`](https://hiascend.com/document/detail/zh/canncommercial/601/inferapplicationdev/aclpythondevg/aclpythondevg_01_0295.html)`(channel, jpeg_ptr, jpeg_size, out_desc, stream)` only *queues* the
# decode: the bytes appear after [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html).
# `dvpp_jpeg_predict_dec_size` gives the same size for you to compare.

# %% [markdown] tags=["lang:zh"]
# ## 解码为带宽/高 stride 的 YUV420SP
# JPEGD 输出 **YUV420SP NV12**（`PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1`）：先是每像素一个字节的 Y 平面，然后是一个半分辨率、U 和 V 交错
# 存放的 UV 平面（U、V、U、V……）。缓冲中每一行长 **宽 stride** 个字节，共 **高 stride** 行。对昇腾 310，[JPEGD 功能及约束说明](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0321.html)
# 要求：
#
# * 宽 stride = `ALIGN_UP(width, 128)`，高 stride = `ALIGN_UP(height, 16)`；
# * 缓冲大小 ≥ `宽 stride × 高 stride × 3 / 2`（Y 平面，再加它的一半给 UV）；
# * UV 平面从偏移 `宽 stride × 高 stride` 处开始，而不是 `width × height`。
#
# 310P 和 310B——Atlas 200I DK A2 的芯片——宽对齐是 **64**（同一页面），所以单元格用 [`acl.get_soc_name`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/runtime/device/function-get_soc_name.md) 读出芯片并按它对齐：
# 同一段代码在每种开发板上都正确。图片由**图片描述**（pic desc）描述：先 `dvpp_create_pic_desc`，再 `dvpp_set_pic_desc_data / size / format / width /
# height / width_stride / height_stride`。**通道**（`dvpp_create_channel_desc` + `dvpp_create_channel`）是与 DVPP 硬件之间的会话。然后
# [`acl.media.dvpp_jpeg_decode_async`](https://hiascend.com/document/detail/zh/canncommercial/601/inferapplicationdev/aclpythondevg/aclpythondevg_01_0295.html)`(channel, jpeg_ptr, jpeg_size, out_desc, stream)` 只是把解码任务*下发*出去：要等
# [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html) 之后字节才会出现。`dvpp_jpeg_predict_dec_size` 会给出同样的大小，供你对照。

# %%
channel = media.dvpp_create_channel_desc()
check_ret("acl.media.dvpp_create_channel", media.dvpp_create_channel(channel))
NV12 = 1                                    # PIXEL_FORMAT_YUV_SEMIPLANAR_420
dvpp_blocks, pic_descs = [], []             # everything to release at the end


def align_up(value, align):
    return (value + align - 1) // align * align


def new_picture(w, h, w_stride, h_stride):
    """DVPP memory for an NV12 picture and a pic desc that describes it."""
    size = w_stride * h_stride * 3 // 2
    data, ret = media.dvpp_malloc(size)
    check_ret("acl.media.dvpp_malloc", ret)
    desc = media.dvpp_create_pic_desc()
    for setter, value in ((media.dvpp_set_pic_desc_data, data), (media.dvpp_set_pic_desc_size, size),
                          (media.dvpp_set_pic_desc_format, NV12), (media.dvpp_set_pic_desc_width, w),
                          (media.dvpp_set_pic_desc_height, h), (media.dvpp_set_pic_desc_width_stride, w_stride),
                          (media.dvpp_set_pic_desc_height_stride, h_stride)):
        check_ret(f"acl.media.{setter.__name__}", setter(desc, value))
    dvpp_blocks.append(data); pic_descs.append(desc)
    return desc, data, size


soc = acl.get_soc_name()                    # the JPEGD width alignment depends on the chip
w_align = 128 if soc.startswith("Ascend310") and soc[9:10] not in ("P", "B") else 64   # 310: 128; 310P, 310B: 64
ws, hs = align_up(width, w_align), align_up(height, 16)
decoded, decoded_dev, decoded_size = new_picture(width, height, ws, hs)
predicted, ret = media.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(jpeg), len(jpeg), NV12)
check_ret("acl.media.dvpp_jpeg_predict_dec_size", ret)
print(f"{soc}: width  {width} -> width stride  ALIGN_UP({width}, {w_align}) = {ws}  ({ws - width} padding columns)")
print(f"height {height} -> height stride ALIGN_UP({height}, 16) = {hs}  ({hs - height} padding rows)")
print(f"size = {ws} x {hs} x 3 / 2 = {decoded_size} bytes; predict_dec_size says {predicted}")
print(f"Y plane: bytes 0..{ws * hs - 1}; UV plane from byte {ws * hs} (not {width * height})")
check_ret("acl.media.dvpp_jpeg_decode_async",
          media.dvpp_jpeg_decode_async(channel, jpeg_dev, len(jpeg), decoded, res.stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))

# %% [markdown] tags=["lang:en"]
# ## Seeing the alignment
# To look at the decoded buffer, copy it back to the host: [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html),
# `acl.rt.memcpy` with kind 2 (device to host; 3, device to device, on a board in ACL_DEVICE mode), [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html) and
# [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md). Reshaped to `height_stride` rows of `width_stride` bytes, the Y plane is a grey
# picture of the photo. `YuvView` draws it from the buffer: the Y plane, the interleaved UV plane (half as many
# rows, U and V bytes alternating) and an RGB preview, with the **padding** — columns right of `width`, rows below
# `height` — tinted, and the byte arithmetic `width_stride × height_stride × 3/2` beside them. Those bytes belong to the buffer but not to the picture: whoever reads the buffer —
# VPC, AIPP, your own code — must use the strides to skip them. Reading the buffer as if it were `width × height`
# would shear every row by 40 bytes.
#
# *simulator:* JPEGD leaves the padding bytes as the buffer held them, and a fresh simulated buffer is filled
# with 0xCD (205); what the hardware writes there is not documented, so never rely on the padding's values.

# %% [markdown] tags=["lang:zh"]
# ## 看见对齐
# 要查看解码后的缓冲，先把它复制回 Host：[`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html)、kind 为 2（Device 到 Host；在开发板上以 ACL_DEVICE 模式运行时为 3，Device 到 Device）的 `acl.rt.memcpy`、
# [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html) 和 [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)。把 Y 平面重排成 `高 stride` 行、每行 `宽 stride` 字节，
# 就是这张照片的灰度图。`YuvView` 直接从缓冲画出：Y 平面、交错存放的 UV 平面（行数减半，U、V 字节交替）和 RGB 预览，
# 并把**补齐区域**——`width` 右边的列、`height` 下面的行——着色标出，旁边列出字节算式 `宽 stride × 高 stride × 3/2`。这些字节属于缓冲，但不属于图片：
# 读取缓冲的一方——VPC、AIPP 或你自己的代码——都必须按 stride 跳过它们。如果把缓冲当成 `width × height` 来读，每一行都会错开 40 个字节。
#
# *模拟器：* JPEGD 不改动补齐区域原有的字节，而模拟器新申请的缓冲填充为 0xCD（205）；硬件在那里写什么没有文档说明，所以不要依赖补齐区域的值。

# %%
def read_back(dev_ptr, size):
    """Device (or DVPP) memory -> a numpy copy on the host."""
    host, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, dev_ptr, size, FROM_DVPP))
    data = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.uint8).copy()
    check_ret("acl.rt.free_host", acl.rt.free_host(host))
    return data


nv12 = read_back(decoded_dev, decoded_size)
y = nv12[:ws * hs].reshape(hs, ws)
print("Y plane as stored:", y.shape, "| row 0, the last 2 picture bytes, then padding:", y[0, width - 2:width + 3])
print("UV plane:", nv12[ws * hs:].reshape(hs // 2, ws)[:1, :8], "(U, V, U, V, ...)")
print("wrong offset for UV:", width * height, "falls inside Y row", width * height // ws)
YuvView(decoded, name="decoded")       # the widget reads the desc with dvpp_get_pic_desc_* and the bytes

# %% [markdown] tags=["lang:en"]
# ## VPC resize to 224 × 224
# VPC (vision pre-processing core) scales with [`acl.media.dvpp_vpc_resize_async`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0297.html)`(channel, in_desc,
# out_desc, resize_config, stream)`; the resize config from `dvpp_create_resize_config` picks the interpolation.
# VPC's own rules ([VPC functions and constraints](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_01_0259.html)): input and output are NV12/NV21 in DVPP memory, width
# stride a multiple of **16** (≥ width, 32..16384), height stride a multiple of **2**, output width and height
# even, each axis scaled by 1/32 to 16. That page is the Ascend 310's: the %16 / %2 stride rule is sourced for the
# 310 only, and UNCONFIRMED for 310P/310B (*simulator:* it applies the 310's rule on every chip). For 224 × 224 the strides equal the sizes, so the output is exactly
# 224 × 224 × 3 / 2 = **75,264 bytes** with no padding — the size an AIPP model will ask for below. The input desc
# is the decode's output desc: VPC reads the picture through its strides.
#
# *simulator:* VPC scales each plane with Pillow (bilinear); the 310's own kernel is unpublished, so pixel values
# differ slightly from a board's.

# %% [markdown] tags=["lang:zh"]
# ## VPC 缩放到 224 × 224
# VPC（视觉预处理模块）用 [`acl.media.dvpp_vpc_resize_async`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0297.html)`(channel, in_desc, out_desc, resize_config, stream)` 缩放；
# `dvpp_create_resize_config` 创建的缩放配置决定插值方式。VPC 自己的规则（[VPC 功能说明](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_01_0259.html)）：输入和输出是 DVPP 内存中的 NV12/NV21，
# 宽 stride 是 **16** 的倍数（≥ 宽，范围 32..16384），高 stride 是 **2** 的倍数，输出的宽和高为偶数，每个方向的缩放比例在 1/32 到 16 之间。
# 该页面针对的是昇腾 310：stride 16 / 2 的倍数这条规则只有 310 的出处，对 310P/310B 尚未确认（UNCONFIRMED；*模拟器：* 在所有芯片上都按 310 的规则）。
# 对于 224 × 224，stride 就等于宽高，所以输出恰好是 224 × 224 × 3 / 2 = **75,264 字节**，没有补齐——下面 AIPP 模型要求的正是这个大小。
# 输入描述就是解码的输出描述：VPC 通过其中的 stride 读取图片。
#
# *模拟器：* VPC 用 Pillow 对每个平面做缩放（双线性）；310 自己的算法没有公开，所以像素值与开发板上的略有不同。

# %%
resized, resized_dev, resized_size = new_picture(224, 224, align_up(224, 16), align_up(224, 2))
resize_config = media.dvpp_create_resize_config()
check_ret("acl.media.dvpp_vpc_resize_async",
          media.dvpp_vpc_resize_async(channel, decoded, resized, resize_config, res.stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
print("resized:", resized_size, "bytes = 224 x 224 x 3 / 2")
YuvView(resized, name="resized")       # strides = sizes: nothing to tint

# %% [markdown] tags=["lang:en"]
# ## Crop (抠图) and the even/odd rule
# [`acl.media.dvpp_create_roi_config`](https://hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0309.html)`(left, right, top, bottom)` describes a region of interest with
# *inclusive* corners, and `dvpp_vpc_crop_async(channel, in_desc, out_desc, roi, stream)` cuts it out (and scales
# it to the output size). On the 310 **left and top must be even, right and bottom odd** — so a region always
# spans an even number of pixels, and the half-resolution UV plane splits cleanly; it must also lie inside the
# picture and be at least 10 × 6. The even/odd rule is sourced for the 310 (the VPC page above) and UNCONFIRMED for
# 310P/310B; *simulator:* it enforces the rule on every chip. The crop below takes the 224 × 224 region with corners (200, 100) and
# (423, 323). Then it breaks the rule with left = 201. The host library does not check ROI coordinates (it only
# stores them): here the `*_async` call returns 0 and the error appears when the device runs the task — at
# `synchronize_stream`; how a board reports it (that code, the desc's ret code, or silently wrong pixels) is
# UNCONFIRMED. The output
# desc's `dvpp_get_pic_desc_ret_code` carries the code too, and [`acl.get_recent_err_msg`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/exception/function-get_recent_err_msg.md) says what broke.
# The `ErrorExplainer` under it shows how little the code alone tells you — a generic "task failed, collect the
# logs": for device-side failures the message (and on a board the plog under `$HOME/ascend/log`) has the cause.
#
# *simulator:* the device-side failure is reported as 507018 by `synchronize_stream` and the desc's ret code;
# no public source confirms this exact code for a bad ROI — expect a non-zero value on a board.

# %% [markdown] tags=["lang:zh"]
# ## 抠图与奇偶规则
# [`acl.media.dvpp_create_roi_config`](https://hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0309.html)`(left, right, top, bottom)` 描述一个感兴趣区域（ROI），四个坐标都*包含*在区域内；
# `dvpp_vpc_crop_async(channel, in_desc, out_desc, roi, stream)` 把它抠出来（并缩放到输出大小）。在 310 上，**left 和 top 必须是偶数，right 和
# bottom 必须是奇数**——这样区域总是包含偶数个像素，半分辨率的 UV 平面也能整齐地分开；区域还必须在图片之内，且至少为 10 × 6。奇偶规则的出处是 310（上面的 VPC 页面），
# 对 310P/310B 尚未确认（UNCONFIRMED）；*模拟器：* 在所有芯片上都执行这条规则。下面先抠出
# 角点为 (200, 100) 和 (423, 323) 的 224 × 224 区域，再令 left = 201 违反规则。Host 侧的库不检查 ROI 坐标（只是保存它们）：这里 `*_async` 调用
# 返回 0，错误要等 Device 执行任务时才出现——也就是在 `synchronize_stream` 时；开发板如何报告它（这个错误码、描述的 ret code，还是悄悄
# 输出错误的像素）尚未确认（UNCONFIRMED）。输出描述的 `dvpp_get_pic_desc_ret_code` 也带有这个错误码，[`acl.get_recent_err_msg`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/exception/function-get_recent_err_msg.md)
# 说明哪里出了问题。下面的 `ErrorExplainer` 说明只看错误码能知道的很少——只是笼统的"任务失败，请收集日志"：对 Device 侧的失败，
# 原因在错误信息里（在开发板上还在 `$HOME/ascend/log` 下的 plog 里）。
#
# *模拟器：* Device 侧的失败由 `synchronize_stream` 和描述的 ret code 报告为 507018；没有公开资料确认坏 ROI 时正是这个错误码——在开发板上
# 请预期一个非 0 的值。

# %%
cropped, cropped_dev, cropped_size = new_picture(224, 224, 224, 224)
good_roi = media.dvpp_create_roi_config(200, 423, 100, 323)      # left, right, top, bottom
check_ret("acl.media.dvpp_vpc_crop_async",
          media.dvpp_vpc_crop_async(channel, decoded, cropped, good_roi, res.stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
display(YuvView(cropped, name="cropped"))

bad_roi = media.dvpp_create_roi_config(201, 424, 100, 323)       # odd left, even right: breaks the rule
queued = media.dvpp_vpc_crop_async(channel, decoded, cropped, bad_roi, res.stream)
synced = acl.rt.synchronize_stream(res.stream)
print("crop_async returned", queued, "| synchronize_stream returned", synced,
      "| desc ret code", media.dvpp_get_pic_desc_ret_code(cropped))
print(acl.get_recent_err_msg().split(" Fix:")[0])
from acl_teach.widgets import ErrorExplainer
display(ErrorExplainer(synced))
for roi in (good_roi, bad_roi):
    check_ret("acl.media.dvpp_destroy_roi_config", media.dvpp_destroy_roi_config(roi))

# %% [markdown] tags=["lang:en"]
# ## VPC as a format converter: NV12 → NV21
# **Why.** Not every consumer wants NV12. Some camera pipelines, encoders and models built for Android-style
# frames expect **NV21** (`PIXEL_FORMAT_YVU_SEMIPLANAR_420 = 2`): the same Y plane, but the interleaved chroma
# plane holds V before U. VPC converts while it resizes: the output pic desc simply names another format. The
# [VPC functions and constraints](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_01_0259.html) list NV12 and NV21 as VPC outputs on the 310 (other
# chips' lists are on their own pages: this NV12/NV21 list is sourced for the 310, UNCONFIRMED for 310P/310B,
# where the simulator uses the same list); the strides and sizes are those of NV12 — one byte of Y per pixel,
# half as much again for the chroma — so the same `ALIGN_UP(w, 16)` / `ALIGN_UP(h, 2)` rule applies.
# The cell below resizes the decoded photo a second time, into an NV21 picture of 224 × 224, and compares it
# byte for byte with the NV12 one: the Y planes must be equal, and each chroma pair swapped.

# %% [markdown] tags=["lang:zh"]
# ## VPC 做格式转换：NV12 → NV21
# **为什么。** 并不是所有下游都要 NV12。有些摄像头流水线、编码器和按安卓帧格式训练的模型需要 **NV21**（`PIXEL_FORMAT_YVU_SEMIPLANAR_420 = 2`）：
# Y 平面相同，但交错的色度平面中 V 在 U 之前。VPC 可以在缩放的同时转换格式：输出 pic desc 写上另一种格式即可。
# [VPC 功能及约束说明](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_01_0259.html)列出 310 上 VPC 的输出格式为 NV12 和 NV21
# （其他芯片的格式列表见各自的页面：这份 NV12/NV21 列表的出处是 310，对 310P/310B 尚未确认（UNCONFIRMED），
# 模拟器在那里沿用同一列表）；stride 和大小与 NV12 相同——每个像素一字节 Y，色度再加一半——所以同样适用
# `ALIGN_UP(w, 16)` / `ALIGN_UP(h, 2)` 规则。下面的单元格把解码后的照片再缩放一次，输出为 224 × 224 的 NV21 图片，并与 NV12 的结果逐字节比较：
# Y 平面必须相同，每对色度字节互换。

# %%
NV21 = 2                                    # PIXEL_FORMAT_YVU_SEMIPLANAR_420: V first in the chroma plane
as_nv21, nv21_dev, nv21_size = new_picture(224, 224, align_up(224, 16), align_up(224, 2))
check_ret("acl.media.dvpp_set_pic_desc_format", media.dvpp_set_pic_desc_format(as_nv21, NV21))
check_ret("acl.media.dvpp_vpc_resize_async",
          media.dvpp_vpc_resize_async(channel, decoded, as_nv21, resize_config, res.stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
nv12_bytes, nv21_bytes = read_back(resized_dev, resized_size), read_back(nv21_dev, nv21_size)
y_end = 224 * 224
print("format in the desc:", media.dvpp_get_pic_desc_format(as_nv21), "| size", nv21_size, "bytes, as NV12")
print("Y planes equal:", np.array_equal(nv12_bytes[:y_end], nv21_bytes[:y_end]))
print("chroma: NV12 U == NV21 second byte:", np.array_equal(nv12_bytes[y_end::2], nv21_bytes[y_end + 1::2]),
      "| NV12 V == NV21 first byte:", np.array_equal(nv12_bytes[y_end + 1::2], nv21_bytes[y_end::2]))
print("first chroma bytes, NV12:", nv12_bytes[y_end:y_end + 6].tolist(), "NV21:", nv21_bytes[y_end:y_end + 6].tolist())

# %% [markdown] tags=["lang:en"]
# ## JPEG encode (JPEGE)
# **Why.** The way back: after DVPP or a model has worked on a picture, a program often has to store or send it —
# a snapshot, a detection with its boxes drawn in. **JPEGE** encodes a YUV picture in DVPP memory into a JPEG file
# without the host. Its rules, from the [JPEGE functions and constraints](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0328.html) page: NV12 or NV21 input with
# even width and height; width stride the width aligned up to 16 (any larger multiple of 16, such as 128, is
# accepted); height stride equal to the height *or* the height aligned up to 16 — exactly what JPEGD writes, so
# **a JPEGD output can be encoded as it is**, padding and all, and the stride arithmetic above (128 on the 310, 64
# on the 310P and 310B) holds here too. Input and output buffers come from `dvpp_malloc`.
#
# The flow: `dvpp_create_jpege_config` and `dvpp_set_jpege_config_level` (quality, 0..100);
# `dvpp_jpeg_predict_enc_size(pic_desc, config)` returns `(bytes, ret)`, an upper bound for the output buffer;
# `dvpp_jpeg_encode_async(channel, pic_desc, out_ptr, size_ptr, config, stream)` takes the *address* of a host
# `uint32` that holds the buffer's capacity on the way in, and the JPEG's real byte count once the stream is
# synchronised. The cell keeps that `uint32` in `acl.rt.malloc_host` memory, fills it with a host-to-host
# `acl.rt.memcpy` (kind 0) and reads it back with `acl.util.ptr_to_bytes`; then it decodes the JPEG with Pillow on
# the host and compares it with the photo.
#
# *simulator:* JPEGE encodes with Pillow (baseline JPEG, chroma repeated 2 × 2) and `predict_enc_size` uses the
# V100 formula (picture bytes + 768, rounded up to 2 MiB); a board's byte count and pixels differ somewhat.

# %% [markdown] tags=["lang:zh"]
# ## JPEG 编码（JPEGE）
# **为什么。** 这是回程：DVPP 或模型处理完图片后，程序常常要把它保存或发送出去——一张抓拍，一张画好检测框的图。**JPEGE** 把 DVPP 内存中的
# YUV 图片编码成 JPEG 文件，不经过 Host。规则见 [JPEGE 功能及约束说明](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0328.html)：输入为 NV12 或 NV21，宽高为偶数；
# 宽 stride 为宽向上对齐到 16（也接受更大的 16 的倍数，如 128）；高 stride 等于高，*或*为高向上对齐到 16——正是 JPEGD 写出的样子，所以
# **JPEGD 的输出可以原样编码**，连同填充一起，上面的 stride 算法（310 上 128，310P 和 310B 上 64）在这里同样成立。输入、输出缓冲都来自 `dvpp_malloc`。
#
# 流程：`dvpp_create_jpege_config` 和 `dvpp_set_jpege_config_level`（质量，0..100）；`dvpp_jpeg_predict_enc_size(pic_desc, config)` 返回
# `(bytes, ret)`，即输出缓冲的上限；`dvpp_jpeg_encode_async(channel, pic_desc, out_ptr, size_ptr, config, stream)` 接收一个 Host 上 `uint32`
# 的*地址*：传入时存放缓冲容量，Stream 同步后变为 JPEG 的实际字节数。单元格把这个 `uint32` 放在 `acl.rt.malloc_host` 申请的内存里，
# 用 Host 到 Host 的 `acl.rt.memcpy`（kind 0）写入，再用 `acl.util.ptr_to_bytes` 读回；然后在 Host 上用 Pillow 解码这个 JPEG，并与原照片比较。
#
# *模拟器：* JPEGE 用 Pillow 编码（基线 JPEG，色度按 2 × 2 复制），`predict_enc_size` 使用 V100 的公式（图片字节数 + 768，向上取整到 2 MiB）；
# 开发板上的字节数和像素会有所不同。

# %%
jpege_config = media.dvpp_create_jpege_config()
check_ret("acl.media.dvpp_set_jpege_config_level", media.dvpp_set_jpege_config_level(jpege_config, 90))
print(f"encoding the JPEGD output as it is: {width} x {height}, strides {ws} x {hs} "
      f"(width stride % 16 = {ws % 16}, height stride = ALIGN_UP(height, 16): {hs == align_up(height, 16)})")
capacity, ret = media.dvpp_jpeg_predict_enc_size(decoded, jpege_config)
check_ret("acl.media.dvpp_jpeg_predict_enc_size", ret)
encoded_dev, ret = media.dvpp_malloc(capacity)
check_ret("acl.media.dvpp_malloc", ret)
dvpp_blocks.append(encoded_dev)
size_holder, ret = acl.rt.malloc_host(4)                      # the host uint32 that size_ptr points at
check_ret("acl.rt.malloc_host", ret)
capacity_bytes = np.array([capacity], np.uint32).tobytes()
check_ret("acl.rt.memcpy", acl.rt.memcpy(size_holder, 4, acl.util.bytes_to_ptr(capacity_bytes), 4, 0))  # HOST_TO_HOST
check_ret("acl.media.dvpp_jpeg_encode_async",
          media.dvpp_jpeg_encode_async(channel, decoded, encoded_dev, size_holder, jpege_config, res.stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
encoded_size = int(np.frombuffer(acl.util.ptr_to_bytes(size_holder, 4), np.uint32)[0])
check_ret("acl.rt.free_host", acl.rt.free_host(size_holder))
encoded = read_back(encoded_dev, encoded_size).tobytes()
again = Image.open(io.BytesIO(encoded))
error = np.asarray(again.convert("RGB"), np.float32) - np.asarray(photo, np.float32)
print(f"predicted at most {capacity} bytes; the JPEG is {encoded_size} bytes, starts with {encoded[:2].hex()} (SOI)")
print(f"decoded by Pillow: {again.format} {again.size[0]} x {again.size[1]}, "
      f"PSNR against the photo {10 * np.log10(255 ** 2 / np.mean(error ** 2)):.0f} dB (above 30: a close copy)")
check_ret("acl.media.dvpp_destroy_jpege_config", media.dvpp_destroy_jpege_config(jpege_config))
display(again.resize((300, 195)))

# %% [markdown] tags=["lang:en"]
# ## AIPP: the model takes the YUV buffer
# The resized picture is uint8 YUV; the model wants float RGB, normalised. **AIPP** (AI pre-processing) does that
# conversion inside the model on the AI Core. It is compiled in by ATC from a config file passed as
# `--insert_op_conf=aipp.cfg` ([AIPP config template](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/atctool/atlasatc_16_0027.html)): `input_format: YUV420SP_U8`, the source size, a
# colour-space conversion (`csc_switch` with the JPEG YUV → RGB matrix and input biases 0/128/128), then per
# channel `(x − min_chn) × var_reci_chn` — here EfficientNet-Lite0's `(x − 127) / 128`. The AIPP model's input is
# then `uint8`, 224 × 224 × 3 / 2 = 75,264 bytes, tightly packed: AIPP reads `src_image_size_w × src_image_size_h`
# with no stride, so the picture given to it must have none — a 224 × 224 VPC output qualifies because 224 is
# already a multiple of 16 (width) and 2 (height), so its strides equal its size. So the VPC output buffer goes straight into the dataset: [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md),
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html)`(resized_dev, 75264)`,
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html),
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md) to compare sizes, then
# [`acl.mdl.execute`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0154.html).
# No host copy happens between the JPEG and the scores. Afterwards [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md) and
# [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md) release the wrappers — the DVPP memory itself stays, for `dvpp_free`.
#
# *simulator:* ATC here is the project's emulator (`at.models.aipp_om()`, from the shipped `aipp_cfg()`); it prepends the AIPP steps to the ONNX
# graph, and the chroma upsampling and rounding it uses are not confirmed for the hardware.

# %% [markdown] tags=["lang:zh"]
# ## AIPP：模型直接接收 YUV 缓冲
# 缩放后的图片是 uint8 的 YUV；模型需要的是归一化后的浮点 RGB。**AIPP**（AI 预处理）在模型内部、在 AI Core 上完成这一转换。它由 ATC 根据
# `--insert_op_conf=aipp.cfg` 指定的配置文件编译进模型（[AIPP 配置文件模板](https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/atctool/atlasatc_16_0027.html)）：`input_format: YUV420SP_U8`、源图大小、色域转换
# （`csc_switch`，使用 JPEG 的 YUV → RGB 矩阵，输入偏置 0/128/128），然后对每个通道计算 `(x − min_chn) × var_reci_chn`——这里就是
# EfficientNet-Lite0 的 `(x − 127) / 128`。这样 AIPP 模型的输入就是 `uint8`、224 × 224 × 3 / 2 = 75,264 字节，紧密排列：AIPP 按
# `src_image_size_w × src_image_size_h` 读取、不认 stride，所以交给它的图片不能带补齐——224 × 224 的 VPC 输出满足这一点，因为 224 本来就是
# 16（宽）和 2（高）的倍数，stride 与尺寸相等。于是 VPC 的输出缓冲可以直接放进数据集：[`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md)、
# [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html)`(resized_dev, 75264)`、
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html)，用
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md) 核对大小，然后
# [`acl.mdl.execute`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0145.html)。从 JPEG 到得分，中间没有一次 Host 复制。之后用 [`acl.destroy_data_buffer`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/datatypes/function-destroy_data_buffer.md) 和
# [`acl.mdl.destroy_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-destroy_dataset.md) 释放这些封装——DVPP 内存本身保留，留给 `dvpp_free`。
#
# *模拟器：* 这里的 ATC 是本项目的模拟工具（`at.models.aipp_om()`，使用随包提供的 `aipp_cfg()`）；它把 AIPP 步骤加在 ONNX 图的前面，所用的色度上采样和取整方式没有在硬件上得到确认。

# %%
print(open(at.models.aipp_cfg()).read())     # the config ATC compiles into the model (--insert_op_conf)
aipp_om = at.models.aipp_om()                # atc --model=... --insert_op_conf=<that file> ...
model = at.load_model(aipp_om)
d = at.query_desc(model)
print(d.table())

# %%
from acl_teach.widgets import Top5View
print("model input bytes:", acl.mdl.get_input_size_by_index(d.model_desc, 0), "| VPC output bytes:", resized_size)
inputs = acl.mdl.create_dataset()
in_buffer = acl.create_data_buffer(resized_dev, resized_size)    # DVPP memory straight into the model
inputs, ret = acl.mdl.add_dataset_buffer(inputs, in_buffer)
check_ret("acl.mdl.add_dataset_buffer", ret)
outputs = at.build_dataset(d, "output")
check_ret("acl.mdl.execute", acl.mdl.execute(model.model_id, inputs, outputs.dataset))
scores = at.unpack_outputs(d, outputs, res).arrays[0].reshape(-1)
labels = at.models.labels()
check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(in_buffer))   # the buffer, not the DVPP memory
check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(inputs))
Top5View(at.top_k(scores, 5, labels))

# %% [markdown] tags=["lang:en"]
# ## The same flow as steps, beside notebook 05's host path
# The step API has the media branch too: `at.media.decode_jpeg`, `at.media.resize`, `at.media.crop` each make the
# calls above and return a record — `print(record.code())` shows them. `at.media.apply_recipe` does the model's
# geometry on VPC: notebook 05's recipe resizes the short side to 256 and keeps the centre 224 × 224; on VPC that
# is one crop of the centre region, scaled to 224 × 224 (its offsets rounded to even numbers, as the rule wants).
# AIPP then does the colour conversion and the normalisation. The image never visits the host.
#
# Beside it, notebook 05's path: Pillow decodes and resizes on the CPU, NumPy normalises, the fp16 tensor is
# copied to the device. Same photos, same model weights: compare the top-5 and the time.
#
# *simulator:* here both paths run on your CPU, so the times compare the simulator's work, not the hardware's.
# On a board JPEGD, VPC and AIPP are dedicated hardware, and the DVPP path also saves the host-to-device copy
# of an fp16 tensor four times the size of the NV12 picture (301,056 against 75,264 bytes).

# %% [markdown] tags=["lang:zh"]
# ## 用步骤函数再走一遍，并与 Notebook 05 的 Host 路径对比
# 步骤 API 也有媒体分支：`at.media.decode_jpeg`、`at.media.resize`、`at.media.crop` 各自完成上面的调用并返回一条记录——
# `print(record.code())` 可以看到这些调用。`at.media.apply_recipe` 在 VPC 上完成模型要求的几何处理：Notebook 05 的配方把短边缩放到 256
# 再取中心 224 × 224；在 VPC 上这就是对中心区域的一次抠图并缩放到 224 × 224（偏移按规则取偶数）。随后由 AIPP 完成色域转换和归一化。
# 图片从头到尾不经过 Host。
#
# 对照的是 Notebook 05 的路径：Pillow 在 CPU 上解码、缩放，NumPy 归一化，再把 fp16 张量复制到 Device。同样的照片、同样的模型权重：
# 比较 top-5 和耗时。
#
# *模拟器：* 这里两条路径都在你的 CPU 上运行，所以耗时比较的是模拟器的工作量，而不是硬件。在开发板上 JPEGD、VPC 和 AIPP 是专用硬件，
# 而且 DVPP 路径还省掉了一次 Host 到 Device 的复制——fp16 张量的大小是 NV12 图片的四倍（301,056 对 75,264 字节）。

# %%
recipe = at.models.recipe(aipp_om)
steps_channel = at.media.open_channel()
host_model = at.load_model(at.models.default_om()); host_desc = at.query_desc(host_model)
host_in, host_out = at.build_dataset(host_desc, "input"), at.build_dataset(host_desc, "output")

def as_jpeg(name):
    """A shipped photo as JPEG bytes (JPEGD decodes JPEG only)."""
    out = io.BytesIO()
    Image.open(at.models.image(name)).convert("RGB").save(out, "JPEG", quality=95)
    return out.getvalue()

def dvpp_path(jpeg):
    """JPEG bytes -> JPEGD -> VPC centre crop -> AIPP model -> top-5; the pictures are released."""
    pic = at.media.decode_jpeg(jpeg, steps_channel, res)
    small = at.media.apply_recipe(pic, recipe, steps_channel, res)
    picture_in = at.media.picture_dataset(small, d)      # checks the size against the model's input
    at.execute(model, picture_in, outputs)
    top = at.top_k(at.unpack_outputs(d, outputs, res).arrays[0], 5, labels)
    at.release_dataset(picture_in)
    at.media.release_picture(small); at.media.release_picture(pic)
    return top, (pic, small)

def host_path(jpeg):
    """Notebook 05: Pillow + NumPy on the host -> fp16 tensor -> H2D -> execute -> top-5."""
    tensor = at.preprocess(Image.open(io.BytesIO(jpeg)), dims=host_desc.inputs[0].dims, dtype=np.float16)
    at.copy_to_device(tensor, host_in, 0, res, host_desc)
    at.execute(host_model, host_in, host_out)
    return at.top_k(at.unpack_outputs(host_desc, host_out, res).arrays[0], 5, labels)

coffee = as_jpeg("coffee.png")
top, (pic, small) = dvpp_path(coffee)
print(pic); print(small)
print(small.code())
print("bytes into the model: DVPP", small.size, "(uint8 NV12) | host", host_in.buffers[0].size, "(fp16 NCHW)")

# %%
photos = {name: as_jpeg(name) for name in ("coffee.png", "chelsea.png", "rocket.jpg")}
for name, jpeg in photos.items():
    dvpp_top, host_top = dvpp_path(jpeg)[0], host_path(jpeg)
    print(f"{name:12s} DVPP+AIPP {[p.index for p in dvpp_top.top]}  host {[p.index for p in host_top.top]}")
print("coffee, DVPP + AIPP:")
display(Top5View(dvpp_path(coffee)[0]))
print("coffee, host path (notebook 05):")
display(Top5View(host_path(coffee)))

# %% tags=["nbval-ignore-output"]
import time
def per_image_ms(path, rounds=3):
    """Mean milliseconds per photo over a few rounds (the first run warms caches)."""
    path(coffee)
    start = time.perf_counter()
    for _ in range(rounds):
        for jpeg in photos.values():
            path(jpeg)
    return 1000 * (time.perf_counter() - start) / (rounds * len(photos))
dvpp_ms, host_ms = per_image_ms(lambda j: dvpp_path(j)[0]), per_image_ms(host_path)
print(f"per image: DVPP path {dvpp_ms:.1f} ms | host path {host_ms:.1f} ms | ratio {dvpp_ms / host_ms:.2f}"
      " (simulator on this CPU)")

# %%
at.release_dataset(host_in); at.release_dataset(host_out); _ = at.unload_model(host_model, host_desc)
_ = at.media.close_channel(steps_channel)
at.release_dataset(outputs)
_ = at.unload_model(model, d)

# %% [markdown] tags=["lang:en"]
# ## Exercise 1 (3 points): the layout, as arithmetic
# A warm-up. Write `dvpp_layout(soc_name, width, height)` that returns `(width_stride, height_stride, buffer_size)` of a JPEGD
# output picture in YUV420SP NV12 on the chip `soc_name` names (what `acl.get_soc_name()` returns): the width
# aligned up to 128 on the Ascend 310, to 64 on the 310P (`Ascend310P3`) and the 310B (`Ascend310B4`, the Atlas
# 200I DK A2); the height aligned up to 16; and the bytes of both planes. The checker asks for the three chips and
# five picture sizes each (aligned, unaligned, odd), so one chip's numbers, or a table of answers, do not pass.

# %% [markdown] tags=["lang:zh"]
# ## 练习 1（3 分）：用算术求布局
# 热身题。编写 `dvpp_layout(soc_name, width, height)`，返回 `soc_name`（即 `acl.get_soc_name()` 的返回值）所指芯片上 JPEGD 输出的 YUV420SP NV12
# 图片的 `(宽 stride, 高 stride, 缓冲大小)`：宽在昇腾 310 上向上对齐到 128，在 310P（`Ascend310P3`）和 310B（`Ascend310B4`，即 Atlas 200I DK A2）
# 上对齐到 64；高向上对齐到 16；大小是两个平面的总字节数。检查器对三种芯片各试五种图片尺寸（对齐的、不对齐的、奇数的），所以只对一种芯片
# 正确的算法或一张答案表都通不过。

# %% tags=["solution", "grade_id:nb14-layout"]
def dvpp_layout(soc_name, width, height):
    """(width_stride, height_stride, buffer_size) of a JPEGD NV12 output on the chip soc_name names."""
    ### BEGIN SOLUTION
    w_align = 128 if soc_name.startswith("Ascend310") and soc_name[9:10] not in ("P", "B") else 64
    width_stride = (width + w_align - 1) // w_align * w_align
    height_stride = (height + 15) // 16 * 16
    return width_stride, height_stride, width_stride * height_stride * 3 // 2
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb14-layout-test"]
feedback = lab.check_dvpp_layout(dvpp_layout)  # first: an unwritten dvpp_layout fails as feedback, not a crash
print(feedback)
assert feedback, feedback
print("this machine:", acl.get_soc_name(), dvpp_layout(acl.get_soc_name(), width, height))

# %% [markdown] tags=["lang:en"]
# ## Exercise 2 (3 points): a JPEG decode in raw pyACL
# Now make the calls. Write `decode_nv12(jpeg_bytes, channel_desc, stream)` that decodes the JPEG bytes (host
# memory) into an NV12 picture with JPEGD and returns its **output pic desc**: read the size with
# `dvpp_jpeg_get_image_info` (and compare `dvpp_jpeg_predict_dec_size`), copy the bytes into `dvpp_malloc` memory,
# `dvpp_malloc` the output with this chip's strides (`acl.get_soc_name()`, as in the decode cell above), fill a pic
# desc, `dvpp_jpeg_decode_async` on `stream`, `synchronize_stream`. **Ownership:** the returned desc and its data
# buffer belong to the caller (the checker releases them with `dvpp_free` + `dvpp_destroy_pic_desc`); everything
# else your function makes — the JPEG's DVPP copy above all — it releases itself, after the sync. The checker
# passes a fresh random JPEG whose sides are not multiples of 16, reads your desc back with the
# `dvpp_get_pic_desc_*` getters, compares the Y and UV bytes with libjpeg's decode of the same file, and checks the
# strides and that nothing else is left alive — a desc from earlier, a missing sync or a leak do not pass.

# %% [markdown] tags=["lang:zh"]
# ## 练习 2（3 分）：用原生 pyACL 解码 JPEG
# 现在要真正调用接口。编写 `decode_nv12(jpeg_bytes, channel_desc, stream)`，用 JPEGD 把 JPEG 字节（Host 内存）解码成 NV12 图片，并返回它的
# **输出图片描述**：用 `dvpp_jpeg_get_image_info` 读出尺寸（可与 `dvpp_jpeg_predict_dec_size` 对照），把字节复制到 `dvpp_malloc` 的内存中，
# 按本芯片的 stride（`acl.get_soc_name()`，同上面的解码单元格）`dvpp_malloc` 输出缓冲，填好图片描述，在 `stream` 上 `dvpp_jpeg_decode_async`，
# 再 `synchronize_stream`。**归属：** 返回的图片描述和它的数据缓冲归调用者所有（检查器用 `dvpp_free` + `dvpp_destroy_pic_desc` 释放）；
# 函数创建的其他一切——尤其是 JPEG 的 DVPP 副本——由函数自己在同步之后释放。检查器传入一张宽高都不是 16 的倍数的随机 JPEG，用
# `dvpp_get_pic_desc_*` 读回你的图片描述，把 Y 和 UV 字节与 libjpeg 对同一文件的解码比较，并检查 stride 以及没有留下其他资源——
# 返回以前的图片描述、漏掉同步或有泄漏都通不过。

# %% tags=["solution", "grade_id:nb14-decode"]
def decode_nv12(jpeg_bytes, channel_desc, stream):
    """JPEG bytes -> JPEGD -> the output NV12 pic desc (the caller owns it and its buffer)."""
    ### BEGIN SOLUTION
    host = acl.util.bytes_to_ptr(jpeg_bytes)
    w, h, _, ret = media.dvpp_jpeg_get_image_info(host, len(jpeg_bytes))
    check_ret("acl.media.dvpp_jpeg_get_image_info", ret)
    soc = acl.get_soc_name()
    w_align = 128 if soc.startswith("Ascend310") and soc[9:10] not in ("P", "B") else 64
    ws, hs = (w + w_align - 1) // w_align * w_align, (h + 15) // 16 * 16
    size, ret = media.dvpp_jpeg_predict_dec_size(host, len(jpeg_bytes), NV12)
    check_ret("acl.media.dvpp_jpeg_predict_dec_size", ret)
    size = max(size, ws * hs * 3 // 2)
    jpeg_in, ret = media.dvpp_malloc(len(jpeg_bytes))
    check_ret("acl.media.dvpp_malloc", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(jpeg_in, len(jpeg_bytes), host, len(jpeg_bytes), TO_DVPP))
    out, ret = media.dvpp_malloc(size)
    check_ret("acl.media.dvpp_malloc", ret)
    desc = media.dvpp_create_pic_desc()
    for setter, value in ((media.dvpp_set_pic_desc_data, out), (media.dvpp_set_pic_desc_size, size),
                          (media.dvpp_set_pic_desc_format, NV12), (media.dvpp_set_pic_desc_width, w),
                          (media.dvpp_set_pic_desc_height, h), (media.dvpp_set_pic_desc_width_stride, ws),
                          (media.dvpp_set_pic_desc_height_stride, hs)):
        check_ret(f"acl.media.{setter.__name__}", setter(desc, value))
    check_ret("acl.media.dvpp_jpeg_decode_async",
              media.dvpp_jpeg_decode_async(channel_desc, jpeg_in, len(jpeg_bytes), desc, stream))
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
    check_ret("acl.media.dvpp_free", media.dvpp_free(jpeg_in))   # the input, once the decode has run
    return desc
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb14-decode-test"]
feedback = lab.check_decode_nv12(decode_nv12, channel, res.stream)  # a fresh random JPEG; it releases your picture
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Release everything
# Media objects are released like the rest, newest first: each pic desc with `dvpp_destroy_pic_desc`, each DVPP
# block with `dvpp_free`, the resize config, then the channel (`dvpp_destroy_channel`) before its desc
# (`dvpp_destroy_channel_desc`) — all before the stream, context and device go (`finalize` comes once, when
# the kernel exits). The ledger must read 0 live resources.

# %% [markdown] tags=["lang:zh"]
# ## 释放所有资源
# 媒体对象和其他资源一样按“后申请先释放”的顺序释放：每个图片描述用 `dvpp_destroy_pic_desc`，每块 DVPP 内存用 `dvpp_free`，然后是缩放配置，
# 再先销毁通道（`dvpp_destroy_channel`）后销毁通道描述（`dvpp_destroy_channel_desc`）——这些都要在 Stream、Context、Device 释放之前完成
# （`finalize` 在内核退出时执行一次）。资源账本必须显示 0 个存活资源。

# %%
for desc in reversed(pic_descs):
    check_ret("acl.media.dvpp_destroy_pic_desc", media.dvpp_destroy_pic_desc(desc))
for block in reversed(dvpp_blocks + [jpeg_dev]):
    check_ret("acl.media.dvpp_free", media.dvpp_free(block))
check_ret("acl.media.dvpp_destroy_resize_config", media.dvpp_destroy_resize_config(resize_config))
check_ret("acl.media.dvpp_destroy_channel", media.dvpp_destroy_channel(channel))
check_ret("acl.media.dvpp_destroy_channel_desc", media.dvpp_destroy_channel_desc(channel))
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Summary
# * DVPP works on `dvpp_malloc` memory: 128-byte aligned start, size rounded to 32 plus 32 inside; free it with
#   `dvpp_free`. It is device memory, so `memcpy` and models can use it directly.
# * JPEGD writes NV12 with width stride `ALIGN_UP(w, 128)` on the 310 (64 on the 310P and 310B: read
#   `acl.get_soc_name()`), height stride `ALIGN_UP(h, 16)`, size
#   `ws × hs × 3 / 2`, UV at `ws × hs`; the padding is part of the buffer, not of the picture.
# * VPC resizes and crops (strides %16 / %2); a crop ROI has even left/top and odd right/bottom on the 310 (both
#   rules sourced for the 310, UNCONFIRMED for 310P/310B). The host
#   does not check it; here the failure comes at `synchronize_stream` (how a board reports it: UNCONFIRMED).
# * VPC converts while it resizes: an NV21 output desc gives NV21 (same Y, chroma bytes swapped). JPEGE encodes a
#   JPEGD output as it is (width stride %16, height stride = height or ALIGN_UP(h, 16)); its size argument is the
#   address of a host uint32: capacity in, JPEG bytes out after the sync.
# * Static AIPP (`atc --insert_op_conf`) turns the 75,264-byte uint8 YUV picture into the model's normalised RGB,
#   so the DVPP output feeds the model with no host step.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * DVPP 使用 `dvpp_malloc` 申请的内存：起始地址 128 字节对齐，内部把大小对齐到 32 再加 32；用 `dvpp_free` 释放。它是 Device 内存，
#   `memcpy` 和模型都可以直接使用。
# * JPEGD 输出 NV12：宽 stride 在 310 上为 `ALIGN_UP(w, 128)`（310P、310B 上为 64：读 `acl.get_soc_name()`），高 stride 为 `ALIGN_UP(h, 16)`，大小为 `ws × hs × 3 / 2`，UV 平面从 `ws × hs`
#   开始；补齐区域属于缓冲，但不属于图片。
# * VPC 负责缩放和抠图（stride 为 16 / 2 的倍数）；在 310 上抠图 ROI 的 left/top 为偶数，right/bottom 为奇数
#   （两条规则的出处都是 310，对 310P/310B 尚未确认：UNCONFIRMED）。Host 不检查它；这里失败在
#   `synchronize_stream` 时才出现（开发板如何报告：UNCONFIRMED）。
# * VPC 在缩放的同时转换格式：输出 desc 写 NV21 就得到 NV21（Y 相同，色度字节互换）。JPEGE 可以原样编码 JPEGD 的输出（宽 stride 为 16 的倍数，
#   高 stride 等于高或 ALIGN_UP(h, 16)）；它的 size 参数是 Host 上一个 uint32 的地址：传入容量，同步后得到 JPEG 字节数。
# * 静态 AIPP（`atc --insert_op_conf`）把 75,264 字节的 uint8 YUV 图片变成模型需要的归一化 RGB，因此 DVPP 的输出无需经过 Host 就能送进模型。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. A JPEG is 1000 × 750. What are the width stride, height stride and buffer size of its NV12 decode on the 310?
# 2. Why does reading the decoded buffer as `width × height` bytes per plane give a sheared picture?
# 3. Your crop's `dvpp_vpc_crop_async` returned 0, but `synchronize_stream` did not. What do you check first?
# 4. Why can the VPC output buffer be passed to the AIPP model's dataset without any copy, and why must it have no padding?
#
# **Next →** [15_video_decode](15_video_decode.ipynb) — the same DVPP path fed by a video: VDEC, a callback
# thread, a model per frame.

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 一张 JPEG 为 1000 × 750。在 310 上把它解码为 NV12 时，宽 stride、高 stride 和缓冲大小各是多少？
# 2. 为什么把解码后的缓冲按每个平面 `width × height` 字节来读，会得到一张错开的图片？
# 3. 你的 `dvpp_vpc_crop_async` 返回了 0，但 `synchronize_stream` 没有返回 0。你首先检查什么？
# 4. 为什么 VPC 的输出缓冲可以不经复制直接放进 AIPP 模型的数据集？为什么它不能带补齐？
#
# **下一节 →** [15_video_decode](15_video_decode.ipynb)——同样的 DVPP 路径，输入换成视频：VDEC、回调线程、逐帧推理。
