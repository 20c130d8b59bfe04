"""The shared vocabulary of entity types.

Every tool parameter and every record field that carries a fact another
service could use (an email address, a date, a ticket id, ...) is annotated
with an entity type from this one vocabulary. The composition graph
(paper §3, "service-level dependency graph") connects service A to service B
when a tool of A returns a fact of type T and a tool of B takes a fact of
type T as input, so the vocabulary must be consistent across services: a
service cannot invent an entity type, it must use one listed here.

The entity type travels in the JSON Schema of the field as the extension
keyword ``"x-entity"``, so it is visible both to the framework (tool
``inputSchema`` and result models) and to anyone reading ``describe_tool``.

Example:
    >>> from pydantic import BaseModel
    >>> class Contact(BaseModel):
    ...     email: Email
    ...     owner_id: Id("user")
    >>> Contact.model_json_schema()["properties"]["email"]["x-entity"]
    'email'
"""

from __future__ import annotations

import datetime as _dt
from typing import Annotated, Any

from pydantic import Field

#: Plain value kinds (not record ids).
VALUE_TYPES: tuple[str, ...] = (
    "email",
    "phone",
    "person_name",
    "company",
    "date",
    "datetime",
    "money",
    "currency",
    "url",
    "address",
    "city",
    "country",
    "sku",
    "tracking_number",
    "iban",
    "channel_name",
    "username",
    "domain",
    "ip_address",
    "repo_name",
    "branch",
    "file_path",
    "coordinates",
)

#: Record id kinds; ``Id("ticket")`` has entity type ``"ticket_id"``.
ID_KINDS: tuple[str, ...] = (
    "user", "contact", "company", "deal", "ticket", "article", "email_message",
    "email_thread", "draft", "label", "channel", "message", "event", "calendar",
    "room", "booking", "task", "project", "issue", "pull_request", "repository",
    "file", "folder", "page", "spreadsheet", "invoice", "payment", "customer",
    "account", "transaction", "expense", "order", "product", "shipment",
    "employee", "leave_request", "payroll", "job", "technician", "flight",
    "hotel", "reservation", "flag", "deployment", "alert", "incident", "post",
    "comment", "place", "list", "campaign", "note", "row", "table", "survey",
    "response", "subscription", "vendor", "purchase_order", "asset", "warehouse",
    # legal, healthcare admin, insurance
    "matter", "time_entry", "patient", "appointment", "practitioner", "claim", "insurance_policy",
    # education, real estate, events
    "course", "assignment", "submission", "enrollment", "property", "unit", "lease", "tenant",
    "maintenance_request", "ticketed_event", "attendee", "ticket_order",
    # logistics, manufacturing, government forms
    "vehicle", "driver", "delivery_route", "manufacturing_order", "bom", "permit", "inspection",
    # data platforms, devops gateways, media
    "dashboard", "chart", "dataset", "gateway_route", "upstream", "consumer", "video", "album",
    "ad_campaign", "ad_set", "ad",
    # e-signature, recruiting, on-call, CI, secrets, search, bills, quotes, car rental
    "envelope", "candidate", "job_application", "interview", "oncall_schedule", "escalation_policy",
    "pipeline", "pipeline_run", "secret", "search_index", "bill", "quote", "rental_agreement", "rental_car",
    "job_posting",  # recruiting: a requisition with openings (not a field-service job)
    # data platforms, LLM ops
    "cache_key", "dbt_model", "dbt_run", "prompt", "trace", "ml_project",
    # developer tools, cloud, building automation
    "merge_request", "resource_group", "role_assignment", "device_entity", "automation",
    # community chat, documents, web publishing
    "guild", "discord_channel", "forum_post", "document", "blog_post",
    # healthcare admin: e-prescribing, labs, prior authorization
    "prescription", "lab_order", "lab_result", "prior_authorization",
    # finance ops: subscription billing, bank feeds, sales tax
    "billing_plan", "billing_subscription", "bank_transaction", "bank_account", "tax_transaction",
    "tax_exemption",
    # mortgage, real-estate listings, student records
    "loan_application", "loan_condition", "listing", "showing", "offer", "student", "course_section",
    "grade",
    # courts, customs, warehousing
    "court_case", "court_filing", "hearing", "customs_entry", "inbound_shipment", "bin", "pick_list",
    # newsletters, podcasts, venues
    "newsletter_list", "newsletter_campaign", "podcast_show", "podcast_episode", "venue_event",
    "venue_lead", "banquet_order",
    # licensing, vehicle registration, public records
    "business_license", "license_application", "vehicle_registration", "records_request",
    # benefits, timesheets, background checks
    "benefit_plan", "benefit_enrollment", "life_event", "timesheet", "harvest_project", "background_check",
    # freight, treasury transfers, maintenance
    "freight_booking", "container", "fx_quote", "recipient", "transfer", "work_order", "equipment",
    # library circulation, git, notes
    "patron", "library_item", "loan", "hold", "commit", "branch", "memory_note",
    # healthcare admin: eligibility, patient billing, referrals
    "eligibility_check", "coverage", "patient_statement", "referral",
    # education and events: admissions, flashcards, conference programmes
    "applicant", "admission_application", "deck", "flashcard", "speaker", "conference_session",
    # devops: Cloud Run, workflow automation, containers
    "cloud_run_service", "cloud_run_revision", "workflow", "workflow_execution", "docker_container",
    # finance ops and commerce: corporate cards, loyalty, returns
    "card", "card_transaction", "loyalty_member", "reward", "return_request",
    # real estate, manufacturing quality, media assets
    "home_inspection", "inspection_defect", "nonconformance", "capa", "media_asset", "asset_collection",
    # office documents, task planning, notebooks
    "presentation", "slide", "task_request", "notebook", "notebook_cell",
    # legal trademarks, workplace visitors, finance fixed assets
    "trademark_application", "office_action", "visitor", "visitor_invite", "fixed_asset", "asset_disposal",
    # messaging and community: WhatsApp, forums, business reviews
    "whatsapp_chat", "whatsapp_group", "whatsapp_message", "forum_topic", "forum_flag",
    "business_location", "review",
    # developer tools: issue tracking, error tracking, DNS
    "linear_issue", "linear_team", "cycle", "error_issue", "error_event", "release", "dns_zone",
    "dns_record",
    # data platforms and operations: catalog, pipelines, safety inspections
    "catalog_dataset", "glossary_term", "connector", "sync_run", "safety_inspection", "safety_action",
    # people, workplace, sales engagement
    "review_cycle", "performance_review", "goal", "desk", "desk_reservation", "prospect", "sequence",
    "sequence_state",
    # government grants, financial aid, title and escrow
    "grant_opportunity", "grant_application", "aid_application", "aid_award", "title_order",
    "escrow_disbursement",
    # gift cards, dock scheduling, product lifecycle
    "gift_card", "gift_card_activity", "dock_appointment", "dock_door", "plm_item", "change_order",
)

ENTITY_TYPES: frozenset[str] = frozenset(VALUE_TYPES) | frozenset(f"{k}_id" for k in ID_KINDS)


class UnknownEntityType(ValueError):
    """Raised when code names an entity type outside the shared vocabulary."""


EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"


def entity(kind: str, description: str | None = None, **constraints: Any) -> Any:
    """A pydantic ``Field`` that tags a value with entity type ``kind``.

    Args:
        kind: one of :data:`ENTITY_TYPES`.
        description: optional field description for the JSON Schema.
        constraints: further ``Field`` constraints (``pattern``, ``ge``, ...).

    Raises:
        UnknownEntityType: ``kind`` is not in the shared vocabulary.
    """
    if kind not in ENTITY_TYPES:
        raise UnknownEntityType(
            f"entity type {kind!r} is not in the shared vocabulary; "
            f"use one of compoworld_gym.entities.ENTITY_TYPES or add it there"
        )
    return Field(description=description, json_schema_extra={"x-entity": kind}, **constraints)


def Id(kind: str) -> Any:  # noqa: N802 - reads like a type in annotations
    """The annotated type of a record id of ``kind`` (a string).

    Raises:
        UnknownEntityType: ``kind`` is not in :data:`ID_KINDS`.
    """
    return Annotated[str, entity(f"{kind}_id")]


Email = Annotated[str, entity("email", pattern=EMAIL_PATTERN)]
Phone = Annotated[str, entity("phone")]
PersonName = Annotated[str, entity("person_name")]
CompanyName = Annotated[str, entity("company")]
Date = Annotated[_dt.date, entity("date")]
DateTime = Annotated[_dt.datetime, entity("datetime")]
Money = Annotated[float, entity("money")]
Currency = Annotated[str, entity("currency")]
Url = Annotated[str, entity("url")]
Address = Annotated[str, entity("address")]
City = Annotated[str, entity("city")]
Country = Annotated[str, entity("country")]
Sku = Annotated[str, entity("sku")]
TrackingNumber = Annotated[str, entity("tracking_number")]
ChannelName = Annotated[str, entity("channel_name")]
Username = Annotated[str, entity("username")]
RepoName = Annotated[str, entity("repo_name")]
FilePath = Annotated[str, entity("file_path")]


def entities_in_schema(schema: Any) -> set[str]:
    """All ``x-entity`` tags found anywhere in a JSON Schema (recursive).

    Returns:
        The set of entity type names, e.g. ``{"email", "ticket_id"}``.
    """
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            tag = node.get("x-entity")
            if isinstance(tag, str):
                found.add(tag)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found
