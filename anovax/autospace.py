"""Dictation across commands (Dragon-style auto-spacing): "type see you" then "type tomorrow" into
the same window gives "see you tomorrow", not "see youtomorrow".

What the previous commands typed comes from the session's carried line (``KeyState.typed``, the
gate's encoding: the text on the target's line since its last Enter or newline, kept for the same
window within the 5-minute session). The caret may have been moved by hand meanwhile: nobody can
know, so the rule stays narrow: only a plan that types into that same window before opening or
switching anything, only after a word or closing punctuation, only before a word.
"""

from __future__ import annotations

import dataclasses
import re

from anovax.plan import Plan, Step
from anovax.toolspec import Sink
from anovax.tools import TOOLS, ToolRegistry

#: the previous text ends a word or a sentence or clause ("bad?", "noon\"", "(sic)")
_ENDS_WORD = re.compile(r"[^\W_][.,!?;:%)\]}\"'”’»…]*$")
#: the new text starts with a word (not punctuation that hugs the last word: ", then", ".")
_STARTS_WORD = re.compile(r"^[\"'“‘(]?[^\W_]")


def spaced(plan: Plan, previous: str, registry: ToolRegistry = TOOLS) -> Plan:
    """``plan`` with one space before its first typed text when ``previous`` (the line already
    typed into the window the keys go to) needs one; otherwise ``plan`` itself."""
    if not previous or not _ENDS_WORD.search(previous):
        return plan
    for index, step in enumerate(plan.steps):
        spec = registry.get(step.tool)
        sinks = {p.name: p.sink for p in spec.params} if spec is not None else {}
        typed = [name for name, value in step.params.items()
                 if isinstance(value, str) and sinks.get(name) is Sink.TYPED]
        if typed:
            text = step.params[typed[0]]
            if not _STARTS_WORD.match(text):
                return plan
            steps = list(plan.steps)
            steps[index] = Step(step.tool, {**step.params, typed[0]: " " + text})
            return dataclasses.replace(plan, steps=tuple(steps))
        if spec is None or any(True for _ in spec.texts(step.params)):
            return plan  # keys, an app or a window first: the line is not where the text would go
    return plan
