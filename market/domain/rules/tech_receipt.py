"""When a TECH application was received (TB-6, CMN-1).

The service stamps the instant an application arrives; the Authority alone may record an
earlier receipt of a paper filing, with its reason. Either is an instant shown in New York
time: an application belongs to the FY of its New York date, and FY n's intake closes at
the end of June 30 of FY n, New York time (anything later goes to FY n+1). A paper
filing's receipt given as a date alone counts from the start of that New York day; a
date-time without an offset is New York time.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from market.domain.errors import InvalidRequestError
from market.domain.rulesets import Ruleset

NEW_YORK = ZoneInfo("America/New_York")


def parse_receipt(value: str) -> datetime:
    """A paper filing's `received_on`: an ISO date or date-time; New York unless an offset
    is given. Malformed text is refused (the API answers it 400)."""
    text = value.strip()
    try:
        if "T" not in text and " " not in text:
            return datetime.combine(date.fromisoformat(text), time(), NEW_YORK)
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidRequestError(
            f"received_on must be an ISO date or date-time, not {value!r}",
            {"received_on": value},
        ) from None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=NEW_YORK)
    return moment.astimezone(NEW_YORK)


def in_new_york(moment: datetime) -> datetime:
    return moment.astimezone(NEW_YORK)


def receipt_day(moment: datetime) -> date:
    """The New York calendar date of a receipt instant (CMN-1)."""
    return in_new_york(moment).date()


def intake_closes(fiscal_year: int, ruleset: Ruleset) -> datetime:
    """The first instant after FY `fiscal_year`'s intake: the start of the day after its
    deadline (June 30 by default), New York time."""
    last = date(fiscal_year, ruleset.tech_deadline_month, ruleset.tech_deadline_day)
    return datetime.combine(last + timedelta(days=1), time(), NEW_YORK)


def utc_key(moment: datetime) -> str:
    """An instant as UTC ISO text, which sorts in time order (receipt-order ties, CMN-2)."""
    return moment.astimezone(UTC).isoformat()


def check_recorded_receipt(received: datetime, now: datetime, reason: str | None) -> str:
    """The Authority's record of a paper filing's receipt: not in the future, with a
    reason; the reason, stripped."""
    if reason is None or not reason.strip():
        raise InvalidRequestError(
            "A receipt recorded by the Authority needs a receipt_reason (TB-6).",
            {"received_on": in_new_york(received).isoformat()},
        )
    if received > now:
        raise InvalidRequestError(
            f"A receipt cannot be recorded for {in_new_york(received).isoformat()}, after "
            f"now ({in_new_york(now).isoformat()}, New York time; TB-6).",
            {"received_on": in_new_york(received).isoformat()},
        )
    return reason.strip()
