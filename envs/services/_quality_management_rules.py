"""Rules of the quality_management service: NCR and CAPA workflows and dispositions.

The material review board's rules for a disposition: return-to-vendor only
for a bought-in material with a supplier; use-as-is never for a critical
nonconformance (the part would go out unfit for use); a major or critical
disposition is approved by a board member. An NCR closes only with a
disposition, and a critical one only once a CAPA addresses it. A CAPA's
actions are implemented only with a root cause and an action plan; it is
due by its most severe NCR (14 days critical, 30 major, 60 minor) unless a
due date is given; it is verified by someone other than its owner and
closes only after an effectiveness check found it effective (a
not-effective check reopens it).
"""

from __future__ import annotations

from compoworld_gym.envs.services._blocks import Lifecycle
from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._quality_management_models import Capa, Ncr, Part, QualityUser
from compoworld_gym.errors import Unprocessable

NCR = Lifecycle("NCR", {
    "start the investigation": ("open",), "disposition": ("investigation",), "close": ("dispositioned",),
    "void": ("open", "investigation"), "comment": ("open", "investigation", "dispositioned"),
    "link a CAPA": ("open", "investigation", "dispositioned", "closed")})
CAPA = Lifecycle("CAPA", {
    "plan": ("open", "in_progress"), "complete the actions": ("in_progress",),
    "check effectiveness": ("pending_verification",), "close": ("pending_verification",),
    "extend": ("open", "in_progress", "pending_verification"), "link an NCR": ("open", "in_progress")})


#: Days a CAPA is due in by its most severe NCR (none: preventive).
DUE_DAYS = {"critical": 14, "major": 30, "minor": 60}


def due_days(severities: list[str]) -> int:
    """Days until a new CAPA is due: by the most severe NCR it addresses (60 when it addresses none)."""
    return min([DUE_DAYS[s] for s in severities] or [60])


def value_at_risk(part: Part, quantity: float) -> float:
    """The standard cost of ``quantity`` units of ``part`` (the NCR's default cost)."""
    return money(part.unit_cost * quantity)


def check_disposition(ncr: Ncr, disposition: str, approver: QualityUser) -> None:
    """Refuse a disposition the material review board may not give.

    Raises:
        Unprocessable: 422, return-to-vendor without a supplier, use-as-is of a critical NCR, or a
            major/critical disposition approved by someone off the board.
    """
    if disposition == "return_to_vendor" and not ncr.supplier:
        raise Unprocessable(f"NCR {ncr.id} names no supplier ({ncr.sku} is not a bought-in material); "
                            "it cannot be returned to a vendor.")
    if disposition == "use_as_is" and ncr.severity == "critical":
        raise Unprocessable(f"NCR {ncr.id} is critical; a critical nonconformance cannot be used as is.")
    if ncr.severity in ("major", "critical") and not approver.mrb_member:
        raise Unprocessable(f"a {ncr.severity} disposition is approved by a material review board member; "
                            f"{approver.name} is not one.")


def check_closable(ncr: Ncr) -> None:
    """Refuse to close an NCR without a disposition, or a critical one no CAPA addresses.

    Raises:
        Unprocessable: 422.
    """
    if ncr.disposition is None:
        raise Unprocessable(f"NCR {ncr.id} has no disposition; an NCR closes only once it is dispositioned.")
    if ncr.severity == "critical" and not ncr.capa_ids:
        raise Unprocessable(f"NCR {ncr.id} is critical; open a CAPA for it before it is closed.")


def check_capa_closable(capa: Capa) -> None:
    """Refuse to close a CAPA whose latest effectiveness check is missing or not effective.

    Raises:
        Unprocessable: 422.
    """
    last = capa.effectiveness_checks[-1] if capa.effectiveness_checks else None
    if last is None or last.result != "effective":
        raise Unprocessable(f"CAPA {capa.id} has no effective effectiveness check; a CAPA closes only after its "
                            "effectiveness check found the actions effective.")
