"""acl.media.dvpp_malloc_with_cfg: the config dict checked as the binding converts it."""
import pytest


def test_dvpp_malloc_with_cfg_checks_the_dict_as_the_binding_does(ready):
    acl = ready
    ptr, ret = acl.media.dvpp_malloc_with_cfg(1000, 0, {})
    assert ret == 0 and acl.media.dvpp_free(ptr) == 0
    cfg = {"numAttrs": 1, "attrs": [{"attr": 1, "value": {"moduleId": 3}}]}
    ptr, ret = acl.media.dvpp_malloc_with_cfg(1000, 0, cfg)
    assert ret == 0 and acl.media.dvpp_free(ptr) == 0
    with pytest.raises(TypeError, match="pyCfg is not dict!"):
        acl.media.dvpp_malloc_with_cfg(1000, 0, [])
    with pytest.raises(KeyError, match="does not match the expected numAttrs"):
        acl.media.dvpp_malloc_with_cfg(1000, 0, {"numAttrs": 2, "attrs": cfg["attrs"]})
    with pytest.raises(KeyError, match="No valid key found"):
        acl.media.dvpp_malloc_with_cfg(1000, 0, {"numAttrs": 1, "attrs": [{"attr": 1, "value": {"x": 1}}]})
    assert acl.media.dvpp_malloc_with_cfg(0, 0, {}) == (0, 100000)  # as dvpp_malloc(0)
