"""acl.rt external allocator descriptors and malloc_for_task_scheduler."""
import pytest

from acl_teach import sim
from acl_teach.sim.rt import allocator


def _full_desc(acl):
    desc = acl.rt.allocator_create_desc()
    assert isinstance(desc, int) and desc
    assert acl.rt.allocator_set_obj_to_desc(desc, 0) == 0          # the binding passes &allocator: never NULL
    assert acl.rt.allocator_set_alloc_func_to_desc(desc, lambda a, size: None) == 0
    assert acl.rt.allocator_set_free_func_to_desc(desc, lambda a, block: None) == 0
    assert acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, lambda block: None) == 0
    return desc


def test_register_needs_object_alloc_free_and_get_addr(ready):
    acl = ready
    stream, _ = acl.rt.create_stream()
    desc = acl.rt.allocator_create_desc()
    assert acl.rt.allocator_register(stream, desc) == 100000          # nothing set
    assert acl.rt.allocator_set_obj_to_desc(desc, 7) == 0
    assert acl.rt.allocator_set_alloc_func_to_desc(desc, print) == 0
    assert acl.rt.allocator_set_free_func_to_desc(desc, print) == 0
    assert acl.rt.allocator_register(stream, desc) == 100000          # get_addr_from_block missing
    assert acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, print) == 0
    assert acl.rt.allocator_register(0, desc) == 100000               # a stream is required
    assert acl.rt.allocator_register(stream, desc) == 0
    assert allocator.registered(stream) is not None
    assert acl.rt.allocator_destroy_desc(desc) == 0                   # the registration keeps its copy
    assert allocator.registered(stream) is not None
    assert acl.rt.allocator_unregister(stream) == 0
    assert allocator.registered(stream) is None
    assert acl.rt.allocator_unregister(stream) == 0                   # not registered: still 0
    assert acl.rt.allocator_unregister(0) == 100000
    assert acl.rt.allocator_destroy_desc(desc) == 100000
    assert acl.rt.allocator_set_alloc_func_to_desc(0, print) == 100000


def test_the_binding_keeps_one_python_function_per_kind(ready):
    acl = ready
    first, second = _full_desc(acl), acl.rt.allocator_create_desc()
    def mine(a, size):
        return None
    assert acl.rt.allocator_set_alloc_func_to_desc(second, mine) == 0
    assert allocator.python_functions()["alloc"] is mine               # replaces the first desc's too
    assert acl.rt.allocator_set_alloc_advise_func_to_desc(first, mine) == 0
    stream, _ = acl.rt.create_stream()
    assert acl.rt.allocator_register(stream, first) == 0
    with pytest.raises(TypeError) as info:
        acl.rt.allocator_set_free_func_to_desc(first)
    assert str(info.value) == "acl.rt.allocator_set_free_func_to_desc args parse failed"


def test_malloc_for_task_scheduler(ready):
    acl = ready
    free0 = acl.rt.get_mem_info(0)[0]
    ptr, ret = acl.rt.malloc_for_task_scheduler(1000, 0, {})
    assert ret == 0 and ptr >= 0x1000_0000_0000_0000
    assert acl.rt.get_mem_info(0)[0] < free0
    assert acl.rt.free(ptr) == 0 and acl.rt.get_mem_info(0)[0] == free0
    assert acl.rt.malloc_for_task_scheduler(0, 0, {}) == (0, 100000)
    with pytest.raises(TypeError, match="^pyCfg is not dict!$"):
        acl.rt.malloc_for_task_scheduler(16, 0, [])
    cfg = {"numAttrs": 1, "attrs": [{"attr": 1, "value": {"moduleId": 3}}]}
    ptr, ret = acl.rt.malloc_for_task_scheduler(64, 0, cfg)
    assert ret == 0 and acl.rt.free(ptr) == 0


def test_before_init(acl):
    desc = acl.rt.allocator_create_desc()
    assert desc and acl.rt.allocator_set_obj_to_desc(desc, 0) == 0     # host structs: no init needed
    sim.configure(explain=False)
    assert acl.rt.allocator_register(1, desc) == 100001
    assert acl.rt.malloc_for_task_scheduler(64, 0, {}) == (0, 100001)
