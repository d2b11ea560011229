"""ADM-11, ADM-12: the business incentive tax clearance certificate (N.J.A.C.
18:2-10.4(b)1-2): void 90 days after its issue date unless renewed; renewed at most 3
times within 365 days for the same program; required at the steps ADM-12 names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from market.domain.errors import InvalidRequestError
from market.domain.rulesets import Ruleset


@dataclass(frozen=True)
class Clearance:
    issued_on: date
    renews_issued_on: Sequence[date]  # the issue dates of the chain it renews, oldest first


def valid_until(issued_on: date, ruleset: Ruleset) -> date:
    """The last day the certificate is valid: issued on day D, void on D + 90."""
    return issued_on + timedelta(days=ruleset.adm_clearance_valid_days - 1)


def renewals_in_window(chain: Sequence[date], on: date, ruleset: Ruleset) -> int:
    """How many renewals of the chain fall within the 365 days ending `on` (the chain's
    first certificate is an issue, not a renewal)."""
    start = on - timedelta(days=ruleset.adm_clearance_renewal_window_days - 1)
    return sum(1 for d in chain[1:] if d >= start)


def check_new(clearance: Clearance, today: date, ruleset: Ruleset) -> int:
    """Refuse a certificate issued in the future or a renewal beyond the limit; returns
    the renewals left in the window after this one."""
    if clearance.issued_on > today:
        raise InvalidRequestError(
            "A tax clearance certificate cannot be issued in the future.",
            {"issued_on": clearance.issued_on.isoformat(), "today": today.isoformat()},
        )
    chain = [*clearance.renews_issued_on]
    if chain and clearance.issued_on < chain[-1]:
        raise InvalidRequestError(
            "A renewal cannot be issued before the certificate it renews.",
            {"issued_on": clearance.issued_on.isoformat()},
        )
    chain.append(clearance.issued_on)
    used = renewals_in_window(chain, clearance.issued_on, ruleset)
    if used > ruleset.adm_clearance_max_renewals:
        raise InvalidRequestError(
            f"A tax clearance certificate may be renewed at most "
            f"{ruleset.adm_clearance_max_renewals} times within "
            f"{ruleset.adm_clearance_renewal_window_days} days for the same program (ADM-11).",
            {"renewals": used, "max_renewals": ruleset.adm_clearance_max_renewals},
        )
    return ruleset.adm_clearance_max_renewals - used


def state_on(issued_on: date | None, on: date, ruleset: Ruleset) -> str:
    """`missing`, `expired` or `valid` for the latest certificate's issue date."""
    if issued_on is None or issued_on > on:
        return "missing"
    return "valid" if on <= valid_until(issued_on, ruleset) else "expired"
