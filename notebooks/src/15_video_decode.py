# %% [markdown] tags=["lang:en"]
# # 15 · Video: VDEC decode, VPC resize, a model per frame, JPEGE (视频解码)
# **Why.** On an Atlas 200I DK A2 the pictures usually come from a camera or a recording, and a video is not a
# pile of JPEGs: it is one **compressed stream** (H.264 or H.265) in which most frames only store what changed since
# the one before. Decoding it on the CPU costs the board's few Arm cores far more than the model does, so the chip has a
# hardware decoder, **VDEC**, reached through `acl.media.vdec_*`. VDEC works differently from the DVPP calls of
# notebook 14: you do not wait on a stream for each picture — you *send* frames, and each decoded picture comes
# back **through a callback**, run on a thread of yours that VDEC reports to. This notebook follows the flow of
# the official `vdec_resnet50_classification` sample with our own code: an H.264 file → frames → VDEC → each
# picture resized by VPC → the AIPP model of notebook 14 → top-5 per frame, and one frame saved as a JPEG by
# **JPEGE**, the hardware JPEG encoder.
#
# **You will be able to:** cut an H.264 (Annex B) stream into the frames VDEC wants; start a callback thread with
# `acl.util.start_thread` and say why it loops on `acl.rt.process_report`; set up a VDEC channel (channel desc,
# callback, stream format, output format) and send frames with `vdec_send_frame`, then the end of stream; read a
# decoded picture's desc in the callback and say who frees what; give the output strides VDEC needs on the 310 and
# the 310B; resize each frame with VPC and classify it; encode one frame with JPEGE; release everything.

# %% [markdown] tags=["lang:zh"]
# # 15 · 视频：VDEC 解码、VPC 缩放、逐帧推理与 JPEGE
# **为什么。** 在 Atlas 200I DK A2 上，图片通常来自摄像头或录像，而视频并不是一堆 JPEG：它是一条**压缩码流**（H.264 或 H.265），
# 其中大多数帧只记录相对前一帧的变化。用 CPU 解码它，对开发板上寥寥几个 Arm 核来说比模型推理还要贵得多，所以芯片里有硬件解码器
# **VDEC**，通过 `acl.media.vdec_*` 调用。VDEC 的用法与第 14 节的 DVPP 调用不同：你不是为每张图片在 Stream 上等待——而是把帧*送*进去，
# 每张解码出的图片都**通过回调函数**送回来，回调运行在你自己的一个线程上，VDEC 向这个线程上报。本节用我们自己的代码走一遍官方样例
# `vdec_resnet50_classification` 的流程：H.264 文件 → 帧 → VDEC → 每张图片用 VPC 缩放 → 第 14 节的 AIPP 模型 → 每帧的 top-5，
# 并用硬件 JPEG 编码器 **JPEGE** 把其中一帧存成 JPEG。
#
# **学完本节你将能够：** 把 H.264（Annex B）码流切成 VDEC 需要的帧；用 `acl.util.start_thread` 启动回调线程，并说明它为什么要循环调用
# `acl.rt.process_report`；建立 VDEC 通道（通道描述、回调、码流格式、输出格式），用 `vdec_send_frame` 送帧，最后送流结束标志；
# 在回调中读取解码图片的描述，并说清谁释放什么；给出 310 和 310B 上 VDEC 需要的输出 stride；用 VPC 缩放每一帧并分类；用 JPEGE
# 编码一帧；释放所有资源。

# %%
from acl_teach import lab
acl = lab.setup()          # real pyACL on an Ascend machine, else the simulator registered as `acl`
import acl_teach as at     # the step API: one function per documented step
import atexit
import io
import os
import tempfile
import numpy as np
from PIL import Image
from IPython.display import display
from acl_teach.lab import check_ret
media = acl.media          # pyACL's media data processing module: VDEC, VPC, JPEGE

# %% [markdown] tags=["lang:en"]
# ## A clip to decode
# The official sample reads a camera clip from a file; we cannot ship one, so the next cell — a **teaching cell**,
# not pyACL — writes a small H.264 clip of two shipped photos, slowly panned: 8 frames of **300 × 170**, main
# profile, no B-frames. 300 is not a multiple of 16, so the decoded pictures will carry padding columns. On a board,
# replace `clip_path` with any `.h264` file (an Annex B elementary stream, as VDEC's page requires). The usual
# start follows: `at.init()` and `at.request_resources(0)` (device, context, stream — notebook 01). VDEC itself
# needs no stream of yours, but VPC and JPEGE below queue on one, and the callback thread needs the **context**.

# %% [markdown] tags=["lang:zh"]
# ## 一段待解码的视频
# 官方样例从文件读取一段摄像头录像；我们不能随包提供这种文件，所以下一个单元格——一个**教学单元格**，不是 pyACL——用两张自带照片
# 生成一段缓慢平移的 H.264 小视频：8 帧，**300 × 170**，main profile，没有 B 帧。300 不是 16 的倍数，所以解码出的图片会带补齐列。
# 在开发板上，把 `clip_path` 换成任意 `.h264` 文件即可（VDEC 文档要求的 Annex B 裸码流）。接着是常规的开头：`at.init()` 和
# `at.request_resources(0)`（Device、Context、Stream——见第 01 节）。VDEC 本身不需要你的 Stream，但下面的 VPC 和 JPEGE 要下发到
# Stream 上，而回调线程需要 **Context**。

# %%
# teaching cell: a stand-in for a camera recording (on a board: clip_path = "your_video.h264")
clip_path = at.models.video_clip(os.path.join(tempfile.gettempdir(), "acl_teach_15_clip.h264"),
                                 [at.models.image("coffee.png"), at.models.image("chelsea.png")], 300, 170, 8)
WIDTH, HEIGHT = 300, 170                     # the clip's picture size (a board program reads it from the SPS or knows it)

# %%
if not at.init().already_initialised:     # once per kernel; Run All again: 100002, reported, not raised
    atexit.register(at.finalize)          # the one acl.finalize, when the kernel (the process) exits
res = at.request_resources(0)
with open(clip_path, "rb") as fh:
    clip = fh.read()
print(f"{len(clip)} bytes of H.264, starting {clip[:5].hex(' ')}")

# %% [markdown] tags=["lang:en"]
# ## Frames in an H.264 stream
# VDEC "only supports decoding a stream fed **frame by frame**" ([VDEC functions and constraints](https://www.hiascend.com/document/detail/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_01_0329.html)), so the file must be cut into frames
# first. An Annex B stream is a sequence of **NAL units**, each after a start code `00 00 01` (or `00 00 00 01`); the
# low 5 bits of the byte after it are the NAL type: 7 SPS and 8 PPS (the sequence and picture parameters: size,
# profile), 6 SEI (side information; x264 writes its settings there), 5 an IDR slice (a key frame, decodable alone),
# 1 a non-IDR slice (a frame predicted from earlier ones). The encoder guarantees `00 00 01` never occurs inside a
# NAL (it inserts "emulation prevention" bytes), so a plain search finds every boundary. A frame — an **access
# unit** — is then every NAL up to and including a slice: the first frame carries SPS, PPS and SEI before its IDR.
# This cutter assumes one slice per frame (x264's default); a camera stream with several slices per frame needs
# the slice header's `first_mb_in_slice` to see where a frame starts. acllite's `VideoCapture` does the same job
# with PyAV's demuxer.

# %% [markdown] tags=["lang:zh"]
# ## H.264 码流中的帧
# VDEC “只支持按帧输入码流进行解码”（[VDEC 功能及约束说明](https://www.hiascend.com/document/detail/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_01_0329.html)），所以要先把文件切成帧。Annex B 码流是一串
# **NAL 单元**，每个都跟在起始码 `00 00 01`（或 `00 00 00 01`）之后；其后一个字节的低 5 位是 NAL 类型：7 是 SPS、8 是 PPS（序列和图像
# 参数：尺寸、profile），6 是 SEI（附加信息；x264 把它的设置写在这里），5 是 IDR 片（关键帧，可以单独解码），1 是非 IDR 片（由前面的帧
# 预测出来的帧）。编码器保证 NAL 内部绝不会出现 `00 00 01`（它会插入“防竞争”字节），所以简单的查找就能找到每个边界。一帧——一个
# **访问单元**（access unit）——就是到某个片为止（含该片）的所有 NAL：第一帧在 IDR 之前还带着 SPS、PPS 和 SEI。这个切分函数假定每帧只有
# 一个片（x264 的默认设置）；摄像头码流若每帧有多个片，就要看片头的 `first_mb_in_slice` 才能知道一帧从哪里开始。acllite 的
# `VideoCapture` 用 PyAV 的解复用器完成同样的工作。

# %%
NAL_NAMES = {1: "slice", 5: "IDR slice", 6: "SEI", 7: "SPS", 8: "PPS"}


def nal_units(data):
    """(offset, NAL type) of each NAL unit of an Annex B stream, the offset at its start code."""
    found, i = [], data.find(b"\x00\x00\x01")
    while i >= 0:
        start = i - 1 if i > 0 and data[i - 1] == 0 else i      # a 4-byte start code 00 00 00 01
        found.append((start, data[i + 3] & 0x1F))
        i = data.find(b"\x00\x00\x01", i + 3)
    return found


def access_units(data):
    """The stream cut into frames: every NAL up to and including a slice (type 1 or 5) is one frame."""
    nals, cuts = nal_units(data), [0]
    for k, (_, kind) in enumerate(nals):
        if kind in (1, 5):
            cuts.append(nals[k + 1][0] if k + 1 < len(nals) else len(data))
    return [data[a:b] for a, b in zip(cuts, cuts[1:])]


units = access_units(clip)
for index, unit in enumerate(units):
    kinds = [NAL_NAMES.get(kind, kind) for _, kind in nal_units(unit)]
    print(f"frame {index}: {len(unit):6d} bytes  {' + '.join(kinds)}")
print(f"{len(units)} frames, {sum(map(len, units))} bytes in all")

# %% [markdown] tags=["lang:en"]
# The key frame is large; the predicted frames after it are far smaller (they code the motion of the pan), with a
# jump at frame 4, where the clip cuts from the coffee to the cat and x264 codes much of the frame afresh.
#
# ## The callback thread
# VDEC hands each decoded picture back by calling **your callback** `callback(input_stream_desc, output_pic_desc,
# user_data)`. It does not call it from a thread of its own choosing: it posts a *report*, and the thread you name
# runs the callback when it calls [`acl.rt.process_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html)`(timeout_ms)`. So the program starts a thread with
# [`acl.util.start_thread`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0058.html)`(fn, args)` — it returns `(thread_id, ret)` — that binds the context
# ([`acl.rt.set_context`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0077.html): a new thread has none) and loops on `process_report` until the program says stop; a
# timeout return (507012) only means no frame was ready in those milliseconds. `vdec_create_channel` **subscribes
# that thread for you** to the channel's internal stream (the samples never subscribe it themselves) — the mechanism of [`acl.rt.subscribe_report`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0108.html)`(thread_id, stream)` that
# notebook 09 calls by hand for `launch_callback`; for VDEC you only pass the thread id. [`acl.util.stop_thread`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha003/API/appdevgapi/aclpythondevg_01_0059.html)
# joins the thread at the end — after the loop flag is cleared, or it never returns.
#
# *simulator:* the decoding itself also happens inside that thread's `process_report` (FFmpeg, one frame at a time),
# so frames come back only while the thread runs, as on a board.

# %% [markdown] tags=["lang:zh"]
# 关键帧很大；之后的预测帧小得多（它们只编码平移带来的运动），到第 4 帧突然变大——视频在那里从咖啡切换到猫，x264 要重新编码这一帧的大部分。
#
# ## 回调线程
# VDEC 通过调用**你的回调函数** `callback(input_stream_desc, output_pic_desc, user_data)` 把每张解码图片交回来。它不是在自己随便选的线程里
# 调用，而是发出一个*上报*（report），由你指定的线程在调用 [`acl.rt.process_report`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0106.html)`(timeout_ms)` 时执行回调。
# 所以程序先用 [`acl.util.start_thread`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0058.html)`(fn, args)` 启动一个线程——它返回 `(thread_id, ret)`——
# 线程先绑定 Context（[`acl.rt.set_context`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha003/apiref/appdevgapi/aclpythondevg_01_0074.html)：新线程没有 Context），然后循环调用 `process_report`，直到程序让它停下；返回超时（507012）
# 只表示这段时间里没有帧就绪。`vdec_create_channel` 会**替你**把这个线程订阅到通道内部的 Stream 上（样例从不自己订阅）——机制就是第 09 节为 `launch_callback`
# 手动调用的 [`acl.rt.subscribe_report`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0103.html)`(thread_id, stream)`：对 VDEC 你只需传入线程 id。最后 [`acl.util.stop_thread`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/82RC1alpha003/API/appdevgapi/aclpythondevg_01_0059.html) 等待线程结束——
# 要先清掉循环标志，否则它永远不会返回。
#
# *模拟器：* 解码本身也在这个线程的 `process_report` 里完成（FFmpeg，一次一帧），所以只有线程在运行时帧才会回来，与开发板上一样。

# %%
running = {"loop": True}                    # the callback thread runs while this says so


def callback_loop(args):
    """The callback thread: bind the context, then run VDEC's reports until told to stop."""
    timeout_ms = args[0]
    check_ret("acl.rt.set_context", acl.rt.set_context(res.context))
    while running["loop"]:
        ret = acl.rt.process_report(timeout_ms)   # 0: callbacks ran; 507012: none within timeout_ms


running["loop"] = True
callback_tid, ret = acl.util.start_thread(callback_loop, [100])
check_ret("acl.util.start_thread", ret)

# %% [markdown] tags=["lang:en"]
# ## The VDEC channel
# A channel is described field by field on a **channel desc** (`vdec_create_channel_desc`, then
# `vdec_set_channel_desc_*`): a **channel id** (each open channel needs its own; the sample uses 10), the callback
# thread's id, the **callback**, the stream format `entype` (`H265_MAIN_LEVEL = 0`, `H264_BASELINE_LEVEL = 1`,
# `H264_MAIN_LEVEL = 2`, `H264_HIGH_LEVEL = 3`: our clip is H.264 main) and the output picture format
# (`PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1`, NV12, as in notebook 14; 2 is NV21). Then `vdec_create_channel(desc)`
# opens it. A **frame config** (`vdec_create_frame_config`) goes with every frame sent; its defaults are right.
#
# The callback receives back the two descs you sent with the frame — they are yours to destroy — and the
# `user_data` you gave `vdec_send_frame`, here the frame's index. It runs on the callback thread, so it must be short;
# this one keeps each picture **where it is, in DVPP memory**, because VPC and the model read it there: no copy to the host.
# It reads the output desc with `dvpp_get_pic_desc_data / size / ret_code`: a non-zero **ret_code** means VDEC
# could not decode that frame although `vdec_send_frame` returned 0 — the only place that error is reported.
# The end of stream brings a last callback whose output pic desc is **0** (nothing decoded): skip it.

# %% [markdown] tags=["lang:zh"]
# ## VDEC 通道
# 通道在**通道描述**上逐项设置（`vdec_create_channel_desc`，然后 `vdec_set_channel_desc_*`）：**通道 id**（每个打开的通道都需要自己的 id；
# 样例用 10）、回调线程的 id、**回调函数**、码流格式 `entype`（`H265_MAIN_LEVEL = 0`、`H264_BASELINE_LEVEL = 1`、`H264_MAIN_LEVEL = 2`、
# `H264_HIGH_LEVEL = 3`：我们的视频是 H.264 main）以及输出图片格式（`PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1`，即 NV12，与第 14 节相同；
# 2 是 NV21）。然后 `vdec_create_channel(desc)` 打开通道。每送一帧都要带上一个**帧配置**（`vdec_create_frame_config`），默认值即可。
#
# 回调函数会收到你随帧送入的两个描述——由你负责销毁——以及你传给 `vdec_send_frame` 的 `user_data`，这里是帧序号。它运行在回调线程上，
# 所以要简短；这个回调把每张图片**原地留在 DVPP 内存里**，因为 VPC 和模型就在那里读取它：不复制到 Host。它用
# `dvpp_get_pic_desc_data / size / ret_code` 读取输出描述：**ret_code** 不为 0 表示 VDEC 没能解码这一帧，尽管 `vdec_send_frame` 返回了 0——
# 这是唯一报告该错误的地方。流结束时还有最后一次回调，它的输出图片描述为 **0**（没有解码任何东西）：跳过它。

# %%
H264_MAIN_LEVEL = 2                          # acldvppStreamFormat
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1          # NV12
decoded = []                                 # (frame index, DVPP address, size, ret_code), filled by on_frame


def on_frame(input_stream_desc, output_pic_desc, user_data):
    """VDEC callback: destroy the input desc, keep the picture in DVPP memory, destroy the output desc."""
    if input_stream_desc:
        check_ret("acl.media.dvpp_destroy_stream_desc", media.dvpp_destroy_stream_desc(input_stream_desc))
    if not output_pic_desc:                  # the end-of-stream callback: nothing was decoded
        return
    decoded.append((user_data, media.dvpp_get_pic_desc_data(output_pic_desc),
                    media.dvpp_get_pic_desc_size(output_pic_desc), media.dvpp_get_pic_desc_ret_code(output_pic_desc)))
    check_ret("acl.media.dvpp_destroy_pic_desc", media.dvpp_destroy_pic_desc(output_pic_desc))


decoded.clear()
vdec_desc = media.vdec_create_channel_desc()
for setter, value in ((media.vdec_set_channel_desc_channel_id, 10),
                      (media.vdec_set_channel_desc_thread_id, callback_tid),
                      (media.vdec_set_channel_desc_callback, on_frame),
                      (media.vdec_set_channel_desc_entype, H264_MAIN_LEVEL),
                      (media.vdec_set_channel_desc_out_pic_format, PIXEL_FORMAT_YUV_SEMIPLANAR_420)):
    check_ret(f"acl.media.{setter.__name__}", setter(vdec_desc, value))
check_ret("acl.media.vdec_create_channel", media.vdec_create_channel(vdec_desc))
frame_config = media.vdec_create_frame_config()

# %% [markdown] tags=["lang:en"]
# ## Output strides: what VDEC writes
# Each frame needs an **output picture** you allocate before sending it: DVPP memory and a pic desc (notebook 14).
# Its strides follow [VDEC's constraints page](https://www.hiascend.com/document/detail/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_01_0329.html) for NV12:
#
# * Ascend 310 and 310P: width stride = `ALIGN_UP(width, 16)` (at least 32), height stride = `ALIGN_UP(height, 2)`;
# * Atlas 200I/500 A2 — the **310B** of the Atlas 200I DK A2: no alignment needed, a stride equal to the size will
#   do (width stride 10..24576), so the 310's strides are valid there too;
# * buffer size ≥ `width_stride × height_stride × 3 / 2`, and the width and height of the picture even.
#
# These differ from JPEGD's (128 or 64 × 16, notebook 14): each DVPP unit has its own rules. This notebook uses
# `ALIGN_UP(w, 16) × ALIGN_UP(h, 2)` — the official sample's "stride to 16 × 2" — right on every chip: for 300 × 170,
# 304 × 170, 4 padding columns. The input frame goes into DVPP memory too (`dvpp_malloc`, then [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) from the host pointer
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) gives; on the A2 series
# `acl.rt.malloc` is also allowed, same page), described by a **stream desc**: `dvpp_create_stream_desc`,
# `dvpp_set_stream_desc_data` and `_size`.

# %% [markdown] tags=["lang:zh"]
# ## 输出 stride：VDEC 写出什么
# 每一帧在送入之前都需要你申请一张**输出图片**：DVPP 内存和一个图片描述（第 14 节）。它的 stride 遵循
# [VDEC 功能及约束说明](https://www.hiascend.com/document/detail/zh/canncommercial/700/inferapplicationdev/aclpythondevg/aclpythondevg_01_0329.html) 对 NV12 的要求：
#
# * 昇腾 310 和 310P：宽 stride = `ALIGN_UP(width, 16)`（最小 32），高 stride = `ALIGN_UP(height, 2)`；
# * Atlas 200I/500 A2——也就是 Atlas 200I DK A2 的 **310B**：无对齐要求，stride 与宽高相同即可（宽 stride 10..24576），所以 310 的 stride
#   在那里同样有效；
# * 缓冲大小 ≥ `宽 stride × 高 stride × 3 / 2`，图片的宽和高为偶数。
#
# 这与 JPEGD 的要求（128 或 64 × 16，第 14 节）不同：每个 DVPP 单元都有自己的规则。本节使用 `ALIGN_UP(w, 16) × ALIGN_UP(h, 2)`——即官方样例
# 所说的“stride 对齐到 16 × 2”——在每种芯片上都正确：300 × 170 得到 304 × 170，有 4 列补齐。输入帧也放进 DVPP 内存（`dvpp_malloc`，再用 [`acl.rt.memcpy`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html) 从
# [`acl.util.bytes_to_ptr`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0055.html) 给出的 Host 指针复制；A2 系列上也可以用 `acl.rt.malloc`，同一页面），用**码流描述**（stream desc）描述：`dvpp_create_stream_desc`、
# `dvpp_set_stream_desc_data` 和 `_size`。

# %%
def align_up(value, align):
    return (value + align - 1) // align * align


W_STRIDE, H_STRIDE = align_up(WIDTH, 16), align_up(HEIGHT, 2)
FRAME_SIZE = W_STRIDE * H_STRIDE * 3 // 2
TO_DVPP, FROM_DVPP = (3, 3) if res.on_board else (1, 2)   # memcpy kinds: on the board itself, device to device
print(f"{WIDTH} x {HEIGHT} -> strides {W_STRIDE} x {H_STRIDE}, {FRAME_SIZE} bytes per decoded frame")


def new_pic_desc(data, size, width, height, w_stride, h_stride):
    """A pic desc for an NV12 picture at data (DVPP memory)."""
    desc = media.dvpp_create_pic_desc()
    for setter, value in ((media.dvpp_set_pic_desc_data, data), (media.dvpp_set_pic_desc_size, size),
                          (media.dvpp_set_pic_desc_format, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                          (media.dvpp_set_pic_desc_width, width), (media.dvpp_set_pic_desc_height, height),
                          (media.dvpp_set_pic_desc_width_stride, w_stride),
                          (media.dvpp_set_pic_desc_height_stride, h_stride)):
        check_ret(f"acl.media.{setter.__name__}", setter(desc, value))
    return desc

# %% [markdown] tags=["lang:en"]
# ## Sending the frames, then the end of stream
# [`acl.media.vdec_send_frame`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0348.html)`(channel_desc, stream_desc, pic_desc, frame_config, user_data)` queues one frame and
# returns at once: its 0 says the frame was accepted, not decoded. After the last frame, the **end of stream**: a
# stream desc with `dvpp_set_stream_desc_eos(desc, 1)` and no data, sent with output pic desc 0. VDEC then flushes
# the frames it still holds (a decoder keeps a few for reference and reordering) and calls back for each.
# `acl.media.vdec_destroy_channel` **waits until every callback has run**, so only after it returns may the loop flag be
# cleared and `stop_thread` called; the other way round the last frames are never delivered. Then the frame
# config and the channel desc go, and the input frames' DVPP memory (VDEC has read it).
#
# *simulator:* frames come back in display order after a simulated 1 ms each; on a board the count printed while
# sending depends on timing — which is why the cell prints the collected list only after destroy.

# %% [markdown] tags=["lang:zh"]
# ## 送帧，最后送流结束标志
# [`acl.media.vdec_send_frame`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0339.html)`(channel_desc, stream_desc, pic_desc, frame_config, user_data)` 下发一帧后立即返回：
# 它返回 0 只表示这一帧被接收，而不是已经解码。最后一帧之后是**流结束**（EOS）：一个设置了 `dvpp_set_stream_desc_eos(desc, 1)`、没有数据的
# 码流描述，输出图片描述传 0。VDEC 随后把它手里还留着的帧（解码器会保留几帧用于参考和重排序）全部输出，并逐帧回调。
# `acl.media.vdec_destroy_channel` 会**等到所有回调都执行完**，所以只有在它返回之后才能清掉循环标志并调用
# `stop_thread`；顺序反过来，最后几帧就永远送不回来。然后释放帧配置和通道描述，以及输入帧的 DVPP 内存（VDEC 已经读完）。
#
# *模拟器：* 帧按显示顺序返回，每帧模拟耗时 1 ms；在开发板上，送帧过程中已收到的帧数取决于时序——所以本单元格在 destroy 之后才打印收集到的列表。

# %%
frame_inputs = []                            # the input frames' DVPP memory, freed after the channel is destroyed
for index, unit in enumerate(units):
    in_dev, ret = media.dvpp_malloc(len(unit))
    check_ret("acl.media.dvpp_malloc", ret)
    frame_inputs.append(in_dev)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(in_dev, len(unit), acl.util.bytes_to_ptr(unit), len(unit), TO_DVPP))
    stream_desc = media.dvpp_create_stream_desc()
    check_ret("acl.media.dvpp_set_stream_desc_data", media.dvpp_set_stream_desc_data(stream_desc, in_dev))
    check_ret("acl.media.dvpp_set_stream_desc_size", media.dvpp_set_stream_desc_size(stream_desc, len(unit)))
    out_dev, ret = media.dvpp_malloc(FRAME_SIZE)       # freed after VPC has read it, below
    check_ret("acl.media.dvpp_malloc", ret)
    out_desc = new_pic_desc(out_dev, FRAME_SIZE, WIDTH, HEIGHT, W_STRIDE, H_STRIDE)
    check_ret("acl.media.vdec_send_frame", media.vdec_send_frame(vdec_desc, stream_desc, out_desc, frame_config, index))

eos = media.dvpp_create_stream_desc()
check_ret("acl.media.dvpp_set_stream_desc_eos", media.dvpp_set_stream_desc_eos(eos, 1))
check_ret("acl.media.vdec_send_frame", media.vdec_send_frame(vdec_desc, eos, 0, frame_config, None))
check_ret("acl.media.vdec_destroy_channel", media.vdec_destroy_channel(vdec_desc))   # waits for every callback
running["loop"] = False
check_ret("acl.util.stop_thread", acl.util.stop_thread(callback_tid))
check_ret("acl.media.vdec_destroy_frame_config", media.vdec_destroy_frame_config(frame_config))
check_ret("acl.media.vdec_destroy_channel_desc", media.vdec_destroy_channel_desc(vdec_desc))
for in_dev in frame_inputs:
    check_ret("acl.media.dvpp_free", media.dvpp_free(in_dev))
decoded.sort(key=lambda frame: frame[0])     # by frame index: the order a B-frame stream may not keep
print(f"{len(units)} frames sent, {len(decoded)} callbacks with a picture")
for index, _, size, ret_code in decoded:
    print(f"frame {index}: {size} bytes, ret_code {ret_code}")

# %% [markdown] tags=["lang:en"]
# ## One decoded frame
# `YuvView` (notebook 14) draws a picture from its pic desc: the Y plane, the UV plane and an RGB preview, with the
# padding tinted — here the 4 columns right of the picture. The cell makes a desc for frame 4's DVPP memory (the
# callback destroyed VDEC's), then destroys it: a desc only describes the bytes, it owns none of them.
#
# *simulator:* the padding bytes keep whatever the buffer held (0xCD in a fresh simulated buffer); VDEC's content
# there is not documented.

# %% [markdown] tags=["lang:zh"]
# ## 一帧解码结果
# `YuvView`（第 14 节）根据图片描述画出图片：Y 平面、UV 平面和 RGB 预览，并把补齐区域着色标出——这里是图片右侧的 4 列。单元格为第 4 帧的
# DVPP 内存新建一个描述（VDEC 的那个已经在回调中销毁），用完再销毁：描述只是描述这些字节，并不拥有它们。
#
# *模拟器：* 补齐区域保留缓冲原有的字节（模拟器新申请的缓冲中为 0xCD）；VDEC 在那里写什么没有文档说明。

# %%
from acl_teach.widgets import YuvView
_, frame4_dev, frame4_size, _ = decoded[4]
frame4_desc = new_pic_desc(frame4_dev, frame4_size, WIDTH, HEIGHT, W_STRIDE, H_STRIDE)
display(YuvView(frame4_desc, name="frame 4"))
check_ret("acl.media.dvpp_destroy_pic_desc", media.dvpp_destroy_pic_desc(frame4_desc))

# %% [markdown] tags=["lang:en"]
# ## Each frame: VPC resize, the model, top-5
# From here each frame follows notebook 14's path. `dvpp_vpc_resize_async` scales the 300 × 170 picture (read
# through its 304 × 170 strides) to the 224 × 224 NV12 the AIPP model takes — 75,264 bytes with no padding — on a
# DVPP channel (`dvpp_create_channel_desc` + `dvpp_create_channel`, a different thing from the VDEC channel), and
# `synchronize_stream` waits for it. The model reads that buffer directly; AIPP turns it into normalised RGB
# (notebook 14). The input and output datasets are built once and reused for every frame, since the same buffers
# are refilled; only the scores (1000 float32) travel to the host. The frame's own DVPP memory is freed as soon as VPC has
# read it. The model side is notebooks 02–07's calls: [`acl.mdl.load_from_file`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0147.html), [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) + [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md),
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md) / [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md),
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0114.html), [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0120.html),
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md), [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html),
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html), [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html),
# [`acl.mdl.execute`](https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0154.html) and [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html).
# VPC does not keep the aspect ratio: 300 × 170 is stretched to a square, as the official sample does;
# notebook 14's crop keeps it, if the model needs that.
#
# *simulator:* VPC is Pillow's bilinear scaling and the model runs on ONNX Runtime, so the scores differ slightly
# from a board's; the ranking of the classes is what to compare.

# %% [markdown] tags=["lang:zh"]
# ## 逐帧处理：VPC 缩放、模型、top-5
# 从这里开始，每一帧都沿着第 14 节的路径走。`dvpp_vpc_resize_async` 在一个 DVPP 通道上（`dvpp_create_channel_desc` + `dvpp_create_channel`，
# 与 VDEC 通道不是一回事）把 300 × 170 的图片（按 304 × 170 的 stride 读取）缩放成 AIPP 模型需要的 224 × 224 NV12——75,264 字节，没有补齐；
# `synchronize_stream` 等它完成。模型直接读取这块缓冲；AIPP 把它变成归一化的 RGB（第 14 节）。输入和输出数据集只建一次，每帧复用，
# 因为填充的始终是同样的缓冲；只有得分（1000 个 float32）传回 Host。VPC 读完之后，这一帧自己的 DVPP 内存就立即释放。模型这一侧用的是第 02–07 节的调用：[`acl.mdl.load_from_file`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-load_from_file.md), [`acl.mdl.create_desc`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/ge/function-create_desc.md) + [`acl.mdl.get_desc`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_desc.md),
# [`acl.mdl.get_input_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_input_size_by_index.md) / [`acl.mdl.get_output_size_by_index`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-get_output_size_by_index.md),
# [`acl.rt.malloc`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0110.html), [`acl.rt.malloc_host`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0116.html),
# [`acl.mdl.create_dataset`](https://github.com/hicann/runtime/blob/027e13c3479acd15059e478e8cf0d1b8066372aa/python/docs/zh/api_ref/ge/function-create_dataset.md), [`acl.create_data_buffer`](https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha002/apiref/appdevgapi/aclpythondevg_01_0016.html),
# [`acl.mdl.add_dataset_buffer`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0188.html), [`acl.rt.synchronize_stream`](https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0087.html),
# [`acl.mdl.execute`](https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/ascendgraphapi/aclpythondevg_01_0145.html) and [`acl.util.ptr_to_bytes`](https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_0056.html)。
# VPC 不保持宽高比：
# 300 × 170 被拉伸成正方形，官方样例也是这样；如果模型需要保持比例，可以用第 14 节的抠图。
#
# *模拟器：* VPC 使用 Pillow 的双线性缩放，模型在 ONNX Runtime 上运行，所以得分与开发板上的略有不同；应当比较的是类别的排序。

# %%
channel = media.dvpp_create_channel_desc()
check_ret("acl.media.dvpp_create_channel", media.dvpp_create_channel(channel))
resize_config = media.dvpp_create_resize_config()
model_id, ret = acl.mdl.load_from_file(at.models.aipp_om())      # the AIPP model of notebook 14
check_ret("acl.mdl.load_from_file", ret)
model_desc = acl.mdl.create_desc()
check_ret("acl.mdl.get_desc", acl.mdl.get_desc(model_desc, model_id))
in_size = acl.mdl.get_input_size_by_index(model_desc, 0)          # 224 * 224 * 3 / 2 = 75264
out_size = acl.mdl.get_output_size_by_index(model_desc, 0)        # 1000 float32 = 4000
small_dev, ret = media.dvpp_malloc(in_size)                       # the VPC output = the model input
check_ret("acl.media.dvpp_malloc", ret)
small_desc = new_pic_desc(small_dev, in_size, 224, 224, 224, 224)
scores_dev, ret = acl.rt.malloc(out_size, 0)                      # ACL_MEM_MALLOC_HUGE_FIRST
check_ret("acl.rt.malloc", ret)
scores_host, ret = acl.rt.malloc_host(out_size)
check_ret("acl.rt.malloc_host", ret)
model_in, model_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
in_buffer, out_buffer = acl.create_data_buffer(small_dev, in_size), acl.create_data_buffer(scores_dev, out_size)
for dataset, buffer in ((model_in, in_buffer), (model_out, out_buffer)):
    _, ret = acl.mdl.add_dataset_buffer(dataset, buffer)
    check_ret("acl.mdl.add_dataset_buffer", ret)
labels = at.models.labels()
print("model input", in_size, "bytes (224 x 224 NV12) | output", out_size, "bytes")


def classify_frame(data, size):
    """One decoded frame in DVPP memory -> VPC 224 x 224 -> the AIPP model -> the 1000 scores."""
    frame_desc = new_pic_desc(data, size, WIDTH, HEIGHT, W_STRIDE, H_STRIDE)
    check_ret("acl.media.dvpp_vpc_resize_async",
              media.dvpp_vpc_resize_async(channel, frame_desc, small_desc, resize_config, res.stream))
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
    check_ret("acl.media.dvpp_destroy_pic_desc", media.dvpp_destroy_pic_desc(frame_desc))
    check_ret("acl.mdl.execute", acl.mdl.execute(model_id, model_in, model_out))
    check_ret("acl.rt.memcpy", acl.rt.memcpy(scores_host, out_size, scores_dev, out_size, FROM_DVPP))
    return np.frombuffer(acl.util.ptr_to_bytes(scores_host, out_size), np.float32)

# %%
top1 = []
for index, data, size, ret_code in decoded[:4] + decoded[5:]:   # frame 4 is kept for JPEGE below
    if ret_code != 0:
        print(f"frame {index}: not decoded, ret_code {ret_code}")
    else:
        scores = classify_frame(data, size)
        best = np.argsort(-scores)[:5]
        top1.append(int(best[0]))
        print(f"frame {index}: " + ", ".join(f"{labels[i].split(',')[0]} {scores[i]:.2f}" for i in best))
    check_ret("acl.media.dvpp_free", media.dvpp_free(data))         # this frame is done
print("top-1 per frame:", top1)

# %% [markdown] tags=["lang:en"]
# ## JPEGE: one frame as a JPEG
# To save or send a frame (an alarm snapshot, say), **JPEGE** encodes it in hardware from the same DVPP memory.
# `dvpp_create_jpege_config` + `dvpp_set_jpege_config_level` (quality 1..100; 0 is the default) configure it;
# `dvpp_jpeg_predict_enc_size(pic_desc, config)` gives the output buffer to allocate. The input rules, from the
# [JPEGE functions and constraints](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0328.html) page: NV12 with even width and height,
# width stride the width rounded up to 16 (or a larger multiple of 16), height stride the height itself or the height
# rounded up to 16 (at least 32) — VDEC's 304 × 170 qualifies.
# `dvpp_jpeg_encode_async(channel, pic_desc, out_dev, size_ptr, config, stream)` takes the address of a **host uint32** holding the buffer's capacity, and after `synchronize_stream` that uint32 holds
# the JPEG's byte count. The official samples point it at a Python `bytes` object (`bytes_to_ptr`), which then
# changes under Python's feet; a 4-byte `malloc_host` buffer says what happens. The JPEG is copied back and opened
# with Pillow.
#
# *simulator:* the encoder is Pillow's baseline JPEG at that quality, and the predicted size follows ACL's
# formula (the picture's bytes plus 768, rounded up to 2 MiB, UNCONFIRMED for the 310B), so a board's byte count
# differs; the cell prints only what any JPEG of this frame shows.

# %% [markdown] tags=["lang:zh"]
# ## JPEGE：把一帧存成 JPEG
# 要保存或发送一帧（比如报警快照），可以用 **JPEGE** 直接从同一块 DVPP 内存进行硬件编码。`dvpp_create_jpege_config` +
# `dvpp_set_jpege_config_level`（质量 1..100；0 为默认值）配置编码；`dvpp_jpeg_predict_enc_size(pic_desc, config)` 给出要申请的输出缓冲大小；
# 输入规则见 [JPEGE 功能及约束说明](https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0328.html)：NV12，宽和高为偶数，宽 stride 为宽向上对齐到 16（或更大的 16 的倍数），
# 高 stride 等于高本身或高向上对齐到 16（最小 32）——VDEC 的 304 × 170 满足要求。
# `dvpp_jpeg_encode_async(channel, pic_desc, out_dev, size_ptr, config, stream)` 接收一个**Host 上 uint32** 的地址，其中存放缓冲的容量；
# `synchronize_stream` 之后这个 uint32 变成 JPEG 的字节数。官方样例把它指向一个 Python `bytes` 对象（`bytes_to_ptr`），于是这个对象会在 Python
# 不知情时被改写；用一块 4 字节的 `malloc_host` 缓冲则一目了然。JPEG 复制回 Host 后用 Pillow 打开。
#
# *模拟器：* 编码器是 Pillow 的 baseline JPEG，质量相同；预测大小按 ACL 的公式计算（图片字节数加 768，向上取整到 2 MiB，310B 上未确认，
# UNCONFIRMED），所以开发板上的字节数会不同；单元格只打印任何一张这一帧的 JPEG 都会显示的内容。

# %%
jpege_config = media.dvpp_create_jpege_config()
check_ret("acl.media.dvpp_set_jpege_config_level", media.dvpp_set_jpege_config_level(jpege_config, 90))
frame4_desc = new_pic_desc(frame4_dev, frame4_size, WIDTH, HEIGHT, W_STRIDE, H_STRIDE)
capacity, ret = media.dvpp_jpeg_predict_enc_size(frame4_desc, jpege_config)
check_ret("acl.media.dvpp_jpeg_predict_enc_size", ret)
jpeg_dev, ret = media.dvpp_malloc(capacity)
check_ret("acl.media.dvpp_malloc", ret)
size_host, ret = acl.rt.malloc_host(4)                      # the host uint32: capacity in, JPEG size out
check_ret("acl.rt.malloc_host", ret)
capacity_bytes = np.array([capacity], np.uint32).tobytes()
check_ret("acl.rt.memcpy", acl.rt.memcpy(size_host, 4, acl.util.bytes_to_ptr(capacity_bytes), 4, 0))  # host to host
check_ret("acl.media.dvpp_jpeg_encode_async",
          media.dvpp_jpeg_encode_async(channel, frame4_desc, jpeg_dev, size_host, jpege_config, res.stream))
check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(res.stream))
jpeg_size = int(np.frombuffer(acl.util.ptr_to_bytes(size_host, 4), np.uint32)[0])
jpeg_host, ret = acl.rt.malloc_host(jpeg_size)
check_ret("acl.rt.malloc_host", ret)
check_ret("acl.rt.memcpy", acl.rt.memcpy(jpeg_host, jpeg_size, jpeg_dev, jpeg_size, FROM_DVPP))
jpeg = acl.util.ptr_to_bytes(jpeg_host, jpeg_size)
snapshot = Image.open(io.BytesIO(jpeg))
print(f"JPEG starts {jpeg[:2].hex(' ')} (SOI), {snapshot.format} {snapshot.size[0]} x {snapshot.size[1]},",
      "fits the predicted buffer:", jpeg_size <= capacity)
for release, handle in ((acl.rt.free_host, jpeg_host), (acl.rt.free_host, size_host), (media.dvpp_free, jpeg_dev),
                        (media.dvpp_destroy_pic_desc, frame4_desc),
                        (media.dvpp_destroy_jpege_config, jpege_config), (media.dvpp_free, frame4_dev)):
    check_ret(release.__name__, release(handle))
snapshot.convert("RGB").resize((150, 85))

# %% [markdown] tags=["lang:en"]
# ## Exercise (3 points)
# The callback above leaves each picture in DVPP memory for VPC. When a frame must go to the **host** — to save
# it, show it, or hand it to OpenCV — the callback copies it out and frees the device memory at once. Write
# `keep_frame(input_stream_desc, output_pic_desc, user_data)`, a VDEC callback that:
#
# * destroys the input stream desc it brings (the end-of-stream callback's too) and skips an output pic desc of 0;
# * reads the output desc's ret_code: if it is not 0, stores `kept[user_data] = (ret_code, None)`;
# * otherwise copies the picture to the host (`malloc_host`, `memcpy` kind 2, `ptr_to_bytes`,
#   [`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)) and
#   stores `kept[user_data] = (0, picture)`, where `picture` is the **visible** NV12 picture as a numpy uint8
#   array of shape `(height * 3 // 2, width)`: `height` Y rows then `height // 2` UV rows, each `width` bytes —
#   no padding. Read the width, height and strides from the desc (`dvpp_get_pic_desc_width / _height /
#   _width_stride / _height_stride`);
# * frees the output memory (`dvpp_free`) and destroys the output pic desc, whatever the ret_code.
#
# The checker opens its own VDEC channel with your callback, sends a clip of a random size and random user_data it
# makes on the spot, one chunk VDEC cannot decode, and the end of stream, then compares every picture byte for byte
# with the decoded frames (H.264 decoding is exact) and checks that each buffer and desc was released.

# %% [markdown] tags=["lang:zh"]
# ## 练习（3 分）
# 上面的回调把每张图片留在 DVPP 内存里交给 VPC。当一帧需要送到 **Host**——保存、显示或交给 OpenCV——时，回调要把它复制出来，并立即释放
# Device 内存。编写 `keep_frame(input_stream_desc, output_pic_desc, user_data)`，一个 VDEC 回调函数，它要：
#
# * 销毁它带来的输入码流描述（EOS 回调的也要销毁），并跳过为 0 的输出图片描述；
# * 读取输出描述的 ret_code：如果不为 0，保存 `kept[user_data] = (ret_code, None)`；
# * 否则把图片复制到 Host（`malloc_host`、kind 为 2 的 `memcpy`、`ptr_to_bytes`、[`acl.rt.free_host`](https://github.com/hicann/runtime/blob/a630024af57861939a7aaae9c14bfd1c4ef01958/python/docs/zh/api_ref/runtime/memory/function-free_host.md)），保存 `kept[user_data] = (0, picture)`，其中
#   `picture` 是**可见部分**的 NV12 图片，形状为 `(height * 3 // 2, width)` 的 numpy uint8 数组：先 `height` 行 Y，再 `height // 2` 行 UV，
#   每行 `width` 个字节——不含补齐。宽、高和 stride 从描述中读取（`dvpp_get_pic_desc_width / _height / _width_stride / _height_stride`）；
# * 无论 ret_code 如何，都释放输出内存（`dvpp_free`）并销毁输出图片描述。
#
# 检查器用你的回调打开它自己的 VDEC 通道，送入一段尺寸随机、user_data 也是当场随机生成的视频，外加一个 VDEC 无法解码的数据块和流结束标志，
# 然后把每张图片与解码结果逐字节比较（H.264 解码是精确的），并检查每块缓冲和每个描述都已释放。

# %% tags=["solution", "grade_id:nb15-keep-frame"]
kept = {}                                    # user_data -> (ret_code, picture or None)


def keep_frame(input_stream_desc, output_pic_desc, user_data):
    """VDEC callback: the visible NV12 picture copied to the host into kept; device memory and descs released."""
    ### BEGIN SOLUTION
    if input_stream_desc:
        check_ret("acl.media.dvpp_destroy_stream_desc", media.dvpp_destroy_stream_desc(input_stream_desc))
    if not output_pic_desc:
        return
    data = media.dvpp_get_pic_desc_data(output_pic_desc)
    ret_code = media.dvpp_get_pic_desc_ret_code(output_pic_desc)
    picture = None
    if ret_code == 0:
        w, h = media.dvpp_get_pic_desc_width(output_pic_desc), media.dvpp_get_pic_desc_height(output_pic_desc)
        ws = media.dvpp_get_pic_desc_width_stride(output_pic_desc)
        hs = media.dvpp_get_pic_desc_height_stride(output_pic_desc)
        size = ws * hs * 3 // 2
        host, ret = acl.rt.malloc_host(size)
        check_ret("acl.rt.malloc_host", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(host, size, data, size, FROM_DVPP))
        buffer = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.uint8)
        check_ret("acl.rt.free_host", acl.rt.free_host(host))
        y = buffer[:ws * hs].reshape(hs, ws)[:h, :w]
        uv = buffer[ws * hs:].reshape(hs // 2, ws)[:h // 2, :w]
        picture = np.vstack([y, uv])
    kept[user_data] = (ret_code, picture)
    check_ret("acl.media.dvpp_free", media.dvpp_free(data))
    check_ret("acl.media.dvpp_destroy_pic_desc", media.dvpp_destroy_pic_desc(output_pic_desc))
    ### END SOLUTION

# %% tags=["grade", "points:3", "grade_id:nb15-keep-frame-test"]
feedback = lab.check_vdec_callback(keep_frame, kept)
print(feedback)
assert feedback, feedback

# %% [markdown] tags=["lang:en"]
# ## Release everything
# The VDEC channel, its thread and every frame are already gone; what is left is the per-frame path: the datasets
# and their buffers, the score memory, the 224 × 224 picture and its desc, the resize config, the DVPP channel
# (`dvpp_destroy_channel` before `dvpp_destroy_channel_desc`), the model. Then the stream, context and device
# (`finalize` comes once, when the kernel exits). The ledger must read 0 live resources.

# %% [markdown] tags=["lang:zh"]
# ## 释放所有资源
# VDEC 通道、它的线程和每一帧都已经释放；剩下的是逐帧处理用到的：数据集及其缓冲、得分内存、224 × 224 图片及其描述、缩放配置、DVPP 通道
# （先 `dvpp_destroy_channel` 再 `dvpp_destroy_channel_desc`）和模型。然后是 Stream、Context 和 Device（`finalize` 在内核退出时执行一次）。
# 资源账本必须显示 0 个存活资源。

# %%
for release, handle in ((acl.destroy_data_buffer, in_buffer), (acl.destroy_data_buffer, out_buffer),
                        (acl.mdl.destroy_dataset, model_in), (acl.mdl.destroy_dataset, model_out),
                        (acl.rt.free_host, scores_host), (acl.rt.free, scores_dev),
                        (media.dvpp_destroy_pic_desc, small_desc), (media.dvpp_free, small_dev),
                        (media.dvpp_destroy_resize_config, resize_config),
                        (media.dvpp_destroy_channel, channel), (media.dvpp_destroy_channel_desc, channel),
                        (acl.mdl.unload, model_id), (acl.mdl.destroy_desc, model_desc)):
    check_ret(release.__name__, release(handle))
_ = at.release_resources(res)
print(lab.ledger_summary())

# %% [markdown] tags=["lang:en"]
# ## Summary
# * VDEC decodes H.264/H.265 **Annex B** streams sent **frame by frame**: cut the file into access units (NALs up to
#   a slice) first.
# * Results come back through a **callback** run by your thread's `acl.rt.process_report` loop (`acl.util.start_thread`;
#   `vdec_create_channel` subscribes it). The callback gets back both descs (yours to destroy) and `user_data`; a
#   frame's failure is only in the output desc's **ret_code**; the end of stream calls back with output desc 0.
# * Order of the end: send EOS → `vdec_destroy_channel` (waits for every callback) → clear the loop flag →
#   `stop_thread`.
# * Output NV12 strides: `ALIGN_UP(w, 16) × ALIGN_UP(h, 2)` on the 310/310P, any stride ≥ the size on the 310B
#   (so the former works everywhere); size `ws × hs × 3 / 2`.
# * The decoded picture stays in DVPP memory for VPC, the AIPP model and JPEGE: only the 1000 scores, or a JPEG, go to
#   the host.

# %% [markdown] tags=["lang:zh"]
# ## 小结
# * VDEC 解码**按帧**送入的 H.264/H.265 **Annex B** 码流：先把文件切成访问单元（到某个片为止的 NAL）。
# * 结果通过**回调函数**送回，回调由你的线程在 `acl.rt.process_report` 循环中执行（`acl.util.start_thread`；`vdec_create_channel` 会订阅这个线程）。
#   回调收回两个描述（由你销毁）和 `user_data`；某一帧的失败只体现在输出描述的 **ret_code** 里；流结束时的回调输出描述为 0。
# * 结束的顺序：送 EOS → `vdec_destroy_channel`（等所有回调执行完）→ 清掉循环标志 → `stop_thread`。
# * 输出 NV12 的 stride：310/310P 上为 `ALIGN_UP(w, 16) × ALIGN_UP(h, 2)`，310B 上任意 ≥ 尺寸的 stride 均可（所以前者处处适用）；大小为
#   `ws × hs × 3 / 2`。
# * 解码图片留在 DVPP 内存中，供 VPC、AIPP 模型和 JPEGE 使用：只有 1000 个得分或一张 JPEG 会回到 Host。

# %% [markdown] tags=["lang:en"]
# ## Check your understanding
# 1. `vdec_send_frame` returned 0 for every frame, but one frame never shows up in your results. Where do you look?
# 2. What goes wrong if the program clears the loop flag and calls `stop_thread` *before* `vdec_destroy_channel`?
# 3. A 1920 × 1080 stream: what output strides and buffer size does VDEC need on the 310? Could the 310B use less?
# 4. Why does the first access unit of the clip hold four NAL units and the others one?
# 5. Running the model inside the callback would also work. Why does this notebook keep the callback short and
#    classify afterwards on the main thread?
#
# **Next →** [16_events_and_profiling](16_events_and_profiling.ipynb) — timing and profiling what you built; or read
# `acl_teach/examples/video_classify.py`, this notebook's flow as one program.

# %% [markdown] tags=["lang:zh"]
# ## 自测题
# 1. 每一帧的 `vdec_send_frame` 都返回了 0，但有一帧始终没有出现在结果里。你去哪里找原因？
# 2. 如果程序在 `vdec_destroy_channel` *之前*就清掉循环标志并调用 `stop_thread`，会出什么问题？
# 3. 一路 1920 × 1080 的码流：在 310 上 VDEC 需要怎样的输出 stride 和缓冲大小？310B 上可以更小吗？
# 4. 为什么这段视频的第一个访问单元有四个 NAL 单元，而其他的只有一个？
# 5. 在回调里直接运行模型也能工作。为什么本节让回调保持简短，而在主线程上事后再分类？
#
# **下一节 →** [16_events_and_profiling](16_events_and_profiling.ipynb)——给你搭建的流程计时、采集性能数据；或者阅读
# `acl_teach/examples/video_classify.py`：把本节流程写成一个完整程序。
