"""The main menu, grouped by task: each group is a `<details>` disclosure (no script) once
a role sees two or more of its items, a plain link when it sees one. The Authority's
desk reads: Things to do · Certificates · Sales · Parties · TECH allocations · Reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ALL = ("authority", "participant", "auditor")
EDA = ("authority",)
EDA_AUDIT = ("authority", "auditor")
PARTICIPANT = ("participant",)


@dataclass(frozen=True)
class Item:
    endpoint: str
    label: str
    roles: Sequence[str]
    fragment: str = ""  # a section of the page (`#issue`), for a form on a shared desk


@dataclass(frozen=True)
class Group:
    label: str | None  # None: its items stand alone in the menu
    items: Sequence[Item]


NAV_GROUPS = [
    Group(
        None,
        [
            Item("pages.authority_todo", "Things to do", EDA),
            Item("pages.seller", "Selling", PARTICIPANT),
            Item("pages.buyer", "Holdings", PARTICIPANT),
            Item("pages.my_purchases", "My offers and purchases", PARTICIPANT),
            Item("pages.my_sales", "My sales", PARTICIPANT),
            Item("pages.market", "Market", ("participant",)),
        ],
    ),
    Group(
        "Certificates",
        [
            Item("pages.authority", "Issue a certificate", EDA, "issue"),
            Item("pages.authority", "Assess a recapture", EDA, "recapture"),
            Item("pages.authority_todo", "UTH reviews due", EDA, "uth-reviews"),
            Item("pages.ledger", "Ledger", EDA_AUDIT),
        ],
    ),
    Group(
        "Sales",
        [
            Item("pages.authority", "Approvals", EDA),
            Item("pages.back_dated_exchange", "Back-dated exchange", EDA),
            Item("pages.closing", "Closing", ALL),
            Item("pages.market", "Market", EDA_AUDIT),
            Item("pages.covenant_monitor", "Covenants", EDA_AUDIT),
        ],
    ),
    Group(
        "Parties",
        [
            Item("pages.registrations_desk", "Registrations", EDA_AUDIT),
            Item("pages.party_admin", "Parties", EDA),
            Item("pages.director_exception", "Director's exception", EDA),
            Item("pages.user_admin", "Users", EDA),
            Item("pages.fees", "Fees and tax clearances", EDA),
            Item("pages.party_users", "Our users", PARTICIPANT),
        ],
    ),
    Group(
        "TECH allocations",
        [
            Item("pages.allocations", "TECH allocation", EDA),
            Item("pages.paper_tech_filing", "Paper TECH filing", EDA),
            Item("pages.cap_meter", "TECH cap meter", ALL),
            Item("pages.tech_calculator", "TECH calculator", ALL),
        ],
    ),
    Group(
        "Reports",
        [
            Item("pages.caps_report", "Caps", ALL),
            Item("pages.transfers_report", "Transfers", EDA_AUDIT),
            Item("pages.statutory_reports", "Statutory reports", EDA_AUDIT),
            Item("pages.price_tape_page", "Price tape", ALL),
            Item("pages.audit", "Audit", EDA_AUDIT),
        ],
    ),
    Group(None, [Item("pages.account", "Account", ALL)]),
]

NAV_ITEMS = [item for group in NAV_GROUPS for item in group.items]


def menu(role: str | None, known: Sequence[str] | set[str]) -> list[tuple[str | None, list[Item]]]:
    """The groups `role` sees, each with the items it may open (and the app has): a group
    of one item is shown as that item alone (label None)."""
    shown: list[tuple[str | None, list[Item]]] = []
    for group in NAV_GROUPS:
        items = [i for i in group.items if role in i.roles and i.endpoint in known]
        if not items:
            continue
        if group.label is None or len(items) == 1:
            shown += [(None, [i]) for i in items]
        else:
            shown.append((group.label, items))
    return shown


def current_nav() -> str | None:
    """The nav item the page belongs to (aria-current): the one whose address is the
    longest prefix of this page's, so /authority/allocations/2014 is "TECH allocation"
    and /authority/parties is not "Approvals"."""
    from flask import request, url_for
    from werkzeug.routing import BuildError

    best, length = None, 0
    for item in NAV_ITEMS:
        try:
            path = url_for(item.endpoint)
        except BuildError:  # an endpoint another area registers may be absent here
            continue
        if (request.path == path or request.path.startswith(path + "/")) and len(path) > length:
            best, length = item.endpoint, len(path)
    return best
