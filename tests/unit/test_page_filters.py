"""Page filters: prices as cents on the dollar (exact, truncated, never rounded up to a
floor) and instants in New York time."""

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


def test_an_instant_reads_in_new_york_time_with_its_zone() -> None:
    from market.web.filters import ny_time

    assert ny_time("2026-12-02T18:32:05.123456+00:00") == "2026-12-02 1:32 pm EST"
    assert ny_time("2026-07-01T03:05:00+00:00") == "2026-06-30 11:05 pm EDT"
    assert ny_time("2026-07-01") == "2026-07-01"
    assert ny_time(None) == "—"


def test_a_tech_eligibility_code_reads_as_words() -> None:
    from market.web.filters import tech_reason

    assert tech_reason("no_protected_ip") == (
        "owns, has filed for or licenses no protected proprietary IP"
    )
    assert tech_reason("too_many_us_employees") == "has too many employees in the United States"
    assert "_" not in tech_reason("something_new")
