"""Build notebooks/NN_name.ipynb from its jupytext source notebooks/src/NN_name.py and store its outputs.

Edit the source, then run: python tools/build_notebooks.py [NAME|NN ...] [--no-execute]
Outputs come from the simulator; nbval compares them (addresses and timings sanitised), and
tests/test_notebooks.py checks that every stored notebook matches its source.
"""
from __future__ import annotations

import argparse
import glob
import os

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "notebooks")
SRC = os.path.join(OUT, "src")
LAYOUT_KEYS = ("execution", "lines_to_next_cell", "lines_to_end_of_cell_marker")  # timestamps, jupytext layout
NEW_CELL = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell,
            "raw": nbformat.v4.new_raw_cell}


def sources() -> dict:
    """Source path by notebook name, in series order, so the series is defined by the files alone."""
    return {os.path.basename(p)[:-3]: p for p in sorted(glob.glob(os.path.join(SRC, "[0-9][0-9]_*.py")))}


def notebook_from_source(path: str) -> nbformat.NotebookNode:
    """The notebook a source builds, without outputs; shared with the drift test so both agree."""
    name = os.path.basename(path)[:-3]
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(jupytext.read(path).cells):  # stable ids, no timestamps: diffs show real changes
        meta = {k: v for k, v in cell.metadata.items() if k not in LAYOUT_KEYS}
        nb.cells.append(NEW_CELL[cell.cell_type](cell.source, metadata=meta, id=f"{name[:2]}-{i:02d}"))
    return nb


def keep_stored_outputs(nb: nbformat.NotebookNode, path: str) -> bool:
    """Copy outputs (and widget state) from the stored notebook if its sources are unchanged: --no-execute loses nothing."""
    if not os.path.exists(path):
        return False
    old = nbformat.read(path, as_version=4)
    if [(c.cell_type, c.source) for c in old.cells] != [(c.cell_type, c.source) for c in nb.cells]:
        return False
    nb.metadata.update({k: v for k, v in old.metadata.items() if k != "kernelspec"})  # language_info, widgets
    for cell, stored in zip(nb.cells, old.cells):
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = stored.outputs, stored.execution_count
    return True


def build(name: str, execute: bool = True) -> str:
    """Write one notebook, executed in notebooks/ so its relative data paths resolve."""
    nb = notebook_from_source(sources()[name])
    path = os.path.join(OUT, f"{name}.ipynb")
    if execute:
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": OUT}}).execute()
        for cell in nb.cells:  # warnings on stderr vary between machines
            if cell.cell_type == "code":
                cell.outputs = [o for o in cell.outputs if o.get("name") != "stderr"]
                cell.metadata.pop("execution", None)
    elif not keep_stored_outputs(nb, path):
        print(f"  {name}: sources changed, written without outputs; build it without --no-execute")
    nbformat.write(nb, path)
    return path


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
    parser.add_argument("--no-execute", action="store_true", help="write cells only; keep stored outputs if unchanged")
    args = parser.parse_args(argv)
    for name in select(args.names):
        print("building", build(name, execute=not args.no_execute))


if __name__ == "__main__":
    main()
