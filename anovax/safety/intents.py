"""Goals and memory in every language the lexicon ships (``lexicon_<lang>.txt``).

``prose.py`` holds the English sentence patterns; these rules are built from word lists instead:
a verb family and an object family within one clause, in either order, because German, Dutch
and Japanese put the verb last ("alle Dateien löschen", "ファイルを全部削除"). Mixed languages
match too (a Spanish verb with an English "antivirus"), which is how people write.

Each family is compiled once and the second is looked for in a bounded window around every
match of the first (``lexicon.Near``), so a scan is linear in the text.
"""

from __future__ import annotations

from anovax.safety.lexicon import PHRASE_CHAR, Lazy, Near, lazy_words, words

#: a short reach inside a clause, for loose words like "alles" / "tout"
_NEAR = PHRASE_CHAR + "{0,20}?"
#: "todo el texto", "tout le texte": the everything-word is a determiner there, not the object
_ARTICLE = (
    r"(?! (?:the|this|that|der|die|das|den|dem|le|la|les|ce|cet|cette|el|lo|los|las|il|i|gli|o|a|os|as|de|het"
    r"|dit|deze)\b)"
)

# compiled on first use (lexicon.Lazy): a start-up does not pay for 25 languages
_FROM_NOW_ON = lazy_words("from_now_on")
_UNASKED = lazy_words("unasked")
#: turning the rules off, in so many words: text that tries to reprogram its reader
_RULES_OFF = (Near.of("ignore", "rules", ordered=True), Near.of("rules", "rules_off", ordered=True))
#: ... and letting a stranger in: installing a remote-control tool ("installiere TeamViewer")
_HARM_PAIRS = (
    Near.of("destroy", "all_data"), Near.of("disable", "security"), Near.of("steal", "creds"), Near.of("fetch", "remote"),
)
_HARM_WORDS = Lazy(
    lambda: "|".join(
        (
            words("destroy") + " " + words("everything") + _ARTICLE + r"(?!\w)",
            words("everything") + _NEAR + words("destroy"),
            words("reset"),
            words("shutdown"),
            words("elevate"),
        )
    )
)
_SHELL = Near.of("shell", "run")
_RESEARCH = lazy_words("research")


def injection(folded: str) -> bool:
    """Text (canonical, ``canon.fold``) that tells its reader the rules no longer hold, or to act
    without asking ("ohne Rückfrage", "sans demander")."""
    return (_FROM_NOW_ON.search(folded) is not None or _UNASKED.search(folded) is not None
            or any(pair.search(folded) for pair in _RULES_OFF))


def harmful(folded: str) -> bool:
    """A goal to wipe, reset, shut down, disable protection, take credentials or elevate."""
    return _HARM_WORDS.search(folded) is not None or any(pair.search(folded) for pair in _HARM_PAIRS)


def shell(folded: str) -> bool:
    """A goal that types or runs something in a terminal (questions about terminals pass)."""
    return _SHELL.search(folded) is not None and _RESEARCH.search(folded) is None
