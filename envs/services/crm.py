"""CRM: HubSpot-style contacts, companies, deals, notes and associations.

Follows ``@shinzo-labs_hubspot-mcp`` (an 18-tool subset with the spec's names,
parameters and required sets). Inputs and outputs use HubSpot's shapes:
objects are written as ``{"properties": {...}}`` and read back as
``{"id", "properties", "createdAt", "updatedAt", "archived"}``; search takes
``filterGroups`` / ``sorts`` / ``after`` (see :mod:`._hubspot`). State keeps
each property as a typed field of its record. ``owner_email`` (the account
owner, a custom property) must be a company staff member.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Literal, Optional

from faker import Faker
from pydantic import BaseModel, Field

from compoworld_gym.envs.services import _crm_models as m
from compoworld_gym.envs.services._crm_rules import (
    META, REQUIRED, SINGULAR, association_target, check_clearable, check_props, check_type, find, link,
    parse_props, render)
from compoworld_gym.envs.services._crm_seed import seed_crm
from compoworld_gym.envs.services._hubspot import (
    LABELS, AssociationInput, AssociationTypeSpec, FilterGroup, ObjectId, Sort, page)
from compoworld_gym.entities import Id
from compoworld_gym.errors import InvalidArgument, NotFound
from compoworld_gym.service import Service, tool

ObjectType = Literal["companies", "contacts", "deals"]


class Crm(Service):
    """HubSpot CRM: contacts, companies, deals, notes and their associations."""

    name = "crm"
    description = "HubSpot CRM: contacts, companies and deals with account owners, notes and associations."
    domain = "sales"
    spec_source = "@shinzo-labs_hubspot-mcp"
    State = m.CrmState

    # --------------------------------------------------------------- contacts
    @tool(read_only=False, returns=m.Contact)
    def crm_create_contact(self, properties: m.ContactProperties,
                           associations: list[AssociationInput] = Field(default_factory=list)) -> dict:
        """Create a contact; email is required and must be unique.

        Args:
            properties: contact properties, e.g. {email, firstname, lastname, phone, company, jobtitle,
                lifecyclestage, owner_email}.
            associations: objects to link, e.g. [{to: {id: COMP-0001}, types: [{associationCategory:
                HUBSPOT_DEFINED, associationTypeId: 279}]}].
        """
        return self._create("contacts", properties, associations)

    @tool(read_only=True, returns=m.Contact)
    def crm_get_contact(
        self, contactId: Id("contact"),  # noqa: N803 - spec names
        properties: Optional[list[str]] = None,
        associations: Optional[list[Literal["companies", "deals", "tickets", "calls", "emails", "meetings",
                                            "notes"]]] = None,
    ) -> dict:
        """Get one contact by id, optionally only some properties and with associated object ids.

        Args:
            contactId: the contact id, e.g. CON-0001.
            properties: property names to return (default: all).
            associations: object types whose associated ids to include, e.g. ['companies', 'notes'].
        """
        return self._get("contacts", contactId, properties, associations)

    @tool(read_only=False, returns=m.Contact)
    def crm_update_contact(self, contactId: Id("contact"), properties: m.ContactProperties) -> dict:  # noqa: N803
        """Update a contact's properties (only those given change; null clears one).

        Args:
            contactId: the contact id.
            properties: the properties to change.
        """
        return self._update("contacts", contactId, properties)

    @tool(read_only=True, returns=list[m.Contact])
    def crm_search_contacts(
        self, filterGroups: list[FilterGroup],  # noqa: N803
        properties: Optional[list[str]] = None,
        limit: int = Field(default=10, ge=1, le=100),
        after: Optional[str] = None,
        sorts: list[Sort] = Field(default_factory=list),
    ) -> dict:
        """Search contacts: filter groups are ORed, filters in a group ANDed.

        Args:
            filterGroups: e.g. [{filters: [{propertyName: 'email', operator: 'EQ', value: 'a@b.com'}]}];
                [] returns every contact.
            properties: property names to return (default: all).
            limit: page size (1-100).
            after: paging.next.after of the previous page.
            sorts: e.g. [{propertyName: 'lastname', direction: 'ASCENDING'}].
        """
        return self._search("contacts", filterGroups, properties, limit, after, sorts)

    # -------------------------------------------------------------- companies
    @tool(read_only=False, returns=m.Company)
    def crm_create_company(self, properties: m.CompanyProperties,
                           associations: list[AssociationInput] = Field(default_factory=list)) -> dict:
        """Create a company; name is required and domain must be unique.

        Args:
            properties: company properties, e.g. {name, domain, industry, city, country, annualrevenue,
                numberofemployees, lifecyclestage, owner_email}.
            associations: objects to link (type 280 company->contact, 342 company->deal).
        """
        return self._create("companies", properties, associations)

    @tool(read_only=True, returns=m.Company)
    def crm_get_company(
        self, companyId: Id("company"),  # noqa: N803
        properties: Optional[list[str]] = None,
        associations: Optional[list[Literal["contacts", "deals", "tickets"]]] = None,
    ) -> dict:
        """Get one company by id, optionally with associated contact/deal ids.

        Args:
            companyId: the company id, e.g. COMP-0001.
            properties: property names to return (default: all).
            associations: object types whose associated ids to include.
        """
        return self._get("companies", companyId, properties, associations)

    @tool(read_only=False, returns=m.Company)
    def crm_update_company(self, companyId: Id("company"), properties: m.CompanyProperties) -> dict:  # noqa: N803
        """Update a company's properties (only those given change).

        Args:
            companyId: the company id.
            properties: the properties to change.
        """
        return self._update("companies", companyId, properties)

    @tool(read_only=True, returns=list[m.Company])
    def crm_search_companies(
        self, filterGroups: list[FilterGroup],  # noqa: N803
        properties: Optional[list[str]] = None,
        limit: int = Field(default=10, ge=1, le=100),
        after: Optional[str] = None,
        sorts: list[Sort] = Field(default_factory=list),
    ) -> dict:
        """Search companies (same filter syntax as crm_search_contacts).

        Args:
            filterGroups: e.g. [{filters: [{propertyName: 'annualrevenue', operator: 'GTE', value: 1000000}]}].
            properties: property names to return (default: all).
            limit: page size (1-100).
            after: paging.next.after of the previous page.
            sorts: sort keys.
        """
        return self._search("companies", filterGroups, properties, limit, after, sorts)

    # ------------------------------------------------------ generic objects
    @tool(read_only=True)
    def crm_list_objects(
        self, objectType: ObjectType,  # noqa: N803
        properties: Optional[list[str]] = None,
        after: Optional[str] = None,
        limit: int = Field(default=10, ge=1, le=100),
        archived: bool = False,
    ) -> dict:
        """List objects of one type (contacts, companies or deals) in id order.

        Args:
            objectType: 'contacts', 'companies' or 'deals'.
            properties: property names to return (default: all).
            after: paging.next.after of the previous page.
            limit: page size (1-100).
            archived: list archived objects instead of active ones.
        """
        rows = [r for r in self._coll(objectType).values() if r.archived == archived]
        chunk, paging = page(rows, after, limit)
        return {"results": [self._render(r, properties) for r in chunk], "paging": paging}

    @tool(read_only=True)
    def crm_get_object(
        self, objectType: ObjectType, objectId: ObjectId,  # noqa: N803
        properties: Optional[list[str]] = None,
        associations: Optional[list[str]] = None,
    ) -> dict:
        """Get one contact, company or deal by type and id.

        Args:
            objectType: 'contacts', 'companies' or 'deals'.
            objectId: the object id, e.g. DEAL-0001.
            properties: property names to return (default: all).
            associations: object types whose associated ids to include, e.g. ['contacts'].
        """
        return self._get(objectType, objectId, properties, associations)

    @tool(read_only=False)
    def crm_create_object(
        self, objectType: ObjectType, properties: dict[str, Any],  # noqa: N803
        associations: list[AssociationInput] = Field(default_factory=list),
    ) -> dict:
        """Create a contact, company or deal from a properties object (use it for deals).

        Args:
            objectType: 'contacts', 'companies' or 'deals'.
            properties: e.g. for a deal {dealname, amount, dealstage, closedate, owner_email}.
            associations: objects to link (deal->contact 3, deal->company 341).
        """
        return self._create(objectType, parse_props(objectType, properties), associations)

    @tool(read_only=False)
    def crm_update_object(self, objectType: ObjectType, objectId: ObjectId,  # noqa: N803
                          properties: dict[str, Any]) -> dict:
        """Update a contact, company or deal (e.g. move a deal to another dealstage).

        Args:
            objectType: 'contacts', 'companies' or 'deals'.
            objectId: the object id.
            properties: the properties to change.
        """
        return self._update(objectType, objectId, parse_props(objectType, properties))

    @tool(read_only=True)
    def crm_search_objects(
        self, objectType: ObjectType, filterGroups: list[FilterGroup],  # noqa: N803
        properties: Optional[list[str]] = None,
        limit: int = Field(default=10, ge=1, le=100),
        after: Optional[str] = None,
        sorts: list[Sort] = Field(default_factory=list),
    ) -> dict:
        """Search contacts, companies or deals with filter groups.

        Args:
            objectType: 'contacts', 'companies' or 'deals'.
            filterGroups: ORed groups of ANDed filters; [] matches everything.
            properties: property names to return (default: all).
            limit: page size (1-100).
            after: paging.next.after of the previous page.
            sorts: sort keys.
        """
        return self._search(objectType, filterGroups, properties, limit, after, sorts)

    # ---------------------------------------------------------- associations
    @tool(read_only=True)
    def crm_get_associations(
        self, fromObjectType: ObjectType, toObjectType: ObjectType, fromObjectId: ObjectId,  # noqa: N803
        after: Optional[str] = None,
        limit: int = Field(default=100, ge=1, le=500),
    ) -> dict:
        """List the objects of one type associated with an object.

        Args:
            fromObjectType: type of the object, e.g. 'companies'.
            toObjectType: type of the associated objects, e.g. 'contacts'.
            fromObjectId: id of the object.
            after: paging.next.after of the previous page.
            limit: page size (1-500).
        """
        self._obj(fromObjectType, fromObjectId)
        rows = [{"toObjectId": a.to_id, "associationTypes": [
            {"category": "HUBSPOT_DEFINED", "typeId": t, "label": LABELS.get(t)} for t in a.type_ids]}
            for a in self.state.associations.values()
            if a.from_type == fromObjectType and a.from_id == fromObjectId and a.to_type == toObjectType]
        chunk, paging = page(rows, after, limit)
        return {"results": chunk, "paging": paging}

    @tool(read_only=False)
    def crm_create_association(
        self, fromObjectType: ObjectType, toObjectType: ObjectType,  # noqa: N803
        fromObjectId: ObjectId, toObjectId: ObjectId,  # noqa: N803
        associationTypes: list[AssociationTypeSpec] = Field(min_length=1),  # noqa: N803
    ) -> dict:
        """Associate two objects (idempotent); the link is readable from both sides.

        Args:
            fromObjectType: type of the first object.
            toObjectType: type of the second object.
            fromObjectId: id of the first object.
            toObjectId: id of the second object.
            associationTypes: e.g. [{associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279}]
                (contact->company 279 or 1 primary, deal->contact 3, deal->company 341 or 5 primary).
        """
        self._obj(fromObjectType, fromObjectId)
        self._obj(toObjectType, toObjectId)
        for t in associationTypes:
            check_type(fromObjectType, t.associationTypeId, toObjectType)
        type_ids = [t.associationTypeId for t in associationTypes]
        link(self.state.associations, fromObjectType, fromObjectId, toObjectType, toObjectId, type_ids)
        return self.crm_get_associations(fromObjectType, toObjectType, fromObjectId, after=None, limit=500)

    # ------------------------------------------------------------------ notes
    @tool(read_only=False, returns=m.Note)
    def notes_create(self, properties: m.NoteProperties,
                     associations: list[AssociationInput] = Field(default_factory=list)) -> dict:
        """Log a note, usually on a contact (type 202), company (190) or deal (214).

        Args:
            properties: {hs_note_body (required), hs_timestamp (ISO, default now), hubspot_owner_id}.
            associations: e.g. [{to: {id: CON-0001}, types: [{associationCategory: HUBSPOT_DEFINED,
                associationTypeId: 202}]}].
        """
        links = self._resolve("notes", associations)
        now = self.now()
        note = m.Note(id=self.new_id("NOTE"), hs_note_body=properties.hs_note_body,
                      hs_timestamp=m.naive(properties.hs_timestamp) if properties.hs_timestamp else now,
                      hubspot_owner_id=properties.hubspot_owner_id, createdate=now, lastmodifieddate=now)
        self.state.notes[note.id] = note
        for to_type, to_id, types in links:
            link(self.state.associations, "notes", note.id, to_type, to_id, types)
        return self._render(note, None, ["contacts", "companies", "deals"])

    @tool(read_only=True, returns=m.Note)
    def notes_get(self, noteId: Id("note"), properties: Optional[list[str]] = None,  # noqa: N803
                  associations: Optional[list[Literal["contacts", "companies", "deals", "tickets"]]] = None) -> dict:
        """Get one note, optionally with the ids of the records it is attached to.

        Args:
            noteId: the note id, e.g. NOTE-0001.
            properties: property names to return (default: all).
            associations: object types whose associated ids to include.
        """
        return self._render(self.lookup(self.state.notes, noteId, "note"), properties, associations)

    @tool(read_only=True, returns=list[m.Note])
    def notes_list(
        self, limit: int = Field(default=10, ge=1, le=100),
        after: Optional[str] = None,
        properties: Optional[list[str]] = None,
        associations: Optional[list[Literal["contacts", "companies", "deals", "tickets"]]] = None,
        archived: bool = False,
    ) -> dict:
        """List notes, newest first.

        Args:
            limit: page size (1-100).
            after: paging.next.after of the previous page.
            properties: property names to return (default: all).
            associations: object types whose associated ids to include.
            archived: list archived notes instead of active ones.
        """
        notes = sorted((n for n in self.state.notes.values() if n.archived == archived),
                       key=lambda n: (n.hs_timestamp, n.id), reverse=True)
        chunk, paging = page(notes, after, limit)
        return {"results": [self._render(n, properties, associations) for n in chunk], "paging": paging}

    # --------------------------------------------------------------- helpers
    def _coll(self, otype: str) -> dict:
        return getattr(self.state, META[otype][0])

    def _obj(self, otype: str, oid: str) -> Any:
        rec = self._coll(otype).get(oid) if otype in META else self.state.notes.get(oid)
        if rec is None or rec.archived:
            raise NotFound(f"{SINGULAR.get(otype, otype)} {oid!r} not found; search {otype} to find valid ids.")
        return rec

    def _resolve(self, from_type: str, associations: list[AssociationInput]) -> list[tuple[str, str, list[int]]]:
        links = []
        for a in associations:
            to_type = association_target(from_type, [t.associationTypeId for t in a.types])
            self._obj(to_type, a.to.id)
            links.append((to_type, a.to.id, [t.associationTypeId for t in a.types]))
        return links

    def _create(self, otype: str, props: BaseModel, associations: list[AssociationInput]) -> dict:
        values = {k: v for k, v in props.model_dump(exclude_unset=True).items() if v is not None}
        if values.get(REQUIRED[otype]) in (None, ""):
            raise InvalidArgument(f"properties.{REQUIRED[otype]} is required to create {otype}.")
        check_props(otype, values, None, self._coll(otype))
        links = self._resolve(otype, associations)
        now = self.now()
        rec = META[otype][1](id=self.new_id(META[otype][3]), createdate=now, lastmodifieddate=now, **values)
        self._coll(otype)[rec.id] = rec
        for to_type, to_id, types in links:
            link(self.state.associations, otype, rec.id, to_type, to_id, types)
        return self._render(rec, None)

    def _update(self, otype: str, oid: str, props: BaseModel) -> dict:
        rec = self._obj(otype, oid)
        values = props.model_dump(exclude_unset=True)
        if not values:
            raise InvalidArgument("properties is empty: give at least one property to change.")
        check_clearable(otype, values)
        check_props(otype, values, oid, self._coll(otype))
        for key, value in values.items():
            setattr(rec, key, value)
        rec.lastmodifieddate = self.now()
        return self._render(rec, None)

    def _get(self, otype: str, oid: str, properties: Optional[list[str]], associations: Optional[list[str]]) -> dict:
        return self._render(self._obj(otype, oid), properties, associations)

    def _search(self, otype, groups, properties, limit, after, sorts) -> dict:
        found = find(otype, self._coll(otype), groups, sorts)
        chunk, paging = page(found, after, limit)
        return {"total": len(found), "results": [self._render(r, properties) for r in chunk], "paging": paging}

    def _render(self, rec: Any, properties: Optional[list[str]], associations: Optional[list[str]] = None) -> dict:
        return render(rec, properties, associations, self.state.associations)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> m.CrmState:
        return seed_crm(fake, rng, today)
