"""Word documents: the company's .docx workspace (contracts, proposals,
policies, notes) as typed records.

Follows the MCP server ``@GongRzhe_Office-Word-MCP-Server`` (all 25 tools,
same names and parameters). Documents are records, not files: paragraphs
with a style (page breaks and pictures are paragraphs too, as in
python-docx), tables placed between paragraphs, footnotes and endnotes
anchored to paragraphs, custom styles, and editing protection with a
password. ``get_document_text`` and ``get_document_outline`` are computed
from the records; ``search_and_replace`` counts its replacements (and keeps
character formatting on the text around them); ``add_picture`` adds a
picture paragraph referencing an image file of the workspace (no image data
is kept). Rules: a protected document reads but refuses every edit (409)
until unprotected with its password; paragraph and table indexes must exist
(404); a style must be built in or created first; a formatting range lies
inside its paragraph; table data must fit the table; names are unique.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import FilePath, Id
from compoworld_gym.envs.services._word_documents_base import WordBase
from compoworld_gym.envs.services._word_documents_models import (
    BUILTIN_STYLES, BorderStyle, CustomStyle, Document, Note, NumberingFormat, Paragraph, Table, WordState,
)
from compoworld_gym.envs.services._word_documents_rules import check_range, color_hex, replace_in
from compoworld_gym.envs.services._word_documents_seed import build_state
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import tool

_IMAGE_EXT = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff")
Size = Optional[int]
_SIZE = Field(default=None, ge=1, le=1638)


class WordDocuments(WordBase):
    """A workspace of Word documents."""

    name = "word_documents"
    description = ("Word documents of the company (contracts, proposals, policies): text, headings, tables, "
                   "footnotes and endnotes, styles, search and replace, password protection, PDF export.")
    domain = "productivity"
    spec_source = "@GongRzhe_Office-Word-MCP-Server"
    State = WordState

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> WordState:
        return build_state(fake, rng, today)

    def _append(self, doc: Document, p: Paragraph) -> dict:
        doc.paragraphs.append(p)
        self._touch(doc)
        return {"filename": doc.filename, "paragraph_index": len(doc.paragraphs) - 1, "style": p.style,
                "kind": p.kind, "text": p.text}

    def _style(self, doc: Document, style: str) -> str:
        for s in (*BUILTIN_STYLES, *(c.name for c in doc.styles)):
            if s.lower() == style.strip().lower():
                return s
        raise Unprocessable(f"{doc.filename} has no style {style!r}; built-in styles: {', '.join(BUILTIN_STYLES)}"
                            f"{'; custom: ' + ', '.join(c.name for c in doc.styles) if doc.styles else ''}. "
                            "Add one with create_custom_style.")

    # ------------------------------------------------------------ paragraphs
    @tool(read_only=False)
    def add_paragraph(self, filename: Id("document"), text: str = Field(max_length=20000),
                      style: Optional[str] = None) -> dict:
        """Add a paragraph to a Word document.

        Args:
            filename: Path to the Word document
            text: Paragraph text
            style: Optional paragraph style name (built-in, e.g. 'List Bullet', or a custom style)
        """
        doc = self._editable(filename)
        return self._append(doc, Paragraph(text=text, style=self._style(doc, style) if style else "Normal"))

    @tool(read_only=False)
    def add_heading(self, filename: Id("document"), text: str = Field(min_length=1, max_length=500),
                    level: int = Field(default=1, ge=1, le=9)) -> dict:
        """Add a heading to a Word document.

        Args:
            filename: Path to the Word document
            text: Heading text
            level: Heading level (1-9, where 1 is the highest level)
        """
        return self._append(self._editable(filename), Paragraph(text=text, style=f"Heading {level}"))

    @tool(read_only=False)
    def add_picture(self, filename: Id("document"), image_path: FilePath,
                    width: Optional[float] = Field(default=None, ge=0.1, le=8.5)) -> dict:
        """Add an image to a Word document.

        Adds a picture paragraph referencing an image file of the workspace.

        Args:
            filename: Path to the Word document
            image_path: Path to the image file, e.g. images/acme_logo.png
            width: Optional width in inches (proportional scaling; 0.1-8.5)
        """
        doc = self._editable(filename)
        path = image_path.strip().lstrip("./")
        if not path.lower().endswith(_IMAGE_EXT):
            raise Unprocessable(f"{image_path!r} is not an image file ({', '.join(_IMAGE_EXT)}).")
        if path not in self.state.images:
            folder = path.rsplit("/", 1)[0] if "/" in path else ""
            near = [i for i in self.state.images if i.startswith(folder)] if folder else self.state.images
            raise NotFound(f"image {path!r} not found; images in {folder or 'the workspace'}: "
                           f"{', '.join(near) or 'none'}.")
        return self._append(doc, Paragraph(kind="picture", image_path=path, image_width=width))

    @tool(read_only=False)
    def add_page_break(self, filename: Id("document")) -> dict:
        """Add a page break to the document.

        Args:
            filename: Path to the Word document
        """
        return self._append(self._editable(filename), Paragraph(kind="page_break"))

    @tool(read_only=False, destructive=True)
    def delete_paragraph(self, filename: Id("document"), paragraph_index: int) -> dict:
        """Delete a paragraph from a document.

        Its footnotes and endnotes go with it; later paragraphs, notes and tables move up.

        Args:
            filename: Path to the Word document
            paragraph_index: Index of the paragraph to delete (0-based)
        """
        doc = self._editable(filename)
        gone = self._para(doc, paragraph_index)
        del doc.paragraphs[paragraph_index]
        for notes in (doc.footnotes, doc.endnotes):
            notes[:] = [n if n.paragraph_index < paragraph_index
                        else n.model_copy(update={"paragraph_index": n.paragraph_index - 1})
                        for n in notes if n.paragraph_index != paragraph_index]
        for t in doc.tables:
            if t.position > paragraph_index:
                t.position -= 1
        self._touch(doc)
        return {"filename": doc.filename, "deleted_index": paragraph_index, "deleted_text": gone.text,
                "paragraph_count": len(doc.paragraphs)}

    @tool(read_only=False)
    def search_and_replace(self, filename: Id("document"), find_text: str = Field(min_length=1),
                           replace_text: str = Field(max_length=20000)) -> dict:
        """Search for text and replace all occurrences.

        Case-sensitive, in paragraphs and table cells; returns how many were replaced.

        Args:
            filename: Path to the Word document
            find_text: Text to search for
            replace_text: Text to replace with
        """
        doc = self._editable(filename)
        n_para = sum(replace_in(p, find_text, replace_text) for p in doc.paragraphs if p.kind == "text")
        n_cell = 0
        for t in doc.tables:
            for row in t.cells:
                for c, cell in enumerate(row):
                    n_cell += cell.count(find_text)
                    row[c] = cell.replace(find_text, replace_text)
        if n_para + n_cell == 0:
            raise NotFound(f"{find_text!r} does not occur in {doc.filename} (the search is case-sensitive).")
        self._touch(doc)
        return {"filename": doc.filename, "replacements": n_para + n_cell, "in_paragraphs": n_para,
                "in_tables": n_cell}

    # ---------------------------------------------------------------- tables
    @tool(read_only=False)
    def add_table(self, filename: Id("document"), rows: int = Field(ge=1, le=100), cols: int = Field(ge=1, le=20),
                  data: Optional[list[list[str]]] = None) -> dict:
        """Add a table to a Word document.

        Args:
            filename: Path to the Word document
            rows: Number of rows in the table (1-100)
            cols: Number of columns in the table (1-20)
            data: Optional 2D array of data to fill the table (at most rows x cols)
        """
        doc = self._editable(filename)
        data = data or []
        if len(data) > rows or any(len(r) > cols for r in data):
            raise Unprocessable(f"data has {len(data)} rows of up to {max((len(r) for r in data), default=0)} cells; "
                                f"the table is {rows} x {cols}.")
        cells = [[(data[r][c] if r < len(data) and c < len(data[r]) else "") for c in range(cols)] for r in range(rows)]
        doc.tables.append(Table(position=len(doc.paragraphs), cells=cells))
        self._touch(doc)
        return {"filename": doc.filename, "table_index": len(doc.tables) - 1, "rows": rows, "columns": cols}

    @tool(read_only=False)
    def format_table(self, filename: Id("document"), table_index: int, has_header_row: Optional[bool] = None,
                     border_style: Optional[BorderStyle] = None, shading: Optional[list[list[str]]] = None) -> dict:
        """Format a table with borders, shading, and structure.

        Args:
            filename: Path to the Word document
            table_index: Index of the table (0-based)
            has_header_row: If True, formats the first row as a header
            border_style: Style for borders ('none', 'single', 'double', 'thick')
            shading: 2D list of cell background colors (by row and column)
        """
        doc = self._editable(filename)
        if not 0 <= table_index < len(doc.tables):
            raise NotFound(f"{doc.filename} has {len(doc.tables)} tables; table_index {table_index} does not exist.")
        if has_header_row is None and border_style is None and shading is None:
            raise InvalidArgument("nothing to format: give has_header_row, border_style or shading.")
        t = doc.tables[table_index]
        fills = None
        if shading is not None:
            if len(shading) > len(t.cells) or any(len(r) > len(t.cells[0]) for r in shading):
                raise Unprocessable(f"shading is larger than the {len(t.cells)} x {len(t.cells[0])} table.")
            fills = [[color_hex(c) or "" for c in row] for row in shading]
        t.has_header_row = t.has_header_row if has_header_row is None else has_header_row
        t.border_style = border_style or t.border_style
        t.shading = fills if fills is not None else t.shading
        self._touch(doc)
        return {"filename": doc.filename, "table_index": table_index, **t.model_dump(exclude={"cells"})}

    # ---------------------------------------------------------------- styles
    @tool(read_only=False)
    def create_custom_style(self, filename: Id("document"), style_name: str = Field(min_length=1, max_length=100),
                            bold: Optional[bool] = None, italic: Optional[bool] = None, font_size: Size = _SIZE,
                            font_name: Optional[str] = None, color: Optional[str] = None,
                            base_style: Optional[str] = None) -> dict:
        """Create a custom style in the document.

        Args:
            filename: Path to the Word document
            style_name: Name for the new style
            bold: Set text bold (True/False)
            italic: Set text italic (True/False)
            font_size: Font size in points
            font_name: Font name/family
            color: Text color (e.g., 'red', 'blue', or hex 'FF0000')
            base_style: Optional existing style to base this on
        """
        doc = self._editable(filename)
        name = style_name.strip()
        if any(s.lower() == name.lower() for s in (*BUILTIN_STYLES, *(c.name for c in doc.styles))):
            raise Conflict(f"{doc.filename} already has a style named {name!r}.")
        style = CustomStyle(name=name, bold=bold, italic=italic, font_size=font_size, font_name=font_name,
                            color=color_hex(color), base_style=self._style(doc, base_style) if base_style else None)
        doc.styles.append(style)
        self._touch(doc)
        return {"filename": doc.filename, **style.model_dump()}

    @tool(read_only=False)
    def format_text(self, filename: Id("document"), paragraph_index: int, start_pos: int, end_pos: int,
                    bold: Optional[bool] = None, italic: Optional[bool] = None, underline: Optional[bool] = None,
                    color: Optional[str] = None, font_size: Size = _SIZE, font_name: Optional[str] = None) -> dict:
        """Format a specific range of text within a paragraph.

        Args:
            filename: Path to the Word document
            paragraph_index: Index of the paragraph (0-based)
            start_pos: Start position within the paragraph text
            end_pos: End position within the paragraph text (exclusive)
            bold: Set text bold (True/False)
            italic: Set text italic (True/False)
            underline: Set text underlined (True/False)
            color: Text color (e.g., 'red', 'blue', or hex 'FF0000')
            font_size: Font size in points
            font_name: Font name/family
        """
        doc = self._editable(filename)
        p = self._para(doc, paragraph_index)
        if p.kind != "text":
            raise Unprocessable(f"paragraph {paragraph_index} is a {p.kind.replace('_', ' ')}; it has no text.")
        if all(v is None for v in (bold, italic, underline, color, font_size, font_name)):
            raise InvalidArgument("nothing to format: give bold, italic, underline, color, font_size or font_name.")
        fmt = check_range(p, start_pos, end_pos).model_copy(update={
            "bold": bold, "italic": italic, "underline": underline, "color": color_hex(color),
            "font_size": font_size, "font_name": font_name})
        p.formats.append(fmt)
        self._touch(doc)
        return {"filename": doc.filename, "paragraph_index": paragraph_index, "formatted": p.text[start_pos:end_pos],
                **fmt.model_dump(exclude_none=True)}

    # ----------------------------------------------------------------- notes
    def _note(self, filename: str, index: int, text: str, kind: str) -> dict:
        doc = self._editable(filename)
        p = self._para(doc, index)
        if p.kind != "text" or not p.text.strip():
            raise Unprocessable(f"paragraph {index} has no text to attach a {kind} to; choose a text paragraph.")
        notes = doc.footnotes if kind == "footnote" else doc.endnotes
        notes.append(Note(paragraph_index=index, text=text))
        self._touch(doc)
        return {"filename": doc.filename, "paragraph_index": index, kind + "_count": len(notes), "text": text}

    @tool(read_only=False)
    def add_footnote_to_document(self, filename: Id("document"), paragraph_index: int,
                                 footnote_text: str = Field(min_length=1, max_length=2000)) -> dict:
        """Add a footnote to a specific paragraph in a Word document.

        Args:
            filename: Path to the Word document
            paragraph_index: Index of the paragraph to add footnote to (0-based)
            footnote_text: Text content of the footnote
        """
        return self._note(filename, paragraph_index, footnote_text, "footnote")

    @tool(read_only=False)
    def add_endnote_to_document(self, filename: Id("document"), paragraph_index: int,
                                endnote_text: str = Field(min_length=1, max_length=2000)) -> dict:
        """Add an endnote to a specific paragraph in a Word document.

        Args:
            filename: Path to the Word document
            paragraph_index: Index of the paragraph to add endnote to (0-based)
            endnote_text: Text content of the endnote
        """
        return self._note(filename, paragraph_index, endnote_text, "endnote")

    @tool(read_only=False)
    def convert_footnotes_to_endnotes_in_document(self, filename: Id("document")) -> dict:
        """Convert all footnotes to endnotes in a Word document.

        Args:
            filename: Path to the Word document
        """
        doc = self._editable(filename)
        if not doc.footnotes:
            raise Conflict(f"{doc.filename} has no footnotes to convert.")
        moved = len(doc.footnotes)
        doc.endnotes += doc.footnotes
        doc.footnotes = []
        self._touch(doc)
        return {"filename": doc.filename, "converted": moved, "endnote_count": len(doc.endnotes)}

    @tool(read_only=False)
    def customize_footnote_style(self, filename: Id("document"), numbering_format: NumberingFormat = "1, 2, 3",
                                 start_number: int = Field(default=1, ge=1, le=999),
                                 font_name: Optional[str] = None, font_size: Size = _SIZE) -> dict:
        """Customize footnote numbering and formatting in a Word document.

        Args:
            filename: Path to the Word document
            numbering_format: Format for footnote numbers (e.g., "1, 2, 3", "i, ii, iii", "a, b, c")
            start_number: Number to start footnote numbering from
            font_name: Optional font name for footnotes
            font_size: Optional font size for footnotes (in points)
        """
        doc = self._editable(filename)
        doc.footnote_style = doc.footnote_style.model_copy(update={
            "numbering_format": numbering_format, "start_number": start_number,
            "font_name": font_name or doc.footnote_style.font_name,
            "font_size": font_size or doc.footnote_style.font_size})
        self._touch(doc)
        return {"filename": doc.filename, **doc.footnote_style.model_dump(), "footnote_count": len(doc.footnotes)}
