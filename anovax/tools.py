"""The tool registry: every tool is declared exactly once, here, with the agent class that runs it.

The safety allowlist and screening, the parameter validation, the planner prompt's tool
section, the JSON response schema, the orchestrator's dispatch, recovery's speculation and
the offline planner's content rule are all derived from these declarations (the traits are
described in ``anovax.toolspec``). Adding a tool is one ``ToolSpec`` below plus the
``ChildAgent`` class it names. The memory tools are declared in ``anovax.tools_memory`` and
join the registry here (their own module only keeps this one small).
"""

from __future__ import annotations

from anovax.agents import (AppAgent, BrowserAgent, DialogAgent, InfoAgent, MediaAgent, MetaAgent, SiteAgent,
                           TimerAgent, TimingAgent, TypingAgent, WindowAgent)
from anovax.desktop.browser_watch import BROWSER_WAIT_S
from anovax.timers.when import MAX_SECONDS
from anovax.tools_memory import MEMORY_TOOLS
from anovax.toolspec import LOCK_ORDER, Effect, Param, Sink, ToolRegistry, ToolSpec, WindowAct, number, text

__all__ = ["LOCK_ORDER", "TOOLS", "Effect", "Param", "Sink", "ToolRegistry", "ToolSpec", "WindowAct", "number", "text"]

#: how a window tool's phrases name the app: a known name (no wildcard: it outranks free text)
#: or any words, which the planner's handler reads through the lexicon
_APP = "[the|my] {known_app} [app|application|program|window|windows]"
WINDOWS = "Windows"

# How people ask for timers and reminders (hassil templates, see ToolSpec.phrases). {span} ("5
# minutes") and {clock} ("3 pm") are wildcards read by handlers.py; alarms become reminders.
_SET = "(set|start|make|create|put on|give me|add|setup|set up)"
_CALLED = "(for|called|named|labelled|labeled|to)"
_TIMER_PHRASES = (
    f"{_SET} [me|up] <a> [new] (timer|countdown) (for|of|on) {{span}}",
    f"{_SET} [me|up] <a> [new] {{span}} (timer|countdown)",
    "<a> {span} timer [please]",
    "(timer|countdown) (for|of) {span}",
    f"{_SET} [me] <a> (timer|countdown) (for|of) {{span}} {_CALLED} [the|my] {{label}}",
    f"{_SET} [me] <a> {{label}} timer (for|of) {{span}}",
    f"{_SET} [me] <a> {{span}} timer {_CALLED} [the|my] {{label}}",
    "count down [from] {span}",
    "(time|clock) {span}",
    "time me [for|on] {span}",
)
_ABOUT = "(to|that|about|of)"
_REMINDER_PHRASES = (
    f"remind me (in|after) {{span}} {_ABOUT} {{text}}",
    f"remind me {_ABOUT} {{text}} (in|after) {{span}}",
    f"remind me at {{clock}} {_ABOUT} {{text}}",
    f"remind me {_ABOUT} {{text}} at {{clock}}",
    f"remind me {{clock}} {_ABOUT} {{text}}",  # "remind me tomorrow at noon to pay rent"
    f"(in|after) {{span}} remind me {_ABOUT} {{text}}",
    f"at {{clock}} remind me {_ABOUT} {{text}}",
    f"{_SET} [me] <a> reminder (in|for) {{span}} {_ABOUT} {{text}}",
    f"{_SET} [me] <a> reminder (at|for) {{clock}} {_ABOUT} {{text}}",
    f"{_SET} [me] <a> reminder {_ABOUT} {{text}} (at|for) {{clock}}",
    f"{_SET} [me] <a> reminder {_ABOUT} {{text}} in {{span}}",
    "wake me [up] (at|by) {clock}",
    "wake me [up] in {span}",
    f"{_SET} [me] <a> [wake up|wake-up|morning] alarm [clock] (for|at) {{clock}}",
    f"{_SET} [me] <a> [wake up|wake-up] alarm (in|for) {{span}}",
    "alarm (for|at) {clock}",
    f"(alert|notify|ping|tell) me (in|after) {{span}} [{_ABOUT} {{text}}]",
)
_CANCEL = "(cancel|stop|delete|remove|clear|turn off|dismiss|end|switch off|get rid of)"
_KINDS = "(timer|reminder|alarm|countdown|timers|reminders|alarms)"

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
            name="switch_to_app",
            description="Bring an app's open window to the front (it is opened only when none is open); "
                        "typing then goes there.",
            params=(text("name", "the application's everyday name", 64, Sink.APP),),
            effect=Effect.DESKTOP,
            ttl_s=15.0,
            locks=("kb_mouse",),
            window_act=WindowAct.FOCUS,
            agent=WindowAgent,
            example='switch_to_app {"name": "notepad"}',
            phrases=(f"(switch|swap|flip|jump|go back|get back|change back) [back|over] to {_APP}",
                     "(switch|swap|flip|jump|go back|get back|change back) [back|over] to {name}",
                     f"bring up {_APP}", "bring up {name}", f"bring {_APP} (back|up|forward|to the front)",
                     f"(focus|focus on|show me|take me to|return to) {_APP}"),
            offline_say="Switching to {name}.",
            ability=WINDOWS,
        ),
        ToolSpec(
            name="close_app",
            description="Close an app's window politely, as its close button does (the app may ask to save).",
            params=(text("name", "the application's everyday name", 64, Sink.WINDOW),),
            effect=Effect.DESKTOP,
            ttl_s=10.0,
            locks=("kb_mouse",),
            window_act=WindowAct.CLOSE,
            agent=WindowAgent,
            example='close_app {"name": "calculator"}',
            phrases=(f"(close|quit|exit) {_APP}", "(close|quit|exit) {name}",
                     f"(close|quit|exit) (out of|down) {_APP}"),
            # no announcement: the agent says what happened (closed, asking to save, not open), so a
            # failure is never preceded by "Asking Notepad to close."
            offline_say="",
            ability=WINDOWS,
        ),
        ToolSpec(
            name="minimize_app",
            description="Minimise an app's window.",
            params=(text("name", "the application's everyday name", 64, Sink.WINDOW),),
            effect=Effect.DESKTOP,
            ttl_s=8.0,
            locks=("kb_mouse",),
            window_act=WindowAct.HIDE,
            agent=WindowAgent,
            example='minimize_app {"name": "notepad"}',
            phrases=(f"(minimise|minimize|hide) {_APP}", "(minimise|minimize) {name}"),
            offline_say="Minimising {name}.",
            ability=WINDOWS,
        ),
        ToolSpec(
            name="maximize_app",
            description="Maximise an app's window to fill the screen.",
            params=(text("name", "the application's everyday name", 64, Sink.WINDOW),),
            effect=Effect.DESKTOP,
            ttl_s=8.0,
            locks=("kb_mouse",),
            window_act=WindowAct.SHOW,
            agent=WindowAgent,
            example='maximize_app {"name": "browser"}',
            phrases=(f"(maximise|maximize) {_APP}", "(maximise|maximize) {name}",
                     f"make {_APP} (full screen|fullscreen|bigger|big)",
                     f"(put|go|turn) {_APP} (in|into|to) [the] (full screen|fullscreen) [mode]",
                     f"(full screen|fullscreen|enlarge|expand) {_APP}"),
            offline_say="Maximising {name}.",
            ability=WINDOWS,
        ),
        ToolSpec(
            name="restore_app",
            description="Restore an app's minimised or maximised window to its normal size.",
            params=(text("name", "the application's everyday name", 64, Sink.WINDOW),),
            effect=Effect.DESKTOP,
            ttl_s=8.0,
            locks=("kb_mouse",),
            window_act=WindowAct.SHOW,
            agent=WindowAgent,
            example='restore_app {"name": "notepad"}',
            phrases=(f"(restore|unminimise|unminimize|unmaximise|unmaximize) {_APP} [back]",
                     "(restore|unminimise|unminimize|unmaximise|unmaximize) {name}",
                     f"make {_APP} (normal size|smaller|small)",
                     f"(shrink|unfullscreen|un-fullscreen) {_APP}", f"(exit|leave) full screen (in|on|of) {_APP}"),
            # no announcement: the agent says what it did ("Restored ..."), or that the window was
            # already its normal size (so "shrink the browser" never claims a change that did not happen)
            offline_say="",
            ability=WINDOWS,
        ),
        ToolSpec(
            name="list_windows",
            description="Tell which apps have windows open.",
            core=False,
            read_only=True,
            fresh_s=1.0,
            effect=Effect.PASSIVE,
            parallel_safe=True,
            ttl_s=5.0,
            agent=WindowAgent,
            example="list_windows {}",
            phrases=("(what's|what is|whats) open [right now|now|on my screen|on the screen]",
                     "(what|which) (windows|apps|applications|programs) (are|do i have) (open|running) [right now|now]",
                     "(what|which) (windows|apps|applications|programs) do i have open [right now|now]",
                     "what do i have open [right now|now]",
                     "(list|show me|show|tell me) [all] [the|my] (open|running) (windows|apps|applications|programs)",
                     "(list|show me|show|tell me) [all] [the|my] (windows|apps|applications|programs) (that are|i have) open"),
            offline_say="Checking your windows.",
            ability=WINDOWS,
        ),
        ToolSpec(
            name="type_text",
            description="Type text into the window that has focus (the app opened last), dictation words applied.",
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
            name="open_website",
            description="Open a web address the user named (example.com/docs) in the default browser.",
            params=(text("address", "the http(s) address or site, e.g. wikipedia.org", 300, Sink.ADDRESS),),
            effect=Effect.BROWSER,
            carries_content=True,
            parallel_safe=True,
            ttl_s=BROWSER_TTL_S,
            retries=1,
            agent=SiteAgent,
            example='open_website {"address": "wikipedia.org"}',
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
            name="set_timer",
            description="Start a countdown timer; when it ends AnovaX says and shows that it is done.",
            params=(number("seconds", "the timer's length in seconds (1 to a week)", 1, MAX_SECONDS),
                    text("label", "what it is for in a few words, or 'timer'", 80, Sink.SPOKEN)),
            effect=Effect.PASSIVE,
            ttl_s=5.0,
            agent=TimerAgent,
            example='set_timer {"seconds": 300, "label": "tea"}',
            phrases=_TIMER_PHRASES,
            ability="Timers",
        ),
        ToolSpec(
            name="set_reminder",
            description="Remind the user of something later (also for alarms: AnovaX says the text when it is due).",
            params=(text("when", "a delay such as 'in 10 minutes', or a clock time such as '15:30' or '3 pm'", 40,
                         Sink.SPOKEN),
                    text("text", "what to remind of, e.g. 'stretch' or 'call mum'", 80, Sink.SPOKEN)),
            effect=Effect.PASSIVE,
            ttl_s=5.0,
            agent=TimerAgent,
            example='set_reminder {"when": "in 10 minutes", "text": "stretch"}',
            phrases=_REMINDER_PHRASES,
            ability="Timers",
        ),
        ToolSpec(
            name="timers_left",
            description="Say how long is left on each running timer and reminder.",
            core=False,
            read_only=True,
            fresh_s=0.5,
            effect=Effect.PASSIVE,
            parallel_safe=True,
            ttl_s=2.0,
            agent=TimerAgent,
            example="timers_left {}",
            phrases=(
                "how (long|much time|much longer) (is|'s) left [on <a> (timer|countdown|reminder)|on my " + _KINDS + "]",
                "how much time (do i have|have i got) left [on my timer]",
                "how (long|much longer) (until|till|before) [the|my] (timer|reminder|alarm) (goes off|is done|rings|ends|finishes)",
                "(what|which) (timers|reminders|alarms) (do i have|have i got|are (running|set|on|pending))",
                "(list|show|check|read) [me] [all] (my|the) " + _KINDS,
                "what is left on (my|the) (timer|timers)",
                "(any|do i have any|are there any) (timers|reminders|alarms) [running|set]",
                "time left [on (my|the) timer]",
                "how (long|much time|much longer) (is|'s) left on [the|my] {label} (timer|countdown|reminder)",
            ),
            ability="Timers",
        ),
        ToolSpec(
            name="cancel_timer",
            description="Cancel a timer or reminder by its label ('tea', '5 minute', 'stretch'), or 'all'.",
            params=(text("label", "the label of the timer or reminder, 'timer' for the only one, or 'all'", 80,
                         Sink.SPOKEN),),
            effect=Effect.PASSIVE,
            ttl_s=5.0,
            sweeping_param="label",
            agent=TimerAgent,
            example='cancel_timer {"label": "tea"}',
            phrases=(
                f"{_CANCEL} <a> {{label}} {_KINDS}",
                f"{_CANCEL} (<a>|my) {_KINDS}",
                f"{_CANCEL} (all|all the|all my|all of my|every|each) {_KINDS}",
                f"{_CANCEL} (<a>|my) reminder (to|about) {{label}}",
            ),
            ability="Timers",
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
        *MEMORY_TOOLS,  # recall, recall_all, forget, forget_all
    )
)
