"""What every notebook must be, in both editions, checked on the stored notebooks and their sources.

* Depth: a why-first opening (the reason, from the official guide and the learners' questions, before what
  you will be able to do), a summary (小结), 3-5 check-your-understanding questions, a "next" link to the
  next notebook, at least 400 English words of prose (600 CJK characters in the Chinese edition).
* Sources: every pyACL call a code cell makes is linked to its official API page (only pages the reference
  gives; the pyACL API index where it gives none) in prose before that call is first used, or just after.
* Honesty: a prose cell that quotes a code the reference marks UNCONFIRMED, or the simulator's 0xCD fill,
  says it is the simulator's choice ("simulator:" / "模拟器：").
* pyACL's return shapes, as the reference states them (bare ret; (outputs…, ret); a bare value for creators
  and getters; the odd (dataset, ret) of add_dataset_buffer), hold on the simulator for every acl call the
  notebooks make, and raw cells never throw a ret away.
"""
import ast
import glob
import os
import re

import nbformat
import numpy as np
import pytest

from helpers import ROOT

NB = os.path.join(ROOT, "notebooks")
FOLDERS = {"en": NB, "zh": os.path.join(NB, "zh")}
SOURCES = sorted(glob.glob(os.path.join(NB, "src", "[0-9][0-9]_*.py")))
NAMES = [os.path.basename(p)[:-3] for p in SOURCES]

# -- the official pages: one CANN version, each function's own page, in the edition's language -------------------------
#: The chosen version, named in notebook 00: the CANN 8.0.0 commercial edition's pyACL API reference (应用开发接口).
#: Its page ids differ between the Chinese and the English site (get_num_outputs is zh 0198, en 0207), so every
#: English page below is one seen in the reference search, never a Chinese id moved to /en/. The 8.0.0 pages were seen
#: under www.hiascend.com/document/detail, hiascend.com/document/detail or www.hiascend.com/doc_center/source (one
#: page each way); all are written here in the first form.
CANN_VERSION = "CANN 8.0.0 (canncommercial/800)"
_Z800 = "https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_{}.html"
_E800 = "https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_{}.html"
PAGE_800 = {"zh": re.compile(re.escape(_Z800).replace(r"\{\}", r"\d{4}") + "$"),
            "en": re.compile(re.escape(_E800).replace(r"\{\}", r"\d{4}") + "$")}
_CE = "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/{}/apiref/appdevgapi/aclpythondevg_01_{}.html"
_CE_API = "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/{}/API/appdevgapi/aclpythondevg_01_{}.html"
_Z850 = "https://www.hiascend.com/document/detail/zh/canncommercial/850/API/appdevgapi/aclpythondevg_01_{}.html"
_E850 = "https://www.hiascend.com/document/detail/en/canncommercial/850/API/appdevgapi/aclpythondevg_01_{}.html"
_LATEST = "https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/{}/aclpythondevg_01_{}.html"
_DK = ("https://hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/"
       "aadgp/aclpythondevg_01_{}.html")
#: the open-source runtime's pyACL reference (hicann/runtime python/docs/zh/api_ref, one page per function, Chinese only)
_GH = "https://github.com/hicann/runtime/blob/{}/python/docs/zh/api_ref/{}.md"
_A, _B = "a630024af57861939a7aaae9c14bfd1c4ef01958", "027e13c3479acd15059e478e8cf0d1b8066372aa"  # commits holding the files
GITHUB_PAGE = re.compile(r"https://github\.com/hicann/runtime/blob/[0-9a-f]{40}/python/docs/zh/api_ref/[\w/]+/"
                         r"function-[\w-]+\.md$")


def _gh(commit, where):
    return _GH.format(commit, where)


#: Chinese page of each function (both editions use it where EN_PAGES has no English page)
API_PAGES = {
    # CANN 8.0.0 pages
    "acl.init": _Z800.format("0005"),
    "acl.finalize": _Z800.format("0006"),
    "acl.rt.destroy_context": _Z800.format("0073"),
    "acl.rt.get_context": _Z800.format("0075"),
    "acl.rt.destroy_stream": _Z800.format("0081"),
    "acl.rt.synchronize_stream": _Z800.format("0087"),
    "acl.rt.record_event": _Z800.format("0093"),
    "acl.rt.event_elapsed_time": _Z800.format("0100"),
    "acl.rt.stream_wait_event": _Z800.format("0101"),
    "acl.rt.subscribe_report": _Z800.format("0103"),
    "acl.rt.process_report": _Z800.format("0106"),
    "acl.rt.malloc": _Z800.format("0110"),
    "acl.rt.get_mem_info": _Z800.format("0114"),
    "acl.rt.free": _Z800.format("0115"),
    "acl.rt.malloc_host": _Z800.format("0116"),
    "acl.rt.memset": _Z800.format("0118"),
    "acl.rt.memcpy": _Z800.format("0120"),
    "acl.mdl.load_from_file_with_mem": _Z800.format("0141"),
    "acl.mdl.set_dynamic_hw_size": _Z800.format("0152"),
    "acl.mdl.add_dataset_buffer": _Z800.format("0188"),
    "acl.mdl.get_num_outputs": _Z800.format("0198"),
    "acl.mdl.get_input_dims": _Z800.format("0201"),
    "acl.mdl.get_input_name_by_index": _Z800.format("0204"),
    "acl.mdl.get_output_name_by_index": _Z800.format("0205"),
    "acl.mdl.get_dynamic_hw": _Z800.format("0213"),
    "acl.mdl.get_input_dynamic_gear_count": _Z800.format("0216"),
    "acl.media.dvpp_vpc_resize_async": _Z800.format("0297"),
    "acl.media.dvpp_jpeg_get_image_info": _Z800.format("0324"),
    "acl.media.vdec_send_frame": _Z800.format("0339"),
    "acl.op.execute_v2": _Z800.format("0776"),
    "acl.prof.start": _Z800.format("0852"),
    # fallback: another CANN version's Chinese page (no 8.0.0 page of the function was found; see FALLBACK)
    "acl.rt.set_device": _CE.format("80RC3alpha001", "0058"),
    "acl.rt.reset_device": _CE.format("80RC3alpha001", "0060"),
    "acl.rt.get_run_mode": _CE.format("80RC3alpha001", "0062"),
    "acl.rt.set_context": _CE.format("80RC3alpha003", "0074"),
    "acl.rt.create_stream": _DK.format("0074"),
    "acl.rt.create_event": "https://www.hiascend.com/doc_center/source/zh/canncommercial/601/inferapplicationdev/"
                           "aclpythondevg/aclpythondevg_01_0073.html",
    "acl.rt.synchronize_event": _CE.format("80RC3alpha001", "0098"),
    "acl.rt.launch_callback": _CE.format("80RC3alpha001", "0105"),
    "acl.rt.memcpy_async": _CE_API.format("82RC1alpha001", "0121"),
    "acl.util.numpy_to_ptr": _LATEST.format("runtimeapi", "0052"),
    "acl.util.ptr_to_numpy": _CE.format("80RC3alpha003", "0054"),
    "acl.util.bytes_to_ptr": _Z850.format("0055"),
    "acl.util.ptr_to_bytes": _Z850.format("0056"),
    "acl.util.start_thread": _Z850.format("0058"),
    "acl.util.stop_thread": _CE_API.format("82RC1alpha003", "0059"),
    "acl.create_tensor_desc": _CE.format("81RC1alpha001", "0013"),
    "acl.create_data_buffer": _CE.format("80RC3alpha002", "0016"),
    "acl.get_data_buffer_size_v2": _CE.format("80RC3alpha002", "0020"),
    "acl.update_data_buffer": _CE_API.format("82RC1alpha001", "0021"),
    "acl.mdl.load_from_mem": _CE.format("80RC3alpha002", "0140"),
    "acl.mdl.execute": _LATEST.format("ascendgraphapi", "0145"),
    "acl.mdl.execute_async": _CE.format("80RC3alpha001", "0147"),
    "acl.mdl.query_size": _LATEST.format("ascendgraphapi", "0149"),
    "acl.mdl.set_dynamic_batch_size": _CE.format("80RC3alpha002", "0151"),
    "acl.mdl.get_input_index_by_name": _CE.format("80RC3alpha001", "0210"),
    "acl.mdl.get_dynamic_batch": _CE.format("81RC1alpha002", "0212"),
    "acl.mdl.get_cur_output_dims": _LATEST.format("ascendgraphapi", "0214"),
    "acl.mdl.get_input_dynamic_dims": _CE.format("80RC2alpha002", "0217"),
    "acl.op.cast": _CE.format("80RC3alpha001", "0779"),
    "acl.media.dvpp_malloc": _CE_API.format("850", "0223"),
    "acl.media.dvpp_jpeg_decode_async": "https://hiascend.com/document/detail/zh/canncommercial/601/"
                                        "inferapplicationdev/aclpythondevg/aclpythondevg_01_0295.html",
    "acl.media.dvpp_create_roi_config": "https://hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/"
                                        "apiref/appdevgapi/aclpythondevg_01_0309.html",
    "acl.prof.init": "https://hiascend.com/doc_center/source/zh/canncommercial/80RC1/apiref/appdevgapi/"
                     "aclpythondevg_01_0848.html",
    # fallback: the open-source runtime's page of the function (no hiascend page of it was found)
    "acl.get_soc_name": _gh(_B, "runtime/device/function-get_soc_name"),
    "acl.get_recent_err_msg": _gh(_A, "runtime/exception/function-get_recent_err_msg"),
    "acl.rt.create_context": _gh(_A, "runtime/context/function-create_context"),
    "acl.rt.unsubscribe_report": _gh(_B, "runtime/control/function-unsubscribe_report"),
    "acl.rt.free_host": _gh(_A, "runtime/memory/function-free_host"),
    "acl.rt.destroy_event": _gh(_A, "runtime/event/function-destroy_event"),
    "acl.rt.query_event_status": _gh(_B, "runtime/event/function-query_event_status"),
    "acl.rt.reset_event": _gh(_B, "runtime/event/function-reset_event"),
    "acl.destroy_data_buffer": _gh(_A, "runtime/datatypes/function-destroy_data_buffer"),
    "acl.get_data_buffer_addr": _gh(_B, "runtime/datatypes/function-get_data_buffer_addr"),
    "acl.destroy_tensor_desc": _gh(_A, "ge/function-destroy_tensor_desc"),
    "acl.mdl.load_from_file": _gh(_A, "ge/function-load_from_file"),
    "acl.mdl.unload": _gh(_B, "ge/function-unload"),
    "acl.mdl.create_desc": _gh(_A, "ge/function-create_desc"),
    "acl.mdl.get_desc": _gh(_B, "ge/function-get_desc"),
    "acl.mdl.destroy_desc": _gh(_B, "ge/function-destroy_desc"),
    "acl.mdl.get_num_inputs": _gh(_A, "ge/function-get_num_inputs"),
    "acl.mdl.get_input_size_by_index": _gh(_B, "ge/function-get_input_size_by_index"),
    "acl.mdl.get_output_size_by_index": _gh(_B, "ge/function-get_output_size_by_index"),
    "acl.mdl.get_input_dims_v2": _gh(_A, "ge/function-get_input_dims_v2"),
    "acl.mdl.get_output_dims": _gh(_A, "ge/function-get_output_dims"),
    "acl.mdl.get_input_format": _gh(_A, "ge/function-get_input_format"),
    "acl.mdl.get_output_format": _gh(_B, "ge/function-get_output_format"),
    "acl.mdl.get_input_data_type": _gh(_B, "ge/function-get_input_data_type"),
    "acl.mdl.get_output_data_type": _gh(_A, "ge/function-get_output_data_type"),
    "acl.mdl.get_output_index_by_name": _gh(_A, "ge/function-get_output_index_by_name"),
    "acl.mdl.create_dataset": _gh(_B, "ge/function-create_dataset"),
    "acl.mdl.destroy_dataset": _gh(_B, "ge/function-destroy_dataset"),
    "acl.mdl.get_dataset_buffer": _gh(_A, "ge/function-get_dataset_buffer"),
    "acl.mdl.get_dataset_num_buffers": _gh(_B, "ge/function-get_dataset_num_buffers"),
    "acl.op.set_model_dir": _gh(_A, "ge/function-set_model_dir"),
    "acl.op.create_attr": _gh(_A, "ge/function-create_attr"),
    "acl.op.set_attr_int": _gh(_A, "ge/function-set_attr_int"),
    "acl.op.destroy_attr": _gh(_B, "ge/function-destroy_attr"),
    "acl.prof.finalize": _gh(_A, "runtime/Profiling/function-finalize-Profiling"),
    "acl.prof.create_config": _gh(_A, "runtime/Profiling/function-create_config"),
    "acl.prof.destroy_config": _gh(_A, "runtime/Profiling/function-destroy_config"),
    "acl.prof.stop": _gh(_B, "runtime/Profiling/function-stop"),
    "acl.prof.create_stamp": _gh(_A, "runtime/Profiling/function-create_stamp"),
    "acl.prof.destroy_stamp": _gh(_A, "runtime/Profiling/function-destroy_stamp"),
    "acl.prof.set_stamp_trace_message": _gh(_B, "runtime/Profiling/function-set_stamp_trace_message"),
    "acl.prof.range_start": _gh(_B, "runtime/Profiling/function-range_start"),
    "acl.prof.range_stop": _gh(_A, "runtime/Profiling/function-range_stop"),
    # notebooks 07, 10: single operators from memory, dynamic dims, dynamic AIPP
    "acl.op.load": _gh(_B, "ge/function-load"),
    "acl.mdl.set_input_dynamic_dims": _gh(_B, "ge/function-set_input_dynamic_dims"),
    "acl.mdl.get_input_dims_range": _gh(_A, "ge/function-get_input_dims_range"),
    "acl.mdl.create_aipp": _gh(_B, "ge/function-create_aipp"),
    "acl.mdl.destroy_aipp": _gh(_A, "ge/function-destroy_aipp"),
    "acl.mdl.set_aipp_input_format": _gh(_B, "ge/function-set_aipp_input_format"),
    "acl.mdl.set_aipp_src_image_size": _gh(_B, "ge/function-set_aipp_src_image_size"),
    "acl.mdl.set_aipp_crop_params": _gh(_B, "ge/function-set_aipp_crop_params"),
    "acl.mdl.set_aipp_csc_params": _gh(_A, "ge/function-set_aipp_csc_params"),
    "acl.mdl.set_aipp_dtc_pixel_mean": _gh(_B, "ge/function-set_aipp_dtc_pixel_mean"),
    "acl.mdl.set_aipp_pixel_var_reci": _gh(_B, "ge/function-set_aipp_pixel_var_reci"),
    "acl.mdl.set_input_aipp": _gh(_B, "ge/function-set_input_aipp"),
}
#: English page of a function, where one was seen (8.0.0, else 8.5.0); elsewhere the English edition links the Chinese
EN_PAGES = {
    "acl.rt.create_context": _E800.format("0075"),
    "acl.mdl.load_from_file": _E800.format("0147"),
    "acl.mdl.get_num_outputs": _E800.format("0207"),
    "acl.mdl.get_output_dims": _E800.format("0212"),
    "acl.mdl.get_input_format": _E800.format("0215"),
    "acl.mdl.get_input_data_type": _E800.format("0217"),
    "acl.media.vdec_send_frame": _E800.format("0348"),
    "acl.mdl.get_num_inputs": _E850.format("0197"),
    "acl.mdl.set_input_dynamic_dims": _E800.format("0168"),
    "acl.rt.set_device": _E800.format("0061"),
    "acl.rt.reset_device": _E800.format("0063"),
    "acl.rt.set_context": _E800.format("0077"),
    "acl.rt.create_stream": _E800.format("0081"),
    "acl.rt.create_event": _E800.format("0092"),
    "acl.rt.launch_callback": _E800.format("0109"),
    "acl.rt.malloc_host": _E800.format("0120"),
    "acl.rt.memcpy_async": _E800.format("0125"),
    "acl.mdl.execute": _E800.format("0154"),
    "acl.mdl.execute_async": _E800.format("0156"),
    "acl.init": _E800.format("0005"),
    "acl.rt.malloc": _E800.format("0114"),
    "acl.rt.record_event": _E800.format("0097"),
    "acl.rt.event_elapsed_time": _E800.format("0104"),
    "acl.rt.subscribe_report": _E800.format("0108"),
    "acl.rt.unsubscribe_report": _E800.format("0111"),
    "acl.rt.process_report": _E800.format("0110"),
    "acl.rt.query_event_status": _E800.format("0100"),
    "acl.mdl.unload": _E800.format("0157"),
    "acl.mdl.get_input_dims_v2": _E800.format("0211"),
    "acl.mdl.get_input_dynamic_dims": _E800.format("0226"),
    "acl.mdl.get_output_name_by_index": _E800.format("0214"),
}
#: every link that is not the chosen version's page in the edition's language, and why (said here, as the brief asks)
def _version(url):
    """The CANN version a fallback page belongs to, as its address names it."""
    if "github.com" in url:
        return "the open-source runtime (hicann/runtime, Chinese only)"
    found = re.search(r"/(canncommercial|CANNCommunityEdition|Atlas200IDKA2DeveloperKit)/([^/]+)/", url)
    return f"{found.group(1)}/{found.group(2)}" if found else url


def _why(api, url):
    """One line per fallback: which page is linked instead of the 8.0.0 one, and why."""
    if "github.com" in url:
        return f"{api}: no Chinese 8.0.0 page was found in the reference search; the function's page of {_version(url)}"
    return f"{api}: the Chinese 8.0.0 page was not found in the reference search; the same function's page of " \
           f"{_version(url)}"


FALLBACK = {api: _why(api, url) for api, url in API_PAGES.items() if not PAGE_800["zh"].match(url)}
EN_FALLBACK = {api: f"{api}: no English CANN 8.0.0 page was found; " + (
                   f"the English page of {_version(EN_PAGES[api])}" if api in EN_PAGES else "the Chinese page")
               for api in API_PAGES if not PAGE_800["en"].match(EN_PAGES.get(api, ""))}


def page(api, lang):
    """The one page a notebook of edition ``lang`` links for ``api``."""
    return EN_PAGES.get(api, API_PAGES[api]) if lang == "en" else API_PAGES[api]


#: other official pages the reference and the official guide give (guides, not API pages)
GUIDE_PAGES = {
    # the output-name format of get_output_name_by_index (Python page, en) and aclmdlGetOutputNameByIndex (C, zh)
    "https://www.hiascend.com/document/detail/en/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0214.html",
    "https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclcppdevg_03_1457.html",
    # the aclError classes (C API page)
    "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/API/appdevgapi/aclcppdevg_03_1345.html",
    # 模型执行 (seed 000), the pyACL call flow and the run-mode / data-transfer guide (peers survey)
    "https://www.hiascend.com/document/detail/zh/canncommercial/latest/programug/acldevg/aclpythondevg_0032.html",
    "https://www.hiascend.com/doc_center/source/zh/canncommercial/700/inferapplicationdev/aclpythondevg/"
    "aclpythondevg_0005.html",
    "https://www.hiascend.com/document/detail/en/canncommercial/800/appdevg/aclpythondevg/aclpythondevg_0010.html",
    "https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/"
    "aclpythondevg_0125.html",
    # 转换模型 for the Atlas 200I DK A2 (seed 002)
    "https://www.hiascend.com/document/detail/zh/Atlas200IDKA2DeveloperKit/23.0.RC2/Application%20Development%20Guide/"
    "tmuacop/tmuacop_0001.html",
    # media data processing (notebook 14): the pages the DVPP/AIPP reference gives (dvpp_malloc, JPEGD constraints,
    # jpeg_decode_async, VPC resize, VPC functions, ROI config, the AIPP config template)
    "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/850/API/appdevgapi/aclpythondevg_01_0223.html",
    "https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0321.html",
    "https://hiascend.com/document/detail/zh/canncommercial/601/inferapplicationdev/aclpythondevg/aclpythondevg_01_0295.html",
    "https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0297.html",
    "https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclpythondevg/aclpythondevg_01_0259.html",
    "https://hiascend.com/document/detail/zh/CANNCommunityEdition/80RC3alpha001/apiref/appdevgapi/aclpythondevg_01_0309.html",
    "https://www.hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/atctool/atlasatc_16_0027.html",
    # JPEGE functions and constraints (notebook 14), and acl.mdl.set_input_aipp's guide (notebook 10, dynamic AIPP)
    "https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0328.html",
    "https://hiascend.com/document/detail/zh/canncommercial/601/inferapplicationdev/aclpythondevg/aclpythondevg_01_0155.html",
    # video (notebook 15): VDEC functions and constraints (stream formats, frame-by-frame input, output strides on the
    # 310/310P and the Atlas 200I/500 A2's 310B)
    "https://www.hiascend.com/document/detail/zh/canncommercial/700/inferapplicationdev/aclpythondevg/"
    "aclpythondevg_01_0329.html",
    # JPEGE functions and constraints (notebook 15's JPEGE input rules: formats, width/height stride)
    "https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0328.html",
    # events and profiling (notebook 16): aclrtStreamWaitEvent (C), acl.prof.start and the pyACL profiling API notes,
    # aclprofCreateConfig's data types, the acl.json profiler section, msprof export, acl.init's config (dump and
    # profiling), the dump configuration example
    "https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclcppdevg_03_0091.html",
    "https://hiascend.com/document/detail/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0852.html",
    "https://hiascend.com/doc_center/source/zh/canncommercial/80RC1/apiref/appdevgapi/aclpythondevg_01_0848.html",
    "https://hiascend.com/document/detail/zh/canncommercial/5046/inferapplicationdev/aclcppdevg/aclcppdevg_03_0752.html",
    "https://www.hiascend.com/document/detail/zh/canncommercial/700/devtools/auxiliarydevtool/atlasprofiling_16_0152.html",
    "https://www.hiascend.com/document/detail/zh/canncommercial/601/devtools/auxiliarydevtool/atlasprofiling_16_0098.html",
    "https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0005.html",
    "https://www.hiascend.com/doc_center/source/zh/canncommercial/800/apiref/appdevgapi/aclpythondevg_01_0155.html",
    # CANN 文档速递 09 (seed 004)
    "https://www.hiascend.com/developer/techArticles/20220527-4",
}
ALLOWED_URLS = set(API_PAGES.values()) | set(EN_PAGES.values()) | GUIDE_PAGES

# -- the return shapes the reference states (section 1.3 and the tables of section 2) ---------------------------------
RET = {"acl.init", "acl.finalize", "acl.rt.set_device", "acl.rt.reset_device", "acl.rt.destroy_context",
       "acl.rt.set_context", "acl.rt.destroy_stream", "acl.rt.synchronize_stream", "acl.rt.free", "acl.rt.free_host",
       "acl.rt.memset", "acl.rt.memcpy", "acl.rt.memcpy_async", "acl.rt.subscribe_report", "acl.rt.launch_callback",
       "acl.rt.process_report", "acl.rt.unsubscribe_report", "acl.util.stop_thread", "acl.mdl.unload",
       "acl.mdl.get_desc", "acl.mdl.destroy_desc", "acl.mdl.destroy_dataset", "acl.destroy_data_buffer",
       "acl.update_data_buffer", "acl.mdl.execute", "acl.mdl.execute_async", "acl.mdl.set_dynamic_batch_size",
       "acl.mdl.set_dynamic_hw_size", "acl.op.set_model_dir", "acl.op.set_attr_int", "acl.op.execute_v2",
       "acl.op.cast", "acl.rt.record_event", "acl.rt.synchronize_event", "acl.rt.destroy_event",
       "acl.rt.stream_wait_event", "acl.rt.reset_event", "acl.op.load", "acl.mdl.set_input_dynamic_dims",
       "acl.mdl.set_input_aipp", "acl.mdl.destroy_aipp", "acl.mdl.set_aipp_input_format",
       "acl.mdl.set_aipp_src_image_size", "acl.mdl.set_aipp_crop_params", "acl.mdl.set_aipp_csc_params",
       "acl.mdl.set_aipp_dtc_pixel_mean", "acl.mdl.set_aipp_pixel_var_reci"}
TUPLE = {"acl.rt.get_run_mode": 2, "acl.rt.create_context": 2, "acl.rt.get_context": 2, "acl.rt.create_stream": 2,
         "acl.rt.malloc": 2, "acl.rt.malloc_host": 2, "acl.rt.get_mem_info": 3, "acl.util.start_thread": 2,
         "acl.mdl.load_from_file": 2, "acl.mdl.load_from_mem": 2, "acl.mdl.load_from_file_with_mem": 2,
         "acl.mdl.query_size": 3, "acl.mdl.get_input_dims": 2, "acl.mdl.get_input_dims_v2": 2,
         "acl.mdl.get_output_dims": 2, "acl.mdl.get_cur_output_dims": 2, "acl.mdl.get_input_index_by_name": 2,
         "acl.mdl.get_output_index_by_name": 2, "acl.mdl.get_dynamic_batch": 2, "acl.mdl.get_dynamic_hw": 2,
         "acl.mdl.get_input_dynamic_gear_count": 2, "acl.mdl.get_input_dynamic_dims": 2, "acl.get_version": 4,
         "acl.rt.create_event": 2, "acl.rt.event_elapsed_time": 2, "acl.rt.query_event_status": 2,
         "acl.mdl.get_input_dims_range": 2}
ODD = {"acl.mdl.add_dataset_buffer"}  # (dataset, ret): the dataset it was given, then ret
VALUE = {"acl.mdl.create_desc": int, "acl.mdl.create_dataset": int, "acl.create_data_buffer": int,
         "acl.mdl.get_num_inputs": int, "acl.mdl.get_num_outputs": int, "acl.mdl.get_input_size_by_index": int,
         "acl.mdl.get_output_size_by_index": int, "acl.mdl.get_input_name_by_index": str,
         "acl.mdl.get_output_name_by_index": str, "acl.mdl.get_input_format": int, "acl.mdl.get_output_format": int,
         "acl.mdl.get_input_data_type": int, "acl.mdl.get_output_data_type": int, "acl.mdl.get_dataset_buffer": int,
         "acl.mdl.get_dataset_num_buffers": int, "acl.get_data_buffer_addr": int, "acl.get_data_buffer_size_v2": int,
         "acl.util.bytes_to_ptr": int, "acl.util.numpy_to_ptr": int, "acl.util.ptr_to_bytes": bytes,
         "acl.util.ptr_to_numpy": np.ndarray, "acl.create_tensor_desc": int, "acl.op.create_attr": int,
         "acl.get_soc_name": str, "acl.get_recent_err_msg": str, "acl.mdl.create_aipp": int}
NONE = {"acl.destroy_tensor_desc", "acl.op.destroy_attr"}
SHAPED = RET | set(TUPLE) | ODD | set(VALUE) | NONE
CALL = re.compile(r"\bacl\.(?:(?:rt|mdl|op|util)\.)?[a-z_0-9]+(?=\()")
UNCONFIRMED_CODES = ("145002", "145003", "100013", "100017", "145013")
LABEL = {"en": "simulator:", "zh": "模拟器："}
MARK = {"en": {"why": "**Why", "will": "**You will", "summary": "## Summary", "questions": "## Check your understanding",
               "next": "**Next →**"},
        "zh": {"why": "**为什么", "will": "**学完本节", "summary": "## 小结", "questions": "## 自测题",
               "next": "**下一节 →**"}}
EXEMPT_DISCARD = {("07_results_top5", "acl.op.execute_v2")}  # 07's operator cell is owned by the op-model work


def _editions():
    return [(name, lang) for name in NAMES for lang in FOLDERS]


def _read(name, lang):
    return nbformat.read(os.path.join(FOLDERS[lang], f"{name}.ipynb"), as_version=4)


def _md(nb):
    return [c.source for c in nb.cells if c.cell_type == "markdown"]


def _prose(text):
    """Markdown without fenced code, inline code, URLs and table rules."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    text = re.sub(r"https?://\S+", " ", text)
    return re.sub(r"\|[-: |]+\|", " ", text)


def prose_size(nb, lang):
    """English words, or CJK characters in the Chinese edition."""
    text = _prose("\n".join(_md(nb)))
    if lang == "zh":
        return len(re.findall(r"[\u3400-\u9fff]", text))
    return len(re.findall(r"[A-Za-z][A-Za-z'’-]*", text))


def calls_in(source):
    return CALL.findall(source)


@pytest.mark.parametrize("name,lang", _editions())
def test_why_first_opening(name, lang):
    first = _md(_read(name, lang))[0]
    why, will = first.find(MARK[lang]["why"]), first.find(MARK[lang]["will"])
    assert first.startswith("# ") and 0 < why < will, \
        f"{name} ({lang}): the first cell is the title, then {MARK[lang]['why']}…, then {MARK[lang]['will']}…"


@pytest.mark.parametrize("name,lang", _editions())
def test_summary_questions_and_next_link(name, lang):
    cells = _md(_read(name, lang))
    assert any(c.startswith(MARK[lang]["summary"]) for c in cells), f"{name} ({lang}) has no summary"
    quiz = [c for c in cells if c.startswith(MARK[lang]["questions"])]
    assert len(quiz) == 1, f"{name} ({lang}): one '{MARK[lang]['questions']}' cell"
    questions = re.findall(r"^\d+\. ", quiz[0], flags=re.M)
    assert 3 <= len(questions) <= 5, f"{name} ({lang}): {len(questions)} questions; 3 to 5"
    i = NAMES.index(name)
    want = NAMES[i + 1] if i + 1 < len(NAMES) else NAMES[0]
    link = re.search(re.escape(MARK[lang]["next"]) + r" \[[^\]]+\]\(([^)]+)\)", "\n".join(cells))
    assert link and link.group(1) == f"{want}.ipynb", f"{name} ({lang}): '{MARK[lang]['next']} [..]({want}.ipynb)'"
    assert os.path.isfile(os.path.join(FOLDERS[lang], link.group(1)))


@pytest.mark.parametrize("name,lang", _editions())
def test_enough_prose(name, lang):
    size, floor = prose_size(_read(name, lang), lang), {"en": 400, "zh": 600}[lang]
    assert size >= floor, f"{name} ({lang}): {size} {'CJK characters' if lang == 'zh' else 'words'} of prose; " \
        f"at least {floor}"


@pytest.mark.parametrize("name,lang", _editions())
def test_doc_links_are_the_reference_pages(name, lang):
    text = "\n".join(_md(_read(name, lang)))
    assert "](" + "[" not in text, f"{name} ({lang}) has a link nested in a link target"
    urls = re.findall(r"\((https?://(?:(?:www\.)?hiascend\.com|github\.com/hicann)[^)\s]*)\)", text)
    assert any("hiascend.com" in u for u in urls), f"{name} ({lang}) links no official page"
    invented = sorted(set(urls) - ALLOWED_URLS)
    assert not invented, f"{name} ({lang}) links pages the reference does not give: {invented}"


API_LINK = re.compile(r"\[`(acl\.[\w.]+)`\]\(([^)\s]+)\)")


def test_the_page_table_has_one_form():
    """Each page is a function's own page (no folder, no index) of CANN 8.0.0 or a listed fallback; Chinese is Chinese."""
    bad = []
    for api, url in API_PAGES.items():
        own = url.endswith(".html") and "/aclpythondevg_01_" in url or GITHUB_PAGE.match(url)
        if not own or "/zh/" not in url or not (PAGE_800["zh"].match(url) or api in FALLBACK):
            bad.append(f"{api}: {url}")
    for api, url in EN_PAGES.items():
        if "/en/" not in url or not url.endswith(".html") or api not in API_PAGES:
            bad.append(f"{api} (en): {url}")
    assert not bad, "pages of the wrong form: " + "; ".join(bad)
    assert len(set(API_PAGES.values())) == len(API_PAGES), "two functions share one page"
    assert len(set(EN_PAGES.values())) == len(EN_PAGES), "two functions share one English page"


@pytest.mark.parametrize("name,lang", _editions())
def test_every_api_link_is_that_functions_page_in_the_editions_language(name, lang):
    """[`acl.x`](url): url is page(acl.x, lang), so one version, one page per function, zh links Chinese pages."""
    wrong = []
    for text in _md(_read(name, lang)):
        for api, url in API_LINK.findall(text):
            if api not in API_PAGES or url != page(api, lang):
                wrong.append(f"{api} -> {url}")
            elif lang == "zh" and "/zh/" not in url:
                wrong.append(f"{api} -> {url} (an English page in the Chinese edition)")
    assert not wrong, f"{name} ({lang}): link each function to page(api, lang) of this test: {wrong}"


def test_notebook_00_names_the_chosen_version():
    for lang in FOLDERS:
        text = "\n".join(_md(_read("00_welcome", lang)))
        assert "CANN 8.0.0" in text and "canncommercial/800" in text, f"00 ({lang}) names the API pages' version"


@pytest.mark.parametrize("name,lang", _editions())
def test_each_pyacl_call_is_linked_where_it_is_first_used(name, lang):
    """The link sits in a prose cell before the first code cell that makes the call, or right after it."""
    cells = _read(name, lang).cells
    missing = []
    for i, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        for api in dict.fromkeys(calls_in(cell.source)):
            if any(api in calls_in(c.source) for c in cells[:i] if c.cell_type == "code"):
                continue
            assert api in API_PAGES, f"{name}: give {api} its page in API_PAGES (this test)"
            link = f"[`{api}`]({page(api, lang)})"
            nearby = [c.source for c in cells[:i] if c.cell_type == "markdown"]
            nearby += [c.source for c in cells[i + 1:i + 2] if c.cell_type == "markdown"]
            if not any(link in text for text in nearby):
                missing.append(link)
    assert not missing, f"{name} ({lang}): link each call at its first use: {missing}"


@pytest.mark.parametrize("name,lang", _editions())
def test_simulator_choices_are_labelled(name, lang):
    for text in _md(_read(name, lang)):
        quoted = [c for c in UNCONFIRMED_CODES if c in text] + (["0xCD"] if re.search(r"0x[cC][dD]", text) else [])
        assert not quoted or LABEL[lang] in text, \
            f"{name} ({lang}): a prose cell quotes {quoted} without saying it is the simulator's choice " \
            f"('{LABEL[lang]}'):\n{text[:200]}"


def test_every_call_the_notebooks_make_has_a_known_return_shape():
    used = {api for path in SOURCES for api in calls_in(open(path, encoding="utf-8").read())}
    unknown = sorted(used - SHAPED)
    assert not unknown, f"classify these calls by the reference's return-shape rules in this test: {unknown}"


def _discarded(tree):
    """Calls whose ret is thrown away: a bare statement, or '_' where ret lands."""
    found = []
    for node in ast.walk(tree):
        call = None
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            target = node.targets[0]
            last = target.elts[-1] if isinstance(target, ast.Tuple) else target
            if isinstance(last, ast.Name) and last.id == "_":
                call = node.value
        if call is not None:
            api = ast.unparse(call.func)
            if api in RET or api in TUPLE or api in ODD:
                found.append(api)
    return found


@pytest.mark.parametrize("path", SOURCES, ids=NAMES)
def test_raw_cells_never_discard_ret(path):
    import jupytext
    name = os.path.basename(path)[:-3]
    bad = []
    for cell in jupytext.read(path).cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
        calls = _discarded(ast.parse(source))
        if calls and not any((name, api) in EXEMPT_DISCARD for api in calls_in(cell.source)):
            bad += calls
    assert not bad, f"{name}: these calls' ret is thrown away; check it (lab.check_ret), print it, or keep it: {bad}"


# -- the return shapes on the simulator, for every call the notebooks make --------------------------------------------
def _scenario(acl, tmp_path):
    """One pass through every call in SHAPED with real arguments; returns {api: what it returned (first call)}."""
    import acl_teach as at
    from acl_teach import models
    seen = {}

    def call(api, *args):
        fn = acl
        for part in api.split(".")[1:]:
            fn = getattr(fn, part)
        out = fn(*args)
        seen.setdefault(api, out)
        return out

    call("acl.get_soc_name")
    call("acl.get_version")
    call("acl.init")
    call("acl.rt.set_device", 0)
    ctx, _ = call("acl.rt.create_context", 0)
    call("acl.rt.set_context", ctx)
    call("acl.rt.get_context")
    call("acl.rt.get_run_mode")
    call("acl.rt.get_mem_info", 0)
    stream, _ = call("acl.rt.create_stream")
    om = models.default_om()
    work, weight, _ = call("acl.mdl.query_size", om)
    mid, _ = call("acl.mdl.load_from_file", om)
    data = open(om, "rb").read()
    mid2, _ = call("acl.mdl.load_from_mem", call("acl.util.bytes_to_ptr", data), len(data))
    wk, _ = call("acl.rt.malloc", work, 0)
    wt, _ = call("acl.rt.malloc", weight, 0)
    mid3, _ = call("acl.mdl.load_from_file_with_mem", om, wk, work, wt, weight)
    desc = call("acl.mdl.create_desc")
    call("acl.mdl.get_desc", desc, mid)
    for api in ("acl.mdl.get_num_inputs", "acl.mdl.get_num_outputs"):
        call(api, desc)
    for api in ("acl.mdl.get_input_size_by_index", "acl.mdl.get_output_size_by_index", "acl.mdl.get_input_dims",
                "acl.mdl.get_input_dims_v2", "acl.mdl.get_output_dims", "acl.mdl.get_cur_output_dims",
                "acl.mdl.get_input_name_by_index", "acl.mdl.get_output_name_by_index", "acl.mdl.get_input_format",
                "acl.mdl.get_output_format", "acl.mdl.get_input_data_type", "acl.mdl.get_output_data_type"):
        call(api, desc, 0)
    call("acl.mdl.get_input_index_by_name", desc, "data")
    call("acl.mdl.get_output_index_by_name", desc, acl.mdl.get_output_name_by_index(desc, 0))
    call("acl.mdl.get_dynamic_batch", desc)
    call("acl.mdl.get_dynamic_hw", desc, -1)
    call("acl.mdl.get_input_dynamic_gear_count", desc, -1)
    call("acl.mdl.get_input_dynamic_dims", desc, -1, 0)
    sets = {}
    for kind, n, size_of in (("in", acl.mdl.get_num_inputs(desc), acl.mdl.get_input_size_by_index),
                             ("out", acl.mdl.get_num_outputs(desc), acl.mdl.get_output_size_by_index)):
        ds = call("acl.mdl.create_dataset")
        for i in range(n):
            size = size_of(desc, i)
            ptr, _ = call("acl.rt.malloc", size, 0)
            buf = call("acl.create_data_buffer", ptr, size)
            assert call("acl.mdl.add_dataset_buffer", ds, buf)[0] == ds
        sets[kind] = ds
    buf = call("acl.mdl.get_dataset_buffer", sets["out"], 0)
    call("acl.mdl.get_dataset_num_buffers", sets["out"])
    out_ptr, out_size = call("acl.get_data_buffer_addr", buf), call("acl.get_data_buffer_size_v2", buf)
    call("acl.update_data_buffer", buf, out_ptr, out_size)
    in_ptr = acl.get_data_buffer_addr(acl.mdl.get_dataset_buffer(sets["in"], 0))
    image = np.zeros(acl.mdl.get_input_size_by_index(desc, 0) // 2, np.float16)
    call("acl.rt.memcpy", in_ptr, image.nbytes, call("acl.util.numpy_to_ptr", image), image.nbytes, 1)
    call("acl.rt.memset", out_ptr, out_size, 0, out_size)
    call("acl.rt.memcpy_async", out_ptr, out_size, out_ptr, out_size, 3, stream)
    call("acl.mdl.execute", mid, sets["in"], sets["out"])
    start, _ = call("acl.rt.create_event")
    end, _ = acl.rt.create_event()
    call("acl.rt.record_event", start, stream)
    call("acl.mdl.execute_async", mid, sets["in"], sets["out"], stream)
    call("acl.rt.record_event", end, stream)
    call("acl.rt.stream_wait_event", stream, end)
    call("acl.rt.reset_event", end, stream)
    call("acl.rt.query_event_status", start)
    call("acl.rt.synchronize_event", start)
    call("acl.rt.synchronize_stream", stream)
    call("acl.rt.event_elapsed_time", start, start)
    call("acl.rt.destroy_event", start)
    acl.rt.destroy_event(end)
    host, _ = call("acl.rt.malloc_host", out_size)
    acl.rt.memcpy(host, out_size, out_ptr, out_size, 2)
    call("acl.util.ptr_to_bytes", host, out_size)
    call("acl.util.ptr_to_numpy", host, (out_size // 4,), 11)
    # callbacks
    state = {"stop": False}

    def loop(args):
        acl.rt.set_context(args[0])
        while not state["stop"]:
            acl.rt.process_report(args[1])
    tid, _ = call("acl.util.start_thread", loop, [ctx, 20])
    call("acl.rt.subscribe_report", tid, stream)
    call("acl.rt.launch_callback", lambda data: None, ["user data"], 1, stream)
    call("acl.rt.synchronize_stream", stream)
    call("acl.rt.unsubscribe_report", tid, stream)
    state["stop"] = True
    call("acl.util.stop_thread", tid)
    call("acl.rt.process_report", 1)
    # single operators
    call("acl.op.set_model_dir", models.op_model_dir())
    op_file = next(f for f in sorted(os.listdir(models.op_model_dir())) if f.endswith(".om"))
    with open(os.path.join(models.op_model_dir(), op_file), "rb") as fh:
        op_bytes = fh.read()
    call("acl.op.load", acl.util.bytes_to_ptr(op_bytes), len(op_bytes))
    f32 = call("acl.create_tensor_desc", 0, [1000], 2)
    f16 = acl.create_tensor_desc(1, [1000], 2)
    i32 = acl.create_tensor_desc(3, [1], 2)
    half, _ = acl.rt.malloc(2000, 0)
    idx, _ = acl.rt.malloc(4, 0)
    half_buf, idx_buf = acl.create_data_buffer(half, 2000), acl.create_data_buffer(idx, 4)
    call("acl.op.cast", f32, buf, f16, half_buf, 0, stream)
    attr = call("acl.op.create_attr")
    call("acl.op.set_attr_int", attr, "dimension", 0)
    call("acl.op.execute_v2", "ArgMaxD", [f16], [half_buf], [i32], [idx_buf], attr, stream)
    acl.rt.synchronize_stream(stream)
    call("acl.op.destroy_attr", attr)
    for t in (f32, f16, i32):
        call("acl.destroy_tensor_desc", t)
    for b, p in ((half_buf, half), (idx_buf, idx)):
        call("acl.destroy_data_buffer", b)
        call("acl.rt.free", p)
    call("acl.get_recent_err_msg")
    # release
    call("acl.rt.free_host", host)
    for ds in sets.values():
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            b = acl.mdl.get_dataset_buffer(ds, i)
            acl.rt.free(acl.get_data_buffer_addr(b))
            acl.destroy_data_buffer(b)
        call("acl.mdl.destroy_dataset", ds)
    for m in (mid, mid2, mid3):
        call("acl.mdl.unload", m)
    call("acl.rt.free", wk)
    acl.rt.free(wt)
    call("acl.mdl.destroy_desc", desc)
    call("acl.rt.destroy_stream", stream)
    call("acl.rt.destroy_context", ctx)
    call("acl.rt.reset_device", 0)
    call("acl.finalize")
    # dynamic shapes, on the dynamic-batch model and a dynamic-image-size one
    from helpers import make_onnx
    hw_om = models.convert(make_onnx(tmp_path / "hw.onnx", dynamic="hw"),
                           ["--input_shape=a:1,1,-1,-1;b:1,1,-1,-1", "--dynamic_image_size=2,2;4,4"], "shape_hw")
    acl.init()
    acl.rt.set_device(0)
    for om_path, api, extra in ((models.dynamic_batch_om(), "acl.mdl.set_dynamic_batch_size", (2,)),
                                (hw_om, "acl.mdl.set_dynamic_hw_size", (2, 2))):
        mid, _ = acl.mdl.load_from_file(om_path)
        desc = acl.mdl.create_desc()
        acl.mdl.get_desc(desc, mid)
        ds = acl.mdl.create_dataset()
        ptrs = []
        for i in range(acl.mdl.get_num_inputs(desc)):
            size = acl.mdl.get_input_size_by_index(desc, i)
            ptr, _ = acl.rt.malloc(size, 0)
            ptrs.append((ptr, acl.create_data_buffer(ptr, size)))
            acl.mdl.add_dataset_buffer(ds, ptrs[-1][1])
        index, _ = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
        assert call(api, mid, ds, index, *extra) == 0
        for ptr, b in ptrs:
            acl.destroy_data_buffer(b)
            acl.rt.free(ptr)
        acl.mdl.destroy_dataset(ds)
        acl.mdl.unload(mid)
        acl.mdl.destroy_desc(desc)
    _dims_and_aipp(acl, tmp_path, call)
    acl.rt.reset_device(0)
    acl.finalize()
    return seen


def _dims_and_aipp(acl, tmp_path, call):
    """ND dynamic dims and dynamic AIPP (notebook 10): the calls that set them, on two tiny models."""
    from acl_teach import models
    from helpers import make_onnx
    from test_aipp_dynamic import convert as aipp_model
    nd_om = models.convert(make_onnx(tmp_path / "nd.onnx", "batch"),
                           ["--input_shape=a:-1,4;b:-1,4", "--input_format=ND", "--dynamic_dims=1,1;2,2"], "shape_nd")
    for om_path, name in ((nd_om, "ascend_mbatch_shape_data"), (str(aipp_model(tmp_path)), "ascend_dynamic_aipp_data")):
        mid, _ = acl.mdl.load_from_file(om_path)
        desc = acl.mdl.create_desc()
        acl.mdl.get_desc(desc, mid)
        ds, held = acl.mdl.create_dataset(), []
        for i in range(acl.mdl.get_num_inputs(desc)):
            size = acl.mdl.get_input_size_by_index(desc, i)
            ptr, _ = acl.rt.malloc(size, 0)
            held.append((ptr, acl.create_data_buffer(ptr, size)))
            acl.mdl.add_dataset_buffer(ds, held[-1][1])
        index, _ = acl.mdl.get_input_index_by_name(desc, name)
        if name == "ascend_mbatch_shape_data":
            call("acl.mdl.get_input_dims_range", desc, 0)
            gears, _ = acl.mdl.get_input_dynamic_dims(desc, -1, 2)
            assert call("acl.mdl.set_input_dynamic_dims", mid, ds, index, gears[0]) == 0
        else:
            aipp = call("acl.mdl.create_aipp", 1)
            call("acl.mdl.set_aipp_input_format", aipp, 1)
            call("acl.mdl.set_aipp_src_image_size", aipp, 8, 8)
            call("acl.mdl.set_aipp_csc_params", aipp, 1, 298, 0, 409, 298, -100, -208, 298, 516, 0, 0, 0, 0, 16,
                 128, 128)
            call("acl.mdl.set_aipp_crop_params", aipp, 0, 0, 0, 0, 0, 0)
            call("acl.mdl.set_aipp_dtc_pixel_mean", aipp, 0, 0, 0, 0, 0)
            call("acl.mdl.set_aipp_pixel_var_reci", aipp, 1.0, 1.0, 1.0, 1.0, 0)
            assert call("acl.mdl.set_input_aipp", mid, ds, index, aipp) == 0
            call("acl.mdl.destroy_aipp", aipp)
        for ptr, b in held:
            acl.destroy_data_buffer(b)
            acl.rt.free(ptr)
        acl.mdl.destroy_dataset(ds)
        acl.mdl.unload(mid)
        acl.mdl.destroy_desc(desc)


def test_return_shapes_on_the_simulator_follow_the_reference(acl, tmp_path):
    import acl_teach as at
    at.use("sim")
    seen = _scenario(acl, tmp_path)
    assert set(seen) == SHAPED, f"the scenario misses {sorted(SHAPED - set(seen))}"
    wrong = []
    for api, out in seen.items():
        if api in RET:
            ok = type(out) is int
        elif api in TUPLE:
            ok = isinstance(out, tuple) and len(out) == TUPLE[api] and type(out[-1]) is int
        elif api in ODD:
            ok = isinstance(out, tuple) and len(out) == 2 and type(out[0]) is int and type(out[1]) is int
        elif api in NONE:
            ok = out is None
        else:
            ok = not isinstance(out, tuple) and isinstance(out, VALUE[api])
        if not ok:
            wrong.append(f"{api} -> {out!r:.60}")
    assert not wrong, "return shapes differ from the reference: " + "; ".join(wrong)


@pytest.mark.parametrize("path", SOURCES, ids=NAMES)
def test_the_editions_stay_parallel(path):
    """Each English prose cell is followed by its Chinese counterpart, so an edit to one shows where the other goes."""
    import jupytext
    langs = [next((t for t in c.metadata.get("tags", []) if t.startswith("lang:")), "")
             for c in jupytext.read(path).cells]
    for i, lang in enumerate(langs):
        if lang == "lang:en":
            assert i + 1 < len(langs) and langs[i + 1] == "lang:zh", f"cell {i}: a lang:en cell without a lang:zh after it"
        elif lang == "lang:zh":
            assert i > 0 and langs[i - 1] == "lang:en", f"cell {i}: a lang:zh cell without a lang:en before it"


# -- board-true loads: load_from_mem reads device memory on ACL_DEVICE ---------------------------------------------
def test_no_bytes_pointer_is_passed_straight_to_load_from_mem():
    """pyACL's load_from_mem page: RC (ACL_DEVICE) needs device memory; a bytes_to_ptr pointer is host memory."""
    for path in SOURCES + sorted(glob.glob(os.path.join(ROOT, "acl_teach", "examples", "*.py"))):
        text = open(path, encoding="utf-8").read()
        assert not re.search(r"load_from_mem(_with_mem)?\(\s*acl\.util\.bytes_to_ptr", text), path


def test_notebook_02_loads_from_device_memory_on_a_board(monkeypatch, capsys):
    """Notebook 02's code run as on an Atlas 200I DK A2 (ACL_DEVICE): every load_from_mem pointer is device memory."""
    from acl_teach import backend
    from acl_teach.sim import inspect
    import jupytext
    monkeypatch.setenv("ACL_TEACH_SIM_RUN_MODE", "device")
    monkeypatch.chdir(NB)
    nb = jupytext.read(os.path.join(NB, "src", "02_load_model.py"))
    seen = []
    namespace = {}
    try:
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            exec(compile(cell.source, "02_load_model", "exec"), namespace)
            acl = backend.acl()
            if not seen:
                original = acl.mdl.load_from_mem, acl.mdl.load_from_mem_with_mem

                def watch(fn):
                    def wrapper(ptr, size, *rest):
                        seen.append(inspect.where(ptr))
                        return fn(ptr, size, *rest)
                    return wrapper
                acl.mdl.load_from_mem, acl.mdl.load_from_mem_with_mem = (watch(f) for f in original)
                seen.append("watching")
    finally:
        import atexit
        acl = backend.acl()
        if seen:
            acl.mdl.load_from_mem, acl.mdl.load_from_mem_with_mem = original
        atexit.unregister(acl.finalize)  # the notebook's one finalize belongs to a kernel, not to pytest
        inspect.reset()
    loads = seen[1:]
    assert len(loads) >= 3 and set(loads) == {"device memory"}, loads
    assert "load_from_mem" not in capsys.readouterr().err


# -- review wording (issue 21): each fixed item stays fixed ------------------------------------------------------------
def _learner_text():
    """Every notebook prose cell of both editions, the READMEs and docs/: what a learner reads."""
    texts = [(f"{n} ({lang})", t) for n in NAMES for lang in FOLDERS for t in _md(_read(n, lang))]
    for path in [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "README_CN.md")] + \
            sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        texts.append((os.path.relpath(path, ROOT), open(path, encoding="utf-8").read()))
    return texts


def test_3xxxxx_codes_are_described_as_the_aclerror_rule_says():
    """aclError rule 3: 业务功能异常 (a queue full or empty), not a 'business limit'."""
    from acl_teach.spec import errors
    bad = [where for where, t in _learner_text() if re.search(r"business limit|业务限制|业务上限", t)]
    assert not bad, f"3xxxxx is 'a service failed (a queue full or empty)': {bad}"
    assert "queue" in str(errors.__dict__.get("CLASSES", "")) or \
        "business limit" not in open(errors.__file__, encoding="utf-8").read()


def test_no_seed_documents_in_what_a_learner_reads():
    bad = [where for where, t in _learner_text() if re.search(r"seed doc|种子文档", t, re.I)]
    assert not bad, f"a learner has no seed documents: {bad}"


def test_set_env_is_one_line_to_copy():
    """The copy-paste trap of notebook 00: the set_env.sh path split over two lines (or with a space)."""
    bad = [where for where, t in _learner_text()
           if re.search(r"/usr/local/Ascend/\s+ascend-toolkit|ascend-toolkit/\s+set_env", t)]
    assert not bad, bad
    for lang in FOLDERS:
        assert ". /usr/local/Ascend/ascend-toolkit/set_env.sh" in "\n".join(_md(_read("00_welcome", lang)))


def test_get_cur_output_dims_is_described_one_way():
    """Where 03 and 07 introduce get_cur_output_dims: the dims of the gear currently set (after an execute, this result's)."""
    want = {"en": "gear currently set", "zh": "当前所设档位"}
    for name in ("03_model_desc", "07_results_top5"):
        for lang in FOLDERS:
            cells = [t for t in _md(_read(name, lang)) if f"[`acl.mdl.get_cur_output_dims`]({page('acl.mdl.get_cur_output_dims', lang)})" in t]
            assert cells and all(want[lang] in re.sub(r"\s+", " ", t) for t in cells), f"{name} ({lang})"


def test_readme_sample_counts_match_the_catalogue():
    """README, README_CN and docs/samples.md give the same number of official programs as tools/samples/catalogue.py."""
    import importlib
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools", "samples"))
    before = set(sys.modules)
    try:
        catalogue = importlib.import_module("catalogue")
    finally:
        sys.path.pop(0)
        here = os.path.join(ROOT, "tools", "samples")
        for name in set(sys.modules) - before:  # only the catalogue's siblings: dropping onnx/protobuf aborts later
            if os.path.dirname(getattr(sys.modules[name], "__file__", None) or "") == here:
                del sys.modules[name]
    n = len(catalogue.SAMPLES)
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    readme_cn = open(os.path.join(ROOT, "README_CN.md"), encoding="utf-8").read()
    samples = open(os.path.join(ROOT, "docs", "samples.md"), encoding="utf-8").read()
    assert re.search(rf"runs the {n} official\s+programs", readme), f"README: the catalogue has {n} programs"
    assert f"{n} 个官方程序" in readme_cn, f"README_CN: the catalogue has {n} programs"
    assert f"all {n} entries" in samples, f"docs/samples.md: the catalogue has {n} entries"


def test_the_late_free_fix_talks_about_free_not_memcpy():
    """Notebook 08's late free (after reset_device reclaimed it): its Fix says how to free, not how to memcpy."""
    for lang in FOLDERS:
        text = "".join(o.get("text", "") for c in _read("08_release_and_leaks", lang).cells if c.cell_type == "code"
                       for o in c.get("outputs", []))
        late = [line for line in text.splitlines() if "acl.rt.free returned 107000" in line and "reset_device" in line]
        assert late, f"08 ({lang}) shows the late free's 107000"
        assert all("Fix: free each allocation once" in line and "memcpy" not in line and "dst_max" not in line
                   for line in late), late


def test_instructor_docs_count_the_assignments_and_points_the_notebooks_have():
    """The instructor guides' totals follow the graded cells, so a new exercise cannot leave them stale."""
    sources = sorted(glob.glob(os.path.join(ROOT, "notebooks", "src", "*.py")))
    points = [int(p) for path in sources for p in re.findall(r"points:(\d+)", open(path, encoding="utf-8").read())]
    graded = [path for path in sources if "points:" in open(path, encoding="utf-8").read()]
    n, total = len(graded), sum(points)
    en = open(os.path.join(ROOT, "docs", "instructor.md"), encoding="utf-8").read()
    zh = open(os.path.join(ROOT, "docs", "instructor_zh.md"), encoding="utf-8").read()
    assert f"({n} assignments, {total} points)" in en and f"({total}/{total})" in en
    assert f"共 {n} 个作业、{total} 分" in zh and f"（{total}/{total}）" in zh
