"""Canonical forms of untrusted text, used only for *matching*; the plan itself is never rewritten.

Order matters (CWE-180: canonicalise, then validate):

1. refuse outright what is never legitimate (``forbidden``): C0/C1 controls except TAB/LF/CR,
   bidi embeddings/overrides/isolates, Unicode tag characters (ASCII smuggling), lone surrogates;
2. ``plain``: NFKD, drop format (Cf), combining (Mn/Me) and invisible filler characters, NFKC.
   Zero-width characters are dropped rather than refused because ZWJ emoji are real text;
3. ``fold``: ``plain`` + token-level confusable skeleton + casefold + one space for any run of
   horizontal whitespace (NBSP, em space, ideographic space...) and one LF for any line break,
   because a line break typed into a shell is an Enter.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from anovax.safety.confusables import CONFUSABLES, DISGUISE_SCRIPTS

_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 (but TAB LF CR), DEL, C1
    "\u202a-\u202e\u2066-\u2069"  # bidi embeddings, overrides, isolates
    "\ud800-\udfff\ufffe\uffff"  # lone surrogates (JSON can produce them), non-characters
    "\U000e0000-\U000e007f]"  # tag characters
)

#: invisible letters (category Lo/So) that render as nothing: Hangul fillers, braille blank
_INVISIBLE_LETTERS = "\u115f\u1160\u3164\uffa0\u2800"


def _build_drop_table() -> dict[int, None]:
    # Built once at import (~30 ms) so every later call is a single C-level translate.
    # Planes 0-1 and the tag/variation-selector plane hold every Mn, Me and Cf code point.
    table: dict[int, None] = {}
    for start, stop in ((0x80, 0x20000), (0xE0000, 0xE1000)):
        for cp in range(start, stop):
            if unicodedata.category(chr(cp)) in ("Mn", "Me", "Cf"):
                table[cp] = None
    for ch in _INVISIBLE_LETTERS:
        table[ord(ch)] = None
    return table


_DROP = _build_drop_table()

#: punctuation look-alikes NFKC keeps (dashes, quotes, slashes, colons, bars, tildes, stars)
_PUNCT = str.maketrans(
    {
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\u02d7\u2e3a\u2e3b", "-"),
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u02bc\u02b9", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u02ba", '"'),
        **dict.fromkeys("\u2044\u2215\u29f8", "/"),
        **dict.fromkeys("\u2216\u29f5\u29f9", "\\"),
        **dict.fromkeys("\u02d0\ua789\u0589\u05c3\u2236\u16ec", ":"),
        **dict.fromkeys("\u01c0\u2223\u2502\u05c0\u23fd", "|"),
        **dict.fromkeys("\u223c\u301c\u2053\uff5e", "~"),
        **dict.fromkeys("\u2217\u2731\u204e", "*"),
        **dict.fromkeys("\u037e", ";"),
    }
)
_WORD = re.compile(r"\w+")
#: a run of whitespace holding a line break, read from the run's start only (a match tried inside a
#: long run of spaces would re-read it to its end: quadratic); \r, LS, PS are made \n first
_BREAK_CHARS = str.maketrans("\r\u2028\u2029", "\n\n\n")
_LINE_BREAKS = re.compile(r"(?<![^\S\n])[^\S\n]*+\n\s*")
_HSPACE = re.compile(r"[^\S\n]+")


def forbidden(text: str) -> str | None:
    """Name the first character class that is never allowed in any field, or None."""
    match = _FORBIDDEN.search(text)
    if match is None:
        return None
    cp = ord(match.group())
    if 0xE0000 <= cp <= 0xE007F:
        return "a Unicode tag character"
    if 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069:
        return "a bidirectional override"
    if 0xD800 <= cp <= 0xDFFF or cp in (0xFFFE, 0xFFFF):
        return "an invalid code point"
    return f"control character U+{cp:04X}"


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """NFKD, drop Cf/Mn/Me and invisible fillers, NFKC: case and script are kept."""
    if text.isascii():
        return text
    stripped = unicodedata.normalize("NFKD", text).translate(_DROP)
    return unicodedata.normalize("NFKC", stripped)


def balloons(text: str, factor: int) -> bool:
    """True when the canonical form is more than ``factor`` times longer than the text:
    compatibility characters such as U+FDFA (18 letters) in bulk, which no prose needs and which
    would multiply the cost of every later scan past the field's cap."""
    return len(text) * factor + 16 < len(plain(text))


def _is_common_letter(ch: str) -> bool:
    # letters of everyday Russian, Greek, Armenian and Cherokee prose
    cp = ord(ch)
    return 0x0391 <= cp <= 0x03CE or 0x0410 <= cp <= 0x0451 or 0x0531 <= cp <= 0x0587 or 0x13A0 <= cp <= 0x13FF or 0xAB70 <= cp <= 0xABBF


#: look-alikes that everyday prose does not use (Cyrillic ѕ ԁ ӏ, Greek ϲ, small capitals...)
_RARE = frozenset(cp for cp in CONFUSABLES if not _is_common_letter(chr(cp)))


def skeleton(text: str) -> str:
    """Replace look-alike letters by their Latin twins, one whole word at a time.

    A word is mapped only when every character is ASCII or a look-alike, *and* it is
    disguised: it mixes in Latin letters, uses a look-alike that everyday prose does not
    (ѕ, ԁ, ӏ, small capitals), or sits in mostly-Latin text (``гм -rf ~``). So all-Cyrillic
    or all-Greek prose keeps its letters and can never turn into an English command.
    """
    if text.isascii():
        return text
    letters = [ch for ch in text if ch.isalpha()]
    latin_context = bool(letters) and sum(ch.isascii() for ch in letters) >= 0.3 * len(letters)

    def word(match: re.Match[str]) -> str:
        token = match.group()
        if token.isascii():
            return token
        has_latin = rare = False
        for ch in token:
            cp = ord(ch)
            if ch.isascii():
                has_latin = has_latin or ch.isalpha()
            elif cp not in CONFUSABLES:
                return token  # a real foreign word
            elif cp in _RARE:
                rare = True
        return token.translate(CONFUSABLES) if (latin_context or has_latin or rare) else token

    return _WORD.sub(word, text)


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """The matching form: plain, skeleton, casefold, whitespace collapsed, trimmed."""
    folded = skeleton(plain(text).translate(_PUNCT)).casefold()
    if not folded.isascii():
        folded = skeleton(folded).casefold()  # casefold can produce new look-alikes (Cherokee)
    folded = _LINE_BREAKS.sub("\n", folded.translate(_BREAK_CHARS))
    return _HSPACE.sub(" ", folded).strip()


#: three or more single letters or digits, each apart by one or two spaces, dots or dashes
_SPELLED = re.compile(r"(?<![\w.-])\w(?:[ .-]{1,2}\w(?![\w]))+")


def unspell(folded: str) -> str:
    """"n e t s h", "c-m-d", "d.e.l.e.t.e" read as the words they spell (a listener hears them so);
    runs of fewer than three characters stay as they are ("a b")."""
    if " " not in folded and "." not in folded and "-" not in folded:
        return folded

    def join(match: re.Match[str]) -> str:
        run = match.group()
        letters = run.translate(_SPELL_SEPARATORS)
        return letters if len(letters) >= 3 else run

    return _SPELLED.sub(join, folded)


_SPELL_SEPARATORS = str.maketrans("", "", " .-")


def scripts(word: str) -> frozenset[str]:
    """The scripts of the letters in ``word`` (ASCII letters count as LATIN)."""
    found = set()
    for ch in word:
        if ch.isalpha():
            found.add("LATIN" if ch.isascii() else unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0])
    return frozenset(found)


def is_disguised(word: str) -> bool:
    """True for a word mixing Latin with Cyrillic/Greek/... letters (``ѕudo``, ``nоtepad``)."""
    if word.isascii():
        return False
    found = scripts(word)
    disguise = found & DISGUISE_SCRIPTS
    return bool(disguise) and ("LATIN" in found or len(disguise) > 1)


def has_disguised_word(text: str) -> bool:
    return any(is_disguised(w) for w in _WORD.findall(plain(text)))
