"""The typed child agents: one class per kind of work, each named by the tools it runs.

A tool's ``ToolSpec`` (``anovax.tools``) holds the class that runs it, so the orchestrator
dispatches with ``spec.agent``; adding a tool is one declaration plus, when no existing
class fits, one ``ChildAgent`` subclass here.
"""

from __future__ import annotations

from anovax.agents.actions import AppAgent, BrowserAgent, MediaAgent, SiteAgent, TypingAgent
from anovax.agents.base import AgentContext, AgentResult, AgentState, ChildAgent, Facts
from anovax.agents.info import DialogAgent, InfoAgent, MetaAgent, TimingAgent
from anovax.agents.memory import ForgetAgent, RecallAgent
from anovax.agents.timers import TimerAgent
from anovax.agents.windows import WindowAgent

__all__ = ["AgentContext", "AgentResult", "AgentState", "AppAgent", "BrowserAgent", "ChildAgent", "DialogAgent",
           "Facts", "ForgetAgent", "InfoAgent", "MediaAgent", "MetaAgent", "RecallAgent", "SiteAgent", "TimerAgent",
           "TimingAgent", "TypingAgent", "WindowAgent"]
