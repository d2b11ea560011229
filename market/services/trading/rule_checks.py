"""The rule checks of a sale, as the trading use cases run them: load the facts the rules
read, then decide with the pure `market.domain.rules.transfer_checks` (no read inside).

Offers and transfers run them when proposed; approval runs them again inside the unit of
work that appends it (the ledger head held, so the facts stay put until commit), and the
Authority's page previews them on a read connection."""

from __future__ import annotations

from datetime import date

from market.domain.errors import InvalidRequestError
from market.domain.model import Certificate, Party
from market.domain.programs import Program
from market.domain.rules import resale, uth_sales
from market.domain.rules.affiliation import OwnershipGraph
from market.domain.rules.transfer_checks import Checks, Sale, SaleFacts, run
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year_end
from market.services.kernel import clock
from market.services.kernel.errors import not_found
from market.services.kernel.reads import Source, repositories
from market.services.parties.parties import ownership_graph
from market.services.trading import sale_windows

today = clock.today  # the business date (PRODUCT.md 8.4; CMN-1: New York dates)
_NO_OWNERS = OwnershipGraph.from_stakes([])


def _filed_on(source: Source, cert: Certificate) -> date:
    """The TECH application date behind a certificate, for the June 30 test date."""
    if cert.program is not Program.TECH:
        return fiscal_year_end(cert.fiscal_year)  # read by TECH's tests only
    application = repositories(source).tech_applications.of_certificate(cert.root_id)
    received = application["received_on"] if application is not None else None
    received = received or cert.attributes.get("received_on")
    if received:
        return date.fromisoformat(str(received))
    return fiscal_year_end(cert.fiscal_year)


def sale_facts(
    source: Source, cert: Certificate, seller_id: str, buyer_id: str, ruleset: Ruleset
) -> SaleFacts:
    """What the checks of a sale of `cert` from `seller_id` to `buyer_id` read. The
    ownership graph is read for TECH only, the one program with an affiliation bar."""
    seller, buyer = repositories(source).parties.load_pair(seller_id, buyer_id)
    if seller is None or buyer is None:
        raise not_found("Party", "party_id", seller_id if seller is None else buyer_id)
    parties = (seller, buyer)
    tech = cert.program is Program.TECH
    owners = ownership_graph(source) if tech else _NO_OWNERS
    return _facts(source, cert, parties, owners, ruleset)


def facts_of(
    source: Source,
    cert: Certificate,
    parties: tuple[Party, Party],
    owners: OwnershipGraph,
    ruleset: Ruleset,
) -> SaleFacts:
    """The same facts from what a page read in bulk (its parties, its ownership graph)."""
    return _facts(source, cert, parties, owners, ruleset)


def _facts(
    source: Source,
    cert: Certificate,
    parties: tuple[Party, Party],
    owners: OwnershipGraph,
    ruleset: Ruleset,
) -> SaleFacts:
    return SaleFacts(
        certificate=cert,
        seller=parties[0],
        buyer=parties[1],
        owners=owners,
        usable_through=sale_windows.usable_through(cert, ruleset),
        filed_on=_filed_on(source, cert),
    )


def sale_checks(
    source: Source, cert: Certificate, parties: tuple[str, str], sale: Sale, ruleset: Ruleset
) -> Checks:
    """Every check of `sale` between `parties` (seller, buyer), each in words."""
    return run(sale, sale_facts(source, cert, parties[0], parties[1], ruleset), ruleset)


def terms(amount_cents: int, consideration_cents: int) -> Sale:
    """A sale's terms checked on the business date (no exchange date yet)."""
    return Sale(amount_cents, consideration_cents, today())


# ---- guards the listing and offer steps run before the checks -------------------------


def unreviewed_in_sale(
    cert: Certificate, amount_cents: int, ruleset: Ruleset | None = None
) -> list[tuple[int, int]]:
    """UTH-27 / AMB-18: the (period, cents) of a sale that would be conditional tranches;
    given a ruleset that sells reviewed installments only, `tranche_not_reviewed`."""
    tranches = cert.uth_tranches()
    if tranches is None:
        return []
    if ruleset is None:
        return uth_sales.unreviewed_in_sale(tranches, amount_cents)
    return uth_sales.check_unreviewed_sale(tranches, amount_cents, ruleset)


def check_resale(cert: Certificate, ruleset: Ruleset) -> None:
    resale.check_can_sell(cert.held_by_original_holder, ruleset)


def check_other_party(cert: Certificate, buyer_party_id: str) -> None:
    if buyer_party_id == cert.holder_party_id:
        raise InvalidRequestError(
            "A party cannot buy its own certificate.", {"party_id": buyer_party_id}
        )
