"""Video facts (VDEC / VENC and the DVPP stream description) shared by the simulator, tools and tests.

Values from acl_dvpp.h (acldvppStreamFormat, aclvencChannelDescParamType — the enum is checked in
ACL's compatibility unit test), the pyACL VDEC/VENC pages and the samples
(``vdec_resnet50_classification`` aligns the decoded picture to 16 x 2, acllite's ``dvpp_vdec.py``).
Anything marked UNCONFIRMED is the simulator's reading where the sources are silent.
"""
from __future__ import annotations

from .dvpp import align_up

# acldvppStreamFormat (the VDEC/VENC "entype")
H265_MAIN_LEVEL, H264_BASELINE_LEVEL, H264_MAIN_LEVEL, H264_HIGH_LEVEL = 0, 1, 2, 3
STREAM_FORMATS = {H265_MAIN_LEVEL: "hevc", H264_BASELINE_LEVEL: "h264", H264_MAIN_LEVEL: "h264",
                  H264_HIGH_LEVEL: "h264"}
X264_PROFILES = {H264_BASELINE_LEVEL: "baseline", H264_MAIN_LEVEL: "main", H264_HIGH_LEVEL: "high"}

# aclvdecChannelDescParamType
ACL_VDEC_CSC_MATRIX_UINT32 = 0

# aclvencChannelDescParamType
(ACL_VENC_THREAD_ID_UINT64, ACL_VENC_CALLBACK_PTR, ACL_VENC_PIXEL_FORMAT_UINT32, ACL_VENC_ENCODE_TYPE_UINT32,
 ACL_VENC_PIC_WIDTH_UINT32, ACL_VENC_PIC_HEIGHT_UINT32, ACL_VENC_KEY_FRAME_INTERVAL_UINT32, ACL_VENC_BUF_ADDR_PTR,
 ACL_VENC_BUF_SIZE_UINT32, ACL_VENC_RC_MODE_UINT32, ACL_VENC_SRC_RATE_UINT32, ACL_VENC_MAX_BITRATE_UINT32,
 ACL_VENC_MAX_IP_PROP_UINT32) = range(13)

VIDEO_OUTPUT_FORMATS = frozenset({1, 2})  # VDEC output / VENC input on the 310: NV12, NV21
VDEC_STRIDE_ALIGN = (16, 2)  # widthStride % 16, heightStride % 2 (the vdec sample's "stride to 16*2")
VENC_STRIDE_ALIGN = (16, 2)  # UNCONFIRMED for VENC: the same rule as VDEC's output, which feeds it
VIDEO_MIN, VIDEO_MAX = 128, 4096  # VDEC stream resolution per side (310), UNCONFIRMED for newer SoCs
VENC_MIN, VENC_MAX = 128, 1920  # VENC picture resolution per side (310), UNCONFIRMED for newer SoCs
VENC_BUF_SIZE_310 = 3686400  # "310 and 910: not support to set this parameter, default 3686400 Byte"
VENC_MAX_BITRATE_DEFAULT = 300  # kbit/s on the 310 (0 means the default)
VENC_SRC_RATE_DEFAULT = 30  # UNCONFIRMED frame rate when src_rate is 0
VIDEO_CHANNELS_310 = 32  # UNCONFIRMED: VDEC channel ids 0..31 on the 310 (256 on 310P)


def channel_limit(soc_name: str) -> int:
    """How many VDEC channel ids a SoC has (0..limit-1)."""
    return VIDEO_CHANNELS_310 if soc_name.startswith("Ascend310") and soc_name[9:10] not in ("P", "B") else 256


def vdec_strides(width: int, height: int):
    """(widthStride, heightStride) VDEC writes a width x height frame with: ALIGN_UP(w, 16), ALIGN_UP(h, 2)."""
    wa, ha = VDEC_STRIDE_ALIGN
    return align_up(width, wa), align_up(height, ha)


def yuv420sp_size(width_stride: int, height_stride: int) -> int:
    """Bytes of a YUV420SP picture: widthStride * heightStride * 3 / 2."""
    return width_stride * height_stride * 3 // 2
