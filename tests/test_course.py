"""`acl-teach course init` makes a working nbgrader course: a real release → submit → autograde → feedback run.

Three submissions per assignment: the instructor's solutions (full marks), the released student version untouched
(0 points, no crash, no time-out) and one with typical mistakes (partial marks). Scores come from nbgrader's
gradebook; the feedback must carry the checkers' English and Chinese explanations.
"""
import os
import subprocess
import sys

import nbformat
import pytest

pytest.importorskip("nbgrader")

NBGRADER = os.path.join(os.path.dirname(sys.executable), "nbgrader")
MISTAKEN = ["05_preprocess_and_copy", "08_release_and_leaks", "10_dynamic_batch"]  # also get a mistakes submission
# one typical mistake per assignment, in the solution cells: (text in the solution, what the learner wrote)
MISTAKES = {
    "05_preprocess_and_copy": ("    pixels = (pixels - 127) / 128\n", ""),                  # unnormalised 0-255
    "08_release_and_leaks": ('    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(run["stream"]))\n', ""),
    "10_dynamic_batch": ("    batch[:len(images)] = images\n    return batch\n", "    return images\n"),  # no padding
}
# what each mistake costs: (points the checker's tests give, words of its feedback in English and Chinese)
EXPECTED = {
    "05_preprocess_and_copy": (2.0, "raw 0–255 pixels", "未归一化"),
    "08_release_and_leaks": (0.0, "reclaimed implicitly", "回收"),
    "10_dynamic_batch": (3.0, "expected a float16 array of shape", "应得到形状"),
}


def _run(argv, cwd, timeout=600):
    """Run a command in the course directory; fail the test with its output if it fails."""
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))  # alembic
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, f"{' '.join(argv)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done


def _submit(course, student, assignment, nb):
    """Put a notebook where nbgrader collects submissions."""
    folder = os.path.join(course, "submitted", student, assignment)
    os.makedirs(folder, exist_ok=True)
    nbformat.write(nb, os.path.join(folder, assignment + ".ipynb"))


def _with_mistake(nb, assignment):
    """The instructor notebook with one typical mistake in a solution cell."""
    old, new = MISTAKES[assignment]
    cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution") and old in c.source]
    assert len(cells) == 1, f"{assignment}: the mistake's text is in no solution cell (or in several)"
    cells[0].source = cells[0].source.replace(old, new)
    return nb


def _graded(tmp_path_factory, students):
    """A course with every assignment graded for ``students`` ('solutions': the instructor's notebook,
    'untouched': the released one, 'mistakes': three with typical mistakes); returns
    (course dir, {student: {assignment: (score, max score)}}).

    One nbgrader process per stage (each assignment and student matched by nbgrader's "*"), not one per
    assignment: an nbgrader start costs seconds of CPU, the grading itself is the same.
    """
    from acl_teach import course as acl_course
    course = str(tmp_path_factory.mktemp("course"))
    _run([sys.executable, "-m", "acl_teach", "course", "init", course, "--timeout", "120"], cwd=course)
    with open(os.path.join(course, "students.csv"), "w", encoding="utf-8") as fh:
        fh.write("id\n" + "\n".join(students) + "\n")
    _run([NBGRADER, "db", "student", "import", "students.csv"], cwd=course)
    assignments = acl_course.assignments()
    _run([NBGRADER, "generate_assignment", "*", "--force"], cwd=course)
    for a in assignments:
        source = os.path.join(course, "source", a, a + ".ipynb")
        if "solutions" in students:
            _submit(course, "solutions", a, nbformat.read(source, as_version=4))
        if "untouched" in students:
            _submit(course, "untouched", a, nbformat.read(os.path.join(course, "release", a, a + ".ipynb"), 4))
        if "mistakes" in students and a in MISTAKEN:
            _submit(course, "mistakes", a, _with_mistake(nbformat.read(source, as_version=4), a))
    _run([NBGRADER, "autograde", "*", "--force"], cwd=course, timeout=600 * len(assignments))  # 600 s each, as before
    from nbgrader.api import Gradebook
    scores = {}
    with Gradebook("sqlite:///" + os.path.join(course, "gradebook.db")) as gb:
        for student in students:
            scores[student] = {a: (gb.find_submission(a, student).score, gb.find_submission(a, student).max_score)
                               for a in (MISTAKEN if student == "mistakes" else assignments)}
    return course, scores


# One course graded for all three students: one `db student import`, one `generate_assignment`, one `autograde`
# (nbgrader's start-up, ~2 CPU-s of imports per process, paid once, not twice). The tests share it on one xdist
# worker; started first (an e2e- group), its ~35 notebook runs overlap the rest of the suite on the other worker.
# The graded course is `make test-slow`'s (~170 CPU-s); `make test` keeps the course's init and notebook checks.
def GRADED(test):
    """A test of the graded course: on its shared xdist worker, in `make test-slow`."""
    return pytest.mark.slow(pytest.mark.xdist_group("e2e-course")(test))


@pytest.fixture(scope="session")
def graded(tmp_path_factory):
    """The course graded for the solutions, the typical mistakes and the untouched student version."""
    return _graded(tmp_path_factory, ("solutions", "mistakes", "untouched"))


def test_course_init_writes_config_and_every_assignment(tmp_path):
    from acl_teach import cli, course
    assert cli.main(["course", "init", str(tmp_path / "c")]) == 0
    config = (tmp_path / "c" / "nbgrader_config.py").read_text()
    assert "c.CourseDirectory.course_id = 'acl-teach'" in config and "c.Execute.timeout = 180" in config
    names = sorted(os.listdir(tmp_path / "c" / "source"))
    assert names == course.assignments() and len(names) == 16 and names[0].startswith("01_")
    assert course.init(str(tmp_path / "zh"), lang="zh", only=["01"]) == ["01_init_and_resources"]
    zh = nbformat.read(str(tmp_path / "zh" / "source" / "01_init_and_resources" / "01_init_and_resources.ipynb"), 4)
    assert any("练习" in c.source for c in zh.cells)


def test_every_exercise_has_a_solution_and_a_graded_test():
    from acl_teach import course
    for name in course.assignments():
        nb = nbformat.read(os.path.join(course.notebooks_dir(), name + ".ipynb"), as_version=4)
        meta = [c.metadata["nbgrader"] for c in nb.cells if "nbgrader" in c.metadata]
        assert any(m["solution"] for m in meta) and any(m["grade"] and m["points"] > 0 for m in meta), name
        assert all(m["schema_version"] == 3 and m["locked"] == m["grade"] for m in meta), name
        sources = [c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert all("### BEGIN SOLUTION" in s and "### END SOLUTION" in s for s in sources), name


@GRADED
def test_solutions_get_full_marks(graded):
    _, scores = graded
    assert len(scores["solutions"]) == 16
    for a, (score, top) in scores["solutions"].items():
        assert top > 0 and score == top, (a, score, top)


@GRADED
def test_the_untouched_student_version_gets_zero_without_a_crash(graded):
    course, scores = graded
    for a, (score, top) in scores["untouched"].items():
        assert score == 0 and top > 0, (a, score)
        nb = nbformat.read(os.path.join(course, "autograded", "untouched", a, a + ".ipynb"), as_version=4)
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                  if o.output_type == "error"]
        assert errors and all(e.ename == "AssertionError" for e in errors), [e.ename for e in errors]
        assert all("not written yet" in e.evalue and "还没有写" in e.evalue for e in errors)


@GRADED
def test_typical_mistakes_get_partial_marks(graded):
    _, scores = graded
    for a, (points, _, _) in EXPECTED.items():
        assert scores["mistakes"][a][0] == points, (a, scores["mistakes"][a])
    total = sum(s for s, _ in scores["mistakes"].values())
    assert 0 < total < sum(t for _, t in scores["mistakes"].values())


@GRADED
def test_feedback_shows_the_checkers_bilingual_explanation(graded):
    course, _ = graded
    _run([NBGRADER, "generate_feedback", "*", "--student", "mistakes", "--force"], cwd=course)
    for a, (_, en, zh) in EXPECTED.items():
        with open(os.path.join(course, "feedback", "mistakes", a, a + ".html"), encoding="utf-8") as fh:
            html = fh.read()
        assert en in html and zh in html, a
