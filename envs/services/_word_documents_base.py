"""The reading half of the ``word_documents`` service: lookups shared by every
tool, the read tools, and the file tools (create, copy, protect, convert).

:class:`WordBase` sets no ``name``, so it is not a service of its own;
:class:`~compoworld_gym.envs.services.word_documents.WordDocuments` adds the
editing tools.
"""

from __future__ import annotations

import posixpath
from typing import Optional

from pydantic import Field

from compoworld_gym.entities import FilePath, Id
from compoworld_gym.envs.services._word_documents_models import Document, Paragraph, PdfExport, Protection
from compoworld_gym.envs.services._word_documents_rules import (
    clean_dir, clean_path, document_text, find_in, is_heading, page_count, word_count,
)
from compoworld_gym.envs.services._word_documents_seed import password_hash
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool


class WordBase(Service):
    """Document lookups, reads and file-level tools."""

    # --------------------------------------------------------------- helpers
    def _doc(self, filename: str) -> Document:
        path = clean_path(filename)
        doc = self.state.documents.get(path)
        if doc is None:
            raise NotFound(f"document {path!r} not found; call list_available_documents for a folder's documents.")
        return doc

    def _editable(self, filename: str) -> Document:
        """The document, if it may be edited; the edit is stamped (modified, revision)."""
        doc = self._doc(filename)
        if doc.protection is not None:
            raise Conflict(f"{doc.filename} is password-protected and refuses edits; unprotect_document first.")
        return doc

    def _touch(self, doc: Document) -> None:
        doc.modified, doc.revision = self.now(), doc.revision + 1
        doc.last_modified_by = "Acme Operations"

    @staticmethod
    def _para(doc: Document, index: int) -> Paragraph:
        if not 0 <= index < len(doc.paragraphs):
            raise NotFound(f"{doc.filename} has {len(doc.paragraphs)} paragraphs (indexes 0-"
                           f"{len(doc.paragraphs) - 1}); call get_document_outline.")
        return doc.paragraphs[index]

    def _info(self, doc: Document) -> dict:
        return {"filename": doc.filename, "title": doc.title, "author": doc.author, "subject": doc.subject,
                "created": doc.created, "modified": doc.modified, "last_modified_by": doc.last_modified_by,
                "revision": doc.revision, "page_count": page_count(doc), "word_count": word_count(doc),
                "paragraph_count": len(doc.paragraphs), "table_count": len(doc.tables),
                "footnote_count": len(doc.footnotes), "endnote_count": len(doc.endnotes),
                "protected": doc.protection is not None, "custom_styles": [s.name for s in doc.styles]}

    # ----------------------------------------------------------------- reads
    @tool(read_only=True)
    def list_available_documents(self, directory: str = ".") -> dict:
        """List all .docx files in the specified directory.

        Also lists its subdirectories (not entered).

        Args:
            directory: Directory to search for Word documents ('.' is the workspace root)
        """
        d = clean_dir(directory)
        prefix = "" if d == "." else d + "/"
        here = [doc for path, doc in sorted(self.state.documents.items()) if posixpath.dirname(path) == (
            "" if d == "." else d)]
        subs = sorted({path[len(prefix):].split("/")[0] for path in self.state.documents
                       if path.startswith(prefix) and "/" in path[len(prefix):]})
        if not here and not subs and d != ".":
            raise NotFound(f"directory {d!r} not found; call list_available_documents('.') for the top folders.")
        return {"directory": d, "subdirectories": [prefix + s for s in subs],
                "documents": [{"filename": x.filename, "title": x.title, "modified": x.modified,
                               "protected": x.protection is not None} for x in here]}

    @tool(read_only=True)
    def get_document_info(self, filename: Id("document")) -> dict:
        """Get information about a Word document.

        Core properties (title, author, revision...) and counts.

        Args:
            filename: Path to the Word document
        """
        return self._info(self._doc(filename))

    @tool(read_only=True)
    def get_document_text(self, filename: Id("document")) -> dict:
        """Extract all text from a Word document.

        Paragraphs, tables (cells tab-separated) where they sit, then footnotes and endnotes.

        Args:
            filename: Path to the Word document
        """
        doc = self._doc(filename)
        return {"filename": doc.filename, "text": document_text(doc)}

    @tool(read_only=True)
    def get_document_outline(self, filename: Id("document")) -> dict:
        """Get the structure of a Word document.

        Every paragraph (index, style, text up to 100 characters) and every table with its cells.

        Args:
            filename: Path to the Word document
        """
        doc = self._doc(filename)
        paras = [{"index": i, "style": p.style, "kind": p.kind, "is_heading": is_heading(p),
                  "text": p.text if len(p.text) <= 100 else p.text[:100] + "..."} for i, p in enumerate(doc.paragraphs)]
        tables = [{"index": i, "after_paragraph": t.position - 1, "rows": len(t.cells), "columns": len(t.cells[0]),
                   "data": t.cells} for i, t in enumerate(doc.tables)]
        return {"filename": doc.filename, "title": doc.title, "paragraphs": paras, "tables": tables}

    @tool(read_only=True)
    def get_paragraph_text_from_document(self, filename: Id("document"), paragraph_index: int) -> dict:
        """Get text from a specific paragraph in a Word document.

        Args:
            filename: Path to the Word document
            paragraph_index: Index of the paragraph to retrieve (0-based)
        """
        doc = self._doc(filename)
        p = self._para(doc, paragraph_index)
        return {"filename": doc.filename, "index": paragraph_index, "text": p.text, "style": p.style, "kind": p.kind,
                "is_heading": is_heading(p), "image_path": p.image_path}

    @tool(read_only=True)
    def find_text_in_document(self, filename: Id("document"), text_to_find: str = Field(min_length=1),
                              match_case: bool = True, whole_word: bool = False) -> dict:
        """Find occurrences of specific text in a Word document.

        Args:
            filename: Path to the Word document
            text_to_find: Text to search for in the document
            match_case: Whether to match case (True) or ignore case (False)
            whole_word: Whether to match whole words only (True) or substrings (False)
        """
        doc = self._doc(filename)
        hits: list[dict] = []
        for i, p in enumerate(doc.paragraphs):
            hits += [{"paragraph_index": i, "position": at,
                      "context": p.text[max(0, at - 30): at + len(text_to_find) + 30]}
                     for at in find_in(p.text, text_to_find, match_case, whole_word)]
        for t, table in enumerate(doc.tables):
            for r, row in enumerate(table.cells):
                for c, cell in enumerate(row):
                    hits += [{"table_index": t, "row": r, "column": c, "position": at, "context": cell}
                             for at in find_in(cell, text_to_find, match_case, whole_word)]
        return {"query": text_to_find, "match_case": match_case, "whole_word": whole_word, "total": len(hits),
                "occurrences": hits}

    # ------------------------------------------------------------- documents
    @tool(read_only=False)
    def create_document(self, filename: Id("document"), title: Optional[str] = Field(default=None, max_length=255),
                        author: Optional[str] = Field(default=None, max_length=255)) -> dict:
        """Create a new Word document with optional metadata.

        Args:
            filename: Name of the document to create (with or without .docx extension)
            title: Optional title for the document metadata
            author: Optional author for the document metadata
        """
        path = clean_path(filename)
        if path in self.state.documents:
            raise Conflict(f"{path} already exists; choose another name or edit it.")
        at = self.now()
        doc = Document(filename=path, title=title or "", author=author or "Acme Operations", created=at, modified=at)
        self.state.documents[path] = doc
        return self._info(doc)

    @tool(read_only=False)
    def copy_document(self, source_filename: Id("document"),
                      destination_filename: Optional[Id("document")] = None) -> dict:
        """Create a copy of a Word document.

        The copy keeps the content and any protection. Default name: '<name>_copy.docx' next to the source.

        Args:
            source_filename: Path to the source document
            destination_filename: Optional path for the copy. If not provided, a default name will be generated.
        """
        src = self._doc(source_filename)
        dest = clean_path(destination_filename) if destination_filename else src.filename[:-5] + "_copy.docx"
        if dest in self.state.documents:
            raise Conflict(f"{dest} already exists; give another destination_filename.")
        at = self.now()
        self.state.documents[dest] = src.model_copy(deep=True, update={"filename": dest, "created": at, "modified": at})
        return {"source": src.filename, "copy": dest}

    @tool(read_only=False)
    def protect_document(self, filename: Id("document"), password: str = Field(min_length=1, max_length=255)) -> dict:
        """Add password protection to a Word document.

        A protected document can be read, copied and converted but refuses every edit.

        Args:
            filename: Path to the Word document
            password: Password to protect the document with
        """
        doc = self._doc(filename)
        if doc.protection is not None:
            raise Conflict(f"{doc.filename} is already protected.")
        doc.protection = Protection(password_sha256=password_hash(password), protected_on=self.now())
        return {"filename": doc.filename, "protected": True}

    @tool(read_only=False)
    def unprotect_document(self, filename: Id("document"), password: str = Field(min_length=1)) -> dict:
        """Remove password protection from a Word document.

        Args:
            filename: Path to the Word document
            password: Password that was used to protect the document
        """
        doc = self._doc(filename)
        if doc.protection is None:
            raise Conflict(f"{doc.filename} is not protected.")
        if password_hash(password) != doc.protection.password_sha256:
            raise Unprocessable(f"wrong password for {doc.filename}; the document stays protected.")
        doc.protection = None
        return {"filename": doc.filename, "protected": False}

    @tool(read_only=False)
    def convert_to_pdf(self, filename: Id("document"), output_filename: Optional[FilePath] = None) -> dict:
        """Convert a Word document to PDF format.

        Args:
            filename: Path to the Word document
            output_filename: Optional path for the output PDF. If not provided, will use the same name with .pdf extension
        """
        doc = self._doc(filename)
        out = clean_path(output_filename, ".pdf") if output_filename else doc.filename[:-5] + ".pdf"
        pdf = PdfExport(filename=out, source=doc.filename, source_revision=doc.revision, pages=page_count(doc),
                        created=self.now())
        self.state.exports[out] = pdf
        return pdf.model_dump()
