"""Sample-style programs, written the way pyACL users write them, against the simulator's ``acl``.

``acl`` carries the binding's names only (no constants, no simulator helpers), every real name answers (simulated,
or NotSimulatedError naming it), argument parsing is PyArg_ParseTuple's and the parse-failure texts are the
binding's.
"""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from acl_teach import sim
from acl_teach.spec.binding import TABLE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = textwrap.dedent('''
    import numpy as np
    import acl
    import acl.prof, acl.himpi, acl.fv, acl.blas   # all ten modules import, as on a board

    DEVICE_ID = 0
    ret = acl.init()
    ret = acl.rt.set_device(DEVICE_ID)
    context, ret = acl.rt.create_context(DEVICE_ID)
    print("device", acl.rt.get_device(DEVICE_ID))              # METH_VARARGS, never parses: the 0 is ignored
    print("count", acl.rt.get_device_count(DEVICE_ID))
    print("mode", acl.rt.get_run_mode(DEVICE_ID))
    print("sync", acl.rt.synchronize_device(DEVICE_ID))
    w, h = np.int32(224), np.int32(224)                          # sizes read from a numpy array
    pic = acl.media.dvpp_create_pic_desc()
    print("width", acl.media.dvpp_set_pic_desc_width(pic, w))    # 'I' takes numpy ints (__index__)
    acl.media.dvpp_destroy_pic_desc(pic)
    try:
        acl.rt.malloc(np.int64(w * h * 3), 0)                    # 'k' does not (PyLong_Check)
    except TypeError as exc:
        print("malloc", exc)
    try:
        acl.media.dvpp_jpeg_decode_async(0, 0, 0, 0)
    except TypeError as exc:
        print("decode", exc)
    try:
        acl.himpi.sys_init()
    except NotImplementedError as exc:
        print("himpi", type(exc).__name__, "acl.himpi.sys_init" in str(exc))
    print("names", sorted(n for n in dir(acl) if not n.startswith("_"))[:3], hasattr(acl, "ACL_FLOAT"),
          hasattr(acl, "configure"))
    acl.rt.destroy_context(context)
    acl.rt.reset_device(DEVICE_ID)
    print("finalize", acl.finalize())
''')


def test_a_pyacl_program_on_the_simulator(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(PROGRAM, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "acl_teach.sim", str(script)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT, ACL_TEACH_SIM_QUIET="1"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out == ["device (0, 0)", "count (1, 0)", "mode (1, 0)", "sync 0", "width 0",
                   "malloc acl.rt.malloc args parse failed",
                   "decode acl.media.dvpp_jpeg_decode_async args parse failed",
                   "himpi NotSimulatedError True",
                   "names ['app_log', 'blas', 'create_data_buffer'] False False",
                   "finalize 0"]


def test_dir_of_every_module_is_the_binding_table(acl):
    assert {n for n in dir(acl) if not n.startswith("__")} == set(TABLE["acl"]) | {
        "rt", "mdl", "op", "media", "blas", "util", "prof", "himpi", "fv"}
    for sub in ("rt", "mdl", "op", "media", "blas", "util", "prof", "himpi", "fv"):
        assert {n for n in dir(getattr(acl, sub)) if not n.startswith("__")} == set(TABLE[f"acl.{sub}"])


def test_no_constants_and_no_simulator_extras_on_acl(acl):
    for name in ("ACL_FLOAT", "ACL_MEM_MALLOC_HUGE_FIRST", "NPY_FLOAT32", "PIXEL_FORMAT_YUV_SEMIPLANAR_420",
                 "configure", "ledger", "leak_report", "reset", "install", "warnings", "state", "constants",
                 "memory", "surface"):
        assert not hasattr(acl, name), name
    # the extras stay on acl_teach.sim, the constants in acl_teach.spec
    from acl_teach.spec import constants
    assert callable(sim.configure) and callable(sim.ledger) and constants.ACL_FLOAT16 == 1


def test_a_real_name_the_simulator_does_not_model_says_so(acl):
    with pytest.raises(sim.NotSimulatedError) as info:
        acl.fv.search(0, 0, 0, 0)
    assert str(info.value).startswith("acl.fv.search is a real pyACL function that acl-teach does not simulate")
    assert isinstance(info.value, NotImplementedError)


def test_import_acl_submodules_after_install(acl, monkeypatch):
    for name in [n for n in list(sys.modules) if n == "acl" or n.startswith("acl.")]:
        monkeypatch.delitem(sys.modules, name)
    sim.install()
    import acl as imported
    import acl.prof  # noqa: F401
    assert imported is acl and sys.modules["acl.prof"] is acl.prof


def test_meth_varargs_functions_that_never_parse_ignore_extra_arguments(ready):
    acl = ready
    assert acl.rt.get_device(0) == (0, 0)
    assert acl.rt.get_run_mode(0, 1) == (1, 0)
    assert acl.rt.get_device_count("anything") == (1, 0)
    assert acl.rt.synchronize_device(0) == 0
    assert acl.get_soc_name(1) == acl.get_soc_name()
    assert acl.mdl.destroy_desc(acl.mdl.create_desc(0)) == 0


def test_numpy_scalars_accepted_and_refused_per_letter(ready):
    acl = ready
    assert acl.rt.set_device(np.int64(0)) == 0                       # 'i'
    aipp = acl.mdl.create_aipp(1)
    assert acl.mdl.set_aipp_src_image_size(aipp, np.int32(224), np.int16(224)) == 0   # 'kii'
    assert acl.mdl.set_aipp_dtc_pixel_min(aipp, np.float32(0.5), 0, np.float64(0), 0, 0) == 0  # 'f'
    assert acl.mdl.set_aipp_rbuv_swap_switch(aipp, np.uint8(1)) == 0  # 'b'
    with pytest.raises(TypeError) as info:
        acl.mdl.destroy_aipp(np.uint64(aipp))                          # 'k': PyLong_Check refuses numpy
    assert str(info.value) == "acl.mdl.destroy_aipp args parse failed!"
    assert acl.mdl.destroy_aipp(aipp) == 0
    with pytest.raises(TypeError) as info:
        acl.rt.set_device(np.float32(0))                               # floats are never integers
    assert str(info.value) == "acl.rt.set_device args parse failed"


def test_aipp_setters_out_of_range_raise_the_binding_type_error(ready):
    acl = ready
    aipp = acl.mdl.create_aipp(1)
    for call, api in [(lambda: acl.mdl.set_aipp_csc_params(aipp, 1, 40000, *([0] * 14)), "set_aipp_csc_params"),
                      (lambda: acl.mdl.set_aipp_rbuv_swap_switch(aipp, 256), "set_aipp_rbuv_swap_switch"),
                      (lambda: acl.mdl.set_aipp_ax_swap_switch(aipp, -1), "set_aipp_ax_swap_switch"),
                      (lambda: acl.mdl.set_aipp_crop_params(aipp, 300, 0, 0, 8, 8, 0), "set_aipp_crop_params"),
                      (lambda: acl.mdl.set_aipp_padding_params(aipp, 256, 0, 0, 0, 0, 0), "set_aipp_padding_params"),
                      (lambda: acl.mdl.set_aipp_dtc_pixel_mean(aipp, 1 << 15, 0, 0, 0, 0), "set_aipp_dtc_pixel_mean")]:
        with pytest.raises(TypeError) as info:
            call()
        assert type(info.value) is TypeError and str(info.value) == f"acl.mdl.{api} args parse failed!"
    assert acl.mdl.set_aipp_csc_params(aipp, 1, 298, 516, 0, 298, -100, -208, 298, 0, 409, 0, 0, 0, 16 + 256, 128,
                                       128) == 0  # 'B' masks, as CPython does
    acl.mdl.destroy_aipp(aipp)


def test_media_texts_keep_or_lack_the_bang_as_the_binding_does(ready):
    acl = ready
    for func, text in [(acl.media.dvpp_jpeg_get_image_info, "acl.media.dvpp_jpeg_get_image_info args parse failed"),
                       (acl.media.dvpp_get_pic_desc_width, "acl.media.dvpp_get_pic_desc_width args parse failed!"),
                       (acl.media.dvpp_vpc_crop_resize_async, "acl.media.dvpp_vpc_crop_resize_async args parse failed")]:
        with pytest.raises(TypeError) as info:
            func("not a handle")
        assert str(info.value) == text
