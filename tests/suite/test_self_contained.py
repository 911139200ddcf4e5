"""The repository stands on its own: nothing in it reads from, or sends a reader to, a
folder beside the checkout; the captures the tests use travel with their licence; the docs
the README and ``--help`` name exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", "out", "_artifacts", "__pycache__", ".hypothesis",
             ".pytest_cache", "build", "dist"}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".sh", ".json", ".glsl", ".cfg", ".ini", ""}
#: a path into the reference library that sits beside the development checkout
OUTSIDE = re.compile(r"\.\./" + r"shared|\bshared/(README|seeds|spec|contracts|data|style)")


def _files():
    for p in ROOT.rglob("*"):
        if any(part in SKIP_DIRS or part.endswith(".egg-info")
               for part in p.relative_to(ROOT).parts):
            continue
        if p.is_file() and p.suffix in TEXT_SUFFIXES and p.stat().st_size < 2_000_000:
            yield p


def _lines_matching(pattern: re.Pattern) -> list[str]:
    """``path:line: text`` of every line of the repository's text files that ``pattern``
    finds."""
    bad = []
    for p in _files():
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()}")
    return bad


def test_no_file_reads_or_points_outside_the_repository():
    bad = _lines_matching(OUTSIDE)
    assert not bad, "\n".join(bad)


#: a citation of a reference-library note by its name (the seeds' numbers, the spec and review
#: files): a reader of the repository cannot follow one; cite the retail function and address
#: or a section of docs/ instead
_NOTE_FILES = ("dat-" "format", "wire", "run" "time", "dat-" "review", "runtime-" "review")
NOTE_NAMES = re.compile(r"\bseed ?0\d\d\b|\bseed0\d\d|\b(" + "|".join(_NOTE_FILES) + r")\.md\b"
                        r"|\bruntime" r" spec\b|\bruntime-" r"review\b|\breview [IW]\d")


def test_no_comment_cites_a_note_a_reader_cannot_follow():
    bad = _lines_matching(NOTE_NAMES)
    assert not bad, "\n".join(bad)


def test_the_captures_travel_with_their_licence_and_attribution():
    caps = ROOT / "tests" / "data" / "captures"
    assert {p.name for p in caps.glob("*.pcap")} == {"effects-burst.pcap", "enter-world.pcap"}
    licence = (caps / "LICENSE").read_text()
    assert "MIT License" in licence and "Copyright (c) 2025 Bryce Mecum" in licence
    readme = (caps / "README.md").read_text()
    assert "amoeba/asheron-rs" in readme and "amoeba/gromnie" in readme


def test_readme_and_help_point_to_docs_that_exist():
    readme = (ROOT / "README.md").read_text()
    for doc in ("docs/cli.md", "docs/retail-rules.md"):
        assert doc in readme and (ROOT / doc).is_file()
    out = subprocess.run([sys.executable, "-m", "viewer", "--help"], capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0 and "docs/cli.md" in out.stdout


def test_cli_reference_has_every_contract_section():
    text = (ROOT / "docs" / "cli.md").read_text()
    heads = re.findall(r"^## (\d+)\. ", text, re.M)
    assert heads == [str(i) for i in range(1, 14)]


def test_retail_rules_index_is_generated_from_the_code_citations():
    """docs/retail-rules.md's index comes from the citations in viewer/
    (scripts/retail_rules_index.py): a citation in the code becomes a row naming the module
    that follows it, and the committed index lists the retail functions with addresses."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import retail_rules_index as idx
    finally:
        sys.path.pop(0)
    index = idx.render_index()
    assert "| `CPhysics::UseTime` | `0x00509950` |" in index and "`sim/clock.py`" in index
    assert "expected" not in index                      # constants are not functions
    text = (ROOT / "docs" / "retail-rules.md").read_text()
    listed = re.findall(r"^\| `[^`]+` \| `(0x[0-9A-F]{8})` \|", text, re.M)
    assert len(listed) > 200
    assert "Mag-nus/acclient-AI-RE" in text
