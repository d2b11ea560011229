"""The ledger explorer's reads: its type filter lists every type the registry knows
(not a scan of the events), and the names its sentences print are read for the parties
the page shows, and only those."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import event

from market.domain.events import event_types
from market.services.kernel.actor import AUDITOR, Actor
from market.services.kernel.uow import ReadOnly
from market.services.queries import ledger_search
from tests.e2e.test_pages_foundation import sign_in
from tests.helpers import create_party, headers_for


def test_the_type_filter_lists_every_known_type_even_on_an_empty_ledger(
    client: Any, app: Any
) -> None:
    sign_in(client, app, "auditor")
    page = client.get("/ledger").data.decode()
    select = page[page.index('id="f-type"') : page.index("</select>", page.index('id="f-type"'))]
    listed = set(re.findall(r'<option value="([A-Z_0-9]+)"', select))
    assert listed == event_types()
    assert len(listed) >= 49  # a type added to the ledger appears here unasked


def test_the_names_are_those_of_the_parties_the_events_shown_name(client: Any, app: Any) -> None:
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    shown = create_party(client, eda, name="Princeton Photonics")
    other = create_party(client, eda, name="Camden Castings")
    with ReadOnly(engine) as conn:
        items, _ = ledger_search.filtered_events(
            conn, _auditor(), ledger_search.EventFilter(stream=f"party-{shown['id']}"), 0, 50
        )
        statements: list[str] = []
        event.listen(conn, "before_cursor_execute", lambda *a: statements.append(a[2]))
        names = ledger_search.display_names(conn, items)
    assert names == {shown["id"]: "Princeton Photonics"}
    assert other["id"] not in names
    party_reads = [s for s in statements if "parties" in s]
    assert len(party_reads) == 1 and " IN " in party_reads[0].upper()
    sign_in(client, app, "auditor")
    page = client.get(f"/ledger?stream=party-{shown['id']}").data.decode()
    table = page[page.index("<table") :]
    assert "Princeton Photonics" in table and "Camden Castings" not in table
    assert shown["id"] not in _sentences(table)


def test_nested_payload_values_are_looked_up_and_numbers_still_come_from_certificates() -> None:
    events = [{"payload": {"a": "x", "lines": [{"party_id": "p1"}, {"n": 3}], "o": {"k": "y"}}}]
    assert ledger_search.texts_in(events) == {"x", "p1", "y"}
    assert ledger_search.texts_in([{"payload": None}, {}]) == set()


def _auditor() -> Actor:
    return Actor(user_id="auditor-test", role=AUDITOR)


def _sentences(html: str) -> str:
    return " ".join(re.findall(r'<p class="sentence">(.*?)</p>', html, re.S))
