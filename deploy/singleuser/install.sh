#!/bin/sh
# The install steps of the single-user image (deploy/singleuser/Dockerfile runs exactly this), also run by
# `make test-class`, so CI exercises them: acl-teach with the classroom extra in a venv every account can run,
# nbgrader's instructor-only tools off for learners at the venv's level (the instructor's config turns them back
# on), and the shipped models built once into a read-only cache inside the image.
#   deploy/singleuser/install.sh SOURCE [PREFIX]     (PYTHON=/usr/bin/python3 by default)
set -eu
SRC=${1:?usage: install.sh SOURCE_CHECKOUT_OR_SDIST [PREFIX]}
PREFIX=${2:-/opt/acl-teach}
PYTHON=${PYTHON:-/usr/bin/python3}
test -x "$PREFIX/bin/python" || "$PYTHON" -m venv "$PREFIX"
"$PREFIX/bin/python" -m pip install -q --upgrade pip
"$PREFIX/bin/python" -m pip install -q --upgrade "$SRC[classroom]"
for plugin in formgrader create-assignment course-list; do
    "$PREFIX/bin/jupyter" labextension disable --level=sys_prefix "@jupyter/nbgrader:$plugin" >/dev/null
done
for ext in formgrader course_list; do
    "$PREFIX/bin/jupyter" server extension disable --sys-prefix "nbgrader.server_extensions.$ext" >/dev/null 2>&1
done
CACHE="$PREFIX/share/acl-teach/model-cache"
ACL_TEACH_CACHE="$CACHE" "$PREFIX/bin/python" -c "from acl_teach.toolchain import assets as a
for p in (a.default_om(), a.dynamic_batch_om(), a.aipp_om(), a.op_model_dir()): print(p)" >/dev/null
chmod -R a+rX,go-w "$PREFIX"
echo "acl-teach installed in $PREFIX (model cache $CACHE)"
