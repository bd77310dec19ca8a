"""Each notebook, in both editions, runs top to bottom twice in one kernel without an error or a leak,
and every stored notebook is what its source builds."""
import glob
import re
import os

import nbformat
import pytest
from nbclient import NotebookClient

from helpers import ROOT

SERIES = ["00_welcome", "01_init_and_resources", "02_load_model", "03_model_desc", "04_buffers_and_datasets",
          "05_preprocess_and_copy", "06_execute", "07_results_top5", "08_release_and_leaks",
          "09_async_and_callbacks", "10_dynamic_batch", "11_full_pipeline", "12_model_desc_explorer",
          "13_capstone", "14_media_dvpp", "15_video_decode",
          "16_events_and_profiling"]
EDITIONS = {"en": os.path.join(ROOT, "notebooks"), "zh": os.path.join(ROOT, "notebooks", "zh")}
NOTEBOOKS = [p for folder in EDITIONS.values() for p in sorted(glob.glob(os.path.join(folder, "*.ipynb")))]


def _id(path):
    return os.path.relpath(path, os.path.join(ROOT, "notebooks"))


# The twice-run of this English notebook stays in `make test`; the others (~10-25 s each) are `make test-slow`'s.
FAST_TWICE = "03_model_desc.ipynb"


def _twice_param(path):
    """A notebook for the twice-run: the Chinese twin checks and FAST_TWICE run on every edit, the rest in CI."""
    chinese = os.path.dirname(os.path.abspath(path)) == os.path.abspath(EDITIONS["zh"])
    quick = chinese or os.path.basename(path) == FAST_TWICE
    return pytest.param(path, id=_id(path), marks=() if quick else pytest.mark.slow)


@pytest.mark.parametrize("lang", sorted(EDITIONS))
def test_the_series_is_complete(lang):
    names = [os.path.basename(p)[:-6] for p in sorted(glob.glob(os.path.join(EDITIONS[lang], "*.ipynb")))]
    assert names == SERIES


@pytest.mark.heavy
@pytest.mark.parametrize("path", [_twice_param(p) for p in NOTEBOOKS])
def test_runs_twice_in_one_kernel_without_leaks(path):
    """With the simulator's explanations on (ACL_TEACH_EXPLAIN=1 makes lab.setup() loud), acl.finalize()
    prints a leak report for anything a notebook forgot: no cell of either run may print one. The kernel keeps
    the CANN <= 8.0 rule (ACL_TEACH_SIM_INIT_ONCE=1): a notebook that finalized could not run again.

    A Chinese notebook is its English twin with other prose: the same code cells with the same tags (the
    ``raises-exception`` tag is the only cell metadata this run reads). It is run under nbval from its own
    folder like the English one, and its run here would repeat the English run cell for cell, so it is
    checked to be that twin instead of run twice again (~100 CPU-s of the suite).
    """
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    twin = _english_twin(path)
    if twin is not None:
        english = [c for c in nbformat.read(twin, as_version=4).cells if c.cell_type == "code"]
        assert [_as_run(c) for c in code] == [_as_run(c) for c in english], \
            f"{_id(path)}: its code cells differ from {_id(twin)}'s; rebuild both with tools/build_notebooks.py"
        return
    loud = nbformat.v4.new_code_cell("import os; os.environ['ACL_TEACH_EXPLAIN'] = '1'\n"
                                     "os.environ['ACL_TEACH_SIM_INIT_ONCE'] = '1'  # CANN <= 8.0: one acl.init")
    check = nbformat.v4.new_code_cell("from acl_teach import lab, backend\n"
                                      "print(lab.ledger_summary())\n"
                                      "print(len(backend.inspector().leaks()), 'unreleased')")
    nb.cells = [loud] + code + code + [check]
    client = NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(path)}})
    client.execute()  # raises CellExecutionError on any error
    reports = [(i, o["text"]) for i, c in enumerate(nb.cells) for o in c.get("outputs", [])
               if o.get("name") == "stderr" and "leak report" in o["text"]]
    assert not reports, f"{_id(path)} leaks: {reports[0][1]}"
    lines = nb.cells[-1].outputs[0]["text"].strip().splitlines()
    assert lines[0].startswith("0 live resource(s)") and lines[1:] == ["0 unreleased"], lines


def _english_twin(path):
    """The English notebook a Chinese one mirrors, or None for an English notebook."""
    if os.path.dirname(os.path.abspath(path)) != os.path.abspath(EDITIONS["zh"]):
        return None
    return os.path.join(EDITIONS["en"], os.path.basename(path))


def _as_run(cell):
    """What of a code cell the twice-run executes or reads: its source and its tags."""
    return cell.source, sorted(cell.metadata.get("tags", []))


def test_outputs_hold_no_raw_host_addresses():
    for path in NOTEBOOKS:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        assert "0x7f" not in text and not re.search(r"/(root|home)/", text), path


def _builder():
    """tools/ is not a package: load the builder by path so the test checks what it builds."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("build_notebooks", os.path.join(ROOT, "tools", "build_notebooks.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("lang", sorted(EDITIONS))
def test_no_drift_between_sources_and_stored_notebooks(lang):
    builder = _builder()
    sources = builder.sources()
    stored = [os.path.basename(p)[:-6] for p in glob.glob(os.path.join(EDITIONS[lang], "*.ipynb"))]
    unpaired = sorted(set(sources) ^ set(stored))
    assert not unpaired, f"unpaired notebooks {unpaired} ({lang}): each notebooks/src/NAME.py needs a stored " \
        "notebooks/NAME.ipynb and notebooks/zh/NAME.ipynb and vice versa; edit notebooks/src/NAME.py, then run " \
        "python tools/build_notebooks.py NAME"

    def cells(nb):
        return [(c.cell_type, c.source, c.metadata.get("tags", []), c.id) for c in nb.cells]
    for name, path in sources.items():
        built = cells(builder.notebook_from_source(path, lang))
        saved = cells(nbformat.read(builder.stored_path(name, lang), as_version=4))
        assert saved == built, f"{_id(builder.stored_path(name, lang))} differs from its source: " \
            f"edit notebooks/src/{name}.py, then run python tools/build_notebooks.py {name}"


def test_both_editions_share_code_and_outputs():
    """The Chinese edition is the English one with other prose: same code cells, same stored outputs."""
    builder = _builder()
    for name in builder.sources():
        en, zh = (nbformat.read(builder.stored_path(name, lang), as_version=4) for lang in ("en", "zh"))
        pick = lambda nb: [(c.source, c.outputs) for c in nb.cells if c.cell_type == "code"]  # noqa: E731
        assert pick(en) == pick(zh), name


def test_lab_opens_either_edition(monkeypatch, tmp_path):
    """`acl-teach lab --lang zh` opens notebooks/zh; a workspace copy carries the Chinese edition too."""
    import shutil
    import subprocess
    from acl_teach import cli
    seen = []
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/jupyter")
    monkeypatch.setattr(subprocess, "call", lambda argv: seen.append(argv) or 0)
    assert cli.main(["lab", "--no-browser"]) == 0 and cli.main(["lab", "--lang", "zh", "--no-browser"]) == 0
    assert seen[0][2] == f"--notebook-dir={EDITIONS['en']}" and seen[1][2] == f"--notebook-dir={EDITIONS['zh']}"
    with pytest.raises(SystemExit):  # argparse: not a choice
        cli.main(["lab", "--lang", "fr"])
    notebooks, data = tmp_path / "pkg" / "notebooks", tmp_path / "pkg" / "data"
    (notebooks / "zh").mkdir(parents=True)
    data.mkdir()
    (notebooks / "00_welcome.ipynb").write_text("en")
    (notebooks / "zh" / "00_welcome.ipynb").write_text("zh")
    assert cli.lab_workspace(str(tmp_path / "ws"), str(notebooks), str(data)) == []
    assert (tmp_path / "ws" / "notebooks" / "zh" / "00_welcome.ipynb").read_text() == "zh"
