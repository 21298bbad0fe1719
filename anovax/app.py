"""The one wiring place: ``build_assistant`` makes the whole assistant from settings and ports.

Ports (each optional, so tests pass fakes here rather than patching attributes afterwards):
the desktop (None: a dry run), speech out, the model client, the clock, the memory store, the
planner, the event bus and the recovery loop. ``cli`` only parses arguments and picks the
front ends; the console, the orb, the phone and voice then talk to the result through
``AssistantPort``.

Re-exports the assistant's types, so ``from anovax.app import Assistant, CommandResult`` reads
as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from anovax.assistant import MAX_COMMAND_CHARS, QUEUE_SIZE, Assistant, Recover
from anovax.cancel import CancelToken
from anovax.confirm import Confirmations
from anovax.desktop.base import Desktop
from anovax.desktop.launcher import state_dir
from anovax.desktop.simulated import SimulatedDesktop
from anovax.errors import ConfigError, PermanentToolError
from anovax.events import EventBus, EventType
from anovax.memory import Memory
from anovax.orchestrator import Orchestrator, SubtaskRunner
from anovax.plan import Plan
from anovax.planner import OfflinePlanner, Planner
from anovax.planner.lexicon import register_user_apps
from anovax.planner.model import JsonModel
from anovax.port import AssistantPort
from anovax.recovery import AutonomousLoop, Speculator
from anovax.results import CommandResult, Status, StopReport
from anovax.gatecontext import GateContext
from anovax.safety import safety_check
from anovax.settings import Settings
from anovax.speech import Speaker, SpeechOut, make_speech_out
from anovax.speech.questions import SpokenQuestions
from anovax.timers.service import TimerService

__all__ = ["MAX_COMMAND_CHARS", "QUEUE_SIZE", "Assistant", "AssistantPort", "CommandResult", "Status",
           "StopReport", "build_assistant", "make_model", "make_planner", "state_dir"]

#: "build it the usual way" for the ports whose None already means something (no model, no recovery)
DEFAULT: Any = object()


def make_model(settings: Settings) -> JsonModel | None:
    """The language model the settings ask for, or None for the offline planner."""
    choice = settings.effective_planner
    if choice == "gemini":
        from anovax.planner.gemini import GeminiModel

        if not settings.gemini_api_key:
            raise ConfigError("ANOVAX_PLANNER=gemini needs GEMINI_API_KEY (or GOOGLE_API_KEY).")
        return GeminiModel(settings.gemini_api_key, settings.model, base_url=settings.gemini_base_url or None,
                           timeout_s=settings.planner_timeout_s)
    if choice == "ollama":
        from anovax.planner.ollama import OllamaModel

        return OllamaModel(settings.ollama_model, host=settings.ollama_host, timeout_s=settings.planner_timeout_s)
    return None


def make_planner(model: JsonModel | None, on_event: Callable[[str, str], None] | None = None,
                 timeout_s: float = 10.0) -> Planner:
    """A model-backed planner that falls back to the offline one, or the offline planner alone."""
    offline = OfflinePlanner()
    offline.warm_up()
    if model is None:
        return offline
    from anovax.planner.gemini import GeminiPlanner

    name = model.name.split(":", 1)[0]
    return GeminiPlanner(model, fallback=offline, on_event=on_event, timeout_s=timeout_s, name=name)


def build_assistant(settings: Settings, *, desktop: Desktop | None = None, speech: SpeechOut | None = None,
                    model: JsonModel | None = DEFAULT, planner: Planner | None = None,
                    memory: Memory | None = None, bus: EventBus | None = None,
                    clock: Callable[[], float] | None = None, recover: Recover | None = DEFAULT,
                    orchestrator_options: dict[str, Any] | None = None,
                    confirmations: Confirmations | None = None, witness: Desktop | None = None,
                    timers_saved: bool = True) -> Assistant:
    """The whole assistant, wired. Every port may be given (a fake in tests); what is not is
    made from ``settings``:

    - ``desktop``: None is a dry run: nothing is executed and nothing is said.
    - ``speech``: a simulated desktop's own loudspeaker, else pyttsx3, or silence with the
      reason when no sound card can be heard (probed once, here).
    - ``model``: the language model the settings ask for (None: offline planner only); it
      plans (``planner``, else a model-backed planner with the offline one behind it) and runs
      recovery (``recover``; None: no recovery).
    - ``clock``: the orchestrator's monotonic clock (agent TTLs, the janitor).
    - ``confirmations``: who is asked about a plan held for a yes (default: a broker with the
      settings' answer window, which front ends register with).
    - timers: a ``TimerService`` saved in the state folder (``timers.json``), started here and
      closed with the assistant; its alerts are said by the speaker. A dry run has none;
      ``timers_saved`` False keeps them in memory only (``--simulate``: a rehearsal leaves no
      timer behind to go off at the next start).
    - ``witness``: a dry run's real desktop, asked only which window the keys would go to (so
      ``--dry-run`` checks a plan as the real run would), never acted on; closed with the assistant.
    """
    # the user's own app names are apps to the offline planner too ("open the test editor")
    register_user_apps(name for app in settings.apps for name in app.names)
    bus = bus if bus is not None else EventBus()
    if confirmations is None:
        confirmations = Confirmations(bus, timeout_s=settings.confirm_timeout_s)
    memory = memory if memory is not None else Memory(settings.memory_path)
    if model is DEFAULT:
        model = make_model(settings) if planner is None else None
    built: list[Assistant] = []

    def planner_fault(kind: str, detail: str) -> None:
        """The online planner's faults, as events of the command being planned."""
        command_id = built[0].current_command if built else ""
        bus.emit(EventType.PLANNER_FAULT, command_id, error=detail, data={"kind": kind})

    if planner is None:
        planner = make_planner(model, planner_fault, settings.planner_timeout_s)
    speaker = orchestrator = timers = None
    # one view of the keyboard for the command, its sub-plans and its recovery turns
    gate = GateContext(desktop if desktop is not None else witness, memory.session,
                       search_hosts=settings.search_urls.hosts())
    closers: list[Callable[[], None]] = [witness.close] if witness is not None else []
    if desktop is not None:
        if speech is None:
            speech = desktop.speech if isinstance(desktop, SimulatedDesktop) else make_speech_out(state_dir(settings))
        speaker = Speaker(speech, bus)
        SpokenQuestions(speaker, bus)  # kept alive by its bus subscription
        timers = TimerService(state_dir(settings) / "timers.json" if timers_saved else None, bus,
                              announce=lambda text, command_id, cancel: speaker.say(text, command_id, cancel))
        closers.append(timers.close)
        options = dict(orchestrator_options or {})
        if clock is not None:
            options.setdefault("clock", clock)
        orchestrator = Orchestrator(desktop, bus, speaker=speaker,
                                    subtasks=SubtaskRunner(plan=_subgoal_planner(planner), check=safety_check),
                                    remember=memory.remember, facts=memory.facts,
                                    set_current_app=memory.session.set_app,
                                    current_app=lambda: memory.session.current_app, gate=gate.args,
                                    confirmations=confirmations, search_urls=settings.search_urls, timers=timers,
                                    **options)
    if recover is DEFAULT:
        recover = None
        if model is not None and orchestrator is not None:
            speculator = Speculator(desktop, bus)
            closers.append(speculator.close)
            loop = AutonomousLoop(model, orchestrator, bus, check=gate.checked(safety_check), speculator=speculator,
                                  timeout_s=settings.planner_timeout_s)
            recover = lambda text, outcome, command_id, budget, cancel: loop.run(  # noqa: E731
                text, outcome, command_id=command_id, budget=budget, cancel=cancel)
    assistant = Assistant(settings, planner=planner, memory=memory, bus=bus, desktop=desktop,
                          orchestrator=orchestrator, speaker=speaker, recover=recover, closers=closers,
                          confirmations=confirmations, gate=gate, timers=timers)
    built.append(assistant)
    if timers is not None:
        timers.start()  # after the wiring: a timer missed while AnovaX was off fires now, late
    return assistant


def _subgoal_planner(planner: Planner) -> Callable[[str, CancelToken], Plan]:
    def plan_subgoal(goal: str, cancel: CancelToken | None = None) -> Plan:
        """Plan a MetaAgent's sub-goal; a declined sub-goal fails that agent with the reason."""
        plan, declined = planner.plan_with_refusal(goal, "", cancel=cancel)
        if declined:
            raise PermanentToolError(declined)
        return plan
    return plan_subgoal
