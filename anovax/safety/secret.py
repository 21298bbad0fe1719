"""Is there a secret in this text, or in this fact? The one place the secret rules meet.

Layers, each its own module: token formats (``leaks``: API keys, private keys, JWTs), numbers by
format (cards by Luhn in ``leaks``; SSNs and IBANs in ``secret_numbers``), recovery phrases
(``seed``) and credentials named in words (``secret_words``). ``in_text`` is for text that leaves
the machine or is said aloud (searches, speech, an address bar); ``in_fact`` adds what only a
memory fact can say: a key that names the secret (``wifi_password``, ``garage``) and notes
written without a verb ("PIN 4821"). Text typed into an editor is *not* screened here beyond
token formats: a person may dictate their own password into a login field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from anovax.safety import leaks, secret_numbers, secret_values, secret_words, seed
from anovax.safety.canon import fold, plain


@dataclass(frozen=True)
class Finding:
    """What kind of secret was found, and the secret itself when it can be cut out of the text."""

    kind: str
    #: the value ("hunter2" in "my password is hunter2"); empty when the whole text is the secret
    value: str = ""


#: memory keys naming a door, gate, safe... whose short numeric value is its code ("garage": "4711")
_DOOR_WORDS = frozenset(
    """door doors frontdoor backdoor garagedoor gate gates garage alarm safe lock locker padlock entry keypad
    building intercom bikelock tur haustur tor tresor schloss schliessfach alarmanlage fahrradschloss
    porte portail coffre coffrefort cadenas digicode immeuble puerta porton garaje alarma cajafuerte candado
    cancello allarme cassaforte lucchetto portao garagem alarme cofre cadeado deur voordeur poort kluis
    slot fietsslot""".split()
)
_DOOR_PHRASES = re.compile(r"\b(?:front door|back door|garage door|bike lock|caja fuerte|coffre fort)\b")
#: keys naming a network whose one-token value is its key ("wifi": "soleil123"), unless they name
#: what is not secret about it (its name, its speed)
_NETWORK_WORDS = frozenset("wifi wi fi wlan router hotspot network netzwerk reseau red rete rede netwerk".split())
_NOT_SECRET_PART = frozenset(
    """name ssid nom nombre naam nome speed provider anbieter band channel ip address adresse standort
    location ort""".split()
)
#: compounds a key may run together ("wifipasswort", "motdepasse", "garagedoorcode")
_COMPACT_KEY = re.compile(
    r"passw|kennwort|motdepasse|contrasen|senha|wachtwoord|zugangscode|pincode|geheimzahl|paroladordine"
    r"|palavrapasse|wlanschlussel|netzwerkschlussel|sicherheitsschlussel|wifisleutel|netwerksleutel"
    r"|passcode|digicode|(?:door|gate|garage|alarm|safe|lock|locker|entry|tur|tor|tresor|porte|portail"
    r"|coffre|deur|poort|kluis)(?:code|pin|combination|combo)"
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_KEY_SEPARATORS = re.compile(r"[_.\-/\\:]+")


@lru_cache(maxsize=4096)
def in_text(text: str) -> Finding | None:
    """A secret in text that leaves the machine or is spoken; None when there is none."""
    found = _by_format(text)
    if found:
        return found
    named = secret_words.named_secret(fold(text))
    return Finding(f"{named.noun} with a value", named.value) if named else None


def _by_format(text: str) -> Finding | None:
    """Secrets recognised by their shape alone: tokens, card, SSN and IBAN numbers, seed phrases."""
    token = leaks.find_secret(text)
    if token:
        return Finding(token)
    raw = plain(text)
    if leaks.has_card_number(raw):
        return Finding("card number")
    if secret_numbers.has_ssn(raw):
        return Finding("social security number")
    if secret_numbers.has_iban(raw):
        return Finding("IBAN")
    if seed.has_seed_phrase(raw):
        return Finding("recovery phrase")
    return None


def _key_words(key: str) -> tuple[str, list[str]]:
    spaced = fold(_KEY_SEPARATORS.sub(" ", _CAMEL.sub(" ", key)))
    return spaced, spaced.split()


def _names_secret(key: str) -> bool:
    spaced, _ = _key_words(key)
    compact = re.sub(r"[^a-z0-9]", "", spaced)
    return (
        leaks.is_secret_key(key)
        or secret_words.names_credential(spaced)
        or _COMPACT_KEY.search(compact) is not None
    )


def _door_code(words: list[str], spaced: str, value: str) -> bool:
    if not (_DOOR_WORDS.intersection(words) or _DOOR_PHRASES.search(spaced)):
        return False
    folded = fold(value)
    return secret_values.short_code(folded) or secret_words.code_after_key(folded) is not None


def _network_key(words: list[str], value: str) -> bool:
    if not _NETWORK_WORDS.intersection(words) or _NOT_SECRET_PART.intersection(words):
        return False
    token = value.strip()
    if len(token) < 6 or any(ch.isspace() for ch in token):
        return False
    has_letter = any(ch.isalpha() for ch in token)
    return has_letter and any(ch.isdigit() or not ch.isalnum() for ch in token)


@lru_cache(maxsize=4096)
def in_fact(key: str, value: str) -> Finding | None:
    """A secret in a fact a plan asks to remember (or one already remembered)."""
    # ``bare`` below finds everything in_text's words would, and more: one pass over the value
    found = _by_format(value) or in_text(key)
    if found:
        return found
    if _names_secret(key):
        return Finding("a key that names a secret", value)
    spaced, words = _key_words(key)
    if _door_code(words, spaced, value):
        return Finding("a door or lock code", value)
    if _network_key(words, value):
        return Finding("a network key", value)
    named = secret_words.named_secret(fold(value), bare=True)
    if named:
        return Finding(f"{named.noun} with a value", named.value)
    if leaks.looks_like_password(value):
        return Finding("a password-like value", value)
    return None
