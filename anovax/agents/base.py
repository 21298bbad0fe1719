"""ChildAgent: one step of a plan, run by the orchestrator on a pool thread.

Each agent carries its own cancel token and deadline. Its state moves once from
``spawned``/``running`` to a final state (done, failed, expired); the janitor and
the agent's own thread race for that move, and the first one wins, so an agent
that finishes just as it expires is reported exactly once.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from anovax.desktop.base import CancelToken, Desktop
from anovax.plan import Step
from anovax.search_urls import SearchUrls

if TYPE_CHECKING:  # a ToolSpec names its agent class, so the runtime import goes that way only
    from anovax.toolspec import ToolSpec


class AgentState(enum.StrEnum):
    SPAWNED = "spawned"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    EXPIRED = "expired"


FINAL_STATES = frozenset({AgentState.DONE, AgentState.FAILED, AgentState.EXPIRED})


@dataclass(frozen=True)
class AgentResult:
    """What an agent achieved."""

    #: a short account for logs and the UI ("Opened notepad", "14:05")
    value: str
    #: a sentence to add to the spoken reply (the time, where a screenshot went)
    say: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)


class Facts(Protocol):
    """The remembered facts as the memory tools use them (``anovax.memory.FactStore``)."""

    def snapshot(self) -> dict[str, str]: ...
    def forget(self, key: str) -> bool: ...
    def forget_all(self) -> int: ...


@dataclass
class AgentContext:
    """What an agent may use: the desktop port and a few callbacks into the orchestrator."""

    desktop: Desktop
    command_id: str
    depth: int
    #: say something aloud under the tts lock, with SPEAK_* events
    speak: Callable[[str, CancelToken], None]
    #: plan, check and run a sub-goal one level deeper (MetaAgent)
    run_subtask: Callable[[str, CancelToken], Any]
    #: remember the app the user is working in (session state), if memory is wired
    set_current_app: Callable[[str], None] = lambda name: None
    #: the remembered facts the memory tools read and forget; None where memory is not wired
    facts: Facts | None = None
    #: the user's search and video addresses (settings): the only place a query is sent
    search_urls: SearchUrls = field(default_factory=SearchUrls)
    #: the app's timer service (``anovax.timers.TimerService``); None where there is none
    timers: Any = None


class ChildAgent:
    """Base of the typed agents; a subclass implements ``do_work`` for the tools whose
    ``ToolSpec.agent`` it is (``anovax.tools``)."""

    def __init__(self, *, agent_id: str, index: int, step: Step, spec: ToolSpec, ctx: AgentContext,
                 deadline: float, parent_cancel: CancelToken | None = None) -> None:
        self.agent_id = agent_id
        self.index = index
        self.step = step
        self.spec = spec
        self.ctx = ctx
        #: orchestrator clock time after which the janitor expires this agent
        self.deadline = deadline
        #: expired by the janitor on its own; stopped with its command (``parent_cancel``)
        self.cancel = CancelToken(parent_cancel)
        self.attempts = 0
        self.result: AgentResult | None = None
        self.error: str | None = None
        #: the failure's machine code (``AnovaXError.code``), or ""
        self.error_code = ""
        #: set when the orchestrator may stop waiting (final state reached)
        self.settled = threading.Event()
        #: set when the agent's thread has really returned (locks are free)
        self.returned = threading.Event()
        self.expired_at: float | None = None
        self._state = AgentState.SPAWNED
        self._state_lock = threading.Lock()

    @property
    def state(self) -> AgentState:
        return self._state

    def start(self) -> bool:
        """spawned → running; False if the agent already expired while it waited."""
        with self._state_lock:
            if self._state is not AgentState.SPAWNED:
                return False
            self._state = AgentState.RUNNING
            return True

    def settle(self, state: AgentState, *, result: AgentResult | None = None, error: str | None = None) -> bool:
        """Move to a final state once; False if another thread settled it first."""
        with self._state_lock:
            if self._state in FINAL_STATES:
                return False
            self._state = state
            self.result, self.error = result, error
        self.settled.set()
        return True

    def describe(self) -> str:
        params = ", ".join(f"{k}={str(v)[:24]!r}" for k, v in self.step.params.items())
        return f"{self.step.tool}({params})"

    def do_work(self) -> AgentResult:  # pragma: no cover - abstract
        raise NotImplementedError
