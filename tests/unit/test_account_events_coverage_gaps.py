"""ACCOUNT_EVENT_RECORDED (market/domain/events/accounts.py): only the kinds the audit
trail knows, whether the event is built by a service or read from a stored payload."""

from __future__ import annotations

from typing import Any

import pytest

from market.domain.events import upcast
from market.domain.events.accounts import ACCOUNT_EVENT_KINDS, AccountEventRecorded
from market.domain.events.codec import EventError

PAYLOAD: dict[str, Any] = {
    "user_id": "usr_1",
    "kind": "signed_in",
    "detail": None,
    "by_user_id": None,
    "at": "2026-12-02T09:00:00.000000Z",
}


@pytest.mark.parametrize("kind", ACCOUNT_EVENT_KINDS)
def test_every_known_kind_is_recorded(kind: str) -> None:
    event = AccountEventRecorded(**(PAYLOAD | {"kind": kind}))
    assert event.kind == kind
    assert event.to_payload() == PAYLOAD | {"kind": kind}


@pytest.mark.parametrize("kind", ["logged_in", "SIGNED_IN", "", "signed in"])
def test_an_unknown_kind_is_refused_by_name(kind: str) -> None:
    with pytest.raises(EventError) as refused:
        AccountEventRecorded(**(PAYLOAD | {"kind": kind}))
    assert str(refused.value) == f"unknown account event kind {kind!r}"


def test_a_stored_payload_with_an_unknown_kind_is_refused_on_read() -> None:
    with pytest.raises(EventError, match="unknown account event kind 'logged_out'"):
        upcast("ACCOUNT_EVENT_RECORDED", PAYLOAD | {"kind": "logged_out"})


def test_a_kind_that_is_not_text_fails_the_field_check_first() -> None:
    with pytest.raises(EventError, match="field kind: 3 is not str"):
        AccountEventRecorded(**(PAYLOAD | {"kind": 3}))
