"""A whole class on one server: JupyterHub, one Unix account per learner, nbgrader's exchange made safe.

One module per concern: config (classroom.json), accounts (class list → local accounts), exchange (nbgrader's
exchange laid out and plugged so learners cannot abuse it), grading (autograde as each learner), limits
(cgroups / rlimits), spawner and hub (JupyterHub's configuration), workspace (a learner's notebooks),
commands (what `acl-teach classroom …` runs). docs/instructor.md walks through it.
"""
