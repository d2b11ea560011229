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


def _validate(applicants: Sequence[Applicant]) -> list[datetime]:
    seen: set[str] = set()
    for a in applicants:
        if a.id in seen:
            raise InvalidRequestError(f"applicant {a.id!r} appears twice", {"id": a.id})
        seen.add(a.id)
        if a.request_cents < 0:
            raise InvalidRequestError(
                f"applicant {a.id!r} requests a negative amount",
                {"id": a.id, "request_cents": a.request_cents},
            )
    return [receipt_key(a.received_at) for a in applicants]


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
    keys: Sequence[tuple[datetime, str]],
    ruleset: Ruleset,
) -> list[int]:
    """Step 4: floor to the cent, then leftover cents by largest remainder (AMB-31)."""
    floors = [n // denominator for n in numerators]
    if ruleset.rounding_mode == "floor_cent":
        return floors
    leftover = ruleset.tech_fy_cap_cents - sum(floors)
    candidates = [i for i, n in enumerate(numerators) if n % denominator]
    candidates.sort(key=lambda i: (-(numerators[i] % denominator), keys[i]))
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
    _check_modes(ruleset)
    if ruleset.tech_zone_setaside_cents > ruleset.tech_fy_cap_cents:
        raise InvalidRequestError(
            f"ruleset {ruleset.name} reserves more for the zones than the whole cap",
            {"ruleset": ruleset.name},
        )
    apps = list(applicants)
    receipts = _validate(apps)
    requests = [a.request_cents for a in apps]
    total = sum(requests)
    over = total > ruleset.tech_fy_cap_cents or (
        ruleset.trigger_at_cap and total == ruleset.tech_fy_cap_cents
    )
    if not over:
        return Allocation(False, total, {a.id: a.request_cents for a in apps})
    zone = [a.in_zone and a.request_cents > 0 for a in apps]
    numerators, denominator = _exact(requests, zone, ruleset)
    keys = [(r, a.id) for r, a in zip(receipts, apps, strict=True)]
    cents = _round(numerators, denominator, keys, ruleset)
    return Allocation(True, sum(cents), {a.id: c for a, c in zip(apps, cents, strict=True)})
