"""``acl.media.dvpp_malloc_with_cfg``: dvpp_malloc with a memory policy and an aclrtMallocConfig given as a dict.

The binding checks the dict as it converts it (``{}`` = no config; else ``{'numAttrs': n, 'attrs':
[{'attr': e, 'value': {'moduleId' | 'deviceId' | 'rsv': …}}, …]}``) and raises what it raises; the
memory is then what dvpp_malloc gives. The policy and attributes change nothing in the simulator
(UNCONFIRMED what a board does with them beyond placement).
"""
from __future__ import annotations

from typing import Any

from ...core.args import CONTEXT, binding
from .memory import dvpp_malloc


def _check_attr(item: Any) -> None:
    if not isinstance(item, dict):
        raise TypeError("the aclrtMallocWithCfg argument is not dict")
    if not isinstance(item.get("attr"), int):
        raise TypeError("the aclrtMallocWithCfg argument 'attr' is not an int (an aclrtMallocAttrType)")
    value = item.get("value")
    if not isinstance(value, dict):
        raise TypeError("the aclrtMallocAttrValue argument is not dict")
    if not any(key in value for key in ("moduleId", "deviceId", "rsv")):
        raise KeyError("No valid key found in aclrtMallocAttrValue")
    for key in ("moduleId", "deviceId"):
        if key in value and (not isinstance(value[key], int) or value[key] < 0):
            raise ValueError("PyLong_AsUnsignedLong failed")


def _check_cfg(cfg: Any) -> None:
    """The binding's conversion of the config dict, with its exceptions."""
    if not isinstance(cfg, dict):
        raise TypeError("pyCfg is not dict!")
    if not cfg:
        return
    if "attrs" not in cfg:
        raise TypeError("the aclrtMallocAttrValue argument is not dict")
    if not isinstance(cfg.get("numAttrs"), int):
        raise TypeError("the aclrtMallocConfig argument 'numAttrs' is missing or not an int (UNCONFIRMED text)")
    attrs = cfg["attrs"]
    if not isinstance(attrs, list) or len(attrs) != cfg["numAttrs"]:
        raise KeyError("The numAttrs inputed does not match the expected numAttrs")
    for item in attrs:
        _check_attr(item)


@binding("acl.media.dvpp_malloc_with_cfg", "kiO", needs=CONTEXT, outs=1)
def dvpp_malloc_with_cfg(api, size, policy, cfg):
    """(device pointer, ret): DVPP memory as dvpp_malloc, after the binding's checks of the config dict."""
    _check_cfg(cfg)
    return dvpp_malloc(size)


__all__ = ["dvpp_malloc_with_cfg"]
