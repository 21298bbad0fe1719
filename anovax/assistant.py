"""The assistant: ``on_speech(text)`` is the one entry point for voice, the orb and the phone.

Threads: commands from every source go into one bounded FIFO queue drained by a
single worker thread ("commands"), so two commands never interleave keystrokes
or argue over the session state. ``submit`` returns a future at once (a full
queue is refused with a clear message); ``on_speech`` submits and waits.

One command: plan → safety_check → dispatch (agents on the desktop) → the reply, said by
the ``Speaker``. With no desktop (``--dry-run``) it stops after the check.

Stopping: each command gets a ``CancelToken`` when it is queued. A stop utterance is
not queued; ``stop`` runs on the caller's thread, cancels the running command's token
(every stage looks at it: planning abandons its model call, agents hold child tokens)
and drops the caller's queued commands, all under the one lock that also guards the
queue, so a command is always either waiting (dropped) or running (cancelled).
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from anovax.autospace import spaced
from anovax.cancel import TAKE_BACK_S, USER_STOP, Cancelled, CancelToken, is_stop_utterance, undoes_last
from anovax.desktop.base import Desktop
from anovax.confirm import Confirmations
from anovax.crisis import crisis_reply
from anovax.errors import AnovaXError
from anovax.events import EventBus, EventType
from anovax.memory import Memory
from anovax.orchestrator import AgentBudget, Orchestrator
from anovax.outcome import Outcome, StepResult, StepStatus
from anovax.planner import Planner
from anovax.results import CommandResult, Status, StopReport
from anovax.gatecontext import GateContext
from anovax.safety import Rule, Verdict, safety_check
from anovax.settings import Settings
from anovax.speech.speaker import Speaker
from anovax.textclean import clean_text
from anovax.tools import TOOLS
from anovax.toolspec import Effect

log = logging.getLogger(__name__)

#: longer than any sentence a person says in one breath; longer input is refused before planning
MAX_COMMAND_CHARS = 2000
#: commands waiting to run; a person who queues more than this has lost track anyway
QUEUE_SIZE = 8


@dataclass
class _Queued:
    """A command waiting in (or taken from) the queue; its token is made with it, so a stop
    that lands between queue and worker still reaches it."""

    command_id: str
    text: str
    source: str
    future: Future[CommandResult]
    cancel: CancelToken = field(default_factory=CancelToken)


#: the recovery loop: (request, failed outcome, command id, budget, cancel) → outcome
Recover = Callable[[str, Outcome, str, AgentBudget, CancelToken], Outcome]


class Assistant:
    """The command queue and one command's way through plan → safety_check → dispatch → reply.

    Everything it uses is handed in by ``anovax.app.build_assistant``, the one wiring place;
    front ends see it as an ``AssistantPort``."""

    def __init__(self, settings: Settings, *, planner: Planner, memory: Memory, bus: EventBus,
                 desktop: Desktop | None = None, orchestrator: Orchestrator | None = None,
                 speaker: Speaker | None = None, recover: Recover | None = None,
                 closers: Sequence[Callable[[], None]] = (),
                 confirmations: Confirmations | None = None, gate: GateContext | None = None,
                 timers: Any = None) -> None:
        self.settings = settings
        self.bus = bus
        #: the question a held plan waits on; front ends that can answer register here
        self.confirmations = confirmations if confirmations is not None else Confirmations(bus)
        self.planner = planner
        self.memory = memory
        #: None: a dry run (plans are checked, nothing is executed or said)
        self.desktop = desktop
        self.orchestrator = orchestrator
        #: what the gate is told about the keyboard (the desktop's target, the session's line)
        self.gate = gate if gate is not None else GateContext(desktop, memory.session)
        #: says each command's reply (reply_to_say decides what); None in a dry run
        self.speaker = speaker
        #: the timer service (``anovax.timers.TimerService``); None in a dry run
        self.timers = timers
        self._recover = recover
        #: closed after the orchestrator and before the desktop (the speculator)
        self._closers = tuple(closers)
        #: the command being worked on, for events of parts that do not know it (planner faults)
        self.current_command = ""
        self._ids = itertools.count(1)
        self._closed = False
        # The queue and the running command change together under one lock: a stop must find
        # every command either waiting (dropped) or running (cancelled), never in between.
        self._state_lock = threading.Lock()
        self._wakeup = threading.Condition(self._state_lock)
        self._pending: deque[_Queued | None] = deque()
        self._running: _Queued | None = None
        #: the command that ended last, its source and when (monotonic), for "cancel that" after it
        self._last_done: tuple[str, str, float] | None = None
        self._worker = threading.Thread(target=self._drain, name="commands", daemon=True)
        self._worker.start()

    # -- entry points ---------------------------------------------------------------------

    def submit(self, text: str, source: str = "text") -> Future[CommandResult]:
        """Queue a command from any source; the future resolves when it has run.

        A stop utterance ("stop", "cancel that", "never mind") is not queued: it is a control
        message handled at once, ahead of everything waiting (see ``stop``)."""
        text = clean_text(text)  # bad bytes, lone surrogates, NUL and controls → U+FFFD; a non-str → ""
        command_id = f"c{next(self._ids)}"
        future: Future[CommandResult] = Future()
        # callers that answer before the command ends (the phone's 202) need its id now
        future.command_id = command_id  # type: ignore[attr-defined]
        if is_stop_utterance(text):
            report = self.stop(source, take_back=command_id if undoes_last(text) else None)
            future.set_result(CommandResult(text=str(text), status=Status.DONE, message=report.message,
                                            planner=self.planner.name, command_id=command_id))
            return future
        if self._closed:
            future.set_result(CommandResult(text=str(text)[:80], status=Status.FAILED, planner=self.planner.name,
                                            command_id=command_id, message="AnovaX is shutting down."))
            return future
        item = _Queued(command_id, text, source, future)
        with self._wakeup:
            full = len(self._pending) >= QUEUE_SIZE
            if not full:
                self._pending.append(item)
                self._wakeup.notify()
        if full:
            message = "I'm still busy with earlier commands; please try again in a moment."
            self.bus.emit(EventType.COMMAND_REJECTED, command_id, error=message, data={"source": source})
            future.set_result(CommandResult(text=str(text)[:80], status=Status.REFUSED, message=message,
                                            planner=self.planner.name, command_id=command_id))
        return future

    def on_speech(self, text: str, source: str = "text") -> CommandResult:
        """The single entry point: run one command (queued behind earlier ones) and return its result."""
        return self.submit(text, source).result()

    def stop(self, source: str = "text", *, waiting: Sequence[str] = (), take_back: str | None = None) -> StopReport:
        """The user's stop, from any front end: cancel the running command at whatever stage it
        is (planning, checking, acting, recovering), drop the commands ``source`` still has
        queued, and cut off speech. Returns at once; the running command then ends with
        status ``stopped``.

        ``waiting``: commands the front end itself held back (the console's lines typed ahead);
        they are dropped with the rest, counted and logged like queued ones.

        ``take_back``: the id of a "cancel that" command; with nothing running or waiting, it
        takes back what ``source``'s command just finished did (``_take_back_last``)."""
        with self._state_lock:
            running = self._running
            again = running is not None and running.cancel.cancelled
            if running is not None:
                running.cancel.cancel(USER_STOP)
            dropped = self._drop_queued(source)
        dropped += [_Queued(f"c{next(self._ids)}", clean_text(text), source, Future()) for text in waiting]
        speaking = self.stop_speaking()
        taken = self._take_back_last(source, take_back) if take_back and running is None and not dropped else ""
        report = StopReport(running=running.command_id if running is not None else None,
                            dropped=len(dropped), speech=speaking, again=again, taken_back=taken)
        if taken and self.speaker is not None:  # a stop's reply is not said; this one must be heard
            threading.Thread(target=self.speaker.say, args=(taken, take_back), name="take-back-reply",
                             daemon=True).start()
        self.bus.emit(EventType.COMMAND_STOPPED, running.command_id if running is not None else "",
                      data={"source": source, "dropped": len(dropped), "message": report.message})
        for item in dropped:
            result = CommandResult(text=item.text[:80], status=Status.STOPPED, planner=self.planner.name,
                                   command_id=item.command_id, message="Dropped: you said stop before it ran.")
            self.bus.emit(EventType.COMMAND_DONE, item.command_id, data=result.to_dict())
            item.future.set_result(result)
        return report

    def _take_back_last(self, source: str, command_id: str) -> str:
        """Undo what ``source``'s command that just ended did, where that can be undone: the
        timers and reminders it set ("cancel that" right after "set a timer for five minutes"
        found nothing running and left the timer to go off: a first-time user's report). Another
        source's command is not ``source``'s to take back, as its queue is not (``stop``). ""
        when there is nothing to take back."""
        from anovax.timers.model import Kind

        with self._state_lock:
            last = self._last_done
        if last is None or self.timers is None or last[1] != source or time.monotonic() - last[2] > TAKE_BACK_S:
            return ""
        taken = self.timers.take_back(last[0], command_id)
        if not taken:
            return ""
        names = [f"the reminder to {t.label}" if t.kind is Kind.REMINDER else f"the {t.name}" for t in taken]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"Cancelled {listed} you just set."

    @property
    def busy(self) -> bool:
        """A command is running (the console's Ctrl-C cancels it rather than exiting)."""
        return self._running is not None

    def stop_speaking(self) -> bool:
        """Barge-in ("stop" heard while AnovaX speaks): cut the speech off; True if it was speaking.

        Nothing is planned and the running command is not cancelled: only its voice stops."""
        return self.speaker.stop_speaking() if self.speaker is not None else False

    def state(self) -> dict[str, Any]:
        """What the front ends show: planner, busy, why speech is off, agents, pool and locks."""
        stats = self.orchestrator.stats() if self.orchestrator is not None else {}
        return {"planner": self.planner.name, "busy": self.busy,
                "speech_off": self.speaker.unavailable if self.speaker is not None else None,
                "agents": stats.get("agents", []), "pool": {"max_workers": stats.get("max_workers")},
                "locks": stats.get("locks", {}),
                "timers": [t.to_dict() for t in self.timers.pending()] if self.timers is not None else []}

    def close(self) -> None:
        self._closed = True
        with self._wakeup:
            self._pending.append(None)  # after what is queued: those commands still run
            self._wakeup.notify()
        self._worker.join(5.0)
        for close in self._closers:
            close()
        if self.orchestrator is not None:
            self.orchestrator.close()
        if self.speaker is not None:
            self.speaker.close()
        if self.desktop is not None:
            self.desktop.close()
        self.bus.close()

    # -- the command worker ---------------------------------------------------------------

    def _drop_queued(self, source: str) -> list[_Queued]:
        """Take ``source``'s waiting commands out of the queue (caller holds ``_state_lock``)."""
        dropped = [item for item in self._pending if item is not None and item.source == source]
        if dropped:
            self._pending = deque(item for item in self._pending if item is None or item.source != source)
        return dropped

    def _drain(self) -> None:
        while True:
            with self._wakeup:
                while not self._pending:
                    self._wakeup.wait()
                item = self._pending.popleft()
                self._running = item
            if item is None:
                return
            self.current_command = item.command_id
            try:
                result = self._handle(item.command_id, item.text, item.cancel)
            except Cancelled:
                result = self._stopped(item.command_id, item.text)
            except Exception as exc:  # the assistant must outlive any one command
                log.exception("command failed unexpectedly")
                result = CommandResult(text=item.text, status=Status.FAILED, planner=self.planner.name,
                                       command_id=item.command_id,
                                       message=f"Something went wrong inside AnovaX: {type(exc).__name__}.")
            with self._state_lock:
                self._running = None
                self._last_done = (item.command_id, item.source, time.monotonic())
            self.bus.emit(EventType.COMMAND_DONE, item.command_id, data=result.to_dict())
            item.future.set_result(result)

    def _stopped(self, command_id: str, text: str, **fields: Any) -> CommandResult:
        return self._finish(CommandResult(text=text.strip(), status=Status.STOPPED, message="Stopped.",
                                          planner=self.planner.name, command_id=command_id, **fields))

    def _finish(self, result: CommandResult, cancel: CancelToken | None = None) -> CommandResult:
        """Remember the turn and say the reply (the speaker decides what, if anything, is said)."""
        if self.speaker is not None and cancel is not None and not cancel.cancelled:
            self.speaker.announce(result, cancel)
        self.memory.add_turn(result.text, result.message)
        return result

    def _handle(self, command_id: str, text: str, cancel: CancelToken) -> CommandResult:
        """One command, start to end. ``cancel`` is its token: a stop raises ``Cancelled`` out of
        whichever stage is running (planning abandons its model call), and ``_drain`` turns that
        into the ``stopped`` result."""
        name = self.planner.name
        text = text.strip()
        self.bus.emit(EventType.COMMAND_RECEIVED, command_id, data={"text": text[:MAX_COMMAND_CHARS]})
        base = {"text": text, "planner": name, "command_id": command_id}
        if not text:
            return CommandResult(status=Status.NOT_DONE, message="I didn't catch that.", **base)
        if len(text) > MAX_COMMAND_CHARS:
            verdict = Verdict.refuse(Rule.TOO_LONG, "That is too long for one command.")
            return CommandResult(status=Status.REFUSED, message=verdict.reason, verdict=verdict,
                                 **{**base, "text": text[:80]})

        urgent = crisis_reply(text)
        if urgent:  # someone may be in danger: no planner, model or search sees these words
            return self._finish(CommandResult(status=Status.DONE, message=urgent, **base), cancel)

        timings: dict[str, float] = {}
        started = time.perf_counter()
        cancel.check()
        try:
            # the window the keys would go to, identified by the desktop before anything runs: the
            # plan is made for it, checked against it, and its keys are aimed at it
            target = self.gate.target()
            plan, declined = self.planner.plan_with_refusal(
                text, self.memory.build_context(), cancel=cancel,
                current_app=self.gate.current_app(target, self.memory.session.current_app))
        except Cancelled:
            raise
        except AnovaXError as exc:
            return self._finish(CommandResult(status=Status.FAILED, message=exc.message, **base))
        timings["plan"] = (time.perf_counter() - started) * 1000
        # dictation across commands: a space between this text and the words typed there before
        plan = spaced(plan, self.gate.args(target)["session_typed"])
        cancel.check()
        self.bus.emit(EventType.PLAN_READY, command_id, data={"plan": plan.to_dict(), "planner": name,
                                                               "ms": round(timings["plan"], 3)})
        if declined:
            verdict = Verdict.refuse(Rule.PLANNER_DECLINED, declined)
        else:
            started = time.perf_counter()
            verdict = safety_check(plan, text, memory=self.memory.facts.snapshot(),
                                   focused_app=self.memory.session.current_app, **self.gate.args(target))
            timings["safety"] = (time.perf_counter() - started) * 1000
        cancel.check()
        if verdict.needs_yes and self.orchestrator is None:  # a dry run: nobody would be asked
            message = f"This needs a yes first, and a dry run asks nobody: {verdict.question}"
            return self._finish(CommandResult(status=Status.NEEDS_YES, message=message, plan=plan,
                                              verdict=verdict, timings_ms=timings, **base))
        if not verdict.ok and not verdict.needs_yes:
            self.bus.emit(EventType.SAFETY_REFUSED, command_id, error=verdict.reason,
                          data={"rule": verdict.rule, "step": verdict.step})
            return self._finish(CommandResult(status=Status.REFUSED, message=verdict.reason, plan=plan,
                                              verdict=verdict, timings_ms=timings, **base), cancel)
        if self.orchestrator is None:
            status = Status.NOT_DONE if plan.unable and not plan.steps else Status.PLANNED
            return self._finish(CommandResult(status=status, message=plan.final_response or "Okay.",
                                              plan=plan, verdict=verdict, timings_ms=timings, **base))

        self.bus.emit(EventType.SAFETY_PASSED, command_id, data=verdict.to_dict())
        started = time.perf_counter()
        budget = AgentBudget()  # one budget for the plan, its sub-plans and any recovery
        outcome = self.orchestrator.dispatch(plan, command_id=command_id, budget=budget, cancel=cancel,
                                             verdict=verdict, aim_at=target)
        if not outcome.ok and not outcome.denied and self._recover is not None and not cancel.cancelled:
            outcome = self._recover(text, outcome, command_id, budget, cancel)
        timings["dispatch"] = (time.perf_counter() - started) * 1000
        self.gate.record(target, plan, outcome)
        if cancel.cancelled:  # a stop that came as the last step ended still stopped the command
            return self._stopped(command_id, text, plan=plan, verdict=verdict, outcome=outcome, timings_ms=timings)
        if outcome.ok:
            message = outcome.spoken or "Done."
            status = Status.NOT_DONE if plan.unable and not plan.steps else Status.DONE
        elif outcome.denied:
            message, status = outcome.denied, Status.NEEDS_YES
        else:
            message = f"I couldn't finish that: {outcome.error_summary()}"
            skipped = sum(1 for step in outcome.steps if step.status is StepStatus.NOT_RUN)
            if skipped:  # "open spotify and notepad": the reply said nothing of Notepad
                message += (" I stopped there: the next step didn't run." if skipped == 1 else
                            f" I stopped there: the {skipped} steps after it didn't run.")
            ran = [_what_ran(step) for step in outcome.steps if step.ok and _acted(step.tool)]
            if ran:  # "switch to firefox and close notepad": the reply hid that Firefox was opened
                message += f" What did run: {'; '.join(ran)}."
            status = Status.FAILED
        return self._finish(CommandResult(status=status, message=message, plan=plan, verdict=verdict,
                                          outcome=outcome, timings_ms=timings, **base), cancel)


def _acted(tool: str) -> bool:
    """Did a step of ``tool`` change something outside AnovaX (a window, keys, a page)?"""
    spec = TOOLS.get(tool)
    return spec is None or spec.effect in (Effect.DESKTOP, Effect.BROWSER)


def _what_ran(step: StepResult) -> str:
    """A done step, for the reply of a plan that failed after it: a page by what it was, never
    its address read out."""
    spec = TOOLS.get(step.tool)
    if spec is not None and spec.effect is Effect.BROWSER:
        return "opened a page in the browser"
    value = step.value or step.tool
    return value[:1].lower() + value[1:]
