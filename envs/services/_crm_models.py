"""State records and property-input models of the crm service (HubSpot shapes).

Record fields carry HubSpot's internal property names (``firstname``,
``lifecyclestage``, ``dealstage``, ``hs_note_body``...), so a property
written through a tool is the field a rubric check reads.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from compoworld_gym.entities import City, CompanyName, Country, Date, DateTime, Email, Id, Money, Phone, entity
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.service import Record, ServiceState

Domain = Annotated[str, entity("domain")]
ContactStage = Literal["subscriber", "lead", "marketingqualifiedlead", "salesqualifiedlead", "opportunity",
                       "customer", "evangelist", "other"]
LeadStatus = Literal["new", "open", "inprogress", "opennotcontacted", "opencontacted", "closedconverted",
                     "closednotconverted"]
CompanyStage = Literal["lead", "customer", "opportunity", "subscriber", "other"]
DealStage = Literal["appointmentscheduled", "qualifiedtobuy", "presentationscheduled", "decisionmakerboughtin",
                    "contractsent", "closedwon", "closedlost"]


def naive(value: dt.datetime) -> dt.datetime:
    """``value`` as a naive UTC datetime without microseconds."""
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return value.replace(microsecond=0)


class _Meta(Record):
    createdate: DateTime = Field(description="When the record was created.")
    lastmodifieddate: DateTime = Field(description="When the record last changed.")
    archived: bool = Field(default=False, description="Archived (deleted) records are hidden.")


class Contact(_Meta):
    """A person."""

    id: Id("contact") = Field(description="Contact id, e.g. CON-0001.")
    email: Email = Field(description="Primary email (unique).")
    firstname: Optional[str] = Field(default=None, description="First name.")
    lastname: Optional[str] = Field(default=None, description="Last name.")
    phone: Optional[Phone] = Field(default=None, description="Phone number.")
    company: Optional[CompanyName] = Field(default=None, description="Company name as typed on the contact.")
    jobtitle: Optional[str] = Field(default=None, description="Job title.")
    lifecyclestage: Optional[ContactStage] = Field(default=None, description="Marketing/sales stage.")
    hs_lead_status: Optional[LeadStatus] = Field(default=None, description="Lead status.")
    city: Optional[City] = Field(default=None, description="City.")
    country: Optional[Country] = Field(default=None, description="Country.")
    owner_email: Optional[Email] = Field(default=None, description="Account owner (company staff email).")


class Company(_Meta):
    """An organisation."""

    id: Id("company") = Field(description="Company id, e.g. COMP-0001.")
    name: CompanyName = Field(description="Company name.")
    domain: Optional[Domain] = Field(default=None, description="Web domain (unique), e.g. acme.example.")
    industry: Optional[str] = Field(default=None, description="Industry.")
    city: Optional[City] = Field(default=None, description="City.")
    country: Optional[Country] = Field(default=None, description="Country.")
    phone: Optional[Phone] = Field(default=None, description="Main phone.")
    annualrevenue: Optional[Money] = Field(default=None, ge=0, description="Annual revenue in USD.")
    numberofemployees: Optional[int] = Field(default=None, ge=0, description="Head count.")
    lifecyclestage: Optional[CompanyStage] = Field(default=None, description="Stage, e.g. customer.")
    owner_email: Optional[Email] = Field(default=None, description="Account owner (company staff email).")


class Deal(_Meta):
    """A sales opportunity."""

    id: Id("deal") = Field(description="Deal id, e.g. DEAL-0001.")
    dealname: str = Field(description="Deal name.")
    amount: Optional[Money] = Field(default=None, ge=0, description="Value in USD.")
    dealstage: DealStage = Field(default="appointmentscheduled", description="Pipeline stage.")
    pipeline: str = Field(default="default", description="Pipeline name.")
    closedate: Optional[Date] = Field(default=None, description="Expected or actual close date.")
    owner_email: Optional[Email] = Field(default=None, description="Deal owner (company staff email).")


class Note(_Meta):
    """A note logged on CRM records."""

    id: Id("note") = Field(description="Note id, e.g. NOTE-0001.")
    hs_note_body: str = Field(description="Note text.")
    hs_timestamp: DateTime = Field(description="When the activity happened.")
    hubspot_owner_id: Optional[str] = Field(default=None, description="Who logged it (free text or email).")


class Association(Record):
    """A directed link between two records; every link is stored in both directions."""

    from_type: str = Field(description="Source object type, e.g. contacts.")
    from_id: str = Field(description="Source record id.")
    to_type: str = Field(description="Target object type, e.g. companies.")
    to_id: str = Field(description="Target record id.")
    type_ids: list[int] = Field(description="HubSpot association type ids, e.g. [1, 279].")


class CrmState(ServiceState):
    """All CRM records and associations."""

    contacts: dict[str, Contact] = Field(default_factory=dict, description="Contacts by id.")
    companies: dict[str, Company] = Field(default_factory=dict, description="Companies by id.")
    deals: dict[str, Deal] = Field(default_factory=dict, description="Deals by id.")
    notes: dict[str, Note] = Field(default_factory=dict, description="Notes by id.")
    associations: dict[str, Association] = Field(
        default_factory=dict, description="Links keyed 'from_type:from_id->to_type:to_id'.")


#: A money property as written by a tool: bounded, rounded half-up to cents like every money field.
_Amount = Annotated[Money, Field(ge=0, le=MONEY_MAX), AfterValidator(money)]


class _Props(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class ContactProperties(_Props):
    """Writable contact properties (all optional; email required on create)."""

    email: Optional[Email] = None
    firstname: Optional[str] = None
    lastname: Optional[str] = None
    phone: Optional[Phone] = None
    company: Optional[CompanyName] = None
    jobtitle: Optional[str] = None
    lifecyclestage: Optional[ContactStage] = None
    hs_lead_status: Optional[LeadStatus] = None
    city: Optional[City] = None
    country: Optional[Country] = None
    owner_email: Optional[Email] = None


class CompanyProperties(_Props):
    """Writable company properties (name required on create)."""

    name: Optional[CompanyName] = None
    domain: Optional[Domain] = None
    industry: Optional[str] = None
    city: Optional[City] = None
    country: Optional[Country] = None
    phone: Optional[Phone] = None
    annualrevenue: Optional[_Amount] = None
    numberofemployees: Optional[int] = Field(default=None, ge=0, le=10_000_000)
    lifecyclestage: Optional[CompanyStage] = None
    owner_email: Optional[Email] = None


class DealProperties(_Props):
    """Writable deal properties (dealname required on create)."""

    dealname: Optional[str] = None
    amount: Optional[_Amount] = None
    dealstage: Optional[DealStage] = None
    pipeline: Optional[str] = None
    closedate: Optional[Date] = None
    owner_email: Optional[Email] = None


class NoteProperties(_Props):
    """Note properties: the body is required."""

    hs_note_body: str = Field(min_length=1, max_length=65536)
    hs_timestamp: Optional[DateTime] = None
    hubspot_owner_id: Optional[str] = None
