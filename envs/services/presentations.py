"""Presentations: PowerPoint decks (open presentations, slides, placeholders, tables, charts, files).

Follows the Office-PowerPoint-MCP-Server (``spec_source = "ppt"``, python-pptx):
its tool names, parameter names, types and required sets. Open
presentations are held by id with one current presentation (every tool
takes an optional ``presentation_id``); slides are 0-based ``slide_index``,
shapes 0-based ``shape_index``, placeholders the layout's
``placeholder_idx``; sizes are inches on the 10 x 7.5 inch slide. Files on
disk are ``.pptx`` paths: ``open_presentation`` loads one as a new
presentation, ``save_presentation`` writes the deck as it is now (its
revision counts up). Rules: a shape stays inside the slide; a table is at
most 30 x 15 and its data fits the grid; every chart series has one value
per category and a pie shows one series; a new presentation id must be
unused; ``manage_text`` does ``add`` (a text box), ``format`` (a shape's
font), ``validate`` (whether the text fits, and the largest size that does).
``update_table_cell`` is designed beyond the server (python-pptx writes a
cell's text; the server only formats cells).

Left out, because they need real rendering, images or font files: images
and picture effects (``manage_image``, ``apply_picture_effects``),
``apply_professional_design``, ``manage_fonts``, ``auto_generate_presentation``,
``optimize_slide_text``, templates from .pptx template files, slide masters,
connectors, auto shapes and hyperlinks.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._presentations_core import RGB, PresentationsCore, PresId
from compoworld_gym.envs.services._presentations_models import Alignment, ChartType, PresentationsState, Shape
from compoworld_gym.envs.services._presentations_rules import (
    COLOR_SCHEMES, LAYOUTS, TEMPLATES, cell, check_box, make_chart, make_table, next_shape_id, shape_view,
)
from compoworld_gym.envs.services._presentations_seed import build_state
from compoworld_gym.errors import InvalidArgument, Unprocessable
from compoworld_gym.service import tool


class Presentations(PresentationsCore):
    """Office-PowerPoint-MCP-Server: open decks, slides, text, tables, charts and .pptx files."""

    name = "presentations"
    description = ("PowerPoint presentations (Office-PowerPoint-MCP-Server): open decks, slides and placeholders, "
                   "text boxes, tables and charts, core properties, and .pptx files saved on disk.")
    domain = "productivity"
    spec_source = "ppt"
    designed_tools = frozenset({"update_table_cell"})
    State = PresentationsState

    # -------------------------------------------------------- tables, charts
    @tool(read_only=False)
    def add_table(self, slide_index: int, rows: int, cols: int, left: float, top: float, width: float,
                  height: float, data: Optional[list[list[str]]] = None, header_row: bool = True,
                  header_font_size: int = Field(default=12, ge=1, le=200),
                  body_font_size: int = Field(default=10, ge=1, le=200), presentation_id: PresId = None) -> dict:
        """Add a table to a slide, filled from data (rows of cell texts).

        Args:
            slide_index: 0-based slide index.
            rows: number of rows (1-30).
            cols: number of columns (1-15).
            left: left edge, inches.
            top: top edge, inches.
            width: width, inches.
            height: height, inches.
            data: rows of cell texts, at most rows x cols.
            header_row: the first row is a bold header.
            header_font_size: header font size, points.
            body_font_size: body font size, points.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        check_box(left, top, width, height)
        table = make_table(rows, cols, data, header_row)
        for key, c in table.cells.items():
            head = header_row and key.startswith("0,")
            c.format.font_size, c.format.bold = (header_font_size, True) if head else (body_font_size, None)
        shape = Shape(shape_id=next_shape_id(s), name=f"Table {next_shape_id(s) - 1}", shape_type="table",
                      left=left, top=top, width=width, height=height, table=table)
        s.shapes.append(shape)
        return shape_view(len(s.shapes) - 1, shape)

    @tool(read_only=False)
    def format_table_cell(self, slide_index: int, shape_index: int, row: int, col: int,
                          font_size: Optional[int] = Field(default=None, ge=1, le=200), font_name: Optional[str] = None,
                          bold: Optional[bool] = None, italic: Optional[bool] = None, color: RGB = None,
                          bg_color: RGB = None, alignment: Optional[Alignment] = None,
                          presentation_id: PresId = None) -> dict:
        """Format one table cell (font, colours, alignment).

        Args:
            slide_index: 0-based slide index.
            shape_index: the table's shape index.
            row: 0-based row.
            col: 0-based column.
            font_size: font size, points.
            font_name: font name.
            bold: bold.
            italic: italic.
            color: font colour [r, g, b].
            bg_color: cell fill [r, g, b].
            alignment: left, center, right or justify.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        c = cell(self._shape(s, shape_index, "table").table, row, col)
        fmt = {k: v for k, v in (("font_size", font_size), ("font_name", font_name), ("bold", bold),
                                 ("italic", italic), ("color", color), ("bg_color", bg_color),
                                 ("alignment", alignment)) if v is not None}
        if not fmt:
            raise InvalidArgument("give at least one formatting option.")
        c.format = c.format.model_copy(update=fmt)
        return {"row": row, "col": col, **c.model_dump()}

    @tool(read_only=False)
    def update_table_cell(self, slide_index: int, shape_index: int, row: int, col: int,
                          text: str = Field(max_length=1000), presentation_id: PresId = None) -> dict:
        """Replace the text of one table cell (its formatting is kept).

        Args:
            slide_index: 0-based slide index.
            shape_index: the table's shape index.
            row: 0-based row.
            col: 0-based column.
            text: the new text.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        c = cell(self._shape(s, shape_index, "table").table, row, col)
        c.text = text
        return {"row": row, "col": col, **c.model_dump()}

    @tool(read_only=False)
    def add_chart(self, slide_index: int, chart_type: ChartType, left: float, top: float, width: float,
                  height: float, categories: list[str], series_names: list[str], series_values: list[list[float]],
                  has_legend: bool = True, legend_position: str = "right", has_data_labels: bool = False,
                  title: Optional[str] = None, x_axis_title: Optional[str] = None, y_axis_title: Optional[str] = None,
                  presentation_id: PresId = None) -> dict:
        """Add a chart (column, bar, line, pie, area, scatter...) of named series over categories.

        Args:
            slide_index: 0-based slide index.
            chart_type: column, stacked_column, bar, stacked_bar, line, line_markers, pie, doughnut, area, scatter.
            left: left edge, inches.
            top: top edge, inches.
            width: width, inches.
            height: height, inches.
            categories: category labels.
            series_names: one name per series.
            series_values: one list of values per series, one value per category.
            has_legend: show a legend.
            legend_position: right, left, top or bottom.
            has_data_labels: show data labels.
            title: chart title.
            x_axis_title: category axis title.
            y_axis_title: value axis title.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        check_box(left, top, width, height)
        if len(series_names) != len(series_values):
            raise Unprocessable(f"{len(series_names)} series names for {len(series_values)} value lists.")
        chart = make_chart(chart_type, categories, list(zip(series_names, series_values)), title=title,
                           has_legend=has_legend, legend_position=legend_position, has_data_labels=has_data_labels,
                           x_axis_title=x_axis_title, y_axis_title=y_axis_title)
        shape = Shape(shape_id=next_shape_id(s), name=title or f"Chart {next_shape_id(s) - 1}", shape_type="chart",
                      left=left, top=top, width=width, height=height, chart=chart)
        s.shapes.append(shape)
        return {"shape_index": len(s.shapes) - 1, **shape.model_dump()}

    @tool(read_only=False)
    def update_chart_data(self, slide_index: int, shape_index: int, categories: list[str],
                          series_data: list[dict[str, Any]], presentation_id: PresId = None) -> dict:
        """Replace a chart's categories and series ([{"name": ..., "values": [...]}, ...]); its type stays.

        Args:
            slide_index: 0-based slide index.
            shape_index: the chart's shape index.
            categories: the new category labels.
            series_data: the new series, each {"name": str, "values": [numbers, one per category]}.
            presentation_id: the presentation (default: the current one).
        """
        s = self._slide(self._deck(presentation_id), slide_index)
        shape = self._shape(s, shape_index, "chart")
        series = []
        for n, item in enumerate(series_data):
            name, values = item.get("name"), item.get("values")
            if not isinstance(name, str) or not isinstance(values, list) or \
                    not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                raise InvalidArgument(f"series_data[{n}] must be {{'name': str, 'values': [numbers]}}.")
            series.append((name, values))
        old = shape.chart
        shape.chart = make_chart(old.chart_type, categories, series, **old.model_dump(
            exclude={"chart_type", "categories", "series"}))
        return {"shape_index": shape_index, **shape.model_dump()}

    # ------------------------------------------------------------- templates
    @tool(read_only=True)
    def list_slide_templates(self) -> dict:
        """List the slide layout templates (id, name, the layout it uses, its content keys) and the layouts."""
        return {"templates": [{"template_id": k, "name": n, "layout_index": li, "content_keys": list(keys)}
                              for k, (n, li, keys) in TEMPLATES.items()],
                "layouts": [{"layout_index": i, "name": n, "placeholder_idx": [p[0] for p in phs]}
                            for i, (n, phs) in enumerate(LAYOUTS)], "color_schemes": list(COLOR_SCHEMES)}

    @tool(read_only=True)
    def get_server_info(self) -> dict:
        """The server's name, version and what it holds now."""
        return {"name": "Office PowerPoint MCP Server", "version": "2.0.6", "python_pptx": "1.0.2",
                "presentations_open": len(self.state.presentations), "files": len(self.state.files),
                "current_presentation_id": self.state.current_presentation_id}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> PresentationsState:
        return build_state(fake, rng, today)


__all__ = ["Presentations"]
