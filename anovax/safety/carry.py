"""What a plan leaves behind for the next check: the state-forward function of issue 16.

The runtime checks every plan against the window the keys will go to and what is already on
its line (``safety_check(target=..., session_typed=...)``). At run time the desktop identifies
the window itself; the simulated desktop, the session and plan-only tools carry it forward with
``after``, which walks a plan through the same focus model ``safety_check`` uses:

    state = Carried.of(desktop.user_target())
    verdict = safety_check(plan, text, **state.check_kwargs())
    ...run the plan...
    state = after(plan, state, classify=desktop_classify)

``after`` assumes every step of ``plan`` ran (pass only the steps that did: a plan held for a
yes that was denied ran the steps before the held one). A plan the gate would refuse never runs,
so for one ``after`` answers fail-closed: a window nobody named, whose line may hold anything.
Pure: no desktop, no clock, never raises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anovax.plan import Plan
from anovax.safety.check import parse_untrusted
from anovax.safety.context import build
from anovax.safety.focus import UNKNOWN_LINE, initial
from anovax.safety.sequence import walk
from anovax.safety.verdict import Verdict
from anovax.target import TargetClass, WindowIdentity
from anovax.tools import TOOLS, ToolRegistry


@dataclass(frozen=True)
class Carried:
    """The focus a plan leaves behind, as the next ``safety_check`` is given it."""

    #: the class of the window the keys go to; None: no claim (nothing known, nothing moved)
    klass: TargetClass | None
    #: how a question names the window; "" when nobody named it (shell input there is refused)
    name: str = ""
    #: typed into it since its last submit, in ``anovax.safety.focus``'s line encoding
    typed: str = ""

    @classmethod
    def of(cls, target: WindowIdentity | None, session_typed: str = "") -> Carried:
        """The state before a plan, from the desktop's identity of the target window."""
        if target is None:
            return cls(None, "", session_typed)
        return cls(target.klass, target.name if (target.app or target.title) else "", session_typed)

    def as_target(self) -> WindowIdentity | None:
        """The carried window as ``safety_check``'s ``target`` (None: no claim)."""
        if self.klass is None:
            return None
        return WindowIdentity(window=None, title=self.name, app=self.name, klass=self.klass,
                              why="carried forward by anovax.safety.carry.after")

    def check_kwargs(self) -> dict[str, Any]:
        """``safety_check(plan, text, **state.check_kwargs())``."""
        return {"target": self.as_target(), "session_typed": self.typed}


#: what a plan that cannot have run leaves: a window nobody named, with anything on its line
LOST = Carried(TargetClass.UNKNOWN, "", UNKNOWN_LINE)


def after(plan: Plan | Any, before: Carried | None = None, *,
          classify: Callable[[str], TargetClass | None] | None = None,
          registry: ToolRegistry = TOOLS) -> Carried:
    """The focus after ``plan`` ran from ``before`` (None: no claim); ``classify`` as in safety_check."""
    try:
        before = before if isinstance(before, Carried) else Carried(None)
        parsed = parse_untrusted(plan)
        ctx = build(user_text="", depth=0, agents_spawned=0, memory=None, observation=None,
                    session_typed=before.typed, focused_app=None, registry=registry,
                    target=before.as_target(), classify=classify)
        if isinstance(parsed, Verdict) or isinstance(ctx, Verdict):
            return LOST
        state = initial(ctx)
        if walk(parsed, ctx, state) is not None:
            return LOST
        typed = UNKNOWN_LINE if state.launch_buffer else state.line
        return Carried(state.klass, state.held_name if state.held and not state.moved_after_hold else state.name,
                       typed)
    except Exception:  # noqa: BLE001 - a state we cannot compute is a window nobody can vouch for
        return LOST
