"""Records of the git_commands service: modelled git repositories.

A repository is a local clone at ``path`` with the remote ``origin`` at
``url``. Commits live in one object store (``GitState.commits``) keyed by
sha, each holding its whole tree (small text files); branch heads, tags and
the remote's branch heads point into it. The working tree is two overlays:
``staged`` (the index, over the HEAD commit's tree) and ``unstaged`` (the
working files, over the index); a value of None is a deleted file, and a
path in ``unstaged`` that is in neither HEAD nor the index is untracked.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, FilePath, Id, PersonName, RepoName, Url, entity
from compoworld_gym.service import Record, ServiceState

BranchName = Annotated[str, entity("branch")]
#: Hooks git knows (``.git/hooks/<name>``).
KNOWN_HOOKS = ("applypatch-msg", "commit-msg", "post-checkout", "post-commit", "post-merge", "post-rewrite",
               "pre-applypatch", "pre-commit", "pre-merge-commit", "pre-push", "pre-rebase", "prepare-commit-msg")
#: The line git-lfs writes into .gitattributes for a tracked pattern.
LFS_ATTRS = "filter=lfs diff=lfs merge=lfs -text"


class Commit(Record):
    """One commit: its parents, author, message and the full tree it records."""

    sha: Id("commit") = Field(description="40-hex commit id: a hash of tree, parents, author and message.")
    repo_path: FilePath = Field(description="Path of the repository the commit was made in.")
    parents: list[str] = Field(default_factory=list, description="Parent shas (two for a merge commit).")
    message: str = Field(description="Full commit message (first line is the subject).")
    author_name: PersonName = Field(description="Author's name.")
    author_email: Email = Field(description="Author's email.")
    authored_at: DateTime = Field(description="When it was committed.")
    tree: dict[str, str] = Field(default_factory=dict, description="File path -> file content at this commit.")


class Branch(Record):
    """A local branch."""

    name: BranchName = Field(description="Branch name, e.g. fix/checkout-api-timeouts.")
    head: Id("commit") = Field(description="Sha of the branch tip.")
    upstream: Optional[str] = Field(default=None, description="Tracked remote branch, e.g. origin/main.")


class Tag(Record):
    """A tag (annotated or lightweight)."""

    name: str = Field(description="Tag name, e.g. v1.4.0.")
    sha: Id("commit") = Field(description="Tagged commit.")
    annotated: bool = Field(description="Annotated tags carry a tagger and a message.")
    message: Optional[str] = Field(default=None, description="Tag message (annotated tags).")
    tagger_email: Optional[Email] = Field(default=None, description="Who tagged (annotated tags).")
    created_at: Optional[DateTime] = Field(default=None, description="When it was tagged (annotated tags).")


class StashEntry(Record):
    """One stash entry (``stash@{n}``)."""

    message: str = Field(description="Stash message.")
    branch: BranchName = Field(description="Branch it was saved on.")
    base: Id("commit") = Field(description="HEAD when it was saved.")
    staged: dict[str, Optional[str]] = Field(default_factory=dict, description="Saved index changes.")
    unstaged: dict[str, Optional[str]] = Field(default_factory=dict, description="Saved working-tree changes.")
    created_at: DateTime = Field(description="When it was saved.")


class Hook(Record):
    """A hook script in ``.git/hooks``."""

    name: str = Field(description="Hook name, e.g. commit-msg.")
    script: str = Field(description="The script text.")
    enabled: bool = Field(description="Executable (enabled) or not.")


class Archive(Record):
    """An archive written by git_archive."""

    output_path: FilePath = Field(description="Where it was written.")
    format: Literal["zip", "tar"] = Field(description="zip or tar.")
    treeish: str = Field(description="The tree-ish archived, as given.")
    sha: Id("commit") = Field(description="The commit archived.")
    prefix: Optional[str] = Field(default=None, description="Path prefix of the files in the archive.")
    files: list[str] = Field(default_factory=list, description="Paths in the archive.")
    created_at: DateTime = Field(description="When it was written.")


class Repository(Record):
    """A local clone and the state of its remote ``origin``."""

    path: FilePath = Field(description="Local path of the clone, e.g. /srv/repos/acme/checkout-api.")
    name: RepoName = Field(description="Repository name on the git host, org/name.")
    url: Url = Field(description="URL of the remote origin.")
    project: Id("project") = Field(description="The deployed service the repository builds (deploy project key).")
    default_branch: BranchName = Field(default="main", description="The remote's default branch.")
    head: BranchName = Field(description="The branch checked out.")
    branches: dict[str, Branch] = Field(default_factory=dict, description="Local branches by name.")
    remote_branches: dict[str, str] = Field(default_factory=dict, description="origin's branches: name -> sha.")
    tags: list[Tag] = Field(default_factory=list, description="Tags, oldest first.")
    staged: dict[str, Optional[str]] = Field(default_factory=dict, description="Index changes over HEAD.")
    unstaged: dict[str, Optional[str]] = Field(default_factory=dict, description="Working-tree changes over the "
                                                                                  "index (untracked files too).")
    stash: list[StashEntry] = Field(default_factory=list, description="Stash entries, stash@{0} first.")
    config: dict[str, str] = Field(default_factory=dict, description="Local (repository) git config.")
    hooks: dict[str, Hook] = Field(default_factory=dict, description="Hooks by name.")
    lfs_installed: bool = Field(default=False, description="Whether git-lfs is installed in the clone.")
    archives: list[Archive] = Field(default_factory=list, description="Archives written, oldest first.")


class GitState(ServiceState):
    """The modelled repositories, their shared object store and the global/system config."""

    repositories: dict[str, Repository] = Field(default_factory=dict, description="Repositories by local path.")
    commits: dict[str, Commit] = Field(default_factory=dict, description="Commits by sha.")
    global_config: dict[str, str] = Field(default_factory=dict, description="~/.gitconfig values.")
    system_config: dict[str, str] = Field(default_factory=dict, description="/etc/gitconfig values.")
