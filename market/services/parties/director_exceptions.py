"""The Director's exception for an individual's direct purchase (PT-7, AMB-53), recorded
by the Authority as DIRECTOR_EXCEPTION_RECORDED on the party's stream."""

from __future__ import annotations

from market.adapters.reads import parties as reads
from market.adapters.repositories.parties_models import ExceptedParty, PartyRow
from market.domain.errors import InvalidRequestError
from market.domain.events.parties import DirectorExceptionRecorded
from market.domain.rules.individuals import INDIVIDUALS
from market.services.kernel import clock
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.reads import Connection
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import party_record


def excepted_parties(conn: Connection, limit: int = 100) -> list[ExceptedParty]:
    """The parties the Director has excepted, by name (the exception page's list)."""
    return reads.excepted_parties(conn, limit)


def record_exception(uow: AbstractUnitOfWork, actor: Actor, party_id: str, reason: str) -> PartyRow:
    actor.require(AUTHORITY)
    party = party_record(uow, party_id)
    if party["entity_type"] not in INDIVIDUALS:
        raise InvalidRequestError(
            "The Director's exception (PT-7, AMB-53) is for an individual buying directly; "
            f"a {party['entity_type'].replace('_', ' ')} buys as the business entity it is.",
            {"entity_type": party["entity_type"]},
        )
    if not reason.strip():
        raise InvalidRequestError("The exception needs the Director's reason.", {})
    uow.append(
        f"party-{party_id}",
        DirectorExceptionRecorded(
            party_id=party_id, reason=reason.strip(), recorded_on=clock.today().isoformat()
        ),
        actor.label,
    )
    return party_record(uow, party_id)
