"""The holder's credit application form (issue 28 item 10): what is already applied to
that return is shown (and counted, as the service always counted it), the section 40
figures are taken as the API takes them, and the review runs the commit's rules."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_pages_support import browser, confirm_form, make_market, post_form
from tests.e2e.test_returns_api import held_certificate
from tests.helpers import create_party, events

CBT = {"tax_type": "CBT", "tax_year": "2014", "liability": "400,000", "other_credits": "0"}


def _holder(app: Any) -> tuple[str, Any]:
    m = make_market(app)
    engine = app.extensions["market.engine"]
    cert = held_certificate(
        engine,
        m.buyer["id"],
        m.seller["id"],
        1_000_000_00,
        program="BRRAG",
        credit_year=2013,
        carryover_last_year=2030,
        tax_types=("CBT",),
    )
    return cert, browser(app, "participant", m.buyer["id"])


@pytest.mark.storage
def test_the_form_shows_and_the_review_counts_what_is_already_applied(app: Any) -> None:
    cert, buyer = _holder(app)
    first = confirm_form(
        buyer, "/buyer", "/buyer/returns", CBT | {"certificate_id": cert, "amount": "150,000"}
    )
    assert first.status_code == 302
    page = buyer.get("/buyer").get_data(as_text=True)
    table = page[page.index("Already applied to your returns") :]
    table = table[: table.index("</table>")]
    assert "2014 CBT" in table and "$150,000.00" in table
    # The second application's review names the $150,000 already applied to that return,
    # counted with the other credits: $250,000 more can be applied, not $400,000.
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = CBT | {"certificate_id": cert, "amount": "400,000"}
    review = post_form(buyer, "/buyer", "/buyer/returns", data).get_data(as_text=True)
    assert (
        "<dt>Already applied to this return here (counted as other credits)</dt>"
        "<dd>$150,000.00</dd>" in review
    )
    assert "<dt>Will be applied</dt><dd>$250,000.00</dd>" in review
    assert events(engine) == before  # the review wrote nothing
    done = confirm_form(buyer, "/buyer", "/buyer/returns", data)
    assert done.status_code == 302
    flash = buyer.get("/buyer").get_data(as_text=True)
    assert "Applied $250,000.00 to the 2014 CBT return" in flash
    assert "$150,000.00 already applied to that return counted" in flash


def _git_holder(app: Any) -> tuple[str, Any]:
    m = make_market(app)
    engine = app.extensions["market.engine"]
    studio = create_party(m.api, m.eda, name="Studio", tax_types=["GIT"])
    shop = create_party(
        m.api, m.eda, name="Shore Shop", entity_type="sole_proprietorship", tax_types=["GIT"]
    )
    cert = held_certificate(engine, shop["id"], studio["id"], 100_000_00)
    return cert, browser(app, "participant", shop["id"])


GIT = {"tax_type": "GIT", "tax_year": "2013", "liability": "85,000", "amount": "40,000"}


@pytest.mark.storage
def test_the_section_40_figures_limit_a_git_use_as_the_api_does(app: Any) -> None:
    cert, shop = _git_holder(app)
    page = shop.get("/buyer").get_data(as_text=True)
    for name in ("s40_entity_income", "s40_categories", "s40_other_categories"):
        assert f'name="{name}"' in page
    # Without the figures: the rule's words beside the §40 field, nothing written.
    engine = shop.application.extensions["market.engine"]
    before = events(engine)
    r = post_form(shop, "/buyer", "/buyer/returns", GIT | {"certificate_id": cert})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'id="apply-s40_entity_income-error"' in html and "PT-2" in html
    assert events(engine) == before
    # RULES 5.4, partner C: $200,000 from the entity, wages $900,000: 2/11 of $85,000.
    figures = {
        "s40_entity_income": "200,000",
        "s40_categories": "200,000.00",
        "s40_other_categories": "900,000",
    }
    data = GIT | {"certificate_id": cert} | figures
    review = post_form(shop, "/buyer", "/buyer/returns", data).get_data(as_text=True)
    assert "<dt>§40 cap (PT-2)</dt><dd>$15,454.54</dd>" in review
    assert "the owner&#39;s §40 share" in review
    r = confirm_form(shop, "/buyer", "/buyer/returns", data)
    assert r.status_code == 302
    assert "Applied $15,454.54 to the 2013 GIT return" in shop.get("/buyer").get_data(as_text=True)


def test_a_section_40_figure_that_is_not_an_amount_is_refused_beside_its_field(app: Any) -> None:
    cert, shop = _git_holder(app)
    engine = shop.application.extensions["market.engine"]
    before = events(engine)
    data = GIT | {"certificate_id": cert, "s40_entity_income": "200,000"}
    data |= {"s40_categories": "200,000\nlots", "s40_other_categories": "-900,000"}
    r = post_form(shop, "/buyer", "/buyer/returns", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'id="apply-s40_categories-error"' in html
    assert "must be an amount in dollars" in html
    assert events(engine) == before
    # The categories are required once any figure is given.
    data = GIT | {"certificate_id": cert, "s40_entity_income": "200,000"}
    r = post_form(shop, "/buyer", "/buyer/returns", data)
    assert r.status_code == 400 and 'id="apply-s40_categories-error"' in r.get_data(as_text=True)
    assert events(engine) == before
