"""Headless widget tests: build each widget from simulator objects and assert on its state."""
import numpy as np
import pytest

import acl_teach as at
from acl_teach import backend
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
    assert "acl-teach-top5" in stepper.record_box.value and "967 espresso" in stepper.record_box.value  # named bars
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
    view.refresh()  # the memory is gone: keep what it held, say where it went
    assert view.released.startswith("released at test_widgets.py:") and "(by acl.rt.free)" in view.released
    assert view.released.endswith("showing what it held then") and "acl-teach-released" in view.notice.value
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


# --- snapshot semantics for every widget: built, resource released, refreshed while alive (issue #12) ---

def _outside_details(markup):
    """The markup a learner sees without opening a details row (where raw addresses may live)."""
    import re
    return re.sub(r"<details.*?</details>", "", markup, flags=re.S)


def test_the_notice_names_the_cell_as_jupyterlab_numbers_it():
    from acl_teach.widgets._snapshot import released_notice, where_released
    assert where_released("cell In[7], line 2") == " in cell [7]"
    assert where_released("demo.py:12") == " at demo.py:12" and where_released(None) == ""
    assert where_released("a widget click") == " from a widget click"
    assert released_notice("cell In[7], line 2", by="acl.rt.free") == \
        "released in cell [7] (by acl.rt.free) — showing what it held then"


def test_a_failing_callback_shows_in_the_widget_not_in_the_log(flow):
    view = BufferView(flow["outs"].buffers[0], dtype="float32")
    view.rows = None  # breaks the next redraw
    view.dtype_choice.value = "uint8"  # what the browser does; ipywidgets would log a raised exception
    assert "redraw failed: TypeError" in view.notice.value and view.failure.startswith("redraw failed")
    view.rows = 8
    view.refresh()
    assert view.failure is None and "failed" not in view.notice.value


def test_buffer_view_refreshes_while_alive_and_never_rereads_released_memory(flow):
    buf = flow["outs"].buffers[0]
    view = BufferView(buf, dtype="float32")
    assert view.values[0] != 1.5
    one = np.float32(1.5).tobytes()
    assert backend.acl().rt.memcpy(buf.ptr, 4, backend.acl().util.bytes_to_ptr(one), 4, 1) == 0
    view.refresh()
    assert view.values[0] == 1.5 and view.released is None  # alive: read again
    at.reset()  # the whole simulated process goes
    assert view.refresh() is view and "whole simulated process" in view.released
    assert view.values[0] == 1.5 and "showing what it held then" in repr(view)


def test_buffer_view_never_reads_another_process_memory_at_the_same_address(step_api):
    acl = backend.acl()
    acl.init(), acl.rt.set_device(0)
    ptr, _ = acl.rt.malloc(16, 0)
    view = BufferView(ptr, 16)
    assert view.hex_lines[0].startswith("000000  cd cd")
    at.reset()  # a later cell starts afresh, and the new process hands out the same address again
    acl.init(), acl.rt.set_device(0)
    again, _ = acl.rt.malloc(16, 0)
    assert again == ptr and acl.rt.memset(again, 16, 7, 16) == 0
    view.refresh()
    assert view.hex_lines[0].startswith("000000  cd cd") and "whole simulated process" in view.released


def test_dims_view_snapshot(flow):
    view = DimsView(flow["desc"])
    assert "<b>model_desc</b>" in view.value and "0x" not in _outside_details(view.value)
    view.tensors = view.tensors[:1]  # a stale view: refresh reads every tensor from the desc again
    view.tensors[0][1].size = 1
    view.refresh()
    assert view.rows[0][-1] == 301056 and view.released is None
    at.unload_model(flow["model"], flow["desc"])
    assert view.refresh() is view and view.rows[0][-1] == 301056
    assert "destroyed at test_widgets.py:" in view.released and "acl-teach-released" in view.value
    assert "showing what it held then" in repr(view) and "ACL_FLOAT16" in repr(view)


def test_dims_view_after_a_reset_keeps_its_table(flow):
    view = DimsView(flow["desc"])
    at.reset()
    view.refresh()
    assert "whole simulated process" in view.released and view.rows[1][-1] == 4000 and "<table>" in view.value


def test_desc_explorer_refresh_reads_again_while_alive_and_names_the_desc(flow):
    ex = DescExplorer(flow["desc"])
    before = ex.snapshots[("model", "input", 0)]
    ex.refresh()
    assert ex.snapshots[("model", "input", 0)] is not before and ex.released is None
    assert "<b>model_desc</b>" in ex.title.value and "0x" not in _outside_details(ex.title.value)
    at.unload_model(flow["model"], flow["desc"])
    ex.refresh()
    assert "(by acl.mdl.destroy_desc)" in ex.released and ex.fields["size"] == 301056


def test_top5_view_is_a_snapshot_of_host_data(flow):
    from acl_teach.toolchain import assets
    rec = at.top_k(np.eye(1, 1000, 967)[0] * 0.9 + 0.0001, 5, assets.labels())
    view = Top5View(rec)
    drawn = view.chart.value
    at.reset()  # everything released: the bars must neither change nor break
    assert view.refresh() is view and view.chart.value == drawn and view.bars[0][0] == "967 espresso"
    rec.top.clear()  # the view copied what it shows when built
    assert view.refresh().chart.value == drawn and "967 espresso" in repr(view)


def test_ledger_view_after_finalize_and_after_reset(flow):
    view = LedgerView()
    assert "<code>dataset</code>" in view.table.value and view.notice.value == ""
    backend.acl().finalize()
    view.button.click()  # the browser's way
    # datasets and data buffers are host structs: they outlive finalize until their own destroy call, as on a board
    assert {r[0] for r in view.rows} <= {"dataset", "data buffer"}
    assert "acl.finalize ran at test_widgets.py:" in view.notice.value
    assert "acl.finalize ran" in repr(view) and view.failure is None
    view.refresh(after_release=True)
    assert any("implicit" in r[3] for r in view.leaks) and "#ffd7d7" in view.table.value
    at.reset()  # the datasets/buffers still alive after finalize vanish with the process
    view.refresh(after_release=False)
    assert "process was reset" in view.happened and view.rows == [] and "0 live resource(s)" in view.table.value


def test_ledger_view_notices_a_reset_of_what_it_listed(flow):
    view = LedgerView()
    assert len(view.rows) > 5
    at.reset()
    view.button.click()
    assert "the simulated process was reset" in view.notice.value and view.rows == []
    at.init()
    view.refresh()
    assert view.happened == ""  # a new process in use: old news


def test_error_explainer_never_raises_on_odd_numbers():
    ex = ErrorExplainer(0)
    assert "ACL_SUCCESS" in ex.text or "worked" in ex.text
    ex.code.value = -1
    assert "never negative" in ex.text and ex.failure is None
    ex.code.value = 2 ** 63
    assert "32 bits" in repr(ex)
    ex.code.value = 199999
    assert "1xxxxx are caller or environment mistakes" in ex.text and ex.pick.value is None
    ex.code.value = 42
    assert "six digits" in ex.text
    ex.pick.value = 507011  # the dropdown drives the box
    assert ex.code.value == 507011 and "507011" in ex.out.value and "not an aclError" not in ex.text


def test_pipeline_stepper_after_a_reset_elsewhere(step_api, default_om):
    stepper = PipelineStepper(default_om, "data/images/coffee.png")
    for i in range(4):
        stepper.buttons[i].click()
    assert stepper.done == ["init", "resources", "load", "desc"]
    at.reset()  # a later cell
    stepper.buttons[4].click()  # never raises into the kernel
    assert "reset" in stepper.message and "start over" in stepper.message and len(stepper.done) == 4
    assert "start over" in stepper.status.value
    stepper.buttons[0].click()  # a done step, while the flow is gone: the same clear answer
    assert "cannot run" in stepper.message
    stepper.restart_button.click()
    assert stepper.done == [] and stepper.message == "started over: click step 1"
    assert stepper.click(0) and stepper.click(1)
    stepper.restart_button.click()  # with its resources alive: said, and the ledger shows them
    assert "still alive" in stepper.message and len(stepper.ledger.rows) >= 3


def test_pipeline_stepper_after_acl_finalize_elsewhere(step_api, default_om):
    stepper = PipelineStepper(default_om, "data/images/coffee.png")
    for i in range(6):
        assert stepper.click(i), stepper.message
    backend.acl().finalize()
    assert not stepper.click(6)
    assert "AscendCL was finalized at test_widgets.py:" in stepper.message and "by acl.finalize" in stepper.message
    stepper.buttons[9].click()  # out of order as well: the lost flow comes first
    assert "cannot run" in stepper.message and stepper.failure is None


def test_pipeline_stepper_shows_a_failing_step(step_api, default_om):
    stepper = PipelineStepper(default_om, "no/such/image.png")
    for i in range(6):
        stepper.buttons[i].click()
    stepper.buttons[6].click()
    assert "'6 copy image to device' failed" in stepper.message and stepper.done[-1] == "outputs"
    stepper.ledger.rows = None
    stepper.ledger.after_release = True
    stepper._show = None  # something outside a step breaks: shown, not raised
    stepper.buttons[6].click()
    assert "click failed: TypeError" in stepper.status.value


# --- YuvView (issue #11 item 4) ---

@pytest.fixture
def decoded(step_api):
    """Our photo at 300 x 200 as JPEG, decoded by JPEGD into NV12 with the 310's strides (384 x 208)."""
    import io
    from PIL import Image
    acl = backend.acl()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    stream, _ = acl.rt.create_stream()
    ch = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(ch) == 0
    buf = io.BytesIO()
    Image.open("data/images/coffee.png").convert("RGB").resize((300, 200)).save(buf, "JPEG", quality=95)
    raw = buf.getvalue()
    jpeg, _ = acl.media.dvpp_malloc(len(raw))
    assert acl.rt.memcpy(jpeg, len(raw), acl.util.bytes_to_ptr(raw), len(raw), 1) == 0
    size, _ = acl.media.dvpp_jpeg_predict_dec_size(acl.util.bytes_to_ptr(raw), len(raw), 1)
    out, _ = acl.media.dvpp_malloc(size)
    pic = acl.media.dvpp_create_pic_desc()
    for field, value in (("data", out), ("size", size), ("format", 1), ("width", 300), ("height", 200),
                         ("width_stride", 384), ("height_stride", 208)):
        assert getattr(acl.media, f"dvpp_set_pic_desc_{field}")(pic, value) == 0
    assert acl.media.dvpp_jpeg_decode_async(ch, jpeg, len(raw), pic, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    return {"acl": acl, "pic": pic, "out": out, "size": size, "raw": raw}


def test_yuv_view_of_a_decoded_picture(decoded):
    from acl_teach.widgets import YuvView
    view = YuvView(decoded["pic"])
    assert int(view.y_mask.sum()) == 384 * 208 - 300 * 200 == 19872  # padding columns and rows
    assert int(view.uv_mask.sum()) == 384 * 104 - 300 * 100 == 9936
    assert view.y_mask[199, 299] == False and view.y_mask[199, 300] and view.y_mask[200, 0]  # noqa: E712
    assert view.lines()[:3] == ["Y: 384 × 208 = 79872 bytes (width stride × height stride, at offset 0)",
                                "UV: 384 × 104 = 39936 bytes (half the rows, at offset 79872)",
                                "total 384 × 208 × 3/2 = 119808 bytes (buffer size 119808)"]
    assert "NV12 (PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1): UV bytes interleaved, U first, then V" in repr(view)
    r, g, b = (int(c) for c in view.y_rgb[10, 350])  # padding: tinted magenta over the bytes there
    assert r > g + 60 and b > g + 60
    assert len(set(view.y_rgb[100, 150].tolist())) == 1  # the picture itself: grey
    assert view.y_image.value[:4] == b"\x89PNG" and view.uv_image.value[:4] == b"\x89PNG"
    assert "Y: 384 × 208 = 79872 bytes" in view.arith.value and "stride padding" in view.children[-1].value
    assert "<b>picture desc</b>" in view.title.value and "0x" not in _outside_details(view.title.value)


def test_yuv_view_rgb_preview_matches_the_jpeg(decoded):
    import io
    from PIL import Image
    from acl_teach.widgets import YuvView
    view = YuvView(decoded["pic"])
    reference = np.asarray(Image.open(io.BytesIO(decoded["raw"])).convert("RGB"), int)
    assert view.rgb.shape == reference.shape == (200, 300, 3)
    assert np.abs(view.rgb.astype(int) - reference).mean() < 6  # BT.601 with chroma repeated per 2 x 2 block


def test_yuv_view_snapshot_refresh_and_release(decoded):
    from acl_teach.widgets import YuvView
    acl, out = decoded["acl"], decoded["out"]
    view = YuvView(decoded["pic"])
    assert acl.rt.memset(out, 384 * 208, 0, 384 * 208) == 0  # Y plane to black
    view.refresh()
    assert view.y_rgb[100, 150].tolist() == [0, 0, 0] and view.released is None  # alive: read again
    assert acl.rt.memset(out, 384 * 208, 255, 384 * 208) == 0
    assert acl.media.dvpp_free(out) == 0
    assert view.refresh() is view  # never raises, never reads the freed buffer
    assert view.y_rgb[100, 150].tolist() == [0, 0, 0]
    assert "released at test_widgets.py:" in view.released and "(by acl.media.dvpp_free)" in view.released
    assert "showing what it held then" in view.notice.value and int(view.y_mask.sum()) == 19872
    assert acl.media.dvpp_destroy_pic_desc(decoded["pic"]) == 0
    view.refresh()
    assert "picture desc was destroyed" in repr(view) and "Y: 384 × 208 = 79872 bytes" in repr(view)
    at.reset()
    assert view.refresh() is view and view.failure is None


def test_yuv_view_of_a_pointer_with_the_numbers_given(decoded):
    from acl_teach.widgets import YuvView
    acl = decoded["acl"]
    ptr, _ = acl.media.dvpp_malloc(256 * 224 * 3 // 2)
    view = YuvView(ptr, 250, 220, 256, 224, fmt=2)
    assert view.lines()[:3] == ["Y: 256 × 224 = 57344 bytes (width stride × height stride, at offset 0)",
                                "UV: 256 × 112 = 28672 bytes (half the rows, at offset 57344)",
                                "total 256 × 224 × 3/2 = 86016 bytes (buffer size 86016)"]
    assert "NV21" in repr(view) and "V first, then U" in repr(view)
    assert int(view.y_mask.sum()) == 57344 - 250 * 220 and int(view.uv_mask.sum()) == 28672 - 250 * 110
    with pytest.raises(ValueError, match="YUV420SP"):
        YuvView(ptr, 250, 220, 256, 224, fmt=12)
    with pytest.raises(ValueError, match="at least the picture"):
        YuvView(ptr, 300, 220, 256, 224)


def test_yuv_view_text_fallback_is_the_arithmetic(decoded):
    from acl_teach.widgets import YuvView
    view = YuvView(decoded["pic"])
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == repr(view) and "total 384 × 208 × 3/2 = 119808 bytes" in bundle["text/plain"]


def test_the_notice_in_a_kernel_names_the_release_cell():
    """In JupyterLab the notice says 'released in cell [N]' with the number shown beside the cell."""
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import acl_teach as at\nat.use('sim'); at.reset()\nacl = at.backend.acl()\n"
                                          "acl.init(); acl.rt.set_device(0)\np, _ = acl.rt.malloc(64, 0)\n"
                                          "from acl_teach.widgets import BufferView\nview = BufferView(p, 64)"),
                nbformat.v4.new_code_cell("acl.rt.free(p)"),
                nbformat.v4.new_code_cell("print(view.refresh().released)")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    assert nb.cells[2].outputs[0]["text"].strip() == \
        "released in cell [2] (by acl.rt.free) — showing what it held then"


def test_yuv_uv_order_nv12_u_first_nv21_v_first():
    from acl_teach.widgets.yuv import split_uv
    uv = np.array([[1, 2, 3, 4]], np.uint8)
    assert [a.tolist() for a in split_uv(uv, 1)] == [[[1, 3]], [[2, 4]]]
    assert [a.tolist() for a in split_uv(uv, 2)] == [[[2, 4]], [[1, 3]]]


def test_yuv_view_takes_a_media_step_picture_and_stops_reading_once_it_is_released(step_api):
    import io as _io
    from PIL import Image
    from acl_teach.widgets import YuvView
    at = step_api
    at.init()
    res = at.request_resources(0)
    ch = at.media.open_channel()
    out = _io.BytesIO()
    Image.open(at.models.image("chelsea.png")).convert("RGB").resize((300, 200)).save(out, "JPEG")
    pic = at.media.decode_jpeg(out.getvalue(), ch, res)
    view = YuvView(pic)
    assert "total 384 × 208 × 3/2 = 119808 bytes" in repr(view) and view.released is None
    at.media.release_picture(pic)
    view.refresh()  # the record says released: no getter or memcpy on the destroyed desc
    assert "by at.media.release_picture" in view.released and "showing what it held then" in view.released
    with pytest.raises(ValueError, match="already released"):
        YuvView(pic)
    at.media.close_channel(ch)
    at.release_resources(res)
    at.finalize()


def test_widgets_carry_the_css_classes_the_browser_test_finds_them_by(step_api, default_om):
    from acl_teach.widgets import ErrorExplainer, LedgerView, PipelineStepper
    stepper = PipelineStepper(default_om, "data/images/coffee.png")
    assert "acl-teach-stepper" in stepper._dom_classes and "acl-teach-stepper-status" in stepper.status._dom_classes
    assert all("acl-teach-step" in b._dom_classes for b in stepper.buttons)
    explainer = ErrorExplainer(107000)
    assert ("acl-teach-error-explainer", "acl-teach-error-code", "acl-teach-error-pick", "acl-teach-error-text") == (
        explainer._dom_classes[0], explainer.code._dom_classes[0], explainer.pick._dom_classes[0],
        explainer.out._dom_classes[0])
    ledger = LedgerView()
    assert "acl-teach-ledger" in ledger._dom_classes and "acl-teach-ledger-refresh" in ledger.button._dom_classes
