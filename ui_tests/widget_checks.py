"""What a learner does with each widget after Run All, and what they must then see.

``check_<Widget>(nb, out, …)`` works on one rendered widget output; ``INTERACTIONS`` says, per notebook, which
widgets to use and what values to expect. A notebook not in the table still gets ``generic``: each of its
widgets (per the stored notebook) is exercised by its class's default check, so a new notebook is covered.
Every wait is Playwright's auto-waiting ``expect`` (a condition, never a sleep).
"""
import re
from typing import Callable, Dict, List, Optional

from playwright.sync_api import Locator, expect

from lab_browser import NotebookPage

TIMEOUT = 30_000
RELEASED = re.compile(r"(released|destroyed|reclaimed).*(showing|held|alive)|acl\.finalize ran", re.S)
ITEMSIZE = {"uint8": 1, "int8": 1, "float16": 2, "float32": 4, "int32": 4, "int64": 8}


def shows(where: Locator, text, what: str) -> None:
    """Wait until ``where`` shows ``text`` (a string or a regex) as the learner reads it (rendered text)."""
    expect(where, what).to_contain_text(text, timeout=TIMEOUT, use_inner_text=True)


def row(name: str, value: str):
    """A table row 'name <tab> value' as rendered (the desc and dims tables), for ``shows``."""
    return re.compile(rf"(^|\n){re.escape(name)}\s+{re.escape(value)}(\s|$)")


def selects(out: Locator) -> Locator:
    """The ipywidgets Dropdowns in a widget (a <select> each)."""
    return out.locator(".widget-dropdown select")


def option_labels(select: Locator) -> List[str]:
    """The labels of a <select>'s options, as given in Python (ipywidgets shows spaces as no-break spaces)."""
    return [t.replace("\xa0", " ").strip() for t in select.locator("option").all_inner_texts()]


def select(box: Locator, label: str) -> None:
    """Choose an option by its Python label (matching the no-break spaces ipywidgets puts in it)."""
    box.select_option(label=label.replace(" ", "\xa0"))


def rotated(labels: List[str]) -> List[str]:
    """The options from the second one round to the first: every choice changes the value, so each redraws."""
    return labels[1:] + labels[:1]


def check_desc_explorer(nb: NotebookPage, out: Locator,
                        expected: Optional[Dict[Optional[str], Dict[str, Dict[str, str]]]] = None,
                        released: bool = False) -> None:
    """Pick every model and every input/output: the table shows that tensor's name and rows (and the notice).

    ``expected``: model (None when the explorer has one) → tensor option → {row: value}."""
    table = out.locator(".acl-teach-desc")
    expect(table, f"{nb.name}: DescExplorer table").to_be_visible(timeout=TIMEOUT)
    boxes = selects(out)
    model_box = boxes.first if boxes.count() > 1 else None
    tensor_box = boxes.last
    models = list(expected) if expected else (option_labels(model_box) if model_box else [None])
    if model_box is not None and expected:
        missing = set(expected) - set(option_labels(model_box))
        assert not missing, f"{nb.name}: DescExplorer has no model {sorted(missing)}: {option_labels(model_box)}"
    for model in models:
        if model_box is not None and model is not None:
            select(model_box, model)
        tensors = (expected or {}).get(model) if expected else None
        if tensors:
            expect(tensor_box.locator("option"), f"{nb.name}: tensors of model {model!r}").to_have_text(
                [re.compile("^" + r"\s".join(map(re.escape, t.split(" "))) + "$") for t in tensors], timeout=TIMEOUT)
        for label in rotated(list(tensors) if tensors else option_labels(tensor_box)):
            select(tensor_box, label)
            name = label.split(": ", 1)[1]
            what = f"{nb.name}: DescExplorer model {model!r}, {label!r}"
            shows(table, row("name", name), what)
            for key, value in (tensors or {}).get(label, {}).items():
                shows(table, row(key, value), what)
            shows(table, re.compile(r"(^|\n)size\s+\d+"), what)
            if released:
                shows(out, RELEASED, f"{what}: the released notice")


def check_buffer_view(nb: NotebookPage, out: Locator, pictures: int = 0) -> None:
    """Every dtype in the 'as' dropdown redraws the typed view with size/itemsize values of that dtype."""
    title = out.locator(".widget-html").first
    shows(title, re.compile(r"\d+ bytes in"), f"{nb.name}: BufferView title")
    size = int(re.search(r"(\d+) bytes in", title.inner_text()).group(1))
    box = selects(out).first
    typed = out.locator("pre", has_text=re.compile(r"^\d+ x \w+:"))
    for dtype in reversed(option_labels(box)):
        select(box, dtype)
        count = size // ITEMSIZE[dtype]
        shows(typed, f"{count} x {dtype}:", f"{nb.name}: BufferView as {dtype}")
        if dtype == "float16" and pictures:
            expect(out.locator("img"), f"{nb.name}: BufferView channel pictures").to_have_count(pictures,
                                                                                                timeout=TIMEOUT)
    notice = out.locator(".acl-teach-released")
    if notice.count():
        shows(notice.first, RELEASED, f"{nb.name}: BufferView notice")


def stored_top5(text: str) -> List[str]:
    """The five labels in a stored Top5View's text ('  967 espresso      ######… 0.9511' lines)."""
    return [m.group(1) for m in re.finditer(r"^\s+(\d+ .+?)\s+#*\s*[01]\.\d+$", text, re.M)]


def check_top5(nb: NotebookPage, out: Locator, first: Optional[str] = None,
               labels: Optional[List[str]] = None) -> None:
    """Five labelled bars, best first, probabilities between 0 and 1 in falling order (the expected classes)."""
    bars = out.locator(".acl-teach-bar-label")
    expect(bars, f"{nb.name}: Top5View bars").to_have_count(5, timeout=TIMEOUT)
    texts = bars.all_inner_texts()
    assert all(re.match(r"^\d+ \S", t) for t in texts), f"{nb.name}: Top5View labels {texts}"
    probs = [float(p) for p in out.locator(".acl-teach-bar-prob").all_inner_texts()]
    assert probs == sorted(probs, reverse=True) and all(0 <= p <= 1 for p in probs) and sum(probs) <= 1.0001, \
        f"{nb.name}: Top5View probabilities {probs}"
    if first:
        assert texts[0] == first, f"{nb.name}: Top5View best class {texts[0]!r}, expected {first!r}"
    if labels:
        assert texts == labels, f"{nb.name}: Top5View classes {texts}, the stored notebook shows {labels}"


def check_yuv(nb: NotebookPage, out: Locator) -> None:
    """The Y, UV and RGB pictures are drawn (decoded PNGs), with the geometry in the title and the arithmetic."""
    what = f"{nb.name}: YuvView"
    shows(out, re.compile(r"\d+ × \d+ \S+ in \d+ × \d+ strides"), what)
    shows(out.locator(".acl-teach-yuv-arithmetic"), re.compile(r"\d+ bytes"), what + " arithmetic")
    expect(out.locator(".acl-teach-yuv-legend"), what + " legend").to_be_visible(timeout=TIMEOUT)
    images = out.locator("img")
    expect(images, what + " pictures").to_have_count(3, timeout=TIMEOUT)
    nb.page.wait_for_function("els => els.every(e => e.complete && e.naturalWidth > 0)",
                              arg=images.element_handles(), timeout=TIMEOUT)


def check_ledger(nb: NotebookPage, out: Locator, after: Optional[str] = r"\d+ live resource\(s\)") -> None:
    """Click refresh: the table is read again (at the end of a notebook, everything is released)."""
    out.locator(".widget-button", has_text="refresh").click()
    shows(out, re.compile(after), f"{nb.name}: LedgerView after refresh")


def check_stepper(nb: NotebookPage, out: Locator) -> None:
    """An early click is refused with the reason; all steps in order reach 'the flow is complete'; a repeat is said."""
    from acl_teach.widgets.stepper import STEPS
    status = out.locator(".widget-html", has=out.page.locator("b")).first
    button = {label: out.locator(".widget-button", has_text=re.compile(f"^{re.escape(label)}$"))
              for _, label, _ in STEPS}
    status_of = f"{nb.name}: PipelineStepper status"
    button[STEPS[7][1]].click()
    shows(status, re.compile(rf"refused: '{re.escape(STEPS[7][1])}' cannot run yet"),
          status_of + " after an early click")
    for _, label, _ in STEPS:
        button[label].click()
        shows(status, f"done: '{label}'", f"{status_of} after step {label!r}")
    shows(status, "the flow is complete", status_of)
    button[STEPS[0][1]].click()
    shows(status, "has already run", status_of + " after a repeated click")
    shows(out, "0 leak(s)", f"{nb.name}: PipelineStepper ledger after finalize")


def check_error_explainer(nb: NotebookPage, out: Locator, typed: int = 107000, picked: int = 507011) -> None:
    """Type a code, then pick one from 'common': each is explained by name (and the two controls agree)."""
    from acl_teach.spec import errors
    code = out.locator(".widget-text input").first
    explanation = out.locator("pre").last
    code.fill(str(typed))
    code.press("Enter")
    shows(explanation, f"{typed} {errors.name_of(typed)}", f"{nb.name}: ErrorExplainer typed {typed}")
    common = selects(out).first
    label = next(t for t in option_labels(common) if t.startswith(f"{picked} "))
    select(common, label)
    shows(explanation, f"{picked} {errors.name_of(picked)}", f"{nb.name}: ErrorExplainer picked {label!r}")
    expect(code, f"{nb.name}: ErrorExplainer code box follows the pick").to_have_value(str(picked), timeout=TIMEOUT)


def check_dims_view(nb: NotebookPage, out: Locator, values: List[str] = ()) -> None:
    """The table of every input and output, with the expected names, dims and sizes."""
    shows(out.locator("table"), "data type", f"{nb.name}: DimsView table")
    for value in values:
        shows(out, value, f"{nb.name}: DimsView")


def check_rendered(nb: NotebookPage, out: Locator) -> None:
    """A widget without a specific check: it shows something (the no-error check ran for every widget)."""
    box = out.bounding_box()
    assert box and box["height"] > 5, f"{nb.name}: a widget renders empty"


DEFAULT_CHECKS: Dict[str, Callable] = {
    "DescExplorer": check_desc_explorer, "BufferView": check_buffer_view, "Top5View": check_top5,
    "LedgerView": check_ledger, "PipelineStepper": check_stepper, "ErrorExplainer": check_error_explainer,
    "DimsView": check_dims_view, "YuvView": check_yuv,
}


def generic(nb: NotebookPage, skip: tuple = ()) -> None:
    """Each widget the stored notebook shows, through its class's default check (skipping ``skip`` classes)."""
    seen = set()
    for kind in nb.widget_kinds():
        if kind in seen or kind in skip:
            continue
        seen.add(kind)
        for out, text in zip(nb.widgets(kind), nb.stored_texts(kind)):
            if kind == "Top5View":  # the stored notebook says which classes: the browser must show the same
                check_top5(nb, out, labels=stored_top5(text))
            else:
                DEFAULT_CHECKS.get(kind, check_rendered)(nb, out)


def nb03(nb: NotebookPage) -> None:
    """The default model's one input and one output; the desc is destroyed at the end of the notebook."""
    (out,) = nb.widgets("DescExplorer")
    check_desc_explorer(nb, out, {None: {
        "input 0: data": {"dims": "[1, 3, 224, 224]", "data_type": "1 (ACL_FLOAT16)", "size": "301056"},
        "output 0: /Softmax:0:prob": {"dims": "[1, 1000]", "data_type": "0 (ACL_FLOAT)", "size": "4000"}}},
                        released=True)
    generic(nb, skip=("DescExplorer",))


def nb04(nb: NotebookPage) -> None:
    """Buffer 0 of the input dataset: 301056 bytes, every dtype."""
    (out,) = nb.widgets("BufferView")
    shows(out, "301056 bytes in device memory", f"{nb.name}: BufferView")
    check_buffer_view(nb, out)
    generic(nb, skip=("BufferView",))


def nb05(nb: NotebookPage) -> None:
    """The copied image on the device, with its three channel pictures as float16."""
    (out,) = nb.widgets("BufferView")
    check_buffer_view(nb, out, pictures=3)
    generic(nb, skip=("BufferView",))


def nb06(nb: NotebookPage) -> None:
    """The explainer opened on 100017, then typed and picked codes."""
    (out,) = nb.widgets("ErrorExplainer")
    shows(out.locator("pre").last, "100017", f"{nb.name}: ErrorExplainer")
    check_error_explainer(nb, out)
    generic(nb, skip=("ErrorExplainer",))


def nb07(nb: NotebookPage) -> None:
    """The coffee photo: espresso first."""
    (out,) = nb.widgets("Top5View")
    check_top5(nb, out, first="967 espresso", labels=stored_top5(nb.stored_texts("Top5View")[0]))
    expect(out.locator("img"), f"{nb.name}: Top5View photo").to_have_count(1, timeout=TIMEOUT)
    generic(nb, skip=("Top5View",))


def nb08(nb: NotebookPage) -> None:
    """Both ledgers, refreshed after the notebook released everything: nothing is alive."""
    for out in nb.widgets("LedgerView"):
        check_ledger(nb, out, after=r"\b0 live resource\(s\)")
    generic(nb, skip=("LedgerView",))


def nb11(nb: NotebookPage) -> None:
    """The stepper, clicked through the whole flow."""
    (out,) = nb.widgets("PipelineStepper")
    check_stepper(nb, out)
    generic(nb, skip=("PipelineStepper",))


def nb12(nb: NotebookPage) -> None:
    """Three models in one explorer (each input and output), and the dynamic-batch dims."""
    (out,) = nb.widgets("DescExplorer")
    check_desc_explorer(nb, out, {
        "default": {"input 0: data": {"size": "301056"}, "output 0: /Softmax:0:prob": {"size": "4000"}},
        "dynamic batch": {"input 0: data": {"dims": "[-1, 3, 224, 224]", "size": "2408448"},
                          "input 1: ascend_mbatch_shape_data": {"data_type": "9 (ACL_INT64)", "size": "8"},
                          "output 0: /Softmax:0:prob": {"dims": "[8, 1000]", "size": "32000"}},
        "two inputs": {"input 0: image": {"data_type": "0 (ACL_FLOAT)", "size": "32"},
                       "input 1: mask": {"data_type": "1 (ACL_FLOAT16)", "size": "16"},
                       "output 0: add:0:sum": {"dims": "[1, 8]", "size": "32"},
                       "output 1: mul:0:product": {"dims": "[1, 8]", "size": "32"}},
    }, released=True)
    (dims,) = nb.widgets("DimsView")
    check_dims_view(nb, dims, ["ascend_mbatch_shape_data", "[-1, 3, 224, 224]", "2408448", "[8, 1000]"])
    generic(nb, skip=("DescExplorer", "DimsView"))


INTERACTIONS: Dict[str, Callable[[NotebookPage], None]] = {
    "03_model_desc": nb03, "04_buffers_and_datasets": nb04, "05_preprocess_and_copy": nb05, "06_execute": nb06,
    "07_results_top5": nb07, "08_release_and_leaks": nb08, "11_full_pipeline": nb11,
    "12_model_desc_explorer": nb12,
}


def interact(nb: NotebookPage) -> None:
    """The notebook's own interactions (by its file name, either edition), else the generic ones."""
    INTERACTIONS.get(nb.name.split("/")[-1], generic)(nb)
