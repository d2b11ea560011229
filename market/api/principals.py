"""Bearer principals a process keeps, so a ledger write sends no statement to learn who is
writing (issue 25, the statement diet).

Each principal is kept with the auth epoch it was read at (market.services.identity.
principals). Only the writes named in `LEDGER_COMMANDS` use a kept principal without
reading: each of them does nothing but run one command in a unit of work, where the
principal is checked against the epoch read with the ledger head before the command
runs (and read again there if the epoch moved). Should such a request end without the
command running (refused earlier, or answered from its Idempotency-Key), the principal is
read before the answer leaves (`check_before_answer`): a revoked token gets 401 whatever
route it took, and no write commits on a principal the database no longer grants. Every
other request reads its principal, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from market.services.identity.principals import Principal

# Endpoints whose body is `command(...)` over one unit of work and nothing else.
LEDGER_COMMANDS = frozenset(
    {
        "trading.create_transfer",
        "trading.approve_transfer",
        "trading.reject_transfer",
        "consent.confirm_transfer",
        "consent.decline_transfer",
    }
)


@dataclass(frozen=True)
class Unchecked:
    """A kept principal a request is using until its unit of work checks it."""

    digest: str
    principal: Principal


class KeptPrincipals:
    """Principals by token digest, at most `size`, least recently used dropped first.
    Thread-safe: one per app (gunicorn's threads share it)."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, Principal] = OrderedDict()

    def get(self, digest: str) -> Principal | None:
        with self._lock:
            found = self._kept.get(digest)
            if found is not None:
                self._kept.move_to_end(digest)
        if found is None or found.expired():
            return None
        return found

    def keep(self, digest: str, principal: Principal) -> None:
        if principal.auth_epoch is None:  # no epoch to check it against: never kept
            return
        with self._lock:
            self._kept[digest] = principal
            self._kept.move_to_end(digest)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def drop(self, digest: str) -> None:
        with self._lock:
            self._kept.pop(digest, None)
