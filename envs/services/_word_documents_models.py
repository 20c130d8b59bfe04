"""Records of the word_documents service: Word documents as typed records.

A document is not a .docx file but what one holds: core properties (title,
author, revision), a body of paragraphs (text with a style, page breaks and
pictures, with character formatting over ranges) and tables placed between
them, footnotes and endnotes anchored to paragraphs, custom styles, and
editing protection. The text, outline and counts the tools report are
computed from these records (:mod:`_word_documents_rules`).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, FilePath, Id
from compoworld_gym.service import Record, ServiceState

#: Styles every new document has (python-docx's default template).
BUILTIN_STYLES: tuple[str, ...] = ("Normal", "Title", "Subtitle", *(f"Heading {n}" for n in range(1, 10)),
                                   "List Bullet", "List Number", "Quote", "Intense Quote", "Caption", "No Spacing")
NumberingFormat = Literal["1, 2, 3", "i, ii, iii", "I, II, III", "a, b, c", "A, B, C"]
BorderStyle = Literal["none", "single", "double", "thick"]
#: Who the tools write as (core property lastModifiedBy).
OPERATOR = "Acme Operations"


class TextFormat(Record):
    """Character formatting over ``[start, end)`` of a paragraph's text."""

    start: int = Field(ge=0, description="First character (0-based).")
    end: int = Field(ge=1, description="One past the last character.")
    bold: Optional[bool] = Field(default=None, description="Bold on/off; None leaves it.")
    italic: Optional[bool] = Field(default=None, description="Italic on/off.")
    underline: Optional[bool] = Field(default=None, description="Underline on/off.")
    color: Optional[str] = Field(default=None, pattern=r"^[0-9A-F]{6}$", description="RGB hex colour, e.g. FF0000.")
    font_size: Optional[int] = Field(default=None, ge=1, le=1638, description="Points.")
    font_name: Optional[str] = Field(default=None, description="Font family, e.g. Calibri.")


class Paragraph(Record):
    """One body paragraph: text, a page break, or a picture."""

    kind: Literal["text", "page_break", "picture"] = Field(default="text", description="What the paragraph holds.")
    text: str = Field(default="", description="Paragraph text (empty for page breaks and pictures).")
    style: str = Field(default="Normal", description="Paragraph style, e.g. 'Heading 1'.")
    image_path: Optional[FilePath] = Field(default=None, description="Image file of a picture paragraph.")
    image_width: Optional[float] = Field(default=None, gt=0, description="Picture width in inches.")
    formats: list[TextFormat] = Field(default_factory=list, description="Character formatting ranges.")


class Table(Record):
    """A table of text cells, placed in the body after ``position`` paragraphs."""

    position: int = Field(ge=0, description="Number of body paragraphs before the table.")
    cells: list[list[str]] = Field(min_length=1, description="Rows of cell text (every row as wide as the first).")
    has_header_row: bool = Field(default=False, description="First row formatted as a header.")
    border_style: BorderStyle = Field(default="single", description="Border style.")
    shading: Optional[list[list[str]]] = Field(default=None, description="Cell fill colours (hex), rows by columns.")


class Note(Record):
    """A footnote or endnote anchored to a paragraph (numbered in body order)."""

    paragraph_index: int = Field(ge=0, description="The paragraph the note reference follows.")
    text: str = Field(min_length=1, description="Note text.")


class CustomStyle(Record):
    """A paragraph style added to the document."""

    name: str = Field(description="Style name.")
    base_style: Optional[str] = Field(default=None, description="Style it is based on.")
    bold: Optional[bool] = Field(default=None, description="Bold.")
    italic: Optional[bool] = Field(default=None, description="Italic.")
    font_size: Optional[int] = Field(default=None, ge=1, le=1638, description="Points.")
    font_name: Optional[str] = Field(default=None, description="Font family.")
    color: Optional[str] = Field(default=None, pattern=r"^[0-9A-F]{6}$", description="RGB hex colour.")


class FootnoteStyle(Record):
    """How footnotes are numbered and set."""

    numbering_format: NumberingFormat = Field(default="1, 2, 3", description="Number style.")
    start_number: int = Field(default=1, ge=1, description="Number of the first footnote.")
    font_name: Optional[str] = Field(default=None, description="Font of footnote text.")
    font_size: Optional[int] = Field(default=None, ge=1, le=1638, description="Points.")


class Protection(Record):
    """Restrict-editing protection: the document reads, but refuses edits until unprotected."""

    password_sha256: str = Field(description="SHA-256 (hex) of the password.")
    protected_on: DateTime = Field(description="When protection was added.")


class Document(Record):
    """A Word document (.docx)."""

    filename: Id("document") = Field(description="Path in the document workspace, e.g. "
                                                 "contracts/Initech_MSA_2026.docx.")
    title: str = Field(default="", description="Core property: title.")
    author: str = Field(default=OPERATOR, description="Core property: author.")
    subject: str = Field(default="", description="Core property: subject.")
    created: DateTime = Field(description="Core property: created.")
    modified: DateTime = Field(description="Core property: last modified.")
    last_modified_by: str = Field(default=OPERATOR, description="Core property: last modified by.")
    revision: int = Field(default=1, ge=1, description="Core property: revision (one more per saved edit).")
    paragraphs: list[Paragraph] = Field(default_factory=list, description="Body paragraphs, in order.")
    tables: list[Table] = Field(default_factory=list, description="Tables, in body order.")
    footnotes: list[Note] = Field(default_factory=list, description="Footnotes.")
    endnotes: list[Note] = Field(default_factory=list, description="Endnotes.")
    styles: list[CustomStyle] = Field(default_factory=list, description="Custom paragraph styles.")
    footnote_style: FootnoteStyle = Field(default_factory=FootnoteStyle, description="Footnote numbering.")
    protection: Optional[Protection] = Field(default=None, description="Editing protection, if any.")


class PdfExport(Record):
    """A PDF made from a document."""

    filename: FilePath = Field(description="Path of the PDF.")
    source: Id("document") = Field(description="The document converted.")
    source_revision: int = Field(ge=1, description="Revision of the document converted.")
    pages: int = Field(ge=1, description="Page count.")
    created: DateTime = Field(description="When it was made.")


class WordState(ServiceState):
    """The document workspace."""

    documents: dict[str, Document] = Field(default_factory=dict, description="Documents by filename.")
    images: list[FilePath] = Field(default_factory=list, description="Image files in the workspace.")
    exports: dict[str, PdfExport] = Field(default_factory=dict, description="PDFs by filename.")
