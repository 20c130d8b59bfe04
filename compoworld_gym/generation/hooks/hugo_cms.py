"""The Hugo blog in chained tasks: a product's launch post (by file path, or
the live or upcoming one tagged with a product's SKU) names the product's SKU
and the post's publish date. Writes: publish the launch post on a date the
chain found, or take it back to draft (a product pulled from sale)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU
from compoworld_gym.envs.services._hugo_cms_seed import AUTHORS, LAUNCHES, launch_post, slugify
from compoworld_gym.envs.services._hugo_cms_models import CONTENT
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

SERVICE = "hugo_cms"
#: (product name, category) of launch posts about SKUs the shared catalogue does not list.
_KINDS = (("Monitor Arm", "accessories"), ("Docking Station", "electronics"), ("Desk Drawer Unit", "furniture"),
          ("Laptop Stand", "accessories"), ("Wireless Presenter", "electronics"))


def plant_launch(ctx: Ctx, path: str, sku: str, publish: str, *, expired: bool = False, draft: bool = False) -> str:
    """Add (or re-plant) the launch post ``path`` presenting ``sku`` with publishDate
    ``publish`` (ISO); an ``expired`` one left the site two weeks ago. Returns the path."""
    known = PRODUCTS_BY_SKU.get(sku)
    name, category = (known.name, known.category) if known else ctx.rng.choice(_KINDS)
    price = known.price if known else round(ctx.rng.randint(1900, 24900) / 100, 2)
    day = dt.date.fromisoformat(publish)
    post = launch_post(path, sku=sku, name=name, category=category, price=price, author=ctx.rng.choice(AUTHORS),
                       day=day - dt.timedelta(days=2), publish=day, draft=draft,
                       expiry=ctx.today - dt.timedelta(days=14) if expired else None)
    ctx.state(SERVICE)["posts"][path] = post.model_dump(mode="json")
    return path


def _live_path(ctx: Ctx, sku: str) -> str:
    """The path of ``sku``'s current (unexpired) launch post, or a new one."""
    for path, p in ctx.state(SERVICE)["posts"].items():
        fm = p["front_matter"]
        if fm.get("product") == sku and not fm.get("expiryDate"):
            return path
    return f"{LAUNCHES}/{slugify(sku)}-launch.md"


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_path: bool) -> str:
    if by_path:
        return plant_launch(ctx, key, outs.get("sku") or ctx.fresh("sku"), outs.get("date") or ctx.fresh("date"))
    sku = str(key)
    if stale:
        return plant_launch(ctx, f"{LAUNCHES}/{slugify(sku)}-promo-{ctx.code().lower()}.md", sku,
                            ctx.day(-ctx.rng.randint(45, 90)), expired=True)  # its run ended: always past
    return plant_launch(ctx, _live_path(ctx, sku), sku, outs.get("date") or ctx.fresh("date"))


def _post(reader: Reader, path: Any) -> dict[str, Any]:
    found = reader.read(SERVICE, "get_frontmatter", file_path=path)
    return {**found, "id": found["file_path"]}


def _product_post(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "find_posts_by_tag", directory_path_str=CONTENT, tag_to_find=str(key))
    live = [r for r in rows if r["hugo_status"] != "expired"]
    return _post(reader, pick(live)["file_path"])


def _alloc(ctx: Ctx) -> str:
    return f"{LAUNCHES}/launch-{ctx.code().lower()}.md"


_PUBLISH = Give("date", "frontmatter.publishDate", "the launch post's publish date")

POST = Relay(
    service=SERVICE, name="launch blog post", key="blog_post_id",
    gives=(Give("blog_post_id", "id", "the launch blog post"),
           Give("sku", "frontmatter.product", "the SKU of the product the post presents"), _PUBLISH),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True), find=_post,
    where="Each launch post on the store blog names, in its front matter, the SKU of the product it presents and "
          "its publish date.",
    alloc=_alloc, entry=lambda key: f"the blog post {key}")

PRODUCT_POST = Relay(
    service=SERVICE, name="product's launch post", key="sku",
    gives=(Give("blog_post_id", "id", "the product's launch blog post"), _PUBLISH),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_product_post,
    where="Blog posts about a product are tagged with the product's SKU on the store's Hugo blog.",
    truth="A post whose expiryDate has passed is off the site; only the product's live or upcoming post counts.")


def _scope(path: str, fields: list[str]) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="posts", allow_ids=[path],
                        allow_paths={path: [f"front_matter.{f}" for f in fields]},
                        description="No other blog post was changed, and nothing else in this one.")]


def _publish(reader: Reader, args: dict[str, Found]) -> Write:
    path, day = args["post"].value, str(args["day"].value)
    _post(reader, path)
    return Write(
        calls=[call("set_publish_date", file_path=path, publish_date_value=day),
               call("set_draft_status", file_path=path, draft_status=False)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="posts", record_id=path,
                              where={"front_matter.draft": False, "front_matter.publishDate": day},
                              description="The launch post is out of draft with the right publish date.")],
        scope=_scope(path, ["draft", "publishDate"]), tool="set_draft_status",
        where={"file_path": path, "draft_status": False}, label="publishing the launch post")


def _retract(reader: Reader, args: dict[str, Found]) -> Write:
    path = args["post"].value
    _post(reader, path)
    return Write(
        calls=[call("set_draft_status", file_path=path, draft_status=True)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="posts", record_id=path,
                              where={"front_matter.draft": True},
                              description="The launch post is back in draft, off the site.")],
        scope=_scope(path, ["draft"]), tool="set_draft_status", where={"file_path": path, "draft_status": True},
        label="taking the launch post back to draft")


def _draft(value: bool) -> Any:
    def prepare(ctx: Ctx, values: dict[str, Any]) -> None:
        """The post starts in the other draft state (so the write is work to do)."""
        post = ctx.state(SERVICE)["posts"].get(values.get("post"))
        if post is not None:
            post["front_matter"]["draft"] = value
    return prepare


_POSTN = Need("post", "blog_post_id")

LINKS = ServiceLinks(
    service=SERVICE, label="the store's Hugo blog",
    relays=(POST, PRODUCT_POST),
    actions=(
        Action(service=SERVICE, name="publish", needs=(_POSTN, Need("day", "date", ("",))), build=_publish,
               prepare=_draft(True), goal="publish the launch post on the blog with {day} as its publish date"),
        Action(service=SERVICE, name="retract", needs=(_POSTN,), build=_retract, prepare=_draft(False),
               goal="take the launch post on the blog back to draft"),
    ),
)

__all__ = ["LINKS", "plant_launch"]
