"""The agent pool and the agent budget: how many agents run at once, and per command.

``DaemonPool`` runs the orchestrator's agents on at most 8 named daemon threads;
``AgentBudget`` counts the agents one user command may still start, across its sub-plans and
any recovery (counted here, never by the model).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from anovax.plan import LIMITS

log = logging.getLogger(__name__)

#: agents per user command, across every sub-plan (counted here, never by the model)
AGENT_BUDGET = LIMITS.max_agents


class DaemonPool:
    """At most ``max_workers`` daemon threads running submitted calls in FIFO order.

    Not ``ThreadPoolExecutor``: its threads are joined at interpreter exit, so one
    agent stuck in a call that ignores its cancel token would keep AnovaX from
    ever exiting. A daemon thread is abandoned at exit instead.
    """

    def __init__(self, max_workers: int, name: str) -> None:
        self.max_workers = max_workers
        self._name = name
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._idle = 0
        #: jobs submitted and not yet taken by a worker
        self._queued = 0
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        with self._lock:
            self._jobs.put(lambda: fn(*args))
            self._queued += 1
            # a new thread unless an idle one is free for every job not yet taken. Counted under
            # the lock: a worker between get() and its bookkeeping must not look idle (then a
            # "parallel" batch ran one agent at a time, 80 pairs in 3,000)
            if self._idle < self._queued and len(self._threads) < self.max_workers:
                thread = threading.Thread(target=self._work, name=f"{self._name}-{len(self._threads) + 1}",
                                          daemon=True)
                self._threads.append(thread)
                thread.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                self._idle += 1
            job = self._jobs.get()
            with self._lock:
                self._idle -= 1
                if job is not None:
                    self._queued -= 1
            if job is None:
                return
            try:
                job()
            except Exception:  # a job is expected to handle its own errors; never lose the worker
                log.exception("pool job failed")

    def shutdown(self) -> None:
        with self._lock:
            threads = list(self._threads)
        for _ in threads:
            self._jobs.put(None)


class AgentBudget:
    """How many agents one user command may still start, shared by all its sub-plans."""

    def __init__(self, limit: int = AGENT_BUDGET) -> None:
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.used >= self.limit:
                return False
            self.used += 1
            return True
