"""Planners turn a request into a Plan. Online that is Gemini (a later issue); offline, OfflinePlanner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from anovax.plan import Plan

if TYPE_CHECKING:
    from anovax.cancel import CancelToken

__all__ = ["OfflinePlanner", "Planner"]


@runtime_checkable
class Planner(Protocol):
    """Anything that can plan: ``plan(text, context)`` returns a Plan (it may raise PlanError or
    PlannerUnavailable; the offline planner never raises).

    ``context`` is memory and recent conversation as text; ``current_app`` is the app opened last
    in this session, so "type hello in it" knows where "it" is. Both are hints and may be empty.
    """

    name: str

    def plan(self, text: str, context: str = "", *, current_app: str | None = None,
             cancel: CancelToken | None = None) -> Plan: ...

    def plan_with_refusal(
        self, text: str, context: str = "", *, current_app: str | None = None, cancel: CancelToken | None = None
    ) -> tuple[Plan, str | None]:
        """The plan, and the sentence the planner declined the request with (None if it did not).

        ``cancel`` is the command's token: a planner that waits on a model raises ``Cancelled``
        as soon as it is set (see ``anovax.cancel.run_abandonable``) and starts no fallback.

        A declined request plans to zero steps; the assistant reports it as refused
        (exit code 3, the orb's refused state) rather than as an ordinary reply."""
        ...


def __getattr__(name: str):  # lazy, so importing the Protocol does not load the grammar's dependencies
    if name == "OfflinePlanner":
        from anovax.planner.offline import OfflinePlanner

        return OfflinePlanner
    raise AttributeError(f"module 'anovax.planner' has no attribute {name!r}")
