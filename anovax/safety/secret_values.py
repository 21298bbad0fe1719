"""Is the text after "password is" a value, or a word about the password?

"my password is hunter2" gives a value; "my password is expired" does not. A value is STRONG
when it looks like a credential whatever the noun (digits, letters mixed with symbols, a quoted
string, digits said as words: "four eight two one"), a WORD when it is a plain word that is not
one of the words people use to talk *about* a credential (status words, function words, their
usual adjective and participle endings) in the seven languages the rules read.
"""

from __future__ import annotations

import re
from enum import Enum

_QUOTES = "\"'`«»‹›"
_TRAIL = ".,;!?)]}" + _QUOTES

#: digits 0-9 said aloud in en/de/fr/es/it/pt/nl (accents folded), and English tens and teens
_NUMBER_WORDS = frozenset(
    """zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
    null eins zwei drei vier funf sechs sieben acht neun zehn zwo
    zero un deux trois quatre cinq six sept huit neuf
    cero uno dos tres cuatro cinco seis siete ocho nueve
    zero uno due tre quattro cinque sei sette otto nove
    zero um dois tres quatro cinco seis sete oito nove
    nul een twee drie vier vijf zes zeven acht negen""".split()
)

#: words that say something *about* a credential, or start a phrase that does
_ABOUT = frozenset(
    """not no none never wrong incorrect invalid expired weak strong secure safe unsafe correct right too very
    case same different long short simple easy hard complex complicated required needed missing lost
    forgotten saved stored written here there below above in on at under inside somewhere something
    anything nothing what which who where how why when whatever the a an my your his her our their its this
    that these those it one mine yours ours same also still being been required optional blank empty
    set ok okay fine good bad great terrible old new default temporary hidden visible shown printed
    sent attached encrypted hashed changed reset locked blocked working broken useless known unknown
    public private secret shared personal random generated stolen leaked compromised pwned printed taped
    valid only just available protected needed and or but so because if for to of with without from by
    forgot lost help reset change recover recovery login sign enter type show see click tap press use
    like as than then now already again always sometimes usually probably maybe
    overdrawn frozen closed open opened suspended overdue due renewed renewing pending approved rejected
    declined fake real british american german french uk us
    nicht kein keine falsch richtig korrekt ungultig abgelaufen zu sehr sicher unsicher schwach stark lang
    kurz leer neu alt gleich anders hier dort unten oben irgendwo etwas nichts was wer wo wie warum der die
    das ein eine mein dein sein unser euer ihr noch schon auch nur immer vergessen gesperrt geheim
    ne pas faux fausse vrai correct incorrect invalide expire trop tres court courte long longue vide
    nouveau nouvelle ancien ancienne oublie perdu bloque ici la le les un une mon ton son notre votre quoi
    qui ou comment pourquoi toujours aussi deja sur securise
    no falso falsa incorrecto incorrecta invalido invalida caducada demasiado muy corto corta larga largo
    vacio vacia nuevo nueva viejo vieja olvidada bloqueada aqui alli el la lo los las un una mi tu su que
    quien donde como por siempre tambien ya segura seguro debil fuerte obligatoria
    non sbagliato sbagliata errato errata scaduto scaduta troppo molto corto corta lungo lunga vuoto vuota
    nuovo nuova vecchio vecchia dimenticata bloccata qui qua il lo la gli le uno una mio mia tuo tua suo
    sua cosa chi dove come perche sempre anche gia sicura sicuro debole forte obbligatoria
    nao falso falsa errado errada invalida expirada demais muito curto curta longo longa vazio vazia novo
    nova velho velha esquecida bloqueada aqui ali o os as um uma meu minha teu tua seu sua quem onde
    porque sempre tambem ja segura seguro fraca forte obrigatoria
    niet geen fout onjuist juist ongeldig verlopen te erg kort lang leeg nieuw oud vergeten geblokkeerd
    hier daar het de een mijn jouw zijn haar onze wat wie waar hoe waarom nog ook al altijd veilig
    onveilig zwak sterk verplicht""".split()
)
#: adjective and participle endings ("shared", "hackable", "abgelaufen", "olvidada", "scaduta")
_ABOUT_SHAPE = re.compile(
    r"(?:ed|ing|able|ible|ful|less|ous|ive|ly|ado|ada|ados|adas|ido|ida|idos|idas|ata|ato|uta|uto|ita|ito"
    r"|ee|ie|iert|isch)$|^ge[a-z]+(?:t|en)$|^ver[a-z]+(?:t|en|d)$|^un[a-z]{3,}$"
)
_DIGIT_RUN = re.compile(r"\d")


class Strength(str, Enum):
    """How much the text after a credential noun looks like its value."""

    STRONG = "strong"
    WORD = "word"


def _is_strong_token(token: str) -> bool:
    if token.isalpha():
        return False  # the common case, decided without counting
    digits = sum(ch.isdigit() for ch in token)
    letters = sum(ch.isalpha() for ch in token)
    symbols = sum(not ch.isalnum() and ch not in "-'." for ch in token)
    if digits >= 3 and letters == 0:
        return True  # a PIN, a door code: 4821, 47-11, #1234
    if digits and letters and len(token) >= 4:
        return True  # hunter2, Sonnenblume7
    return bool(letters and symbols and len(token) >= 4)  # p@ssword, Tr0ub4dor&3


def _spoken_digits(tokens: list[str]) -> bool:
    """Three or more number words in a row: a code said aloud ("four eight two one")."""
    run = 0
    for token in tokens:
        if token.strip(_TRAIL) in _NUMBER_WORDS:
            run += 1
            if run >= 3:
                return True
        else:
            break
    return False


def _digit_groups(tokens: list[str]) -> str:
    """Digits said in groups ("12 34 56", "1 2 3 4"), joined, when there are 3 or more."""
    groups: list[str] = []
    for token in tokens:
        token = token.strip(_TRAIL).replace("-", "")
        if not token.isdigit():
            break
        groups.append(token)
    joined = "".join(groups)
    # "3 5 7" reads as three numbers (a score, lottery picks); "1 2 3 4" and "12 34 56" as a code
    if len(joined) >= 3 and (len(groups) >= 4 or any(len(g) >= 2 for g in groups)):
        return joined
    return ""


def _passphrase(tokens: list[str]) -> bool:
    """Three plain words after a status-looking one: a passphrase, not a sentence about one."""
    words = [t.strip(_TRAIL) for t in tokens[:3]]
    return len(words) == 3 and all(
        w.isalpha() and len(w) >= 3 and w not in _ABOUT and not _ABOUT_SHAPE.search(w) for w in words
    )


def value_at(rest: str) -> tuple[str, Strength] | None:
    """The value at the start of ``rest`` (folded text after "is"/":"), and how strong it is."""
    tokens = rest.split(None, 6)[:6]
    if not tokens:
        return None
    digits = _digit_groups(tokens)
    if digits:
        return digits, Strength.STRONG
    first = tokens[0]
    quoted = first[0] in _QUOTES
    token = first.strip(_TRAIL).lstrip(_QUOTES)
    if not token:
        return None
    if _is_strong_token(token) or _spoken_digits(tokens):
        return token, Strength.STRONG
    if quoted and len(token) >= 3:
        return token, Strength.STRONG  # 'sunflower' in quotes is a value, not a word about it
    if token in _ABOUT and _passphrase(tokens[1:]):
        return " ".join(t.strip(_TRAIL) for t in tokens[:4]), Strength.WORD  # "correct horse battery staple"
    if not token.isalpha() or len(token) < 3 or token in _ABOUT or _ABOUT_SHAPE.search(token):
        return None
    if first.endswith("?"):
        return None  # "password: forgot?" asks, it does not tell
    return token, Strength.WORD


def password_shaped(value: str) -> bool:
    """Letters with digits or symbols, 6+ characters: "Kaffeetasse77", "Tulp2024!" (not "win10")."""
    letters = any(ch.isalpha() for ch in value)
    others = any(ch.isdigit() or not (ch.isalnum() or ch in "-'.") for ch in value)  # not "tp-link"
    return len(value) >= 6 and letters and others


def trivial_digits(value: str) -> bool:
    """A default or example PIN people search for: one digit repeated, or a run (1234, 9876)."""
    if not value.isdigit() or len(value) < 4:
        return False
    return len(set(value)) == 1 or value in "01234567890" or value in "09876543210"


def short_code(folded_value: str) -> bool:
    """A value that *is* a short code: "4711", "47 11", "#1234*", "four seven one one"."""
    compact = re.sub(r"[\s\-#*]", "", folded_value)
    if compact.isdigit() and 3 <= len(compact) <= 8:
        return True
    tokens = folded_value.split()
    return 3 <= len(tokens) <= 8 and all(t.strip(_TRAIL) in _NUMBER_WORDS for t in tokens)


def has_digits(text: str) -> bool:
    return _DIGIT_RUN.search(text) is not None
