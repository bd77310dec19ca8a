"""Compiled single-operator models: ``acl.op.set_model_dir`` and matching a call against them.

As in CANN (aclopSetModelDir -> AclOpResourceManager::LoadAllModels, ge api/acl/acl_op_executor):
the folder and two levels below are scanned for ``*.om``; a file that does not parse is skipped; a
second successful call in the same process returns 100002 ACL_ERROR_REPEAT_INITIALIZE; a path that
does not resolve, or is not a folder, returns 100014 ACL_ERROR_READ_MODEL_FAILURE. An operator call
runs only if a loaded model has exactly its op type, input/output data types, formats, dims, const
data and attributes (AclOpMap::Get / CheckModelAndAttrMatch), else 100024 ACL_ERROR_OP_NOT_FOUND.
The simulator reads only models built by ``acl-teach atc --singleop`` (spec.opmodel).
"""
from __future__ import annotations

import os
import sys
from typing import Dict, List, Optional, Sequence, Tuple

from ...spec import dtypes, opmodel
from ..core.args import binding
from ..base.tensor_desc import TensorDesc
from ..core.state import fail, state


class OpModels:
    """The op models of one simulated process (the model folder can be set once)."""

    def __init__(self) -> None:
        self.folder: Optional[str] = None
        self.by_key: Dict[opmodel.OpKey, opmodel.OpModel] = {}
        self.skipped: List[str] = []
        self.cast_truncate = False  # a loaded Cast model has 'truncate': acl.op.cast then passes it too

    def add(self, model: opmodel.OpModel) -> None:
        """Register a model; the first of identical ones wins (AclOpMap deduplicates)."""
        self.by_key.setdefault(model.key(), model)
        if model.op == "Cast" and "truncate" in model.attrs:
            self.cast_truncate = True


def registry() -> OpModels:
    """The op model registry of the current simulated process."""
    return state().subsystems.setdefault("op_models", OpModels())


def _om_files(folder: str, depth: int) -> List[str]:
    """*.om files in ``folder`` and up to ``depth - 1`` levels of sub-folders (file_utils::ListFiles)."""
    if depth <= 0:
        return []
    found = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_dir():
            found += _om_files(entry.path, depth - 1)
        elif entry.is_file() and entry.name.endswith(opmodel.SUFFIX):
            found.append(entry.path)
    return found


def _load(api: str, folder: str, reg: OpModels) -> int:
    try:
        paths = _om_files(folder, opmodel.DIR_MAX_DEPTH)
    except OSError as exc:
        return fail(100014, api, f"{folder!r} cannot be scanned ({exc.strerror or exc}): pass the folder that "
                    f"`acl-teach atc --singleop=... --output=FOLDER` wrote.")
    for path in paths:
        try:
            reg.add(opmodel.read(path))
        except OSError as exc:
            return fail(100014, api, f"op model {path!r} cannot be read ({exc.strerror or exc}).")
        except opmodel.OpModelError as exc:
            reg.skipped.append(str(exc))
    return 0


def _note(text: str) -> None:
    if state().config.explain:
        print(f"[acl-teach sim] {text}", file=sys.stderr)


@binding("acl.op.set_model_dir", "s")
def set_model_dir(api, model_dir):
    """Load every op model in ``model_dir`` (once per process); acl.init is not needed."""
    reg = registry()
    if not os.path.exists(model_dir):
        return fail(100014, api, f"{model_dir!r} does not exist (cannot convert to realpath).")
    if reg.folder is not None:
        return fail(100002, api, f"the op model folder is already set to {reg.folder!r} in this process; "
                    f"acl.op.set_model_dir works once per process (put all op models in one folder).")
    folder = os.path.realpath(model_dir)
    if not os.path.isdir(folder):
        return fail(100014, api, f"{model_dir!r} is not a folder; pass the folder atc --singleop wrote into.")
    staged = OpModels()
    ret = _load(api, folder, staged)
    if ret:
        return ret
    staged.folder = folder
    state().subsystems["op_models"] = staged
    for why in staged.skipped:
        _note(f"{api}: skipped {why}.")
    if not staged.by_key:
        _note(f"{api}: no op models in {folder!r}; compile some with `acl-teach atc --singleop=op_list.json "
              f"--output={model_dir} --soc_version=Ascend310`.")
    return 0


def key_of(op_type: str, inputs: Sequence[TensorDesc], outputs: Sequence[TensorDesc],
           attrs: Dict[str, Tuple[str, object]]) -> opmodel.OpKey:
    """The matching key of a call, in the same form as a compiled model's."""
    def tk(d: TensorDesc) -> opmodel.TensorKey:
        return opmodel.tensor_key(d.data_type, d.format, d.dims, d.const)
    return opmodel.op_key(op_type, [tk(d) for d in inputs], [tk(d) for d in outputs], attrs)


def match(key: opmodel.OpKey) -> Optional[opmodel.OpModel]:
    """The loaded model for exactly this call, or None."""
    return registry().by_key.get(key)


def _tensor_text(t: opmodel.TensorKey) -> str:
    data_type, fmt, dims, const, _ = t
    return f"{dtypes.type_name(data_type)} {list(dims)} {dtypes.format_name(fmt)[11:]}{' const' if const else ''}"


def _diff(mine: opmodel.OpKey, theirs: opmodel.OpKey) -> List[str]:
    """Human-readable differences between a call and one compiled model of the same op type."""
    out = []
    for side, a, b in (("inputs", mine[1], theirs[1]), ("outputs", mine[2], theirs[2])):
        if len(a) != len(b):
            out.append(f"{len(a)} {side} given, {len(b)} compiled")
            continue
        out += [f"{side[:-1]} {i}: {_tensor_text(x)} given, {_tensor_text(y)} compiled"
                for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if mine[3] != theirs[3]:
        out.append(f"attrs {_attrs_text(mine[3])} given, {_attrs_text(theirs[3])} compiled")
    return out


def _attrs_text(attrs) -> str:
    return "{" + ", ".join(f"{n}: {v!r} ({k})" for n, k, v in attrs) + "}"


def explain_missing(key: opmodel.OpKey) -> str:
    """Why no model matches ``key``, and the closest compiled one."""
    reg = registry()
    if reg.folder is None:
        return (f"no op models are loaded: compile {key[0]} with `acl-teach atc --singleop=op_list.json "
                f"--output=DIR --soc_version=Ascend310`, then call acl.op.set_model_dir(DIR) first.")
    same = [k for k in reg.by_key if k[0] == key[0]]
    if not same:
        kinds = sorted({k[0] for k in reg.by_key}) or ["none"]
        return f"{reg.folder!r} holds no {key[0]} model (compiled op types: {', '.join(kinds)})."
    best = min(same, key=lambda k: len(_diff(key, k)))
    return (f"no {key[0]} model in {reg.folder!r} matches this call exactly; the closest differs in: "
            f"{'; '.join(_diff(key, best))}. Compile the descs and attrs you pass (atc --singleop).")
