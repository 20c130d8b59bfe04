"""Record kinds in 404/409 messages are real English words (``companies``, not ``companys``).

The messages come from ``Service.lookup`` (``"list or search <kinds>"``) and
from services that name a record kind themselves; an agent reads them to
recover, so a misspelt kind is a worse hint.
"""

from __future__ import annotations

import pytest
from _svc_asserts import error

from compoworld_gym.envs.services.crm import Crm
from compoworld_gym.envs.services.github import GitHub
from compoworld_gym.envs.services.ledger import Ledger
from compoworld_gym.envs.services.memory_graph import MemoryGraph

CASES = [
    (GitHub, "list_commits", {"owner": "nobody", "repo": "nothing"},
     "repository 'nobody/nothing' not found; list or search repositories to find valid ids."),
    (Ledger, "get_journal_entry", {"entry_id": "JE-9999"},
     "journal entry 'JE-9999' not found; list or search journal entries to find valid ids."),
    (MemoryGraph, "add_observations", {"observations": [{"entityName": "Nobody", "contents": ["x"]}]},
     "entity 'Nobody' not found; list or search entities to find valid ids."),
    (Crm, "crm_get_object", {"objectType": "companies", "objectId": "COMP-9999"},
     "company 'COMP-9999' not found; search companies to find valid ids."),
]


@pytest.mark.parametrize("cls, tool, args, message", CASES, ids=[c[1] for c in CASES])
def test_not_found_messages_spell_the_record_kind(make_service, cls, tool, args, message):
    err = error(make_service(cls), tool, args)
    assert err == {"code": 404, "message": message}


def test_crm_duplicate_message_names_the_kind_in_the_singular(make_service):
    crm = make_service(Crm)
    taken = crm.state.companies["COMP-0001"].domain
    err = error(crm, "crm_update_object", {"objectType": "companies", "objectId": "COMP-0002",
                                          "properties": {"domain": taken}})
    assert err == {"code": 409, "message": f"company COMP-0001 already has domain {taken!r}."}
