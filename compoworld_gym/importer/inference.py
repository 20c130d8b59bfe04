"""Inference from JSON Schema: entity types and typed record fields.

Imported services join the dependency graph (paper §2.2) through entity
types read off parameter names and formats (``email``, ``due_date``,
``format: uri``, ``projectId``...), always from the shared vocabulary of
:mod:`compoworld_gym.entities`. Record fields get pydantic types from the
same schemas, so every state update is type-checked.
"""

from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import Field

from compoworld_gym.entities import ENTITY_TYPES, ID_KINDS
from compoworld_gym.importer.names import singular, tokens

_FORMATS = {"email": "email", "idn-email": "email", "date": "date", "date-time": "datetime",
            "uri": "url", "url": "url", "iri": "url", "uri-reference": "url", "ipv4": "ip_address",
            "ipv6": "ip_address", "hostname": "domain"}
#: Single-token parameter names with an obvious value kind.
_WORDS = {"email": "email", "mail": "email", "phone": "phone", "mobile": "phone", "telephone": "phone",
          "url": "url", "uri": "url", "link": "url", "website": "url", "homepage": "url", "href": "url",
          "city": "city", "country": "country", "currency": "currency", "address": "address",
          "domain": "domain", "ip": "ip_address", "branch": "branch", "repo": "repo_name",
          "repository": "repo_name", "username": "username", "login": "username", "handle": "username",
          "path": "file_path", "filepath": "file_path", "sku": "sku", "iban": "iban",
          "company": "company", "organization": "company", "date": "date", "datetime": "datetime",
          "timestamp": "datetime", "amount": "money", "price": "money", "cost": "money"}
_PERSON_NAMES = {("full", "name"), ("contact", "name"), ("customer", "name"), ("author", "name"),
                 ("assignee", "name"), ("employee", "name"), ("person", "name"), ("user", "name")}
#: Words that name an id kind of the vocabulary under another name.
_ID_ALIASES = {"msg": "message", "repo": "repository", "pr": "pull_request", "doc": "file",
               "document": "file", "mail": "email_message", "email": "email_message",
               "thread": "email_thread", "org": "company", "organization": "company",
               "sheet": "spreadsheet", "cal": "calendar", "person": "contact", "people": "contact",
               "lead": "contact", "member": "user", "owner": "user", "assignee": "user",
               "author": "user", "creator": "user", "story": "issue", "todo": "task",
               "card": "task", "ticket": "ticket", "board": "project", "workspace": "project",
               "team": "channel", "chat": "channel", "conversation": "channel", "record": "row",
               "entry": "row", "item": "row", "video": "file", "image": "file", "photo": "file",
               "attachment": "file", "dir": "folder", "directory": "folder", "meeting": "event",
               "appointment": "event", "customer": "customer", "client": "customer", "bill": "invoice",
               "vendor": "vendor", "supplier": "vendor", "pipeline": "project", "playlist": "list",
               "note": "note", "memo": "note", "cell": "row", "sale": "order", "purchase": "order"}
_EMAIL_WORDS = frozenset({"to", "cc", "bcc", "recipient", "recipients", "sender", "from", "reply"})
_ID_KINDS = frozenset(ID_KINDS)


def id_kind(words: list[str]) -> Optional[str]:
    """The vocabulary id kind named by ``words`` (e.g. ``["pull", "requests"]`` → ``pull_request``)."""
    if not words:
        return None
    words = [*words[:-1], singular(words[-1])]
    for start in range(len(words)):
        joined = "_".join(words[start:])
        if joined in _ID_KINDS:
            return joined
    last = words[-1]
    alias = _ID_ALIASES.get(last)
    return alias if alias in _ID_KINDS else None


def _string_like(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(k in ("string", "integer", None) for k in kinds)


def infer_entity(name: str, schema: Any, *, collection_kind: Optional[str] = None,
                 context: frozenset[str] = frozenset()) -> Optional[str]:
    """The entity type of one parameter or field, or None.

    Args:
        name: the parameter name, any casing.
        schema: its JSON Schema (formats win over names).
        collection_kind: the id kind of the record this field belongs to, so a
            bare ``id`` becomes e.g. ``task_id``.
        context: tokens of the tool name (``to`` is an email only in mail tools).

    Returns:
        A member of :data:`compoworld_gym.entities.ENTITY_TYPES`, or None.
    """
    if not isinstance(schema, dict) or not _string_like(schema):
        return None
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _FORMATS:
        return _FORMATS[fmt]
    words = tokens(name)
    if not words:
        return None
    last = words[-1]
    if last in ("id", "ids", "uuid", "gid") or (last == "number" and len(words) > 1
                                                 and id_kind(words[:-1]) in ("issue", "pull_request")):
        kind = id_kind(words[:-1]) if len(words) > 1 else collection_kind
        return f"{kind}_id" if kind else None
    if schema.get("type") == "integer":
        return None
    if tuple(words[-2:]) in _PERSON_NAMES:
        return "person_name"
    if last in ("email", "emails", "mail") or words[-2:] == ["email", "address"]:
        return "email"
    if words[0] in _EMAIL_WORDS and len(words) <= 2 and context & {"email", "mail", "gmail", "outlook"}:
        return "email"
    if last in ("at", "time") and len(words) > 1 and words[-2] not in ("what", "response", "run"):
        return "datetime" if last == "at" else None
    if last in ("date", "day") or (len(words) > 1 and last == "on" and words[-2] in ("due", "created")):
        return "date"
    if last == "name" and len(words) > 1 and words[-2] in ("channel",):
        return "channel_name"
    if last == "name" and len(words) > 1 and words[-2] in ("user", "login"):
        return "username"
    if last == "name" and len(words) > 1 and words[-2] in ("repo", "repository"):
        return "repo_name"
    if last == "name" and len(words) > 1 and words[-2] in ("file",):
        return None
    found = _WORDS.get(last)
    if found == "money" and schema.get("type") not in ("number", "integer"):
        return None
    if found == "repo_name" and schema.get("type") not in (None, "string"):
        return None
    return found if found in ENTITY_TYPES else None


def tag_schema(schema: dict[str, Any], context: frozenset[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """A copy of an object schema with ``x-entity`` added to top-level properties.

    Arrays of tagged values get the tag on ``items`` (``to: [emails]``).

    Returns:
        ``(tagged schema, {parameter: entity type})``.
    """
    props = schema.get("properties")
    if not isinstance(props, dict):
        return schema, {}
    new_props: dict[str, Any] = {}
    consumes: dict[str, str] = {}
    for pname, prop in props.items():
        if not isinstance(prop, dict) or "x-entity" in prop:
            new_props[pname] = prop
            continue
        target = prop.get("items") if prop.get("type") == "array" and isinstance(prop.get("items"), dict) else prop
        tag = infer_entity(pname, target, context=context)
        if tag is None:
            new_props[pname] = prop
            continue
        consumes[pname] = tag
        if target is prop:
            new_props[pname] = {**prop, "x-entity": tag}
        else:
            new_props[pname] = {**prop, "items": {**target, "x-entity": tag}}
    return {**schema, "properties": new_props}, consumes


def _scalar(kind: Any) -> Any:
    return {"string": str, "integer": int, "number": float, "boolean": bool,
            "array": list, "object": dict[str, Any], "null": type(None)}.get(kind, Any)


def annotation_for(schema: Any, depth: int = 0) -> Any:
    """A Python type for values of a JSON Schema (lists and scalars are typed;
    objects stay ``dict``; anything unusual is ``Any``)."""
    if not isinstance(schema, dict) or depth > 3:
        return Any
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(v, (str, int, bool)) and v is not None for v in enum):
        return Literal[tuple(enum)]
    kind = schema.get("type")
    if isinstance(kind, list):
        members = tuple(_scalar(k) for k in kind if isinstance(k, str))
        if not members or Any in members:
            return Any
        return Union[members] if len(members) > 1 else members[0]
    if kind == "array":
        return list[annotation_for(schema.get("items"), depth + 1)]
    if kind == "number":
        return Union[int, float]  # JSON has one number type; 3 and 3.0 are both numbers
    return _scalar(kind) if kind is not None else Any


def field_for(name: str, schema: Any, *, required: bool, collection_kind: Optional[str]) -> tuple[Any, Any]:
    """A ``(annotation, FieldInfo)`` pair for a record field from its schema.

    The field is stored under its original name (the alias), whatever the
    Python attribute is called. Optional fields accept None.
    """
    ann = annotation_for(schema)
    tag = infer_entity(name, schema, collection_kind=collection_kind) if isinstance(schema, dict) else None
    desc = schema.get("description") if isinstance(schema, dict) else None
    extra = {"x-entity": tag} if tag else None
    kwargs: dict[str, Any] = {"description": desc if isinstance(desc, str) else None,
                              "json_schema_extra": extra, "alias": name}
    if not required:
        return Optional[ann], Field(default=None, **kwargs)
    return ann, Field(**kwargs)
