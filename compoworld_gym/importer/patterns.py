"""Resource-pattern detection: which imported tools the generic engine can run.

A tool follows the resource pattern when its name is a CRUD-like verb over a
collection noun (``create_task``, ``crm_get_company``, ``list_projects``,
``send_message``, ``task_delete``) and its schema fits the verb: an id
parameter for get/update/delete, no unknown required parameters, and for
list/search only parameters the engine understands (record fields,
parent ids, a text query, paging, sorting, projections). A collection is
only deterministic when some tool of the server creates its records
(create/add/send); everything else is simulated by the world model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from compoworld_gym.importer.names import identifier, singular, tokens

VERBS = {
    "create": "create", "add": "create", "new": "create", "insert": "create", "make": "create",
    "get": "get", "read": "get", "retrieve": "get", "show": "get", "view": "get", "fetch": "get",
    "describe": "get", "open": "get",
    "list": "list", "search": "search", "find": "search", "query": "search", "lookup": "search",
    "update": "update", "edit": "update", "modify": "update", "patch": "update", "rename": "update",
    "delete": "delete", "remove": "delete", "archive": "delete", "trash": "delete", "destroy": "delete",
    "send": "send", "post": "send",
}
CREATORS = frozenset({"create", "send"})
READERS = frozenset({"get", "list", "search"})
_PREPOSITIONS = frozenset({"to", "from", "in", "for", "by", "of", "with", "on", "into", "at", "as"})
_FILLER = frozenset({"all", "a", "an", "the", "my", "single", "one", "new", "existing"})
_TRAILING = frozenset({"details", "detail", "info", "information", "data", "content", "contents", "list", "by"})

LIMIT_WORDS = frozenset({"limit", "maxresults", "pagesize", "perpage", "top", "max", "numresults",
                         "maxcount", "maxitems", "size", "first", "count"})
OFFSET_WORDS = frozenset({"offset", "skip", "start", "startindex"})
PAGE_WORDS = frozenset({"page", "pagenumber", "pageno"})
CURSOR_WORDS = frozenset({"cursor", "after", "pagetoken", "nexttoken", "nextpagetoken", "startcursor"})
QUERY_WORDS = frozenset({"query", "q", "search", "keyword", "keywords", "term", "searchterm",
                         "searchquery", "text", "searchtext", "querystring"})
PROJECTION_WORDS = frozenset({"properties", "fields", "include", "expand", "select", "format",
                              "verbose", "associations", "propertieswithhistory"})
SORT_WORDS = frozenset({"sort", "sortby", "order", "orderby", "sortorder"})
DIRECTION_WORDS = frozenset({"direction", "sortdirection", "ascending", "desc"})


def squash(name: str) -> str:
    """A parameter name reduced to its lower-case letters and digits (``page_size`` → ``pagesize``)."""
    return "".join(tokens(name))


@dataclass(frozen=True)
class ToolShape:
    """What a tool name says: its verb and the collection it acts on.

    Attributes:
        verb: one of create, get, list, search, update, delete, send.
        collection: the singular collection noun as an identifier (``task_file``).
        noun: the collection's tokens (``["task", "file"]``).
        many: the name's noun was plural (``get_protocols`` reads many records).
    """

    verb: str
    collection: str
    noun: tuple[str, ...]
    many: bool = False


def shape_of(tool_name: str, verbs: Optional[dict[str, str]] = None) -> Optional[ToolShape]:
    """The (verb, collection) a tool name reads as, or None.

    Args:
        tool_name: the MCP tool name, any casing.
        verbs: ``{word: verb}`` to read verbs with (default :data:`VERBS`).

    Example:
        >>> shape_of("crm_search_companies").collection
        'company'
    """
    verbs = VERBS if verbs is None else verbs
    words = tokens(tool_name)
    if not words or {"batch", "bulk"} & set(words):
        return None
    idx = next((i for i, w in enumerate(words[:4]) if w in verbs), None)
    if idx is None:
        return None
    rest = words[idx + 1:]
    cut = next((i for i, w in enumerate(rest) if w in _PREPOSITIONS), len(rest))
    noun = [w for w in rest[:cut] if w not in _FILLER]
    while noun and noun[-1] in _TRAILING:
        noun.pop()
    if not noun and idx > 0:
        # Noun-first style: ``emails_get``, ``dataset_create``, ``superset_chart_get_by_id``,
        # ``drive_shared_drive_get`` (the first word of a longer prefix is the server's name).
        noun = words[1:idx] if idx >= 2 else words[:idx]
    elif idx == 3:
        return None  # ``a_b_c_verb_x``: too far in to be the verb of a resource name
    verb = verbs[words[idx]]
    if not noun or len(noun) > 3 or not all(w.isalpha() for w in noun):
        return None
    many = singular(noun[-1]) != noun[-1]
    noun = [*noun[:-1], singular(noun[-1])]
    return ToolShape(verb=verb, collection=identifier("_".join(noun)), noun=tuple(noun), many=many)


def id_param_for(noun: tuple[str, ...], schema: dict[str, Any]) -> Optional[str]:
    """The parameter of ``schema`` that holds the id of a ``noun`` record, or None.

    ``taskId``, ``task_id``, ``task_uuid``, ``taskUid``, ``issue_number`` or a bare ``id``
    (a JSON ``number`` id is taken as an integer id).
    """
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    suffixes = ("id", "uuid", "uid", "key", "number")
    wanted = [list(noun) + [suffix] for suffix in suffixes] + [[noun[-1], "id"], ["id"]]
    for want in wanted:
        for pname, prop in props.items():
            if tokens(pname) == want and isinstance(prop, dict) and prop.get("type") in ("string", "integer", "number"):
                if want[-1] == "number" and prop.get("type") != "integer":
                    continue
                return pname
    return None


@dataclass
class Collection:
    """A collection of records the engine keeps for one imported service.

    Attributes:
        name: singular noun (``task``); ``field`` is the state field (``tasks``).
        field: the state attribute holding ``{id: record}``.
        noun: the noun's tokens.
        properties: ``{field name: JSON Schema}`` of record fields.
        required: fields every created record has.
        integer_ids: ids are integers (the tools take an integer id).
        open: records may carry fields beyond ``properties``.
        creators: names of tools that add records.
        seeded: no tool creates the records: they are seeded, with fields
            inferred from the schemas of the tools that read and write them.
        singleton: the collection holds one record (a setting read by a
            parameterless getter and written by a setter).
        unique: tuples of fields whose values name one record (``("owner", "repo")``).
        journal: the session journal of reasoning tools: never seeded (see
            :mod:`~compoworld_gym.importer.journal`).
    """

    name: str
    field: str
    noun: tuple[str, ...]
    properties: dict[str, Any] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    integer_ids: bool = False
    open: bool = False
    creators: list[str] = field(default_factory=list)
    seeded: bool = False
    singleton: bool = False
    unique: list[tuple[str, ...]] = field(default_factory=list)
    journal: bool = False


@dataclass(frozen=True)
class ResourceOp:
    """A tool the engine runs: its verb, collection and parameter roles.

    Attributes:
        verb: create, get, list, search, update, delete, send, count, upsert
            or action.
        collection: the :class:`Collection` name.
        id_param: the parameter holding the record id (get/update/delete).
        parents: ``{parameter: parent collection}`` for ids of other collections.
        keys: parameters that name the record by field match when there is no
            id parameter (``("owner", "repo")``); empty with no ``id_param``
            on a singleton collection.
        status: the ``status`` an action verb sets (``close`` → ``closed``).
        target_field: the field a ``set_x``/``assign`` action writes.
        value_param: the parameter holding that field's new value.
        batch_of: for a batch tool, the single-record tool it repeats per
            item (see :mod:`~compoworld_gym.importer.batch`).
        items_param: for a batch tool, the array parameter of the items.
        function: for a pure function (verb ``function``), its key in
            :data:`compoworld_gym.importer.functions.FUNCTIONS`.
    """

    verb: str
    collection: str
    id_param: Optional[str] = None
    parents: dict[str, str] = field(default_factory=dict)
    keys: tuple[str, ...] = ()
    status: Optional[str] = None
    target_field: Optional[str] = None
    value_param: Optional[str] = None
    batch_of: Optional[str] = None
    items_param: Optional[str] = None
    function: Optional[str] = None


def parent_params(schema: dict[str, Any], collections: dict[str, Collection], own: str,
                  skip: Optional[str]) -> dict[str, str]:
    """Parameters that hold ids of *other* collections of the same server."""
    out: dict[str, str] = {}
    by_noun = {c.noun: c.name for c in collections.values()}
    for pname in schema.get("properties", {}):
        words = tokens(pname)
        if pname == skip or len(words) < 2 or words[-1] not in ("id", "uuid", "key"):
            continue
        noun = tuple([*words[:-2], singular(words[-2])])
        target = by_noun.get(noun)
        if target is not None and target != own:
            out[pname] = target
    return out


def understood_query_param(name: str, coll: Collection, parents: dict[str, str]) -> bool:
    """True when a list/search parameter has a meaning the engine implements."""
    if name in coll.properties or name in parents:
        return True
    word = squash(name)
    known = (LIMIT_WORDS | OFFSET_WORDS | PAGE_WORDS | CURSOR_WORDS | QUERY_WORDS | PROJECTION_WORDS
             | SORT_WORDS | DIRECTION_WORDS)
    return word in known or word.startswith("include")
