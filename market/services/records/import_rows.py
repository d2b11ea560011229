"""One import row through the same use cases as a live request (PRODUCT.md 9.1): a party
(`register_party`, its facts, an owner's stake), a certificate (`issue_certificate`), a
transfer (`create_transfer`, the buyer's `confirm_transfer`, `approve_transfer` on the
exchange date), each under the ruleset in force at the row's date."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from market.domain.commands.parties import RecordOwnership
from market.domain.commands.records import RecordPartyFacts
from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.domain.names import invisible_problem
from market.domain.programs import Program
from market.domain.rules.records import (
    RecordValueError,
    check_naics,
    parse_cents,
    parse_date,
    parse_employees,
)
from market.domain.rulesets import Ruleset, ScheduleEntry, ruleset_for
from market.domain.values import format_cents
from market.services.certificates.certificates import (
    NewCertificate,
    issue_certificate,
    parse_program,
)
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import NewParty, record_ownership, register_party
from market.services.records.csv_rows import Columns, cell
from market.services.records.party_facts import record_party_facts
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import confirm_transfer, create_transfer

PARTY_COLUMNS = Columns(
    ("name", "tax_id", "entity_type", "tax_types"),
    (
        "in_innovation_zone",
        "us_employees",
        "nj_full_time_employees",
        "formed_on",
        "naics_code",
        "employees",
        "owner_tax_id",
        "owner_voting_bps",
        "owner_value_bps",
    ),
)
CERTIFICATE_COLUMNS = Columns(
    ("program", "holder_tax_id", "face", "fiscal_year", "issued_on"),
    (
        "tax_types",
        "tax_periods",
        "credit_year",
        "creditable_activity_ids",
        "retained_jobs",
        "award_years",
        "nj_operations_since",
        "cannot_use_before_expiry",
        "tax_period_start_month",
    ),
)
TRANSFER_COLUMNS = Columns(
    ("certificate_number", "buyer_tax_id", "amount", "consideration", "exchange_date"),
    ("agreement_ref", "use_of_proceeds"),
)


class RowRefused(DomainError):
    """A row refused before (or instead of) a use case: which field and why."""

    def __init__(self, field: str, code: str, message: str) -> None:
        super().__init__(message, {"field": field})
        self.field = field
        self.code = code


@dataclass(frozen=True)
class RowContext:
    actor: Actor
    schedule: tuple[ScheduleEntry, ...]

    def ruleset(self, program: Program, on: date) -> Ruleset:
        """The statute's ruleset in force on the row's date, without the ADM process
        (RULES.md section 7): an imported sale's exhibits, fees and tax clearance were
        handled on paper by the registry the row comes from, so the import records the
        sale under every statutory rule but does not invoice fees nor ask for a case file
        the Authority never kept here (docs/IMPORT.md)."""
        return replace(ruleset_for(program, on, self.schedule), adm_in_force_from=None)


def _field(name: str, parse: Callable[[str], Any], text: str | None) -> Any:
    """A parsed cell; a refusal names the column."""
    if text is None:
        return None
    try:
        return parse(text)
    except RecordValueError as exc:
        raise RowRefused(name, exc.code, exc.message) from None
    except ValueError:
        raise RowRefused(name, "invalid_value", f"{name} {text!r} is not valid.") from None


def _integer(name: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.lstrip("-").isdigit():
            raise RecordValueError("invalid_number", f"{name} {text!r} is not a whole number.")
        value = int(text)
        if value < 0:
            raise RecordValueError("negative_amount", f"{name} must not be negative: {text}.")
        return value

    return parse


def _boolean(name: str) -> Callable[[str], bool]:
    def parse(text: str) -> bool:
        lowered = text.lower()
        if lowered in ("true", "yes", "y", "1"):
            return True
        if lowered in ("false", "no", "n", "0"):
            return False
        raise RecordValueError("invalid_value", f"{name} {text!r} is not yes or no.")

    return parse


def _list(text: str) -> list[str]:
    return [p.strip() for p in text.split(";") if p.strip()]


def _party_id_by_tax_id(uow: AbstractUnitOfWork, field: str, tax_id: str) -> str:
    party = uow.parties.by_tax_id(tax_id)
    if party is None:
        raise RowRefused(
            field,
            "party_not_defined",
            f"No party with tax id {tax_id} is registered or defined in an earlier row.",
        )
    return str(party["id"])


def import_party(uow: AbstractUnitOfWork, ctx: RowContext, row: Mapping[str, str]) -> str:
    def get(name: str, parse: Callable[[str], Any]) -> Any:
        return _field(name, parse, cell(row, name))

    naics = get("naics_code", check_naics)
    employees = get("employees", parse_employees)
    owner_tax_id = cell(row, "owner_tax_id")
    owner_id = _party_id_by_tax_id(uow, "owner_tax_id", owner_tax_id) if owner_tax_id else None
    formed = get("formed_on", lambda t: parse_date(t, "formed_on"))
    hidden = invisible_problem(row["name"])
    if hidden:  # the party-name rule of the API and the pages
        raise RowRefused("name", "invisible_characters", hidden)
    new = NewParty(
        name=row["name"],
        tax_id=row["tax_id"],
        entity_type=row["entity_type"],
        tax_types=_list(row["tax_types"]),
        in_innovation_zone=bool(get("in_innovation_zone", _boolean("in_innovation_zone"))),
        us_employees=get("us_employees", _integer("us_employees")),
        nj_full_time_employees=get("nj_full_time_employees", _integer("nj_full_time_employees")),
        formed_on=formed.isoformat() if formed else None,
    )
    party = register_party(uow, ctx.actor, new)
    if naics is not None or employees is not None:
        record_party_facts(uow, ctx.actor, RecordPartyFacts(party["id"], naics, employees))
    if owner_id is not None:
        record_ownership(
            uow,
            ctx.actor,
            RecordOwnership(
                party["id"],
                owner_id,
                get("owner_voting_bps", _integer("owner_voting_bps")) or 0,
                get("owner_value_bps", _integer("owner_value_bps")) or 0,
            ),
        )
    return str(party["id"])


def import_certificate(uow: AbstractUnitOfWork, ctx: RowContext, row: Mapping[str, str]) -> str:
    def get(name: str, parse: Callable[[str], Any]) -> Any:
        return _field(name, parse, cell(row, name))

    program = get("program", parse_program)
    face = get("face", lambda t: parse_cents(t, "face"))
    issued_on = get("issued_on", lambda t: parse_date(t, "issued_on"))
    fiscal_year = get("fiscal_year", _integer("fiscal_year"))
    holder_id = _party_id_by_tax_id(uow, "holder_tax_id", row["holder_tax_id"])
    since = get("nj_operations_since", lambda t: parse_date(t, "nj_operations_since"))
    periods = cell(row, "tax_periods")
    new = NewCertificate(
        program=program.value,
        holder_party_id=holder_id,
        face_cents=face,
        fiscal_year=fiscal_year,
        tax_types=_list(row["tax_types"]) if cell(row, "tax_types") else None,
        tax_periods=[_field("tax_periods", int, p) for p in _list(periods)] if periods else None,
        credit_year=get("credit_year", _integer("credit_year")),
        creditable_activity_ids=get("creditable_activity_ids", _list),
        retained_jobs=get("retained_jobs", _integer("retained_jobs")),
        award_years=get("award_years", _integer("award_years")),
        nj_operations_since=since,
        cannot_use_before_expiry=get(
            "cannot_use_before_expiry", _boolean("cannot_use_before_expiry")
        ),
        tax_period_start_month=get("tax_period_start_month", _integer("tax_period_start_month")),
    )
    issued = issue_certificate(uow, ctx.actor, new, ctx.ruleset(program, issued_on))
    return str(issued["id"])


def import_transfer(uow: AbstractUnitOfWork, ctx: RowContext, row: Mapping[str, str]) -> str:
    def get(name: str, parse: Callable[[str], Any]) -> Any:
        return _field(name, parse, cell(row, name))

    amount = get("amount", lambda t: parse_cents(t, "amount"))
    consideration = get("consideration", lambda t: parse_cents(t, "consideration"))
    on = get("exchange_date", lambda t: parse_date(t, "exchange_date"))
    found = uow.certificates.where(number=row["certificate_number"])
    if not found:
        raise RowRefused(
            "certificate_number",
            "certificate_not_defined",
            f"No certificate numbered {row['certificate_number']} is in the ledger.",
        )
    cert = found[0]
    buyer_id = _party_id_by_tax_id(uow, "buyer_tax_id", row["buyer_tax_id"])
    face: int = cert["face_cents"]  # the certificate's row: integer cents
    balance: int = cert["balance_cents"]
    if amount > balance:
        raise RowRefused(
            "amount",
            "sales_exceed_face",
            f"Selling {format_cents(amount)} of {cert['number']} would take its sales past its "
            f"face of {format_cents(face)}: {format_cents(balance)} is left.",
        )
    ruleset = ctx.ruleset(Program(cert["program"]), on)
    sale = CreateTransfer(
        cert["id"],
        buyer_id,
        amount,
        consideration,
        cell(row, "agreement_ref"),
        tuple(get("use_of_proceeds", _list) or ()),
    )
    proposed = create_transfer(uow, ctx.actor, sale, ruleset)
    buyer_actor = Actor(user_id=ctx.actor.user_id, role=PARTICIPANT, party_id=buyer_id)
    confirm_transfer(uow, buyer_actor, proposed["id"], ruleset)
    approve_transfer(uow, ctx.actor, proposed["id"], ruleset, on)
    return str(proposed["id"])


KINDS: Mapping[str, tuple[Columns, Callable[..., str]]] = {
    "parties": (PARTY_COLUMNS, import_party),
    "certificates": (CERTIFICATE_COLUMNS, import_certificate),
    "transfers": (TRANSFER_COLUMNS, import_transfer),
}
