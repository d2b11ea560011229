"""The smaller members of the domain's records and commands: stream names, the open test
of a registration, an offer's counter terms, and the identity commands' printed form (a
password or a link never appears in a log line or a traceback's locals)."""

from __future__ import annotations

import pytest

from market.domain.commands.identity import CreateUser, InviteUser, LinkMail, SignInAttempt
from market.domain.errors import ConflictError
from market.domain.model import Offer, OfferStatus, TechApplication
from market.domain.model.registration import Registration, RegistrationStatus


def _registration(status: RegistrationStatus) -> Registration:
    return Registration(
        "reg_1", "Acme LLC", "12-3456789", "NJ-1", "llc", ("CBT",), "a@x.org", (), (), status,
        None, None, None, "2026-01-02T10:00:00Z",
    )  # fmt: skip


def test_a_registration_is_open_until_decided_and_names_its_stream() -> None:
    assert _registration(RegistrationStatus.SUBMITTED).stream == "registration-reg_1"
    assert _registration(RegistrationStatus.EMAIL_UNVERIFIED).is_open
    assert _registration(RegistrationStatus.SUBMITTED).is_open
    assert not _registration(RegistrationStatus.APPROVED).is_open
    assert not _registration(RegistrationStatus.REJECTED).is_open


def test_a_tech_application_names_its_stream() -> None:
    application = TechApplication(
        "app_1", "p_1", 2014, 100, 100, 100, 0, "CBT", False, "2013-06-01", None, 7, True
    )
    assert application.stream == TechApplication.stream_of("app_1") == "tech-app_1"


def test_counter_terms_are_the_sellers_counter_or_a_conflict() -> None:
    offer = Offer("ofr_1", "lst_1", "crt_1", "p_s", "p_b", 10, 8, OfferStatus.COUNTERED)
    with pytest.raises(ConflictError, match="carries no counter"):
        offer.counter_terms()
    countered = Offer(
        "ofr_1", "lst_1", "crt_1", "p_s", "p_b", 10, 8, OfferStatus.COUNTERED,
        counter_amount_cents=9, counter_price_cents=7,
    )  # fmt: skip
    assert countered.counter_terms() == (9, 7)


def test_identity_commands_keep_secrets_out_of_their_printed_form() -> None:
    user = CreateUser("a@x.org", "participant", "s3cret-password", "p_1")
    mail = LinkMail("u_1", "a@x.org", "Set your password", "Open the link.", "https://x/t0k", "set")
    assert "s3cret-password" not in repr(user) and "t0k" not in repr(mail)
    assert user.password == "s3cret-password" and mail.link == "https://x/t0k"
    assert SignInAttempt("a@x.org", "127.0.0.1").address == "127.0.0.1"
    assert InviteUser("p_1", "b@x.org", "viewer").party_role == "viewer"
