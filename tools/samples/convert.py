"""Turn a README's `atc` command into one for our ATC emulator and run it where the README runs it.

Model commands get the substitute ONNX file and --framework=5; flags that only mean something to
the original framework's parser (--weight, --out_nodes naming Caffe/TF nodes) are dropped and reported;
the real compiler's tuning flags (--op_select_implmode, --save_original_model, --precision_mode …) go
through: the emulator accepts them and says they change nothing.
Single-operator commands (--singleop) are passed through unchanged. A TensorFlow command (--framework=3)
without --input_format gets --input_format=NHWC, ATC's default for TensorFlow models, which the ONNX
framework flag would otherwise lose.
"""
from __future__ import annotations

import shlex
import subprocess
import sys
from typing import List, Optional, Tuple

DROPPED = ("weight", "out_nodes")  # the rest (--precision_mode, --save_original_model …) the emulator accepts


def translate(command: str, onnx_path: Optional[str]) -> Tuple[List[str], List[str]]:
    """(emulator argv, dropped flags) for ``command`` ('atc --model=… …'); ``onnx_path`` replaces --model."""
    words = shlex.split(command)
    if words[:1] != ["atc"]:
        raise ValueError(f"not an atc command: {command!r}")
    argv, dropped, seen = [], [], set()
    for word in words[1:]:
        key = word.lstrip("-").partition("=")[0]  # ATC's gflags take -flag as well as --flag
        seen.add(key)
        if key in DROPPED:
            dropped.append(word)
        elif key == "model" and onnx_path:
            argv.append(f"--model={onnx_path}")
        elif key == "framework" and onnx_path:
            argv.append("--framework=5")
        else:
            argv.append(word)
    if onnx_path and "framework" not in seen:
        argv.append("--framework=5")
    if onnx_path and "--framework=3" in words and "input_format" not in seen:
        argv.append("--input_format=NHWC")  # ATC's default for TensorFlow
    return argv, dropped


def run(argv: List[str], cwd: str, timeout: float) -> Tuple[int, str]:
    """Run `acl-teach atc ARGV` in ``cwd``; (exit code, combined output)."""
    proc = subprocess.run([sys.executable, "-m", "acl_teach", "atc", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)
    return proc.returncode, (proc.stdout + proc.stderr).strip()
