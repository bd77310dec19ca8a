"""acl.media's VPC/JPEGE configs: the crop/paste ROI, the resize interpolation and the JPEGE quality."""
from __future__ import annotations

from dataclasses import dataclass

from ...core.args import binding
from .common import bad_handle, create, destroy, lookup
from ...core.state import fail

MAX_INTERPOLATION = 4  # V100: 0 default, 1 bilinear, 2 nearest (OpenCV), 3 bilinear (TF), 4 nearest (TF)


@dataclass
class RoiConfig:
    """An inclusive box: width = right - left + 1, height = bottom - top + 1 (no host check: the device checks)."""

    left: int
    right: int
    top: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1


@dataclass
class ResizeConfig:
    """The resize interpolation (default 0: the DVPP's own algorithm)."""

    interpolation: int = 0


@dataclass
class JpegeConfig:
    """The JPEG encoder's quality level [0, 100] (0 behaves like 100)."""

    level: int = 100


@binding("acl.media.dvpp_create_roi_config", "IIII")
def dvpp_create_roi_config(api, left, right, top, bottom):
    """A ROI (0 on failure); the 310's even/odd and 16-alignment rules are checked by the device, not here."""
    return create(api, RoiConfig(left, right, top, bottom), "dvpp roi config",
                  f"({left}, {right}, {top}, {bottom})")


@binding("acl.media.dvpp_destroy_roi_config", "k")
def dvpp_destroy_roi_config(api, roi_config):
    """Free a ROI (0)."""
    return destroy(api, roi_config, RoiConfig, "ROI config (acl.media.dvpp_create_roi_config)")


@binding("acl.media.dvpp_set_roi_config", "kIIII")
def dvpp_set_roi_config(api, roi_config, left, right, top, bottom):
    """Set all four edges."""
    roi = lookup(roi_config, RoiConfig)
    if roi is None:
        return bad_handle(api, roi_config, "ROI config")
    roi.left, roi.right, roi.top, roi.bottom = left, right, top, bottom
    return 0


def _roi_setter(edge: str):
    @binding(f"acl.media.dvpp_set_roi_config_{edge}", "kI")
    def setter(api, roi_config, value):
        roi = lookup(roi_config, RoiConfig)
        if roi is None:
            return bad_handle(api, roi_config, "ROI config")
        setattr(roi, edge, value)
        return 0
    setter.__name__ = f"dvpp_set_roi_config_{edge}"
    setter.__doc__ = f"Set the ROI's {edge} edge."
    return setter


dvpp_set_roi_config_left = _roi_setter("left")
dvpp_set_roi_config_right = _roi_setter("right")
dvpp_set_roi_config_top = _roi_setter("top")
dvpp_set_roi_config_bottom = _roi_setter("bottom")


@binding("acl.media.dvpp_create_resize_config")
def dvpp_create_resize_config(api):
    """A resize config with interpolation 0 (0 on failure)."""
    return create(api, ResizeConfig(), "dvpp resize config", "interpolation 0")


@binding("acl.media.dvpp_destroy_resize_config", "k")
def dvpp_destroy_resize_config(api, resize_config):
    """Free a resize config (0)."""
    return destroy(api, resize_config, ResizeConfig, "resize config (acl.media.dvpp_create_resize_config)")


@binding("acl.media.dvpp_set_resize_config_interpolation", "kI")
def dvpp_set_resize_config_interpolation(api, resize_config, interpolation):
    """0..4 on the 310; larger values are refused with 100000 (ACL's host check)."""
    cfg = lookup(resize_config, ResizeConfig)
    if cfg is None:
        return bad_handle(api, resize_config, "resize config")
    if interpolation > MAX_INTERPOLATION:
        return fail(100000, api, f"interpolation {interpolation} is not one of 0 (default), 1 (bilinear), "
                    f"2 (nearest), 3 (TF bilinear), 4 (TF nearest).")
    cfg.interpolation = interpolation
    return 0


@binding("acl.media.dvpp_get_resize_config_interpolation", "k")
def dvpp_get_resize_config_interpolation(api, resize_config):
    """The interpolation (bare value; 0 for a bad handle)."""
    cfg = lookup(resize_config, ResizeConfig)
    return cfg.interpolation if cfg is not None else 0


@binding("acl.media.dvpp_create_jpege_config")
def dvpp_create_jpege_config(api):
    """A JPEGE config (0 on failure)."""
    return create(api, JpegeConfig(), "dvpp jpege config", "level 100")


@binding("acl.media.dvpp_destroy_jpege_config", "k")
def dvpp_destroy_jpege_config(api, jpege_config):
    """Free a JPEGE config (0)."""
    return destroy(api, jpege_config, JpegeConfig, "JPEGE config (acl.media.dvpp_create_jpege_config)")


@binding("acl.media.dvpp_set_jpege_config_level", "kI")
def dvpp_set_jpege_config_level(api, jpege_config, level):
    """Quality [0, 100] (UNCONFIRMED: > 100 is refused with 100000)."""
    cfg = lookup(jpege_config, JpegeConfig)
    if cfg is None:
        return bad_handle(api, jpege_config, "JPEGE config")
    if level > 100:
        return fail(100000, api, f"level {level} is outside [0, 100].")
    cfg.level = level
    return 0


@binding("acl.media.dvpp_get_jpege_config_level", "k")
def dvpp_get_jpege_config_level(api, jpege_config):
    """The quality level (bare value)."""
    cfg = lookup(jpege_config, JpegeConfig)
    return cfg.level if cfg is not None else 0


__all__ = [n for n in dir() if n.startswith("dvpp_")]
