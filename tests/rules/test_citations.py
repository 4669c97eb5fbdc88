"""Every rule the site cites is one the seeds hold, under the number the digest gives it.

A citation is evidence for a director ("WBF 17", "Galore 5.4"): a number the seeds do not
have, or a seed's number borrowed for a rule it does not hold, misleads them. The digest's
numbers are copied in ``tests/data/rule_numbers.txt`` (with their provenance), so the suite
reads nothing outside the repository. Rules from outside the seeds are named as what they
are: resigning is common practice, the trailing player's sheet is club practice.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = ROOT / "tests" / "data" / "rule_numbers.txt"
# where the site cites rules: code, templates, scripts, translations, the README and the docs
SOURCES = [
    *sorted(
        path
        for folder in ("rules", "club", "matches", "tournaments", "api", "templates", "static")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in {".py", ".html", ".txt", ".js"}
        and "vendor" not in path.parts
        and "migrations" not in path.parts
    ),
    ROOT / "locale" / "it" / "LC_MESSAGES" / "django.po",
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
NUMBER = r"\d+(?:\.\d+)?"
# "WBF 17", "WBF 12–21", "WBF 23, 25", "Galore 2.3-2.5 and 5.2-5.3", "Galore 5.3 fig. 10"
CITATION = re.compile(
    rf"\b(WBF|Galore)\s+({NUMBER}(?:\s*(?:[–-]|,|and|e)\s*{NUMBER}(?![\d.]*\s*(?:points?|punti)))*)"
)


def digest_numbers():
    lines = NUMBERS.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def citations(text):
    """Each (source, number) a text cites, ranges given by both their ends."""
    for found in CITATION.finditer(text):
        source, numbers = found.groups()
        for number in re.findall(NUMBER, numbers):
            yield found.start(), f"{source} {number}"


def test_the_digest_s_numbers_are_in_the_repository():
    numbers = digest_numbers()
    assert "WBF 25" in numbers and "Galore 2.8" in numbers and "Galore 2.1" not in numbers


def test_the_sources_exist_and_cite_rules():
    assert all(path.exists() for path in SOURCES), [p for p in SOURCES if not p.exists()]
    cited = {
        number for path in SOURCES for _, number in citations(path.read_text(encoding="utf-8"))
    }
    assert {"WBF 3", "WBF 17", "Galore 2.8", "Galore 5.4"} <= cited


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_cited_rule_number_is_in_the_digest(path):
    known = digest_numbers()
    text = path.read_text(encoding="utf-8")
    unknown = [
        (text.count("\n", 0, at) + 1, number)
        for at, number in citations(text)
        if number not in known
    ]
    assert unknown == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_resigning_is_not_cited_to_a_seed(path):
    """No seed has a rule on resigning (Galore 2.7 is gammons and backgammons): a line about
    resigning that cites a Galore section borrows a number for a rule it does not hold."""
    lines = path.read_text(encoding="utf-8").splitlines()
    borrowed = [
        (number, line.strip())
        for number, line in enumerate(lines, 1)
        if re.search(r"resign|abbandon", line, re.IGNORECASE)
        and re.search(r"Galore\s+2\.[67]", line)
    ]
    assert borrowed == []


def test_the_citation_reader_reads_ranges_and_lists():
    read = [number for _, number in citations("WBF 12–21, Galore 2.3-2.5 and 5.2; WBF 23, 25")]
    assert read == [
        *("WBF 12", "WBF 21", "Galore 2.3", "Galore 2.5", "Galore 5.2", "WBF 23", "WBF 25")
    ]
    assert [n for _, n in citations("WBF 3, 7 points")] == ["WBF 3"]
    assert [n for _, n in citations("Galore 2.7 says nothing of resigning")] == ["Galore 2.7"]
