"""The Authority's desk names the parties it shows, and reads the names of those only
(lookups.names_of), not of every registered party."""

from __future__ import annotations

from typing import Any

from flask import template_rendered

from tests.e2e.test_pages_support import browser, make_market
from tests.helpers import create_party


def test_the_desk_shows_the_right_names_and_reads_only_those(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    bystander = create_party(m.api, m.eda, name="Trenton Bystander Works")
    seen: list[dict[str, Any]] = []

    def record(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
        if template.name == "authority.html":
            seen.append(context)

    eda = browser(app, "authority")
    with template_rendered.connected_to(record, app):
        html = eda.get("/authority").get_data(as_text=True)
    assert f'id="transfer-{transfer["id"]}"' in html
    assert "From <strong>Camden Robotics</strong>" in html
    assert "to <strong>Newark Insurance Holdings</strong>" in html
    # The certificate choices name their holder.
    assert f'<option value="{m.cert["number"]}">Camden Robotics</option>' in html
    (context,) = seen
    assert context["names"] == {
        m.seller["id"]: "Camden Robotics",
        m.buyer["id"]: "Newark Insurance Holdings",
    }
    assert bystander["id"] not in context["names"]  # registered, but on no row shown
