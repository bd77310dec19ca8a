"""Models for a real Ascend board, built by CANN's own ``atc`` (found on PATH) and cached per SoC.

The commands are the samples' own: ``atc --model=X.onnx --framework=5 --output=OUT
--soc_version=SOC`` plus the model's flags, and ``atc --singleop=ops.json --output=DIR
--soc_version=SOC`` for single operators. Without ``atc`` the error prints the exact command.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from typing import Any, Dict, List, Optional

from . import recipes

SET_ENV = "source /usr/local/Ascend/ascend-toolkit/set_env.sh"
# notebook 07's post-processing ops: fp32 scores -> fp16 (Cast), then the index of the best (ArgMaxD)
TOP1_OPS = [
    {"op": "Cast", "input_desc": [{"format": "ND", "shape": [1000], "type": "float32"}],
     "output_desc": [{"format": "ND", "shape": [1000], "type": "float16"}],
     "attr": [{"name": "dst_type", "type": "int", "value": 1}]},
    {"op": "ArgMaxD", "input_desc": [{"format": "ND", "shape": [1000], "type": "float16"}],
     "output_desc": [{"format": "ND", "shape": [1], "type": "int32"}],
     "attr": [{"name": "dimension", "type": "int", "value": 0}]},
]


class ToolchainError(RuntimeError):
    """CANN's atc is missing or failed; the message holds the command to run by hand."""


def _run(argv: List[str]) -> None:
    """Run atc, or say in one line how to run it yourself."""
    command = " ".join(shlex.quote(a) for a in argv)
    exe = shutil.which("atc")
    if exe is None:
        raise ToolchainError(f"CANN's atc is not on PATH ({SET_ENV} sets it up); build the model yourself "
                             f"with: {command}")
    proc = subprocess.run([exe] + argv[1:], capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise ToolchainError(f"atc exited with {proc.returncode}: {' | '.join(tail) or 'no output'}; the "
                             f"command was: {command}")


def build(onnx_path: str, flags: List[str], output: str, soc: str, recipe: Optional[Dict[str, Any]]) -> str:
    """``output``.om built by atc (once), with the model's recipe written beside it."""
    om_path = output + ".om"
    if not os.path.isfile(om_path):
        os.makedirs(os.path.dirname(output), exist_ok=True)
        _run(["atc", f"--model={onnx_path}", "--framework=5", f"--output={output}", f"--soc_version={soc}"] + flags)
        if not os.path.isfile(om_path):
            raise ToolchainError(f"atc reported success but wrote no {om_path}")
    if recipe is not None:
        recipes.keep(om_path, recipe)
    return om_path


def build_ops(ops: List[Dict[str, Any]], folder: str, soc: str) -> str:
    """``folder`` holding the operators of ``ops`` compiled by ``atc --singleop`` (once)."""
    done = os.path.join(folder, "op_list.json")
    if os.path.isfile(done) and any(f.endswith(".om") for f in os.listdir(folder)):
        return folder
    os.makedirs(folder, exist_ok=True)
    with open(done, "w", encoding="utf-8") as fh:
        json.dump(ops, fh, indent=1)
    _run(["atc", f"--singleop={done}", f"--output={folder}", f"--soc_version={soc}"])
    return folder
