"""Tests of the contracts service."""

from __future__ import annotations

import datetime as dt

import pytest
from _svc_asserts import data, error, failed

from compoworld_gym.envs.services._accounts import ACCOUNTS
from compoworld_gym.envs.services.contracts import Contract, Contracts, notice_deadline

TODAY = dt.date(2026, 1, 15)
ME = "jamal.wright@company.example"


@pytest.fixture
def svc(make_service):
    return make_service(Contracts, seed=0)


def _active(svc, **want) -> Contract:
    return next(c for c in svc.state.contracts.values() if c.status == "active"
                and all(getattr(c, k) == v for k, v in want.items()))


def _set(svc, cid, **fields):
    """Move a seeded contract to a known position relative to today (for exact expectations)."""
    c = svc.state.contracts[cid]
    for k, v in fields.items():
        setattr(c, k, v)
    return c


def test_seed(make_service):
    a = make_service(Contracts, seed=6)
    assert a.state_dict() == make_service(Contracts, seed=6).state_dict()
    assert [c.company for c in a.state.customers.values()] == [x.company for x in ACCOUNTS]
    for c in a.state.contracts.values():
        if c.renewed_to:
            assert a.state.contracts[c.renewed_to].renewed_from == c.id and c.status == "renewed"
    assert len(Contracts.tools) == 11


def test_customer_reads(svc):
    rows = data(svc.call("list_customers", {"owner_email": ME}))
    assert [r["id"] for r in rows] == [a.id for a in ACCOUNTS if a.owner_email == ME]
    assert [r["company"] for r in data(svc.call("list_customers", {"query": "INITECH"}))] == ["Initech"]
    cust = data(svc.call("get_customer", {"customer_id": "CUS-0002"}))
    assert cust["contact_email"] == "samir.nagheenanajar@initech.example"
    assert {c["status"] for c in cust["contracts"]} >= {"draft"}
    failed(svc.call("get_customer", {"customer_id": "CUS-0999"}), 404)


def test_contract_views_and_search(svc):
    c = _set(svc, "CTR-0002", end_date=dt.date(2026, 3, 1), notice_period_days=30)
    view = data(svc.call("get_contract", {"contract_id": "CTR-0002"}))
    assert (view["notice_deadline"], view["days_until_notice_deadline"], view["days_until_end"]) == (
        "2026-01-30", 15, 45)
    assert view["notes"] == []
    rows = data(svc.call("search_contracts", {"ends_before": "2026-03-02", "status": "active"}))
    assert "CTR-0002" in {r["id"] for r in rows}
    assert [r["end_date"] for r in rows] == sorted(r["end_date"] for r in rows)
    assert all(r["company"] == c.company for r in data(svc.call("search_contracts", {"company": c.company.lower()})))
    assert all(not r["auto_renew"] for r in data(svc.call("search_contracts", {"auto_renew": False})))
    failed(svc.call("get_contract", {"contract_id": "CTR-0999"}), 404)


def test_upcoming_renewals(svc):
    _set(svc, "CTR-0002", end_date=dt.date(2026, 2, 10), notice_period_days=30, annual_value=1000.0,
         price_uplift_pct=5.0)
    rows = data(svc.call("list_upcoming_renewals", {"within_days": 30}))
    row = next(r for r in rows if r["id"] == "CTR-0002")
    assert (row["notice_deadline"], row["notice_deadline_passed"], row["renewal_value"]) == (
        "2026-01-11", True, 1050.0)
    expected = {c.id for c in svc.state.contracts.values()
                if c.status == "active" and TODAY <= c.end_date <= TODAY + dt.timedelta(days=30)}
    assert {r["id"] for r in rows} == expected
    assert [r["notice_deadline"] for r in rows] == sorted(r["notice_deadline"] for r in rows)


def test_create_and_activate(svc):
    failed(svc.call("create_contract", {"customer_id": "CUS-0003", "plan": "growth", "seats": 10, "annual_value": 100,
                                     "start_date": "2026-02-01", "end_date": "2026-01-01", "owner_email": ME}), 422)
    failed(svc.call("create_contract", {"customer_id": "CUS-0003", "plan": "platinum", "seats": 10, "annual_value": 1,
                                     "start_date": "2026-02-01", "end_date": "2027-01-31", "owner_email": ME}), 400)
    live = _active(svc, customer_id="CUS-0003")
    c = data(svc.call("create_contract", {"customer_id": "CUS-0003", "plan": "growth", "seats": 10,
                                        "annual_value": 5400.456, "start_date": str(TODAY),
                                        "end_date": str(TODAY + dt.timedelta(days=364)), "owner_email": ME}))
    assert (c["status"], c["annual_value"], c["company"], c["notice_deadline"]) == (
        "draft", 5400.46, "Umbrella Health", str(TODAY + dt.timedelta(days=364 - 60)))
    before = svc.state_dict()
    assert live.id in failed(svc.call("activate_contract", {"contract_id": c["id"]}), 409)  # overlaps the live term
    assert svc.state_dict() == before
    fresh = data(svc.call("create_contract", {"customer_id": "CUS-0003", "plan": "growth", "seats": 10,
                                            "annual_value": 1, "start_date": str(live.end_date + dt.timedelta(days=1)),
                                            "end_date": str(live.end_date + dt.timedelta(days=365)),
                                            "owner_email": ME}))
    assert data(svc.call("activate_contract", {"contract_id": fresh["id"]}))["status"] == "active"
    failed(svc.call("activate_contract", {"contract_id": fresh["id"]}), 409)


def test_renew(svc):
    _set(svc, "CTR-0002", start_date=dt.date(2025, 3, 1), end_date=dt.date(2026, 2, 28), annual_value=10000.0,
         price_uplift_pct=5.0)
    new = data(svc.call("renew_contract", {"contract_id": "CTR-0002", "actor_email": ME}))
    assert (new["start_date"], new["end_date"], new["annual_value"], new["renewed_from"]) == (
        "2026-03-01", "2027-02-28", 10500.0, "CTR-0002")
    assert svc.state.contracts["CTR-0002"].status == "renewed"
    assert svc.state.contracts["CTR-0002"].renewed_to == new["id"]
    failed(svc.call("renew_contract", {"contract_id": "CTR-0002", "actor_email": ME}), 409)
    two = data(svc.call("renew_contract", {"contract_id": new["id"], "actor_email": ME, "annual_value": 9000,
                                         "term_months": 24}))
    assert (two["start_date"], two["end_date"], two["annual_value"]) == ("2027-03-01", "2029-02-28", 9000.0)


def test_cancellation_notice_rules(svc):
    c = _set(svc, "CTR-0002", end_date=dt.date(2026, 3, 1), notice_period_days=60, auto_renew=True)
    assert notice_deadline(c) == dt.date(2025, 12, 31)
    before = svc.state_dict()
    msg = failed(svc.call("record_cancellation_notice", {"contract_id": "CTR-0002", "received_on": "2026-01-10",
                                                      "reason": "budget"}), 409)
    assert "2025-12-31" in msg and svc.state_dict() == before
    failed(svc.call("record_cancellation_notice", {"contract_id": "CTR-0002", "received_on": "2026-02-01",
                                                "reason": "x"}), 422)
    done = data(svc.call("record_cancellation_notice", {"contract_id": "CTR-0002", "received_on": "2025-12-31",
                                                      "reason": "budget"}))
    assert (done["status"], done["cancellation_notice_on"]) == ("notice_given", "2025-12-31")
    failed(svc.call("renew_contract", {"contract_id": "CTR-0002", "actor_email": ME}), 409)
    no_auto = _set(svc, _active(svc).id, auto_renew=False, end_date=dt.date(2026, 2, 1), notice_period_days=60)
    late = data(svc.call("record_cancellation_notice", {"contract_id": no_auto.id, "received_on": "2026-01-15",
                                                      "reason": "moving on"}))
    assert late["status"] == "notice_given"


def test_update_and_notes(svc):
    _set(svc, "CTR-0002", end_date=dt.date(2026, 2, 1), notice_period_days=30, auto_renew=True)
    failed(svc.call("update_contract", {"contract_id": "CTR-0002", "auto_renew": False}), 409)  # deadline 2026-01-02
    up = data(svc.call("update_contract", {"contract_id": "CTR-0002", "seats": 30, "annual_value": 12345.678,
                                         "owner_email": "hannah.kovacs@company.example"}))
    assert (up["seats"], up["annual_value"], up["owner_email"]) == (30, 12345.68, "hannah.kovacs@company.example")
    failed(svc.call("update_contract", {"contract_id": "CTR-0002"}), 400)
    note = data(svc.call("add_contract_note", {"contract_id": "CTR-0002", "author_email": ME,
                                             "body": "Customer asked for a discount"}))
    assert (note["contract_id"], note["created_at"]) == ("CTR-0002", "2026-01-15T09:00:00")
    assert data(svc.call("get_contract", {"contract_id": "CTR-0002"}))["notes"][0]["body"] == \
        "Customer asked for a discount"
    failed(svc.call("add_contract_note", {"contract_id": "CTR-0404", "author_email": ME, "body": "x"}), 404)


@pytest.mark.parametrize("value", [1e308, "inf", 1_000_000_000.01])
def test_out_of_range_annual_values_are_a_400_naming_annual_value(svc, value):

    new = {"customer_id": "CUS-0003", "plan": "growth", "seats": 10, "annual_value": value,
           "start_date": "2027-01-01", "end_date": "2027-12-31", "owner_email": ME}
    for tool, args in (("create_contract", new),
                       ("update_contract", {"contract_id": "CTR-0002", "annual_value": value}),
                       ("renew_contract", {"contract_id": "CTR-0002", "actor_email": ME, "annual_value": value})):
        e = error(svc, tool, args)
        assert e["code"] == 400 and "'annual_value'" in e["message"]
    e = error(svc, "update_contract", {"contract_id": "CTR-0002", "seats": 10**30})
    assert e["code"] == 400 and "'seats'" in e["message"]


def test_annual_values_round_half_up_like_every_money_field(svc):
    out = data(svc.call("update_contract", {"contract_id": "CTR-0002", "annual_value": 1000.125}))
    assert out["annual_value"] == 1000.13  # half-up; round() gives 1000.12 (half to even)


def test_a_renewal_past_the_last_date_is_a_422(svc):

    _set(svc, "CTR-0002", start_date=dt.date(9999, 1, 1), end_date=dt.date(9999, 12, 31))
    e = error(svc, "renew_contract", {"contract_id": "CTR-0002", "actor_email": ME})
    assert e["code"] == 422 and "9999-12-31" in e["message"]
