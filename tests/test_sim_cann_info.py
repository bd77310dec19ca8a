"""Top-level acl: CANN attributes, device capability, package versions, finalize_reference's init count."""
import pytest

from acl_teach import sim
from acl_teach.sim.base import cann_info


def test_cann_attributes_follow_the_soc(acl):
    assert acl.get_cann_attribute_list() == ([], 0, 0)                       # Ascend310: none of the three
    assert acl.get_cann_attribute(0) == (0, 0) and acl.get_cann_attribute(2) == (0, 0)
    assert acl.get_cann_attribute(3) == (0, 100000)
    assert acl.get_cann_attribute(-1) == (0, 100000)                         # ACL_CANN_ATTR_UNDEFINED
    sim.configure(soc_name="Ascend910B")
    assert acl.get_cann_attribute_list() == ([0, 1], 2, 0)
    assert acl.get_cann_attribute(1) == (1, 0)
    with pytest.raises(TypeError) as info:
        acl.get_cann_attribute("BF16")
    assert str(info.value) == "acl.get_cann_attribute args parse failed"


def test_device_capability(acl):
    assert acl.get_device_capability(0, 0) == (2, 0)                # AI cores of the Ascend310
    assert acl.get_device_capability(0, 1) == (0, 0)
    assert acl.get_device_capability(0, 2) == (8 << 20, 0)          # L2
    assert acl.get_device_capability(0, 3) == (0, 100000)
    assert acl.get_device_capability(1, 0) == (0, 100000)           # only one device
    assert acl.get_device_capability(-1, 0) == (0, 100000)          # 'I' masks -1 to 0xFFFFFFFF
    sim.configure(soc_name="Ascend310P3")
    assert acl.get_device_capability(0, 1) == (7, 0)


def test_versions(acl):
    version, ret = acl.get_cann_version(0)
    assert ret == 0 and version == {"version": cann_info.SIM_VERSION, "major_version": "8", "minor_version": "0",
                                    "release_version": "RC2", "patch_version": "0", "reserved": ""}
    assert acl.get_cann_version(7)[0]["version"] == cann_info.SIM_DRIVER_VERSION
    empty, ret = acl.get_cann_version(8)
    assert ret == 100000 and set(empty.values()) == {""} and len(empty) == 6
    assert acl.get_version_str("runtime") == (cann_info.SIM_VERSION, 0)
    assert acl.get_version_str("opp-kernel") == (cann_info.SIM_VERSION, 0)   # '-' also tried as '_'
    assert acl.get_version_str("driver") == (cann_info.SIM_DRIVER_VERSION, 0)
    assert acl.get_version_str("nonexistent") == ("", 100003)                # ACL_ERROR_INVALID_FILE
    with pytest.raises(TypeError) as info:
        acl.get_version_str(None)
    assert str(info.value) == "acl.get_version_str args parse failed"


def test_finalize_reference_counts_inits(acl):
    sim.configure(explain=False)
    assert acl.finalize_reference() == (0, 100037)
    assert acl.init() == 0
    assert acl.init() == 100002 and acl.init() == 100002                    # each repeat is one more reference
    assert acl.rt.set_device(0) == 0
    assert acl.finalize_reference() == (2, 0)
    assert acl.finalize_reference() == (1, 0)
    assert acl.rt.get_device() == (0, 0)                                    # still initialised
    assert acl.finalize_reference() == (0, 0)                               # the last one finalizes
    assert acl.rt.get_device()[1] != 0
    assert acl.finalize_reference() == (0, 100037)
    assert acl.init() == 0 and acl.finalize() == 0
    assert acl.finalize_reference() == (0, 100037)                          # finalize clears the count
