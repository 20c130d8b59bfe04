"""GitHub's issue search syntax, as far as the ``github`` service reads it:
qualifiers ``repo:``, ``is:``, ``state:``, ``label:``, ``assignee:``,
``author:`` plus free words that must appear in the title or body."""

from __future__ import annotations

from compoworld_gym.envs.services._github_models import Issue, PullRequest

#: The qualifiers search_issues understands; any other ``key:value`` is a free word.
QUALIFIERS = ("repo", "is", "label", "assignee", "author", "state")


def parse_search(q: str) -> tuple[dict[str, list[str]], list[str]]:
    """``({qualifier: [values]}, [free words])`` of a query, all lower-cased."""
    quals: dict[str, list[str]] = {}
    words: list[str] = []
    for tok in q.split():
        k, sep, v = tok.partition(":")
        if sep and k.lower() in QUALIFIERS:
            quals.setdefault(k.lower(), []).append(v.lower())
        else:
            words.append(tok.lower())
    return quals, words


def search_match(x: Issue | PullRequest, is_pr: bool, quals: dict[str, list[str]], words: list[str]) -> bool:
    """Whether issue or pull request ``x`` meets every qualifier value and contains every word."""
    checks = {
        "repo": lambda v: x.repo.lower() == v,
        "is": lambda v: {"issue": not is_pr, "pr": is_pr, "open": x.state == "open", "closed": x.state == "closed",
                         "merged": is_pr and x.merged}.get(v, False),
        "state": lambda v: x.state == v,
        "label": lambda v: v in [lb.lower() for lb in getattr(x, "labels", [])],
        "assignee": lambda v: v in getattr(x, "assignees", []),
        "author": lambda v: x.user.lower() == v,
    }
    if not all(checks[k](v) for k, vs in quals.items() for v in vs):
        return False
    text = f"{x.title} {x.body}".lower()
    return all(w in text for w in words)
