"""The trusted runtime state a plan is checked against, validated once.

Counters and focus come from the runtime, never from the plan; memory and observation are
*content* (untrusted) that the runtime merely carries. Anything of the wrong type fails
closed: a check that cannot trust its own inputs must not allow. That includes the desktop's
``target`` (a ``WindowIdentity`` whose class is a ``TargetClass``) and its ``classify`` port
(a callable, or None).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from anovax.safety import limits
from anovax.safety.canon import balloons
from anovax.safety.verdict import Rule, Verdict
from anovax.target import TargetClass, WindowIdentity
from anovax.tools import ToolRegistry


@dataclass(frozen=True)
class Context:
    """Everything safety_check knows besides the plan."""

    user_text: str
    depth: int
    agents_spawned: int
    #: remembered facts, as (key, value) text pairs
    memory: tuple[tuple[str, str], ...]
    #: untrusted text fed back during recovery; None outside recovery
    observation: str | None
    #: the tail of what this session typed before, prefix for split-command detection
    session_tail: str
    #: what is on the target's line now (after its last submit; ``anovax.safety.focus`` encoding),
    #: capped; non-empty exactly when the session's line is
    session_line: str
    #: plan-only checks: the focused window by name; a name nobody vouches for is UNKNOWN
    focused_app: str | None
    registry: ToolRegistry
    #: the window keys go to before the plan runs, as the desktop identified it; wins over focused_app
    target: WindowIdentity | None = None
    #: the desktop's class for an app name an open_app step uses; None: the gate's static table
    classify: Callable[[str], TargetClass | None] | None = None
    #: what recent plans sent out (queries, speech, goals, new facts), oldest first; a stored
    #: secret split across commands is looked for in these and this plan's texts together
    recent_outbound: tuple[str, ...] = ()
    #: the hosts of the user's search settings: vouched for query data like the built-in engines
    search_hosts: tuple[str, ...] = ()

    @property
    def recovering(self) -> bool:
        return self.observation is not None


def _counter(name: str, value: Any) -> int | Verdict:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return Verdict.refuse(Rule.BAD_CONTEXT, detail=f"{name} is {value!r}")
    return value


def _memory(memory: Any) -> tuple[tuple[str, str], ...] | Verdict:
    if memory is None:
        return ()
    if not isinstance(memory, Mapping):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="memory is not a mapping")
    if len(memory) > limits.MAX_MEMORY_FACTS:
        return Verdict.refuse(Rule.TOO_LONG, "My memory is too large to check safely.", detail="memory facts")
    facts = []
    for key, value in memory.items():
        if not isinstance(key, str) or not isinstance(value, str):
            return Verdict.refuse(Rule.BAD_CONTEXT, detail="memory fact is not text")
        if (len(key) > limits.MAX_MEMORY_KEY or len(value) > limits.MAX_MEMORY_VALUE
                or balloons(key, limits.MAX_EXPANSION) or balloons(value, limits.MAX_EXPANSION)):
            return Verdict.refuse(Rule.TOO_LONG, "A stored memory is too long to check safely.", detail="memory fact")
        facts.append((key, value))
    return tuple(facts)


def _target(target: Any) -> WindowIdentity | None | Verdict:
    """The desktop's identity of the target window, checked field by field (a frozen dataclass
    checks nothing itself)."""
    if target is None:
        return None
    if (not isinstance(target, WindowIdentity) or not isinstance(target.klass, TargetClass)
            or not isinstance(target.app, str) or not isinstance(target.title, str)):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="target is not a WindowIdentity")
    if len(target.app) > limits.MAX_FOCUSED_APP:
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="target app name is too long")
    return target


def _recent(texts: Any) -> tuple[str, ...] | Verdict:
    if texts is None:
        return ()
    if isinstance(texts, (str, bytes)) or not isinstance(texts, (list, tuple)):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="recent_outbound is not a sequence of texts")
    if not all(isinstance(t, str) for t in texts):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="recent_outbound holds a non-text")
    # the newest texts, each cut to its start: what a split secret's other piece would be
    return tuple(t[: limits.MAX_RECENT_TEXT] for t in texts[-limits.MAX_RECENT_OUTBOUND :])


def build(
    *,
    user_text: Any,
    depth: Any,
    agents_spawned: Any,
    memory: Any,
    observation: Any,
    session_typed: Any,
    focused_app: Any,
    registry: Any,
    target: Any = None,
    classify: Any = None,
    recent_outbound: Any = None,
    search_hosts: Any = (),
) -> Context | Verdict:
    """Validate the runtime arguments into a Context, or refuse."""
    if user_text is None:
        user_text = ""
    if not isinstance(user_text, str):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="user_text is not text")
    if len(user_text) > limits.MAX_USER_TEXT:
        return Verdict.refuse(Rule.TOO_LONG, "That request is too long for me to check safely.", detail="user_text")
    checked_depth = _counter("depth", depth)
    if isinstance(checked_depth, Verdict):
        return checked_depth
    agents = _counter("agents_spawned", agents_spawned)
    if isinstance(agents, Verdict):
        return agents
    facts = _memory(memory)
    if isinstance(facts, Verdict):
        return facts
    if observation is not None:
        if not isinstance(observation, str):
            return Verdict.refuse(Rule.BAD_CONTEXT, detail="observation is not text")
        if len(observation) > limits.MAX_OBSERVATION or balloons(observation, limits.MAX_EXPANSION):
            return Verdict.refuse(Rule.TOO_LONG, "The text on screen is too long to check safely.", detail="observation")
    if session_typed is None:
        session_typed = ""
    if not isinstance(session_typed, str):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="session_typed is not text")
    if focused_app is not None and (not isinstance(focused_app, str) or len(focused_app) > limits.MAX_FOCUSED_APP):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="focused_app is not a short text")
    if not isinstance(registry, ToolRegistry):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="registry is not a ToolRegistry")
    window = _target(target)
    if isinstance(window, Verdict):
        return window
    if classify is not None and not callable(classify):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="classify is not callable")
    recent = _recent(recent_outbound)
    if isinstance(recent, Verdict):
        return recent
    hosts = tuple(search_hosts) if isinstance(search_hosts, (tuple, list)) else None
    if hosts is None or len(hosts) > 4 or not all(isinstance(h, str) and 0 < len(h) <= 253 for h in hosts):
        return Verdict.refuse(Rule.BAD_CONTEXT, detail="search_hosts is not a short list of host names")
    # everything after the last submit ("\n"), capped: only its being non-empty decides anything
    line = session_typed[max(session_typed.rfind("\n") + 1, len(session_typed) - limits.SESSION_TAIL):]
    return Context(
        user_text=user_text,
        depth=checked_depth,
        agents_spawned=agents,
        memory=facts,
        observation=observation,
        session_tail=session_typed[-limits.SESSION_TAIL :],
        session_line=line,
        focused_app=focused_app,
        registry=registry,
        target=window,
        classify=classify,
        recent_outbound=recent,
        search_hosts=tuple(h.casefold().rstrip(".") for h in hosts),
    )
