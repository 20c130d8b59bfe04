"""Rules of the presentations service: layouts, placeholders, tables, charts, text fit.

The slide layouts are the default python-pptx template's (``Title Slide``,
``Title and Content``, ...), each with its placeholders (``idx`` 0 is the
title). A shape must lie inside the 10 x 7.5 inch slide; a table holds
1-30 rows and 1-15 columns and its data fits its grid; a chart has one value
per category in every series, and a pie or doughnut chart one series.

Example:
    >>> [p[0] for p in LAYOUTS[1][1]]
    [0, 1]
    >>> fits("Quarterly revenue grew 18%", 4.0, 1.0, 18)
    True
"""

from __future__ import annotations

from typing import Optional, Sequence

from compoworld_gym.envs.services._presentations_models import (
    SLIDE_HEIGHT, SLIDE_WIDTH, Chart, ChartSeries, Shape, Slide, Table, TableCell,
)
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable

#: (layout name, placeholders (idx, type, left, top, width, height)) of the default template, by layout_index.
LAYOUTS: tuple[tuple[str, tuple[tuple[int, str, float, float, float, float], ...]], ...] = (
    ("Title Slide", ((0, "title", 0.75, 2.33, 8.5, 1.61), (1, "subtitle", 1.5, 4.25, 7.0, 1.92))),
    ("Title and Content", ((0, "title", 0.5, 0.3, 9.0, 1.25), (1, "object", 0.5, 1.75, 9.0, 4.95))),
    ("Section Header", ((0, "title", 0.79, 4.82, 8.5, 1.49), (1, "body", 0.79, 3.18, 8.5, 1.64))),
    ("Two Content", ((0, "title", 0.5, 0.3, 9.0, 1.25), (1, "object", 0.5, 1.75, 4.42, 4.95),
                     (2, "object", 5.08, 1.75, 4.42, 4.95))),
    ("Comparison", ((0, "title", 0.5, 0.3, 9.0, 1.25), (1, "body", 0.5, 1.68, 4.42, 0.7),
                    (2, "object", 0.5, 2.38, 4.42, 4.32), (3, "body", 5.08, 1.68, 4.42, 0.7),
                    (4, "object", 5.08, 2.38, 4.42, 4.32))),
    ("Title Only", ((0, "title", 0.5, 0.3, 9.0, 1.25),)),
    ("Blank", ()),
    ("Content with Caption", ((0, "title", 0.5, 0.3, 3.29, 1.27), (1, "object", 3.91, 0.3, 5.59, 6.4),
                              (2, "body", 0.5, 1.57, 3.29, 5.13))),
    ("Picture with Caption", ((0, "title", 1.96, 5.25, 6.0, 0.62), (1, "picture", 1.96, 0.67, 6.0, 4.5),
                              (2, "body", 1.96, 5.87, 6.0, 0.88))),
)
#: The server's slide templates (list_slide_templates): id -> (name, layout_index, content keys).
TEMPLATES: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "title_slide": ("Title slide", 0, ("title", "subtitle")),
    "text_with_image": ("Text with image", 3, ("title", "content", "image")),
    "two_column_text": ("Two-column text", 3, ("title", "left", "right")),
    "bullet_list": ("Bullet list", 1, ("title", "bullets")),
    "chart_slide": ("Chart slide", 5, ("title", "chart")),
    "data_table": ("Data table", 5, ("title", "table")),
    "section_divider": ("Section divider", 2, ("title", "subtitle")),
    "thank_you_slide": ("Closing slide", 0, ("title", "contact")),
}
COLOR_SCHEMES = ("modern_blue", "corporate_gray", "elegant_green", "warm_red")
MAX_ROWS, MAX_COLS = 30, 15


def layout(layout_index: int) -> tuple[str, tuple]:
    """The layout ``(name, placeholders)``.

    Raises:
        InvalidArgument: no such layout (0-8).
    """
    if not 0 <= layout_index < len(LAYOUTS):
        raise InvalidArgument(f"layout_index {layout_index} is out of range; the template has layouts "
                              f"0-{len(LAYOUTS) - 1} (0 Title Slide, 1 Title and Content, 5 Title Only, 6 Blank).")
    return LAYOUTS[layout_index]


def placeholders(layout_index: int) -> list[Shape]:
    """Empty placeholder shapes of a layout, shape ids from 2."""
    name, phs = layout(layout_index)
    return [Shape(shape_id=n + 2, name=f"{'Title' if kind == 'title' else 'Placeholder'} {n + 1}",
                  shape_type="placeholder", placeholder_idx=idx, placeholder_type=kind, left=lf, top=tp, width=w,
                  height=h) for n, (idx, kind, lf, tp, w, h) in enumerate(phs)]


def set_text(shape: Shape, paragraphs: Sequence[str]) -> None:
    """Replace a shape's paragraphs (and joined text)."""
    shape.paragraphs = [str(p) for p in paragraphs]
    shape.text = "\n".join(shape.paragraphs)


def check_box(left: float, top: float, width: float, height: float) -> None:
    """Refuse a box that is empty or leaves the 10 x 7.5 inch slide.

    Raises:
        InvalidArgument: a non-positive size or an edge outside the slide.
    """
    if width <= 0 or height <= 0:
        raise InvalidArgument("width and height must be positive (inches).")
    if left < 0 or top < 0 or left + width > SLIDE_WIDTH + 1e-9 or top + height > SLIDE_HEIGHT + 1e-9:
        raise InvalidArgument(f"the shape ({left}, {top}, {width} x {height} in) leaves the "
                              f"{SLIDE_WIDTH:g} x {SLIDE_HEIGHT:g} inch slide.")


def next_shape_id(slide: Slide) -> int:
    """The next free shape id on ``slide``."""
    return max((s.shape_id for s in slide.shapes), default=1) + 1


def placeholder(slide: Slide, idx: int, slide_index: int) -> Shape:
    """The placeholder ``idx`` of a slide.

    Raises:
        NotFound: the slide's layout has no such placeholder.
    """
    for s in slide.shapes:
        if s.shape_type == "placeholder" and s.placeholder_idx == idx:
            return s
    have = sorted(s.placeholder_idx for s in slide.shapes if s.placeholder_idx is not None)
    raise NotFound(f"slide {slide_index} ({slide.layout_name}) has no placeholder idx {idx}; it has {have}.")


def make_table(rows: int, cols: int, data: Optional[Sequence[Sequence[str]]], header_row: bool) -> Table:
    """A table grid filled from ``data`` (rows of cell texts; missing cells stay empty).

    Raises:
        Unprocessable: the grid is too large, or ``data`` does not fit it.
    """
    if not (1 <= rows <= MAX_ROWS and 1 <= cols <= MAX_COLS):
        raise Unprocessable(f"a table has 1-{MAX_ROWS} rows and 1-{MAX_COLS} columns, not {rows} x {cols}.")
    data = data or []
    if len(data) > rows or any(len(r) > cols for r in data):
        raise Unprocessable(f"data has {len(data)} rows of up to {max((len(r) for r in data), default=0)} cells; "
                            f"the table is {rows} x {cols}.")
    cells = {f"{r},{c}": TableCell(text=str(data[r][c]) if r < len(data) and c < len(data[r]) else "")
             for r in range(rows) for c in range(cols)}
    return Table(rows=rows, cols=cols, header_row=header_row, cells=cells)


def cell(table: Table, row: int, col: int) -> TableCell:
    """The cell at ``row``, ``col``.

    Raises:
        InvalidArgument: outside the grid.
    """
    if not (0 <= row < table.rows and 0 <= col < table.cols):
        raise InvalidArgument(f"cell ({row}, {col}) is outside the {table.rows} x {table.cols} table (0-based).")
    return table.cells[f"{row},{col}"]


def table_rows(table: Table) -> list[list[str]]:
    """The table's texts as rows."""
    return [[table.cells[f"{r},{c}"].text for c in range(table.cols)] for r in range(table.rows)]


def make_chart(chart_type: str, categories: Sequence[str], series: Sequence[tuple[str, Sequence[float]]],
               **options) -> Chart:
    """A chart of ``series`` (name, values) over ``categories``.

    Raises:
        Unprocessable: no categories or series, a series without one value per category, or several
            series on a pie/doughnut.
    """
    if not categories or not series:
        raise Unprocessable("a chart needs at least one category and one series.")
    for name, values in series:
        if len(values) != len(categories):
            raise Unprocessable(f"series {name!r} has {len(values)} values for {len(categories)} categories.")
    if chart_type in ("pie", "doughnut") and len(series) > 1:
        raise Unprocessable(f"a {chart_type} chart shows one series, not {len(series)}.")
    return Chart(chart_type=chart_type, categories=list(categories),
                 series=[ChartSeries(name=n, values=[float(v) for v in vals]) for n, vals in series], **options)


def fits(text: str, width: float, height: float, font_size: int) -> bool:
    """Whether ``text`` fits a box at ``font_size`` (about 0.55 em a character, 1.2 line height).

    Example:
        >>> fits("x" * 400, 2.0, 0.5, 18)
        False
    """
    chars_per_line = max(1, int(width * 72 / (font_size * 0.55)))
    lines = sum(max(1, -(-len(p) // chars_per_line)) for p in (text.split("\n") or [""]))
    return lines * font_size * 1.2 <= height * 72 + 1e-9


def best_font_size(text: str, width: float, height: float, lo: int, hi: int) -> Optional[int]:
    """The largest size from ``hi`` down to ``lo`` at which ``text`` fits, or None."""
    return next((s for s in range(hi, lo - 1, -1) if fits(text, width, height, s)), None)


def shape_view(index: int, s: Shape) -> dict:
    """A shape as get_slide_info shows it: its index, kind, text, and table rows or chart data."""
    out = {"shape_index": index, **s.model_dump(exclude={"table"})}
    if s.table is not None:
        out["table"] = {"rows": s.table.rows, "cols": s.table.cols, "header_row": s.table.header_row,
                        "data": table_rows(s.table)}
    return out
