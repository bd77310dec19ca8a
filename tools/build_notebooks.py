"""Build notebooks/NN_name.ipynb (English) and notebooks/zh/NN_name.ipynb (中文) from one jupytext source.

Edit the source notebooks/src/NN_name.py, then run: python tools/build_notebooks.py [NAME|NN ...] [--no-execute]

One source, two editions. A markdown cell tagged ``lang:en`` goes only into the English notebook, one
tagged ``lang:zh`` only into the Chinese one; every other cell (all code cells) goes into both:

    # %% [markdown] tags=["lang:en"]      # %% [markdown] tags=["lang:zh"]
    # ## Why                              # ## 为什么

The English edition is executed on the simulator from notebooks/; the Chinese edition runs the very
same code cells, so it gets the same outputs (copied, not re-run) and must run from notebooks/zh as
well: code cells use at.models.image(...) rather than ../data paths. stderr outputs are kept, so
a warning or a leak report shows in the stored notebook and nbval compares it.
A markdown link to ../../data/diagrams/NAME.svg (right from notebooks/src/) is embedded as a data URI, so
the picture travels with the built notebook (repository, wheel and `acl-teach lab` workspace alike).
Exercise cells carry nbgrader tags (``solution`` or ``grade``, ``points:N``, ``grade_id:ID``), which become
nbgrader's cell metadata; the stored notebooks are the instructor's, solutions included.
Outputs come from the simulator; nbval compares them (addresses and timings sanitised), and
tests/test_notebooks.py checks that every stored notebook (both editions) matches its source.
"""
from __future__ import annotations

import argparse
import base64
import copy
import glob
import os
import re

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "notebooks")
SRC = os.path.join(OUT, "src")
LANGS = ("en", "zh")
EDITION_DIR = {"en": OUT, "zh": os.path.join(OUT, "zh")}
LAYOUT_KEYS = ("execution", "lines_to_next_cell", "lines_to_end_of_cell_marker")  # timestamps, jupytext layout
NBGRADER_TAGS = ("solution", "grade", "points:", "grade_id:")  # cell tags that become nbgrader metadata
DIAGRAM = re.compile(r"\]\(\.\./\.\./data/diagrams/([\w.-]+\.svg)\)")  # a source's link to one of our SVGs
NEW_CELL = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell,
            "raw": nbformat.v4.new_raw_cell}


def sources() -> dict:
    """Source path by notebook name, in series order, so the series is defined by the files alone."""
    return {os.path.basename(p)[:-3]: p for p in sorted(glob.glob(os.path.join(SRC, "[0-9][0-9]_*.py")))}


def stored_path(name: str, lang: str = "en") -> str:
    """Where the built notebook of one edition lives: notebooks/NAME.ipynb or notebooks/zh/NAME.ipynb."""
    return os.path.join(EDITION_DIR[lang], f"{name}.ipynb")


def cell_lang(cell) -> str:
    """'en', 'zh' or '' (both editions) from a cell's ``lang:xx`` tag."""
    langs = [t.split(":", 1)[1] for t in cell.metadata.get("tags", []) if t.startswith("lang:")]
    if len(langs) > 1 or (langs and langs[0] not in LANGS):
        raise ValueError(f"a cell may carry one tag of lang:{'/lang:'.join(LANGS)}, not {langs}")
    return langs[0] if langs else ""


def inline_diagrams(markdown: str) -> str:
    """Embed each linked data/diagrams/*.svg as a data URI, so the picture travels with the notebook.

    The source links ``../../data/diagrams/NAME.svg`` (right from notebooks/src/). A built notebook cannot: the
    repository, the wheel and the ``acl-teach lab`` workspace put data/ in different places, and JupyterLab
    renders no SVG cell attachment (only bitmaps), but it does show an ``<img>`` whose source is a data URI.
    """
    def embed(match):
        with open(os.path.join(ROOT, "data", "diagrams", match.group(1)), "rb") as fh:
            return "](data:image/svg+xml;base64," + base64.b64encode(fh.read()).decode("ascii") + ")"
    return DIAGRAM.sub(embed, markdown)


def nbgrader_metadata(tags: list, where: str) -> dict:
    """nbgrader's cell metadata from the source's tags (solution / grade, points:N, grade_id:ID); {} if none.

    The tags stay on the cell, so the drift test, which compares tags, also covers the metadata they make.
    """
    solution, grade = "solution" in tags, "grade" in tags
    if not (solution or grade):
        return {}
    ids = [t.split(":", 1)[1] for t in tags if t.startswith("grade_id:")]
    points = [t.split(":", 1)[1] for t in tags if t.startswith("points:")]
    if len(ids) != 1 or (grade and len(points) != 1) or (solution and grade):
        raise ValueError(f"{where}: an nbgrader cell needs one grade_id:ID tag, a grade cell one points:N tag, "
                         f"and a cell is either solution or grade: {tags}")
    meta = {"grade": grade, "grade_id": ids[0], "locked": grade, "schema_version": 3, "solution": solution,
            "task": False}
    if grade:
        meta["points"] = int(points[0])
    return meta


def notebook_from_source(path: str, lang: str = "en") -> nbformat.NotebookNode:
    """The notebook one edition of a source builds, without outputs; shared with the drift test so both agree."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}")
    name = os.path.basename(path)[:-3]
    nb = nbformat.v4.new_notebook()
    # ipykernel's own display name: JupyterLab rewrites a differing one when the kernel connects, and marks the
    # notebook modified (acl_teach/notebook_meta.py)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(jupytext.read(path).cells):  # stable ids, no timestamps: diffs show real changes
        which = cell_lang(cell)
        if which and which != lang:
            continue
        if which and cell.cell_type == "code":
            raise ValueError(f"{name}: code cell {i} is tagged lang:{which}; code is shared by both editions")
        meta = {k: v for k, v in cell.metadata.items() if k not in LAYOUT_KEYS}
        tags = [t for t in meta.get("tags", []) if not t.startswith("lang:")]
        if tags:
            meta["tags"] = tags
        else:
            meta.pop("tags", None)
        grading = nbgrader_metadata(tags, f"{name} cell {i}")
        if grading:
            meta["nbgrader"] = grading
        text = inline_diagrams(cell.source) if cell.cell_type == "markdown" else cell.source
        nb.cells.append(NEW_CELL[cell.cell_type](text, metadata=meta, id=f"{name[:2]}-{i:02d}"))
    return nb


def _code(nb: nbformat.NotebookNode) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def copy_outputs(src: nbformat.NotebookNode, dst: nbformat.NotebookNode) -> None:
    """Give dst the outputs (and widget state) of src: both editions share their code cells one for one."""
    if [c.source for c in _code(src)] != [c.source for c in _code(dst)]:
        raise ValueError("the two editions do not share their code cells")
    dst.metadata.update({k: copy.deepcopy(v) for k, v in src.metadata.items() if k != "kernelspec"})
    for have, want in zip(_code(src), _code(dst)):
        want.outputs, want.execution_count = copy.deepcopy(have.outputs), have.execution_count


def keep_stored_outputs(nb: nbformat.NotebookNode, path: str) -> bool:
    """Copy outputs (and widget state) from the stored notebook if its code cells are unchanged: --no-execute
    loses nothing, and a prose-only edit needs no run."""
    if not os.path.exists(path):
        return False
    old = nbformat.read(path, as_version=4)
    if [c.source for c in _code(old)] != [c.source for c in _code(nb)]:
        return False
    nb.metadata.update({k: v for k, v in old.metadata.items() if k != "kernelspec"})  # language_info, widgets
    for cell, stored in zip(_code(nb), _code(old)):
        cell.outputs, cell.execution_count = stored.outputs, stored.execution_count
    return True


def build(name: str, execute: bool = True) -> list:
    """Write both editions of one notebook; the English one is executed in notebooks/ (stderr kept)."""
    path = sources()[name]
    editions = {lang: notebook_from_source(path, lang) for lang in LANGS}
    written = []
    if execute:
        en = editions["en"]
        os.environ["ACL_TEACH_SIM_INIT_ONCE"] = "1"  # the kernel keeps the CANN <= 8.0 rule: one acl.init per process
        NotebookClient(en, timeout=600, kernel_name="python3", resources={"metadata": {"path": OUT}}).execute()
        for cell in _code(en):
            cell.metadata.pop("execution", None)
        copy_outputs(en, editions["zh"])
    for lang, nb in editions.items():
        target = stored_path(name, lang)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not execute and not keep_stored_outputs(nb, target):
            print(f"  {name} ({lang}): code cells changed, written without outputs; build it without --no-execute")
        nbformat.write(nb, target)
        written.append(target)
    return written


def select(args: list) -> list:
    """Notebook names matching full names or prefixes such as 03; all of them if none given."""
    names = list(sources())
    args = [os.path.basename(a).removesuffix(".py").removesuffix(".ipynb") for a in args]
    if not args:
        return names
    picked = [n for n in names if any(n == a or n.startswith(a) for a in args)]
    missing = [a for a in args if not any(n == a or n.startswith(a) for n in names)]
    if missing:
        raise SystemExit(f"no source notebooks/src/<NAME>.py for: {', '.join(missing)}")
    return picked


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebook names or prefixes, e.g. 03_model_desc or 03")
    parser.add_argument("--no-execute", action="store_true", help="write cells only; keep stored outputs while the code cells are unchanged")
    args = parser.parse_args(argv)
    for name in select(args.names):
        for path in build(name, execute=not args.no_execute):
            print("building", os.path.relpath(path, ROOT))


if __name__ == "__main__":
    main()
