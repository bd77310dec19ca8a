"""acl.rt device queries and settings: info, capability, uuid, peer access, id maps, limits, sat mode."""
import pytest

from acl_teach import sim
from acl_teach.spec import rt_device as R


@pytest.fixture
def two(acl):
    sim.configure(device_count=2)
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    return acl


def test_get_device_info_reports_the_configured_machine(acl):
    sim.configure(device_memory=1 << 30)
    acl.init()
    assert acl.rt.get_device_info(0, R.DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE) == (1 << 30, 0)
    assert acl.rt.get_device_info(0, R.DEV_ATTR_AICORE_CORE_NUM) == (2, 0)
    assert acl.rt.get_device_info(5, R.DEV_ATTR_AICORE_CORE_NUM) == (0, 107001)
    assert acl.rt.get_device_info(0, 9999) == (0, 100000)
    assert acl.rt.get_device_capability(0, R.DEV_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV) == (0, 0)


def test_uuid_is_stable_per_device_and_differs_between_devices(two):
    u0, ret = two.rt.device_get_uuid(0)
    assert ret == 0 and len(u0["bytes"]) == 16 and all(0 <= b < 256 for b in u0["bytes"])
    assert two.rt.device_get_uuid(0) == (u0, 0)
    assert two.rt.device_get_uuid(1)[0] != u0
    assert two.rt.device_get_uuid(2)[1] == 107001


def test_peer_access_between_two_devices(two):
    acl = two
    assert acl.rt.device_can_access_peer(0, 1) == (1, 0)
    assert acl.rt.device_can_access_peer(0, 0)[1] == 107000
    assert acl.rt.device_can_access_peer(0, 2) == (0, 107001)
    assert acl.rt.device_peer_access_status(0, 1) == (0, 0)
    assert acl.rt.device_disable_peer_access(1) == 107000
    assert acl.rt.device_enable_peer_access(1, 1) == 100000
    assert acl.rt.device_enable_peer_access(1, 0) == 0
    assert acl.rt.device_peer_access_status(0, 1) == (1, 0)
    assert acl.rt.device_peer_access_status(1, 0) == (0, 0)  # one direction only
    assert acl.rt.device_disable_peer_access(1) == 0
    assert acl.rt.device_peer_access_status(0, 1) == (0, 0)


def test_enable_peer_access_needs_a_context(acl):
    sim.configure(device_count=2)
    acl.init()
    assert acl.rt.device_enable_peer_access(1, 0) == 107002


def test_id_maps_are_identity_and_refuse_bad_ids(two):
    for f in (two.rt.get_logic_dev_id_by_user_dev_id, two.rt.get_user_dev_id_by_logic_dev_id,
              two.rt.get_logic_dev_id_by_phy_dev_id, two.rt.get_phy_dev_id_by_logic_dev_id):
        assert f(1) == (1, 0)
        assert f(2) == (0, 107001)
        assert f(-1) == (0, 107001)


def test_utilization_follows_allocations_and_status_is_normal(acl):
    sim.configure(device_memory=1 << 20)
    acl.init(); acl.rt.set_device(0)
    info, ret = acl.rt.get_device_utilization_rate(0)
    assert ret == 0 and info["memory_utilization"] == 0 and set(info) >= {"cube_utilization", "aicpu_utilization"}
    ptr, _ = acl.rt.malloc_align32(1 << 19, 0)
    assert acl.rt.get_device_utilization_rate(0)[0]["memory_utilization"] == 50
    assert acl.rt.query_device_status(0) == (R.DEVICE_STATUS_NORMAL, 0)
    assert acl.rt.query_device_status(3) == (0, 107001)
    acl.rt.free(ptr)


def test_res_limits_set_get_reset(ready):
    acl = ready
    assert acl.rt.get_device_res_limit(0, R.DEV_RES_CUBE_CORE) == (2, 0)
    assert acl.rt.set_device_res_limit(0, R.DEV_RES_CUBE_CORE, 1) == 0
    assert acl.rt.get_device_res_limit(0, R.DEV_RES_CUBE_CORE) == (1, 0)
    assert acl.rt.set_device_res_limit(0, R.DEV_RES_CUBE_CORE, 3) == 107000
    assert acl.rt.get_device_res_limit(0, 7)[1] == 100000
    assert acl.rt.reset_device_res_limit(0) == 0
    assert acl.rt.get_device_res_limit(0, R.DEV_RES_CUBE_CORE) == (2, 0)


def test_reset_device_force_releases_whatever_the_count(ready):
    acl = ready
    assert acl.rt.set_device(0) == 0  # count 2
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.reset_device_force(0) == 0
    assert acl.rt.get_context()[1] == 107002
    assert acl.rt.free(ptr) == 107000  # freed with the device
    assert acl.rt.reset_device(0) == 107000
    assert acl.rt.reset_device_force(0) == 107000


def test_sat_mode_and_priority_range(ready):
    acl = ready
    assert acl.rt.get_device_sat_mode() == (R.OVERFLOW_MODE_SATURATION, 0)
    assert acl.rt.set_device_sat_mode(R.OVERFLOW_MODE_INFNAN) == 0
    assert acl.rt.get_device_sat_mode() == (R.OVERFLOW_MODE_INFNAN, 0)
    assert acl.rt.set_device_sat_mode(2) == 100000
    least, greatest, ret = acl.rt.device_get_stream_priority_range()
    assert ret == 0 and least > greatest
