"""Forgetting: a plan that drops remembered facts loses the person's data for good, so it runs
without a question only when the person's own words asked for exactly that.

Steps whose tool's ``effect`` is ``Effect.MEMORY`` are judged here (no tool names are listed):

- a step that names a fact (a ``Sink.FACT_KEY`` parameter) runs when the request says to forget
  and names that fact ("forget my favourite colour" covers ``favorite_color``);
- any other forget asks first: one without a name (everything), and one whose fact the request
  did not name. That is the injection case: a web page, a document or a poisoned fact that talks
  a model into wiping memory never has the person's words behind it;
- a sub-plan's request is a goal a model wrote, so every forget there asks;
- a recovery turn never asks (``check`` module docstring), so a forget there is refused: text
  read off the screen must not decide what is forgotten.

A plan's ``remember`` that overwrites a stored fact (the context holds them) with an empty value
(a forget) or a different one is held the same way unless the request names that fact ("my
doctor is Dr Jones now").

One question covers every held step ("Forget your home address and your wife's birthday?"), and
a held forget is refused when the plan would also store facts the question does not show.
"""

from __future__ import annotations

import re

from anovax import factnames
from anovax.plan import Plan
from anovax.safety.stored import skeleton
from anovax.safety.context import Context
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Effect, Sink

#: words that ask to forget, in the request itself
_FORGET_WORDS = re.compile(r"\b(?:forget|forgets|delete|remove|erase|clear|wipe|drop|stop remembering|"
                           r"(?:don't|do not|no longer) remember)\b", re.I)
_TARGET = "your memory"


def _said_to_forget(name: str, ctx: Context) -> bool:
    if ctx.depth > 0 or not _FORGET_WORDS.search(ctx.user_text):
        return False
    return factnames.named_in(name, ctx.user_text)


def shown(name: str) -> str:
    """A fact name as a question shows it: said aloud when that keeps every character ("wife's
    birthday"), else the raw key quoted with anything not plain ASCII escaped (Cyrillic "\\u0430ll",
    "*"), so the question shows what the plan actually named."""
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 _'’-]*", name) and factnames.words(name):
        return factnames.spoken(name)
    return '"' + ascii(name)[1:-1].replace('"', '\\"') + '"'


def _overwrites(plan: Plan, ctx: Context) -> tuple[list[str], list[str]]:
    """(facts the plan empties, facts it changes) that the request did not name."""
    stored = dict(ctx.memory)
    emptied: list[str] = []
    changed: list[str] = []
    for key, value in plan.remember.items():
        old = factnames.find(stored, key) if stored else None
        if old is None or (value.strip() and skeleton(value) == skeleton(stored[old])):
            continue
        if ctx.depth == 0 and (factnames.named_in(key, ctx.user_text) or factnames.named_in(old, ctx.user_text)):
            continue
        (changed if value.strip() else emptied).append(key)
    return emptied, changed


def _question(names: list[str], everything: bool, ctx: Context) -> tuple[str, str]:
    """(the question, what a yes allows: the denial says "I didn't <that>")."""
    if everything:
        count = len(ctx.memory)
        things = "" if count == 0 else " (1 thing)" if count == 1 else f" ({count} things)"
        return f"Forget everything I remember about you{things}?", "forget what I know about you"
    said = [f"your {shown(name)}" for name in dict.fromkeys(names)]
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return f"Forget {listed}?", f"forget {listed}"


def check(plan: Plan, ctx: Context) -> Verdict | None:
    held: int | None = None
    names: list[str] = []
    everything = False
    for index, step in enumerate(plan.steps):
        spec = ctx.registry[step.tool]
        if spec.effect is not Effect.MEMORY:
            continue
        if ctx.recovering:
            return Verdict.refuse(Rule.FORGET, step=index, detail="forgetting during a recovery turn")
        named = [value for sink, value in spec.texts(step.params) if sink is Sink.FACT_KEY]
        unasked = [name for name in named if not _said_to_forget(name, ctx)]
        if named and not unasked:
            continue
        held = index if held is None else held
        names.extend(unasked)
        everything = everything or not named
    emptied, changed = _overwrites(plan, ctx)
    if held is None and (emptied or changed):
        if ctx.recovering or not plan.steps:
            # a recovery turn never asks; a plan of facts alone has no step to hold them before
            return Verdict.refuse(Rule.FORGET, step=0, detail="overwriting unnamed facts without a question")
        said = [f"your {shown(name)}" for name in dict.fromkeys([*emptied, *changed])]
        listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        verb = "Forget" if not changed else "Change"
        return Verdict.confirm(Rule.FORGET, f"{verb} {listed}? You didn't ask me to.", step=0, target=_TARGET,
                               action=f"{verb.lower()} {listed}",
                               detail=f"remember overwrites {len(emptied) + len(changed)} unnamed fact(s)")
    if held is None:
        return None
    if plan.remember:
        return Verdict.refuse(Rule.FORGET, step=held, detail="a held forget would also store facts")
    question, action = _question(names, everything, ctx)
    return Verdict.confirm(Rule.FORGET, question, step=held, target=_TARGET, action=action,
                           detail=f"forget needs a yes: {'everything' if everything else len(names)}")
