"""Business rules of the Meta Ads service (see ``meta_ads.py``): ids, money, budgets, targeting, statuses, insights.

The rules are Meta's: a campaign has one objective (it cannot change) and a
daily *or* a lifetime budget, not both (400); a campaign budget (Advantage
campaign budget) means its ad sets carry none, otherwise each ad set needs
its own (422); budgets are at least $1.00 a day (422); a lifetime budget
needs an end time (422); special ad categories (housing, employment,
credit) forbid narrowing age below 18-65 (422); a spend cap cannot be below
what was already spent (422); ARCHIVED objects can only be deleted and
DELETED is final (409); nothing is created in a disabled account (409, in
the service); an ad's creative must belong to its account.

Pure functions: each checks rules on records of ``_meta_ads_models`` and
raises the tool's error when one is broken.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from compoworld_gym.envs.services._meta_ads_models import ID_BASE, Ad, AdAccount, Campaign, MetaAdsState, Targeting
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Service


def next_object_id(counters: dict[str, int]) -> str:
    """The next Meta object id (one sequence for every object type)."""
    n = counters.get("object", 1)
    counters["object"] = n + 1
    return str(ID_BASE + n)


def set_given(obj: Any, **fields: Any) -> None:
    """Set each of ``fields`` on ``obj`` whose value is not None (an update's given fields), in order."""
    for key, value in fields.items():
        if value is not None:
            setattr(obj, key, value)


def cents(value: Optional[str], what: str) -> Optional[int]:
    """A cents string argument as an int (None stays None).

    Raises:
        InvalidArgument: 400 when ``value`` is not all digits; ``what`` names the argument.
    """
    if value is None:
        return None
    if not value.isdigit():
        raise InvalidArgument(f"{what} must be a whole number of cents as a string, e.g. '5000' for $50.00.")
    return int(value)


def check_live(obj: Any, what: str) -> None:
    """Refuse changing an ARCHIVED or DELETED object (campaign, ad set or ad; ``what`` names its kind).

    Raises:
        Conflict: 409.
    """
    if obj.status in ("ARCHIVED", "DELETED"):
        raise Conflict(f"{what} {obj.id} is {obj.status}; it can no longer be changed (only deleted).")


def account(state: MetaAdsState, account_id: str, *, writable: bool = False) -> AdAccount:
    """The ad account ``account_id``; with ``writable``, one that is active (things may be created in it).

    Raises:
        NotFound: 404 for an unknown account.
        Conflict: 409 for a disabled account when ``writable``.
    """
    acct = Service.lookup(state.accounts, account_id, "ad account")
    if writable and acct.account_status != 1:
        raise Conflict(f"ad account {account_id} is disabled; nothing can be created in it.")
    return acct


def apply_status(obj: Any, status: Optional[str], what: str) -> None:
    """An update's status change (see :func:`change_status`); without one, ``obj`` must still be live.

    Raises:
        Conflict: 409 from :func:`change_status` or :func:`check_live`.
    """
    change_status(obj, status, what)
    if status is None:
        check_live(obj, what)


def change_status(obj: Any, status: Optional[str], what: str) -> None:
    """Set ``obj.status`` to ``status`` (None or the same status: nothing); ARCHIVED may only become DELETED.

    Raises:
        Conflict: 409 from DELETED, or from ARCHIVED to anything but DELETED.
    """
    if status is None or status == obj.status:
        return
    if obj.status == "DELETED" or (obj.status == "ARCHIVED" and status != "DELETED"):
        raise Conflict(f"{what} {obj.id} is {obj.status}; it can only be deleted.")
    obj.status = status


def check_budget(daily: Optional[int], lifetime: Optional[int]) -> None:
    """A daily or a lifetime budget (cents), not both, each at least 100 cents.

    Raises:
        InvalidArgument: 400 for both.
        Unprocessable: 422 for one under $1.00.
    """
    if daily is not None and lifetime is not None:
        raise InvalidArgument("give a daily_budget or a lifetime_budget, not both.")
    if daily is not None and daily < 100:
        raise Unprocessable("the daily budget must be at least 100 cents ($1.00).")
    if lifetime is not None and lifetime < 100:
        raise Unprocessable("the lifetime budget must be at least 100 cents ($1.00).")


def has_campaign_budget(c: Campaign) -> bool:
    """Whether the campaign carries the budget (Advantage campaign budget) rather than its ad sets."""
    return c.daily_budget is not None or c.lifetime_budget is not None


def check_targeting(t: Targeting, categories: list[str]) -> None:
    """An audience needs countries and a sane age range; special ad categories need ages 18-65.

    Raises:
        Unprocessable: 422 for no countries or a narrowed age with a special category.
        InvalidArgument: 400 for age_min above age_max.
    """
    if not t.geo_locations.get("countries"):
        raise Unprocessable("targeting needs geo_locations.countries.")
    if t.age_min > t.age_max:
        raise InvalidArgument("targeting age_min is above age_max.")
    if set(categories) - {"NONE"} and (t.age_min != 18 or t.age_max != 65):
        raise Unprocessable("campaigns with special ad categories must target ages 18-65.")


def new_campaign_money(daily_budget: Optional[str], lifetime_budget: Optional[str], cbo: bool, bid_strategy: str,
                       bid_cap: Optional[str], spend_cap: Optional[str]) -> tuple[Optional[int], Optional[int],
                                                                                 Optional[int]]:
    """A new campaign's ``(daily budget, lifetime budget, spend cap)`` in cents, from the cents-string arguments.

    Raises:
        InvalidArgument: 400 for a malformed amount, both budgets, or ``cbo`` (campaign budget
            optimization) without a budget.
        Unprocessable: 422 for an amount under $1.00, or a bid-cap strategy without ``bid_cap``.
    """
    daily, life = cents(daily_budget, "daily_budget"), cents(lifetime_budget, "lifetime_budget")
    check_budget(daily, life)
    if cbo and daily is None and life is None:
        raise InvalidArgument("campaign_budget_optimization needs a daily_budget or lifetime_budget.")
    if bid_strategy == "LOWEST_COST_WITH_BID_CAP" and bid_cap is None:
        raise Unprocessable("LOWEST_COST_WITH_BID_CAP needs bid_cap.")
    cap = cents(spend_cap, "spend_cap")
    if cap is not None and cap < 100:
        raise Unprocessable("spend_cap must be at least 100 cents.")
    return daily, life, cap


def change_campaign_money(c: Campaign, objective: Optional[str], daily_budget: Optional[str],
                          lifetime_budget: Optional[str], cbo: Optional[bool],
                          spend_cap: Optional[str]) -> Optional[int]:
    """Check a campaign update's objective and money; set the new budget on ``c``; return the new spend cap (cents).

    A new daily budget replaces a lifetime one and the other way round.

    Raises:
        Unprocessable: 422 for a changed objective, a budget on an ad-set-budget campaign, turning the
            campaign budget off (``cbo`` False), or a spend cap below what was spent (or $1.00).
        InvalidArgument: 400 for a malformed amount or both budgets.
    """
    if objective is not None and objective != c.objective:
        raise Unprocessable(f"a campaign's objective cannot change (it is {c.objective}).")
    daily, life = cents(daily_budget, "daily_budget"), cents(lifetime_budget, "lifetime_budget")
    check_budget(daily, life)
    if (daily is not None or life is not None or cbo) and not has_campaign_budget(c):
        raise Unprocessable("this campaign budgets at ad set level; change the ad sets' budgets instead.")
    if cbo is False and has_campaign_budget(c):
        raise Unprocessable("the campaign has a campaign budget; it cannot be turned off here.")
    if daily is not None:
        c.daily_budget, c.lifetime_budget = daily, None
    if life is not None:
        c.lifetime_budget, c.daily_budget = life, None
    cap = cents(spend_cap, "spend_cap")
    if cap is not None and cap < max(100, c.amount_spent):
        raise Unprocessable(f"spend_cap cannot be below the {c.amount_spent} cents already spent (or $1.00).")
    return cap


def adset_budget(c: Campaign, daily_budget: Optional[str], lifetime_budget: Optional[str],
                 end_time: Optional[dt.datetime]) -> tuple[Optional[int], Optional[int]]:
    """A new ad set's ``(daily, lifetime)`` budget in cents: its own exactly when campaign ``c`` has none.

    Raises:
        InvalidArgument: 400 for a malformed amount or both budgets.
        Unprocessable: 422 for a budget under a campaign budget, none without one, or a lifetime
            budget without ``end_time``.
    """
    daily, life = cents(daily_budget, "daily_budget"), cents(lifetime_budget, "lifetime_budget")
    check_budget(daily, life)
    if has_campaign_budget(c) and (daily or life):
        raise Unprocessable("the campaign has a campaign budget; its ad sets carry no budget of their own.")
    if not has_campaign_budget(c) and daily is None and life is None:
        raise Unprocessable("the campaign has no campaign budget: the ad set needs a daily or lifetime budget.")
    if life is not None and end_time is None:
        raise Unprocessable("a lifetime budget needs end_time.")
    return daily, life


def check_adset_schedule(start: dt.datetime, end_time: Optional[dt.datetime], bid_strategy: Optional[str],
                         bid_amount: Optional[str]) -> None:
    """An ad set ends after it starts, and a bid-cap strategy names its bid.

    Raises:
        Unprocessable: 422.
    """
    if end_time is not None and end_time <= start:
        raise Unprocessable("end_time must be after start_time.")
    if bid_strategy == "LOWEST_COST_WITH_BID_CAP" and bid_amount is None:
        raise Unprocessable("LOWEST_COST_WITH_BID_CAP needs bid_amount.")


def check_frequency_caps(specs: list[dict[str, Any]]) -> None:
    """Each frequency cap is exactly ``{event: "IMPRESSIONS", interval_days, max_frequency}``.

    Raises:
        InvalidArgument: 400.
    """
    for spec in specs:
        if set(spec) != {"event", "interval_days", "max_frequency"} or spec["event"] != "IMPRESSIONS":
            raise InvalidArgument("each frequency cap is {event: IMPRESSIONS, interval_days, max_frequency}.")


def dollars(cents: int) -> str:
    """Cents as the Marketing API's decimal dollar string ("161.86")."""
    return f"{cents / 100:.2f}"


def window(today: dt.date, time_range: Any) -> tuple[dt.date, dt.date]:
    """The inclusive reporting days of a preset ("last_7d": the 7 days before today) or a (since, until) pair.

    Raises:
        InvalidArgument: since is after until.
    """
    if isinstance(time_range, tuple):
        if time_range[0] > time_range[1]:
            raise InvalidArgument("time_range.since is after time_range.until.")
        return time_range
    yesterday = today - dt.timedelta(days=1)
    if time_range == "today":
        return today, today
    if time_range == "yesterday":
        return yesterday, yesterday
    days = {"last_7d": 7, "last_14d": 14, "last_30d": 30, "maximum": 3650}[time_range]
    return today - dt.timedelta(days=days), yesterday


def insights(st: MetaAdsState, ads: list[Ad], since: dt.date, until: dt.date, level: str) -> list[dict]:
    """Delivery of ``ads`` from ``since`` to ``until`` summed per ``level`` object (ad, adset, campaign, account)."""
    rows: dict[str, dict[str, int]] = {}
    for a in ads:
        key = {"ad": a.id, "adset": a.adset_id, "campaign": a.campaign_id, "account": a.account_id}[level]
        agg = rows.setdefault(key, {"impressions": 0, "clicks": 0, "spend": 0, "conversions": 0})
        for d in st.stats.get(a.id, []):
            if since <= d.date <= until:
                for k in agg:
                    agg[k] += getattr(d, k)
    return [{f"{level}_id": k, "impressions": v["impressions"], "clicks": v["clicks"], "spend": dollars(v["spend"]),
             "conversions": v["conversions"],
             "ctr": round(100 * v["clicks"] / v["impressions"], 2) if v["impressions"] else 0.0,
             "date_start": since.isoformat(), "date_stop": until.isoformat()} for k, v in sorted(rows.items())]
