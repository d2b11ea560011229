"""The waiver check (CMN-4(d), UTH-22, DMG-12, DMC-10, BR-5, TB-31; AMB-8, AMB-29): the
business a certificate was issued to gave its own claim to the credit up (a waiver
statement, or the surrender of a BRRAG or TECH amount) in exchange for the certificate,
so it may not claim the credit on its own return nor pass it through to its owners; a
buyer, or an owner the credit was passed through to, may."""

from __future__ import annotations

from market.domain.errors import WaivedBySellerError


def waived_by_holder(*, is_original: bool, holder_party_id: str, original_holder_id: str) -> bool:
    """The holder is the business that waived its claim: it still holds the original."""
    return bool(is_original and holder_party_id == original_holder_id)


def check_not_waived(
    certificate_id: str,
    program: str,
    *,
    is_original: bool,
    holder_party_id: str,
    original_holder_id: str,
) -> None:
    """Refuse (`waived_by_seller`) a use by the business that waived its claim."""
    if waived_by_holder(
        is_original=is_original,
        holder_party_id=holder_party_id,
        original_holder_id=original_holder_id,
    ):
        raise WaivedBySellerError(
            "The original holder waived (or surrendered) its own claim to this credit in "
            "exchange for the certificate; only a buyer or a pass-through owner may use it.",
            {"certificate_id": certificate_id, "program": program},
        )
