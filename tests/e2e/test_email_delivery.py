"""E-mail over SMTP, sent by the worker against a real local SMTP server (aiosmtpd):
the parties' users get plain text and HTML; with SMTP down the messages wait, and go
when it returns."""

from __future__ import annotations

import json
from typing import Any

from market.adapters.eventstore import head
from market.services.notify import mail_history
from market.services.notify.fanout import cursor
from tests.deals_servers import SmtpServer, free_port
from tests.e2e.test_notifications_api import inbox, sale
from tests.e2e.test_trading_api import Market


def deliver(app: Any) -> dict[str, Any]:
    r = app.test_cli_runner().invoke(args=["deliver"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)  # type: ignore[no-any-return]  # the log lines go to stderr


def test_offer_and_rejection_mail_their_parties_in_text_and_html(app: Any, client: Any) -> None:
    with SmtpServer() as smtp:
        app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=smtp.port, MAIL_FROM="eda@market.test")
        m = Market(client)
        deal = sale(m, reject="The consideration was not paid.")
        assert smtp.messages == []  # nothing is sent inside a request
        done = deliver(app)
        # The offer to the seller, its acceptance to the buyer, the proposal it made to
        # the Authority (who acts next), the rejection to both sides.
        assert done["email"] == {"sent": 5, "failed": 0}, done
    by_subject = {msg["Subject"]: msg for msg in smtp.messages}
    number = deal["cert"]["number"]
    offer = by_subject[f"New offer: $1,600,000.00 for $2,000,000.00 of {number}"]
    rejected = [m_ for m_ in smtp.messages if m_["Subject"].startswith("Transfer rejected")]
    assert offer["From"] == "eda@market.test" and offer["To"].startswith("participant-")
    # The seller hears of the offer; the rejection goes to both sides' users.
    assert len(rejected) == 2 and offer["To"] in {r["To"] for r in rejected}
    assert len({r["To"] for r in rejected}) == 2
    proposed = [m_ for m_ in smtp.messages if m_["Subject"].startswith("Transfer proposed")]
    accepted = [m_ for m_ in smtp.messages if m_["Subject"].startswith("Offer accepted")]
    assert len(proposed) == 1 and proposed[0]["To"].startswith("authority-")
    assert len(accepted) == 1 and accepted[0]["To"] not in {offer["To"], proposed[0]["To"]}
    assert len(smtp.messages) == 5
    text = rejected[0].get_body(("plain",)).get_content()
    html = rejected[0].get_body(("html",)).get_content()
    assert "Reason: The consideration was not paid." in text and "/deals/transfers/" in text
    assert "<h1>Transfer rejected" in html and "The consideration was not paid." in html
    assert rejected[0]["Message-ID"] != rejected[1]["Message-ID"]
    assert deliver(app)["email"] == {"sent": 0, "failed": 0}  # sent once


def test_smtp_down_messages_wait_and_go_when_it_returns(app: Any, client: Any) -> None:
    port = free_port()  # nothing listens there yet
    app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=port, DELIVERY_BACKOFF_BASE_S=0)
    m = Market(client)
    sale(m)
    down = deliver(app)
    assert down["email"] == {"sent": 0, "failed": 5}
    with SmtpServer(port) as smtp:
        back = deliver(app)
        subjects = sorted(msg["Subject"].split(":")[0] for msg in smtp.messages)
    assert back["email"] == {"sent": 5, "failed": 0}
    assert subjects == [
        "New offer",
        "Offer accepted",
        "Transfer approved",
        "Transfer approved",
        "Transfer proposed",
    ]


def test_backoff_holds_a_failed_message_until_its_next_attempt(app: Any, client: Any) -> None:
    app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=free_port(), DELIVERY_BACKOFF_BASE_S=30)
    m = Market(client)
    sale(m)
    assert deliver(app)["email"]["failed"] == 5  # offer, proposal x2, approval x2
    # Not due for another 30 s: the next pass leaves them alone.
    assert deliver(app)["email"] == {"sent": 0, "failed": 0}


def test_history_marked_before_is_told_in_the_inbox_but_never_mailed(app: Any, client: Any) -> None:
    """Issue 28: the first start with SMTP configured mailed the seeded demo's 50 events."""
    with SmtpServer() as smtp:
        app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=smtp.port)
        m = Market(client)
        sale(m)
        mail_history.mark_history(app.extensions["market.engine"])  # what seeding does
        assert deliver(app)["email"] == {"sent": 0, "failed": 0}
        assert len(inbox(m, m.seller_h)["items"]) > 0  # still told in the inbox
        sale(m)  # after the mark: mailed as ever
        assert deliver(app)["email"] == {"sent": 5, "failed": 0}
    assert len(smtp.messages) == 5


def test_seeding_the_demo_marks_its_events_as_history(app: Any) -> None:
    engine = app.extensions["market.engine"]
    with SmtpServer() as smtp:
        app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=smtp.port)
        r = app.test_cli_runner().invoke(args=["seed-demo"])
        assert r.exit_code == 0, r.output
        assert "are history: not e-mailed" in r.output
        assert deliver(app)["email"] == {"sent": 0, "failed": 0}
    assert smtp.messages == []
    with engine.connect() as conn:
        assert cursor(conn, mail_history.HISTORY) == head(conn)[0] > 50
