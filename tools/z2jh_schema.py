"""Derive data/deploy/z2jh_values_schema.json: the structure of the Zero to JupyterHub chart's values schema.

    python tools/z2jh_schema.py VALUES_SCHEMA_YAML COMMIT
    (the file jupyterhub/values.schema.yaml of GitHub jupyterhub/zero-to-jupyterhub-k8s at COMMIT)

Kept from the chart's ``jupyterhub/values.schema.yaml``: the keys, types, enums and patterns of the sections
deploy/z2jh/values.yaml sets (and whether a section accepts keys it does not name); dropped: every description
(the chart's prose) and ``required`` (the chart's own defaults supply those keys, so our values file alone need
not). tests/test_deploy.py validates deploy/z2jh/values.yaml against it offline. Rerun on a newer chart.
"""
import json
import os
import sys

import yaml

SECTIONS = ("hub", "singleuser", "cull")
KEEP = {"type", "properties", "additionalProperties", "items", "enum", "pattern", "patternProperties", "anyOf",
        "oneOf", "allOf", "minimum", "maximum", "const", "$ref", "definitions"}
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "deploy",
                   "z2jh_values_schema.json")


def structure(node):
    """The schema without its prose: only the keywords that decide what validates."""
    if isinstance(node, list):
        return [structure(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("properties", "patternProperties", "definitions"):
            out[key] = {k: structure(v) for k, v in value.items()}
        elif key in KEEP:
            out[key] = structure(value)
    return out


def main(argv=None) -> int:
    path, commit = (argv or sys.argv[1:])[:2]
    with open(path, encoding="utf-8") as fh:
        full = yaml.safe_load(fh)
    derived = {"$comment": f"derived by tools/z2jh_schema.py from jupyterhub/zero-to-jupyterhub-k8s "
                           f"jupyterhub/values.schema.yaml at {commit} (BSD-3-Clause): structure only, no "
                           "descriptions; top-level sections other than " + ", ".join(SECTIONS) + " accept anything",
               "$schema": full.get("$schema"), "type": "object", "additionalProperties": False,
               "properties": {k: structure(v) if k in SECTIONS else {} for k, v in full["properties"].items()},
               "definitions": structure(full.get("definitions", {}))}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(derived, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
