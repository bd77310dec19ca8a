"""How long the DVPP units (VDEC, VENC, VPC, PNGD) take on the simulated device: pixels per microsecond per SoC.

*simulator:* none of these rates is measured on a board. The 310's VDEC and VENC rates are of the
order of its usual datasheet line (decode 16 channels of 1080p at 30 fps, encode 1 channel of 1080p
at 30 fps); the 310P / 310B rates and every VPC and PNGD rate are guesses of the same order —
all UNCONFIRMED, and easy to change here. A frame costs a fixed start-up
plus its pixels (decoded / encoded / read + written) at the unit's aggregate rate, as if one channel
had the whole unit. ``timeline.py`` places the slices; these functions only say how long they last.
"""
from __future__ import annotations

from typing import Dict, Tuple

from .state import state

UNIT_LAUNCH_US = 10.0  # per frame / picture: the DVPP firmware's start-up (UNCONFIRMED)
_1080P30 = 1920 * 1080 * 30 / 1e6  # pixels per microsecond of one 1080p 30 fps stream (~62.2)

# SoC family -> pixels per microsecond (UNCONFIRMED: order of magnitude from datasheet channel counts)
VDEC_PX_PER_US: Dict[str, float] = {"310": 16 * _1080P30, "310P": 128 * _1080P30, "310B": 20 * _1080P30}
VENC_PX_PER_US: Dict[str, float] = {"310": 1 * _1080P30, "310P": 24 * _1080P30, "310B": 3 * _1080P30}
VPC_PX_PER_US: Dict[str, float] = {"310": 1000.0, "310P": 4000.0, "310B": 2000.0}
PNGD_PX_PER_US: Dict[str, float] = {"310": 50.0, "310P": 200.0, "310B": 100.0}


def family(soc_name: str) -> str:
    """'310', '310P' or '310B' for a SoC name such as 'Ascend310', 'Ascend310P3', 'Ascend310B1'."""
    tail = soc_name[len("Ascend310"):len("Ascend310") + 1] if soc_name.startswith("Ascend310") else ""
    return {"P": "310P", "B": "310B"}.get(tail, "310")


def _rate(table: Dict[str, float]) -> float:
    return table[family(state().config.soc_name)]


def vdec_cost(width: int, height: int) -> float:
    """Simulated microseconds VDEC takes to decode one picture of ``width`` x ``height``."""
    return UNIT_LAUNCH_US + width * height / _rate(VDEC_PX_PER_US)


def venc_cost(width: int, height: int) -> float:
    """Simulated microseconds VENC takes to encode one picture of ``width`` x ``height``."""
    return UNIT_LAUNCH_US + width * height / _rate(VENC_PX_PER_US)


def vpc_cost(src: Tuple[int, int], dst: Tuple[int, int]) -> float:
    """Simulated microseconds of one VPC task reading ``src`` (w, h) pixels and writing ``dst`` (w, h)."""
    return UNIT_LAUNCH_US + (src[0] * src[1] + dst[0] * dst[1]) / _rate(VPC_PX_PER_US)


def pngd_cost(width: int, height: int) -> float:
    """Simulated microseconds PNGD takes to decode one PNG of ``width`` x ``height``."""
    return UNIT_LAUNCH_US + width * height / _rate(PNGD_PX_PER_US)
