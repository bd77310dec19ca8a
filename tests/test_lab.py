"""Exercise checkers: each with a right answer and at least two typical wrong ones."""
import numpy as np
import pytest

import acl_teach as at
from acl_teach import lab


@pytest.fixture
def desc(step_api, default_om):
    at.init()
    res = at.request_resources(0)
    model = at.load_model(default_om)
    d = at.query_desc(model)
    yield d
    at.unload_model(model, d)
    at.release_resources(res)
    at.finalize()


def test_setup_registers_the_simulator_as_acl(capsys):
    import sys
    module = lab.setup()
    assert sys.modules["acl"] is module and "acl-teach simulator" in capsys.readouterr().out
    assert module.init() == 0
    lab.setup()
    assert module.init() == 0  # setup gives a fresh simulated process every time


def test_check_init_codes():
    assert lab.check_init_codes(0, 100002)
    wrong = lab.check_init_codes(0, 0)
    assert not wrong and "finalize" in wrong.message
    assert not lab.check_init_codes(100002, 100002)
    assert repr(lab.check_init_codes(0, 100002)).startswith("✓")


def test_check_model_memory():
    assert lab.check_model_memory(30, 10, 20)
    assert "only the weights" in lab.check_model_memory(20, 10, 20).message
    assert "only the work" in lab.check_model_memory(10, 10, 20).message
    assert not lab.check_model_memory(31, 10, 20)


def test_check_buffer_size(desc):
    assert lab.check_buffer_size(4000, desc, "output")
    msg = lab.check_buffer_size(2000, desc, "output").message
    assert msg == ("your output buffer is 2000 bytes; the model's output #0 (/Softmax:0:prob) needs 4000 = "
                   "1000 x 4-byte ACL_FLOAT. You counted 2 bytes per element, but this tensor is fp32 (4 bytes).")
    assert "counted 4 bytes per element" in lab.check_buffer_size(602112, desc, "input").message
    assert "element count" in lab.check_buffer_size(1000, desc, "output").message
    assert "no input #3" in lab.check_buffer_size(1, desc, "input", 3).message


def test_check_dataset(desc):
    good = at.build_dataset(desc, "output")
    assert lab.check_dataset(good, desc, "output")
    assert "holds 0 data buffer" in lab.check_dataset(at.sim.mdl.create_dataset(), desc, "output").message
    ds = at.sim.mdl.create_dataset()
    ptr, _ = at.sim.rt.malloc(2000, 0)
    at.sim.mdl.add_dataset_buffer(ds, at.sim.create_data_buffer(ptr, 2000))
    assert "needs 4000" in lab.check_dataset(ds, desc, "output").message
    at.release_dataset(good)


def test_check_input_array(desc):
    x = np.zeros((1, 3, 224, 224), np.float16)
    assert lab.check_input_array(x, desc)
    assert "astype(np.float16)" in lab.check_input_array(x.astype(np.float32), desc).message
    assert "transpose(2, 0, 1)" in lab.check_input_array(np.zeros((1, 224, 224, 3), np.float16), desc).message
    assert "C-contiguous" in lab.check_input_array(np.zeros((1, 3, 224, 448), np.float16)[..., ::2], desc).message


def test_check_execute_ret():
    assert lab.check_execute_ret(0)
    assert "ACL_ERROR_MODEL_INPUT_NOT_MATCH" in lab.check_execute_ret(100017).message
    assert "ACL_ERROR_RT_MODEL_EXECUTE" in lab.check_execute_ret(507011).message


def test_check_top5():
    scores = np.arange(10.0)
    assert lab.check_top5([9, 8, 7, 6, 5], scores)
    assert "[-1:-6:-1]" in lab.check_top5([5, 6, 7, 8, 9], scores).message
    assert "wrong order" in lab.check_top5([8, 9, 7, 6, 5], scores).message
    assert "you gave 3" in lab.check_top5([9, 8, 1], scores).message
    assert "flatten" in lab.check_top5([0, 1, 2, 3, 4], scores).message


def test_check_release_order():
    assert lab.check_release_order(lab.RELEASE_ORDER)
    assert "missing release call" in lab.check_release_order(lab.RELEASE_ORDER[1:]).message
    swapped = list(lab.RELEASE_ORDER)
    swapped[6], swapped[7] = swapped[7], swapped[6]
    assert lab.check_release_order(swapped).message == "acl.rt.destroy_context must come before acl.rt.reset_device."


def test_check_callback_results():
    assert lab.check_callback_results([1, 2, 3], [1, 2, 3])
    assert "out of order" in lab.check_callback_results([2, 1, 3], [1, 2, 3]).message
    assert "2 of 3 callbacks" in lab.check_callback_results([1, 2], [1, 2, 3]).message


def test_check_gear(desc):
    dyn = at.Desc(dynamic_batch=[1, 2, 4, 8])
    assert lab.check_gear(4, dyn)
    assert "Use 4 and pad" in lab.check_gear(3, dyn).message
    assert "no dynamic batch gears" in lab.check_gear(1, desc).message
    assert not lab.check_gear(16, dyn)


def test_check_desc_answer(desc):
    assert lab.check_desc_answer({"inputs": 1, "outputs": 1, "input_bytes": 301056}, desc)
    assert "input_bytes: you said 602112" in lab.check_desc_answer(
        {"inputs": 1, "outputs": 1, "input_bytes": 602112}, desc).message
    assert "outputs: you said 2" in lab.check_desc_answer({"inputs": 1, "outputs": 2, "input_bytes": 301056},
                                                          desc).message
