"""The tests-file and generation-hook drafts that go with a drafted service.

See :mod:`compoworld_gym.scaffold`. Both are starting points: the tests fail
until each tool is written and tested with real values; the hook is a
commented ``LINKS`` skeleton whose relays and actions are the importer's
guesses (records found by an id, writes that take entity-typed values).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compoworld_gym.importer.codegen import py_literal
from compoworld_gym.importer.inference import id_kind, infer_entity
from compoworld_gym.importer.names import tokens
from compoworld_gym.importer.patterns import shape_of

if TYPE_CHECKING:
    from compoworld_gym.scaffold import ServiceDraft, ToolDraft

_PLACEHOLDERS = {"integer": 1, "number": 1.5, "boolean": True, "array": [], "object": {}}


def placeholder(schema: dict[str, Any], tag: str | None) -> Any:
    """A value of the schema's type for a drafted test call (to be replaced by a real one)."""
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind
    if kind in _PLACEHOLDERS:
        return _PLACEHOLDERS[kind]
    return {"email": "ana.lopez@company.example", "date": "2026-01-15",
            "datetime": "2026-01-15T09:00:00Z"}.get(tag or "", "TODO")


def _tag(tool: ToolDraft, spec_name: str, schema: dict[str, Any]) -> str | None:
    return infer_entity(spec_name, schema, context=frozenset(tokens(tool.name)))


def tests_draft(draft: ServiceDraft) -> str:
    """``tests/services/test_<name>.py``: a fixture, a seed test and one test per tool."""
    lines = [f'"""Tests of the {draft.name} service (drafted by ``compoworld scaffold-service {draft.slug}``).',
             "",
             "TODO: for every tool, the happy path with real values, then each refusal (400/404/409/422)",
             "with the state unchanged (``code`` and ``error`` of _svc_asserts check that).",
             '"""', "", "from __future__ import annotations", "", "import pytest", "from _svc_asserts import ok",
             "", f"from compoworld_gym.envs.services.{draft.name} import {draft.class_name}", "", "",
             "@pytest.fixture", "def svc(make_service):", f"    return make_service({draft.class_name})", "", "",
             "def test_seed_state_is_valid(svc):",
             f"    assert {draft.class_name}.State.model_validate(svc.state_dict()) == svc.state",
             "    # TODO: assert the seeded records' real values (how many, one known record).",
             f'    assert svc.state_dict() != {draft.class_name}.State().model_dump(mode="json"), "no seeded records"']
    for t in draft.tools:
        args = {p.spec_name: placeholder(p.schema, _tag(t, p.spec_name, p.schema))
                for p in t.params if p.default is None}
        lines += ["", "", f"def test_{t.method}(svc):",
                  "    # TODO: seed what the call needs, then assert on the values it returns and stores.",
                  f"    ok(svc, {py_literal(t.name)}, {py_literal(args)})"]
    return "\n".join(lines) + "\n"


def _relays(draft: ServiceDraft) -> list[str]:
    out = []
    for tool, op in draft.plan.ops.items():
        if op.verb != "get" or op.id_param is None:
            continue
        coll = draft.plan.collections[op.collection]
        kind = id_kind(list(coll.noun))
        gives = [f'#                 Give("{tag}", "{f}", "the {" ".join(coll.noun)}\'s {f}"),'
                 for f, prop in coll.properties.items()
                 if (tag := infer_entity(f, prop, collection_kind=kind))]
        key = f"{kind}_id" if kind else "TODO_entity_type"
        out += [f'#         Relay(service="{draft.name}", name="{" ".join(coll.noun)}", key="{key}",',
                "#               gives=(",
                *(gives or ['#                 Give("TODO_entity_type", "TODO_field", "TODO"),']),
                "#               ),",
                f"#               plant=_plant_{coll.name},",
                f'#               find=lambda reader, key: reader.read("{draft.name}", "{tool}", {op.id_param}=key),',
                f'#               where="Each {" ".join(coll.noun)} in the {draft.name} tool ... (TODO)"),']
    return out


def _actions(draft: ServiceDraft) -> list[str]:
    out = []
    for t in draft.tools:
        shape = shape_of(t.name)
        if t.read_only or shape is None:
            continue
        needs = [f'Need("{p.spec_name}", "{tag}")' for p in t.params if (tag := _tag(t, p.spec_name, p.schema))]
        if not needs:
            continue
        first = next(p.spec_name for p in t.params if _tag(t, p.spec_name, p.schema))
        out += [f'#         Action(service="{draft.name}", name="{t.method}",',
                f'#                needs=({", ".join(needs)},),',
                f'#                build=_{t.method},',
                f'#                goal="TODO: e.g. {shape.verb} the {" ".join(shape.noun)} of {{{first}}}"),']
    return out


def hook_draft(draft: ServiceDraft) -> str:
    """``compoworld_gym/generation/hooks/<name>.py``: a commented ``LINKS`` skeleton.

    The generator ignores a hook module without ``LINKS``, so the draft is
    inert until its ``LINKS`` is written (see ``hooks/expenses.py`` for a whole one).
    """
    relays, actions = _relays(draft), _actions(draft)
    lines = [f'"""{draft.class_name} in chained tasks (drafted by ``compoworld scaffold-service {draft.slug}``).',
             "",
             "TODO: one paragraph on what its records relay (found by which value, giving which values)",
             "and which writes a task can ask for. Until ``LINKS`` is defined the generator skips it.",
             '"""', "", "from __future__ import annotations", "",
             "# from compoworld_gym.generation.links import Action, Give, Need, Relay, ServiceLinks", "",
             "# The relays guess records found by their id; the actions, writes taking entity-typed values.",
             "# Every Relay needs plant(ctx, key, outs, stale) and find(reader, key); every Action",
             "# build(reader, args) -> Write (see hooks/expenses.py).", "",
             "# LINKS = ServiceLinks(",
             f'#     service="{draft.name}", label="the {draft.name.replace("_", " ")} tool",',
             "#     relays=(", *(relays or ["#         # TODO: no tool reads a record by id"]), "#     ),",
             "#     actions=(", *(actions or ["#         # TODO: no write takes an entity-typed value"]), "#     ),",
             "# )"]
    return "\n".join(lines) + "\n"
