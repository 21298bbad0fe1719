"""Goals and memory in every language the lexicon ships (``lexicon_<lang>.txt``).

``prose.py`` holds the English sentence patterns; these rules are built from word lists instead:
a verb family and an object family within one clause, in either order, because German, Dutch
and Japanese put the verb last ("alle Dateien löschen", "ファイルを全部削除"). Mixed languages
match too (a Spanish verb with an English "antivirus"), which is how people write.

Every pattern is an alternation followed by a bounded gap, so a scan is linear in the text.
"""

from __future__ import annotations

import re

from anovax.safety.lexicon import CLAUSE_CHAR, PHRASE_CHAR, words

#: the rest of one clause: a sentence mark or a line break ends it
_CLAUSE = CLAUSE_CHAR + "{0,40}?"
#: a short reach inside a clause, for loose words like "alles" / "tout"
_NEAR = PHRASE_CHAR + "{0,20}?"
#: "todo el texto", "tout le texte": the everything-word is a determiner there, not the object
_ARTICLE = (
    r"(?! (?:the|this|that|der|die|das|den|dem|le|la|les|ce|cet|cette|el|lo|los|las|il|i|gli|o|a|os|as|de|het"
    r"|dit|deze)\b)"
)


def _pair(first: str, second: str, gap: str = _CLAUSE) -> str:
    a, b = words(first), words(second)
    return f"{a}{gap}{b}|{b}{gap}{a}"


def _injection() -> re.Pattern[str]:
    # turning the rules off, in so many words: text that tries to reprogram the reader
    parts = [
        words("from_now_on"),
        words("ignore") + _CLAUSE + words("rules"),
        words("rules") + _CLAUSE + words("rules_off"),
    ]
    return re.compile("|".join(f"(?:{p})" for p in parts))


def _harm() -> re.Pattern[str]:
    parts = [
        _pair("destroy", "all_data"),
        words("destroy") + " " + words("everything") + _ARTICLE + r"(?!\w)",
        words("everything") + _NEAR + words("destroy"),
        words("reset"),
        words("shutdown"),
        _pair("disable", "security"),
        _pair("steal", "creds"),
        words("elevate"),
    ]
    return re.compile("|".join(f"(?:{p})" for p in parts))


# compiled at import (~75 ms), not on first use: no check may pay for it (50 ms a plan)
_INJECTION = _injection()
_HARM = _harm()
_SHELL = re.compile(_pair("shell", "run"))
_RESEARCH = re.compile(words("research"))


def injection(folded: str) -> bool:
    """Text (canonical, ``canon.fold``) that tells its reader the rules no longer hold."""
    return _INJECTION.search(folded) is not None


def harmful(folded: str) -> bool:
    """A goal to wipe, reset, disable protection, take credentials or elevate."""
    return _HARM.search(folded) is not None


def shell(folded: str) -> bool:
    """A goal that types or runs something in a terminal (questions about terminals pass)."""
    return _SHELL.search(folded) is not None and _RESEARCH.search(folded) is None
