"""Seed of the hugo_cms service: the store's Hugo blog.

Launch posts present products of the shared catalogue (``_commerce.PRODUCTS``):
each carries the product's SKU as its ``product`` parameter and as a tag.
Besides published posts there are a scheduled one, a draft, an expired
promotion, guides with inconsistent tags (``Ergonomics`` / ``ergonomics``,
``work-from-home``) and posts imported from an old blog whose dates Hugo
cannot parse. Authors are staff of the shared company directory.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services._hugo_cms_models import CONTENT, FrontMatter, HugoState, Post

LAUNCHES, GUIDES, NEWS = f"{CONTENT}/posts/launches", f"{CONTENT}/posts/guides", f"{CONTENT}/news"
AUTHORS = ("Hannah Kovacs", "Jamal Wright", "Luis Ortega")


def slugify(text: str) -> str:
    """The URL slug of a title ('Meet the 27-inch 4K Monitor' -> 'meet-the-27-inch-4k-monitor')."""
    out = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    return "-".join(part for part in out.split("-") if part)


def launch_post(path: str, *, sku: str, name: str, category: str, price: float, author: str, day: dt.date,
                publish: dt.date, draft: bool, expiry: dt.date | None = None) -> Post:
    """A product launch post: tagged launch, the category and the SKU; ``product`` is the SKU."""
    title = f"Meet the {name}"
    fm = FrontMatter(title=title, date=day.isoformat(), publishDate=publish.isoformat(),
                     expiryDate=expiry.isoformat() if expiry else None, draft=draft,
                     description=f"The {name} is here: ${price:.2f} in the Acme store.",
                     tags=["launch", category, sku], categories=["Products"],
                     images=[f"/images/products/{sku.lower()}.jpg"], author=author, product=sku, slug=slugify(title))
    body = (f"Today we add the **{name}** ({sku}) to the store at ${price:.2f}.\n\n"
            f"[Shop the {name}](/shop/{sku.lower()}/)\n")
    return Post(file_path=path, front_matter=fm, body=body)


def _launches(rng: random.Random, today: dt.date) -> list[Post]:
    picks = rng.sample(PRODUCTS, 4)
    plans = ((-40, False), (-12, False), (9, False), (21, True))  # (publish offset, draft)
    out = []
    for n, (p, (offset, draft)) in enumerate(zip(picks, plans)):
        publish = today + dt.timedelta(days=offset)
        out.append(launch_post(f"{LAUNCHES}/{slugify(p.name)}.md", sku=p.sku, name=p.name, category=p.category,
                               price=p.price, author=AUTHORS[n % len(AUTHORS)], day=publish - dt.timedelta(days=2),
                               publish=publish, draft=draft))
    kb = next(p for p in PRODUCTS if p.sku == "KB-MECH-01")
    promo = launch_post(f"{LAUNCHES}/holiday-keyboard-bundle.md", sku=kb.sku, name=f"{kb.name} holiday bundle",
                        category=kb.category, price=kb.price, author=AUTHORS[0],
                        day=today - dt.timedelta(days=60), publish=today - dt.timedelta(days=55), draft=False,
                        expiry=today - dt.timedelta(days=14))
    promo.front_matter.tags.append("promotion")
    return out + [promo]


def _others(today: dt.date) -> list[Post]:
    def post(path: str, title: str, date: str, tags: list[str], author: str, **extra: object) -> Post:
        fm = FrontMatter(title=title, date=date, tags=tags, author=author, slug=slugify(title),
                         description=extra.pop("description", f"{title} — from the Acme blog."), **extra)
        return Post(file_path=path, front_matter=fm, body=f"# {title}\n\nMore soon.\n")

    ago = lambda days: (today - dt.timedelta(days=days)).isoformat()  # noqa: E731
    return [
        post(f"{GUIDES}/ergonomic-workstation-setup.md", "How to set up an ergonomic workstation", ago(90),
             ["Ergonomics", "guides", "work-from-home"], AUTHORS[2], categories=["Guides"],
             images=["/images/guides/ergonomic-desk.png"]),
        post(f"{GUIDES}/desk-accessories-under-40.md", "Five desk accessories under $40", "March 3, 2025",
             ["ergonomics", "gift-guide"], AUTHORS[0], categories=["Guides"]),
        post(f"{GUIDES}/cable-management-101.md", "Cable management 101", "2025/11/04",
             ["work-from-home", "accessories"], AUTHORS[1], categories=["Guides"]),
        post(f"{NEWS}/shipping-to-germany-and-france.md", "We now ship to Germany and France", ago(120),
             ["news", "shipping"], AUTHORS[2], publishDate="2025-02-30", categories=["News"]),
        post(f"{NEWS}/meet-the-support-team.md", "Meet the support team", f"{ago(30)}T10:00:00-05:00",
             ["news", "team"], AUTHORS[2], lastmod=ago(2), categories=["News"]),
    ]


def build_state(fake: Faker, rng: random.Random, today: dt.date) -> HugoState:
    """Ten content files: five launch posts (published, scheduled, draft, expired), guides and news."""
    state = HugoState()
    for p in sorted(_launches(rng, today) + _others(today), key=lambda p: p.file_path):
        state.posts[p.file_path] = p
    return state
