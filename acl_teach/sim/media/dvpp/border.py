"""acl.media's border config (acldvppBorderConfig): what ``dvpp_vpc_batch_crop_resize_make_border_async`` pads with.

Fields: border type (acldvppBorderType: BORDER_CONSTANT 0, BORDER_REPLICATE 1, BORDER_REFLECT 2,
BORDER_REFLECT_101 3), the top/bottom/left/right widths, and four double values (the constant
colour, per channel: Y, U, V for a YUV output — UNCONFIRMED order). Fresh configs hold zeros. An index
above 3 is refused with 100000 (set) or returns 0.0 (get), UNCONFIRMED.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

from ...core.args import binding
from .common import bad_handle, create, destroy, lookup
from ...core.state import fail, state

BORDER_CONSTANT, BORDER_REPLICATE, BORDER_REFLECT, BORDER_REFLECT_101 = range(4)
EDGES = ("top", "bottom", "left", "right")


@dataclass
class BorderConfig:
    """An acldvppBorderConfig."""

    value: List[float] = field(default_factory=lambda: [0.0] * 4)
    border_type: int = BORDER_CONSTANT
    top: int = 0
    bottom: int = 0
    left: int = 0
    right: int = 0


def border(handle: int) -> "BorderConfig | None":
    """The live border config behind ``handle``."""
    return lookup(handle, BorderConfig)


@binding("acl.media.dvpp_create_border_config")
def dvpp_create_border_config(api):
    """A new border config (0 on failure): constant border, widths 0, values 0."""
    return create(api, BorderConfig(), "dvpp border config", "acl.media border config")


@binding("acl.media.dvpp_destroy_border_config", "k")
def dvpp_destroy_border_config(api, border_config):
    """Free a border config (NULL -> 0)."""
    return destroy(api, border_config, BorderConfig, "border config (acl.media.dvpp_create_border_config)")


@binding("acl.media.dvpp_set_border_config_value", "kId")
def dvpp_set_border_config_value(api, border_config, index, value):
    """Set channel ``index`` (0..3) of the constant border colour."""
    cfg = border(border_config)
    if cfg is None:
        return bad_handle(api, border_config, "border config")
    if index > 3:
        return fail(100000, api, f"index {index}: the border colour has channels 0..3 (UNCONFIRMED code).")
    cfg.value[index] = value
    return 0


@binding("acl.media.dvpp_get_border_config_value", "kI")
def dvpp_get_border_config_value(api, border_config, index):
    """Channel ``index`` of the constant border colour (a float)."""
    cfg = border(border_config)
    if cfg is None or index > 3:
        fail(100000, api, f"{state().describe_handle(border_config)} is not a live border config, or index {index} "
             f"is above 3; returning 0.0.")
        return 0.0
    return cfg.value[index]


@binding("acl.media.dvpp_set_border_config_border_type", "ki")
def dvpp_set_border_config_border_type(api, border_config, border_type):
    """Set the border type (0 constant, 1 replicate, 2 reflect, 3 reflect 101)."""
    cfg = border(border_config)
    if cfg is None:
        return bad_handle(api, border_config, "border config")
    if border_type not in range(4):
        return fail(100000, api, f"border type {border_type}: BORDER_CONSTANT (0), BORDER_REPLICATE (1), "
                    f"BORDER_REFLECT (2) or BORDER_REFLECT_101 (3) (UNCONFIRMED code).")
    cfg.border_type = border_type
    return 0


@binding("acl.media.dvpp_get_border_config_border_type", "k")
def dvpp_get_border_config_border_type(api, border_config):
    """The border type (bare int)."""
    cfg = border(border_config)
    if cfg is None:
        fail(100000, api, f"{state().describe_handle(border_config)} is not a live border config; returning 0.")
        return 0
    return cfg.border_type


def _setter(edge: str):
    @binding(f"acl.media.dvpp_set_border_config_{edge}", "kI")
    def setter(api, border_config, value):
        cfg = border(border_config)
        if cfg is None:
            return bad_handle(api, border_config, "border config")
        setattr(cfg, edge, value)
        return 0
    setter.__name__ = f"dvpp_set_border_config_{edge}"
    setter.__doc__ = f"Set the {edge} border width in pixels."
    return setter


def _getter(edge: str):
    @binding(f"acl.media.dvpp_get_border_config_{edge}", "k")
    def getter(api, border_config):
        cfg = border(border_config)
        if cfg is None:
            fail(100000, api, f"{state().describe_handle(border_config)} is not a live border config; returning 0.")
            return 0
        return getattr(cfg, edge)
    getter.__name__ = f"dvpp_get_border_config_{edge}"
    getter.__doc__ = f"The {edge} border width (bare value)."
    return getter


for _edge in EDGES:
    globals()[f"dvpp_set_border_config_{_edge}"] = _setter(_edge)
    globals()[f"dvpp_get_border_config_{_edge}"] = _getter(_edge)

__all__ = [n for n, f in dict(globals()).items() if n.startswith("dvpp_") and hasattr(f, "__acl_api__")]
