"""Prices shown as cents on the dollar: exact, truncated, never rounded up to a floor."""

from market.web.filters import per_dollar


def test_a_round_price_reads_in_whole_cents() -> None:
    assert per_dollar(90_000_00, 100_000_00) == "90¢ per $1"


def test_a_fraction_of_a_cent_is_shown_to_a_tenth() -> None:
    assert per_dollar(90_500, 100_000) == "90.5¢ per $1"


def test_a_price_just_under_the_floor_never_reads_as_the_floor() -> None:
    assert per_dollar(74_999, 100_000) == "74.9¢ per $1"


def test_nothing_to_price_shows_a_dash() -> None:
    assert per_dollar(None, 100) == "—"
    assert per_dollar(100, 0) == "—"
