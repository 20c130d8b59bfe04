"""Tests of the crm service (@shinzo-labs_hubspot-mcp subset)."""

from __future__ import annotations

import pytest
from _svc_asserts import data, error, failed

from compoworld_gym.entities import entities_in_schema
from compoworld_gym.envs.services.crm import Crm

HANNAH = "hannah.kovacs@company.example"


def f(prop, op, value=None):
    flt = {"propertyName": prop, "operator": op}
    if value is not None:
        flt["value"] = value
    return flt


def assoc(target, type_id):
    return {"to": {"id": target}, "types": [{"associationCategory": "HUBSPOT_DEFINED", "associationTypeId": type_id}]}


@pytest.fixture
def crm(make_service):
    return make_service(Crm)


def test_seed_shape(crm, make_service):
    assert make_service(Crm).state_dict() == crm.state_dict()
    st = crm.state
    assert (len(st.companies), len(st.contacts), len(st.deals), len(st.notes)) == (8, 14, 6, 4)
    assert len(st.associations) == 2 * (14 + 12 + 4)
    for c in st.contacts.values():  # each contact's owner is its company's owner
        comp = next(a.to_id for a in st.associations.values() if a.from_id == c.id and a.to_type == "companies")
        assert st.companies[comp].owner_email == c.owner_email and c.email.endswith(st.companies[comp].domain)
    assert max(c.annualrevenue for c in st.companies.values()) >= 6_000_000


def test_search_companies(crm):
    vip = data(crm.call("crm_search_companies", {"filterGroups": [{"filters": [
        f("annualrevenue", "GTE", 1000000), f("lifecyclestage", "EQ", "customer")]}],
        "properties": ["name", "annualrevenue", "owner_email"]}))
    assert vip["total"] == 2 and [r["id"] for r in vip["results"]] == ["COMP-0003", "COMP-0004"]
    assert vip["results"][1]["properties"] == {"name": "Powell LLC", "annualrevenue": 6000000.0, "owner_email": HANNAH}
    either = data(crm.call("crm_search_companies", {"filterGroups": [
        {"filters": [f("name", "CONTAINS_TOKEN", "davis")]}, {"filters": [f("city", "NOT_HAS_PROPERTY")]}]}))
    assert [r["id"] for r in either["results"]] == ["COMP-0008"]
    ordered = data(crm.call("crm_search_companies", {"filterGroups": [], "limit": 3,
                                                   "sorts": [{"propertyName": "annualrevenue",
                                                              "direction": "DESCENDING"}]}))
    assert [r["id"] for r in ordered["results"]] == ["COMP-0004", "COMP-0003", "COMP-0008"]
    assert ordered["paging"] == {"next": {"after": "3"}} and ordered["total"] == 8
    nxt = data(crm.call("crm_search_companies", {"filterGroups": [], "after": "6"}))
    assert len(nxt["results"]) == 2 and nxt["paging"] is None
    assert "unknown property" in failed(crm.call("crm_search_companies", {"filterGroups": [
        {"filters": [f("revenue", "GT", 1)]}]}), 400)
    failed(crm.call("crm_search_companies", {"filterGroups": [{"filters": [f("name", "LIKE", "x")]}]}), 400)
    failed(crm.call("crm_search_companies", {"filterGroups": [], "after": "page2"}), 400)
    failed(crm.call("crm_search_companies", {}), 400)


def test_search_and_get_contacts(crm):
    hit = data(crm.call("crm_search_contacts", {"filterGroups": [{"filters": [
        f("email", "EQ", "ADAM.PORTER@powell4.example")]}]}))
    assert [r["id"] for r in hit["results"]] == ["CON-0004"]
    assert hit["results"][0]["properties"]["owner_email"] == HANNAH
    owned = data(crm.call("crm_search_contacts", {"filterGroups": [{"filters": [
        f("owner_email", "IN", [HANNAH]), f("lastname", "BETWEEN", ["A", "C"])]}], "limit": 100}))
    assert [r["id"] for r in owned["results"]] == ["CON-0001", "CON-0002", "CON-0010", "CON-0012"]
    got = data(crm.call("crm_get_contact", {"contactId": "CON-0001", "properties": ["email"],
                                          "associations": ["companies", "notes"]}))
    assert got["properties"] == {"email": "eric.benson@pena1.example"}
    assert got["associations"]["companies"]["results"] == [{"id": "COMP-0001", "type": "contact_to_company"}]
    assert got["associations"]["notes"]["results"] == [{"id": "NOTE-0004", "type": "contact_to_note"}]
    failed(crm.call("crm_get_contact", {"contactId": "CON-0404"}), 404)
    failed(crm.call("crm_get_contact", {"contactId": "CON-0001", "associations": ["widgets"]}), 400)


def test_create_contact(crm, today):
    c = data(crm.call("crm_create_contact", {"properties": {"email": "new.person@pena1.example", "firstname": "New",
                                                          "lifecyclestage": "lead", "owner_email": HANNAH},
                                           "associations": [assoc("COMP-0001", 279)]}))
    assert c["id"] == "CON-0015" and c["properties"]["lifecyclestage"] == "lead"
    assert c["createdAt"] == f"{today.isoformat()}T09:00:00"
    assert crm.state.associations["companies:COMP-0001->contacts:CON-0015"].type_ids == [280]
    before = crm.state_dict()
    dup = {"properties": {"email": "Eric.Benson@pena1.example"}}
    assert "CON-0001" in failed(crm.call("crm_create_contact", dup), 409)
    failed(crm.call("crm_create_contact", {"properties": {"firstname": "NoEmail"}}), 400)
    failed(crm.call("crm_create_contact", {"properties": {"email": "x@y.example", "owner_email": "boss@else.example"}}),
        400)
    failed(crm.call("crm_create_contact", {"properties": {"email": "x@y.example", "shoe_size": 9}}), 400)
    failed(crm.call("crm_create_contact", {"properties": {"email": "x@y.example"},
                                        "associations": [assoc("COMP-0404", 279)]}), 404)
    failed(crm.call("crm_create_contact", {"properties": {"email": "x@y.example"},
                                        "associations": [assoc("COMP-0001", 3)]}), 400)
    assert crm.state_dict() == before


def test_update_contact_and_company(crm):
    c = data(crm.call("crm_update_contact", {"contactId": "CON-0003", "properties": {"lifecyclestage": "evangelist",
                                                                                   "phone": "+1-555-0100"}}))
    assert c["properties"]["lifecyclestage"] == "evangelist" and crm.state.contacts["CON-0003"].phone == "+1-555-0100"
    assert c["updatedAt"].endswith("T09:00:00")
    comp = data(crm.call("crm_update_company", {"companyId": "COMP-0007", "properties": {"lifecyclestage": "customer",
                                                                                       "owner_email": HANNAH}}))
    assert comp["properties"]["owner_email"] == HANNAH and crm.state.companies["COMP-0007"].lifecyclestage == "customer"
    before = crm.state_dict()
    failed(crm.call("crm_update_contact", {"contactId": "CON-0003", "properties": {}}), 400)
    failed(crm.call("crm_update_contact", {"contactId": "CON-0003", "properties": {"email": None}}), 400)
    failed(crm.call("crm_update_contact", {"contactId": "CON-0003", "properties": {"email": "eric.benson@pena1.example"}}),
        409)
    failed(crm.call("crm_update_company", {"companyId": "COMP-0404", "properties": {"industry": "x"}}), 404)
    failed(crm.call("crm_update_company", {"companyId": "COMP-0001", "properties": {"domain": "davis8.example"}}), 409)
    failed(crm.call("crm_update_company", {"companyId": "COMP-0001", "properties": {"lifecyclestage": "vip"}}), 400)
    assert crm.state_dict() == before


def test_create_and_get_company(crm):
    comp = data(crm.call("crm_create_company", {"properties": {"name": "Acme Corp", "domain": "acme.example",
                                                             "annualrevenue": 2000000}}))
    assert comp["id"] == "COMP-0009" and comp["properties"]["annualrevenue"] == 2000000.0
    got = data(crm.call("crm_get_company", {"companyId": "COMP-0004", "associations": ["contacts", "deals"]}))
    assert [r["id"] for r in got["associations"]["contacts"]["results"]] == ["CON-0004", "CON-0012"]
    assert got["associations"]["deals"]["results"] == []
    failed(crm.call("crm_create_company", {"properties": {"domain": "x.example"}}), 400)
    failed(crm.call("crm_get_company", {"companyId": "CON-0001"}), 404)


def test_generic_objects_and_deals(crm):
    listed = data(crm.call("crm_list_objects", {"objectType": "deals", "properties": ["dealstage"], "limit": 4}))
    assert [r["properties"]["dealstage"] for r in listed["results"]] == [
        "qualifiedtobuy", "presentationscheduled", "contractsent", "decisionmakerboughtin"]
    assert listed["paging"] == {"next": {"after": "4"}}
    assert data(crm.call("crm_list_objects", {"objectType": "deals", "archived": True}))["results"] == []
    deal = data(crm.call("crm_create_object", {"objectType": "deals", "properties": {
        "dealname": "Powell LLC - Escalation credit", "amount": 500, "closedate": "2026-02-01"},
        "associations": [assoc("COMP-0004", 341), assoc("CON-0004", 3)]}))
    assert deal["id"] == "DEAL-0007" and deal["properties"]["dealstage"] == "appointmentscheduled"
    moved = data(crm.call("crm_update_object", {"objectType": "deals", "objectId": "DEAL-0003",
                                              "properties": {"dealstage": "closedwon"}}))
    assert moved["properties"]["dealstage"] == "closedwon"
    found = data(crm.call("crm_search_objects", {"objectType": "deals", "filterGroups": [{"filters": [
        f("dealstage", "EQ", "closedwon")]}]}))
    assert [r["id"] for r in found["results"]] == ["DEAL-0003", "DEAL-0005"]
    assert data(crm.call("crm_get_object", {"objectType": "deals", "objectId": "DEAL-0007",
                                          "associations": ["companies"]}))["associations"]["companies"]["results"][0][
        "id"] == "COMP-0004"
    before = crm.state_dict()
    failed(crm.call("crm_update_object", {"objectType": "deals", "objectId": "DEAL-0003",
                                       "properties": {"dealstage": "won"}}), 400)
    failed(crm.call("crm_update_object", {"objectType": "deals", "objectId": "DEAL-0003",
                                       "properties": {"dealstage": None}}), 400)
    failed(crm.call("crm_create_object", {"objectType": "tickets", "properties": {}}), 400)
    failed(crm.call("crm_get_object", {"objectType": "deals", "objectId": "DEAL-0404"}), 404)
    assert crm.state_dict() == before


def test_associations(crm):
    got = data(crm.call("crm_get_associations", {"fromObjectType": "companies", "toObjectType": "contacts",
                                               "fromObjectId": "COMP-0001"}))
    assert [r["toObjectId"] for r in got["results"]] == ["CON-0001", "CON-0009"]
    assert got["results"][0]["associationTypes"] == [{"category": "HUBSPOT_DEFINED", "typeId": 2, "label": "Primary"}]
    made = data(crm.call("crm_create_association", {
        "fromObjectType": "contacts", "toObjectType": "deals", "fromObjectId": "CON-0001", "toObjectId": "DEAL-0001",
        "associationTypes": [{"associationCategory": "HUBSPOT_DEFINED", "associationTypeId": 4}]}))
    assert made["results"] == [{"toObjectId": "DEAL-0001", "associationTypes": [
        {"category": "HUBSPOT_DEFINED", "typeId": 4, "label": None}]}]
    assert crm.state.associations["deals:DEAL-0001->contacts:CON-0001"].type_ids == [3]
    before = crm.state_dict()
    failed(crm.call("crm_create_association", {
        "fromObjectType": "contacts", "toObjectType": "deals", "fromObjectId": "CON-0001", "toObjectId": "DEAL-0404",
        "associationTypes": [{"associationCategory": "HUBSPOT_DEFINED", "associationTypeId": 4}]}), 404)
    failed(crm.call("crm_create_association", {
        "fromObjectType": "contacts", "toObjectType": "deals", "fromObjectId": "CON-0001", "toObjectId": "DEAL-0001",
        "associationTypes": [{"associationCategory": "HUBSPOT_DEFINED", "associationTypeId": 279}]}), 400)
    failed(crm.call("crm_get_associations", {"fromObjectType": "companies", "toObjectType": "contacts",
                                          "fromObjectId": "COMP-0404"}), 404)
    assert crm.state_dict() == before


def test_notes(crm, today):
    note = data(crm.call("notes_create", {"properties": {"hs_note_body": "Escalation call held; credit offered."},
                                        "associations": [assoc("CON-0004", 202)]}))
    assert note["id"] == "NOTE-0005" and note["properties"]["hs_timestamp"] == f"{today.isoformat()}T09:00:00"
    assert note["associations"]["contacts"]["results"] == [{"id": "CON-0004", "type": "note_to_contact"}]
    assert crm.state.associations["contacts:CON-0004->notes:NOTE-0005"].type_ids == [201]
    listed = data(crm.call("notes_list", {"limit": 2, "associations": ["contacts"]}))
    assert [n["id"] for n in listed["results"]] == ["NOTE-0005", "NOTE-0004"]
    assert listed["results"][1]["associations"]["contacts"]["results"][0]["id"] == "CON-0001"
    got = data(crm.call("notes_get", {"noteId": "NOTE-0002", "properties": ["hs_note_body"]}))
    assert got["properties"] == {"hs_note_body": "Escalation call held; customer unhappy with shipping delays."}
    before = crm.state_dict()
    failed(crm.call("notes_create", {"properties": {"hs_timestamp": "2026-01-15T10:00:00"}}), 400)
    failed(crm.call("notes_create", {"properties": {"hs_note_body": "x"}, "associations": [assoc("CON-0404", 202)]}), 404)
    failed(crm.call("notes_create", {"properties": {"hs_note_body": "x"}, "associations": [assoc("CON-0001", 279)]}), 400)
    failed(crm.call("notes_get", {"noteId": "NOTE-0404"}), 404)
    assert crm.state_dict() == before


@pytest.mark.parametrize("props, where", [({"annualrevenue": 1e308}, "annualrevenue"),
                                          ({"annualrevenue": "inf"}, "annualrevenue"),
                                          ({"numberofemployees": 10**30}, "numberofemployees")])
def test_out_of_range_company_numbers_are_a_400_naming_the_property(crm, props, where):

    e = error(crm, "crm_create_company", {"properties": {"name": "Acme Corp", **props}})
    assert e["code"] == 400 and f"properties.{where}" in e["message"]
    e = error(crm, "crm_update_company", {"companyId": "COMP-0003", "properties": props})
    assert e["code"] == 400 and f"properties.{where}" in e["message"]


def test_company_revenue_is_rounded_to_cents(crm):
    comp = data(crm.call("crm_create_company", {"properties": {"name": "Acme Corp", "annualrevenue": 1250000.125}}))
    assert comp["properties"]["annualrevenue"] == 1250000.13


OBJECT_IDS = {"crm_get_associations": ("fromObjectId",), "crm_create_association": ("fromObjectId", "toObjectId"),
              "crm_get_object": ("objectId",), "crm_update_object": ("objectId",)}


@pytest.mark.parametrize("tool", sorted(OBJECT_IDS))
def test_generic_object_ids_carry_the_record_id_entity_types(tool):
    # Untagged, these drew free strings: 2/300 fuzzed crm_get_associations calls found a record.
    props = Crm.tools[tool].input_schema["properties"]
    for param in OBJECT_IDS[tool]:
        assert entities_in_schema(props[param]) == {"company_id", "contact_id", "deal_id"}, param
        assert {b["type"] for b in props[param]["anyOf"]} == {"string"}


def test_association_targets_carry_the_record_id_entity_types():
    target = Crm.tools["crm_create_contact"].input_schema["properties"]["associations"]["items"]["properties"]["to"]
    assert entities_in_schema(target["properties"]["id"]) == {"company_id", "contact_id", "deal_id"}


def test_generic_object_id_still_validates_as_one_string(crm):
    got = data(crm.call("crm_get_associations", {"fromObjectType": "companies", "toObjectType": "contacts",
                                               "fromObjectId": "COMP-0001"}))
    assert got["results"]
    msg = failed(crm.call("crm_get_object", {"objectType": "deals", "objectId": 7}), 400)
    assert msg == ("invalid argument 'objectId': Input should be a valid string; expected a string (company id) "
                   "or a string (contact id) or a string (deal id), got 7.")
