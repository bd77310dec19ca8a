"""DVPP facts shared by the simulator and tools: pixel formats, format sets and each SoC's alignment rules.

Values from acl_dvpp.h and the pyACL DVPP pages (summarised with their sources in docs/dvpp.md).
"""
from __future__ import annotations

from typing import Dict, Tuple

# acldvppPixelFormat (acl_dvpp.h)
PIXEL_FORMAT_YUV_400 = 0
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1  # NV12
PIXEL_FORMAT_YVU_SEMIPLANAR_420 = 2  # NV21
PIXEL_FORMAT_YUV_SEMIPLANAR_422 = 3
PIXEL_FORMAT_YVU_SEMIPLANAR_422 = 4
PIXEL_FORMAT_YUV_SEMIPLANAR_444 = 5
PIXEL_FORMAT_YVU_SEMIPLANAR_444 = 6
PIXEL_FORMAT_YUYV_PACKED_422 = 7
PIXEL_FORMAT_UYVY_PACKED_422 = 8
PIXEL_FORMAT_YVYU_PACKED_422 = 9
PIXEL_FORMAT_VYUY_PACKED_422 = 10
PIXEL_FORMAT_YUV_PACKED_444 = 11
PIXEL_FORMAT_RGB_888 = 12
PIXEL_FORMAT_BGR_888 = 13
PIXEL_FORMAT_ARGB_8888 = 14
PIXEL_FORMAT_ABGR_8888 = 15
PIXEL_FORMAT_RGBA_8888 = 16
PIXEL_FORMAT_BGRA_8888 = 17
PIXEL_FORMAT_YUV_SEMI_PLANNER_420_10BIT = 18
PIXEL_FORMAT_YVU_SEMI_PLANNER_420_10BIT = 19
PIXEL_FORMAT_YVU_PLANAR_420 = 20
PIXEL_FORMAT_YUV_SEMIPLANAR_440 = 1000
PIXEL_FORMAT_YVU_SEMIPLANAR_440 = 1001
PIXEL_FORMAT_FLOAT32 = 1002
PIXEL_FORMAT_UNKNOWN = 10000

# acldvppJpegFormat (get_image_info_v2)
ACL_JPEG_CSS_444, ACL_JPEG_CSS_422, ACL_JPEG_CSS_420, ACL_JPEG_CSS_GRAY, ACL_JPEG_CSS_440, ACL_JPEG_CSS_411 = range(6)
ACL_JPEG_CSS_UNKNOWN = 1000

# acldvppChannelMode
DVPP_CHNMODE_VPC, DVPP_CHNMODE_JPEGD, DVPP_CHNMODE_JPEGE = 1, 2, 4

# Semi-planar layouts: format -> (chroma x subsampling, chroma y subsampling, V first?)
SEMIPLANAR: Dict[int, Tuple[int, int, bool]] = {
    1: (2, 2, False), 2: (2, 2, True), 3: (2, 1, False), 4: (2, 1, True), 5: (1, 1, False), 6: (1, 1, True),
    1000: (1, 2, False), 1001: (1, 2, True)}

JPEGD_OUTPUT_FORMATS = frozenset({1, 2, 3, 4, 6, 1000, 1001, 10000})  # V100 (310) set, ACL host check -> 100027
VPC_INPUT_FORMATS = frozenset(range(0, 20))  # 310 host check: 0..19, else 100027
VPC_OUTPUT_FORMATS = frozenset({1, 2})  # 310: NV12 / NV21 only, else 100027

JPEG_MIN, JPEG_MAX = 32, 8192  # JPEGD input resolution (predict_dec_size: else 100000)
VPC_MIN_W, VPC_MIN_H, VPC_MAX = 10, 6, 4096  # VPC input / output / ROI resolution (non-8K)
VPC_8K_MAX = 8192
VPC_WIDTH_STRIDE_MIN, VPC_WIDTH_STRIDE_MAX = 32, 4096 * 4
VPC_SCALE_MIN, VPC_SCALE_MAX = 1 / 32, 16  # per axis, 310 [DOC-A500]
PASTE_LEFT_ALIGN = 16


def align_up(value: int, align: int) -> int:
    """``value`` rounded up to a multiple of ``align`` (the samples' align_up)."""
    return (value + align - 1) // align * align


def jpegd_stride_align(soc_name: str) -> Tuple[int, int]:
    """(width, height) stride alignment of a JPEGD output: 128/16 on the 310 (and 910), 64/16 on newer SoCs."""
    return (128, 16) if soc_name.startswith("Ascend310") and soc_name[9:10] not in ("P", "B") else (64, 16)


VPC_STRIDE_ALIGN = (16, 2)  # VPC input/output NV12/NV21: widthStride % 16, heightStride % 2 (310, 310P)


def chroma_factor(fmt: int) -> Tuple[int, int]:
    """(numerator, denominator) of a semi-planar buffer's bytes per widthStride*heightStride (3/2 for 420)."""
    sx, sy, _ = SEMIPLANAR.get(fmt, (2, 2, False))
    return (sx * sy + 2, sx * sy)  # 420: 6/4, 422: 4/2, 444: 3/1, 440: 4/2


def image_bytes(fmt: int, width_stride: int, height_stride: int) -> int:
    """Bytes of a semi-planar picture with these strides (YUV400 counted as 3/2, as the 310 VPC table does)."""
    num, den = chroma_factor(fmt)
    return width_stride * height_stride * num // den


def jpegd_output_size(fmt: int, width: int, height: int, soc_name: str) -> int:
    """predict_dec_size: the decode buffer a JPEG of ``width``x``height`` needs on ``soc_name``."""
    wa, ha = jpegd_stride_align(soc_name)
    return image_bytes(fmt, align_up(width, wa), align_up(height, ha))


FORMAT_NAMES = {value: name for name, value in dict(globals()).items() if name.startswith("PIXEL_FORMAT_")}
