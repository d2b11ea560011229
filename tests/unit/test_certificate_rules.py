"""The certificate rules that moved out of the services: status (DMQ-2, DMQ-3, RULES.md
5.5), the carryover window (BR-11, DMG-6, DMC-6, UTH-10, AMB-45), the waiver check
(CMN-4(d)), the cap buckets (BR-12, UTH-12, DMQ-1) and a UTH period's fiscal year (UTH-13,
AMB-13)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from market.domain.errors import WaivedBySellerError
from market.domain.programs import Program, TaxType
from market.domain.rules import buckets, carryover, waiver
from market.domain.rules.certificate_status import certificate_status
from market.domain.rulesets import A1178

MILLION = 100_000_000  # cents


class TestCertificateStatus:
    def test_the_queue_example_gives_partially_queued_then_queued(self) -> None:
        # RULES.md 5.5: #3 $1.2M gets $0.5M allowed, $0.7M deferred; #4 $0.3M all deferred.
        assert certificate_status(MILLION // 2, MILLION // 2, 70 * MILLION // 100) == (
            "partially_queued"
        )
        assert certificate_status(0, 0, 30 * MILLION // 100) == "queued"

    def test_on_july_1_the_deferred_amount_allowed_makes_it_issued(self) -> None:
        assert certificate_status(120 * MILLION // 100, 120 * MILLION // 100, 0) == "issued"

    def test_a_certificate_with_nothing_usable_or_waiting_is_exhausted(self) -> None:
        assert certificate_status(MILLION, 0, 0) == "exhausted"

    @given(st.integers(0, 10**12), st.integers(0, 10**12), st.integers(1, 10**12))
    def test_anything_queued_is_never_issued_nor_exhausted(
        self, allowed: int, balance: int, queued: int
    ) -> None:
        assert certificate_status(allowed, balance, queued) in ("queued", "partially_queued")


class TestCarryoverWindow:
    def test_a_stated_window_is_kept(self) -> None:
        last = carryover.carryover_window(
            Program.DM_CBT,
            TaxType.CBT,
            A1178,
            stated_last_year=2019,
            credit_year=2013,
            fiscal_year=2014,
        )
        assert last == 2019

    def test_digital_media_carries_over_seven_years_from_the_credit_year(self) -> None:
        # DMG-6 / DMC-6: 7 taxable years (privilege periods).
        last = carryover.carryover_window(
            Program.DM_GIT,
            TaxType.GIT,
            A1178,
            stated_last_year=None,
            credit_year=2013,
            fiscal_year=2014,
        )
        assert last == 2020

    def test_brrag_without_a_credit_year_counts_from_its_fiscal_year(self) -> None:
        # BR-11: the tax period of issue and the next.
        last = carryover.carryover_window(
            Program.BRRAG,
            TaxType.CBT,
            A1178,
            stated_last_year=None,
            credit_year=None,
            fiscal_year=2013,
        )
        assert last == 2014

    @pytest.mark.parametrize("program", [Program.TECH, Program.UTH])
    def test_tech_and_uth_state_no_single_window(self, program: Program) -> None:
        tax_type = TaxType.CBT if program is Program.TECH else TaxType.IPT
        last = carryover.carryover_window(
            program, tax_type, A1178, stated_last_year=None, credit_year=2013, fiscal_year=2014
        )
        assert last is None

    def test_a_use_after_the_last_year_is_expired(self) -> None:
        assert carryover.is_expired(2020, 2021)
        assert not carryover.is_expired(2020, 2020)
        assert not carryover.is_expired(None, 2100)


class TestWaiver:
    def test_the_business_that_waived_its_claim_may_not_use_it(self) -> None:
        with pytest.raises(WaivedBySellerError) as refused:
            waiver.check_not_waived(
                "crt_1", "UTH", is_original=True, holder_party_id="p", original_holder_id="p"
            )
        assert refused.value.code == "waived_by_seller"
        assert refused.value.details == {"certificate_id": "crt_1", "program": "UTH"}

    def test_a_buyer_or_a_pass_through_owner_may(self) -> None:
        waiver.check_not_waived(
            "crt_2", "UTH", is_original=False, holder_party_id="b", original_holder_id="p"
        )
        assert not waiver.waived_by_holder(
            is_original=True, holder_party_id="owner", original_holder_id="p"
        )


class TestCapBuckets:
    def test_each_program_has_its_statutory_cap(self) -> None:
        assert buckets.bucket_cap_cents("BRRAG", A1178) == 20 * MILLION  # BR-12
        assert buckets.bucket_cap_cents("UTH", A1178) == 150 * MILLION  # UTH-12
        assert buckets.bucket_cap_cents("DM_CBT", A1178) == 5 * MILLION  # DMQ-1
        assert all(buckets.bucket_cap_cents(b, A1178) > 0 for b in buckets.BUCKETS)

    def test_the_cumulative_uth_cap_is_one_lifetime_row(self) -> None:
        assert buckets.cap_id("UTH", 2014) == "UTH:2014"
        assert buckets.report_cap_id("UTH_CUMULATIVE", 2014) == "UTH_CUMULATIVE:0"
        assert buckets.report_cap_id("BRRAG", 2014) == "BRRAG:2014"


class TestUthPeriodFiscalYear:
    ISSUED = date(2013, 9, 1)  # FY2014

    def test_a_calendar_year_period_commences_in_its_own_fiscal_year(self) -> None:
        # UTH-13: January 1, 2014 is in FY2014.
        assert buckets.uth_period_fiscal_year(2014, A1178, self.ISSUED) == 2014

    def test_a_july_filers_period_commences_in_the_next_fiscal_year(self) -> None:
        # July 1, 2014 is the first day of FY2015.
        assert buckets.uth_period_fiscal_year(2014, A1178, self.ISSUED, start_month=7) == 2015

    def test_the_approval_reading_buckets_by_the_date_of_issuance(self) -> None:
        approval = replace(A1178, name="A1178-approval", uth_fy_bucket="approval")  # AMB-13
        assert buckets.uth_period_fiscal_year(2020, approval, self.ISSUED) == 2014
