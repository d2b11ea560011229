"""The Authority records a UTH annual review from the certificate page (UTH-11, UTH-26):
the form is the Authority's and only on an original UTH award; a reduction cuts the RULES
figure and says so; refusals re-render the reason and write nothing; CSRF and roles hold.
Runs on SQLite and PostgreSQL (conftest). Figures: a $24,000,000 award, periods
2013-2022, in $2,400,000 tranches."""

from __future__ import annotations

import html
from typing import Any

from market.domain.rules import uth_review
from market.domain.rulesets import A1178
from market.web.uth_labels import finding_labels
from tests.e2e.test_pages_foundation import _csrf, sign_in
from tests.helpers import UthAward, events

D = 100  # one dollar in cents
M = 100_000_000  # one million dollars in cents
TRANCHE = 2_400_000 * D
FORM = "/reviews"


class Award(UthAward):
    """A seller holding a $24M UTH award, a buyer, the Authority's API headers, and the
    award's page and review form."""

    def page(self, cert_id: str | None = None) -> Any:
        return self.client.get(f"/certificates/{cert_id or self.id}")

    def review(self, period: Any, finding: str, cert_id: str | None = None, **extra: Any) -> Any:
        """Post the review form; a review the rules pass shows its review page (nothing
        written) and is then confirmed with exactly what the review carries."""
        cert_id = cert_id or self.id
        data = {"tax_period": period, "finding": finding}
        if extra.get("csrf", True):
            data["csrf_token"] = _csrf(self.page(cert_id).data)
        action = f"/authority/certificates/{cert_id}{FORM}"
        first = self.client.post(action, data=data)
        if first.status_code != 200 or "Confirm: record the review" not in text(first):
            return first
        return self.client.post(action, data=data | {"confirm": "yes"})

    def reviewed(self, period: Any, finding: str) -> str:
        """Record a review from the page; the page it redirects to, as text."""
        r = self.review(period, finding)
        assert r.status_code == 302
        return text(self.client.get(r.headers["Location"]))


def tranche_row(page: str, period: int) -> str:
    """The certificate page's table row of one tranche."""
    return page.split(f'id="tranche-{period}"', 1)[1].split("</tr>", 1)[0]


def text(response: Any) -> str:
    return html.unescape(response.data.decode())


def test_every_finding_has_words() -> None:
    assert set(finding_labels(A1178)) == uth_review.FINDINGS


def test_the_authority_sees_the_review_form_on_a_uth_award(client: Any, app: Any) -> None:
    award = Award(client)
    sign_in(client, app, "authority")
    page = award.page()
    assert page.status_code == 200
    body = text(page)
    assert f'action="/authority/certificates/{award.id}/reviews"' in body
    assert '<option value="2013"' in body and '<option value="2022"' in body
    assert "Fewer than 200 new positions: cut 20% (UTH-11(1))" in body
    assert "Forfeited: statewide workforce fell by more than 20% (UTH-11(2))" in body
    assert "Restored (UTH-11)" in body
    assert body.count('id="tranche-') == 10 and "not reviewed" in body


def test_no_review_form_for_a_participant_a_brrag_or_a_buyer_certificate(
    client: Any, app: Any
) -> None:
    award = Award(client)
    brrag = award.issue("BRRAG", 5 * M, credit_year=2013)
    bought = award.sell(TRANCHE)
    sign_in(client, app, "participant", award.seller["id"])
    holder_view = text(award.page())
    assert "Installments and annual reviews" in holder_view
    assert "/reviews" not in holder_view and "Record the review" not in holder_view
    sign_in(client, app, "authority")
    for cert_id in (brrag["id"], bought):
        page = award.page(cert_id)
        assert page.status_code == 200
        assert "Record the review" not in text(page)
    assert "Installments and annual reviews" not in text(award.page(brrag["id"]))


def test_a_reduction_cuts_20_percent_of_the_unsold_tranche_and_says_so(
    client: Any, app: Any
) -> None:
    award = Award(client)
    sign_in(client, app, "authority")
    before = events(award.engine)
    r = award.review(2014, "new_positions_below_200")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/certificates/{award.id}")
    assert events(award.engine) == before + 1
    cut = 480_000 * D  # RULES UTH-11(1): 20% of the unsold $2,400,000
    cert = award.cert()
    assert cert["balance_cents"] == 24 * M - cut and cert["expired_cents"] == cut
    shown = text(client.get(r.headers["Location"]))
    assert "Tax period 2014 reduced by $480,000.00. Balance now $23,520,000.00." in shown
    row = tranche_row(shown, 2014)
    assert "reduced" in row and "$480,000.00" in row and "$1,920,000.00" in row
    assert "cut 20% (UTH-11(1))" in row
    # The projection counts the cut with expirations; the page names it a cut, not an expiry.
    facts = shown.split('class="keyfacts"', 1)[1].split("</table>", 1)[0]
    expired = facts.split(">Expired</th>", 1)[1].split("</td>", 1)[0]
    assert "$0.00" in expired
    assert "Cut by annual reviews</th>" in facts and "$480,000.00" in facts


def test_a_forfeiture_of_a_sold_tranche_freezes_the_buyer_until_restored(
    client: Any, app: Any
) -> None:
    award = Award(client)
    bought = award.sell(TRANCHE)
    sign_in(client, app, "authority")
    row = tranche_row(text(award.page(bought)), 2013)
    assert "conditional: not reviewed yet, not usable until it is (UTH-27)" in row
    shown = award.reviewed(2013, "statewide_workforce_drop")
    assert (
        "Tax period 2013 forfeited; nothing unsold was left to cut; "
        "1 buyer's tranche frozen pending a determination." in shown
    )
    buyer_page = text(award.page(bought))
    row = tranche_row(buyer_page, 2013)
    assert "at risk: $2,400,000.00 unapplied" in row and "frozen" in row
    assert '<td data-label="Review">forfeited</td>' in row and "(UTH-11(2))" in row
    assert award.cert(bought)["balance_cents"] == TRANCHE  # frozen, not taken

    assert "1 buyer's tranche released from the freeze" in award.reviewed(2013, "restored")
    row = tranche_row(text(award.page(bought)), 2013)
    assert "restored" in row and "frozen" not in row


def test_an_approved_review_says_which_conditional_tranches_may_now_be_applied(
    client: Any, app: Any
) -> None:
    award = Award(client)
    bought = award.sell(TRANCHE)
    sign_in(client, app, "authority")
    shown = award.reviewed(2013, "approved")
    assert (
        "Tax period 2013 approved; 1 buyer's tranche bought before the review may now be "
        "applied." in shown
    )
    row = tranche_row(text(award.page(bought)), 2013)
    assert '<td data-label="Review">approved</td>' in row and "conditional" not in row


def test_a_bad_finding_or_a_period_not_on_the_certificate_writes_nothing(
    client: Any, app: Any
) -> None:
    award = Award(client)
    brrag = award.issue("BRRAG", 5 * M, credit_year=2013)
    sign_in(client, app, "authority")
    before = events(award.engine)
    cases = [
        (award.review(2014, "bad_weather"), 400, "'bad_weather' is not a finding"),
        (award.review(2014, "none"), 400, "'none' is not a finding"),
        (award.review(2030, "approved"), 400, "Tax period 2030 is not one of the installments"),
        (award.review("soon", "approved"), 400, "The tax period must be a whole number."),
        (award.review(2014, "restored"), 409, "there is nothing to restore"),
        (award.review(2014, "approved", brrag["id"]), 409, "Annual reviews are recorded on"),
    ]
    for response, status, message in cases:
        assert response.status_code == status, response.data
        body = text(response)
        assert 'class="flash error"' in body and message in body
        assert "Installments and annual reviews" in body or "BRRAG" in body
    assert events(award.engine) == before
    assert award.cert()["balance_cents"] == 24 * M
    # The refused form comes back with what was chosen.
    again = text(award.review(2016, "bad_weather"))
    assert '<option value="2016" selected' in again


def test_a_participant_may_not_record_a_review(client: Any, app: Any) -> None:
    award = Award(client)
    sign_in(client, app, "participant", award.seller["id"])
    before = events(award.engine)
    r = award.review(2014, "approved")
    assert r.status_code == 403
    assert events(award.engine) == before


def test_a_review_without_the_csrf_token_is_refused(client: Any, app: Any) -> None:
    award = Award(client)
    sign_in(client, app, "authority")
    before = events(award.engine)
    r = award.review(2014, "new_positions_below_200", csrf=False)
    assert r.status_code == 400
    assert events(award.engine) == before
    assert award.cert()["balance_cents"] == 24 * M


def test_the_review_page_says_what_the_finding_will_cut_and_writes_nothing(
    client: Any, app: Any
) -> None:
    award = Award(client)
    sign_in(client, app, "authority")
    before = events(award.engine)
    data = {
        "tax_period": 2014,
        "finding": "new_positions_below_200",
        "csrf_token": _csrf(award.page().data),
    }
    shown = text(client.post(f"/authority/certificates/{award.id}{FORM}", data=data))
    assert "Review before you confirm" in shown
    assert "Fewer than 200 new positions" in shown  # the finding in words, not its code
    assert "new_positions_below_200<" not in shown
    assert "Tax period 2014 reduced by $480,000.00" in shown  # rehearsed: what it will do
    assert events(award.engine) == before
