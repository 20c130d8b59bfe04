"""The presentation and slide half of the presentations service: lookups shared by all its tools,
and the tools on presentations (open, create, switch, save, info, core properties) and slides
(add, info, placeholders, bullets, text boxes, transitions).

:class:`PresentationsCore` does not register; :class:`~compoworld_gym.envs.services.presentations.Presentations`
adds the table, chart and template tools.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field

from compoworld_gym.entities import FilePath, Id
from compoworld_gym.envs.services._presentations_models import (
    Alignment, CoreProperties, Presentation, SavedFile, Shape, Slide,
)
from compoworld_gym.envs.services._presentations_rules import (
    COLOR_SCHEMES, LAYOUTS, best_font_size, check_box, fits, layout, next_shape_id, placeholder, placeholders,
    set_text, shape_view,
)
from compoworld_gym.envs.services._presentations_seed import next_presentation_id
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

PresId = Optional[Id("presentation")]
RGB = Optional[list[int]]


class PresentationsCore(Service, register=False):
    """Lookups, presentation tools and slide tools of the PowerPoint server."""

    # ---------------------------------------------------------------- helpers
    def _deck(self, presentation_id: Optional[str]) -> Presentation:
        pid = presentation_id or self.state.current_presentation_id
        if pid is None:
            raise Unprocessable("no presentation is currently loaded; open_presentation or create_presentation.")
        return self.lookup(self.state.presentations, pid, "presentation")

    def _slide(self, deck: Presentation, slide_index: int) -> Slide:
        if not 0 <= slide_index < len(deck.slide_ids):
            raise NotFound(f"slide index {slide_index} is out of range; {deck.id} has {len(deck.slide_ids)} "
                           f"slides (0-{len(deck.slide_ids) - 1}).")
        return self.state.slides[deck.slide_ids[slide_index]]

    def _shape(self, slide: Slide, shape_index: int, kind: Optional[str] = None) -> Shape:
        if not 0 <= shape_index < len(slide.shapes):
            raise NotFound(f"shape index {shape_index} is out of range; the slide has {len(slide.shapes)} shapes.")
        s = slide.shapes[shape_index]
        if kind and s.shape_type != kind:
            raise Unprocessable(f"shape {shape_index} ({s.name}) is a {s.shape_type}, not a {kind}.")
        return s

    def _new_slide(self, deck: Presentation, layout_index: int, title: Optional[str] = None) -> Slide:
        name, _ = layout(layout_index)
        used = [self.state.slides[i].slide_id for i in deck.slide_ids]
        s = Slide(id=self.new_id("SLD"), presentation_id=deck.id, slide_id=max(used, default=255) + 1,
                  layout_index=layout_index, layout_name=name, shapes=placeholders(layout_index))
        if title is not None:
            set_text(placeholder(s, 0, len(deck.slide_ids)), [title])
        self.state.slides[s.id] = s
        deck.slide_ids.append(s.id)
        return s

    def _info(self, deck: Presentation) -> dict:
        slides = [{"slide_index": n, "slide_id": self.state.slides[i].id,
                   "layout_name": self.state.slides[i].layout_name,
                   "title": next((s.text for s in self.state.slides[i].shapes if s.placeholder_type == "title"), ""),
                   "shape_count": len(self.state.slides[i].shapes)} for n, i in enumerate(deck.slide_ids)]
        return {**deck.model_dump(), "slide_count": len(slides), "slides": slides,
                "is_current": deck.id == self.state.current_presentation_id}

    def _load(self, pid: str, props: CoreProperties, slides: list[Slide], customer: Optional[str],
              file_path: Optional[str]) -> Presentation:
        deck = Presentation(id=pid, file_path=file_path, core_properties=props.model_copy(deep=True),
                            customer=customer)
        for old in slides:
            s = old.model_copy(deep=True, update={"id": self.new_id("SLD"), "presentation_id": pid})
            self.state.slides[s.id] = s
            deck.slide_ids.append(s.id)
        self.state.presentations[pid] = deck
        self.state.current_presentation_id = pid
        return deck

    def _new_pid(self, id: Optional[str]) -> str:
        if id is None:
            while True:
                pid = next_presentation_id(self.state.counters)
                if pid not in self.state.presentations:
                    return pid
        if id in self.state.presentations:
            raise Conflict(f"presentation id {id!r} is already open; choose another id or switch_presentation.")
        return id

    # --------------------------------------------------------- presentations
    @tool(read_only=True)
    def list_presentations(self) -> dict:
        """List the open presentations (id, title, customer, file, slide count) and the current one."""
        rows = [{"id": d.id, "title": d.core_properties.title, "subject": d.core_properties.subject,
                 "customer": d.customer, "file_path": d.file_path, "slide_count": len(d.slide_ids)}
                for d in self.state.presentations.values()]
        return {"presentations": rows, "current_presentation_id": self.state.current_presentation_id,
                "files": sorted(self.state.files)}

    @tool(read_only=False)
    def switch_presentation(self, presentation_id: Id("presentation")) -> dict:
        """Make an open presentation the current one (tools without presentation_id then use it).

        Args:
            presentation_id: an open presentation, e.g. presentation_3.
        """
        deck = self.lookup(self.state.presentations, presentation_id, "presentation")
        self.state.current_presentation_id = deck.id
        return self._info(deck)

    @tool(read_only=False)
    def create_presentation(self, id: PresId = None) -> dict:
        """Create a new empty presentation and make it current.

        Args:
            id: the id to give it (default: the next presentation_<n>); must not be open already.
        """
        pid = self._new_pid(id)
        now = self.now()
        return self._info(self._load(pid, CoreProperties(created=now, modified=now), [], None, None))

    @tool(read_only=False)
    def open_presentation(self, file_path: FilePath = Field(min_length=1, max_length=300), id: PresId = None) -> dict:
        """Open a .pptx file from disk as a new presentation and make it current.

        Args:
            file_path: the file, e.g. decks/board-update-2026-01.pptx.
            id: the id to give it (default: the next presentation_<n>).
        """
        f = self.state.files.get(file_path.strip())
        if f is None:
            raise NotFound(f"file {file_path!r} not found; list_presentations lists the files on disk.")
        pid = self._new_pid(id)
        return self._info(self._load(pid, f.core_properties, f.slides, f.customer, f.id))

    @tool(read_only=False)
    def save_presentation(self, file_path: FilePath = Field(min_length=1, max_length=300),
                          presentation_id: PresId = None) -> dict:
        """Save a presentation to a .pptx file (the revision counts up; an existing file is overwritten).

        Args:
            file_path: where to write, ending in .pptx.
            presentation_id: the presentation (default: the current one).
        """
        deck = self._deck(presentation_id)
        path = file_path.strip()
        if not path.lower().endswith(".pptx"):
            raise InvalidArgument(f"file_path {file_path!r} must end in .pptx.")
        now = self.now()
        props = deck.core_properties
        props.revision, props.modified = props.revision + 1, now
        props.last_modified_by = props.last_modified_by or props.author
        deck.file_path = path
        self.state.files[path] = SavedFile(id=path, core_properties=props.model_copy(deep=True), customer=deck.customer,
                                           slides=[self.state.slides[i].model_copy(deep=True) for i in deck.slide_ids],
                                           saved_at=now)
        return {"file_path": path, "presentation_id": deck.id, "revision": props.revision,
                "slide_count": len(deck.slide_ids)}

    @tool(read_only=True)
    def get_presentation_info(self, presentation_id: PresId = None) -> dict:
        """Get a presentation's core properties, file and slide list (index, id, layout, title).

        Args:
            presentation_id: the presentation (default: the current one).
        """
        return self._info(self._deck(presentation_id))

    @tool(read_only=False)
    def set_core_properties(self, title: Optional[str] = None, subject: Optional[str] = None,
                            author: Optional[str] = None, keywords: Optional[str] = None,
                            comments: Optional[str] = None, presentation_id: PresId = None) -> dict:
        """Set document core properties; properties not given are kept.

        Args:
            title: document title.
            subject: subject.
            author: author.
            keywords: keywords.
            comments: comments.
            presentation_id: the presentation (default: the current one).
        """
        deck = self._deck(presentation_id)
        given = {k: v for k, v in (("title", title), ("subject", subject), ("author", author),
                                   ("keywords", keywords), ("comments", comments)) if v is not None}
        if not given:
            raise InvalidArgument("give at least one property to set.")
        for k, v in given.items():
            setattr(deck.core_properties, k, v)
        return deck.core_properties.model_dump()

    # ---------------------------------------------------------------- slides
    @tool(read_only=False)
    def add_slide(self, layout_index: int = 1, title: Optional[str] = None, background_type: Optional[str] = None,
                  background_colors: Optional[list[list[int]]] = None, color_scheme: str = "modern_blue",
                  presentation_id: PresId = None) -> dict:
        """Add a slide at the end with a layout (0 Title Slide, 1 Title and Content, 5 Title Only, 6 Blank...).

        Args:
            layout_index: the layout, 0-8.
            title: text for the title placeholder (layouts with one).
            background_type: solid or gradient (optional).
            background_colors: [[r, g, b], ...] for the background (one for solid, two for gradient).
            color_scheme: modern_blue, corporate_gray, elegant_green or warm_red.
            presentation_id: the presentation (default: the current one).
        """
        deck = self._deck(presentation_id)
        _, phs = layout(layout_index)
        if title is not None and not any(p[1] == "title" for p in phs):
            raise Unprocessable(f"layout {layout_index} ({LAYOUTS[layout_index][0]}) has no title placeholder.")
        if color_scheme not in COLOR_SCHEMES:
            raise InvalidArgument(f"color_scheme must be one of {', '.join(COLOR_SCHEMES)}.")
        if background_type not in (None, "solid", "gradient"):
            raise InvalidArgument("background_type must be solid or gradient.")
        if background_type and len(background_colors or []) != (1 if background_type == "solid" else 2):
            raise InvalidArgument(f"a {background_type} background needs "
                                  f"{'one colour' if background_type == 'solid' else 'two colours'}.")
        s = self._new_slide(deck, layout_index, title)
        if background_type:
            s.background = f"{background_type} {background_colors}"
        return {"slide_index": len(deck.slide_ids) - 1, **s.model_dump()}

    @tool(read_only=True)
    def get_slide_info(self, slide_index: int, presentation_id: PresId = None) -> dict:
        """Get a slide: its layout and every shape (index, kind, placeholder idx, text, table data, chart data).

        Args:
            slide_index: 0-based slide index.
            presentation_id: the presentation (default: the current one).
        """
        deck = self._deck(presentation_id)
        s = self._slide(deck, slide_index)
        return {"presentation_id": deck.id, "slide_index": slide_index, "id": s.id, "slide_id": s.slide_id,
                "layout_index": s.layout_index, "layout_name": s.layout_name, "transition": s.transition,
                "shapes": [shape_view(n, x) for n, x in enumerate(s.shapes)]}

    @tool(read_only=False)
    def populate_placeholder(self, slide_index: int, placeholder_idx: int, text: str = Field(max_length=5000),
                             presentation_id: PresId = None) -> dict:
        """Set the text of a slide's placeholder (lines become paragraphs).

        Args:
            slide_index: 0-based slide index.
            placeholder_idx: the placeholder's idx (0 is the title).
            text: the text.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        ph = placeholder(s, placeholder_idx, slide_index)
        set_text(ph, text.split("\n"))
        return ph.model_dump()

    @tool(read_only=False)
    def add_bullet_points(self, slide_index: int, placeholder_idx: int,
                          bullet_points: list[str] = Field(min_length=1, max_length=40),
                          presentation_id: PresId = None) -> dict:
        """Append bullet points to a body or content placeholder (not a title).

        Args:
            slide_index: 0-based slide index.
            placeholder_idx: the placeholder's idx.
            bullet_points: the bullets, one paragraph each.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        ph = placeholder(s, placeholder_idx, slide_index)
        if ph.placeholder_type in ("title", "picture"):
            raise Unprocessable(f"placeholder {placeholder_idx} is a {ph.placeholder_type}; bullets go in a body "
                                "or content placeholder.")
        set_text(ph, [p for p in ph.paragraphs if p] + [b.strip() for b in bullet_points])
        return ph.model_dump()

    @tool(read_only=False)
    def manage_text(self, slide_index: int, operation: str, left: float = 1.0, top: float = 1.0,
                    width: float = 4.0, height: float = 2.0, text: str = Field(default="", max_length=5000),
                    shape_index: Optional[int] = None, font_size: Optional[int] = Field(default=None, ge=1, le=400),
                    font_name: Optional[str] = None, bold: Optional[bool] = None, italic: Optional[bool] = None,
                    underline: Optional[bool] = None, color: RGB = None, alignment: Optional[Alignment] = None,
                    min_font_size: int = Field(default=8, ge=1), max_font_size: int = Field(default=72, ge=1),
                    presentation_id: PresId = None) -> dict:
        """Add a text box (operation add), format a shape's text (format) or check text fit (validate).

        Args:
            slide_index: 0-based slide index.
            operation: add, format or validate.
            left: left edge of a new text box, inches.
            top: top edge, inches.
            width: width, inches.
            height: height, inches.
            text: the text of a new box (add), or to test (validate; default: the shape's text).
            shape_index: the shape to format or validate.
            font_size: font size, points.
            font_name: font name.
            bold: bold.
            italic: italic.
            underline: underline.
            color: font colour [r, g, b].
            alignment: left, center, right or justify.
            min_font_size: smallest size validate may suggest.
            max_font_size: largest size validate may suggest.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        fmt = {k: v for k, v in (("font_size", font_size), ("font_name", font_name), ("bold", bold),
                                 ("italic", italic), ("underline", underline), ("color", color),
                                 ("alignment", alignment)) if v is not None}
        if operation == "add":
            if not text.strip():
                raise InvalidArgument("operation add needs text.")
            check_box(left, top, width, height)
            box = Shape(shape_id=next_shape_id(s), name=f"TextBox {next_shape_id(s) - 1}", shape_type="text_box",
                        left=left, top=top, width=width, height=height)
            set_text(box, text.split("\n"))
            box.format = box.format.model_copy(update=fmt)
            s.shapes.append(box)
            return {"shape_index": len(s.shapes) - 1, **box.model_dump()}
        if operation not in ("format", "validate"):
            raise InvalidArgument(f"operation must be add, format or validate, not {operation!r}.")
        if shape_index is None:
            raise InvalidArgument(f"operation {operation} needs shape_index.")
        shape = self._shape(s, shape_index)
        if operation == "validate":
            body = text or shape.text
            size = font_size or shape.format.font_size or 18
            return {"shape_index": shape_index, "fits": fits(body, shape.width, shape.height, size),
                    "font_size": size, "suggested_font_size": best_font_size(body, shape.width, shape.height,
                                                                             min_font_size, max_font_size)}
        if not fmt:
            raise InvalidArgument("operation format needs at least one formatting option.")
        if shape.shape_type in ("table", "chart"):
            raise Unprocessable(f"shape {shape_index} is a {shape.shape_type}; use format_table_cell for tables.")
        shape.format = shape.format.model_copy(update=fmt)
        return {"shape_index": shape_index, **shape.model_dump()}

    @tool(read_only=False)
    def manage_slide_transitions(self, slide_index: int, operation: str, transition_type: Optional[str] = None,
                                 duration: float = Field(default=1.0, gt=0, le=60),
                                 presentation_id: PresId = None) -> dict:
        """Set, remove or get a slide's transition.

        Args:
            slide_index: 0-based slide index.
            operation: set, remove or get.
            transition_type: fade, push, wipe, split, cut or morph (for set).
            duration: seconds (for set).
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        if operation == "set":
            if transition_type not in ("fade", "push", "wipe", "split", "cut", "morph"):
                raise InvalidArgument("transition_type must be fade, push, wipe, split, cut or morph.")
            s.transition, s.transition_duration = transition_type, duration
        elif operation == "remove":
            s.transition = s.transition_duration = None
        elif operation != "get":
            raise InvalidArgument(f"operation must be set, remove or get, not {operation!r}.")
        return {"slide_index": slide_index, "transition": s.transition, "duration": s.transition_duration}
