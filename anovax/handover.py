"""Handing the keyboard to a plan: after a person's yes, and to the window the plan was checked
against (issue 16: keys go where the user was, and stop when another window has the focus).

Both take the ``kb_mouse`` lock for the moment they move the focus, so no agent types meanwhile;
both run on the thread dispatching the plan (the command worker, or a MetaAgent's thread for a
sub-plan), before the batch whose keys they prepare.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from anovax.confirm import Confirmations, Reply, denied_message
from anovax.desktop.base import Cancelled, CancelToken, KeyTarget, aim, keyboard_target, refocus
from anovax.errors import AnovaXError
from anovax.locks import LockTable
from anovax.plan import Plan, Step
from anovax.safety import Verdict
from anovax.target import WindowIdentity
from anovax.toolspec import Effect, Sink
from anovax.tools import ToolRegistry


@dataclass(frozen=True)
class Denied:
    """Why the held steps do not run: a denial (no, no answer, nobody to ask), or a failure
    to bring the target window back after a yes (``failed``)."""

    error: str
    failed: bool = False


class Handover:
    """The orchestrator's part that moves the focus before keys are sent."""

    def __init__(self, desktop: object, locks: LockTable, confirmations: Confirmations, registry: ToolRegistry) -> None:
        self.desktop = desktop
        self.locks = locks
        self.confirmations = confirmations
        self.registry = registry

    def confirm(self, plan: Plan, verdict: Verdict, start: int, command_id: str, cancel: CancelToken | None,
                checked: WindowIdentity | None = None, *, ran_before: bool = False) -> Denied | None:
        """Ask about the steps from ``start`` on; None when the person said yes and the target
        window has the focus again, else why they do not run (``ran_before``: steps of this
        command ran before this plan, so a denial is not "nothing done")."""
        # denied up front (nobody to ask): the window that has the focus now is not the target.
        # Keys before any app of the plan's own go to the window the plan was checked against
        # (``checked``): that one is named and brought back, not whatever the desktop last guarded
        target = None
        if start >= (verdict.step or 0) and any(self.may_send_keys(step) for step in plan.steps[start:]):
            opened = any(self.opens_app(step) for step in plan.steps[:start])
            if checked is not None and checked.window is not None and not opened:
                target = KeyTarget(checked.window, checked.name)
            else:
                target = keyboard_target(self.desktop)
        steps = [{"index": i, "tool": step.tool, "params": dict(step.params)}
                 for i, step in enumerate(plan.steps) if i >= start]
        question = self.confirmations.new_question(command_id, verdict.question, steps,
                                                   target.title if target is not None else verdict.target)
        reply: Reply = self.confirmations.ask(question, cancel)
        if cancel is not None and cancel.cancelled:
            raise Cancelled("Stopped while waiting for a yes.")
        if not reply.yes:
            if "type" in verdict.action:
                target_action = (verdict.target, "type into")
            elif verdict.action:  # the action says what a yes allowed ("forget your home address")
                target_action = ("", verdict.action)
            else:
                target_action = (verdict.target, "do that in")
            return Denied(denied_message(reply, *target_action, ran_before=start > 0 or ran_before))
        if target is None:
            return None
        failed = self._holding_keyboard(f"{command_id}.confirm", cancel,
                                        lambda token: refocus(self.desktop, target, token))
        return Denied(failed, failed=True) if failed is not None else None

    def keyboard(self, step: Step) -> bool:
        spec = self.registry.get(step.tool)
        return spec is not None and any(p.sink in (Sink.TYPED, Sink.KEYS) for p in spec.params)

    def may_send_keys(self, step: Step) -> bool:
        """False for steps that only read, talk or change AnovaX's memory: a yes to those needs
        no window brought back (and the question names no window)."""
        spec = self.registry.get(step.tool)
        return spec is None or spec.effect not in (Effect.PASSIVE, Effect.MEMORY)

    def opens_subplan(self, step: Step) -> bool:
        spec = self.registry.get(step.tool)
        return spec is not None and spec.effect is Effect.SUBPLAN

    def opens_app(self, step: Step) -> bool:
        spec = self.registry.get(step.tool)
        return spec is not None and any(p.sink is Sink.APP for p in spec.params)

    def aim(self, target: WindowIdentity, command_id: str, cancel: CancelToken | None) -> str | None:
        """Point the keyboard at ``target`` before the plan's first key; why not, or None."""
        return self._holding_keyboard(f"{command_id}.aim", cancel, lambda token: aim(self.desktop, target, token))

    def _holding_keyboard(self, owner: str, cancel: CancelToken | None,
                          move: Callable[[CancelToken], None]) -> str | None:
        """``move`` the focus under the ``kb_mouse`` lock (no agent types meanwhile); why it could
        not, or None. A stop is raised, never returned."""
        token = CancelToken(cancel)
        try:
            self.locks.acquire(("kb_mouse",), owner, token)
            move(token)
        except AnovaXError as exc:
            if isinstance(exc, Cancelled):
                raise
            return exc.message
        finally:
            self.locks.release_all(owner)
        return None
