"""Group commit: the units of work that wait for the ledger head share one transaction.

A request's thread queues its unit of work and waits. The first thread to find no batch
running leads: it takes the head lock once (a `WriteBatch`), runs every unit queued by the
time it holds the lock (those that arrived while it waited for another process's batch
included), up to `max_batch`, each in its own savepoint and in its own request's context,
commits once, and only then wakes the others with their answers. Units that arrive while a
batch runs (its fsync, mostly) form the next one, so batches grow with the load and an idle
service waits for nothing: `max_wait_s` (default 0) lets a leader wait for more to arrive,
before it asks for the lock, never longer.

A unit that refuses or raises rolls back to its savepoint and gets its own error; the rest
commit. The batch's first unit needs no savepoint: if it fails or ends without committing,
the whole transaction rolls back (there is nothing else in it yet) and the batch takes the
head again for the units after it. If the commit itself fails, every unit of the batch
gets that error and none of them was acknowledged. Durability is the database's: the
batch's COMMIT returns after its fsync (SQLite synchronous=FULL, PostgreSQL
synchronous_commit=on), and no answer is given before it returns. Across processes,
batches queue on the head lock as single units did.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Engine

from market.services.kernel.uow import UnitOfWork
from market.services.kernel.write_batch import WriteBatch

T = TypeVar("T")


@dataclass(eq=False)
class _Pending:
    work: Callable[[UnitOfWork], Any]
    context: contextvars.Context = field(default_factory=contextvars.copy_context)
    done: bool = False
    result: Any = None
    error: BaseException | None = None

    def answer(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.result


class GroupCommitter:
    """One per engine per process (the app makes it; `WRITE_BATCH_MAX`,
    `WRITE_BATCH_WAIT_MS`). `on_batch(units, statements)` is told how many units of work
    each committed batch carried and how many statements it sent."""

    def __init__(
        self,
        engine: Engine,
        *,
        max_batch: int = 32,
        max_wait_s: float = 0.0,
        on_batch: Callable[[int, int], None] | None = None,
    ) -> None:
        if max_batch < 1 or max_wait_s < 0:
            raise ValueError("max_batch must be at least 1 and max_wait_s not negative")
        self.engine = engine
        self.max_batch = max_batch
        self.max_wait_s = max_wait_s
        self.on_batch = on_batch
        self._cond = threading.Condition()
        self._queue: deque[_Pending] = deque()
        self._leading = False
        self._local = threading.local()

    def waiting(self) -> int:
        """Units of work queued for the next batch (not counting the one running)."""
        with self._cond:
            return len(self._queue)

    def submit(self, work: Callable[[UnitOfWork], T]) -> T:
        """Run `work` in a unit of work of some batch; return (or raise) once it is durable
        (or refused). `work` commits its unit of work as it would alone."""
        if getattr(self._local, "leading", False):
            raise RuntimeError("a unit of work cannot wait for the batch that is running it")
        item = _Pending(work)
        with self._cond:
            self._queue.append(item)
            self._cond.notify_all()
            while not item.done and (self._leading or self._queue[0] is not item):
                self._cond.wait()
            if item.done:
                return item.answer()  # type: ignore[no-any-return]
            self._leading = True
        try:
            self._lead()
        finally:
            with self._cond:
                self._leading = False
                self._cond.notify_all()
        return item.answer()  # type: ignore[no-any-return]

    def _take(self) -> list[_Pending]:
        with self._cond:
            taken = self._gather([])
            deadline = time.monotonic() + self.max_wait_s
            while len(taken) < self.max_batch and (left := deadline - time.monotonic()) > 0:
                self._cond.wait(left)
                self._gather(taken)
            return taken

    def _gather(self, taken: list[_Pending]) -> list[_Pending]:
        while self._queue and len(taken) < self.max_batch:
            taken.append(self._queue.popleft())
        return taken

    def _lead(self) -> None:
        items = self._take()
        self._local.leading = True
        try:
            with WriteBatch(self.engine) as batch:
                # Units queued while the head lock was awaited (another process's batch,
                # mostly its fsync) join this batch rather than wait for the next.
                with self._cond:
                    self._gather(items)
                for n, item in enumerate(items):
                    # Until a unit is taken on there is nothing to keep: the unit runs
                    # without a savepoint (a statement fewer). If it is not taken on
                    # (it failed, or ended without committing), the batch rolls back what
                    # it wrote and takes the head again for the units after it.
                    bare = batch.units == 0
                    item.context.run(self._run_one, batch, item, not bare)
                    if bare and batch.units == 0 and n < len(items) - 1:
                        batch.restart()
                if batch.units:
                    batch.commit()
                sent = batch.statements
            if self.on_batch is not None and batch.units:
                self.on_batch(batch.units, sent)
        except BaseException as exc:
            for item in items:
                if item.error is None:
                    item.error, item.result = exc, None
            if not isinstance(exc, Exception):
                raise
        finally:
            self._local.leading = False
            with self._cond:
                for item in items:
                    item.done = True
                self._cond.notify_all()

    @staticmethod
    def _run_one(batch: WriteBatch, item: _Pending, savepoint: bool) -> None:
        try:
            with UnitOfWork(batch.engine, batch, savepoint=savepoint) as uow:
                item.result = item.work(uow)
        except Exception as exc:
            item.error = exc
