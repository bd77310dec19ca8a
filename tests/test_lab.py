"""Exercise checkers: each with a right answer and at least three wrong ones (a literal, a tautology, None, a
wrong type, the typical mistake); a checker inspects what the learner built and never raises."""
import numpy as np
import pytest

import acl_teach as at
from acl_teach import lab


@pytest.fixture
def acl(step_api):
    """The simulator as the notebooks' ``acl``: the checkers' recorder patches the same module."""
    from acl_teach import backend
    return backend.acl()


@pytest.fixture
def ready(acl):
    """init + set_device(0), released at the end (the test's own leftovers are the checker's concern)."""
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    yield acl
    acl.rt.reset_device(0)
    acl.finalize()


@pytest.fixture
def model(ready, default_om):
    """(model_id, raw model desc) of the default model."""
    model_id, ret = ready.mdl.load_from_file(default_om)
    desc = ready.mdl.create_desc()
    assert ret == 0 and ready.mdl.get_desc(desc, model_id) == 0
    yield model_id, desc
    ready.mdl.destroy_desc(desc)
    ready.mdl.unload(model_id)


def _live():
    """The simulator's live resources now (to show a checker left nothing behind)."""
    return [(e.kind, e.handle) for e in lab.backend.inspector().live(include_init=True)]


def _wrong(fb, *words):
    """A failing Feedback that never raised, mentions ``words`` and carries a Chinese message."""
    assert not fb and fb.message_zh, fb
    for w in words:
        assert w in fb.message, fb.message
    return fb


WRONG_TYPES = [None, "4", 4, [1, 2]]


def test_feedback_is_bilingual():
    fb = lab.Feedback(False, "english", "中文")
    assert repr(fb) == "✗ english\n  中文" and str(fb) == repr(fb) and not fb
    assert repr(lab.Feedback(True, "ok")) == "✓ ok"


def test_setup_registers_the_simulator_as_acl(capsys):
    import sys
    module = lab.setup()
    assert sys.modules["acl"] is module and "acl-teach simulator" in capsys.readouterr().out
    assert module.init() == 0
    lab.setup()
    assert module.init() == 100002  # Run All again: fresh resources, the same process (as a kernel on a board)
    assert module.finalize() == 0
    lab.backend.inspector().reset()


# -- 01 ---------------------------------------------------------------------------------------------------------
def _open_device(acl, stream=True):
    def open_device(device_id):
        assert acl.rt.set_device(device_id) == 0
        context, ret = acl.rt.create_context(device_id)
        made, ret = acl.rt.create_stream() if stream else (0, 0)
        return context, made
    return open_device


def _close_device(acl, order=("stream", "context", "device")):
    def close_device(device_id, context, stream):
        calls = {"stream": lambda: acl.rt.destroy_stream(stream), "context": lambda: acl.rt.destroy_context(context),
                 "device": lambda: acl.rt.reset_device(device_id)}
        for what in order:
            calls[what]()
    return close_device


def test_check_open_close(acl):
    assert acl.init() == 0
    assert lab.check_open_close(_open_device(acl), _close_device(acl))
    assert _live() == [("acl", 0)]                                                 # the process stays initialised
    _wrong(lab.check_open_close(lambda d: (1, 2), _close_device(acl)), "set_device")                      # literals
    _wrong(lab.check_open_close(_open_device(acl, stream=False), _close_device(acl)), "explicitly")
    _wrong(lab.check_open_close(_open_device(acl), _close_device(acl, ("context", "stream", "device"))),
           "reverse order")
    _wrong(lab.check_open_close(_open_device(acl), lambda d, c, s: None), "reverse order")               # tautology
    _wrong(lab.check_open_close(lambda d: (acl.init(), _open_device(acl)(d))[1], _close_device(acl)), "acl.init")

    for bad in WRONG_TYPES:
        _wrong(lab.check_open_close(bad, _close_device(acl)), "pass your function")

    def and_finalize(d, c, s):
        _close_device(acl)(d, c, s)
        acl.finalize()
    _wrong(lab.check_open_close(_open_device(acl), and_finalize), "acl.finalize")
    _wrong(lab.check_open_close(_open_device(acl), _close_device(acl)), "not initialised")   # finalize ran


def test_checkers_use_the_learners_process_and_never_init_it(acl):
    """No checker inits or finalizes: before acl.init they say so; under the CANN <= 8.0 rule that stays true."""
    from acl_teach import sim
    sim.configure(init_once=True)
    _wrong(lab.check_open_close(_open_device(acl), _close_device(acl)), "not initialised")
    assert acl.init() == 0 and acl.finalize() == 0
    _wrong(lab.check_buffer_size(lambda d, i: 0, 12345), "not initialised", "restart the kernel")
    assert acl.init() == 100002


# -- 02 ---------------------------------------------------------------------------------------------------------
def _load_with_my_memory(acl, swap=False):
    def load(path):
        work, weight, ret = acl.mdl.query_size(path)
        if swap:
            work, weight = weight, work
        work_ptr, ret = acl.rt.malloc(work, 0)
        weight_ptr, ret = acl.rt.malloc(weight, 0)
        model_id, ret = acl.mdl.load_from_file_with_mem(path, work_ptr, work, weight_ptr, weight)
        return model_id
    return load


def test_check_model_memory(ready, default_om):
    before = _live()
    assert lab.check_model_memory(_load_with_my_memory(ready), default_om)
    assert _live() == before                                                                       # cleaned up
    _wrong(lab.check_model_memory(lambda path: 1, default_om), "query_size")                      # literal
    _wrong(lab.check_model_memory(lambda path: ready.mdl.load_from_file(path)[0], default_om), "query_size")
    _wrong(lab.check_model_memory(_load_with_my_memory(ready, swap=True), default_om))           # typical mistake
    _wrong(lab.check_model_memory(None, default_om), "pass your function")
    _wrong(lab.check_model_memory(_load_with_my_memory(ready), 42), "path")
    assert _live() == before


# -- 00 ---------------------------------------------------------------------------------------------------------
def _where_am_i(acl, keep_pair=False, reset=True):
    def where_am_i():
        assert acl.rt.set_device(0) == 0
        soc, mode = acl.get_soc_name(), acl.rt.get_run_mode()
        if reset:
            acl.rt.reset_device(0)
        return soc, (mode if keep_pair else mode[0])
    return where_am_i


def test_check_where_am_i(acl):
    """The right function passes on both machines; literals, missing calls, a kept Device, the (mode, ret) pair
    fail; the learner's machine is given back and the checker neither inits nor finalizes."""
    from acl_teach.sim import inspect
    assert acl.init() == 0
    try:
        here = inspect.machine_now()
        fb = lab.check_where_am_i(_where_am_i(acl))
        assert fb and "Ascend310" in fb.message and "Ascend310P3" in fb.message, fb
        assert inspect.machine_now() == here and inspect.initialized()
        typed = lambda: (acl.rt.set_device(0), acl.get_soc_name(), acl.rt.get_run_mode(),  # noqa: E731
                         acl.rt.reset_device(0), ("Ascend310", 1))[-1]
        _wrong(lab.check_where_am_i(typed), "Ascend310P3", "return what the calls give")     # literal, calls for show
        _wrong(lab.check_where_am_i(lambda: ("Ascend310", 1)), "acl.rt.set_device", "acl.get_soc_name")
        _wrong(lab.check_where_am_i(_where_am_i(acl, keep_pair=True)), "(run_mode, ret)")
        _wrong(lab.check_where_am_i(_where_am_i(acl, reset=False)), "reset_device")
        acl.rt.reset_device(0)
        _wrong(lab.check_where_am_i(None), "pass your function")
        assert inspect.machine_now() == here and _live() == [("acl", 0)]
    finally:
        acl.finalize()
    _wrong(lab.check_where_am_i(_where_am_i(acl)), "not initialised")


# -- 03 ---------------------------------------------------------------------------------------------------------
ITEMSIZE = {0: 4, 1: 2, 2: 1, 3: 4, 9: 8}


def _tensor_bytes(acl, itemsize=ITEMSIZE):
    def tensor_bytes(desc, i):
        dims, ret = acl.mdl.get_output_dims(desc, i)
        return int(np.prod(dims["dims"])) * itemsize[acl.mdl.get_output_data_type(desc, i)]
    return tensor_bytes


def test_check_buffer_size(model, acl):
    _, desc = model
    assert lab.check_buffer_size(_tensor_bytes(acl), desc, "output")
    _wrong(lab.check_buffer_size(lambda d, i: 4000, desc), "get_output_dims")                            # literal
    _wrong(lab.check_buffer_size(lambda d, i: acl.mdl.get_output_size_by_index(d, i), desc), "get_output_dims")
    show = lambda d, i: (acl.mdl.get_output_dims(d, i), acl.mdl.get_output_data_type(d, i),  # noqa: E731
                         acl.mdl.get_output_size_by_index(d, i))[2]
    _wrong(lab.check_buffer_size(show, desc), "get_*_size_by_index")       # the review's game: getters for show
    assert _wrong(lab.check_buffer_size(_tensor_bytes(acl, {0: 2}), desc)).message == (
        "your output buffer is 2000 bytes; the model's output #0 (/Softmax:0:prob) needs 4000 = 1000 x 4-byte "
        "ACL_FLOAT. You counted 2 bytes per element, but this tensor is fp32 (4 bytes).")
    _wrong(lab.check_buffer_size(_tensor_bytes(acl, {0: 1}), desc), "element count")
    _wrong(lab.check_buffer_size(lambda d, i: (acl.mdl.get_output_dims(d, i), acl.mdl.get_output_data_type(d, i),
                                               "4000")[2], desc), "int")
    _wrong(lab.check_buffer_size(None, desc), "pass your function")
    _wrong(lab.check_buffer_size(_tensor_bytes(acl), "desc"))


def test_check_buffer_size_judges_a_second_model(model, acl):
    """Dims and data type read for show, then the default model's 4000 typed in: the checker's own second model
    (fp16 [2,3,4] and fp32 [5] outputs) catches it; the right function passes on both and nothing is left."""
    _, desc = model
    before = _live()
    literal = lambda d, i: (acl.mdl.get_output_dims(d, i), acl.mdl.get_output_data_type(d, i), 4000)[2]  # noqa: E731
    fb = _wrong(lab.check_buffer_size(literal, desc), "second model", "48 = 24 x 2-byte")
    assert "第二个模型" in fb.message_zh
    fp32_only = lambda d, i: (acl.mdl.get_output_data_type(d, i),  # noqa: E731 - read, then 4 bytes assumed
                              int(np.prod(acl.mdl.get_output_dims(d, i)[0]["dims"])) * 4)[1]
    _wrong(lab.check_buffer_size(fp32_only, desc), "second model", "fp16 (2 bytes)")
    fb = lab.check_buffer_size(_tensor_bytes(acl), desc)
    assert fb and "2 x 3 x 4 x 2 bytes (ACL_FLOAT16) = 48" in fb.message and "= 20" in fb.message, fb
    assert lab.check_buffer_size(_tensor_bytes(acl, {0: 4, 1: 2}), desc, "output")
    assert _live() == before


# -- 04 ---------------------------------------------------------------------------------------------------------
def _build(acl, size_of=None, device=True):
    def build_dataset(desc):
        dataset = acl.mdl.create_dataset()
        for i in range(acl.mdl.get_num_outputs(desc)):
            size = size_of(i) if size_of else acl.mdl.get_output_size_by_index(desc, i)
            ptr, ret = (acl.rt.malloc if device else acl.rt.malloc_host)(*((size, 0) if device else (size,)))
            dataset, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size))
        return dataset
    return build_dataset


def test_check_dataset(model, acl):
    _, desc = model
    before = _live()
    assert lab.check_dataset(_build(acl), desc, "output")
    assert _live() == before                               # the checker released what the function made
    _wrong(lab.check_dataset(lambda d: 1, desc), "create_dataset")                                   # literal
    step_desc = at.query_desc(at.Model(model_id=model[0]))
    by_step_api = lambda d: at.build_dataset(step_desc, "output").dataset  # noqa: E731
    _wrong(lab.check_dataset(by_step_api, desc), "create_dataset")                                  # the step API's
    acl.mdl.destroy_desc(step_desc.model_desc)
    _wrong(lab.check_dataset(lambda d: acl.mdl.create_dataset(), desc), "holds 0 data buffer")
    _wrong(lab.check_dataset(_build(acl, lambda i: 2000), desc), "needs 4000")
    _wrong(lab.check_dataset(_build(acl, device=False), desc), "device memory")
    _wrong(lab.check_dataset(None, desc), "pass your function")
    _wrong(lab.check_dataset(_build(acl), None))
    assert _live() == before


def test_check_dataset_after_run_all_judges_no_destroyed_desc(model, acl):
    """Notebook 04's trap: after Run All the release cell destroyed the desc; an empty dataset must not pass."""
    model_id, _ = model
    dead = acl.mdl.create_desc()
    assert acl.mdl.get_desc(dead, model_id) == 0 and acl.mdl.destroy_desc(dead) == 0
    _wrong(lab.check_dataset(lambda d: acl.mdl.create_dataset(), dead), "not a live model desc", "Re-run")
    step = at.query_desc(at.Model(model_id=model_id))
    at.unload_model(at.Model(model_id=0, unloaded=True), step)
    _wrong(lab.check_dataset(lambda d: acl.mdl.create_dataset(), step))


# -- 05 ---------------------------------------------------------------------------------------------------------
def _preprocess(path, scale=128.0, bgr=False):
    from PIL import Image
    img = Image.open(path).convert("RGB")
    w, h = img.size
    s = 256 / min(w, h)
    img = img.resize((max(224, round(w * s)), max(224, round(h * s))), Image.BICUBIC)
    left, top = (img.width - 224) // 2, (img.height - 224) // 2
    x = np.asarray(img.crop((left, top, left + 224, top + 224)), np.float32)
    x = x[:, :, ::-1] if bgr else x
    x = (x - 127) / scale
    return np.ascontiguousarray(x.transpose(2, 0, 1)[np.newaxis].astype(np.float16))


def test_check_input_array(model):
    _, desc = model
    photo = at.models.image("rocket.jpg")
    x = _preprocess(photo)
    assert lab.check_input_array(x, desc, photo)
    assert lab.check_input_array(at.preprocess(photo), desc, photo)
    _wrong(lab.check_input_array(np.zeros((1, 3, 224, 224), np.float16), desc, photo), "all zeros")   # literal
    _wrong(lab.check_input_array(_preprocess(photo, scale=1.0), desc, photo), "0–255")
    _wrong(lab.check_input_array(_preprocess(photo, bgr=True), desc, photo), "BGR")
    _wrong(lab.check_input_array(_preprocess(at.models.image("coffee.png")), desc, photo), "differ")  # another photo
    caffe = at.preprocess(photo, {"resize_exact": [256, 256], "channel_order": "BGR", "mean": [104, 117, 123]})
    _wrong(lab.check_input_array(caffe, desc, photo), "another model's recipe")
    _wrong(lab.check_input_array(x.astype(np.float32), desc, photo), "astype(np.float16)")
    _wrong(lab.check_input_array(np.zeros((1, 224, 224, 3), np.float16), desc, photo), "transpose(2, 0, 1)")
    _wrong(lab.check_input_array(np.zeros((1, 3, 224, 448), np.float16)[..., ::2], desc, photo), "C-contiguous")
    for bad in (None, "x", [1, 2]):
        _wrong(lab.check_input_array(bad, desc, photo), "numpy array")
    _wrong(lab.check_input_array(x, desc, None), "path")
    assert lab.check_input_array(_preprocess, desc, photo)  # a preprocess function is run on the photo
    _wrong(lab.check_input_array(lambda p: at.preprocess(p), desc, photo), "write the recipe yourself")


def _copy_in(acl, kind=1, offset=0):
    def copy_in(array, dataset):
        buf = acl.mdl.get_dataset_buffer(getattr(dataset, "dataset", dataset), 0)
        data = array.tobytes()
        return acl.rt.memcpy(acl.get_data_buffer_addr(buf) + offset, len(data) - offset,
                             acl.util.bytes_to_ptr(data), len(data) - offset, kind)
    return copy_in


def test_check_device_input(model, acl):
    _, desc = model
    photo = at.models.image("rocket.jpg")
    d = at.query_desc(at.Model(model_id=model[0]))
    inputs = at.build_dataset(d, "input")
    try:
        _wrong(lab.check_device_input(lambda a, ds: 0, inputs, desc, photo), "must copy")             # literal
        _wrong(lab.check_device_input(_copy_in(acl, kind=2), inputs, desc, photo), "must copy")       # wrong kind
        _wrong(lab.check_device_input(_copy_in(acl, offset=2), inputs, desc, photo), "must copy")
        _wrong(lab.check_device_input(None, inputs, desc, photo), "pass your function")
        _wrong(lab.check_device_input(_copy_in(acl), None, desc, photo))
        assert lab.check_device_input(_copy_in(acl), inputs, desc, photo)
        # the review's game: the buffer already holds the right bytes from the run above; copying 2 bytes passed
        _wrong(lab.check_device_input(_copy_in(acl, offset=301054), inputs, desc, photo))
        dangling = lambda a, ds: acl.rt.memcpy(  # noqa: E731  (seed 003: the bytes die before memcpy runs)
            acl.get_data_buffer_addr(acl.mdl.get_dataset_buffer(ds.dataset, 0)), a.nbytes,
            acl.util.bytes_to_ptr(a.tobytes()), a.nbytes, 1)
        _wrong(lab.check_device_input(dangling, inputs, desc, photo), "no longer exists", "tobytes()")
        assert lab.check_input_array(_preprocess, desc, photo)                 # a preprocess function is run too
        _wrong(lab.check_input_array(lambda p: at.preprocess(p), desc, photo), "write the recipe yourself")
        from acl_teach import preprocess as my_own_recipe                     # the review's game: another name
        _wrong(lab.check_input_array(lambda p: my_own_recipe(p), desc, photo), "write the recipe yourself")
        from acl_teach.toolchain import images as elsewhere
        _wrong(lab.check_input_array(lambda p: elsewhere.preprocess(p), desc, photo), "write the recipe yourself")
        _wrong(lab.check_input_array(lambda p: (_ for _ in ()).throw(NotImplementedError()), desc, photo),
               "not written yet")
    finally:
        at.release_dataset(inputs)
        acl.mdl.destroy_desc(d.model_desc)


# -- 06 / 07 ----------------------------------------------------------------------------------------------------
@pytest.fixture
def datasets(model, acl):
    """Input (the rocket photo on the device) and output datasets of the default model."""
    d = at.query_desc(at.Model(model_id=model[0]))
    inputs, outputs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
    data = at.preprocess(at.models.image("rocket.jpg")).tobytes()
    assert acl.rt.memcpy(inputs.buffers[0].ptr, len(data), acl.util.bytes_to_ptr(data), len(data), 1) == 0
    yield model[0], inputs, outputs
    at.release_dataset(inputs)
    at.release_dataset(outputs)
    acl.mdl.destroy_desc(d.model_desc)


def test_check_execute(datasets, acl):
    model_id, inputs, outputs = datasets
    assert lab.check_execute(lambda m, i, o: acl.mdl.execute(m, i.dataset, o.dataset), model_id, inputs, outputs)
    _wrong(lab.check_execute(lambda m, i, o: 0, model_id, inputs, outputs), "must call acl.mdl.execute")  # literal
    _wrong(lab.check_execute(lambda m, i, o: (acl.mdl.execute(m, i.dataset, o.dataset), 0)[1] + 1, model_id, inputs,
                             outputs), "return the ret")
    _wrong(lab.check_execute(lambda m, i, o: acl.mdl.execute(m, o.dataset, i.dataset), model_id, inputs, outputs),
           "execute returned")
    _wrong(lab.check_execute(None, model_id, inputs, outputs), "pass your function")
    _wrong(lab.check_execute(lambda m, i, o: 0, "1", inputs, outputs))


def _top5(acl, pick=lambda s: s.argsort()[-1:-6:-1], free=True):
    def top5(outputs):
        buf = acl.mdl.get_dataset_buffer(outputs.dataset, 0)
        ptr, size = acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)
        host, ret = acl.rt.malloc_host(size)
        acl.rt.memcpy(host, size, ptr, size, 2)
        scores = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32)
        if free:
            acl.rt.free_host(host)
        return [int(i) for i in pick(scores)]
    return top5


def test_check_top5(datasets, acl):
    model_id, inputs, outputs = datasets
    assert acl.mdl.execute(model_id, inputs.dataset, outputs.dataset) == 0
    scores = np.frombuffer(lab.read_device(outputs.buffers[0].ptr, 4000), np.float32)
    best = [int(i) for i in np.argsort(-scores)[:5]]
    assert lab.check_top5(_top5(acl), outputs)
    _wrong(lab.check_top5(lambda o: best, outputs), "copy the output buffer to the host")   # a literal, even right
    d = at.query_desc(at.Model(model_id=model_id))
    by_step_api = lambda o: [p.index for p in at.top_k(at.unpack_outputs(d, o, None).arrays[0], 5).top]  # noqa: E731
    _wrong(lab.check_top5(by_step_api, outputs), "copy the output buffer to the host")      # the step API's copy
    acl.mdl.destroy_desc(d.model_desc)
    _wrong(lab.check_top5(_top5(acl, lambda s: s.argsort()[:5]), outputs), "ascending", "lowest")
    _wrong(lab.check_top5(_top5(acl, lambda s: s.argsort()[-5:]), outputs), "wrong order")
    _wrong(lab.check_top5(_top5(acl, lambda s: s.argsort()[-1:-4:-1]), outputs), "you gave 3")
    _wrong(lab.check_top5(None, outputs), "pass your function")
    _wrong(lab.check_top5(_top5(acl), "outputs"), "output dataset")
    _wrong(lab.check_top5(_top5(acl, free=False), outputs), "left acl.rt.malloc_host")     # the review's game: a leak
    assert lab.backend.inspector().live(include_init=False) and not [
        e for e in lab.backend.inspector().live() if e.kind == "host"]        # the host buffers were freed


def test_top5_feedback_wrong_types():
    scores = np.arange(10.0)
    assert lab.top5_feedback([9, 8, 7, 6, 5], scores)
    _wrong(lab.top5_feedback(None, scores), "five class indices")
    _wrong(lab.top5_feedback([0, 1, 2, 3, 4], scores), "ascending")


# -- 08 ---------------------------------------------------------------------------------------------------------
def _everything(acl, path, stream=True):
    """What one run creates, by raw calls: context, (stream), model, desc, an output dataset."""
    assert acl.init() in (0, 100002) and acl.rt.set_device(0) == 0
    h = {"context": acl.rt.create_context(0)[0]}
    h["stream"] = acl.rt.create_stream()[0] if stream else None
    h["model_id"] = acl.mdl.load_from_file(path)[0]
    h["desc"] = acl.mdl.create_desc()
    acl.mdl.get_desc(h["desc"], h["model_id"])
    h["dataset"] = _build(acl)(h["desc"])
    h["ptrs"] = [acl.get_data_buffer_addr(acl.mdl.get_dataset_buffer(h["dataset"], i))
                 for i in range(acl.mdl.get_dataset_num_buffers(h["dataset"]))]
    return h


def _release(acl, order):
    def release_all(h):
        steps = {
            "buffers": lambda: [acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(h["dataset"], i)) for i in
                                range(acl.mdl.get_dataset_num_buffers(h["dataset"]))],
            "memory": lambda: [acl.rt.free(ptr) for ptr in h["ptrs"]],
            "dataset": lambda: acl.mdl.destroy_dataset(h["dataset"]),
            "unload": lambda: acl.mdl.unload(h["model_id"]),
            "desc": lambda: acl.mdl.destroy_desc(h["desc"]),
            "stream": lambda: h["stream"] and acl.rt.destroy_stream(h["stream"]),
            "context": lambda: acl.rt.destroy_context(h["context"]),
            "device": lambda: acl.rt.reset_device(0),
            "finalize": lambda: acl.finalize(),  # wrong in a function: one finalize, when the program ends
        }
        for step in order:
            steps[step]()
    return release_all


SAFE = ["memory", "buffers", "dataset", "unload", "desc", "stream", "context", "device"]


def test_check_release_order(acl, default_om):
    assert lab.check_release_order(_release(acl, SAFE), _everything(acl, default_om))
    # the official sample's own order, with no stream of its own
    sample = ["buffers", "dataset", "memory", "unload", "desc", "context", "device"]
    assert lab.check_release_order(_release(acl, sample), _everything(acl, default_om, stream=False))
    assert [e.kind for e in lab.backend.inspector().live(include_init=True)] == ["acl"]   # still initialised


@pytest.mark.parametrize("order,words", [
    (SAFE + ["finalize"], "must not init or finalize"),                               # finalize in a function
    (["device"], "still alive after your release code"),                               # skips the releases
    ([s for s in SAFE if s != "device"], "still alive after your release code: device"),   # the device stays open
    (["memory", "buffers", "dataset", "desc", "stream", "context", "device"], "reclaimed"),   # no unload
])
def test_check_release_order_wrong(acl, default_om, order, words):
    _wrong(lab.check_release_order(_release(acl, order), _everything(acl, default_om)), words)
    acl.finalize()


def test_check_release_order_wrong_types(acl):
    assert acl.init() == 0
    _wrong(lab.check_release_order(lab.RELEASE_ORDER), "pass your function")   # a list of names is not release code
    _wrong(lab.check_release_order(None), "pass your function")
    _wrong(lab.check_release_order(lambda: None), "end with acl.rt.reset_device")   # a tautology: releases nothing


# -- 09 ---------------------------------------------------------------------------------------------------------
def test_check_callback(datasets, acl, default_om):
    model_id, inputs, outputs = datasets
    d = at.query_desc(at.Model(model_id=model_id))
    second = at.build_dataset(d, "output")
    context, _ = acl.rt.create_context(0)
    stream, _ = acl.rt.create_stream()
    jobs = [(inputs, outputs), (inputs, second)]

    def on_done(user_data):
        out = jobs[user_data[0]][1].buffers[0]
        host, ret = acl.rt.malloc_host(out.size)
        acl.rt.memcpy(host, out.size, out.ptr, out.size, 2)
        scores = np.frombuffer(acl.util.ptr_to_bytes(host, out.size), np.float32)
        acl.rt.free_host(host)
        return int(scores.argmax())
    try:
        assert lab.check_callback(on_done, model_id, jobs, stream, context)
        _wrong(lab.check_callback(lambda ud: 409, model_id, jobs, stream, context), "inside the callback")  # literal
        _wrong(lab.check_callback(lambda ud: (on_done(ud), -1)[1], model_id, jobs, stream, context), "best class")
        _wrong(lab.check_callback(None, model_id, jobs, stream, context), "pass your function")
        _wrong(lab.check_callback(on_done, model_id, "jobs", stream, context))
    finally:
        at.release_dataset(second)
        acl.mdl.destroy_desc(d.model_desc)
        acl.rt.destroy_stream(stream)
        acl.rt.destroy_context(context)


# -- 10 ---------------------------------------------------------------------------------------------------------
def _set_gear(acl, choose=lambda n, gears: min(g for g in gears if g >= n), read=True):
    def set_gear(model_id, dataset, desc, n):
        gears = acl.mdl.get_dynamic_batch(desc)[0]["batch"] if read else [1, 2, 4, 8]
        gear = choose(n, gears)
        index, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
        acl.mdl.set_dynamic_batch_size(model_id, getattr(dataset, "dataset", dataset), index, gear)
        return gear
    return set_gear


def test_check_gear(ready):
    dyn = at.load_model(at.models.dynamic_batch_om())
    d = at.query_desc(dyn)
    inputs = at.build_dataset(d, "input")
    try:
        assert lab.check_gear(_set_gear(ready), dyn.model_id, inputs, d)
        _wrong(lab.check_gear(lambda m, ds, desc, n: 4, dyn.model_id, inputs, d), "get_dynamic_batch")       # literal
        _wrong(lab.check_gear(_set_gear(ready, read=False), dyn.model_id, inputs, d), "get_dynamic_batch")
        _wrong(lab.check_gear(_set_gear(ready, lambda n, g: n), dyn.model_id, inputs, d), "smallest gear")
        _wrong(lab.check_gear(_set_gear(ready, lambda n, g: max(g)), dyn.model_id, inputs, d), "smallest gear")
        for bad in WRONG_TYPES:
            _wrong(lab.check_gear(bad, dyn.model_id, inputs, d), "pass your function")
        _wrong(lab.check_gear(_set_gear(ready), dyn.model_id, inputs, "4"))
    finally:
        at.release_dataset(inputs)
        at.unload_model(dyn, d)


def test_check_padded_batch():
    def pad(images, gear):
        out = np.zeros((gear,) + images.shape[1:], images.dtype)
        out[:len(images)] = images
        return out
    assert lab.check_padded_batch(pad)
    _wrong(lab.check_padded_batch(lambda images, gear: images), "shape")                           # no padding
    _wrong(lab.check_padded_batch(lambda images, gear: np.zeros((gear,) + images.shape[1:], images.dtype)),
           "first rows")                                                                           # zeros only
    _wrong(lab.check_padded_batch(lambda images, gear: np.resize(images, (gear,) + images.shape[1:])), "padding")
    _wrong(lab.check_padded_batch(None), "pass your function")
    _wrong(lab.check_padded_batch(lambda images, gear: "batch"), "shape")                          # a wrong type


# -- 12 ---------------------------------------------------------------------------------------------------------
def test_check_desc_answer(model, acl, tiny_models):
    _, desc = model
    tiny_id, _ = acl.mdl.load_from_file(tiny_models["static"])
    tiny = acl.mdl.create_desc()
    acl.mdl.get_desc(tiny, tiny_id)

    def describe(d):
        return {"inputs": acl.mdl.get_num_inputs(d), "outputs": acl.mdl.get_num_outputs(d),
                "input_bytes": acl.mdl.get_input_size_by_index(d, 0)}
    try:
        assert lab.check_desc_answer(describe, [desc, tiny])
        literal = {"inputs": 1, "outputs": 1, "input_bytes": 301056}
        _wrong(lab.check_desc_answer(lambda d: literal, [desc]), "ask the desc")
        _wrong(lab.check_desc_answer(lambda d: dict(describe(d), input_bytes=602112), [desc]),
               "input_bytes: you said 602112")
        _wrong(lab.check_desc_answer(lambda d: dict(describe(d), outputs=1), [desc, tiny]), "outputs: you said 1")
        _wrong(lab.check_desc_answer(lambda d: [acl.mdl.get_num_inputs(d), acl.mdl.get_num_outputs(d)], [desc]))
        _wrong(lab.check_desc_answer(None, [desc]), "pass your function")
        _wrong(lab.check_desc_answer(describe, "4"))
    finally:
        acl.mdl.destroy_desc(tiny)
        acl.mdl.unload(tiny_id)


# -- 13 ---------------------------------------------------------------------------------------------------------
def _classify(acl, release=True, pick=lambda s: s.argsort()[-1:-6:-1]):
    def classify(path, om):
        acl.rt.set_device(0)
        context, ret = acl.rt.create_context(0)
        model_id, ret = acl.mdl.load_from_file(om)
        desc = acl.mdl.create_desc()
        acl.mdl.get_desc(desc, model_id)
        ins, outs = _build_io(acl, desc)
        data = at.preprocess(path).tobytes()
        acl.rt.memcpy(ins[1][0], len(data), acl.util.bytes_to_ptr(data), len(data), 1)
        acl.mdl.execute(model_id, ins[0], outs[0])
        top = _top5(acl, pick)(type("O", (), {"dataset": outs[0]}))
        if release:
            for dataset, ptrs in (ins, outs):
                for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                    acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
                acl.mdl.destroy_dataset(dataset)
                for p in ptrs:
                    acl.rt.free(p)
            acl.mdl.unload(model_id)
            acl.mdl.destroy_desc(desc)
            acl.rt.destroy_context(context)
        acl.rt.reset_device(0)
        return top
    return classify


def _build_io(acl, desc):
    out = []
    for count, size_of in ((acl.mdl.get_num_inputs, acl.mdl.get_input_size_by_index),
                           (acl.mdl.get_num_outputs, acl.mdl.get_output_size_by_index)):
        dataset, ptrs = acl.mdl.create_dataset(), []
        for i in range(count(desc)):
            ptr, ret = acl.rt.malloc(size_of(desc, i), 0)
            dataset, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(ptr, size_of(desc, i)))
            ptrs.append(ptr)
        out.append((dataset, ptrs))
    return out


def test_check_classify(acl, default_om):
    photo = at.models.image("coffee.png")
    assert acl.init() == 0
    assert lab.check_classify(_classify(acl), photo, default_om)
    _wrong(lab.check_classify(lambda p, om: (acl.init(), _classify(acl)(p, om))[1], photo, default_om), "acl.init")
    _wrong(lab.check_classify(lambda p, om: [967, 504, 968, 505, 899], photo, default_om), "missing")   # literal
    _wrong(lab.check_classify(_classify(acl, release=False), photo, default_om), "still alive")
    _wrong(lab.check_classify(_classify(acl, pick=lambda s: s.argsort()[-5:]), photo, default_om), "wrong order")
    _wrong(lab.check_classify(None, photo, default_om), "pass your function")
    _wrong(lab.check_classify(_classify(acl), None, default_om), "image path")
    assert lab.backend.inspector().live(include_init=False) == []
    assert acl.finalize() == 0


def test_a_checker_never_raises(model, acl):
    """Handles that are not (or no longer) what they claim: feedback, not a traceback."""
    _, desc = model
    for fb in (lab.check_top5(lambda o: [1], 123456), lab.check_dataset(lambda d: 1, 987654),
               lab.check_execute(lambda m, i, o: 0, 1, 5, 6), lab.check_input_array(np.zeros(3), 77, "x"),
               lab.check_callback(lambda u: 0, 1, [(1, 2)], 0, 0)):
        _wrong(fb)


def test_check_dvpp_layout():
    def layout(soc, w, h):
        wa = 128 if soc == "Ascend310" else 64
        ws, hs = (w + wa - 1) // wa * wa, (h + 15) // 16 * 16
        return ws, hs, ws * hs * 3 // 2
    assert lab.check_dvpp_layout(layout)
    only_310 = lambda soc, w, h: layout("Ascend310", w, h)  # noqa: E731   (the review's complaint: one chip's rule)
    _wrong(lab.check_dvpp_layout(only_310), "Ascend310P3", "multiple of 64")
    _wrong(lab.check_dvpp_layout(lambda soc, w, h: (640, 400, 384000)), "width stride")           # a literal
    _wrong(lab.check_dvpp_layout(lambda soc, w, h: (w, h, w * h * 3 // 2)), "width stride")        # no alignment
    _wrong(lab.check_dvpp_layout(lambda soc, w, h: layout(soc, w, h)[:1] + ((h + 127) // 128 * 128, 0)),
           "height stride")
    _wrong(lab.check_dvpp_layout(lambda soc, w, h: layout(soc, w, h)[:2] + (layout(soc, w, h)[0] *
                                                                            layout(soc, w, h)[1],)), "Y plane")
    _wrong(lab.check_dvpp_layout(lambda soc, w, h: None), "three integers")                        # returns None
    _wrong(lab.check_dvpp_layout(lambda soc, w, h: [str(v) for v in layout(soc, w, h)]), "three integers")
    _wrong(lab.check_dvpp_layout(lambda w, h: layout("Ascend310", w, h)), "raised")                # old signature
    _wrong(lab.check_dvpp_layout(None), "pass your function")

# -- 06: the learner's own output dataset ------------------------------------------------------------------------
def _run_model(acl, execute=True, size_of=None, reuse=None):
    """run_model(model_id, desc, inputs): an output dataset from the desc, one execute into it."""
    def run_model(model_id, desc, inputs):
        outs = acl.mdl.create_dataset()
        for i in range(acl.mdl.get_num_outputs(desc)):
            size = (size_of or acl.mdl.get_output_size_by_index)(desc, i)
            ptr = reuse if reuse is not None else acl.rt.malloc(size, 0)[0]
            acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(ptr, size))
        if execute:
            assert acl.mdl.execute(model_id, inputs, outs) == 0
        return outs
    return run_model


def test_check_run_model(datasets, acl):
    model_id, inputs, outputs = datasets
    desc = at.query_desc(at.Model(model_id=model_id))
    try:
        before = _live()
        assert lab.check_run_model(_run_model(acl), model_id, desc.model_desc, inputs.dataset)
        assert _live() == before                                          # what run_model made was released
        assert acl.mdl.execute(model_id, inputs.dataset, outputs.dataset) == 0
        _wrong(lab.check_run_model(lambda m, d, i: outputs.dataset, model_id, desc.model_desc, inputs.dataset),
               "created with acl.mdl.create_dataset")                     # leftover state: the notebook's dataset
        _wrong(lab.check_run_model(lambda m, d, i: 0, model_id, desc.model_desc, inputs.dataset),
               "created with acl.mdl.create_dataset")                     # a literal
        _wrong(lab.check_run_model(_run_model(acl, execute=False), model_id, desc.model_desc, inputs.dataset),
               "call acl.mdl.execute")
        _wrong(lab.check_run_model(_run_model(acl, reuse=outputs.buffers[0].ptr), model_id, desc.model_desc,
                                   inputs.dataset), "did not allocate")   # the notebook's already-filled buffer
        _wrong(lab.check_run_model(_run_model(acl, size_of=lambda d, i: 4000 * 2), model_id, desc.model_desc,
                                   inputs.dataset))                       # a buffer of the wrong size
        _wrong(lab.check_run_model(None, model_id, desc.model_desc, inputs.dataset), "pass your function")
        _wrong(lab.check_run_model(_run_model(acl), "1", desc.model_desc, inputs.dataset))
        assert _live() == before
    finally:
        acl.mdl.destroy_desc(desc.model_desc)


# -- 07: a single operator the learner runs ----------------------------------------------------------------------
@pytest.fixture
def add_op(ready):
    """The Add operator of two float32 [1000] vectors compiled by the emulator's --singleop, loaded, and a stream."""
    import os
    vec = {"format": "ND", "shape": [1000], "type": "float32"}
    folder = at.models.compile_ops([{"op": "Add", "input_desc": [vec, vec], "output_desc": [vec]}], "test_add")
    data = open(os.path.join(folder, next(f for f in os.listdir(folder) if f.endswith(".om"))), "rb").read()
    assert ready.op.load(ready.util.bytes_to_ptr(data), len(data)) == 0
    stream, _ = ready.rt.create_stream()
    yield ready, stream
    ready.rt.destroy_stream(stream)


def _device_add(acl, op="Add", sync=True, copy_back=True, release=True, answer=None, feed=None):
    """device_add(a, b, stream) by the Add operator, with one thing done wrong on request."""
    def device_add(a, b, stream):
        size = a.nbytes
        desc = acl.create_tensor_desc(0, [a.size], 2)
        ptrs = [acl.rt.malloc(size, 0)[0] for _ in range(3)]
        bufs = [acl.create_data_buffer(p, size) for p in ptrs]
        data = [x.tobytes() for x in (feed(a, b) if feed else (a, b))]
        for p, raw in zip(ptrs, data):
            acl.rt.memcpy(p, size, acl.util.bytes_to_ptr(raw), size, 1)
        attr = acl.op.create_attr()
        acl.op.execute_v2(op, [desc, desc], bufs[:2], [desc], bufs[2:], attr, stream)
        if sync:
            acl.rt.synchronize_stream(stream)
        out = np.zeros_like(a)
        if copy_back:
            host, _ = acl.rt.malloc_host(size)
            acl.rt.memcpy(host, size, ptrs[2], size, 2)
            out = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32).copy()
            acl.rt.free_host(host)
        if release:
            acl.op.destroy_attr(attr)
            acl.destroy_tensor_desc(desc)
            for buf, p in zip(bufs, ptrs):
                acl.destroy_data_buffer(buf)
                acl.rt.free(p)
        return answer(a, b) if answer else out
    return device_add


def test_check_device_add(add_op):
    acl, stream = add_op
    before = _live()
    assert lab.check_device_add(_device_add(acl), stream)
    _wrong(lab.check_device_add(lambda a, b, s: a + b, stream), "run the operator")              # numpy, no device
    _wrong(lab.check_device_add(_device_add(acl, copy_back=False, answer=lambda a, b: a + b), stream),
           "copy the result out")                                  # ran the op, but returned numpy's sum
    _wrong(lab.check_device_add(_device_add(acl, sync=False), stream), "synchronize_stream")
    _wrong(lab.check_device_add(_device_add(acl, release=False), stream), "left", "acl.create_tensor_desc")
    first = {}
    cached = lambda a, b: first.setdefault("sum", a + b)  # noqa: E731   (a literal: the first call's answer again)
    _wrong(lab.check_device_add(_device_add(acl, answer=cached), stream), "not a + b")
    _wrong(lab.check_device_add(_device_add(acl, op="Sub"), stream))                            # another operator
    zeros = lambda a, b: (np.zeros_like(a), np.zeros_like(b))  # noqa: E731   (dummy copies, numpy's answer)
    _wrong(lab.check_device_add(_device_add(acl, feed=zeros, answer=lambda a, b: a + b), stream), "did not hold a and b")
    _wrong(lab.check_device_add(None, stream), "pass your function")
    _wrong(lab.check_device_add(_device_add(acl), "stream"), "stream")
    assert _live() == before                       # every buffer, desc and attr of the wrong answers was released


# -- 11: the per-image loop --------------------------------------------------------------------------------------
def _classify_all(acl, load=None, pick=None, batch_copy=False, same_photo=False):
    """classify_all(model_id, inputs, outputs, desc, photos): copy, execute, copy back per photo."""
    def classify_all(model_id, inputs, outputs, desc, photos):
        if load:
            model_id, _ = acl.mdl.load_from_file(load)
        in_ptr, out_ptr = inputs.buffers[0].ptr, outputs.buffers[0].ptr
        best = []
        for k, path in enumerate(photos):
            data = at.preprocess(photos[0] if same_photo else path).tobytes()
            if not (batch_copy and k):
                acl.rt.memcpy(in_ptr, len(data), acl.util.bytes_to_ptr(data), len(data), 1)
            acl.mdl.execute(model_id, inputs.dataset, outputs.dataset)
            host, _ = acl.rt.malloc_host(4000)
            acl.rt.memcpy(host, 4000, out_ptr, 4000, 2)
            best.append(int(np.frombuffer(acl.util.ptr_to_bytes(host, 4000), np.float32).argmax()))
            acl.rt.free_host(host)
        if load:
            acl.mdl.unload(model_id)
        return pick(best) if pick else best
    return classify_all


def test_check_classify_loop(datasets, acl, default_om):
    model_id, inputs, outputs = datasets
    desc = at.query_desc(at.Model(model_id=model_id))
    photos = [at.models.image(p) for p in ("coffee.png", "chelsea.png", "rocket.jpg")]
    try:
        before = _live()
        fb = lab.check_classify_loop(_classify_all(acl), model_id, inputs, outputs, desc, photos)
        assert fb and "top-1 [967, 282, " in fb.message, fb
        _wrong(lab.check_classify_loop(lambda *a: [967, 282, 657], model_id, inputs, outputs, desc, photos),
               "expected 3 copies")                                        # a literal, even the right one
        _wrong(lab.check_classify_loop(_classify_all(acl, load=default_om), model_id, inputs, outputs, desc, photos),
               "acl.mdl.load_from_file")                                   # loads per call: not a pipeline
        _wrong(lab.check_classify_loop(_classify_all(acl, batch_copy=True), model_id, inputs, outputs, desc, photos),
               "made 1")                                                   # the first photo's input, three times
        _wrong(lab.check_classify_loop(_classify_all(acl, pick=lambda b: b[::-1]), model_id, inputs, outputs, desc,
                                       photos), "in the order of the photos")
        known = {"coffee.png": 967, "chelsea.png": 282, "rocket.jpg": 657}           # answers learnt by heart,
        by_heart = lambda b: [known[p.rsplit("/", 1)[-1]] for p in photos]  # noqa: E731   with dummy copies
        _wrong(lab.check_classify_loop(_classify_all(acl, same_photo=True, pick=by_heart), model_id, inputs, outputs,
                                       desc, photos), "did not find chelsea.png")
        _wrong(lab.check_classify_loop(None, model_id, inputs, outputs, desc, photos), "pass your function")
        _wrong(lab.check_classify_loop(_classify_all(acl), model_id, inputs, outputs, desc, "coffee.png"))
        assert _live() == before
    finally:
        acl.mdl.destroy_desc(desc.model_desc)


# -- 12: what to feed a model ------------------------------------------------------------------------------------
def _feed_spec(acl, hidden=False, gear=True):
    numpy_of = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.int32, 4: np.uint8, 9: np.int64}

    def feed_spec(desc):
        batch, _ = acl.mdl.get_dynamic_batch(desc)
        spec = []
        for i in range(acl.mdl.get_num_inputs(desc)):
            name = acl.mdl.get_input_name_by_index(desc, i)
            if name == "ascend_mbatch_shape_data" and not hidden:
                continue
            shape = list(acl.mdl.get_input_dims(desc, i)[0]["dims"])
            if gear and batch["batchCount"] and shape[0] == -1:
                shape[0] = max(batch["batch"])
            spec.append({"name": name, "dtype": numpy_of[acl.mdl.get_input_data_type(desc, i)], "shape": shape,
                         "bytes": acl.mdl.get_input_size_by_index(desc, i)})
        return spec
    return feed_spec


def test_check_feed_spec(model, acl, tiny_models):
    _, desc = model
    from acl_teach import models
    made = []
    for path in (models.dynamic_batch_om(), tiny_models["static"]):
        mid, _ = acl.mdl.load_from_file(path)
        d = acl.mdl.create_desc()
        acl.mdl.get_desc(d, mid)
        made.append((mid, d))
    descs = [desc] + [d for _, d in made]
    try:
        assert lab.check_feed_spec(_feed_spec(acl), descs)
        literal = [{"name": "data", "dtype": np.float16, "shape": [1, 3, 224, 224], "bytes": 301056}]
        _wrong(lab.check_feed_spec(lambda d: literal, descs), "ask the desc itself")      # one model's answer
        _wrong(lab.check_feed_spec(_feed_spec(acl, hidden=True), descs), "filled by the runtime")
        _wrong(lab.check_feed_spec(_feed_spec(acl, gear=False), descs), "largest")
        as_f32 = lambda d: [dict(s, dtype=np.float32) for s in _feed_spec(acl)(d)]  # noqa: E731
        _wrong(lab.check_feed_spec(as_f32, descs), "dtype should be float16")
        _wrong(lab.check_feed_spec(lambda d: (_feed_spec(acl)(d), None)[1], descs), "one dict per input")
        _wrong(lab.check_feed_spec(None, descs), "pass your function")
        _wrong(lab.check_feed_spec(_feed_spec(acl), "4"))
    finally:
        for mid, d in made:
            acl.mdl.destroy_desc(d)
            acl.mdl.unload(mid)


def test_the_new_checkers_say_not_written_yet(datasets, add_op, acl):
    """The released notebook's `raise NotImplementedError()`: feedback naming it, never a checker crash."""
    def unwritten(*args):
        raise NotImplementedError()
    model_id, inputs, outputs = datasets
    _, stream = add_op
    desc = at.query_desc(at.Model(model_id=model_id))
    photos = [at.models.image("coffee.png")]
    try:
        for fb in (lab.check_run_model(unwritten, model_id, desc.model_desc, inputs.dataset),
                   lab.check_device_add(unwritten, stream),
                   lab.check_classify_loop(unwritten, model_id, inputs, outputs, desc, photos),
                   lab.check_feed_spec(unwritten, [desc])):
            _wrong(fb, "not written yet")
            assert "还没有写" in fb.message_zh
    finally:
        acl.mdl.destroy_desc(desc.model_desc)


# -- 15 ---------------------------------------------------------------------------------------------------------
def _keeper(acl, kept, padded=False, row=None, uv_at=None, code=None, free=True, eos=True, keep_eos=False,
            copy=True, free_input=False):
    """A VDEC callback like the notebook's solution, with one typical mistake (or extra) switched on."""
    media = acl.media

    def keep_frame(stream_desc, pic_desc, user_data):
        if stream_desc:
            unit = media.dvpp_get_stream_desc_data(stream_desc)
            if free_input and unit:  # the input chunk's memory too: the checker must not free it again
                assert media.dvpp_free(unit) == 0
            assert media.dvpp_destroy_stream_desc(stream_desc) == 0
        if not pic_desc:
            if keep_eos:
                kept[user_data] = (0, None)
            if eos:
                return
        data = media.dvpp_get_pic_desc_data(pic_desc)  # raises on pic desc 0 when eos=False
        ret_code = media.dvpp_get_pic_desc_ret_code(pic_desc) if code is None else code
        picture = None
        if ret_code == 0:
            w, h = media.dvpp_get_pic_desc_width(pic_desc), media.dvpp_get_pic_desc_height(pic_desc)
            ws, hs = media.dvpp_get_pic_desc_width_stride(pic_desc), media.dvpp_get_pic_desc_height_stride(pic_desc)
            size = ws * hs * 3 // 2
            if copy:
                host, ret = acl.rt.malloc_host(size)
                assert ret == 0 and acl.rt.memcpy(host, size, data, size, 2) == 0
                buf = np.frombuffer(acl.util.ptr_to_bytes(host, size), np.uint8)
                assert acl.rt.free_host(host) == 0
            else:
                buf = np.zeros(size, np.uint8)  # never copied: what a host read of device memory cannot give
            stride = ws if row is None else row(w, ws)
            uv0 = ws * hs if uv_at is None else uv_at(w, h)
            y = buf[:stride * h].reshape(h, stride)[:, :w]
            uv = buf[uv0:uv0 + stride * (h // 2)].reshape(h // 2, stride)[:, :w]
            picture = buf.copy() if padded else np.vstack([y, uv])
        kept[user_data] = (ret_code, picture)
        if free:
            assert media.dvpp_free(data) == 0
        assert media.dvpp_destroy_pic_desc(pic_desc) == 0
    return keep_frame


def test_check_vdec_callback(ready):
    acl = ready
    before = _live()
    kept = {}
    fb = lab.check_vdec_callback(_keeper(acl, kept), kept)
    assert fb and fb.message_zh and "byte-exact" in fb.message, fb
    assert _live() == before  # the checker's channel, thread, descs and memory are all gone
    assert len(kept) == 4 and sum(1 for c, p in kept.values() if c != 0 and p is None) == 1  # 3 frames + the broken


@pytest.mark.parametrize("mistake,words", [
    (dict(padded=True), ["padding"]),                                    # the whole strided buffer
    (dict(row=lambda w, ws: w), ["width_stride"]),                       # rows read at width, not the stride
    (dict(uv_at=lambda w, h: w * h), ["UV plane starts"]),               # UV taken at width x height
    (dict(code=0), ["ret_code"]),                                        # ret_code never read
    (dict(free=False), ["not freed"]),                                   # output memory leaked
    (dict(eos=False), ["raised", "end-of-stream"]),                      # crashes on the EOS callback
    (dict(keep_eos=True), ["end-of-stream"]),                            # an entry for EOS
    (dict(copy=False), ["acl.rt.memcpy"]),                               # the picture never copied from the device
])
def test_check_vdec_callback_mistakes(ready, mistake, words):
    acl = ready
    before = _live()
    kept = {}
    _wrong(lab.check_vdec_callback(_keeper(acl, kept, **mistake), kept), *words)
    assert _live() == before  # whatever the callback left, the checker released


def test_check_vdec_callback_is_not_fooled(ready):
    acl = ready
    media = acl.media
    kept = {}
    assert lab.check_vdec_callback(_keeper(acl, kept), kept)
    old = dict(kept)

    def tidy_only(stream_desc, pic_desc, user_data):  # releases everything, keeps nothing: the last run's answers
        if stream_desc:
            media.dvpp_destroy_stream_desc(stream_desc)
        if pic_desc:
            media.dvpp_free(media.dvpp_get_pic_desc_data(pic_desc))
            media.dvpp_destroy_pic_desc(pic_desc)
    _wrong(lab.check_vdec_callback(tidy_only, old), "no entry for frame 0")   # leftover state from a previous run
    _wrong(lab.check_vdec_callback(None, kept), "pass your function")
    _wrong(lab.check_vdec_callback(_keeper(acl, kept), [1, 2]), "expected")
    _wrong(lab.check_vdec_callback(lambda s, p, u: (_ for _ in ()).throw(NotImplementedError()), kept),
           "not written yet")

def test_check_vdec_callback_board_may_drop_the_broken_chunk(ready, monkeypatch):
    """On a board VDEC may drop the undecodable chunk without a callback: nothing of it is owed then."""
    from acl_teach.sim.media.vdec import decode as vdec
    deliver = vdec.Channel._deliver

    def dropping(self, chunk, api, frame=None, why=""):
        if why:
            chunk.fn = None  # no callback for the chunk the decoder could not decode
        return deliver(self, chunk, api, frame, why)
    monkeypatch.setattr(vdec.Channel, "_deliver", dropping)
    monkeypatch.setattr(lab, "on_simulator", lambda: False)
    before = _live()
    kept = {}
    fb = lab.check_vdec_callback(_keeper(ready, kept), kept)
    assert fb and "byte-exact" in fb.message, fb
    assert len(kept) == 3 and _live() == before  # the checker released what the dropped chunk left


def test_check_vdec_callback_frees_no_input_twice(ready, monkeypatch):
    """A callback that also frees its input chunk's DVPP memory: the checker's cleanup must not free it again."""
    media = ready.media
    free, codes = media.dvpp_free, []

    def counted(ptr):
        codes.append((ptr, free(ptr)))
        return codes[-1][1]
    monkeypatch.setattr(media, "dvpp_free", counted)
    before = _live()
    kept = {}
    assert lab.check_vdec_callback(_keeper(ready, kept, free_input=True), kept)
    assert _live() == before
    ptrs = [p for p, _ in codes]
    assert len(ptrs) == len(set(ptrs)) and all(c == 0 for _, c in codes), codes  # each pointer freed once, all 0


# -- 16 ---------------------------------------------------------------------------------------------------------
def _time_execute(acl, record_on=None, sync=True, destroy=True, runs=1, answer=None, own=True, reverse=False,
                  data=None):
    """A learner's time_execute, right by default, or with one typical mistake (data: other datasets to run on)."""
    leftover = [acl.rt.create_event()[0], acl.rt.create_event()[0]] if not own else None

    def time_execute(model_id, inputs, outputs, stream):
        start, end = leftover or (acl.rt.create_event()[0], acl.rt.create_event()[0])
        on = stream if record_on is None else record_on
        acl.rt.record_event(start, on)
        for _ in range(runs):
            acl.mdl.execute_async(model_id, *(data or (inputs.dataset, outputs.dataset)), stream)
        acl.rt.record_event(end, on)
        if sync:
            acl.rt.synchronize_event(end)
        ms, ret = acl.rt.event_elapsed_time(*((end, start) if reverse else (start, end)))
        if destroy:
            acl.rt.destroy_event(start)
            acl.rt.destroy_event(end)
        return ms if answer is None else answer
    return time_execute, leftover


def test_check_event_timing_needs_the_given_datasets(datasets, acl):
    """An inference timed on other buffers than the inputs and outputs time_execute got is not the answer."""
    model_id, inputs, outputs = datasets
    d = at.query_desc(at.Model(model_id=model_id))
    mine, theirs = at.build_dataset(d, "input"), at.build_dataset(d, "output")
    stream, _ = acl.rt.create_stream()
    try:
        _wrong(lab.check_event_timing(_time_execute(acl, data=(mine.dataset, theirs.dataset))[0], model_id, inputs,
                                      outputs, stream), "datasets time_execute is given")
        _wrong(lab.check_event_timing(_time_execute(acl, data=(inputs.dataset, theirs.dataset))[0], model_id,
                                      inputs, outputs, stream), "datasets time_execute is given")
    finally:
        acl.rt.destroy_stream(stream)
        at.release_dataset(mine)
        at.release_dataset(theirs)
        acl.mdl.destroy_desc(d.model_desc)


def test_check_event_timing(datasets, acl):
    model_id, inputs, outputs = datasets
    stream, _ = acl.rt.create_stream()
    other, _ = acl.rt.create_stream()
    before = _live()
    try:
        fb = lab.check_event_timing(_time_execute(acl)[0], model_id, inputs, outputs, stream)
        assert fb and "3.322 ms (simulator: cost model)" in fb.message, fb
        _wrong(lab.check_event_timing(_time_execute(acl, answer=3.322)[0], model_id, inputs, outputs, stream),
               "return the milliseconds")                                                  # a typed literal
        _wrong(lab.check_event_timing(lambda m, i, o, s: 3.322, model_id, inputs, outputs, stream), "create its two")
        _wrong(lab.check_event_timing(_time_execute(acl, record_on=other)[0], model_id, inputs, outputs, stream),
               "not on the stream the inference runs on")
        _wrong(lab.check_event_timing(_time_execute(acl, record_on=0)[0], model_id, inputs, outputs, stream),
               "not on the stream")                                                        # the default stream
        _wrong(lab.check_event_timing(_time_execute(acl, sync=False)[0], model_id, inputs, outputs, stream),
               "wait before reading")
        _wrong(lab.check_event_timing(_time_execute(acl, runs=2)[0], model_id, inputs, outputs, stream),
               "time one inference")
        _wrong(lab.check_event_timing(_time_execute(acl, runs=0)[0], model_id, inputs, outputs, stream),
               "queue the inference")
        _wrong(lab.check_event_timing(_time_execute(acl, reverse=True)[0], model_id, inputs, outputs, stream),
               "event_elapsed_time returned")                                              # end before start: 107007
        fn, leftover = _time_execute(acl, own=False)                                       # events made beforehand
        _wrong(lab.check_event_timing(fn, model_id, inputs, outputs, stream), "create its two")
        _wrong(lab.check_event_timing(_time_execute(acl, destroy=False)[0], model_id, inputs, outputs, stream),
               "destroy the events")
        assert _live() == before                                                           # the checker destroyed them
        _wrong(lab.check_event_timing(lambda *a: (_ for _ in ()).throw(NotImplementedError()), model_id, inputs,
                                      outputs, stream), "not written yet")
        _wrong(lab.check_event_timing(None, model_id, inputs, outputs, stream), "pass your function")
        _wrong(lab.check_event_timing(_time_execute(acl)[0], model_id, inputs, outputs, 0), "explicit stream")
        _wrong(lab.check_event_timing(_time_execute(acl)[0], model_id, None, outputs, stream),
               "got NoneType None")                                                        # quotes the bad argument
        _wrong(lab.check_event_timing(_time_execute(acl)[0], "m", inputs, outputs, stream), "got str 'm'")
    finally:
        acl.rt.destroy_stream(stream)
        acl.rt.destroy_stream(other)


# -- 14: decode_nv12 in raw pyACL ----------------------------------------------------------------------------------
def _decode_nv12(jpeg, channel, stream, *, align=None, sync=True, free_jpeg=True, spare_desc=False):
    """The notebook's answer; the keywords make the usual mistakes."""
    from acl_teach import backend
    acl = backend.acl()
    media = acl.media
    host = acl.util.bytes_to_ptr(jpeg)
    w, h, _, ret = media.dvpp_jpeg_get_image_info(host, len(jpeg))
    soc = acl.get_soc_name()
    wa = align or (128 if soc.startswith("Ascend310") and soc[9:10] not in ("P", "B") else 64)
    ws, hs = (w + wa - 1) // wa * wa, (h + 15) // 16 * 16
    size = ws * hs * 3 // 2
    jpeg_dev, ret = media.dvpp_malloc(len(jpeg))
    run_mode, _ = acl.rt.get_run_mode()
    assert acl.rt.memcpy(jpeg_dev, len(jpeg), host, len(jpeg), 3 if run_mode == 0 else 1) == 0
    out, ret = media.dvpp_malloc(size)
    desc = media.dvpp_create_pic_desc()
    for name, value in (("data", out), ("size", size), ("format", 1), ("width", w), ("height", h),
                        ("width_stride", ws), ("height_stride", hs)):
        getattr(media, f"dvpp_set_pic_desc_{name}")(desc, value)
    if spare_desc:
        media.dvpp_create_pic_desc()
    media.dvpp_jpeg_decode_async(channel, jpeg_dev, len(jpeg), desc, stream)
    if sync:
        acl.rt.synchronize_stream(stream)
    if free_jpeg and sync:
        media.dvpp_free(jpeg_dev)
    return desc


@pytest.fixture
def dvpp_channel(ready):
    """(channel desc, stream) of an open JPEGD channel, released at the end."""
    stream, ret = ready.rt.create_stream()
    channel = ready.media.dvpp_create_channel_desc()
    assert ret == 0 and ready.media.dvpp_create_channel(channel) == 0
    yield channel, stream
    ready.media.dvpp_destroy_channel(channel)
    ready.media.dvpp_destroy_channel_desc(channel)
    ready.rt.destroy_stream(stream)


def test_check_decode_nv12_passes_the_right_answer_and_leaves_nothing(dvpp_channel):
    channel, stream = dvpp_channel
    before = _live()
    for _ in range(2):  # a fresh random JPEG each time
        fb = lab.check_decode_nv12(_decode_nv12, channel, stream)
        assert fb and "NV12" in fb.message and fb.message_zh, fb
    assert _live() == before


def test_check_decode_nv12_follows_the_soc(dvpp_channel):
    """On a 310B the 64-byte stride is right; the 310's 128 is a multiple of 64, also legal; 16 is not."""
    from acl_teach import sim
    channel, stream = dvpp_channel
    before = sim.state().config.soc_name
    sim.configure(soc_name="Ascend310B4")
    try:
        assert lab.check_decode_nv12(_decode_nv12, channel, stream)
        _wrong(lab.check_decode_nv12(lambda j, c, s: _decode_nv12(j, c, s, align=32), channel, stream),
               "multiple of 64")
    finally:
        sim.configure(soc_name=before)
    _wrong(lab.check_decode_nv12(lambda j, c, s: _decode_nv12(j, c, s, align=64), channel, stream),
           "multiple of 128")  # the 310B's rule on a 310


def test_check_decode_nv12_refuses_the_gamed_answers(dvpp_channel, ready):
    channel, stream = dvpp_channel
    before = _live()
    check = lambda fn: lab.check_decode_nv12(fn, channel, stream)  # noqa: E731
    _wrong(check(lambda j, c, s: _decode_nv12(j, c, s, align=16)), "strides", "ALIGN_UP")       # wrong strides
    _wrong(check(lambda j, c, s: _decode_nv12(j, c, s, sync=False)), "synchronize_stream")       # no sync
    _wrong(check(lambda j, c, s: _decode_nv12(j, c, s, free_jpeg=False)), "not freed")           # leaks the JPEG
    _wrong(check(lambda j, c, s: _decode_nv12(j, c, s, spare_desc=True)), "not destroyed")       # a spare desc
    old = _decode_nv12(lab._random_jpeg()[0], channel, stream)                                   # a leftover desc
    _wrong(check(lambda j, c, s: old), "not created in this call")
    _wrong(check(lambda j, c, s: _decode_nv12(lab._random_jpeg()[0], c, s)), "JPEG")             # another JPEG
    _wrong(check(lambda j, c, s: 12345), "not created")                                          # a literal
    _wrong(check(lambda j, c, s: None), "return the output pic desc")
    _wrong(check(lambda j, c, s: (_ for _ in ()).throw(NotImplementedError())), "not written yet")
    _wrong(lab.check_decode_nv12(None, channel, stream), "pass your function")
    _wrong(lab.check_decode_nv12(_decode_nv12, None, stream), "channel desc")
    media = ready.media
    media.dvpp_free(media.dvpp_get_pic_desc_data(old))
    media.dvpp_destroy_pic_desc(old)
    assert _live() == before


def test_decode_checker_widths_tell_every_alignment_apart():
    """A wrong stride rule must fail every run, not only when the random width happens to expose it."""
    up = lambda w, a: (w + a - 1) // a * a  # noqa: E731
    assert lab._DECODE_WIDTHS
    assert all(len({up(w, a) for a in (16, 32, 64, 128)}) == 4 for w in lab._DECODE_WIDTHS)
