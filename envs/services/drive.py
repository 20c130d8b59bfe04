"""Drive: files and folders with text content, sharing and comments.

Follows the Google Drive MCP server ``@rishipradeep-think41_google-drive-mcp``
(19 of its 44 tools, same names; where the spec gives parameters, the same
names, types, enums and required sets). Tools whose spec publishes no
parameters (rename, star, restore, move, copy, permission list/update/delete,
comment list) take the Drive API's parameter names (``fileId``, ``name``,
``permissionId``, ``role``, ``parents``). Left out: change feeds, versions,
locks, shortcuts, domain/anyone permissions, comment replies, shared drives,
storage quota, batch metadata and empty-trash. ``drive_search`` understands
the Drive query language subset ``name``/``fullText``/``mimeType``
comparisons, ``'ID' in parents``, ``'EMAIL' in owners|writers|readers``,
``trashed``/``starred`` and ``modifiedTime``, joined by ``and``.
"""

from __future__ import annotations

import base64
import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Email, Id
from compoworld_gym.envs.services import _drive_seed as seed
from compoworld_gym.envs.services._blocks import offset_page
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services._drive_models import DriveComment, DriveFile, DriveState, Permission, file_meta
from compoworld_gym.envs.services._drive_seed import FOLDER
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


def _page(items: list, token: Optional[str], size: int) -> dict:
    files, nxt = offset_page(items, token, size)
    return {"files": files, "nextPageToken": nxt}


class Drive(Service):
    """File storage: folders, text files, search, sharing and comments."""

    name = "drive"
    description = "Google-Drive-like file storage: folders, documents, search, sharing permissions and comments."
    domain = "productivity"
    spec_source = "@rishipradeep-think41_google-drive-mcp"
    State = DriveState

    # --------------------------------------------------------------- helpers
    def _file(self, file_id: str, *, writable: bool = False) -> DriveFile:
        f = self.lookup(self.state.files, file_id, "file")
        if writable and f.trashed:
            raise Conflict(f"file {file_id} is in the trash; restore it with drive_restore first.")
        return f

    def _folder(self, folder_id: str) -> DriveFile:
        f = self._file(folder_id)
        if f.mimeType != FOLDER:
            raise InvalidArgument(f"{folder_id} is a file, not a folder.")
        return f

    def _text_file(self, file_id: str) -> DriveFile:
        f = self._file(file_id, writable=True)
        if f.mimeType == FOLDER:
            raise InvalidArgument(f"{file_id} is a folder; folders have no content.")
        return f

    def _touch(self, f: DriveFile) -> None:
        f.modifiedTime = self.now()

    def _new(self, name: str, mime: str, parents: list[str], content: str = "") -> DriveFile:
        for p in parents:
            self._folder(p)
        when = self.now()
        fid = self.new_id("file")
        f = DriveFile(id=fid, name=name, mimeType=mime, parents=parents or ["root"], owner=OPS_EMAIL, content=content,
                      createdTime=when, modifiedTime=when,
                      permissions=[Permission(id=self.new_id("perm"), type="user", role="owner", emailAddress=OPS_EMAIL)])
        self.state.files[fid] = f
        return f

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=DriveFile)
    def drive_file_metadata(self, fileId: Id("file")) -> dict:  # noqa: N803
        """Get a file's metadata (name, type, parents, owner, times, size, starred, trashed).

        Args:
            fileId: ID of the file.
        """
        return file_meta(self._file(fileId))

    @tool(read_only=True, returns=list[DriveFile])
    def drive_folder_children(self, folderId: Id("folder"), pageToken: Optional[str] = None,  # noqa: N803
                              pageSize: int = Field(default=50, ge=1, le=200)) -> dict:  # noqa: N803
        """List the (non-trashed) contents of a folder, folders first, then by name.

        Args:
            folderId: ID of the folder ('root' for My Drive).
            pageToken: token for the next page.
            pageSize: number of results to return.
        """
        self._folder(folderId)
        kids = sorted((f for f in self.state.files.values() if folderId in f.parents and not f.trashed),
                      key=lambda f: (f.mimeType != FOLDER, f.name.lower()))
        return _page([file_meta(f) for f in kids], pageToken, pageSize)

    @tool(read_only=True, returns=list[DriveFile])
    def drive_search(self, query: str, pageToken: Optional[str] = None,  # noqa: N803
                     pageSize: int = Field(default=50, ge=1, le=200)) -> dict:  # noqa: N803
        """Search files with the Drive query language, e.g. "name contains 'budget' and trashed = false".

        A query without operators is a full-text search. Trashed files are skipped unless the
        query mentions trashed.

        Args:
            query: Drive query string.
            pageToken: pagination token.
            pageSize: number of items to return.
        """
        preds = seed.parse_query(query)
        if not any(p[0] == "trashed" for p in preds):
            preds.append(("trashed", "=", False))
        hits = [f for f in self.state.files.values() if f.id != "root" and all(seed.holds(f, p) for p in preds)]
        hits.sort(key=lambda f: (f.modifiedTime, f.id), reverse=True)
        return _page([file_meta(f) for f in hits], pageToken, pageSize)

    @tool(read_only=True)
    def drive_file_content(self, fileId: Id("file")) -> dict:  # noqa: N803
        """Get the text content of a file.

        Args:
            fileId: ID of the file.
        """
        f = self._file(fileId)
        if f.mimeType == FOLDER:
            raise InvalidArgument(f"{fileId} is a folder; list it with drive_folder_children.")
        return {"id": f.id, "name": f.name, "mimeType": f.mimeType, "content": f.content}

    @tool(read_only=True, returns=list[Permission])
    def drive_permissions_list(self, fileId: Id("file")) -> list[dict]:  # noqa: N803
        """List who has access to a file or folder.

        Args:
            fileId: ID of the file or folder.
        """
        return [p.model_dump() for p in self._file(fileId).permissions]

    @tool(read_only=True, returns=list[DriveComment])
    def drive_file_list_comments(self, fileId: Id("file")) -> list[dict]:  # noqa: N803
        """List the comments on a file, oldest first.

        Args:
            fileId: ID of the file.
        """
        return [c.model_dump() for c in self._file(fileId).comments]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=DriveFile)
    def drive_create(self, name: str = Field(min_length=1, max_length=255), mimeType: str = Field(min_length=3),  # noqa: N803
                     parents: list[Id("folder")] = Field(default_factory=list)) -> dict:
        """Create an empty file or a folder (mimeType application/vnd.google-apps.folder).

        Args:
            name: name of the file or folder.
            mimeType: MIME type, e.g. text/plain, application/vnd.google-apps.document.
            parents: parent folder IDs (default: My Drive).
        """
        return file_meta(self._new(name, mimeType, list(dict.fromkeys(parents))))

    @tool(read_only=False, destructive=True, returns=DriveFile)
    def drive_upload(self, data: str, fileId: Optional[Id("file")] = None,  # noqa: N803
                     mimeType: str = "text/plain") -> dict:  # noqa: N803
        """Upload content: replace an existing file's content, or create 'Untitled' if no fileId.

        Args:
            data: base64-encoded UTF-8 text.
            fileId: ID of the file to update.
            mimeType: MIME type of the data (for a new file).
        """
        try:
            text = base64.b64decode(data, validate=True).decode("utf-8")
        except ValueError:  # binascii.Error, UnicodeDecodeError, and non-ASCII text given as data
            raise InvalidArgument("invalid argument 'data': expected base64-encoded UTF-8 text "
                                  "(ASCII A-Z a-z 0-9 + / with = padding, e.g. 'aGVsbG8=' for 'hello').") from None
        if fileId is None:
            return file_meta(self._new("Untitled", mimeType, [], text))
        f = self._text_file(fileId)
        f.content = text
        self._touch(f)
        return file_meta(f)

    @tool(read_only=False, returns=DriveFile)
    def drive_append_text(self, fileId: Id("file"), text: str = Field(min_length=1)) -> dict:  # noqa: N803
        """Append plain text to the end of a file.

        Args:
            fileId: ID of the file.
            text: text to append.
        """
        f = self._text_file(fileId)
        f.content += text
        self._touch(f)
        return file_meta(f)

    @tool(read_only=False, destructive=True)
    def drive_delete(self, fileId: Id("file"), permanent: bool = False) -> dict:  # noqa: N803
        """Move a file or folder (with its contents) to the trash, or delete it permanently.

        Args:
            fileId: ID of the file.
            permanent: delete forever instead of trashing.
        """
        if fileId == "root":
            raise Unprocessable("My Drive (root) cannot be deleted.")
        self._file(fileId)
        ids = seed.subtree(self.state.files, fileId)
        for i in ids:
            if permanent:
                del self.state.files[i]
            else:
                self.state.files[i].trashed = True
        return {"fileId": fileId, "permanent": permanent, "affected": len(ids)}

    @tool(read_only=False, returns=DriveFile)
    def drive_restore(self, fileId: Id("file")) -> dict:  # noqa: N803
        """Restore a trashed file or folder (with its contents) from the trash.

        Args:
            fileId: ID of the trashed file.
        """
        f = self._file(fileId)
        if not f.trashed:
            raise Conflict(f"file {fileId} is not in the trash.")
        for i in seed.subtree(self.state.files, fileId):
            self.state.files[i].trashed = False
        return file_meta(f)

    @tool(read_only=False, returns=Permission)
    def drive_share(self, fileId: Id("file"), role: Literal["reader", "commenter", "writer"],  # noqa: N803
                    type: Literal["user", "group", "domain", "anyone"],  # noqa: A002 - spec name
                    emailAddress: Optional[Email] = None) -> dict:  # noqa: N803
        """Share a file: grant a role to a user or group (by email) or to anyone with the link.

        Sharing again with the same grantee changes its role.

        Args:
            fileId: ID of the file to share.
            role: reader, commenter or writer.
            type: user, group or anyone ('domain' is not enabled for this drive).
            emailAddress: email to share with (user and group).
        """
        f = self._file(fileId, writable=True)
        if type == "domain":
            raise Unprocessable("domain-wide sharing is disabled for this drive; share with users or groups.")
        if (type == "anyone") == (emailAddress is not None):
            raise InvalidArgument("give emailAddress for type user/group, and none for type anyone.")
        email = emailAddress.lower() if emailAddress else None
        for p in f.permissions:
            if p.type == type and p.emailAddress == email:
                if p.role == "owner":
                    raise Conflict(f"{email} owns {fileId}; the owner's role cannot change.")
                p.role = role
                return p.model_dump()
        perm = Permission(id=self.new_id("perm"), type=type, role=role, emailAddress=email)
        f.permissions.append(perm)
        return perm.model_dump()

    def _permission(self, f: DriveFile, permission_id: str) -> Permission:
        for p in f.permissions:
            if p.id == permission_id:
                if p.role == "owner":
                    raise Conflict("the owner's permission cannot be changed or removed.")
                return p
        raise NotFound(f"permission {permission_id!r} not found on {f.id}; call drive_permissions_list.")

    @tool(read_only=False, returns=Permission)
    def drive_permission_update(self, fileId: Id("file"), permissionId: str,  # noqa: N803
                                role: Literal["reader", "commenter", "writer"]) -> dict:
        """Change the role of an existing permission.

        Args:
            fileId: ID of the file or folder.
            permissionId: the permission to change (from drive_permissions_list).
            role: new role.
        """
        p = self._permission(self._file(fileId, writable=True), permissionId)
        p.role = role
        return p.model_dump()

    @tool(read_only=False, destructive=True)
    def drive_permission_delete(self, fileId: Id("file"), permissionId: str) -> dict:  # noqa: N803
        """Remove someone's access to a file or folder.

        Args:
            fileId: ID of the file or folder.
            permissionId: the permission to remove.
        """
        f = self._file(fileId, writable=True)
        p = self._permission(f, permissionId)
        f.permissions.remove(p)
        return {"fileId": fileId, "removed": p.model_dump()}

    @tool(read_only=False, returns=DriveComment)
    def drive_comment(self, fileId: Id("file"), content: str = Field(min_length=1)) -> dict:  # noqa: N803
        """Add a comment to a file.

        Args:
            fileId: ID of the file.
            content: the comment text.
        """
        f = self._file(fileId, writable=True)
        c = DriveComment(id=self.new_id("cmt"), author=OPS_EMAIL, content=content, createdTime=self.now())
        f.comments.append(c)
        return c.model_dump()

    @tool(read_only=False, returns=DriveFile)
    def drive_rename(self, fileId: Id("file"), name: str = Field(min_length=1, max_length=255)) -> dict:  # noqa: N803
        """Rename a file or folder.

        Args:
            fileId: ID of the file or folder.
            name: the new name.
        """
        f = self._file(fileId, writable=True)
        f.name = name
        self._touch(f)
        return file_meta(f)

    @tool(read_only=False, idempotent=True, returns=DriveFile)
    def drive_star(self, fileId: Id("file"), starred: bool = True) -> dict:  # noqa: N803
        """Star or unstar a file or folder.

        Args:
            fileId: ID of the file or folder.
            starred: true to star, false to unstar.
        """
        f = self._file(fileId)
        f.starred = starred
        return file_meta(f)

    @tool(read_only=False, returns=DriveFile)
    def drive_file_move(self, fileId: Id("file"), parents: list[Id("folder")] = Field(min_length=1)) -> dict:  # noqa: N803
        """Move a file or folder: its parent folders become exactly ``parents``.

        Args:
            fileId: ID of the file or folder.
            parents: the new parent folder IDs.
        """
        f = self._file(fileId, writable=True)
        inside = seed.subtree(self.state.files, fileId)
        for p in parents:
            self._folder(p)
            if p in inside:
                raise Unprocessable(f"cannot move {fileId} into {p}: a folder cannot go inside itself.")
        f.parents = list(dict.fromkeys(parents))
        return file_meta(f)

    @tool(read_only=False, returns=DriveFile)
    def drive_copy(self, fileId: Id("file"), name: Optional[str] = None,  # noqa: N803
                   parents: list[Id("folder")] = Field(default_factory=list)) -> dict:
        """Copy a file (not a folder); the copy is owned by you and not shared.

        Args:
            fileId: ID of the file to copy.
            name: name of the copy (default 'Copy of <name>').
            parents: folders of the copy (default: same as the original).
        """
        f = self._text_file(fileId)
        return file_meta(self._new(name or f"Copy of {f.name}", f.mimeType, list(parents) or list(f.parents), f.content))

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> DriveState:
        return DriveState.model_validate(seed.build_state(rng, today))
