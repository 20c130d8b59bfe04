"""The wiki in chained tasks: policy pages (only a page's current version is
in force); a key account's page names its account manager; a service's page
names its owner. The case's page gets a comment."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._company import STAFF, staff_of
from compoworld_gym.envs.services.wiki import Page, PageVersion
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.deployments import engineer_email, new_app_key
from compoworld_gym.generation.hooks.github import EMAIL_RX, PHONE_RX
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, RuleHolder, ServiceLinks, SolveError, Write,
)


def account_manager(ctx: Ctx) -> str:
    """A Customer Success account manager's email."""
    return ctx.rng.choice(staff_of("customer_success")).email


def plant_page(ctx: Ctx, space: str, title: str, content: str, *, older: bool = False, days_ago: int = 5,
               labels: tuple[str, ...] = ()) -> str:
    """Save ``content`` as the current version of the page ``title`` in
    ``space`` (as its oldest version with ``older``), adding the :class:`Page`
    (validated, next free ``PG`` id) if missing. Returns the page id."""
    state = ctx.state("wiki")
    author = ctx.rng.choice(STAFF)
    version = PageVersion(number=1, title=title, content=content, author_email=author.email,
                          saved_at=ctx.at(-days_ago, 10)).model_dump(mode="json")
    pid = next((p["id"] for p in state["pages"].values()
                if p["space_key"] == space and p["versions"][-1]["title"].lower() == title.lower()), None)
    if pid is None:
        n = state["counters"].get("PG", 1)
        state["counters"]["PG"] = n + 1
        pid = f"PG-{n:04d}"
        state["pages"][pid] = Page(id=pid, space_key=space, author_email=author.email, author_name=author.name,
                                   labels=list(labels), versions=[version]).model_dump(mode="json")
        return pid
    versions = state["pages"][pid]["versions"]
    versions[:] = [version, *versions] if older else [*versions, {**version, "comment": "Updated"}]
    for n, v in enumerate(versions, start=1):
        v["number"] = n
    return pid


def _find_page(reader: Reader, space: str, title: str) -> dict[str, Any]:
    rows = [r for r in reader.read("wiki", "search_pages", query=title, space_key=space, limit=100)
            if r["title"].lower() == title.lower()]
    if len(rows) != 1:
        raise SolveError(f"{len(rows)} wiki pages in {space} are titled {title!r}")
    return reader.read("wiki", "get_page", page_id=rows[0]["id"])


def _plant_policy(ctx: Ctx, topic: str, text: str, stale: bool) -> str:
    return plant_page(ctx, "OPS", topic, text, older=stale, days_ago=40 if stale else 3, labels=("policy",))


POLICY = RuleHolder(service="wiki", plant=_plant_policy,
                    find=lambda reader, topic: _find_page(reader, "OPS", topic)["content"],
                    where="The '{topic}' policy is a page in the Operations space of the wiki; only the page's "
                          "current version is in force.")


def _plant_account(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    text = (f"# {key}\n\nAccount manager: {outs.get('email') or account_manager(ctx)}\n"
            f"Support line: {outs.get('phone') or ctx.fresh('phone')}\n\nRenewal review every quarter.")
    return plant_page(ctx, "OPS", f"Account: {key}", text, older=stale, days_ago=30 if stale else 6,
                      labels=("account",))


def _plant_service(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    text = (f"# {key}\n\nOwner: {outs.get('email') or engineer_email(ctx)}\n\n"
            "Deploys go through the deployment pipeline; incidents page the owning team.")
    return plant_page(ctx, "ENG", f"Service: {key}", text, older=stale, days_ago=30 if stale else 6,
                      labels=("service",))


_TRUTH = "Only a wiki page's current version counts; older versions are superseded."

ACCOUNT_PAGE = Relay(
    service="wiki", name="account page", key="company", key_party="customer",
    gives=(Give("page_id", "id", "the account's wiki page"),
           Give("email", "content", "the account manager's email address", "the account manager", pattern=EMAIL_RX,
                draw=account_manager),
           Give("phone", "content", "the account's support line", pattern=PHONE_RX)),
    plant=_plant_account, find=lambda reader, key: _find_page(reader, "OPS", f"Account: {key}"),
    where="Each key account has a page in the Operations space of the wiki naming its account manager and "
          "support line.", truth=_TRUTH)

SERVICE_PAGE = Relay(
    service="wiki", name="service page", key="project_id",
    gives=(Give("page_id", "id", "the service's wiki page"),
           Give("email", "content", "the service owner's email address", "the service owner", pattern=EMAIL_RX,
                draw=engineer_email)),
    plant=_plant_service, find=lambda reader, key: _find_page(reader, "ENG", f"Service: {key}"),
    where="Each service has a page in the Engineering space of the wiki naming its owner.",
    alloc=new_app_key, truth=_TRUTH)


def _comment(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention = args["page"].value, args["mention"]
    reader.read("wiki", "get_page", page_id=pid)
    text = f"{args['case'].value}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_comment", page_id=pid, content=text)],
        checks=[RecordMatches(id="_", service="wiki", collection="pages", record_id=pid,
                              where={"comments": {"$any": {"body": {"$contains": mention.display}}}},
                              description="A comment on the wiki page quotes the right value.")],
        scope=[OnlyChanged(id="_", service="wiki", collection="pages", allow_ids=[pid],
                           description="No other wiki page was changed or created.")],
        tool="add_comment", where={"page_id": pid}, label="the comment on the wiki page")


LINKS = ServiceLinks(
    service="wiki", label="the wiki",
    relays=(ACCOUNT_PAGE, SERVICE_PAGE), rules=(POLICY,),
    actions=(Action(service="wiki", name="comment", needs=(Need("page", "page_id", noun="page"),), build=_comment,
                    goal="comment on {page}, quoting {mention}"),),
)

__all__ = ["LINKS", "account_manager", "plant_page"]
