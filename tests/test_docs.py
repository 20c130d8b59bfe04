"""The docs: no pointers outside the repository, links that resolve, a README snippet that runs."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Pointers to files that are not in the repository: the team's design notes
#: (their facts are in docs/design-notes.md) and the shared spec folder (the
#: specs ship as compoworld_gym/data/mcp_servers.jsonl). Built by joining, so
#: this file does not match itself.
OUTSIDE_POINTERS = re.compile("|".join([re.escape("DESIGN" + ".md"), re.escape("shared/" + "mcp-specs") + r"\b"]))
#: Documents whose links and backticked paths must exist.
DOCS = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", *sorted(p.relative_to(ROOT).as_posix()
                                                                for p in (ROOT / "docs").rglob("*.md"))]
#: Top-level folders a backticked repository path may start with.
REPO_DIRS = ("compoworld_gym", "envs", "wrappers", "baselines", "benchmarks", "tests", "docs")

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.M)


def _project_files() -> list[str]:
    """The repository's ``*.py`` and ``*.md`` files (tracked, or new and not ignored)."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", "*.py", "*.md"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return sorted({line for line in out.splitlines() if line and (ROOT / line).is_file()})


def _prose(path: str) -> str:
    """A markdown file without its fenced code blocks."""
    return FENCE.sub("", (ROOT / path).read_text(encoding="utf-8"))


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(h) for h in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8")))}


def test_no_pointers_to_files_outside_the_repository():
    hits = []
    for name in _project_files():
        if name == "tests/test_docs.py":
            continue
        for number, line in enumerate((ROOT / name).read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE_POINTERS.search(line):
                hits.append(f"{name}:{number}: {line.strip()}")
    assert not hits, ("point at docs/design-notes.md or compoworld_gym/data/mcp_servers.jsonl instead:\n"
                      + "\n".join(hits))


@pytest.mark.parametrize("doc", DOCS)
def test_relative_links_resolve(doc):
    """Every relative markdown link (and ``#anchor``) of the document exists."""
    base = (ROOT / doc).parent
    broken = []
    for target in LINK.findall(_prose(doc)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        path = (base / file_part).resolve() if file_part else ROOT / doc
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(target)
    assert not broken, f"{doc}: broken links {broken}"


@pytest.mark.parametrize("doc", DOCS)
def test_backticked_repository_paths_exist(doc):
    """Every backticked path such as ``compoworld_gym/rewards.py`` or ``docs/...`` exists."""
    missing = []
    for span in CODE_SPAN.findall(_prose(doc)):
        if not span.startswith(tuple(d + "/" for d in REPO_DIRS)) or re.search(r"[<>*{}\s…]|\.\.\.", span):
            continue  # not a repository path, or a pattern such as envs/services/<name>.py
        if not (ROOT / span).exists():
            missing.append(span)
    assert not missing, f"{doc}: paths that do not exist {missing}"


def test_readme_environment_snippet_scores_one():
    """The README's first ``python`` block runs as shown and prints reward 1.0."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^```python\n(.*?)^```", readme, re.S | re.M)
    assert match, "README.md has no ```python block"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(match.group(1), "README.md:python", "exec"), {"__name__": "readme_snippet"})
    lines = out.getvalue().splitlines()
    assert lines and float(lines[0]) == 1.0, out.getvalue()


def test_readme_adapter_examples_are_the_tested_blocks_of_their_guides():
    """Each guide's tests run its example; the README must show exactly those blocks."""
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text()
    section = readme.split("## Plug into RL libraries", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    guides = "\n".join(p.read_text() for p in sorted((root / "docs" / "integrations").glob("*.md")))
    assert len(blocks) == 4
    for block in blocks:
        assert f"```python\n{block}```" in guides, block[:80]
