"""GIT pass-through: owners' shares and the §40 liability-share ratio
(PT-2, PT-3, PT-5, PT-6, UTH-14, AMB-17, AMB-51, AMB-54, AMB-55)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from market.domain.errors import DomainError, InvalidRequestError
from market.domain.programs import Program
from market.domain.rulesets import UTH_PARTNERSHIP_BASES, Ruleset
from market.domain.values import floor_int

# Entity types treated as partnerships for federal purposes (PT-5, UTH-14). An LLC is a
# pass-through entity in this ledger and is allocated by income share like a partnership
# (it is not an S corporation: PT-6 names "a New Jersey S corporation" only), so it is a
# partnership here too.
PARTNERSHIP_ENTITY_TYPES = frozenset({"partnership", "llc"})
TOTAL_BPS = 10_000


class NotAPartnershipError(DomainError):
    code = "not_a_partnership"


class PassThroughRequiredError(DomainError):
    code = "pass_through_required"


# PT-5 / PT-6 / DMG-5: entities not allowed a GIT credit directly; they pass it through.
NO_DIRECT_GIT_CREDIT = PARTNERSHIP_ENTITY_TYPES | {"s_corporation"}


def check_direct_git_use(entity_type: str, tax_type: str) -> None:
    """A partnership (or an LLC, taxed as one here), or a New Jersey S corporation, is not
    allowed a GIT credit on its own return (PT-5, PT-6; DMG-5 and every GIT credit of the
    bill through §40): it passes the credit through to its owners."""
    if tax_type == "GIT" and entity_type in NO_DIRECT_GIT_CREDIT:
        kind = entity_type.replace("_", " ")
        raise PassThroughRequiredError(
            f"A {kind} is not allowed a GIT credit directly (PT-5, PT-6): pass it through "
            "to the owners (POST /api/v1/certificates/{id}/pass-through), who apply it.",
            {"entity_type": entity_type, "tax_type": tax_type},
        )


class NotARecordedOwnerError(DomainError):
    code = "not_a_recorded_owner"


class AgreementOutOfOrderError(DomainError):
    code = "agreement_out_of_order"


def split_exact(amount_cents: int, shares: Mapping[str, int]) -> dict[str, int]:
    """`amount_cents` in proportion to positive `shares`, exact to the cent: each gets the
    floor of its part and the leftover cents go by largest remainder, ties by key."""
    total = sum(shares.values())
    exact = {owner: Fraction(amount_cents * share, total) for owner, share in shares.items()}
    result = {owner: floor_int(x) for owner, x in exact.items()}
    leftover = amount_cents - sum(result.values())
    by_remainder = sorted(shares, key=lambda o: (-(exact[o] - result[o]), o))
    for owner in by_remainder[:leftover]:
        result[owner] += 1
    return result


def allocate_by_income_share(
    amount_cents: int,
    shares: dict[str, int],
    profit_sharing_bps: dict[str, int] | None = None,
) -> dict[str, int]:
    """Split a credit by each owner's share of total distributive (or pro rata) income.

    When that total is not positive, AMB-54 falls back to the partnership agreement's
    profit-sharing percentages, which the caller flags for Director review.
    """
    if amount_cents < 0 or any(v < 0 for v in shares.values()):
        raise InvalidRequestError(
            "the credit and each owner's income share must not be negative",
            {"amount_cents": amount_cents},
        )
    if sum(shares.values()) > 0:
        return split_exact(amount_cents, shares)
    if profit_sharing_bps and sum(profit_sharing_bps.values()) > 0:
        if any(v < 0 for v in profit_sharing_bps.values()):
            raise InvalidRequestError("profit-sharing percentages must not be negative")
        return split_exact(amount_cents, profit_sharing_bps)
    raise InvalidRequestError(
        "the entity's total distributive income is not positive and no profit-sharing "
        "percentages were given (AMB-54)",
        {"total_share": sum(shares.values())},
    )


def liability_share_ratio(
    entity_income_cents: int,
    category_amounts_cents: list[int],
    other_categories_net_cents: list[int],
    ruleset: Ruleset | None = None,
) -> Fraction:
    """PT-2: the entity's share of the category's net income over gross income, at most 1.

    ``category_amounts_cents`` lists every source in the entity's category, the entity's
    own amount included; ``other_categories_net_cents`` gives the other categories' nets.
    """
    positive = sum(x for x in category_amounts_cents if x > 0)
    net = max(0, sum(category_amounts_cents))
    gross_income = net + sum(max(0, x) for x in other_categories_net_cents)
    if entity_income_cents <= 0 or gross_income == 0:
        return Fraction(0)
    if ruleset is not None and ruleset.pt_numerator_mode == "algebraic":
        numerator = Fraction(entity_income_cents)
    else:
        numerator = Fraction(entity_income_cents * net, positive)
    return min(Fraction(1), numerator / gross_income)


def cap40_cents(ratio: Fraction, liability_cents: int) -> int:
    return floor_int(ratio * liability_cents)


# ---- UTH owners' agreement (UTH-14, C.34:1B-209(c)(2), AMB-17) -------------------------


def validate_owners_agreement(
    party_id: str,
    entity_type: str,
    shares: Sequence[tuple[str, int]],
    recorded_owners: Collection[str],
    filed_on: str,
    current_filed_on: str | None = None,
) -> dict[str, int]:
    """The shares an owners' agreement filed with the Director sets, by owner, in bps.

    Only a partnership (or an LLC, see PARTNERSHIP_ENTITY_TYPES) files one; every share is
    a positive whole number of basis points, the owners are distinct recorded owners of the
    partnership (not the partnership itself), and the shares sum to exactly 10000. A filing
    dated (ISO dates compare as text) before the agreement in force is refused: the latest
    filed agreement applies, so the ledger's order must be the filing order.
    """
    if entity_type not in PARTNERSHIP_ENTITY_TYPES:
        raise NotAPartnershipError(
            f"A {entity_type} files no owners' agreement: UTH-14 provides one for "
            "partnerships only.",
            {"entity_type": entity_type, "allowed": sorted(PARTNERSHIP_ENTITY_TYPES)},
        )
    if not shares:
        raise InvalidRequestError("An owners' agreement names at least one owner.", {})
    result: dict[str, int] = {}
    for owner, bps in shares:
        if isinstance(bps, bool) or not isinstance(bps, int) or bps <= 0:
            raise InvalidRequestError(
                "Each share must be a whole number of basis points above 0.",
                {"owner_party_id": owner, "share_bps": bps},
            )
        if owner == party_id:
            raise InvalidRequestError(
                "A partnership is not one of its own owners.", {"owner_party_id": owner}
            )
        if owner in result:
            raise InvalidRequestError(
                "Each owner appears once in an owners' agreement.", {"owner_party_id": owner}
            )
        if owner not in recorded_owners:
            raise NotARecordedOwnerError(
                f"Party {owner} is not a recorded owner of the partnership; record the "
                "ownership first.",
                {"owner_party_id": owner, "party_id": party_id},
            )
        result[owner] = bps
    total = sum(result.values())
    if total != TOTAL_BPS:
        raise InvalidRequestError(
            f"The shares sum to {total} bps; an owners' agreement allocates exactly 10000.",
            {"total_bps": total},
        )
    if current_filed_on is not None and filed_on < current_filed_on:
        raise AgreementOutOfOrderError(
            f"The agreement in force was filed on {current_filed_on}; one filed on "
            f"{filed_on} is not the latest and cannot replace it.",
            {"filed_on": filed_on, "current_filed_on": current_filed_on},
        )
    return result


def allocation_basis(
    program: Program, entity_type: str, agreement_filed: bool, ruleset: Ruleset
) -> str:
    """AMB-17: "owners_agreement" for a UTH credit held by a partnership that filed an
    owners' agreement, under the default reading; otherwise "income_share" (PT-5, PT-6).
    The alternative is in the UTH section only, so other programs keep income share."""
    reading = ruleset.reading("uth_partnership_basis", UTH_PARTNERSHIP_BASES)
    if (
        reading == "owners_agreement_if_filed"
        and program is Program.UTH
        and entity_type in PARTNERSHIP_ENTITY_TYPES
        and agreement_filed
    ):
        return "owners_agreement"
    return "income_share"


def allocate_by_agreement(amount_cents: int, shares_bps: dict[str, int]) -> dict[str, int]:
    """Split a credit by an owners' agreement's shares, exact to the cent: each owner gets
    the floor of its share and the leftover cents go by largest remainder (as by income)."""
    if amount_cents < 0 or not shares_bps or any(v <= 0 for v in shares_bps.values()):
        raise InvalidRequestError(
            "the credit must not be negative and each agreed share must be positive",
            {"amount_cents": amount_cents},
        )
    return split_exact(amount_cents, shares_bps)
