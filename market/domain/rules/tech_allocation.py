"""The TECH fiscal-year allocation when requests exceed the cap
(TB-13, TB-14, TB-15, CMN-2, AMB-30, AMB-31, AMB-32; RULES.md Appendix A).

Every exact amount is an integer numerator over one common denominator, so the method
is linear in the number of applicants and never rounds until Step 4.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from market.domain.errors import InvalidRequestError
from market.domain.rulesets import Ruleset


@dataclass(frozen=True)
class Applicant:
    id: str
    request_cents: int
    in_zone: bool
    received_at: str | datetime


@dataclass(frozen=True)
class Allocation:
    triggered: bool
    total_cents: int
    amounts: dict[str, int]


def receipt_key(received_at: str | datetime) -> datetime:
    """Receipt time as an aware datetime; a naive time is read as UTC so all compare."""
    if isinstance(received_at, datetime):
        moment = received_at
    else:
        try:
            moment = datetime.fromisoformat(received_at)
        except (TypeError, ValueError):
            raise InvalidRequestError(
                f"received_at {received_at!r} is not an ISO 8601 date or time",
                {"received_at": str(received_at)},
            ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _validate(
    ids: Sequence[str], requests: Sequence[int], received: Sequence[str | datetime]
) -> list[datetime]:
    """The receipt instants; each distinct receipt text is parsed once (many applicants
    share a day)."""
    seen: set[str] = set()
    for i, t in zip(ids, requests, strict=True):
        if i in seen:
            raise InvalidRequestError(f"applicant {i!r} appears twice", {"id": i})
        seen.add(i)
        if t < 0:
            raise InvalidRequestError(
                f"applicant {i!r} requests a negative amount", {"id": i, "request_cents": t}
            )
    parsed: dict[str | datetime, datetime] = {}
    moments = []
    for r in received:
        moment = parsed.get(r)
        if moment is None:
            moment = parsed[r] = receipt_key(r)
        moments.append(moment)
    return moments


def _pool(requests: Sequence[int], cap: int, floor: int) -> tuple[list[int], int]:
    """Floor-then-pro-rata inside one pool, as numerators over the returned denominator."""
    floors = [min(t, floor) for t in requests]
    floor_sum = sum(floors)
    if floor_sum >= cap:
        return [f * cap for f in floors], floor_sum
    unmet = sum(requests) - floor_sum
    spare = cap - floor_sum
    return [f * unmet + (t - f) * spare for t, f in zip(requests, floors, strict=True)], unmet


def _exact(
    requests: Sequence[int], zone: Sequence[bool], ruleset: Ruleset
) -> tuple[list[int], int]:
    """Steps 1 to 3: the exact amounts as numerators over one common denominator."""
    cap, setaside, floor = (
        ruleset.tech_fy_cap_cents,
        ruleset.tech_zone_setaside_cents,
        ruleset.tech_floor_cents,
    )
    zone_requests = [t for t, z in zip(requests, zone, strict=True) if z]
    if sum(zone_requests) <= setaside:
        zone_amounts, dz = zone_requests, 1
    else:
        zone_amounts, dz = _pool(zone_requests, setaside, floor)
    zone_iter = iter(zone_amounts)
    zn = [next(zone_iter) if z else 0 for z in zone]
    a5 = sum(zn)
    gn = [max(0, min(t, floor) * dz - z) for t, z in zip(requests, zn, strict=True)]
    g = sum(gn)
    room = cap * dz - a5
    if g >= room:
        if ruleset.allocation_apportion_mode == "scale_all":
            base = [z + x for z, x in zip(zn, gn, strict=True)]
            return [b * cap for b in base], a5 + g
        # Step 2a keeps the set-aside whole and shares what is left over the floors.
        if g == 0:
            return zn, dz
        return [z * g + x * room for z, x in zip(zn, gn, strict=True)], dz * g
    numer = room - g
    denom = sum(requests) * dz - g - a5
    return (
        [
            (z + x) * denom + (t * dz - z - x) * numer
            for t, z, x in zip(requests, zn, gn, strict=True)
        ],
        dz * denom,
    )


def _round(
    numerators: Sequence[int],
    denominator: int,
    keys: tuple[Sequence[datetime], Sequence[str]],
    ruleset: Ruleset,
) -> list[int]:
    """Step 4: floor to the cent, then leftover cents by largest remainder (AMB-31), ties
    to the earlier receipt, then the id (`keys`: the receipts and the ids)."""
    if ruleset.rounding_mode == "floor_cent":
        return [n // denominator for n in numerators]
    parts = [divmod(n, denominator) for n in numerators]  # each big division once
    floors = [q for q, _ in parts]
    leftover = ruleset.tech_fy_cap_cents - sum(floors)
    receipts, ids = keys
    # Each receipt instant by its rank among the distinct ones: integers compare faster
    # than aware datetimes, in the same order.
    rank = {moment: k for k, moment in enumerate(sorted(set(receipts)))}
    candidates = [i for i, (_, r) in enumerate(parts) if r]
    candidates.sort(key=lambda i: (-parts[i][1], rank[receipts[i]], ids[i]))
    for i in candidates[:leftover]:
        floors[i] += 1
    return floors


_MODES = {
    "allocation_apportion_mode": ("preserve_zone", "scale_all"),
    "allocation_zone_mode": ("carve_out_then_compete",),
    "rounding_mode": ("floor_cent_largest_remainder", "floor_cent"),
}


def _check_modes(ruleset: Ruleset) -> None:
    for name, known in _MODES.items():
        if getattr(ruleset, name) not in known:
            raise InvalidRequestError(
                f"ruleset {ruleset.name}: {name} {getattr(ruleset, name)!r} is not implemented",
                {"field": name, "known": list(known)},
            )


def allocate(applicants: Iterable[Applicant], ruleset: Ruleset) -> Allocation:
    apps = list(applicants)
    ids = [a.id for a in apps]
    triggered, total, cents = allocate_columns(
        ids,
        [a.request_cents for a in apps],
        [a.in_zone for a in apps],
        [a.received_at for a in apps],
        ruleset,
    )
    return Allocation(triggered, total, dict(zip(ids, cents, strict=True)))


def allocate_columns(
    ids: Sequence[str],
    requests: Sequence[int],
    in_zone: Sequence[bool],
    received: Sequence[str | datetime],
    ruleset: Ruleset,
) -> tuple[bool, int, list[int]]:
    """`allocate` over the applicants as columns (the i-th of each list is one applicant):
    whether it was triggered, the total, and each applicant's cents in the input's order.
    The simulator plans 10,000 applicants a request without an object for each."""
    _check_modes(ruleset)
    if ruleset.tech_zone_setaside_cents > ruleset.tech_fy_cap_cents:
        raise InvalidRequestError(
            f"ruleset {ruleset.name} reserves more for the zones than the whole cap",
            {"ruleset": ruleset.name},
        )
    receipts = _validate(ids, requests, received)
    total = sum(requests)
    over = total > ruleset.tech_fy_cap_cents or (
        ruleset.trigger_at_cap and total == ruleset.tech_fy_cap_cents
    )
    if not over:
        return False, total, list(requests)
    zone = [z and t > 0 for z, t in zip(in_zone, requests, strict=True)]
    numerators, denominator = _exact(requests, zone, ruleset)
    cents = _round(numerators, denominator, (receipts, ids), ruleset)
    return True, sum(cents), cents
