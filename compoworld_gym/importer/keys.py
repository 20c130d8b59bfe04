"""Parameter roles: which parameters name a record, which are filters, which
the engine may ignore.

Many servers address records by a name rather than an id:
``get_user(username)``, ``get_repo(owner, repo)``, ``read_file(path)``,
``get-index(indexUid)``. A *key parameter* is a required scalar whose
name ends in an identifying word (:data:`KEY_WORDS`); the engine resolves
it by matching the record field of the same name. Credentials
(``access_token``, ``apiKey``) only authenticate a real call and are ignored.
"""

from __future__ import annotations

from typing import Any

from compoworld_gym.importer.names import tokens
from compoworld_gym.importer.patterns import (
    CURSOR_WORDS,
    DIRECTION_WORDS,
    LIMIT_WORDS,
    OFFSET_WORDS,
    PAGE_WORDS,
    PROJECTION_WORDS,
    QUERY_WORDS,
    SORT_WORDS,
    squash,
)

#: Last name tokens of parameters that identify one record.
KEY_WORDS = frozenset({
    "id", "uuid", "uid", "gid", "key", "name", "title", "slug", "username", "login", "handle", "path",
    "filename", "file", "hash", "sha", "address", "code", "symbol", "number", "email", "owner", "repo",
    "repository", "label", "identifier", "ref", "tag", "domain", "alias", "hostname", "branch", "mint",
    "signature", "isbn", "doi", "sku", "table", "collection", "index", "database", "schema", "topic",
    "channel", "user", "project", "dataset", "model", "category", "type", "kind", "group", "team", "org",
    "organization", "workspace", "space", "bucket", "queue", "namespace", "cluster", "region", "chain",
    "network", "protocol", "account", "wallet", "player", "summoner", "game", "server", "site", "page",
    "folder", "directory", "dir", "note", "tags", "ids", "names", "version", "language", "lang", "locale",
    "session", "jid", "pubkey", "npub", "instance", "app", "environment", "env", "service", "bot", "guild",
})
#: Squashed names of credential parameters (they authenticate a real call; no state holds them).
AUTH_WORDS = frozenset({"apikey", "apisecret", "secret", "accesstoken", "token", "apitoken", "authtoken",
                        "bearertoken", "secretkey", "privatekey", "credentials", "auth", "apikeyid"})
#: Fields a boolean search flag may scope the text query to (``title: true``: search the titles).
SCOPE_WORDS = frozenset({"name", "title", "label", "subject", "summary", "content", "text", "body",
                         "description"})
_PAGING = LIMIT_WORDS | OFFSET_WORDS | PAGE_WORDS | CURSOR_WORDS | SORT_WORDS | DIRECTION_WORDS
_SCALARS = frozenset({"string", "integer", "number", "boolean"})


def is_auth(name: str) -> bool:
    """True for a credential parameter (``apiKey``, ``access_token``)."""
    return squash(name) in AUTH_WORDS


def is_control(name: str) -> bool:
    """True for paging, sorting, a text query or a projection: never a record field."""
    word = squash(name)
    return word in _PAGING or word in QUERY_WORDS or word in PROJECTION_WORDS or word.startswith("include")


def is_scope_flag(name: str, schema: Any) -> bool:
    """True for a boolean that limits a search's text query to one field (``title: true``)."""
    return isinstance(schema, dict) and schema.get("type") == "boolean" and name in SCOPE_WORDS


def is_scalar(schema: Any) -> bool:
    """True when values of ``schema`` are single strings, numbers or booleans (enums included)."""
    if not isinstance(schema, dict):
        return False
    options = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(options, list) and options:
        return all(is_scalar(o) or (isinstance(o, dict) and o.get("type") == "null") for o in options)
    kind = schema.get("type")
    if kind is None:
        return "properties" not in schema and "items" not in schema
    kinds = kind if isinstance(kind, list) else [kind]
    return any(k in _SCALARS for k in kinds) and not any(k in ("object", "array") for k in kinds)


def is_key(name: str, schema: Any) -> bool:
    """True when a parameter names a record: a string/integer whose last name token identifies.

    Example:
        >>> is_key("username", {"type": "string"}), is_key("limit", {"type": "integer"})
        (True, False)
    """
    words = tokens(name)
    if not words or is_auth(name) or is_control(name) or not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    return words[-1] in KEY_WORDS and kind in ("string", "integer", None) and "enum" not in schema


def record_fields(schema: dict[str, Any], skip: set[str]) -> dict[str, Any]:
    """The parameters of ``schema`` that are record fields: everything but
    credentials, controls and the names in ``skip``."""
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    return {k: v for k, v in props.items()
            if k not in skip and k != "id" and isinstance(v, dict) and not is_auth(k) and not is_control(k)}
