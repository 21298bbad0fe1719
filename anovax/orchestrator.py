"""The orchestrator: turns a checked plan into typed child agents on a bounded pool.

Who owns what:
- ``dispatch`` runs on the caller's thread (the command worker). It splits the plan into
  batches, spawns one agent per step and waits for each batch.
- Agents run on one pool of at most 8 daemon worker threads ("agent-N", anovax.pool).
- The janitor thread ("janitor") expires agents past their TTL: it marks them expired, sets
  their cancel token and lets ``dispatch`` stop waiting. A Python thread cannot be killed, so
  the agent's locks are released when its thread actually returns; a thread stuck in a call that
  ignores its token loses its locks after ``lock_grace_s`` instead, so the keyboard is never held forever.
- Every lifecycle step is an event on the bus; subscribers never block dispatch.
- A plan held for a yes (a confirm verdict) is asked about by ``dispatch`` itself, on the
  command thread, just before the batch with the held step: no agent is running then, so no
  lock is held and no TTL runs while the person thinks. A yes re-activates the target window
  (under the ``kb_mouse`` lock) and runs exactly the steps shown; anything else runs none of them.
- It never speaks for a command: the ``speak`` tool's agents talk through the ``Speaker``
  (anovax.speech), whose ``tts`` lock is the one in this orchestrator's lock table.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from anovax.agents import AgentContext, AgentResult, AgentState, ChildAgent, Facts
from anovax.cancel import USER_STOP
from anovax.confirm import Confirmations
from anovax.desktop.base import Cancelled, CancelToken, Desktop
from anovax.errors import AnovaXError, PermanentToolError
from anovax.events import EventBus, EventType
from anovax.handover import Handover
from anovax.outcome import Outcome, StepResult, StepStatus, spoken_reply
from anovax.plan import Plan, Step
from anovax.pool import AGENT_BUDGET, AgentBudget, DaemonPool
from anovax.safety import Verdict
from anovax.search_urls import SearchUrls
from anovax.speech.speaker import SilentSpeech, Speaker
from anovax.target import WindowIdentity
from anovax.tools import TOOLS, ToolRegistry

__all__ = ["AGENT_BUDGET", "AgentBudget", "Orchestrator", "SubtaskRunner", "batches"]

log = logging.getLogger(__name__)

#: the error code of a plan_subtask step whose sub-plan was held for a yes that never came
DENIED = "denied"

MAX_WORKERS = 8
#: the paper's janitor ran every 500 ms; faster keeps expiry latency under 100 ms
JANITOR_INTERVAL_S = 0.05
#: first retry waits this long, the next twice as long
RETRY_BACKOFF_S = 0.2


def batches(steps: tuple[Step, ...], registry: ToolRegistry) -> list[list[int]]:
    """Consecutive parallel-safe steps run together; any other step runs alone, in plan order."""
    out: list[list[int]] = []
    for i, step in enumerate(steps):
        spec = registry.get(step.tool)
        parallel = spec is not None and spec.parallel_safe
        if parallel and out and out[-1] and registry[steps[out[-1][0]].tool].parallel_safe:
            out[-1].append(i)
        else:
            out.append([i])
    return out


@dataclass
class SubtaskRunner:
    """How a MetaAgent re-enters the pipeline: plan the goal, check it, dispatch it one level deeper."""

    #: (goal, the MetaAgent's cancel token) → plan; a stop abandons a model call in flight
    plan: Callable[[str, CancelToken], Plan]
    check: Callable[..., Any]  # safety_check


class Orchestrator:
    """Owns the agent pool, the named locks and the janitor."""

    def __init__(
        self,
        desktop: Desktop,
        bus: EventBus,
        *,
        registry: ToolRegistry = TOOLS,
        speaker: Speaker | None = None,
        subtasks: SubtaskRunner | None = None,
        remember: Callable[[Mapping[str, str]], Any] | None = None,
        facts: Facts | None = None,
        set_current_app: Callable[[str], None] | None = None,
        current_app: Callable[[], str | None] | None = None,
        gate: Callable[[], dict[str, Any]] | None = None,
        confirmations: Confirmations | None = None,
        timers: Any = None,
        clock: Callable[[], float] = time.monotonic,
        max_workers: int = MAX_WORKERS,
        janitor_interval_s: float | None = JANITOR_INTERVAL_S,
        lock_grace_s: float = 5.0,
        search_urls: SearchUrls = SearchUrls(),  # frozen: one shared default is safe
    ) -> None:
        self.desktop = desktop
        self.search_urls = search_urls  # the user's search and video addresses, for every agent
        self.bus = bus
        self.registry = registry
        #: says the ``speak`` tool's sentences; none given: a silent one (events, no sound)
        self.speaker = speaker if speaker is not None else Speaker(SilentSpeech(), bus)
        #: the named locks, shared with the speaker (``tts``)
        self.locks = self.speaker.locks
        self._subtasks = subtasks
        self._remember = remember
        self._facts = facts  # what the memory tools read and forget (None: they fail plainly)
        self._set_current_app = set_current_app or (lambda name: None)
        #: the app the session believes has the focus (a sub-plan is checked against it)
        self._current_app = current_app or (lambda: None)
        #: safety_check's keyboard arguments (target, classify, session_typed) as they are now
        self._gate = gate or (lambda: {})
        #: who is asked about a held plan; None: nobody, so every held plan is denied
        self.confirmations = confirmations if confirmations is not None else Confirmations(bus)
        #: hands the keyboard to a plan: after a yes, and to the window it was checked against
        self.handover = Handover(desktop, self.locks, self.confirmations, registry)
        #: the app's timer service, for the timer tools' agents (None: they fail with a reason)
        self.timers = timers
        self._clock = clock
        self._lock_grace_s = lock_grace_s
        self._pool = DaemonPool(max_workers, "agent")
        self._ids = itertools.count(1)
        self._live: dict[str, ChildAgent] = {}
        self._live_lock = threading.Lock()
        self._stop = threading.Event()
        self._janitor: threading.Thread | None = None
        if janitor_interval_s is not None:
            self._janitor = threading.Thread(target=self._janitor_loop, args=(janitor_interval_s,),
                                             name="janitor", daemon=True)
            self._janitor.start()

    # -- public -------------------------------------------------------------------------

    def dispatch(self, plan: Plan, *, command_id: str, depth: int = 0, budget: AgentBudget | None = None,
                 cached: Callable[[int, Step], StepResult | None] | None = None, cancel: CancelToken | None = None,
                 verdict: Verdict | None = None, aim_at: WindowIdentity | None = None,
                 ran_before: bool = False) -> Outcome:
        """Run a plan that already passed safety_check; returns per-step results in plan order.

        Stops at the first failed *core* step (recovery plugs in on the returned outcome); failed
        optional steps are recorded and the plan goes on. Nothing is said here: ``Outcome.spoken``
        is what the command's reply would say. ``cached`` may answer a step from the speculator's
        cache instead of spawning an agent. ``cancel`` (a MetaAgent's token) stops the plan: no new
        batch starts and the running agents are cancelled. ``verdict``: a confirm verdict holds the
        plan before its ``step`` until a person says yes; with nobody to ask it is denied before
        anything runs. ``aim_at``: the window the plan was checked against; keys sent before the
        plan opens an app of its own go there (re-activated when the orb or anything else took the
        focus) and stop as soon as another window has the focus (issue 16, points 3 and 5).
        ``ran_before``: steps of this command ran before this (sub-)plan: a denial is not "did nothing"."""
        budget = budget or AgentBudget()
        checked = aim_at  # the window the plan was checked against, for the question's target
        held = verdict.step if verdict is not None and verdict.needs_yes else None
        if held is not None and self.confirmations.can_ask and self.handover.opens_subplan(plan.steps[held]):
            # held only because the sub-task's keys may reach a terminal: its own plan is checked
            # against the window in front when it is made, and asked about with its exact steps
            held = None
        if held is not None and not self.confirmations.can_ask:
            held = 0  # nobody can answer: deny it before the first step, so nothing at all runs
        # a held plan's facts are kept only once it is confirmed: a "no" leaves nothing behind
        remember = plan.remember if held is None else {}
        if remember and self._remember is not None:
            self._remember(remember)
        results: list[StepResult | None] = [None] * len(plan.steps)
        failed: int | None = None
        for batch in batches(plan.steps, self.registry):
            if cancel is not None and cancel.cancelled:
                failed = batch[0]
                results[batch[0]] = StepResult(batch[0], plan.steps[batch[0]].tool, StepStatus.NOT_RUN,
                                               error="Stopped before this step.")
                break
            if held is not None and verdict is not None and batch[-1] >= held:
                start, held = min(held, batch[0]), None
                denied = self.handover.confirm(plan, verdict, start, command_id, cancel, checked, ran_before=ran_before)
                if denied is not None:
                    for i in range(start, len(plan.steps)):
                        results[i] = StepResult(i, plan.steps[i].tool, StepStatus.NOT_RUN, error=denied.error)
                    failed = start if denied.failed else None
                    return self._outcome(plan, results, failed, denied=denied.error if not denied.failed else "")
                if plan.remember and self._remember is not None:
                    self._remember(plan.remember)
            if aim_at is not None and any(self.handover.keyboard(plan.steps[i]) for i in batch):
                if any(self.handover.opens_app(plan.steps[i]) for i in range(batch[0])):
                    aim_at = None  # the plan's own app is the target now (its launch verified it)
                else:
                    missed = self.handover.aim(aim_at, command_id, cancel)
                    aim_at = None
                    if missed is not None:
                        for i in range(batch[0], len(plan.steps)):
                            results[i] = StepResult(i, plan.steps[i].tool, StepStatus.NOT_RUN, error=missed)
                        return self._outcome(plan, results, batch[0])
            agents = []
            for i in batch:
                hit = cached(i, plan.steps[i]) if cached is not None else None
                if hit is not None:
                    results[i] = hit
                    continue
                if not budget.take():
                    # out of agents: the plan cannot go on, whether the step is core or not
                    results[i] = StepResult(i, plan.steps[i].tool, StepStatus.NOT_RUN,
                                            error=f"This command already used its {budget.limit} agents.")
                    failed = i if failed is None else failed
                    continue
                agents.append(self._spawn(i, plan.steps[i], command_id, depth, budget, cancel))
            for agent in agents:
                self._wait(agent)
                results[agent.index] = self._result_of(agent)
            for i in batch:
                result = results[i]
                if result is not None and not result.ok and result.data.get("code") == DENIED:
                    # a sub-plan's question was answered no (or by nobody): the command was denied,
                    # it did not fail, so nothing may recover it
                    return self._outcome(plan, results, None, denied=result.error or "")
                if result is not None and not result.ok and self.registry[result.tool].core:
                    failed = i if failed is None else min(failed, i)
                    break
            if failed is not None:
                break
        return self._outcome(plan, results, failed)

    def _outcome(self, plan: Plan, results: list[StepResult | None], failed: int | None, *,
                 denied: str = "") -> Outcome:
        # what never ran (later batches, budget-refused steps) is what recovery would redo;
        # steps a person did not say yes to are not: nothing may redo them
        remaining = tuple(step for i, step in enumerate(plan.steps) if failed is not None
                          and (results[i] is None or results[i].status is StepStatus.NOT_RUN))
        final = [r if r is not None else StepResult(i, plan.steps[i].tool, StepStatus.NOT_RUN)
                 for i, r in enumerate(results)]
        spoken = ""
        if failed is None and not denied:
            spoken = spoken_reply(plan.final_response, (r.say for r in final))
        return Outcome(steps=tuple(final), failed=failed, remaining=tuple(remaining), spoken=spoken, denied=denied)

    def janitor_tick(self) -> None:
        """Expire agents past their deadline; free the locks of expired threads that never came back."""
        now = self._clock()
        with self._live_lock:
            live = list(self._live.values())
        for agent in live:
            if agent.state in (AgentState.SPAWNED, AgentState.RUNNING):
                if now >= agent.deadline:
                    self._expire(agent, now)
            elif (agent.expired_at is not None and not agent.returned.is_set()
                  and now - agent.expired_at >= self._lock_grace_s):
                freed = self.locks.release_all(agent.agent_id)
                if freed:
                    log.warning("agent %s is stuck after expiring; released %s", agent.agent_id, freed)

    def _expire(self, agent: ChildAgent, now: float) -> None:
        message = f"It took longer than {agent.spec.ttl_s:g} seconds."
        # settle before cancelling: the woken agent must find itself already expired,
        # or its own "cancelled" failure could win the race and hide the expiry
        if agent.settle(AgentState.EXPIRED, error=message):
            agent.expired_at = now
            agent.cancel.cancel("expired")
            self._emit(agent, EventType.AGENT_EXPIRED, error=message)

    def stats(self) -> dict[str, Any]:
        with self._live_lock:
            running = [{"agent_id": a.agent_id, "tool": a.step.tool, "state": a.state.value}
                       for a in self._live.values()]
        return {"agents": running, "locks": self.locks.stats(), "max_workers": self._pool.max_workers}

    def close(self) -> None:
        self._stop.set()
        if self._janitor is not None:
            self._janitor.join(1.0)
        self._pool.shutdown()

    # -- internals ----------------------------------------------------------------------

    def _spawn(self, index: int, step: Step, command_id: str, depth: int, budget: AgentBudget,
               cancel: CancelToken | None = None) -> ChildAgent:
        spec = self.registry[step.tool]
        agent_id = f"{command_id}.{next(self._ids)}"
        ctx = AgentContext(
            desktop=self.desktop, command_id=command_id, depth=depth,
            speak=lambda text, cancel: self.speaker.say(text, command_id, cancel, owner=agent_id),
            run_subtask=lambda goal, cancel: self._run_subtask(goal, command_id, depth, budget, cancel),
            set_current_app=self._set_current_app, facts=self._facts, search_urls=self.search_urls, timers=self.timers,
        )
        agent = spec.agent(agent_id=agent_id, index=index, step=step, spec=spec, ctx=ctx,
                           deadline=self._clock() + spec.ttl_s, parent_cancel=cancel)
        with self._live_lock:
            self._live[agent_id] = agent
        self._emit(agent, EventType.AGENT_SPAWNED, data={"index": index, "ttl_s": spec.ttl_s})
        self._pool.submit(self._run, agent)
        return agent

    def _run(self, agent: ChildAgent) -> None:
        """The agent's whole life on its pool thread; always releases its locks on the way out."""
        try:
            self.locks.acquire(agent.spec.locks, agent.agent_id, agent.cancel)
            if not agent.start():
                return  # expired while queued or waiting for a lock
            self._emit(agent, EventType.AGENT_STARTED)
            result = self._attempts(agent)
            verified = result.data.get("verified")
            if verified and agent.state is AgentState.RUNNING:
                self._emit(agent, EventType.AGENT_VERIFIED, data=dict(verified))
            if agent.settle(AgentState.DONE, result=result):
                self._emit(agent, EventType.AGENT_DONE, data={"value": result.value})
        except AnovaXError as exc:
            agent.error_code = exc.code
            if agent.settle(AgentState.FAILED, error=exc.message):
                # whatever an agent ends with once its command was stopped (cancelled, a launch
                # that stopped waiting, a sub-task cut short) is the person's stop, not an error
                stopped = agent.cancel.cancelled and agent.cancel.reason == USER_STOP
                self._emit(agent, EventType.AGENT_FAILED, error=exc.message,
                           data={"code": "stopped" if stopped else exc.code})
        except Exception as exc:  # a bug in an agent or adapter must not kill the pool thread silently
            log.exception("agent %s crashed", agent.agent_id)
            message = f"Something went wrong inside AnovaX ({type(exc).__name__})."
            if agent.settle(AgentState.FAILED, error=message):
                self._emit(agent, EventType.AGENT_FAILED, error=message)
        finally:
            self.locks.release_all(agent.agent_id)
            agent.returned.set()
            with self._live_lock:
                self._live.pop(agent.agent_id, None)

    def _attempts(self, agent: ChildAgent) -> AgentResult:
        """Run do_work, retrying transient failures up to the tool's retry budget."""
        while True:
            agent.attempts += 1
            try:
                return agent.do_work()
            except AnovaXError as exc:
                if not exc.is_transient or agent.attempts > agent.spec.retries or agent.cancel.cancelled:
                    raise
                self._emit(agent, EventType.AGENT_RETRY, error=exc.message, data={"attempt": agent.attempts + 1})
                if agent.cancel.wait(RETRY_BACKOFF_S * 2 ** (agent.attempts - 1)):
                    raise Cancelled("Stopped before retrying.") from exc

    def _wait(self, agent: ChildAgent) -> None:
        # The janitor settles every agent by its deadline; the real-time backstop only
        # matters if the janitor thread itself died (it should never fire). A cancelled
        # parent needs nothing here: the agent's token is a child of it.
        while not agent.settled.wait(0.05):
            if self._janitor is not None and not self._janitor.is_alive():
                self.janitor_tick()

    def _result_of(self, agent: ChildAgent) -> StepResult:
        status = {AgentState.DONE: StepStatus.DONE, AgentState.EXPIRED: StepStatus.EXPIRED}.get(
            agent.state, StepStatus.FAILED)
        result = agent.result
        data = dict(result.data) if result else {}
        if agent.error_code:
            data["code"] = agent.error_code
        return StepResult(
            index=agent.index, tool=agent.step.tool, status=status,
            value=result.value if result else "", say=result.say if result else "",
            error=agent.error, attempts=agent.attempts, agent_id=agent.agent_id,
            data=data,
        )

    def _run_subtask(self, goal: str, command_id: str, depth: int, budget: AgentBudget,
                     cancel: CancelToken) -> Outcome:
        if self._subtasks is None:
            raise PermanentToolError("Sub-tasks are not available here.")
        plan = self._subtasks.plan(goal, cancel)
        cancel.check()
        # the parent's steps so far may have left a terminal in front: the sub-plan is checked
        # against the window that has the keys now, and the line typed into it, never a blank slate
        # (an adapter that cannot identify windows leaves only the name of the app last opened)
        gate = {**self._gate(), "focused_app": self._current_app()}
        verdict = self._subtasks.check(plan, goal, depth=depth + 1, agents_spawned=budget.used, **gate)
        if not verdict.ok and not verdict.needs_yes:
            self.bus.emit(EventType.SAFETY_REFUSED, command_id, error=verdict.reason,
                          data={"rule": verdict.rule, "depth": depth + 1, "goal": goal})
            raise PermanentToolError(verdict.reason)
        self.bus.emit(EventType.PLAN_READY, command_id, data={"plan": plan.to_dict(), "depth": depth + 1})
        # a held sub-plan is asked about like any plan: the person sees exactly its steps, and a
        # yes to the parent never covers it (a sub-task can never do what its parent could not)
        outcome = self.dispatch(plan, command_id=command_id, depth=depth + 1, budget=budget, cancel=cancel,
                                verdict=verdict if verdict.needs_yes else None, aim_at=gate.get("target"),
                                ran_before=budget.used > 1)  # an agent besides this sub-task's own
        if outcome.denied:
            raise PermanentToolError(outcome.denied, code=DENIED)
        return outcome

    def _emit(self, agent: ChildAgent, type_: EventType, *, error: str | None = None,
              data: dict[str, Any] | None = None) -> None:
        self.bus.emit(type_, agent.ctx.command_id, agent_id=agent.agent_id, tool=agent.step.tool,
                      params=dict(agent.step.params), error=error, data=data)

    def _janitor_loop(self, interval_s: float) -> None:
        while not self._stop.wait(interval_s):
            try:
                self.janitor_tick()
            except Exception:  # the janitor must outlive any one bad agent
                log.exception("janitor tick failed")
