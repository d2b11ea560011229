"""The pre-trade check (PRODUCT.md 8.3): before a buyer offers, the rules the transfer
would be checked against, in words, on the listing as it stands (its available amount at
its ask), plus how long the credit stays usable and whether trading in it is halted.

The rules are `rule_checks`, the same ones an offer and the approval run; nothing here
decides anything the approval would decide differently."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from market.adapters.repositories.models import certificate_of
from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.domain.model import Certificate
from market.domain.rules.transfer_checks import Sale
from market.domain.rulesets import Ruleset
from market.services.certificates import halts
from market.services.kernel import clock, reads
from market.services.kernel.actor import Actor
from market.services.kernel.errors import not_found
from market.services.kernel.reads import Connection
from market.services.parties.parties import load_party
from market.services.trading import commitments
from market.services.trading.rule_checks import check_other_party, sale_checks, terms
from market.services.trading.trade_lists import ListingView


class CheckRow(TypedDict):
    """A check the pre-trade review adds to the rules' own, in words."""

    rule: str
    passed: bool
    message: str
    usable_through: NotRequired[int | None]
    code: NotRequired[str]


def usable_through(cert: Certificate) -> int | None:
    """The last tax year the credit may be used in (a UTH credit: its last tranche's), or
    None when no carryover limit is recorded (TECH: the buyer's own limits, TB-27)."""
    tranches = cert.uth_tranches()
    if tranches:
        lasts: list[int] = [t["carryforward_last_period"] for t in tranches]
        return max(lasts)
    return cert.carryover_last_year


def _usable_check(cert: Certificate) -> CheckRow:
    last, year = usable_through(cert), clock.today().year
    if last is None:
        return {
            "rule": "usable_through",
            "passed": True,
            "usable_through": None,
            "message": "No carryover limit is recorded on the certificate; the buyer's own "
            "limits apply (TB-27).",
        }
    left = last - year + 1
    return {
        "rule": "usable_through",
        "passed": left > 0,
        "usable_through": last,
        "message": (
            f"Usable through tax year {last}: {left} tax year{'s' if left != 1 else ''} "
            f"from {year}."
            if left > 0
            else f"The carryover ended with tax year {last}; nobody can use it any more."
        ),
    }


def _halt_check(conn: Connection, cert: Certificate) -> CheckRow:
    halted = halts.halting_notice_ids(conn, {"id": cert.id, "root_id": cert.root_id})
    return {
        "rule": "trading_halt",
        "passed": not halted,
        "message": "Trading is halted by a recapture or invalidity notice."
        if halted
        else "No recapture or invalidity notice halts it.",
    }


def pretrade_checks(
    conn: Connection,
    cert: Certificate,
    buyer_party_id: str,
    sale: Sale,
    ruleset: Ruleset,
) -> list[dict[str, Any]]:
    """The checks of `sale` to this buyer, with how long it is usable and any halt."""
    parties = (cert.holder_party_id, buyer_party_id)
    checks = sale_checks(conn, cert, parties, sale, ruleset)
    return [*checks.rows, dict(_usable_check(cert)), dict(_halt_check(conn, cert))]


def listing_checks(
    conn: Connection, listings: list[ListingView], buyer_party_id: str, ruleset: Ruleset
) -> dict[str, list[dict[str, Any]]]:
    """Each listing's pre-trade check for this buyer (its own listings skipped)."""
    found = {}
    for listing in listings:
        if listing["seller_party_id"] == buyer_party_id or listing["available_cents"] <= 0:
            continue
        cert = certificate_of(reads.certificate(conn, listing["certificate_id"]))
        found[listing["id"]] = pretrade_checks(
            conn,
            cert,
            buyer_party_id,
            # the ask for what is left (rounded up)
            terms(listing["available_cents"], listing["available_ask_cents"]),
            ruleset,
        )
    return found


def _refusal_row(rule: str, run: Callable[[], str]) -> CheckRow:
    try:
        message = run()
    except DomainError as exc:
        return {"rule": rule, "passed": False, "code": exc.code, "message": exc.message}
    return {"rule": rule, "passed": True, "message": message}


def proposal_checks(
    conn: Connection, actor: Actor, command: CreateTransfer, ruleset: Ruleset
) -> list[dict[str, Any]]:
    """What `transfers.create_transfer` will check for this negotiated transfer, each in
    words, on the state as it stands (a review before the seller confirms, issue 28 item
    3): the certificate's holder, the buyer being another party, every rule check, what the
    balance is already promised to, and any trading halt. Writes nothing."""
    certificate_id, buyer_party_id = command.certificate_id, command.buyer_party_id
    amount_cents = command.amount_cents
    cert = certificate_of(reads.certificate(conn, certificate_id))
    actor.require_party(
        cert.holder_party_id, not_found("Certificate", "certificate_id", certificate_id)
    )
    buyer = load_party(conn, buyer_party_id)

    def other() -> str:
        check_other_party(cert, buyer_party_id)
        return f"{buyer['name']} is another party than the seller."

    def promised() -> str:
        return commitments.check_new_transfer(conn, cert, None, amount_cents)

    parties = (cert.holder_party_id, buyer_party_id)
    sale = terms(amount_cents, command.consideration_cents)
    return [
        dict(_refusal_row("other_party", other)),
        *sale_checks(conn, cert, parties, sale, ruleset).rows,
        dict(_refusal_row("commitments", promised)),
        dict(_halt_check(conn, cert)),
    ]
