"""The provider's `amr` (RFC 8176) counts as a second factor only when it says two kinds
of factor were used (services/oidc_signin.multi_factor)."""

from __future__ import annotations

import pytest

from market.services.identity.oidc_signin import multi_factor


@pytest.mark.parametrize(
    ("amr", "counts"),
    [
        (["mfa"], True),
        (["pwd", "otp"], True),
        (["pin", "hwk"], True),
        (["pwd"], False),
        (["otp"], False),  # one factor, whichever
        (["pwd", "kba"], False),  # two things known are one kind
        ([], False),
        ("mfa", False),  # not a list
        (None, False),
        ([1, "otp"], False),
    ],
)
def test_only_two_kinds_of_factor_count(amr: object, counts: bool) -> None:
    assert multi_factor(amr) is counts
