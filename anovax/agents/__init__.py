"""The typed child agents and the dispatch map, derived from the tool registry.

Adding a tool is one ``ToolSpec`` (anovax.tools) plus a ``ChildAgent`` subclass
whose name the spec gives; ``agent_classes`` checks at start-up that every
declared tool has a class that says it runs it.
"""

from __future__ import annotations

from anovax.agents.actions import AppAgent, BrowserAgent, MediaAgent, TypingAgent
from anovax.agents.base import AgentContext, AgentResult, AgentState, ChildAgent
from anovax.agents.info import DialogAgent, InfoAgent, MetaAgent, TimingAgent
from anovax.tools import ToolRegistry

__all__ = ["AgentContext", "AgentResult", "AgentState", "AppAgent", "BrowserAgent", "ChildAgent", "DialogAgent",
           "InfoAgent", "MediaAgent", "MetaAgent", "TimingAgent", "TypingAgent", "agent_classes"]


def _all_subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_all_subclasses(sub))
    return out


def agent_classes(registry: ToolRegistry) -> dict[str, type[ChildAgent]]:
    """tool name → ChildAgent class, from each spec's ``agent`` name; raises if one is missing."""
    by_name = {cls.__name__: cls for cls in _all_subclasses(ChildAgent)}
    out: dict[str, type[ChildAgent]] = {}
    for spec in registry:
        cls = by_name.get(spec.agent)
        if cls is None:
            raise LookupError(f"tool {spec.name} names agent class {spec.agent}, which does not exist")
        if spec.name not in cls.tools:
            raise LookupError(f"agent class {spec.agent} does not say it runs {spec.name}")
        out[spec.name] = cls
    return out
