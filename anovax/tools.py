"""The tool registry: every tool is declared exactly once, here, with the agent class that runs it.

The safety allowlist and screening, the parameter validation, the planner prompt's tool
section, the JSON response schema, the orchestrator's dispatch, recovery's speculation and
the offline planner's content rule are all derived from these declarations (the traits are
described in ``anovax.toolspec``). Adding a tool is one ``ToolSpec`` below plus the
``ChildAgent`` class it names.
"""

from __future__ import annotations

from anovax.agents import (AppAgent, BrowserAgent, DialogAgent, InfoAgent, MediaAgent, MetaAgent, TimingAgent,
                           TypingAgent)
from anovax.desktop.browser_watch import BROWSER_WAIT_S
from anovax.toolspec import LOCK_ORDER, Effect, Param, Sink, ToolRegistry, ToolSpec, number, text

__all__ = ["LOCK_ORDER", "TOOLS", "Effect", "Param", "Sink", "ToolRegistry", "ToolSpec", "number", "text"]

# The tools. TTLs leave room for a slow app start (open_app) and long dictation
# (type_text at ~500 chars/s); typing is never retried because it is not idempotent.
#: a search waits up to BROWSER_WAIT_S for the browser's window, so it lives a little longer
BROWSER_TTL_S = BROWSER_WAIT_S + 5.0
TOOLS = ToolRegistry(
    (
        ToolSpec(
            name="open_app",
            description="Open a desktop application by its everyday name (notepad, calculator, browser...).",
            params=(text("name", "the application's name, no path or arguments", 64, Sink.APP),),
            effect=Effect.DESKTOP,
            ttl_s=15.0,
            retries=1,
            locks=("kb_mouse",),
            agent=AppAgent,
            example='open_app {"name": "notepad"}',
        ),
        ToolSpec(
            name="type_text",
            description="Type text into the window that has focus (the app opened last).",
            params=(text("text", "the exact text to type", 2000, Sink.TYPED),),
            carries_content=True,
            effect=Effect.DESKTOP,
            ttl_s=30.0,
            locks=("kb_mouse",),
            agent=TypingAgent,
            example='type_text {"text": "milk, eggs, bread"}',
        ),
        ToolSpec(
            name="press_keys",
            description="Press a key or a hotkey such as enter, ctrl+s or alt+tab.",
            params=(text("keys", "keys joined with +, e.g. ctrl+s", 64, Sink.KEYS),),
            effect=Effect.DESKTOP,
            ttl_s=5.0,
            locks=("kb_mouse",),
            agent=TypingAgent,
            example='press_keys {"keys": "ctrl+s"}',
        ),
        ToolSpec(
            name="web_search",
            description="Search the web in the default browser.",
            params=(text("query", "what to search for", 300, Sink.QUERY),),
            effect=Effect.BROWSER,
            carries_content=True,
            parallel_safe=True,
            ttl_s=BROWSER_TTL_S,
            retries=1,
            agent=BrowserAgent,
            example='web_search {"query": "weather in Berlin"}',
        ),
        ToolSpec(
            name="youtube_search",
            description="Search YouTube for a video or music in the default browser.",
            params=(text("query", "what to look for on YouTube", 300, Sink.QUERY),),
            effect=Effect.BROWSER,
            carries_content=True,
            parallel_safe=True,
            ttl_s=BROWSER_TTL_S,
            retries=1,
            agent=MediaAgent,
            example='youtube_search {"query": "lofi hip hop"}',
        ),
        ToolSpec(
            name="screenshot",
            description="Save a screenshot of the whole screen.",
            core=False,
            read_only=True,
            fresh_s=2.0,
            effect=Effect.PASSIVE,
            parallel_safe=True,
            ttl_s=5.0,
            retries=1,
            agent=InfoAgent,
            example="screenshot {}",
        ),
        ToolSpec(
            name="get_time",
            description="Tell the current local time.",
            core=False,
            read_only=True,
            fresh_s=1.5,
            effect=Effect.PASSIVE,
            carries_content=True,
            parallel_safe=True,
            ttl_s=2.0,
            agent=InfoAgent,
            example="get_time {}",
        ),
        ToolSpec(
            name="get_date",
            description="Tell today's date.",
            core=False,
            read_only=True,
            fresh_s=60.0,
            effect=Effect.PASSIVE,
            carries_content=True,
            parallel_safe=True,
            ttl_s=2.0,
            agent=InfoAgent,
            example="get_date {}",
        ),
        ToolSpec(
            name="wait",
            description="Pause before the next step.",
            params=(number("seconds", "how long to wait, 0 to 5 seconds", 0.0, 5.0),),
            effect=Effect.PASSIVE,
            core=False,
            ttl_s=7.0,
            agent=TimingAgent,
            example='wait {"seconds": 1}',
        ),
        ToolSpec(
            name="speak",
            description="Say something to the user out loud.",
            params=(text("text", "what to say", 500, Sink.SPOKEN),),
            effect=Effect.PASSIVE,
            ttl_s=30.0,
            locks=("tts",),
            agent=DialogAgent,
            example='speak {"text": "Here you go."}',
        ),
        ToolSpec(
            name="plan_subtask",
            description="Plan and run a sub-goal as its own small plan (at most two levels deep).",
            params=(text("goal", "the sub-goal in plain words", 300, Sink.GOAL),),
            effect=Effect.SUBPLAN,
            ttl_s=60.0,
            agent=MetaAgent,
            example='plan_subtask {"goal": "find a vegan lasagna recipe"}',
        ),
    )
)
