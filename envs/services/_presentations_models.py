"""Records of the presentations service (Office-PowerPoint-MCP-Server, python-pptx).

The server keeps open presentations in memory by id (``presentation_1``...)
with one *current* presentation that every tool uses when no
``presentation_id`` is given; slides are addressed by 0-based
``slide_index``, shapes by 0-based ``shape_index`` on the slide and
placeholders by their layout ``placeholder_idx``; sizes are inches. Here a
presentation lists its slides in order (``slide_ids``), each slide is its
own record (shapes with their text, table cells and chart data), and
``files`` is the disk: ``.pptx`` files with the deck as it was saved.
A table's cells are keyed ``"row,col"`` (0-based) so checks can address one.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import CompanyName, DateTime, FilePath, Id, PersonName
from compoworld_gym.service import Record, ServiceState

ShapeType = Literal["placeholder", "text_box", "table", "chart", "auto_shape"]
ChartType = Literal["column", "stacked_column", "bar", "stacked_bar", "line", "line_markers", "pie", "doughnut",
                    "area", "scatter"]
Alignment = Literal["left", "center", "right", "justify"]
#: Slide size of the default template, inches (4:3).
SLIDE_WIDTH, SLIDE_HEIGHT = 10.0, 7.5


class CoreProperties(Record):
    """Document core properties (``presentation.core_properties``)."""

    title: str = Field(default="", description="Title.")
    subject: str = Field(default="", description="Subject (for customer decks: the customer company).")
    author: PersonName = Field(default="", description="Author.")
    keywords: str = Field(default="", description="Keywords.")
    comments: str = Field(default="", description="Comments.")
    last_modified_by: str = Field(default="", description="Who saved it last.")
    revision: int = Field(default=1, ge=1, description="Revision, counted up on every save.")
    created: Optional[DateTime] = Field(default=None, description="When created.")
    modified: Optional[DateTime] = Field(default=None, description="When last saved.")


class TextFormat(Record):
    """Font and paragraph formatting of a shape's text or a table cell."""

    font_size: Optional[int] = Field(default=None, description="Font size, points.")
    font_name: Optional[str] = Field(default=None, description="Font name.")
    bold: Optional[bool] = Field(default=None, description="Bold.")
    italic: Optional[bool] = Field(default=None, description="Italic.")
    underline: Optional[bool] = Field(default=None, description="Underlined.")
    color: Optional[list[int]] = Field(default=None, description="Font colour [r, g, b].")
    bg_color: Optional[list[int]] = Field(default=None, description="Fill colour [r, g, b].")
    alignment: Optional[Alignment] = Field(default=None, description="Horizontal alignment.")


class TableCell(Record):
    """One table cell: its text and formatting."""

    text: str = Field(default="", description="Cell text.")
    format: TextFormat = Field(default_factory=TextFormat, description="Cell formatting.")


class Table(Record):
    """A table shape's grid."""

    rows: int = Field(ge=1, description="Number of rows.")
    cols: int = Field(ge=1, description="Number of columns.")
    header_row: bool = Field(description="The first row is a header.")
    cells: dict[str, TableCell] = Field(description="Cells keyed 'row,col' (0-based).")


class ChartSeries(Record):
    """One data series of a chart."""

    name: str = Field(description="Series name (legend entry).")
    values: list[float] = Field(description="One value per category.")


class Chart(Record):
    """A chart shape's type and data."""

    chart_type: ChartType = Field(description="Chart type.")
    categories: list[str] = Field(description="Category labels.")
    series: list[ChartSeries] = Field(description="Data series.")
    title: Optional[str] = Field(default=None, description="Chart title.")
    has_legend: bool = Field(default=True, description="Shows a legend.")
    legend_position: str = Field(default="right", description="Legend position.")
    has_data_labels: bool = Field(default=False, description="Shows data labels.")
    x_axis_title: Optional[str] = Field(default=None, description="Category axis title.")
    y_axis_title: Optional[str] = Field(default=None, description="Value axis title.")


class Shape(Record):
    """A shape on a slide: a placeholder, text box, table, chart or auto shape."""

    shape_id: int = Field(ge=1, description="Shape id on the slide.")
    name: str = Field(description="Shape name, e.g. 'Title 1' or 'Account summary'.")
    shape_type: ShapeType = Field(description="Kind of shape.")
    placeholder_idx: Optional[int] = Field(default=None, description="Layout placeholder idx (placeholders).")
    placeholder_type: Optional[str] = Field(default=None, description="title, subtitle, body or object.")
    left: float = Field(description="Left edge, inches.")
    top: float = Field(description="Top edge, inches.")
    width: float = Field(gt=0, description="Width, inches.")
    height: float = Field(gt=0, description="Height, inches.")
    paragraphs: list[str] = Field(default_factory=list, description="Text paragraphs (bullets are paragraphs).")
    text: str = Field(default="", description="All the text, paragraphs joined by newlines.")
    format: TextFormat = Field(default_factory=TextFormat, description="Text formatting.")
    auto_shape_type: Optional[str] = Field(default=None, description="Auto shape kind, e.g. rectangle.")
    table: Optional[Table] = Field(default=None, description="The grid, for tables.")
    chart: Optional[Chart] = Field(default=None, description="Type and data, for charts.")


class Slide(Record):
    """A slide of a presentation."""

    id: Id("slide") = Field(description="Slide record id, e.g. SLD-0007.")
    presentation_id: Id("presentation") = Field(description="The presentation it belongs to.")
    slide_id: int = Field(ge=256, description="python-pptx slide id (256 and up within a presentation).")
    layout_index: int = Field(ge=0, description="Layout of the slide master it uses.")
    layout_name: str = Field(description="Layout name, e.g. 'Title and Content'.")
    shapes: list[Shape] = Field(default_factory=list, description="Shapes, in z-order (shape_index order).")
    background: Optional[str] = Field(default=None, description="Background: solid or gradient and its colours.")
    transition: Optional[str] = Field(default=None, description="Transition type, if any.")
    transition_duration: Optional[float] = Field(default=None, description="Transition duration, seconds.")


class Presentation(Record):
    """An open presentation."""

    id: Id("presentation") = Field(description="Presentation id, e.g. presentation_2.")
    file_path: Optional[FilePath] = Field(default=None, description="The file it was opened from or saved to.")
    core_properties: CoreProperties = Field(description="Core properties.")
    slide_ids: list[Id("slide")] = Field(default_factory=list, description="Its slides, in order.")
    customer: Optional[CompanyName] = Field(default=None, description="The customer a customer deck is for.")


class SavedFile(Record):
    """A .pptx file on disk: the deck as it was saved."""

    id: FilePath = Field(description="File path, e.g. decks/q4-business-review.pptx.")
    core_properties: CoreProperties = Field(description="Core properties as saved.")
    customer: Optional[CompanyName] = Field(default=None, description="The customer a customer deck is for.")
    slides: list[Slide] = Field(default_factory=list, description="The slides as saved.")
    saved_at: DateTime = Field(description="When written.")


class PresentationsState(ServiceState):
    """Open presentations, their slides, the current presentation and the files on disk."""

    presentations: dict[str, Presentation] = Field(default_factory=dict, description="Open presentations by id.")
    slides: dict[str, Slide] = Field(default_factory=dict, description="Slides of open presentations by id.")
    files: dict[str, SavedFile] = Field(default_factory=dict, description="Saved .pptx files by path.")
    current_presentation_id: Optional[str] = Field(default=None, description="The presentation tools default to.")
