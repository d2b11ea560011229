"""Programs, buyer tax types and waiver statements
(CMN-8, §2.7, UTH-22, DMG-12, DMC-10, BR-15, AMB-8)."""

from __future__ import annotations

from enum import StrEnum

from market.domain.errors import TaxTypeNotAllowedError
from market.domain.values import format_cents


class Program(StrEnum):
    BRRAG = "BRRAG"
    UTH = "UTH"
    DM_GIT = "DM_GIT"
    DM_CBT = "DM_CBT"
    TECH = "TECH"


class TaxType(StrEnum):
    CBT = "CBT"
    GIT = "GIT"
    IPT = "IPT"


_ALL = frozenset(TaxType)
_CBT_GIT = frozenset({TaxType.CBT, TaxType.GIT})

_BUYER_TAX_TYPES: dict[Program, frozenset[TaxType]] = {
    Program.BRRAG: _ALL,
    Program.UTH: _ALL,
    Program.DM_GIT: _CBT_GIT,
    Program.DM_CBT: _CBT_GIT,
    Program.TECH: _CBT_GIT,
}

_WAIVED_CLAIM: dict[Program, str] = {
    Program.BRRAG: (
        "Business Retention and Relocation Assistance Grant tax credit (C.34:1B-120.2; "
        "printed by default under AMB-8)"
    ),
    Program.UTH: "Urban Transit Hub tax credit (C.34:1B-209.1)",
    Program.DM_GIT: (
        "digital media content production credit against gross income tax (A1178 §20(c))"
    ),
    Program.DM_CBT: (
        "digital media content production credit against corporation business tax "
        "(C.54:10A-5.39(d))"
    ),
}


def buyer_tax_types(program: Program) -> frozenset[TaxType]:
    return _BUYER_TAX_TYPES[program]


def check_tax_type(program: Program, tax_type: TaxType) -> None:
    allowed = buyer_tax_types(program)
    if tax_type not in allowed:
        raise TaxTypeNotAllowedError(
            f"{program} credits may not be applied against {tax_type}",
            {
                "program": str(program),
                "tax_type": str(tax_type),
                "allowed": sorted(str(t) for t in allowed),
            },
        )


def waiver_statement(
    program: Program, face_cents: int, holder_name: str, print_brrag_waiver: bool = True
) -> str:
    """The statement printed on the certificate; TECH surrenders the benefit, so it has none.

    BRRAG needs none by statute; ``print_brrag_waiver`` carries ``Ruleset.brrag_print_waiver``.
    """
    claim = _WAIVED_CLAIM.get(program)
    if claim is None or (program is Program.BRRAG and not print_brrag_waiver):
        return ""
    return (
        f"{holder_name} waives the right to claim on its own returns the "
        f"{format_cents(face_cents)} of {claim} that this certificate covers "
        f"and that it elected to sell or assign."
    )
