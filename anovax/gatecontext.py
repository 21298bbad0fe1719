"""What the safety gate is told about the keyboard, for a command, its sub-plans and its recovery
turns (issue 16, points 1, 4 and 5).

The desktop is the witness: before a plan is checked, ``user_target()`` says which window the
keys would go to (the focused one, or the one the user was in before clicking the orb) and what
it is; ``classify_app()`` says what an app a plan opens resolves to. The session carries the rest
from one command to the next: the text typed into that window since its last submit (an Enter in
the next command submits it too) and, when the adapter cannot identify windows, the last target.

Owned by the assistant's command worker (one command at a time); sub-plans and recovery turns read
it from agent threads of the same command, which only read the desktop and never write here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from anovax.desktop.apps import TABLES, normalise_title
from anovax.desktop.base import classify_app, user_target
from anovax.desktop.windowing import program_key, wanted_programs
from anovax.memory import KeyState, SessionState
from anovax.outcome import Outcome
from anovax.plan import Plan, Step
from anovax.safety import keys as keynames
from anovax.safety import stored
from anovax.safety.focus import Focus
from anovax.target import TargetClass, WindowIdentity
from anovax.toolspec import Sink, WindowAct
from anovax.tools import TOOLS, ToolRegistry

#: at most this much of a line is carried to the next command (the gate's own tail is shorter)
_MAX_CARRIED = 2000


def typed_after(steps: Iterable[Step], typed: str = "", registry: ToolRegistry = TOOLS) -> str:
    """The text on the target's line after ``steps`` ran, starting from ``typed``, in the gate's own
    line encoding (``anovax.safety.focus.Focus``: a newline or Enter submits, other keys are kept
    as ``<key>`` because they may edit what an Enter submits); an app opened or a window switch
    starts from nothing (another window, whose line the desktop will report)."""
    line = Focus(klass=None, line=typed)
    for step in steps:
        spec = registry.get(step.tool)
        for sink, value in (spec.texts(step.params) if spec is not None else ()):
            if sink in (Sink.APP, Sink.WINDOW):
                line.line = ""
            elif sink is Sink.TYPED:
                line.note_text(value)
            elif sink is Sink.KEYS:
                _note_keys(line, value)
    return line.line[-_MAX_CARRIED:]


def _note_keys(line: Focus, keys: str) -> None:
    try:
        chords = keynames.parse(keys)
    except Exception:  # an unparsable key string never ran (the gate refuses it): nothing changes
        return
    for chord in chords:
        if chord in keynames.WINDOW_SWITCH or chord in keynames.FOCUS_MOVERS:
            line.line = ""  # the keys now go to another window
        else:
            line.note_key(chord)


class GateContext:
    """Builds safety_check's keyboard arguments from the desktop and the session."""

    def __init__(self, desktop: object | None, session: SessionState, registry: ToolRegistry = TOOLS, *,
                 search_hosts: tuple[str, ...] = ()) -> None:
        self._desktop = desktop
        self._session = session
        self._registry = registry
        #: the hosts of the user's own search settings: vouched for query data (never a plan's)
        self._search_hosts = search_hosts

    def target(self) -> WindowIdentity | None:
        """The window keys with no app opened would go to now (the desktop's word, else the
        session's: an adapter that cannot identify windows still knows what it opened)."""
        found = user_target(self._desktop) if self._desktop is not None else None
        return found if found is not None else self._session.keys.target

    def classify(self, name: str) -> TargetClass | None:
        return classify_app(self._desktop, name) if self._desktop is not None else None

    def args(self, target: WindowIdentity | None = None) -> dict[str, Any]:
        """``target``, ``classify``, ``session_typed``, ``recent_outbound`` and ``search_hosts`` for
        safety_check."""
        target = target if target is not None else self.target()
        carried = self._session.keys
        same = target is not None and carried.target is not None and _same_window(target, carried.target)
        return {"target": target, "classify": self.classify, "session_typed": carried.typed if same else "",
                "recent_outbound": self._session.recent_outbound, "search_hosts": self._search_hosts}

    def current_app(self, target: WindowIdentity | None, session_app: str | None) -> str | None:
        """The app "it" means and replies name: the session's while the keys would still go to the
        window the last command left them in and that window is the session app's; once the user
        went to another window, or another app's window (a dialog) came to the front, that one's."""
        carried = self._session.keys.target
        if target is None or target.klass is TargetClass.ASSISTANT or not target.app:
            return session_app
        if session_app and carried is not None and _same_window(target, carried) \
                and not _other_app(target, session_app):
            return session_app
        return target.app

    def checked(self, check: Callable[..., Any]) -> Callable[..., Any]:
        """``check`` (safety_check) told where the keys go now, unless the caller says (recovery)."""
        def gated(plan: Any, user_text: str = "", **kwargs: Any) -> Any:
            return check(plan, user_text, **{**self.args(), **kwargs})
        return gated

    def record(self, before: WindowIdentity | None, plan: Plan, outcome: Outcome | None) -> None:
        """After a command: where its keys went, and what is on that window's line now."""
        done = {r.index for r in (outcome.steps if outcome is not None else ()) if r.ok}
        # what left the machine or was said: the next check sees a secret split across commands whole
        self._session.add_outbound(text for index, text in stored.outbound(plan, self._registry)
                                   if index is None or index in done)
        ran = [plan.steps[index] for index in sorted(done)]
        gone = [str(step.params.get("name", "")) for step in ran if self._registry.get(step.tool) is not None
                and self._registry[step.tool].window_act in (WindowAct.CLOSE, WindowAct.HIDE)]
        for name in gone:  # a closed or minimised app is no longer where "it" types or what replies name
            self._session.forget_app(name)
        if before is not None and any(_is_app(before, name) for name in gone):
            before = None  # nor is its window where the keys were left
        if not ran:
            return  # nothing touched the keyboard: the line is as the last command left it
        carried = self._session.keys
        start = carried.typed if before is not None and carried.target is not None and \
            _same_window(before, carried.target) else ""
        typed = typed_after(ran, start, self._registry)
        opened = tuple(value for step in ran for sink, value in self._registry[step.tool].texts(step.params)
                       if sink is Sink.APP)
        # the desktop's word alone: the carried target may be the window just closed
        after = user_target(self._desktop) if self._desktop is not None else None
        self._session.set_keys(KeyState(target=after or before, typed=typed, opened=opened))


def _is_app(target: WindowIdentity, app: str) -> bool:
    """``target``'s program (or, with none known, its app name) is one ``app`` runs as on some platform."""
    seen = {program_key(target.exe) if target.exe else "", normalise_title(target.app)} - {""}
    return bool(seen & frozenset().union(*(wanted_programs(app, platform) for platform in TABLES)))


def _other_app(target: WindowIdentity, app: str) -> bool:
    """The desktop's program for ``target`` is known and is none of the programs ``app`` runs as
    (a window the session app did not open, such as another app's dialog)."""
    return bool(target.exe) and not _is_app(target, app)


def _same_window(a: WindowIdentity, b: WindowIdentity) -> bool:
    if a.window is not None or b.window is not None:
        return a.window == b.window and a.pid == b.pid
    return a.app == b.app


GateArgs = Callable[[], dict[str, Any]]
