"""The documents name only what exists: every file, test, command and `make` target.

A newcomer follows the README and `docs/` to the letter; a path that moved, a test that was
renamed or a command that was dropped sends them looking for something that is not there. Each
finding names the document and what it names that is missing.
"""

import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
MAKE = re.compile(r"\bmake\s+([a-z][\w.-]*)")
MANAGE = re.compile(r"\bmanage\.py\s+([a-z][a-z_]*)")
MODULE = re.compile(r"\bpython3?\s+-m\s+([A-Za-z_][\w.]*)")
TEST = re.compile(r"^([\w/.-]+\.py)::(\w+)$")
BARE_TEST_FILE = re.compile(r"^(test_\w+\.py)$")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)


def tracked_top_level():
    """The repository's own top-level names (`tests`, `Makefile`, `.ci`): a path in a document
    starting with one of them is a path of the repository."""
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return {line.split("/")[0] for line in listed.splitlines()} | {"docs"}


TOP_LEVEL = tracked_top_level()


def relative(document):
    """The document's name as the repository knows it (a file outside: its own name)."""
    if document.resolve().is_relative_to(ROOT):
        return document.resolve().relative_to(ROOT).as_posix()
    return document.name


def code(text):
    """The text a document writes as code: fenced blocks and inline spans."""
    blocks = FENCE.findall(text)
    spans = SPAN.findall(FENCE.sub("", text))
    return blocks + spans


def words(snippet):
    for word in re.split(r"[\s,;()'\"=<>|]+", snippet):
        word = word.rstrip(".:")
        if word:
            yield word


def repository_path(word):
    """The path a word of code names in the repository, or None when it names none (a URL, a
    dotted name, a file outside the checkout)."""
    path = word.split("::")[0]
    if path.startswith(("/", "../", "http:", "https:")) or ("/" not in path and "." not in path):
        return None
    if path.split("/")[0] not in TOP_LEVEL:
        return None
    return path


def exists(path):
    if any(mark in path for mark in "*?["):
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


def slug(heading):
    """The anchor GitHub gives a heading."""
    heading = re.sub(r"[`*_]", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def anchors(document):
    return {slug(heading) for heading in HEADING.findall(FENCE.sub("", document.read_text()))}


def makefile_targets():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([\w.-]+)\s*:(?!=)", text, re.MULTILINE))


def missing_in(document):
    """What the document names that the repository does not have, each said in words."""
    text = document.read_text(encoding="utf-8")
    name = relative(document)
    found = []
    snippets = code(text)
    for snippet in snippets:
        for word in words(snippet):
            path = repository_path(word)
            if path and not exists(path):
                found.append(f"{name} names `{path}`, which does not exist")
            test = TEST.match(word)
            if test and (ROOT / test[1]).exists():
                source = (ROOT / test[1]).read_text(encoding="utf-8")
                if not re.search(rf"^\s*def {test[2]}\(", source, re.MULTILINE):
                    found.append(f"{name} names the test {word}, not in {test[1]}")
            bare = BARE_TEST_FILE.match(word)
            if bare and not any((ROOT / "tests").rglob(bare[1])):
                found.append(f"{name} names the test file `{bare[1]}`, not under tests/")
        for target in MAKE.findall(snippet):
            if target not in makefile_targets():
                found.append(f"{name} names `make {target}`, not a target of the Makefile")
        for command in MANAGE.findall(snippet):
            if command not in get_commands():
                found.append(f"{name} names `manage.py {command}`, not a management command")
        for module in MODULE.findall(snippet):
            package = ROOT / module.replace(".", "/")
            ours = module.split(".")[0] in TOP_LEVEL
            if ours and not (package.with_suffix(".py").exists() or package.is_dir()):
                found.append(f"{name} names `python -m {module}`, not a module here")
    for target in LINK.findall(text):
        if target.startswith(("http:", "https:", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        if not linked.exists():
            found.append(f"{name} links to {path}, which does not exist")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            found.append(f"{name} links to {target}: {relative(linked)} has no such heading")
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=relative)
def test_every_file_test_command_and_target_a_document_names_exists(document):
    assert document.exists(), f"{relative(document)} is missing"
    missing = missing_in(document)
    assert not missing, "\n".join(missing)


def test_the_documents_are_there():
    names = {relative(document) for document in DOCUMENTS}
    for name in ("director", "deployment", "api", "engine", "architecture", "benchmarks"):
        assert f"docs/{name}.md" in names
    assert "docs/testing.md" in names


def test_the_readme_opens_with_the_two_commands_and_stays_short():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = FENCE.search(text)[1].splitlines()
    assert [line.split("#")[0].strip() for line in first] == ["make run", "make test"]
    assert len(text.splitlines()) <= 160


def test_a_stale_reference_is_found_and_named(tmp_path):
    """The check itself can fail: a document naming what is gone is reported in words."""
    stale = tmp_path / "stale.md"
    stale.write_text(
        "Run `make deploy`, `python manage.py no_such_command`, read `rules/gone.py` and\n"
        "`tests/rules/test_turn.py::test_no_such_test`, `test_no_such_file.py` and\n"
        "[the guide](missing.md), [a section](#nowhere), `python3 -m rules.gone`.\n",
        encoding="utf-8",
    )
    missing = missing_in(stale)
    assert any("`make deploy`" in line for line in missing)
    assert any("`manage.py no_such_command`" in line for line in missing)
    assert any("`rules/gone.py`" in line for line in missing)
    assert any("test_no_such_test" in line for line in missing)
    assert any("`test_no_such_file.py`" in line for line in missing)
    assert any("missing.md" in line for line in missing)
    assert any("rules.gone" in line for line in missing)
    assert any("#nowhere" in line and "no such heading" in line for line in missing)
    assert len(missing) == 8
