"""Typed state of the ``drive`` service: files and folders (one record kind,
folders by MIME type) with their permissions and comments."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Email, Id
from compoworld_gym.service import Record, ServiceState

Role = Literal["owner", "writer", "commenter", "reader"]


class Permission(Record):
    """Who may access a file, and how."""

    id: str = Field(description="Permission id, e.g. perm-0003.")
    type: Literal["user", "group", "anyone"] = Field(description="Grantee kind.")
    role: Role = Field(description="Access level.")
    emailAddress: Optional[Email] = Field(default=None, description="Grantee email (user/group).")  # noqa: N815


class DriveComment(Record):
    """A comment on a file."""

    id: str = Field(description="Comment id.")
    author: Email = Field(description="Author email.")
    content: str = Field(description="Comment text.")
    createdTime: DateTime = Field(description="When it was posted.")  # noqa: N815


class DriveFile(Record):
    """A file or folder (folders have the folder MIME type and no content)."""

    id: Id("file") = Field(description="File id, e.g. file-0007 (folders too).")
    name: str = Field(min_length=1, description="File name.")
    mimeType: str = Field(description="MIME type.")  # noqa: N815
    parents: list[Id("folder")] = Field(default_factory=list, description="Parent folder ids ('root' = My Drive).")
    owner: Email = Field(description="Owner email.")
    content: str = Field(default="", description="Text content (empty for folders).")
    createdTime: DateTime = Field(description="Creation time.")  # noqa: N815
    modifiedTime: DateTime = Field(description="Last content or name change.")  # noqa: N815
    starred: bool = Field(default=False, description="Starred by the user.")
    trashed: bool = Field(default=False, description="In the trash.")
    permissions: list[Permission] = Field(default_factory=list, description="Access grants (owner first).")
    comments: list[DriveComment] = Field(default_factory=list, description="Comments, oldest first.")


class DriveState(ServiceState):
    """All files and folders; the root folder has id 'root'."""

    files: dict[str, DriveFile] = Field(default_factory=dict, description="Files and folders by id.")


def file_meta(f: DriveFile) -> dict:
    """A file's metadata as tools show it: no content, comments or permissions; size and a view link added."""
    out = f.model_dump(exclude={"content", "comments", "permissions"})
    out["size"] = len(f.content.encode())
    out["webViewLink"] = f"https://drive.example.com/file/d/{f.id}/view"
    return out
