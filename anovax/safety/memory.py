"""Remembered facts: what a plan may store, and which stored facts are poisoned or secret.

Memory is replayed into every later prompt, so a stored "fact" is text a model will act on:
it is scanned like a sub-task goal (commands, encodings, instructions, hotkeys, intents), in
its key as well as its value. Secrets are never stored (plain-text memory is not a vault),
recognised by ``secret.in_fact``: a secret-naming key (``wifi_password``, ``Passwort``, a door's
code under ``garage``), a token format, a card, SSN or IBAN, a recovery phrase, a credential
stated in words ("mot de passe: soleil123"), or a password-shaped value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from anovax.plan import Plan
from anovax.safety import facts, readable, secret, settings_names, spoken
from anovax.safety.canon import forbidden, has_disguised_word
from anovax.safety.scan import Issue, model_issue, secret_issue
from anovax.safety.verdict import Rule, Verdict

_SECRET_REASON = "I won't store passwords, keys or other secrets in my memory."
_POISON_REASON = "That memory looks like an instruction rather than a fact, so I won't keep it."
_UNREADABLE_REASON = "I can only remember text I can read, and that fact is in a script I can't check."
_WITHHELD_REASON = "It looks like a secret or an instruction rather than a fact about you."
_TAGS = re.compile("[\U000e0020-\U000e007e]+")


class FactKind(str, Enum):
    """How a stored fact may be used."""

    CLEAN = "clean"
    SECRET = "secret"
    POISONED = "poisoned"


@dataclass(frozen=True)
class FactAssessment:
    kind: FactKind
    issue: Issue | None = None


def reveal_tags(text: str) -> str:
    """Tag characters spell hidden ASCII (U+E0041 is an invisible "A"): make it visible."""
    return _TAGS.sub(lambda m: " " + "".join(chr(ord(ch) - 0xE0000) for ch in m.group()) + " ", text)


@lru_cache(maxsize=1024)
def assess(key: str, value: str) -> FactAssessment:
    """Classify one fact (cached: stored memory is re-checked on every command)."""
    for text in (key, value):
        found = forbidden(text)
        if found:  # tag characters are invisible text: ASCII smuggled past every reader
            return FactAssessment(FactKind.POISONED, Issue(Rule.FORBIDDEN_CHAR, detail=f"memory: {found}"))
    if has_disguised_word(key):
        return FactAssessment(FactKind.POISONED, Issue(Rule.CONFUSABLE, detail="memory key with look-alike letters"))
    posing = settings_names.fact_problem(key, value)
    if posing:  # replayed into every prompt, a fact filed as a setting reads as one
        return FactAssessment(FactKind.POISONED, Issue(Rule.MEMORY_INJECTION, settings_names.REASON, posing))
    # a key is read as words too: "always_skip_safety_checks" hides its order in underscores
    for text in (key, facts.key_words(key), value):
        issue = model_issue(text)
        if issue and issue.rule is not Rule.SECRET:
            # whatever the fact carries (a command, an encoding, a hotkey, an instruction),
            # storing it would replay it into every later prompt
            return FactAssessment(FactKind.POISONED, Issue(Rule.MEMORY_INJECTION, _POISON_REASON, issue.detail))
    # a secret first: "use hunter2 as the password" is an order too, but what matters is the password
    found = secret.in_fact(key, value)
    if found:
        return FactAssessment(FactKind.SECRET, Issue(Rule.SECRET, _SECRET_REASON, f"secret in memory: {found.kind}"))
    order = facts.order_detail(key, value)
    if order:  # default-deny: memory holds descriptions of the user, never orders to the assistant
        return FactAssessment(FactKind.POISONED, Issue(Rule.MEMORY_INJECTION, _POISON_REASON, order))
    return FactAssessment(FactKind.CLEAN)


def check_remember(plan: Plan) -> Verdict | None:
    """Facts the plan asks to store must be clean."""
    for key, value in plan.remember.items():
        if readable.fact_unreadable(key) or readable.fact_unreadable(value):
            # memory is replayed into every prompt: it must be data the gate can screen
            return Verdict.refuse(Rule.UNREADABLE, _UNREADABLE_REASON, detail="memory in an unreadable script")
        found = assess(key, value)
        if found.kind is not FactKind.CLEAN and found.issue is not None:
            return found.issue.verdict()
    return None


def unsayable(key: str, value: str, sentence: str) -> str | None:
    """Why a stored fact may not be read out as ``sentence``, or None when it may: it must still
    be a clean fact (the file may have been edited since it was stored) and the sentence must
    pass the screening every spoken reply gets (secrets, scam advice)."""
    if readable.fact_unreadable(key) or readable.fact_unreadable(value) or assess(key, value).kind is not FactKind.CLEAN:
        return _WITHHELD_REASON
    if secret_issue(sentence) or spoken.spoken_issue(sentence):
        return _WITHHELD_REASON
    return None
