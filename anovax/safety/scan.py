"""Scanners for one piece of text, by the context it ends up in.

* ``exec_issue``: text that executes (typed text, app names, unknown tools' strings);
* ``model_issue``: text a model reads back and acts on (sub-task goals, memory): everything in
  ``exec_issue`` plus encodings, instructions, intents and hotkeys spelled out in words;
* ``query_issue``: search queries: only links, shares, data in URLs and secrets, because a
  query is URL-encoded into a fixed search URL and may talk about anything;
* ``secret_issue``: secrets only (``anovax.safety.secret``), for every text that leaves the
  machine or is said aloud: queries, speech, an address typed into a browser.

Results are cached: stored memory is re-checked on every command but rarely changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from anovax.safety import intents, keys, leaks, prose, secret, web
from anovax.safety.canon import fold, plain, unspell
from anovax.safety.commands import DOCUMENT_SAFE, CommandHit, find_command
from anovax.safety.decode import decoded_blobs, rot13, variants
from anovax.safety.verdict import Rule, Verdict

_INTENT_REASON = "I won't plan a task that wipes, resets or disables parts of the computer."
_SHELL_GOAL_REASON = "I won't plan a sub-task that types commands into a terminal."


@dataclass(frozen=True)
class Issue:
    """A problem found in one text, before it is tied to a step."""

    rule: Rule
    reason: str | None = None
    detail: str = ""
    #: harmless as words in a document (``commands.DOCUMENT_SAFE``): typed text with only such a
    #: hit is judged by the window it lands in (``keystrokes.type_text``), not refused outright
    in_documents: bool = False

    def verdict(self, step: int | None = None) -> Verdict:
        return Verdict.refuse(self.rule, self.reason, step=step, detail=self.detail)


def _nested_blobs(text: str, depth: int = 2) -> list[str]:
    found: list[str] = []
    frontier = [plain(text)]
    for _ in range(depth):
        nxt: list[str] = []
        for item in frontier:
            nxt.extend(decoded_blobs(item))
        found.extend(nxt)
        frontier = nxt
    return found


@lru_cache(maxsize=4096)
def command_hit(text: str, deep: bool = False, skip: frozenset[str] = frozenset()) -> CommandHit | None:
    """A denylisted command in ``text``, its de-obfuscated variants or its decoded blobs;
    ``deep`` adds the ROT13 reading (for text a model reads, which decodes it unasked); ``skip``
    leaves categories out."""
    if deep:
        folded = fold(text)
        turned = rot13(folded)
        # text without Latin letters reads the same in ROT13: its variants were just scanned
        return command_hit(text, False, skip) or (find_command(variants(turned), skip) if turned != folded else None)
    hit = find_command(variants(fold(text)), skip)
    if hit:
        return hit
    for blob in _nested_blobs(text):
        hit = find_command(variants(fold(blob)), skip)
        if hit:
            return hit
    return None


def _command_issue(text: str, deep: bool) -> Issue | None:
    hit = command_hit(text, deep)
    if hit is None:
        return None
    in_documents = hit.category.name in DOCUMENT_SAFE
    if in_documents:
        # the first hit is only prose in a document; anything harder in the same text wins
        hit = command_hit(text, deep, DOCUMENT_SAFE) or hit
        in_documents = hit.category.name in DOCUMENT_SAFE
    return Issue(Rule.DENYLIST, hit.category.reason, f"{hit.category.name}: {hit.matched!r}", in_documents)


@lru_cache(maxsize=4096)
def exec_issue(text: str) -> Issue | None:
    """Problems in text that will be typed or launched."""
    issue = _command_issue(text, deep=False)
    if issue:
        return issue
    scheme = web.scheme_problem(text, query=False)
    if scheme:
        return Issue(Rule.URL_SCHEME, detail=scheme)
    if web.unc_problem(text):
        return Issue(Rule.UNC_PATH)
    secret = leaks.find_secret(text)
    if secret:
        return Issue(Rule.SECRET, detail=secret)
    return None


_HOTKEY_MENTION = re.compile(
    r"(?<![\w])(?:(?:win(?:dows)?|super|meta|cmd|command|gui|ctrl|control|ctl|alt|option|shift)(?: ?key)?"
    r" ?[+\-] ?)+(?:[a-z0-9]+|[`,.;'/\\\[\]=-])(?![\w])"
)


def mentioned_chords(text: str) -> list[keys.Chord]:
    """Hotkeys spelled out in prose: "press Win+R", "ctrl + alt + t"."""
    chords: list[keys.Chord] = []
    for match in _HOTKEY_MENTION.finditer(fold(text)):
        try:
            chords.extend(keys.parse(match.group()))
        except keys.KeyError_:
            continue
    return chords


def _hotkey_issue(text: str) -> Issue | None:
    for chord in mentioned_chords(text):
        effect = keys.denied(chord)
        if effect:
            return Issue(Rule(effect.rule), effect.reason, "hotkey named in text")
        if chord == keys.PERMANENT_DELETE:
            return Issue(Rule.GUI_DESTRUCTIVE, detail="permanent delete named in text")
        if chord in keys.SEARCH_LAUNCHERS or chord in keys.TERMINAL_OPENERS:
            return Issue(Rule.LAUNCHER_HOTKEY, detail="launcher named in text")
    return None


def _wordy(text: str) -> bool:
    """Decoded bytes that read as words (not the noise random tokens decode to)."""
    words = re.findall(r"[A-Za-z]{2,}", text)
    letters = sum(ch.isalpha() or ch == " " for ch in text)
    return len(words) >= 2 and " " in text and letters >= 0.75 * len(text)


@lru_cache(maxsize=4096)
def model_issue(text: str) -> Issue | None:
    """Problems in text that a model will read and act on (goals, memory, screen text)."""
    issue = exec_issue(text) or _command_issue(text, deep=True)
    if issue:
        return issue
    for blob in _nested_blobs(text, depth=1):
        # a model decodes whatever it is given: hidden sentences or anything risky inside
        # are instructions smuggled past the reader
        if _wordy(blob) or model_issue(blob):
            return Issue(Rule.ENCODED, detail="encoded text")
    folded = unspell(fold(text))  # a model reads "d e l e t e" as the word it spells
    if prose.INJECTION.search(folded) or prose.DELEGATION.search(folded) or intents.injection(folded):
        return Issue(Rule.PROMPT_INJECTION, detail="instruction-like text")
    issue = _hotkey_issue(text)
    if issue:
        return issue
    if prose.INTENT.search(folded) or intents.harmful(folded):
        return Issue(Rule.DENYLIST, _INTENT_REASON, "destructive intent")
    if prose.shell_intent(folded) or intents.shell(folded):
        return Issue(Rule.SHELL_TYPING, _SHELL_GOAL_REASON, "terminal in goal")
    return None


def query_issue(query: str) -> Issue | None:
    """Problems in a web or YouTube search query."""
    scheme = web.scheme_problem(query, query=True)
    if scheme:
        return Issue(Rule.URL_SCHEME, detail=scheme)
    if web.unc_problem(query):
        return Issue(Rule.UNC_PATH)
    if web.carries_data(query):
        return Issue(Rule.EXFILTRATION, detail="URL with a query string in a search")
    if leaks.assigned_in_query(query):
        return Issue(Rule.SECRET, detail="assigned secret")
    return secret_issue(query)


@lru_cache(maxsize=4096)
def secret_issue(text: str) -> Issue | None:
    """A secret in text that leaves the machine or is said aloud (a query, an address, speech):
    a token, a card, SSN or IBAN, a recovery phrase, or a credential stated in words."""
    found = secret.in_text(text)
    return Issue(Rule.SECRET, detail=found.kind) if found else None
