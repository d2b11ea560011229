"""Pages of transfers and listings in one query each (plus one aggregate), never a query
per row and never a scan of the whole table: each keyset page walks an index of
migration 0012 (status or party, then `created_seq`)."""

from __future__ import annotations

from fractions import Fraction

from market.adapters.reads import trading as reads
from market.adapters.repositories.models import listing_of
from market.adapters.repositories.trading_models import ListingRow
from market.domain.model import Certificate, Listing
from market.domain.rulesets import Ruleset
from market.domain.values import ceil_int
from market.services.kernel.paging import Page, split_page
from market.services.kernel.reads import Connection
from market.services.trading.rule_checks import unreviewed_in_sale
from market.services.trading.sale_windows import SaleWindow
from market.services.trading.trade_views import TransferView, view_of_transfer


class ListingView(ListingRow):
    """A listing as the market shows it."""

    available_ask_cents: int
    program: str
    fiscal_year: int
    certificate_number: str
    price_per_dollar: str
    floor_bps: int
    sold_cents: int
    available_cents: int
    conditional_cents: int


class ListedView(ListingView, SaleWindow):
    """One listing's page: how long its credit stays usable too."""


def transfers_page(
    conn: Connection,
    status: str | None,
    page: Page,
    *,
    party: str | None = None,
    seller: str | None = None,
) -> tuple[list[TransferView], int | None]:
    """Transfers oldest first after `after` (a `created_seq`); `party` keeps those it sells
    or buys in, `seller` those it sells in."""
    side: tuple[str, str] | None = None
    if party is not None:
        side = ("party", party)
    elif seller is not None:
        side = ("seller", seller)
    rows = reads.transfer_rows(conn, status, page.after, page.limit + 1, side)
    kept, nxt = split_page(rows, page.limit, lambda r: r["created_seq"])
    return [view_of_transfer(r) for r in kept], nxt


def ask_for_what_remains(listing: Listing, available_cents: int) -> int:
    """The ask pro rata for what is left of the listing, rounded up to a whole cent, so it
    is never below the seller's own price per dollar (issue 28 item 3)."""
    return ceil_int(Fraction(listing.ask_cents * available_cents, listing.amount_cents))


def view_of_listing(row: ListingRow, cert: Certificate, sold: int, ruleset: Ruleset) -> ListingView:
    """The listing as the market shows it, from its row, its certificate and the cents
    sold from it (approved transfers of its accepted offers)."""
    listing = listing_of(row)
    program = cert.program
    available = max(0, listing.amount_cents - sold)
    # UTH-27 / AMB-18: what a purchase of the rest would take from unreviewed installments.
    conditional = unreviewed_in_sale(cert, min(available, cert.balance_cents))
    return {
        **row,
        "available_ask_cents": ask_for_what_remains(listing, available),
        "program": program.value,
        "fiscal_year": cert.fiscal_year,
        "certificate_number": cert.number,
        "price_per_dollar": str(Fraction(listing.ask_cents, listing.amount_cents)),
        "floor_bps": ruleset.min_consideration(program) * 100,
        "sold_cents": sold,
        "available_cents": available,
        "conditional_cents": sum(cents for _, cents in conditional),
    }


def listings_page(
    conn: Connection,
    program: str | None,
    page: Page,
    ruleset: Ruleset,
    seller_party_id: str | None = None,
) -> tuple[list[ListingView], int | None]:
    """Open listings oldest first after `after` (a `created_seq`): the page, its
    certificates and what was sold from each, three queries whatever the page's size."""
    rows = reads.open_listing_rows(conn, program, page.after, page.limit + 1, seller_party_id)
    kept, nxt = split_page(rows, page.limit, lambda r: r["created_seq"])
    cert_ids = sorted({r["certificate_id"] for r in kept})
    certs = reads.certificates_by_id(conn, cert_ids)
    sold = reads.sold_from_listings(conn, [r["id"] for r in kept])
    views = [
        view_of_listing(r, certs[r["certificate_id"]], sold.get(r["id"], 0), ruleset) for r in kept
    ]
    return views, nxt
