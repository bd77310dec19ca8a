"""Top-level ``acl`` queries about the installed CANN: attributes, device capabilities, package versions, init references.

From the runtime (hicann/runtime src/acl/aclrt_impl/acl.cpp, src/acl/utils/cann_info_utils.cpp):
* aclGetCannAttribute knows INF_NAN (0), BF16 (1), JIT_COMPILE (2); anything else is 100000.
* aclGetDeviceCapability: a device id past the count is 100000; info types AI_CORE_NUM (0), VECTOR_CORE_NUM (1),
  L2_SIZE (2), others 100000.
* aclsysGetCANNVersion: package names CANN 0 … DRIVER 7, others 100000 (the dict of empty strings comes back);
  aclsysGetVersionStr: an unknown package is ACL_ERROR_INVALID_FILE (100003), '' comes back; a name with '-'
  is also tried with '_' and the other way round.
* aclInit counts references: each init while initialised adds one (and returns 100002);
  aclFinalizeReference takes one away and finalizes at the last (returning the count left), 100037 without any.

simulator: the versions (SIM_VERSION) and which attributes a SoC supports (ATTRS_BY_SOC) are the simulator's
choices, UNCONFIRMED against a given board; none of these calls needs acl.init (UNCONFIRMED).
"""
from __future__ import annotations

from ..core.args import binding
from .process import finalize, init_refs, set_init_refs
from ...spec import rt_device as R
from ..core.state import fail, state

__all__ = ["get_cann_attribute_list", "get_cann_attribute", "get_device_capability", "get_cann_version",
           "get_version_str", "finalize_reference"]

ATTR_INF_NAN, ATTR_BF16, ATTR_JIT_COMPILE = 0, 1, 2
ATTRS = (ATTR_INF_NAN, ATTR_BF16, ATTR_JIT_COMPILE)
ATTRS_BY_SOC = {"Ascend310": (), "Ascend310P3": (ATTR_INF_NAN,), "Ascend310B4": (ATTR_INF_NAN,),
                "Ascend910B": (ATTR_INF_NAN, ATTR_BF16)}
DEVICE_INFO_AI_CORE_NUM, DEVICE_INFO_VECTOR_CORE_NUM, DEVICE_INFO_L2_SIZE = 0, 1, 2
SIM_VERSION = "8.0.RC2"
SIM_DRIVER_VERSION = "24.1.rc2"
PACKAGES = ("cann", "runtime", "compiler", "hccl", "toolkit", "opp", "opp_kernel", "driver")  # aclCANNPackageName order
_VERSION_KEYS = ("version", "major_version", "minor_version", "release_version", "patch_version", "reserved")
ERROR_INVALID_FILE = 100003
ERROR_REPEAT_FINALIZE = 100037


def _supported() -> tuple:
    return ATTRS_BY_SOC.get(state().config.soc_name, ())


@binding("acl.get_cann_attribute_list")
def get_cann_attribute_list(api):
    """([aclCannAttr …], count, ret): the CANN features this machine supports."""
    attrs = list(_supported())
    return attrs, len(attrs), 0


@binding("acl.get_cann_attribute", "i")
def get_cann_attribute(api, cann_attr):
    """(1 supported / 0 not, ret) for one aclCannAttr."""
    if cann_attr not in ATTRS:
        return 0, fail(100000, api, f"cann_attr {cann_attr} is not an aclCannAttr (INF_NAN 0, BF16 1, JIT_COMPILE 2).")
    return int(cann_attr in _supported()), 0


@binding("acl.get_device_capability", "Ii")
def get_device_capability(api, device_id, device_info):
    """(value, ret): AI Core count, Vector Core count or L2 size of a device (int64)."""
    count = state().config.device_count
    if device_id > count - 1:
        return 0, fail(100000, api, f"deviceId {device_id} greater than deviceNum {count}.")
    table = R.SOC_INFO.get(state().config.soc_name, R.SOC_INFO["Ascend310"])
    keys = {DEVICE_INFO_AI_CORE_NUM: R.DEV_ATTR_AICORE_CORE_NUM, DEVICE_INFO_VECTOR_CORE_NUM: R.DEV_ATTR_VECTOR_CORE_NUM,
            DEVICE_INFO_L2_SIZE: R.DEV_ATTR_L2_CACHE_SIZE}
    if device_info not in keys:
        return 0, fail(100000, api, f"device_info {device_info} is not an aclDeviceInfo "
                       f"(AI_CORE_NUM 0, VECTOR_CORE_NUM 1, L2_SIZE 2).")
    return table[keys[device_info]], 0


def _version_of(package: str) -> str:
    return SIM_DRIVER_VERSION if package == "driver" else SIM_VERSION


def _parts(version: str) -> dict:
    """The aclCANNPackageVersion fields: '8.0.RC2' -> major '8', minor '0', release 'RC2', patch '0'."""
    pieces = version.split(".") + ["0", "0", "0"]
    return dict(zip(_VERSION_KEYS, (version, pieces[0], pieces[1], pieces[2], pieces[3], "")))


@binding("acl.get_cann_version", "I")
def get_cann_version(api, name):
    """({'version', 'major_version', …}, ret) of one CANN package (deprecated for get_version_str)."""
    if name >= len(PACKAGES):
        return dict.fromkeys(_VERSION_KEYS, ""), fail(100000, api, f"package name {name} is not an "
                                                     f"aclCANNPackageName (0..{len(PACKAGES) - 1}).")
    return _parts(_version_of(PACKAGES[name])), 0


@binding("acl.get_version_str", "s")
def get_version_str(api, pkg_name):
    """(version string, ret) of the package named ``pkg_name`` ('runtime', 'opp_kernel' or 'opp-kernel', …)."""
    for name in (pkg_name, pkg_name.replace("-", "_"), pkg_name.replace("_", "-")):
        if name in PACKAGES:
            return _version_of(name), 0
    return "", fail(ERROR_INVALID_FILE, api, f"no version.info for package {pkg_name!r} "
                    f"(the simulator knows {', '.join(PACKAGES)}).")


@binding("acl.finalize_reference")
def finalize_reference(api):
    """(references left, ret): undo one acl.init; the last one finalizes as acl.finalize does."""
    refs = init_refs()
    if refs > 1:
        set_init_refs(refs - 1)
        return refs - 1, 0
    if refs < 1:
        return 0, fail(ERROR_REPEAT_FINALIZE, api, "no acl.init reference is left (finalize already ran, or "
                       "init never did).")
    ret = finalize.__wrapped__(api)
    return init_refs(), ret
