"""Pure rules of the whatsapp service: number format, chat ids, file kinds."""

from __future__ import annotations

import re
from typing import Optional

from compoworld_gym.errors import InvalidArgument

#: WaPulse's number pattern: country code (1-4 digits) and 6-15 more digits, digits only.
NUMBER_RX = r"^\d{1,4}\d{6,15}$"
_NUMBER = re.compile(NUMBER_RX)
_SYMBOLS = re.compile(r"[\s\-().+]")
USER_SUFFIX, GROUP_SUFFIX = "@c.us", "@g.us"
INVITE_URL = "https://chat.whatsapp.com/"
MAX_GROUP_SIZE = 1024
AUDIO_EXT = frozenset({"mp3", "ogg", "opus", "m4a", "aac", "wav", "amr"})
_KINDS = {"jpg": "image", "jpeg": "image", "png": "image", "gif": "image", "webp": "image", "mp4": "video",
          "mov": "video", "3gp": "video"} | {e: "audio" for e in AUDIO_EXT}


def check_number(text: str) -> Optional[str]:
    """Why ``text`` is not a valid WaPulse number (None when it is).

    Example:
        >>> check_number("15035550101") is None, check_number("05035550101")
        (True, 'a number starts with its country code, never 0')
    """
    if not _NUMBER.match(text):
        return "a number is the country code and the number, 7 to 19 digits, no '+', spaces or dashes"
    if text.startswith("0"):
        return "a number starts with its country code, never 0"
    return None


def number(text: str) -> str:
    """``text`` as a valid number, or a 400 InvalidArgument saying why not."""
    why = check_number(text)
    if why:
        raise InvalidArgument(f"{text!r} is not a valid WhatsApp number: {why} (e.g. 15035550101).")
    return text


def normalize(text: str) -> str:
    """Digits of a number written with symbols (+1 (503) 555-0101 -> 15035550101)."""
    return _SYMBOLS.sub("", text.strip())


def user_chat_id(digits: str) -> str:
    return digits + USER_SUFFIX


def group_key(text: str) -> str:
    """A group id from ``120363...`` or ``120363...@g.us``."""
    text = text.strip()
    return text if text.endswith(GROUP_SUFFIX) else text + GROUP_SUFFIX


def file_kind(filename: str) -> str:
    """image, video, audio or document by the file name's extension; 400 without one."""
    name = filename.rsplit("/", 1)[-1]
    if "." not in name or name.endswith("."):
        raise InvalidArgument(f"filename {filename!r} needs an extension, e.g. invoice.pdf.")
    return _KINDS.get(name.rsplit(".", 1)[1].lower(), "document")


def invite_code(n: int) -> str:
    """A deterministic 22-character invite code for counter value ``n``."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789"
    out, x = [], n * 2654435761 % (2 ** 61 - 1) + 7919
    for _ in range(22):
        x, r = divmod(x * 31 + 17, len(alphabet))
        out.append(alphabet[r])
        x = x or n + 13
    return "".join(out)
