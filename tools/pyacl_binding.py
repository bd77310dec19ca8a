"""Derive data/binding/pyacl_binding.json from the pyACL binding's C++ source (read-only input, never shipped).

The binding is GitHub hicann/runtime, python/pyACL/**, at commit 134e2edb8c4618e202a2b7bbbcc5cc5587516371
(later snapshots dropped python/). Give it one or more source roots laid out like python/pyACL/; a root may
hold whole files or fragments of a file (a wrapper's header, its parse statement and its return statements
copied verbatim): the same regular expressions read both. Method tables must come from whole files, since
their line numbers are recorded.

    python tools/pyacl_binding.py SRC_ROOT [SRC_ROOT ...] [-o data/binding/pyacl_binding.json]

For every registered function: its module, name, METH flags, the table file:line, the wrapper and its
file, the PyArg_ParseTuple format (None when the wrapper never parses), the CHECK macro's TypeError text
(None when the macro keeps CPython's own message) and the Py_BuildValue formats it can return ("None" for
``return Py_None``).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

REPO = "hicann/runtime"
COMMIT = "134e2edb8c4618e202a2b7bbbcc5cc5587516371"
PREFIX = "python/pyACL/"
MODULE_OF_TABLE = {"g_moduleMethods": "acl"}   # the others are named by their Get*Methods() accessor
EXPECTED = {"acl": 47, "acl.rt": 190, "acl.mdl": 86, "acl.op": 32, "acl.media": 177, "acl.util": 7,
            "acl.prof": 36, "acl.blas": 12, "acl.himpi": 130, "acl.fv": 22}

_TABLE = re.compile(r"PyMethodDef\s+(\w+)\[\]\s*=\s*\{")
_ENTRY = re.compile(r'\{\s*"(\w+)"\s*,\s*(?:\(PyCFunction\)\s*)?(\w+)\s*,\s*(METH_\w+(?:\s*\|\s*METH_\w+)*)')
_ACCESSOR = re.compile(r"PyMethodDef\*\s*Get(\w+)Methods\(\)\s*\{\s*return\s+(\w+)\s*;")
_WRAPPER = re.compile(r"^(?:static\s+)?PyObject\*\s+(Wrap\w+)\s*\(\s*PyObject\*[^,]*,\s*PyObject\*\s*(/\*\s*)?(\w+)",
                      re.M)
_PARSE = re.compile(r'PyArg_ParseTuple\s*\(\s*\w+\s*,\s*"([^"]*)"')
_BUILD = re.compile(r'^\s*(?:return\s+|(?:PyObject\*\s*)?\w+\s*=\s*)Py_BuildValue\s*\(\s*"([^"]*)"', re.M)
_NONE = re.compile(r"^\s*return\s+Py_None\s*;", re.M)
_RETVAR = re.compile(r"^\s*return\s+(\w+)\s*;", re.M)
_SETERR = re.compile(r'PyErr_SetString\s*\(\s*PyExc_(\w+)\s*,\s*"([^"]*)"\s*\)')


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _call_args(text: str, open_paren: int) -> Tuple[List[str], int]:
    """Split the arguments of the call whose '(' is at open_paren; return them and the index after ')'."""
    depth, args, cur, i, in_str = 0, [], [], open_paren, False
    while i < len(text):
        ch = text[i]
        if in_str:
            cur.append(ch)
            if ch == "\\":
                cur.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            cur.append(ch)
        elif ch == "(":
            depth += 1
            if depth > 1:
                cur.append(ch)
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append("".join(cur).strip())
                return args, i + 1
            cur.append(ch)
        elif ch == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    raise ValueError("unbalanced call")


def _c_string(arg: str) -> Optional[str]:
    m = re.fullmatch(r'"((?:[^"\\]|\\.)*)"', arg.strip())
    return bytes(m.group(1), "utf-8").decode("unicode_escape") if m else None


def _body(text: str, start: int) -> str:
    """The wrapper's body: from its header to the first '}' at column 0."""
    end = text.find("\n}", start)
    return text[start:end + 2 if end >= 0 else len(text)]


def parse_wrapper(body: str) -> Dict[str, object]:
    """Format, parse-failure text and return shapes of one wrapper body."""
    info: Dict[str, object] = {"format": None, "error": None, "error_type": None, "returns": []}
    m = _PARSE.search(body)
    if m:
        info["format"] = m.group(1)
        check = body.rfind("CHECK_NULL", 0, m.start())
        between = body[check:m.start()] if check >= 0 else ""
        if check >= 0 and re.fullmatch(r"CHECK_NULL\s*\(\s*(?:!?\s*)?", between):
            args, _ = _call_args(body, body.index("(", check))
            if len(args) >= 2:
                info["error"] = _c_string(args[1])
                info["error_type"] = args[2].replace("PyExc_", "") if len(args) >= 3 else "TypeError"
            else:
                info["error_type"] = "native"     # CHECK_NULL(cond): CPython's own message stays
        else:
            after = body[m.end():]
            err = _SETERR.search(after)
            if err:
                info["error_type"], info["error"] = err.group(1), err.group(2)
            else:
                info["error_type"] = "native"
    shapes: List[Tuple[int, str]] = [(b.start(), b.group(1)) for b in _BUILD.finditer(body)]
    shapes += [(n.start(), "None") for n in _NONE.finditer(body)]
    built = set(re.findall(r"(\w+)\s*=\s*Py_BuildValue", body))
    shapes += [(r.start(), "O") for r in _RETVAR.finditer(body)
               if r.group(1) not in built and r.group(1) not in ("nullptr", "NULL", "Py_None")]
    info["returns"] = list(dict.fromkeys(s for _, s in sorted(shapes)))
    return info


def collect(roots: List[Path], tables_only: Tuple[str, ...] = ()) -> Dict[str, object]:
    tables: Dict[str, Tuple[str, List[dict]]] = {}
    accessors: Dict[str, str] = {}
    wrappers: Dict[str, dict] = {}
    for root in roots:
        for path in sorted(root.rglob("*.cpp")):
            rel = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8")
            fragment = text.startswith("// FRAGMENTS of ")
            for acc in _ACCESSOR.finditer(text):
                accessors[acc.group(2)] = "acl." + acc.group(1).lower()
            for t in _TABLE.finditer(text):
                if fragment:
                    raise SystemExit(f"{rel}: a method table must come from the whole file (line numbers)")
                end = text.index("};", t.end())
                entries = []
                for e in _ENTRY.finditer(text, t.end(), end):
                    ifs = re.findall(r"#(ifdef|ifndef|if|endif)\s*(\w*)", text[t.end():e.start()])
                    stack: List[str] = []
                    for kind, name in ifs:
                        if kind == "endif":
                            stack.pop() if stack else None
                        else:
                            stack.append(f"{kind} {name}")
                    entries.append({"name": e.group(1), "wrapper": e.group(2),
                                    "flags": re.sub(r"\s+", "", e.group(3)),
                                    "table": f"{PREFIX}{rel}:{_line_of(text, e.start())}",
                                    "only_if": " && ".join(stack) or None})
                tables[t.group(1)] = (rel, entries)
            for w in _WRAPPER.finditer(text):
                name = w.group(1)
                body = _body(text, w.start())
                info = parse_wrapper(body)
                info["never_parses"] = bool(w.group(2)) or info["format"] is None
                info["wrapper_at"] = f"{PREFIX}{rel}" + ("" if fragment else f":{_line_of(text, w.start())}")
                if name in wrappers and wrappers[name].get("wrapper_at", "").split(":")[0] != info["wrapper_at"].split(":")[0]:
                    info["also_defined_at"] = wrappers[name]["wrapper_at"]
                if name not in wrappers or not fragment:
                    wrappers[name] = info
    modules: Dict[str, dict] = {}
    missing = []
    for var, (rel, entries) in tables.items():
        module = MODULE_OF_TABLE.get(var) or accessors.get(var)
        if module is None:
            raise SystemExit(f"no module for table {var} in {rel}")
        funcs = {}
        for e in entries:
            w = wrappers.get(e["wrapper"])
            if w is None and module in tables_only:
                w = {"wrapper_read": False}
            elif w is None:
                missing.append(f"{module}.{e['name']} ({e['wrapper']})")
                w = {}
            funcs[e["name"]] = {**e, **{k: v for k, v in w.items()}}
        modules[module] = {"count": len(funcs), "functions": funcs}
    return {"modules": modules, "missing_wrappers": missing}


def _dump(doc: Dict[str, object]) -> str:
    """JSON with one function per line, so a diff of a re-run shows which functions changed."""
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in doc.items() if k != "modules"]
    lines.append(' "modules": {')
    modules = list(doc["modules"].items())  # type: ignore[union-attr]
    for i, (module, funcs) in enumerate(modules):
        lines.append(f"  {json.dumps(module)}: {{")
        items = list(funcs.items())
        lines += [f"   {json.dumps(n)}: {json.dumps(v, ensure_ascii=False)}" + ("," if j < len(items) - 1 else "")
                  for j, (n, v) in enumerate(items)]
        lines.append("  }" + ("," if i < len(modules) - 1 else ""))
    return "\n".join(lines + [" }", "}"]) + "\n"


def _python(doc: Dict[str, object]) -> str:
    """acl_teach/spec/binding.py: per module, name -> (format, parse-failure text, error kind, return formats)."""
    out = ['"""pyACL\'s method table, per module: name -> (PyArg_ParseTuple format, parse-failure text, kind, returns).',
           "",
           "Generated by tools/pyacl_binding.py from hicann/runtime python/pyACL @" + COMMIT[:8] + " (facts, CANN Open",
           "Software License v2; see data/NOTICE.md and data/binding/pyacl_binding.json for file:line). Do not edit.",
           "format None: the wrapper never calls PyArg_ParseTuple (extra positional arguments are ignored); kind",
           "'TypeError' / 'ValueError': the CHECK macro replaces CPython's error by that exception with the text;",
           "'native': CPython's own error stays; None: not read (acl.himpi, acl.fv: names only).",
           '"""',
           "# flake8: noqa",
           "TABLE = {"]
    for module, funcs in doc["modules"].items():  # type: ignore[union-attr]
        out.append(f"    {module!r}: {{")
        for name, f in funcs.items():
            rets = tuple(f.get("returns") or ())
            out.append(f"        {name!r}: ({f.get('format')!r}, {f.get('error')!r}, {f.get('error_type')!r}, {rets!r}),")
        out.append("    },")
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", type=Path)
    ap.add_argument("--tables-only", default="", help="modules (comma separated) whose wrappers were not read")
    ap.add_argument("--python", type=Path, default=Path("acl_teach/spec/binding.py"),
                    help="the runtime copy the simulator reads (names, formats, parse-failure texts, return shapes)")
    ap.add_argument("-o", "--output", type=Path, default=Path("data/binding/pyacl_binding.json"))
    ns = ap.parse_args(argv)
    tables_only = tuple(m for m in ns.tables_only.split(",") if m)
    found = collect(ns.roots, tables_only)
    counts = {m: found["modules"][m]["count"] for m in EXPECTED if m in found["modules"]}
    doc = {"source": {"repo": REPO, "commit": COMMIT, "path": PREFIX + "**",
                      "licence": "CANN Open Software License Agreement Version 2.0",
                      "generated_by": "tools/pyacl_binding.py"},
           "counts": counts, "total": sum(counts.values()),
           "wrappers_not_read": list(tables_only),
           "missing_wrappers": found["missing_wrappers"],
           "modules": {m: found["modules"][m]["functions"] for m in EXPECTED if m in found["modules"]}}
    ns.output.parent.mkdir(parents=True, exist_ok=True)
    ns.output.write_text(_dump(doc), encoding="utf-8")
    ns.python.write_text(_python(doc), encoding="utf-8")
    bad = {m: (counts.get(m), n) for m, n in EXPECTED.items() if counts.get(m) != n}
    print(f"{doc['total']} functions; counts {counts}; missing wrappers {len(doc['missing_wrappers'])}")
    if bad:
        print("counts differ from the expected ones:", bad, file=sys.stderr)
    return 1 if bad or doc["missing_wrappers"] else 0


if __name__ == "__main__":
    sys.exit(main())
