"""Business rules of the lab orders service: the test compendium, reference ranges and flags, the order lifecycle.

Rules: an order goes draft -> active (sent to the lab) -> completed (report
released), and is revoked only from draft or active: a completed order
cannot be revoked (409); a specimen is collected only for an active order
and only of a type its tests need (422); a result is recorded only for an
analyte the order's tests measure and only once a specimen of that analyte's
type is collected (422); the report is released only when every analyte has
a result (422). Each result's flag is computed from its value against the
analyte's reference range (sex-specific where the range is) and critical limits.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from compoworld_gym.envs.services._blocks import Lifecycle


class Analyte(NamedTuple):
    """A measured analyte (LOINC): unit, reference range, critical limits, female range when it differs."""

    code: str
    display: str
    unit: str
    specimen: str
    low: Optional[float]
    high: Optional[float]
    critical_low: Optional[float] = None
    critical_high: Optional[float] = None
    female: Optional[tuple[float, float]] = None

    def range_for(self, gender: str) -> tuple[Optional[float], Optional[float]]:
        """``(low, high)`` of the reference range for a patient of ``gender``."""
        return self.female if self.female is not None and gender == "female" else (self.low, self.high)


ANALYTES: dict[str, Analyte] = {a.code: a for a in (
    Analyte("2345-7", "Glucose [Mass/volume] in Serum or Plasma", "mg/dL", "serum", 70, 99, 50, 400),
    Analyte("2160-0", "Creatinine [Mass/volume] in Serum or Plasma", "mg/dL", "serum", 0.7, 1.3, None, 10,
            female=(0.6, 1.1)),
    Analyte("2951-2", "Sodium [Moles/volume] in Serum or Plasma", "mmol/L", "serum", 136, 145, 120, 160),
    Analyte("2823-3", "Potassium [Moles/volume] in Serum or Plasma", "mmol/L", "serum", 3.5, 5.1, 2.8, 6.2),
    Analyte("1742-6", "Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma", "U/L", "serum",
            7, 56),
    Analyte("2093-3", "Cholesterol [Mass/volume] in Serum or Plasma", "mg/dL", "serum", None, 199),
    Analyte("13457-7", "Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation", "mg/dL", "serum",
            None, 99),
    Analyte("2085-9", "Cholesterol in HDL [Mass/volume] in Serum or Plasma", "mg/dL", "serum", 40, None),
    Analyte("2571-8", "Triglyceride [Mass/volume] in Serum or Plasma", "mg/dL", "serum", None, 149, None, 1000),
    Analyte("4548-4", "Hemoglobin A1c/Hemoglobin.total in Blood", "%", "whole blood", 4.0, 5.6),
    Analyte("718-7", "Hemoglobin [Mass/volume] in Blood", "g/dL", "whole blood", 13.5, 17.5, 7.0, 20.0,
            female=(12.0, 15.5)),
    Analyte("6690-2", "Leukocytes [#/volume] in Blood by Automated count", "10*3/uL", "whole blood", 4.5, 11.0,
            2.0, 30.0),
    Analyte("3016-3", "Thyrotropin [Units/volume] in Serum or Plasma", "mIU/L", "serum", 0.4, 4.0),
    Analyte("6301-6", "INR in Platelet poor plasma by Coagulation assay", "{INR}", "plasma", 0.8, 1.1, None, 5.0),
)}


class LabTest(NamedTuple):
    """An orderable test of the compendium (LOINC) and the analytes it reports."""

    code: str
    display: str
    analytes: tuple[str, ...]


#: The orderable tests (Health Gorilla compendium style), by LOINC code.
TESTS: dict[str, LabTest] = {t.code: t for t in (
    LabTest("24323-8", "Comprehensive metabolic panel", ("2345-7", "2160-0", "2951-2", "2823-3", "1742-6")),
    LabTest("57698-3", "Lipid panel with direct LDL", ("2093-3", "13457-7", "2085-9", "2571-8")),
    LabTest("4548-4", "Hemoglobin A1c", ("4548-4",)),
    LabTest("58410-2", "CBC panel", ("718-7", "6690-2")),
    LabTest("3016-3", "TSH", ("3016-3",)),
    LabTest("6301-6", "Prothrombin time INR", ("6301-6",)),
)}
#: Collection tube of each specimen type.
CONTAINERS: dict[str, str] = {"serum": "SST (gold top)", "whole blood": "EDTA (lavender top)",
                              "plasma": "Sodium citrate (light blue top)"}
#: Phlebotomists of the clinic's draw station.
COLLECTORS: tuple[str, ...] = ("Tanya Brooks, CPT", "Luis Moreno, CPT", "Keiko Sato, CPT")
#: An order's statuses from which each action may start (409 otherwise).
ORDER = Lifecycle("lab order", {
    "activation": ("draft",), "revocation": ("draft", "active"), "specimen collection": ("active",),
    "recording a result": ("active",), "release": ("active",), "a correction": ("active", "completed"),
})


def analytes_of(test_codes: list[str]) -> list[str]:
    """The analyte codes the tests report, in order, without repeats."""
    return list(dict.fromkeys(a for t in test_codes for a in TESTS[t].analytes))


def specimen_types(test_codes: list[str]) -> list[str]:
    """The specimen types the tests need, in order, without repeats."""
    return list(dict.fromkeys(ANALYTES[a].specimen for a in analytes_of(test_codes)))


def interpret(analyte: Analyte, value: float, gender: str) -> str:
    """The flag of ``value``: LL/HH beyond the critical limits, L/H outside the reference range, else N."""
    if analyte.critical_low is not None and value < analyte.critical_low:
        return "LL"
    if analyte.critical_high is not None and value > analyte.critical_high:
        return "HH"
    low, high = analyte.range_for(gender)
    if low is not None and value < low:
        return "L"
    if high is not None and value > high:
        return "H"
    return "N"
