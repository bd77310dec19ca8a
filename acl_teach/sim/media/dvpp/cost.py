"""How long the DVPP units (VDEC, VENC, VPC, JPEGD, PNGD) take on the simulated device: pixels per microsecond per SoC.

*simulator:* none of these rates is measured on a board. The 310's VDEC and VENC rates are of the
order of its usual datasheet line (decode 16 channels of 1080p at 30 fps, encode 1 channel of 1080p
at 30 fps); the 310P / 310B rates and every VPC, JPEGD and PNGD rate are guesses of the same order —
all UNCONFIRMED, and easy to change here. A task costs a fixed start-up plus its pixels (decoded /
encoded / read + written) at the unit's aggregate rate, as if one channel had the whole unit.
``dvpp_cost`` is the one cost function of every DVPP unit; core/timeline.py places the slices.
"""
from __future__ import annotations

from typing import Dict

from ...core.state import state

UNIT_LAUNCH_US = 10.0  # per frame / picture: the DVPP firmware's start-up (UNCONFIRMED)
_1080P30 = 1920 * 1080 * 30 / 1e6  # pixels per microsecond of one 1080p 30 fps stream (~62.2)

# unit -> SoC family -> pixels per microsecond (UNCONFIRMED: order of magnitude from datasheet channel counts)
PX_PER_US: Dict[str, Dict[str, float]] = {
    "vdec": {"310": 16 * _1080P30, "310P": 128 * _1080P30, "310B": 20 * _1080P30},
    "venc": {"310": 1 * _1080P30, "310P": 24 * _1080P30, "310B": 3 * _1080P30},
    "vpc": {"310": 1000.0, "310P": 4000.0, "310B": 2000.0},
    "jpegd": {"310": 700.0, "310P": 2800.0, "310B": 1400.0},  # ~1 GB/s of YUV420SP written on the 310
    "pngd": {"310": 50.0, "310P": 200.0, "310B": 100.0},
}


def family(soc_name: str) -> str:
    """'310', '310P' or '310B' for a SoC name such as 'Ascend310', 'Ascend310P3', 'Ascend310B1'."""
    tail = soc_name[len("Ascend310"):len("Ascend310") + 1] if soc_name.startswith("Ascend310") else ""
    return {"P": "310P", "B": "310B"}.get(tail, "310")


def dvpp_cost(unit: str, pixels: int) -> float:
    """Simulated microseconds ``unit`` ('vdec', 'venc', 'vpc', 'jpegd', 'pngd') takes for ``pixels`` pixels."""
    return UNIT_LAUNCH_US + max(int(pixels), 0) / PX_PER_US[unit][family(state().config.soc_name)]
