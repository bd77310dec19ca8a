"""Past one server: the Z2JH values say what the one-server class says; the image runs the tested install script.

No Kubernetes and no chart here: the values are checked against the structure of the chart's values schema
(data/deploy/z2jh_values_schema.json, derived from the chart's repository by tools/z2jh_schema.py; the schema is
on neither PyPI nor npm) and for what must match `acl-teach classroom`'s defaults; the install script itself runs
in `make test-class`.
"""
import os

import pytest

from acl_teach.classroom import hub
from acl_teach.classroom.config import Classroom
from acl_teach.classroom.limits import parse_bytes, thread_env

yaml = pytest.importorskip("yaml")
DEPLOY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "deploy")


def _values():
    with open(os.path.join(DEPLOY, "z2jh", "values.yaml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def test_values_limits_and_culler_match_the_class():
    values, room = _values(), Classroom()
    assert parse_bytes(values["singleuser"]["memory"]["limit"]) == parse_bytes(room.mem_limit)
    assert float(values["singleuser"]["cpu"]["limit"]) == room.cpu_limit
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] == room.idle_timeout
    assert values["singleuser"]["defaultUrl"] == "/lab"


def test_values_give_each_learner_their_own_uid_and_the_exchange_volume():
    values = _values()
    extra = values["hub"]["extraConfig"]["aclTeachRoles"]
    compile(extra, "aclTeachRoles", "exec")  # the hub runs it: it must at least be Python
    assert "c.KubeSpawner.uid = lambda spawner: 100000 + spawner.user.id" in extra
    mounts = values["singleuser"]["storage"]["extraVolumeMounts"]
    assert mounts[0]["mountPath"] == Classroom().exchange


def test_image_runs_the_install_script_the_class_test_runs():
    with open(os.path.join(DEPLOY, "singleuser", "Dockerfile"), encoding="utf-8") as fh:
        dockerfile = fh.read()
    assert "sh /src/acl-teach/deploy/singleuser/install.sh /src/acl-teach /opt/acl-teach" in dockerfile
    with open(os.path.join(os.path.dirname(DEPLOY), "Makefile"), encoding="utf-8") as fh:
        assert "sh deploy/singleuser/install.sh . $(CLASS_VENV)" in fh.read()
    with open(os.path.join(DEPLOY, "singleuser", "install.sh"), encoding="utf-8") as fh:
        script = fh.read()
    for plugin in hub.INSTRUCTOR_ONLY["labextensions"]:  # the same instructor-only tools the hub turns off
        assert plugin.split(":")[1] in script


def test_values_size_the_thread_pools_as_the_one_server_class_does():
    values = _values()
    env = values["singleuser"]["extraEnv"]
    want = thread_env(float(values["singleuser"]["cpu"]["limit"]))
    assert {k: str(env.get(k)) for k in want} == want


def test_values_validate_against_the_charts_schema():
    """The chart's values schema (its structure, derived by tools/z2jh_schema.py): what `helm install` checks."""
    import json
    jsonschema = pytest.importorskip("jsonschema")
    with open(os.path.join(os.path.dirname(DEPLOY), "data", "deploy", "z2jh_values_schema.json"),
              encoding="utf-8") as fh:
        schema = jsonschema.Draft7Validator(json.load(fh))
    values = _values()
    assert [e.message for e in schema.iter_errors(values)] == []
    values["singleuser"]["memroy"] = values["singleuser"].pop("memory")  # a typo helm would refuse
    values["cull"]["timeout"] = "1h"
    assert sorted(e.validator for e in schema.iter_errors(values)) == ["additionalProperties", "type"]
