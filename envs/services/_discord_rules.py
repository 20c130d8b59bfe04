"""Discord's own rules for names, message text, emoji and webhooks.

Each check raises a structured error that says how to fix the input; the
service calls them before it changes anything.
"""

from __future__ import annotations

import hashlib
import re
from typing import Optional

from compoworld_gym.envs.services._discord_models import MAX_MESSAGE, MAX_TITLE, Guild
from compoworld_gym.errors import Unprocessable

_CUSTOM = re.compile(r"^<?a?:?(?P<name>[A-Za-z0-9_]{2,32}):(?P<id>\d{15,20})>?$")
_SHORTCODE = re.compile(r"^:[A-Za-z0-9_+-]+:$")


def channel_name(raw: str) -> str:
    """The name Discord stores for a text or forum channel called ``raw``: lower-case,
    runs of spaces turned into one hyphen, characters other than letters, digits,
    ``-`` and ``_`` dropped (as the client does).

    Raises:
        Unprocessable: nothing is left, or the result is over 100 characters.

    Example:
        >>> channel_name("  Order Help  (EU) ")
        'order-help-eu'
    """
    name = re.sub(r"[^a-z0-9_-]", "", re.sub(r"\s+", "-", raw.strip().lower()))
    name = re.sub(r"-{2,}", "-", name).strip("-")
    if not name:
        raise Unprocessable(f"{raw!r} has no letters or digits; a channel name needs some (e.g. 'order-help').")
    if len(name) > 100:
        raise Unprocessable(f"channel names are at most 100 characters; {name!r} has {len(name)}.")
    return name


def check_content(text: str, what: str = "message") -> str:
    """``text`` if Discord accepts it as message content (1-2000 characters).

    Raises:
        Unprocessable: empty, or longer than 2000 characters.
    """
    if not text.strip():
        raise Unprocessable(f"the {what} is empty; Discord needs some text.")
    if len(text) > MAX_MESSAGE:
        raise Unprocessable(f"the {what} is {len(text)} characters; Discord allows {MAX_MESSAGE}. "
                            "Shorten it or split it into several messages.")
    return text


def check_title(title: str) -> str:
    """A forum post title with surrounding spaces removed (1-100 characters).

    Raises:
        Unprocessable: empty or over 100 characters.
    """
    t = title.strip()
    if not t or len(t) > MAX_TITLE:
        raise Unprocessable(f"a forum post title needs 1-{MAX_TITLE} characters; got {len(t)}.")
    return t


def emoji_key(raw: str, guild: Guild) -> str:
    """The stored form of a reaction emoji: the unicode character(s), or ``name:id``
    of one of the server's custom emojis (``<:name:id>``, ``name:id`` or ``:name:`` accepted).

    Raises:
        Unprocessable: a ``:shortcode:`` of a unicode emoji, plain text, or a custom
            emoji the server does not have.
    """
    e = raw.strip()
    m = _CUSTOM.match(e)
    if m:
        for emoji in guild.emojis:
            if emoji.id == m["id"]:
                return f"{emoji.name}:{emoji.id}"
        raise Unprocessable(f"custom emoji {e!r} is not an emoji of {guild.name}; its emojis: "
                            f"{', '.join(f'{x.name}:{x.id}' for x in guild.emojis) or 'none'}.")
    if _SHORTCODE.match(e):
        name = e.strip(":")
        for emoji in guild.emojis:
            if emoji.name == name:
                return f"{emoji.name}:{emoji.id}"
        raise Unprocessable(f"{e} is a shortcode; react with the unicode emoji itself (e.g. '👍') "
                            "or a custom emoji as name:id.")
    if not e or len(e) > 16 or e.isascii() or any(ch.isspace() for ch in e):
        raise Unprocessable(f"{raw!r} is not an emoji; use a unicode emoji such as '✅' or a custom one as name:id.")
    return e


def check_webhook_name(name: str, what: str = "webhook name") -> str:
    """A webhook (or webhook username) name Discord accepts: 1-80 characters,
    not containing 'clyde' or 'discord'.

    Raises:
        Unprocessable: the name breaks one of those rules.
    """
    n = name.strip()
    if not 1 <= len(n) <= 80:
        raise Unprocessable(f"a {what} needs 1-80 characters; got {len(n)}.")
    for word in ("clyde", "discord"):
        if word in n.lower():
            raise Unprocessable(f"a {what} cannot contain '{word}'; choose another name.")
    return n


def check_avatar(url: Optional[str]) -> Optional[str]:
    """An avatar image URL (http or https), or None.

    Raises:
        Unprocessable: not an http(s) URL.
    """
    if url is None:
        return None
    if not re.match(r"^https?://\S+$", url):
        raise Unprocessable(f"avatar {url!r} is not an http(s) image URL.")
    return url


def webhook_token(webhook_id: str) -> str:
    """The secret token of webhook ``webhook_id`` (68 characters, derived from the id)."""
    digest = hashlib.sha256(f"webhook:{webhook_id}".encode()).hexdigest()
    return (digest + digest)[:68]
