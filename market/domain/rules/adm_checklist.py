"""ADM-5..ADM-8, ADM-6: what a TECH application and a transfer must carry at each stage,
what is filed and what is missing, and the step after it in words.

Stages: `submission` (ADM-5, the eligibility package), `preliminary` (ADM-7, the exhibits
the Authority needs before it forwards the application to the Division of Taxation) and
`final` (ADM-8, a transfer's approval at closing)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from market.domain.casefile_errors import ApplicationLockedError, ExhibitMissingError
from market.domain.rules.tech_caps import deadline
from market.domain.rulesets import Ruleset

SUBMISSION = "submission"
PRELIMINARY = "preliminary"
FINAL = "final"
STAGES = (SUBMISSION, PRELIMINARY, FINAL)


@dataclass(frozen=True)
class ChecklistItem:
    kind: str
    stage: str
    required: bool
    document_ids: tuple[str, ...]

    @property
    def satisfied(self) -> bool:
        return bool(self.document_ids) or not self.required

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "stage": self.stage,
            "required": self.required,
            "satisfied": self.satisfied,
            "document_ids": list(self.document_ids),
        }


def words(kind: str) -> str:
    return kind.replace("_", " ")


def tech_kinds(ruleset: Ruleset, sold_prior_year: bool) -> list[tuple[str, str]]:
    """(kind, stage) of a TECH application: ADM-5 at submission, ADM-7 before forwarding;
    the spending certification at both when the seller sold the year before."""
    kinds = [(k, SUBMISSION) for k in ruleset.adm_submission_exhibits]
    if sold_prior_year:
        kinds.append((ruleset.adm_prior_sale_exhibit, SUBMISSION))  # ADM-5
    kinds += [(k, PRELIMINARY) for k in ruleset.adm_forward_exhibits]
    if sold_prior_year:
        kinds.append((ruleset.adm_prior_sale_exhibit, PRELIMINARY))  # ADM-7: held to forward
    return kinds


def transfer_kinds(ruleset: Ruleset, program: str) -> list[tuple[str, str]]:
    """A TECH sale's exhibits at its final approval; other programs' transfers carry none
    of ADM-7 (their rules name no sale exhibit)."""
    if program != "TECH":
        return []
    return [(k, FINAL) for k in ruleset.adm_transfer_exhibits]


def checklist(
    kinds: Sequence[tuple[str, str]], filed: Mapping[str, Sequence[str]]
) -> list[ChecklistItem]:
    """Each required kind with the ids of its filed versions (newest last); a filed kind
    nobody required is listed too, as not required."""
    items = [ChecklistItem(k, stage, True, tuple(filed.get(k, ()))) for k, stage in kinds]
    named = {k for k, _ in kinds}
    items += [
        ChecklistItem(k, SUBMISSION, False, tuple(ids))
        for k, ids in sorted(filed.items())
        if k not in named
    ]
    return items


def missing(items: Sequence[ChecklistItem], stages: Sequence[str]) -> list[str]:
    return [i.kind for i in items if i.stage in stages and not i.satisfied]


def require(items: Sequence[ChecklistItem], stages: Sequence[str], step: str) -> None:
    """ADM-5 / ADM-7: refuse a step while an exhibit of its stages is missing."""
    kinds = missing(items, stages)
    if kinds:
        raise ExhibitMissingError(
            f"{step} needs these exhibits filed first: {', '.join(words(k) for k in kinds)}.",
            {"kinds": kinds, "step": step},
        )


def check_not_locked(fiscal_year: int, today: date, ruleset: Ruleset) -> None:
    """ADM-6 / TB-6: from 12:00 am July 1 (New York) that year's applications lock."""
    last = deadline(fiscal_year, ruleset)
    if today > last:
        raise ApplicationLockedError(
            f"FY {fiscal_year} applications locked at 12:00 am on the day after "
            f"{last.isoformat()} (New York time); nothing may be added or submitted.",
            {"fiscal_year": fiscal_year, "locked_after": last.isoformat()},
        )
