"""Seed data of the task_requests service: staff work requests and their tasks.

Requests are raised by the company's staff (``_company.STAFF``); their tasks
quote the shared order book's order ids and customer emails
(``_commerce.order_book``), the company's vendors and employees' emails.
They sit at every stage of the server's cycle: tasks pending, done awaiting
approval, approved; one request with every task approved awaiting the
request's approval, and one completed request.
"""

from __future__ import annotations

import datetime as dt
import random

from compoworld_gym.envs.services._commerce import order_book
from compoworld_gym.envs.services._company import STAFF
from compoworld_gym.envs.services._task_requests_models import TaskItem, TaskRequest, TaskRequestsState

_BY_NAME = {s.name: s.email for s in STAFF}
#: Vendors the requests are about (also the names the procurement requests use).
VENDORS = ("Keller Logistik GmbH", "Northwind Computing", "Brightline Office Supply", "Harbor Freight Partners")
#: Task stages: P pending, D done awaiting approval, A done and approved.
_DETAILS = {"D": "Done; see the notes on the request.", "A": "Done and checked by the owner."}


def _requests(today: dt.date) -> list[tuple[str, str, int, str, list[tuple[str, str, str]]]]:
    """(owner name, request, days ago, stages note, [(stage, title, description)])."""
    book = {o.id: o for o in order_book(today)}
    o11, o8, o3, o5 = book["ORD-0011"], book["ORD-0008"], book["ORD-0003"], book["ORD-0005"]
    keller, northwind, brightline, harbor = VENDORS
    return [
        ("Tomas Lindqvist", f"Onboard {keller} as our EU freight vendor", 12, "vendor onboarding", [
            ("A", "Collect tax form", f"Get the signed W-8BEN-E from {keller}."),
            ("D", "Create the vendor record", f"Add {keller} to accounts payable with net-30 terms."),
            ("P", "Verify bank details", f"Call {keller} on the number in the contract to confirm the IBAN."),
            ("P", "Add to approved vendors", f"List {keller} on the approved-vendor sheet for logistics.")]),
        ("Ben Foster", "Laptop refresh for the support and billing desks", 9, "laptop refresh", [
            ("A", "Order replacement laptops", f"Order three 14-inch laptops from {northwind}."),
            ("P", "Set up luis.ortega@company.example",
             "Image the new laptop for luis.ortega@company.example and move his files."),
            ("P", "Set up marcus.bell@company.example",
             "Image the new laptop for marcus.bell@company.example and move his files."),
            ("P", "Wipe returned laptops", f"Wipe the old laptops and send them back to {northwind}.")]),
        ("Luis Ortega", f"Follow up on the refund escalation for order {o11.id}", 4, "escalation follow-up", [
            ("A", "Confirm the refund posted", f"Check with billing that order {o11.id} was refunded in full."),
            ("P", "Call back the customer", f"Call {o11.customer.email} about order {o11.id} and confirm the refund."),
            ("P", "Close the ticket", f"Close the support ticket for order {o11.id} once the customer confirms.")]),
        ("Grace Okafor", f"Chase the late shipment of order {o8.id}", 3, "late shipment", [
            ("P", "Ask the carrier for a trace", f"Open a trace with the carrier for order {o8.id}."),
            ("P", "Update the customer", f"Email {o8.customer.email} the new delivery date for order {o8.id}.")]),
        ("Sofia Marin", "Quarterly access review for the billing systems", 40, "access review", [
            ("A", "Export the access list", "Export who can issue refunds in the billing system."),
            ("A", "Review with the billing lead", "Review the list with priya.raman@company.example."),
            ("A", "Remove leavers", "Remove accounts of people who left this quarter.")]),
        ("Hannah Kovacs", f"Replace the damaged monitor on order {o3.id}", 6, "replacement", [
            ("A", "Get photos of the damage", f"Ask {o3.customer.email} for photos of the damage on order {o3.id}."),
            ("D", "Ship the replacement", f"Ship a replacement for order {o3.id} by express."),
            ("P", "Claim from the carrier", f"File the damage claim with {harbor} for order {o3.id}.")]),
        ("Elena Petrova", f"Onboard {brightline} as the stationery vendor", 15, "vendor onboarding", [
            ("A", "Collect W-9", f"Get the signed W-9 from {brightline}."),
            ("A", "Create the vendor record", f"Add {brightline} to accounts payable with net-45 terms."),
            ("A", "First purchase order", f"Raise the first purchase order with {brightline} for notebooks.")]),
        ("Daniel Cho", f"Set up the new warehouse courier lane for order {o5.id} onward", 2, "courier lane", [
            ("P", "Agree rates", f"Agree next-day rates with {harbor} for parcels under 5 kg."),
            ("P", "Test label printing", f"Print a test label for order {o5.id} with the new lane."),
            ("P", "Brief the team", "Brief grace.okafor@company.example and the packers on the new lane.")]),
    ]


def build_state(rng: random.Random, today: dt.date) -> TaskRequestsState:
    """The seeded requests (fixed content; ``rng`` only varies when tasks were done)."""
    state = TaskRequestsState()
    n_task = 1
    plans = _requests(today)
    for n, (owner, text, ago, kind, tasks) in enumerate(plans, start=1):
        rid = f"req-{n}"
        req = TaskRequest(id=rid, originalRequest=text, splitDetails=f"Split into {len(tasks)} steps ({kind}).",
                          ownerEmail=_BY_NAME[owner], createdOn=today - dt.timedelta(days=ago))
        for stage, title, desc in tasks:
            tid = f"task-{n_task}"
            n_task += 1
            done_at = None
            if stage != "P":
                day = today - dt.timedelta(days=rng.randint(0, max(ago - 1, 0)))
                done_at = dt.datetime.combine(day, dt.time(9 + rng.randint(0, 7), rng.choice((0, 15, 30, 45))))
            state.tasks[tid] = TaskItem(id=tid, requestId=rid, title=title, description=desc, done=stage != "P",
                                        approved=stage == "A", completedDetails=_DETAILS.get(stage, ""),
                                        doneAt=done_at)
            req.taskIds.append(tid)
        req.completed = kind == "access review"
        state.requests[rid] = req
    state.counters["req"] = len(plans) + 1
    state.counters["task"] = n_task
    return state
