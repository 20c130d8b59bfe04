"""What the word_documents tools compute from the records: paths, note
labels, the document's text and counts, text search and replacement that
keeps character formatting in place, and colour values.
"""

from __future__ import annotations

import posixpath
import re
from typing import Optional

from compoworld_gym.envs.services._word_documents_models import Document, Note, Paragraph, TextFormat
from compoworld_gym.errors import Unprocessable

_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
_COLORS = {"black": "000000", "white": "FFFFFF", "red": "FF0000", "green": "00FF00", "blue": "0000FF",
           "yellow": "FFFF00", "gray": "808080", "grey": "808080", "orange": "FFA500", "purple": "800080"}
#: Words a page holds, for the page count estimate.
WORDS_PER_PAGE = 500


def clean_path(raw: str, ext: str = ".docx") -> str:
    """A workspace path: relative, '/'-separated, normalised, with ``ext`` added when it has no extension.

    Raises:
        Unprocessable: absolute, leaving the workspace, or with another extension.

    Example:
        >>> clean_path("./contracts//Globex MSA")
        'contracts/Globex MSA.docx'
    """
    p = raw.strip().replace("\\", "/")
    if not p or p.startswith("/") or re.match(r"^[A-Za-z]:", p):
        raise Unprocessable(f"{raw!r}: give a path relative to the document workspace, e.g. contracts/Name{ext}.")
    p = posixpath.normpath(p)
    if p.startswith(".."):
        raise Unprocessable(f"{raw!r} leaves the document workspace.")
    stem, dot = posixpath.splitext(p)
    if not dot:
        return p + ext
    if dot.lower() != ext:
        raise Unprocessable(f"{raw!r} is not a {ext} file.")
    return stem + ext


def clean_dir(raw: str) -> str:
    """A workspace directory ('.' is the root), normalised."""
    p = raw.strip().replace("\\", "/") or "."
    if p.startswith("/") or posixpath.normpath(p).startswith(".."):
        raise Unprocessable(f"{raw!r}: give a directory relative to the document workspace, e.g. contracts.")
    return posixpath.normpath(p)


def label(n: int, fmt: str) -> str:
    """The label of note number ``n`` (1-based) in numbering format ``fmt``.

    Example:
        >>> [label(n, "i, ii, iii") for n in (1, 4, 9)], label(28, "a, b, c")
        (['i', 'iv', 'ix'], 'ab')
    """
    if fmt.startswith(("i", "I")):
        out, rest = "", n
        for value, sym in _ROMAN:
            while rest >= value:
                out, rest = out + sym, rest - value
        return out if fmt.startswith("i") else out.upper()
    if fmt.startswith(("a", "A")):
        out, rest = "", n
        while rest:
            rest, r = divmod(rest - 1, 26)
            out = chr(ord("a") + r) + out
        return out if fmt.startswith("a") else out.upper()
    return str(n)


def numbered(notes: list[Note], fmt: str, start: int) -> list[tuple[str, Note]]:
    """``(label, note)`` in body order (by paragraph, then as added)."""
    order = sorted(range(len(notes)), key=lambda i: (notes[i].paragraph_index, i))
    return [(label(start + k, fmt), notes[i]) for k, i in enumerate(order)]


def is_heading(p: Paragraph) -> bool:
    """Whether a paragraph has a heading style ('Title' or 'Heading N')."""
    return p.style == "Title" or p.style.startswith("Heading ")


def document_text(doc: Document) -> str:
    """The text of a document: body paragraphs with note references, tables
    (cells tab-separated) where they sit, then the footnotes and endnotes."""
    fl = numbered(doc.footnotes, doc.footnote_style.numbering_format, doc.footnote_style.start_number)
    el = numbered(doc.endnotes, "i, ii, iii", 1)
    refs: dict[int, str] = {}
    for lab, n in fl + el:
        refs[n.paragraph_index] = refs.get(n.paragraph_index, "") + f"[{lab}]"
    lines: list[str] = []
    tables = sorted(doc.tables, key=lambda t: t.position)
    for i, p in enumerate([*doc.paragraphs, None]):
        lines += ["\t".join(row) for t in tables if t.position == i for row in t.cells]
        if p is not None:
            lines.append(p.text + refs.get(i, "") if p.kind == "text" else "")
    for title, pairs in (("Footnotes", fl), ("Endnotes", el)):
        if pairs:
            lines.append(f"{title}:")
            lines += [f"{lab}. {n.text}" for lab, n in pairs]
    return "\n".join(lines)


def word_count(doc: Document) -> int:
    """Words in the body paragraphs and table cells."""
    words = sum(len(p.text.split()) for p in doc.paragraphs)
    return words + sum(len(c.split()) for t in doc.tables for row in t.cells for c in row)


def page_count(doc: Document) -> int:
    """Pages: one more per page break, and per ``WORDS_PER_PAGE`` words."""
    return 1 + sum(p.kind == "page_break" for p in doc.paragraphs) + word_count(doc) // WORDS_PER_PAGE


def _moved(pos: int, hits: list[int], size: int, new: int, is_end: bool) -> int:
    """Where position ``pos`` lands after the ``hits`` (starts, each ``size`` long) become ``new`` long."""
    delta = new - size
    for k, h in enumerate(hits):
        if h < pos < h + size:  # inside a replaced occurrence: snap to its replacement
            return h + k * delta + (new if is_end else 0)
        if h >= pos:
            return pos + k * delta
    return pos + len(hits) * delta


def replace_in(p: Paragraph, find: str, repl: str) -> int:
    """Replace every ``find`` in a paragraph (case-sensitive); formatting
    ranges move with the text. Returns the number of replacements."""
    hits, at = [], p.text.find(find)
    while at != -1:
        hits.append(at)
        at = p.text.find(find, at + len(find))
    if not hits:
        return 0
    kept = []
    for f in p.formats:
        s = _moved(f.start, hits, len(find), len(repl), False)
        e = _moved(f.end, hits, len(find), len(repl), True)
        if e > s:
            kept.append(f.model_copy(update={"start": s, "end": e}))
    p.text, p.formats = p.text.replace(find, repl), kept
    return len(hits)


def find_in(text: str, query: str, match_case: bool, whole_word: bool) -> list[int]:
    """Start positions of ``query`` in ``text``."""
    pattern = re.escape(query)
    if whole_word:
        pattern = rf"(?<!\w){pattern}(?!\w)"
    return [m.start() for m in re.finditer(pattern, text, 0 if match_case else re.IGNORECASE)]


def color_hex(raw: Optional[str]) -> Optional[str]:
    """An RGB hex colour (upper case, no '#') from hex or a basic colour name.

    Raises:
        Unprocessable: not a colour.
    """
    if raw is None:
        return None
    c = raw.strip().lstrip("#")
    if c.lower() in _COLORS:
        return _COLORS[c.lower()]
    if not re.fullmatch(r"[0-9A-Fa-f]{6}", c):
        raise Unprocessable(f"colour {raw!r} is neither RGB hex (e.g. 'FF0000') nor one of {', '.join(_COLORS)}.")
    return c.upper()


def check_range(p: Paragraph, start: int, end: int) -> TextFormat:
    """An empty format over ``[start, end)`` of a paragraph's text.

    Raises:
        Unprocessable: the range is empty or outside the text.
    """
    if not 0 <= start < end <= len(p.text):
        raise Unprocessable(f"range {start}-{end} is not inside the paragraph's {len(p.text)} characters "
                            "(need 0 <= start_pos < end_pos <= length).")
    return TextFormat(start=start, end=end)
