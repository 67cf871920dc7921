"""The manuals' command-line examples run as printed, as the README's do.

Every ``$ reelsmith ...`` line of the code blocks of each ``docs/*.md`` runs by bash, in order,
in a fresh temporary folder of its own per document, with ``reelsmith`` the command line of
this checkout, and must print what the document shows under it, by the README test's rules
(:mod:`tests.packaging.test_docs_examples`: the declared variable parts masked, ``...`` for any
lines, the first-use compile announcement not part of the output). A command the document
shows no output for must succeed.

Not run here, each for its reason: a synopsis (a command with ``[optional]`` parts), and the
examples :data:`ELSEWHERE` names. The slow ones (tuning, simulations of millions of rounds)
run in the slow suite; a refusal of theirs is instant and runs here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.packaging.test_docs_examples import ROOT, SLOW, Example, examples, run_in_order

DOCS = ROOT / "docs"


@dataclass(frozen=True)
class Elsewhere:
    """Examples not run here: the commands starting ``command`` (and, if given, whose printed
    output starts with ``printed``), for ``reason``."""

    command: str
    reason: str
    printed: str = ""

    def covers(self, example: Example) -> bool:
        if not example.command.startswith(self.command):
            return False
        return not self.printed or bool(
            example.printed and example.printed[0].startswith(self.printed)
        )


SERVER = "starts a server: test_server_examples.py starts the guide's and runs its curl lines"
EXTRAS = "its output depends on the extras installed (the wheel smoke checks the refusal)"
TEST_TITLE = (
    "a title of the test suite, written by tests/mechanics/*_title.py: "
    "tests/analysis/test_exact_tuning.py runs the command on it"
)
ELSEWHERE: dict[str, list[Elsewhere]] = {
    "math-lab.md": [
        Elsewhere("reelsmith analyze days-of-the-tsar --report par-96.00.html", EXTRAS),
        Elsewhere(
            "reelsmith simulate days-of-the-tsar --spins 1_000_000_000 --cluster", "a Ray cluster"
        ),
        Elsewhere("reelsmith tune tumble_ways", TEST_TITLE),
        Elsewhere("reelsmith tune moded", TEST_TITLE),
    ],
    "model-format.md": [
        Elsewhere("reelsmith analyze my_title --report", EXTRAS),
        Elsewhere("reelsmith play", "an interactive session"),
        Elsewhere(
            "reelsmith validate my_title",
            "the errors of a model edited as the text describes (tests/modelio test each)",
            printed="my_title/model.toml:",
        ),
    ],
    "operator-guide.md": [
        Elsewhere("reelsmith analyze days-of-the-tsar --report", EXTRAS),
        Elsewhere("reelsmith serve --port 8000", SERVER),
        Elsewhere(
            "reelsmith serve --titles ./my-titles",
            "test_server_examples.py starts it over folders it makes as the guide describes",
        ),
        Elsewhere(
            "reelsmith serve --titles /srv/",
            "test_server_examples.py runs it with /srv a temporary folder",
        ),
        Elsewhere("reelsmith serve --host 0.0.0.0", "workers over the reader's PostgreSQL host"),
        Elsewhere(
            "reelsmith audit verify",
            "the README's session's database: test_readme.py runs it and checks the guide's",
        ),
        Elsewhere(
            "reelsmith report monitor",
            "reads the database of a server session (tests/server/test_reports.py runs it)",
        ),
    ],
}
#: Paths of this checkout the examples of a document name, copied into its folder.
FILES = {"plugins.md": ("tests/catalogue/models/lucky-fox",)}


def synopsis(example: Example) -> bool:
    return " [" in example.command


def chosen_examples(doc: Path, slow: bool) -> list[Example]:
    chosen = []
    skipped = ELSEWHERE.get(doc.name, [])
    for example in examples(doc.read_text(encoding="utf-8")):
        if not example.command.startswith("reelsmith ") or synopsis(example):
            continue
        if any(rule.covers(example) for rule in skipped):
            continue
        refusal = any(line.startswith("error: ") for line in example.printed)
        if not slow and example.command.startswith(SLOW) and not refusal:
            continue
        chosen.append(example)
    return chosen


MANUALS = [doc for doc in sorted(DOCS.glob("*.md")) if chosen_examples(doc, slow=True)]


def test_the_manuals_with_examples_are_found() -> None:
    names = {doc.name for doc in MANUALS}
    assert {"math-lab.md", "model-format.md", "operator-guide.md", "plugins.md"} <= names


@pytest.mark.parametrize("doc", MANUALS, ids=lambda doc: doc.name)
def test_the_manual_command_line_examples_run_as_printed(doc: Path, tmp_path: Path) -> None:
    run_in_order(tmp_path, chosen_examples(doc, slow=False), FILES.get(doc.name, ()))


@pytest.mark.slow
@pytest.mark.parametrize("doc", MANUALS, ids=lambda doc: doc.name)
def test_the_manual_command_line_examples_run_as_printed_with_the_slow_ones(
    doc: Path, tmp_path: Path
) -> None:
    run_in_order(tmp_path, chosen_examples(doc, slow=True), FILES.get(doc.name, ()))
