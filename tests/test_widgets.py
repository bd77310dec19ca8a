"""Headless widget tests: build each widget from simulator objects and assert on its state."""
import numpy as np
import pytest

import acl_teach as at
from acl_teach.widgets import (BufferView, DescExplorer, DimsView, ErrorExplainer, LedgerView, PipelineStepper,
                               Top5View, hexdump)


@pytest.fixture
def flow(step_api, default_om):
    at.init()
    res = at.request_resources(0)
    model = at.load_model(default_om)
    desc = at.query_desc(model)
    ins, outs = at.build_dataset(desc, "input"), at.build_dataset(desc, "output")
    return {"res": res, "model": model, "desc": desc, "ins": ins, "outs": outs, "om": default_om}


def test_hexdump_offsets():
    assert hexdump(bytes(range(20)), rows=2) == [
        "000000  00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f", "000010  10 11 12 13"]


def test_buffer_view_shows_bytes_arriving(flow):
    buf = flow["ins"].buffers[0]
    view = BufferView(buf, dtype="float16", shape=[1, 3, 224, 224])
    assert view.hex_lines[0].startswith("000000  cd cd cd cd")  # fresh device memory
    x = (np.arange(3 * 224 * 224) % 7).astype(np.float16).reshape(1, 3, 224, 224)
    at.copy_to_device(x, flow["ins"], 0, flow["res"], flow["desc"])
    view.refresh()
    assert view.values[:8].tolist() == [0, 1, 2, 3, 4, 5, 6, 0]
    assert view.hex_lines[0].startswith("000000  00 00 00 3c 00 40 00 42")  # fp16 0, 1, 2, 3
    assert len(view.pictures.children) == 3  # one picture per channel
    view.dtype_choice.value = "uint8"
    assert view.values.size == 301056 and view.values[2:4].tolist() == [0, 60]
    assert "device memory" in repr(view) and "301056 bytes" in repr(view)


def test_buffer_view_on_a_data_buffer_handle_and_raw_pointer(flow):
    buf = flow["outs"].buffers[0]
    by_handle = BufferView(buf.data_buffer)
    assert by_handle.size == 4000
    by_ptr = BufferView(buf.ptr, 16, dtype="float32")
    assert by_ptr.values.size == 4
    with pytest.raises(ValueError):
        BufferView(buf.ptr)


def test_desc_explorer_changes_with_the_choice(flow):
    ex = DescExplorer(flow["desc"])
    assert ex.fields["name"] == "data" and ex.fields["dims"] == [1, 3, 224, 224]
    assert ex.fields["data_type"] == "1 (ACL_FLOAT16)" and ex.fields["format"] == "0 (ACL_FORMAT_NCHW)"
    assert ex.fields["size"] == 301056 and ex.fields["dims_v2"] == [1, 3, 224, 224]
    assert ex.fields["size_arithmetic"] == "1 x 3 x 224 x 224 x 2 bytes (ACL_FLOAT16) = 301056"
    ex.choice.value = ("output", 0)
    assert ex.fields["name"].endswith(":0:prob") and ex.fields["size"] == 4000
    assert ex.fields["cur_output_dims"] == [1, 1000] and ex.fields["data_type"] == "0 (ACL_FLOAT)"
    assert "output 0" in repr(ex) and "4000" in ex.table.value


def test_desc_explorer_on_a_dynamic_batch_model(flow):
    from acl_teach.toolchain import assets
    m = at.load_model(assets.dynamic_batch_om())
    ex = DescExplorer(m)
    assert ex.fields["dims"] == [-1, 3, 224, 224] and ex.fields["dynamic_batch"] == [1, 2, 4, 8]
    assert ex.fields["size"] == 8 * 301056
    assert ex.fields["size_arithmetic"] == "8 (largest gear) x 3 x 224 x 224 x 2 bytes (ACL_FLOAT16) = 2408448"
    ex.choice.value = ("input", 1)
    assert ex.fields["name"] == "ascend_mbatch_shape_data" and ex.fields["size"] == 8
    assert len(ex.choice.options) == 3


def test_dims_view(flow):
    view = DimsView(flow["desc"])
    assert view.rows[0][:4] == ("input", 0, "data", [1, 3, 224, 224]) and view.rows[1][-1] == 4000
    assert "<table>" in view.value and "ACL_FLOAT16" in repr(view)


def test_top5_view_bars(flow):
    from acl_teach.toolchain import assets
    rec = at.top_k(np.eye(1, 1000, 967)[0] * 0.9 + 0.0001, 5, assets.labels())
    view = Top5View(rec, image="data/images/coffee.png")
    assert len(view.bars) == 5 and view.bars[0][0] == "967 espresso"
    assert len(view.children) == 2 and view.children[0].value[:4] == b"\x89PNG"  # the photo
    assert view.children[1].value.count("acl-teach-bar-label") == 5 and "967 espresso" in view.children[1].value
    assert view.figure().axes[0].get_xlim() == (0, 1)
    assert "967 espresso" in repr(view)


def test_ledger_view_before_and_after_release(flow):
    view = LedgerView()
    kinds = [r[0] for r in view.rows]
    assert "model" in kinds and kinds.count("data buffer") == 2 and kinds.count("device memory") == 2
    assert all("test_widgets.py" in r[2] or "widgets" not in r[2] for r in view.rows)
    at.release_dataset(flow["ins"])
    at.release_dataset(flow["outs"])
    at.release_resources(flow["res"])  # the model was never unloaded
    view.refresh(after_release=True)
    leaked = {r[0]: r[3] for r in view.leaks}
    assert leaked["model"] == "released by implicit: acl.rt.reset_device" and leaked["model desc"] == "alive"
    assert "leak(s)" in view.table.value and "#ffd7d7" in view.table.value and "leak(s)" in repr(view)
    view.refresh(after_release=False)
    assert [r[0] for r in view.rows] == ["model desc"]


def test_error_explainer():
    ex = ErrorExplainer(107002)
    assert "ACL_ERROR_RT_CONTEXT_NULL" in ex.text and "set_context" in ex.text
    ex.pick.value = 100002
    assert ex.code.value == 100002 and "重复初始化" in ex.out.value
    ex.code.value = 1
    assert "not an aclError code" in repr(ex)


def test_pipeline_stepper_order_and_refusals(step_api, default_om):
    stepper = PipelineStepper(default_om, "data/images/coffee.png")
    assert not stepper.click(7)  # execute before anything
    assert "refused" in stepper.message and "copy the image first" in stepper.message and stepper.done == []
    for i in range(4):
        assert stepper.click(i)
    assert not stepper.click(6)
    assert "build the datasets first" in stepper.message
    assert not stepper.click(0) and "already run" in stepper.message
    for i in range(4, 10):
        assert stepper.click(i), stepper.message
    assert stepper.records["topk"].top[0].index == 967
    assert "acl.mdl.execute" in stepper.records["execute"].code()
    for i in range(10, 14):
        assert stepper.click(i), stepper.message
    assert stepper.ledger.rows == [] and "complete" in stepper.message
    assert [b.button_style for b in stepper.buttons] == ["success"] * 14


def test_buffer_view_keeps_its_snapshot_after_the_memory_is_freed(flow):
    x = np.full((1, 3, 224, 224), 2.0, np.float16)
    at.copy_to_device(x, flow["ins"], 0, flow["res"], flow["desc"])
    view = BufferView(flow["ins"].buffers[0], dtype="float16")
    assert view.values[:3].tolist() == [2.0, 2.0, 2.0] and view.released is None
    assert view.label == "data (dataset buffer #0)"
    at.release_dataset(flow["ins"])
    view.refresh()  # the memory is gone: keep what it held, say so
    assert view.released.startswith("released — showing the bytes it held") and "released" in view.notice.value
    assert view.values[:3].tolist() == [2.0, 2.0, 2.0]
    view.dtype_choice.value = "uint8"  # re-renders the snapshot, never reads freed memory
    assert view.values[:2].tolist() == [0, 64] and "released" in repr(view)


def test_buffer_view_names_handles_by_their_variables(flow):
    handle = flow["ins"].buffers[0].data_buffer
    assert BufferView(handle).label == "data buffer data_buffer"


def test_desc_explorer_keeps_every_tensor_after_the_desc_is_destroyed(flow):
    ex = DescExplorer(flow["desc"])
    assert ex.sources["dims"] == "acl.mdl.get_input_dims(model_desc, 0)"
    assert ex.sources["size"] == "acl.mdl.get_input_size_by_index(model_desc, 0)"
    assert "from the call" in ex.table.value and "acl.mdl.get_input_format(model_desc, 0)" in ex.table.value
    at.unload_model(flow["model"], flow["desc"])
    ex.choice.value = ("output", 0)  # after release: the snapshot, under a notice
    assert ex.fields["size"] == 4000 and ex.released and "destroyed" in ex.notice.value
    ex.refresh()
    assert ex.fields["cur_output_dims"] == [1, 1000] and "destroyed" in repr(ex)


def test_desc_explorer_switches_between_models(flow):
    from acl_teach.toolchain import assets
    dyn = at.query_desc(at.load_model(assets.dynamic_batch_om()))
    ex = DescExplorer({"default": flow["desc"], "dynamic batch": dyn})
    assert ex.fields["dims"] == [1, 3, 224, 224] and len(ex.choice.options) == 2
    ex.model.value = "dynamic batch"
    assert ex.fields["dims"] == [-1, 3, 224, 224] and len(ex.choice.options) == 3
    assert "of model 'dynamic batch'" in repr(ex)


def test_error_explainer_dropdown_follows_the_code_box():
    ex = ErrorExplainer(100002)
    assert ex.pick.value == 100002
    ex.code.value = 145002  # not in the common list: the dropdown must not keep showing 100002
    assert ex.pick.value is None and "145002" in ex.text
    ex.code.value = 107002
    assert ex.pick.value == 107002


def test_size_arithmetic_adds_up_as_written_for_gears():
    from acl_teach.model import TensorInfo
    hw = TensorInfo(0, "a", [1, 1, -1, -1], 0, 0, 80)  # largest image-size gear 4 x 5
    assert hw.size_arithmetic == "1 x 1 x 20 (H x W, largest gear) x 4 bytes (ACL_FLOAT) = 80"
    static = TensorInfo(0, "b", [2, 8], 1, 2, 32)
    assert static.size_arithmetic == "2 x 8 x 2 bytes (ACL_FLOAT16) = 32"


def test_text_fallback_is_never_cut_off(flow):
    """ipywidgets cuts text/plain at 110 characters; ours carry the whole text view."""
    view = DescExplorer(flow["desc"])
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == repr(view) and len(bundle["text/plain"]) > 110
    assert "application/vnd.jupyter.widget-view+json" in bundle
