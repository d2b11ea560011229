"""Tax clearance certificates (ADM-11, ADM-12): recorded by the Authority per party and
program, with `valid_until` and the renewals left computed; the steps ADM-12 names refuse
without a valid one (`tax_clearance_missing`, `tax_clearance_expired`)."""

from __future__ import annotations

from datetime import date

from market.domain.casefile_errors import TaxClearanceExpiredError, TaxClearanceMissingError
from market.domain.commands.casefiles import RecordClearance
from market.domain.errors import InvalidRequestError
from market.domain.events.casefiles import TaxClearanceRecorded
from market.domain.model.case_file import TaxClearance
from market.domain.programs import Program
from market.domain.rules import adm_clearance
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.clock import now_utc, today
from market.services.kernel.errors import (
    AlreadyRenewedError,
    DuplicateCertificateError,
    not_found,
)
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import load_party

PROGRAMS = tuple(p.value for p in Program)


def _chain(source: Source, renews: str | None) -> list[TaxClearance]:
    """The certificates a renewal continues, oldest first."""
    chain: list[TaxClearance] = []
    repos = repositories(source)
    key = renews
    while key is not None:
        row = repos.tax_clearances.load(key)
        if row is None:
            raise not_found("Tax clearance", "renews", key)
        chain.insert(0, row)
        key = row["renews"]
    return chain


def record_clearance(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, command: RecordClearance
) -> TaxClearance:
    party_id, certificate_number, issued_on, program, renews = (
        command.party_id,
        command.certificate_number,
        command.issued_on,
        command.program,
        command.renews,
    )
    actor.require(AUTHORITY)
    load_party(uow, party_id)
    if program not in PROGRAMS:
        raise InvalidRequestError(
            f"program must be one of {', '.join(PROGRAMS)}.", {"program": program}
        )
    number = certificate_number.strip()
    if not number:
        raise InvalidRequestError("certificate_number is required.", {})
    chain = _chain(uow, renews)
    if chain and (chain[-1]["party_id"] != party_id or chain[-1]["program"] != program):
        raise InvalidRequestError(
            "A renewal renews a certificate of the same party and program.", {"renews": renews}
        )
    if renews is not None and any(r["renews"] == renews for r in uow.tax_clearances.every()):
        raise AlreadyRenewedError(
            "That certificate was already renewed; renew the latest one.", {"renews": renews}
        )
    if any(
        r["certificate_number"] == number for r in uow.tax_clearances.of_party(party_id, program)
    ):
        raise DuplicateCertificateError(
            f"Certificate {number} is already recorded.", {"certificate_number": number}
        )
    clearance = adm_clearance.Clearance(
        issued_on, [date.fromisoformat(r["issued_on"]) for r in chain]
    )
    left = adm_clearance.check_new(clearance, today(), ruleset)
    clearance_id = new_id("tcc")
    uow.append(
        f"clearance-{clearance_id}",
        TaxClearanceRecorded(
            clearance_id=clearance_id,
            party_id=party_id,
            program=program,
            certificate_number=number[:100],
            issued_on=issued_on.isoformat(),
            renews=renews,
            valid_until=adm_clearance.valid_until(issued_on, ruleset).isoformat(),
            renewals_left=left,
            recorded_at=now_utc().isoformat(timespec="seconds"),
        ),
        actor.label,
        new_stream=True,
    )
    recorded = uow.tax_clearances.load(clearance_id)
    if recorded is None:
        raise not_found("Tax clearance", "clearance_id", clearance_id)
    return recorded


def latest(source: Source, party_id: str, program: str) -> TaxClearance | None:
    rows = repositories(source).tax_clearances.of_party(party_id, program)
    return rows[-1] if rows else None


def list_clearances(source: Source, actor: Actor, party_id: str) -> list[TaxClearance]:
    actor.require_reader_of(party_id, not_found("Party", "party_id", party_id))
    return repositories(source).tax_clearances.of_party(party_id)


def require_valid(source: Source, party_id: str, program: str, on: date, ruleset: Ruleset) -> None:
    """ADM-12: the party's latest certificate for the program is valid on `on`."""
    row = latest(source, party_id, program)
    issued = date.fromisoformat(row["issued_on"]) if row else None
    state = adm_clearance.state_on(issued, on, ruleset)
    details: dict[str, object] = {"party_id": party_id, "program": program, "on": on.isoformat()}
    if state == "missing":
        raise TaxClearanceMissingError(
            f"A {program} tax clearance certificate of the party is needed (ADM-12).", details
        )
    if state == "expired" and row is not None:
        raise TaxClearanceExpiredError(
            f"The party's tax clearance certificate {row['certificate_number']} was valid "
            f"until {row['valid_until']} (ADM-11); renew it.",
            details | {"valid_until": row["valid_until"]},
        )
