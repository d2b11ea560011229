"""PT-1 (no duplicate use, AMB-56): a creditable activity is used once, checked on every
CREDIT_APPLIED whatever the tax type, although §40's text names "a GIT credit": see
`market.domain.rules.activities` for why.
"""

from __future__ import annotations

from market.domain.errors import ActivityAlreadyUsedError
from market.domain.model import Certificate
from market.domain.rules import activities
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_views import activity_ids_of, lineage_activity_ids
from market.services.kernel.reads import Source, repositories
from market.services.parties.parties import load_party, ownership_graph


def _prior_uses(source: Source, parties: frozenset[str]) -> list[activities.PriorUse]:
    """Every CREDIT_APPLIED of a positive amount by one of `parties`, with the activity ids
    of the certificate it used."""
    rows = repositories(source).credit_applications.positive_uses_by(parties)
    return [
        activities.PriorUse(
            application_id=r["application_id"],
            party_id=r["party_id"],
            certificate_id=r["id"],
            certificate_number=r["number"],
            root_id=r["root_id"],
            tax_type=r["tax_type"],
            tax_year=r["tax_year"],
            activity_ids=tuple(
                lineage_activity_ids(source, r["id"], r["root_id"], r["attributes"])
            ),
        )
        for r in rows
    ]


def check_activities_unused(
    source: Source, cert: Certificate, party_id: str, ruleset: Ruleset
) -> list[str]:
    """PT-1 / AMB-56: refuse `activity_already_used` when another credit (another root)
    sharing one of the certificate's creditable activities was already applied on a return
    by the applicant or, under the default scope, anyone in its ownership chain. Returns the
    activity ids checked."""
    ids = activity_ids_of(source, cert)
    if not ids:
        return ids
    scope = ruleset.pt1_activity_scope
    parties = activities.parties_in_scope(ownership_graph(source), party_id, scope)
    conflicts = activities.conflicting_uses(ids, cert.root_id, _prior_uses(source, parties))
    if not conflicts:
        return ids
    names = {c.use.party_id: load_party(source, c.use.party_id)["name"] for c in conflicts}
    shared = list(dict.fromkeys(a for c in conflicts for a in c.activity_ids))
    used = "; ".join(
        f"{', '.join(c.activity_ids)} by {names[c.use.party_id]} ({c.use.party_id}) with "
        f"certificate {c.use.certificate_number} against {c.use.tax_type} for {c.use.tax_year}"
        for c in conflicts
    )
    raise ActivityAlreadyUsedError(
        f"Creditable activity {', '.join(shared)} was already used for another State tax "
        f"credit: {used}. A credit is not allowed for an activity already used (PT-1, "
        f"scope {scope}).",
        {
            "certificate_id": cert.id,
            "creditable_activity_ids": shared,
            "scope": scope,
            "conflicts": [
                {
                    "activity_ids": list(c.activity_ids),
                    "application_id": c.use.application_id,
                    "certificate_id": c.use.certificate_id,
                    "certificate_number": c.use.certificate_number,
                    "party_id": c.use.party_id,
                    "party_name": names[c.use.party_id],
                    "tax_type": c.use.tax_type,
                    "tax_year": c.use.tax_year,
                }
                for c in conflicts
            ],
        },
    )
