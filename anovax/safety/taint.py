"""Taint rules: untrusted text from outside the plan (memory, screen, the transcript) must not
steer what the plan does.

* A poisoned stored fact (see memory.py) is not deleted here, but a plan that *acts on it* is
  refused: it presses a hotkey the fact names, or types, searches, opens or delegates text
  that the fact contains. Plans unrelated to the fact still run, so one bad fact does not
  brick the assistant; the memory module should also quarantine it.
* Recovery observations are data: a plan that reproduces text from a suspicious observation,
  or copies shell-metacharacter text (``report.txt; rm -rf ~``) from any observation, is
  refused. Hidden tag characters in the observation are decoded and scanned.
* Secret memory values never leave through typing, searching, goals, speech or new facts; what
  leaves the machine is matched loosely (spelled out, reversed, split: see stored.py).
* The transcript: base64/hex in the user's words that decodes to something dangerous taints
  any plan that types, delegates or remembers (the model decodes it, R-ENC-006); command
  syntax in the words taints plans that delegate or remember (intent propagated to a model).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from anovax.plan import Plan
from anovax.safety import apps, keys, leaks, prose, stored, web
from anovax.safety.apps import AppKind
from anovax.safety.canon import fold, forbidden, plain
from anovax.safety.context import Context
from anovax.safety.decode import decoded_blobs
from anovax.safety.focus import decode_for_scan
from anovax.safety.memory import FactKind, assess, reveal_tags
from anovax.safety.scan import command_hit, mentioned_chords, model_issue
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Effect, Sink

_MEMORY_REASON = "A stored memory looks like an instruction, so I won't act on it."
_SCREEN_REASON = "The text on screen asks me to do something risky, so I won't follow it."
_ENCODED_REASON = "I won't decode and act on hidden instructions."
_SECRET_REASON = "I won't type, search for or say a secret from my memory."
_HIDDEN_REASON = "The text on screen hides characters, so I won't act on it."
_METACHAR = re.compile(r"[;|`<>]|&&|\$[a-z_{(]|%\w+%")  # shell syntax, not "Q&A" or "$5"
_WORDS = re.compile(r"\w+")
_STOPWORDS = frozenset(
    """that this with from have your what when then them they their there will would could should about
    into after before please just also only some more most other than very over make like want need""".split()
)
#: a step that defers to what was remembered ("do my usual clean-up", "as my preference says")
_REFERS_TO_MEMORY = re.compile(r"\b(?:preferences?|memory|memories|remembered|saved rules?|usual|routine|as i told you)\b")
_SHELL_MENTION = re.compile(r"\b(?:terminal|shell|command prompt|cmd|powershell|pwsh|bash|console|run box|run dialog)\b")


@dataclass(frozen=True)
class _Action:
    """Something the plan does that untrusted text could have dictated."""

    step: int | None
    text: str  # folded
    chords: tuple[keys.Chord, ...] = ()
    #: the step opens a terminal (any name for one counts as following a fact that names one)
    opens_terminal: bool = False


def _actions(plan: Plan, ctx: Context) -> list[_Action]:
    out: list[_Action] = []
    for index, step in enumerate(plan.steps):
        for sink, value in ctx.registry[step.tool].texts(step.params):
            if sink is Sink.KEYS:
                try:
                    out.append(_Action(index, "", keys.parse(value)))
                except keys.KeyError_:
                    continue
            else:
                terminal = sink is Sink.APP and apps.kind(value) is AppKind.TERMINAL
                out.append(_Action(index, fold(value), opens_terminal=terminal))
    for key, value in plan.remember.items():
        out.append(_Action(None, fold(f"{key} {value}")))
    return out


def _content_words(text: str) -> set[str]:
    return {w for w in _WORDS.findall(text) if len(w) >= 4 and w not in _STOPWORDS}


def _reproduces(action: _Action, source: str, source_chords: list[keys.Chord]) -> bool:
    """True when ``action`` repeats a hotkey, a shell, or any content word of ``source``
    (both folded). Deliberately broad: it only runs against text already judged suspicious."""
    if any(chord in source_chords for chord in action.chords):
        return True
    if action.opens_terminal and _SHELL_MENTION.search(source):
        return True
    return bool(_content_words(action.text) & _content_words(source))


def _poisoned_memory(plan: Plan, ctx: Context, actions: list[_Action]) -> Verdict | None:
    for key, value in ctx.memory:
        if assess(key, value).kind is not FactKind.POISONED:
            continue
        source = fold(reveal_tags(f"{key} {value}"))
        chords = mentioned_chords(source)
        for action in actions:
            if _reproduces(action, source, chords) or _REFERS_TO_MEMORY.search(action.text):
                return Verdict.refuse(Rule.MEMORY_INJECTION, _MEMORY_REASON, step=action.step,
                                      detail=f"plan follows stored fact {key!r}")
    return None


def _secret_values(ctx: Context) -> list[str]:
    return [value for key, value in ctx.memory if len(value.strip()) >= 4 and assess(key, value).kind is FactKind.SECRET]


def _leaked_secret(plan: Plan, ctx: Context) -> Verdict | None:
    secrets = _secret_values(ctx)
    if not secrets:
        return None
    outbound = stored.outbound(plan, ctx.registry)
    typed = [(index, value) for index, step in enumerate(plan.steps)
             for sink, value in ctx.registry[step.tool].texts(step.params) if sink not in stored.OUTBOUND]
    # an address typed anywhere leaves the machine when it is opened: matched loosely too
    outbound += [(index, text) for index, text in typed if web.is_urlish(text)]
    secrets_ = stored.stored_secrets(ctx.memory)
    texts = [text for _, text in outbound]
    leak = stored.find_leak(secrets_, texts)
    if leak is None:
        hidden = stored.variants(texts)[len(texts) :]  # read out letter by letter, or encoded
        leak = stored.find_leak(secrets_, hidden) if hidden else None
        leak = stored.Leak(leak.key, None) if leak is not None else None
    if leak is None and ctx.recent_outbound and stored.find_leak(secrets_, list(ctx.recent_outbound)) is None:
        # a piece sent by an earlier command joins this plan's piece; what was already sent
        # in full earlier is not this plan's doing (and would block every later plan)
        joined = stored.find_leak(secrets_, [*ctx.recent_outbound, *(text for _, text in outbound)])
        leak = stored.Leak(joined.key, None) if joined is not None else None
    if leak is not None:
        step = outbound[leak.index][0] if leak.index is not None else None
        return Verdict.refuse(Rule.SECRET, _SECRET_REASON, step=step, detail=f"memory secret {leak.key!r} in plan")
    for index, text in typed:
        # typed text keeps the exact check: a spelled-out or reversed copy is not a leak to a window
        raw, folded = plain(text), fold(text)
        for secret in secrets:
            if secret in raw or fold(secret) in folded:
                return Verdict.refuse(Rule.SECRET, _SECRET_REASON, step=index, detail="memory secret in plan")
    return None


def _observation(plan: Plan, ctx: Context, actions: list[_Action]) -> Verdict | None:
    if ctx.observation is None:
        return None
    passive = ctx.registry.with_effect(Effect.PASSIVE)  # steps that cannot carry an instruction
    if forbidden(ctx.observation) is not None and any(s.tool not in passive for s in plan.steps):
        # hidden tag characters or bidi overrides in screen text are an attack in progress
        return Verdict.refuse(Rule.PROMPT_INJECTION, _HIDDEN_REASON, detail="hidden characters in the observation")
    revealed = reveal_tags(ctx.observation)
    source = fold("".join(ch for ch in revealed if not forbidden(ch)))
    suspicious = model_issue(source) is not None or prose.OBSERVATION_LURE.search(source) is not None
    chords = mentioned_chords(source)
    for action in actions:
        if suspicious and _reproduces(action, source, chords):
            return Verdict.refuse(Rule.PROMPT_INJECTION, _SCREEN_REASON, step=action.step,
                                  detail="plan repeats a suspicious observation")
        for token in action.text.split():
            if len(token) >= 2 and _METACHAR.search(token) and token in source:
                return Verdict.refuse(Rule.PROMPT_INJECTION, _SCREEN_REASON, step=action.step,
                                      detail="shell metacharacters copied from the observation")
    return None


def _transcript(plan: Plan, ctx: Context) -> Verdict | None:
    if not ctx.user_text:
        return None
    effects = {ctx.registry[step.tool].effect for step in plan.steps}
    delegates = Effect.SUBPLAN in effects or bool(plan.remember)
    acts = delegates or Effect.DESKTOP in effects
    if not acts:
        return None
    for blob in decoded_blobs(plain(ctx.user_text)):
        if model_issue(blob):
            return Verdict.refuse(Rule.ENCODED, _ENCODED_REASON, detail="dangerous encoded text in the request")
    if delegates:
        hit = command_hit(ctx.user_text)
        if hit:
            return Verdict.refuse(Rule.DENYLIST, hit.category.reason,
                                  detail=f"request names {hit.category.name} command and the plan delegates it")
    return None


def _typed_password_sent(plan: Plan, ctx: Context) -> Verdict | None:
    """A password typed earlier in this session (into a login form: the line the gate carries)
    searched or said now: what was typed into a field was the user's business, sending it out is
    not."""
    typed = [token for token in re.split(r"[\s<>]+", decode_for_scan(ctx.session_tail)) if leaks.looks_like_password(token)]
    if not typed:
        return None
    shapes = [stored.skeleton(token) for token in typed]
    for index, text in stored.outbound(plan, ctx.registry):
        sent = stored.skeleton(text)
        if any(len(shape) >= stored.MIN_SECRET and shape in sent for shape in shapes):
            return Verdict.refuse(Rule.SECRET, _SECRET_REASON, step=index, detail="a password typed earlier, sent out")
    return None


def check(plan: Plan, ctx: Context) -> Verdict | None:
    actions = _actions(plan, ctx)
    return (
        _poisoned_memory(plan, ctx, actions)
        or _leaked_secret(plan, ctx)
        or _typed_password_sent(plan, ctx)
        or _observation(plan, ctx, actions)
        or _transcript(plan, ctx)
    )
