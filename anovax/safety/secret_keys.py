"""What a memory *key* says about its value: ``{"garage": "4711"}`` is the garage's code,
``{"home_wifi": "soleil123"}`` the network's key, ``{"netflix login": "ana@x.pt Hunter22!"}`` an
account's password, ``{"Passwort": ...}`` a password whatever follows.

A key alone rarely decides: "room": "1234" is a room, "wifi": "HomeNet" a network's name,
"garage": "left side" a place. The value must have the shape the key's thing would have: a short
number for a door, a bank card or a phone's lock; one token mixing letters with digits or
symbols for a network or an account.
"""

from __future__ import annotations

import re

from anovax.safety import leaks, secret_values, secret_words
from anovax.safety.canon import fold

#: things whose short number (3-8 digits) is a code: doors, gates, safes, locks, alarms
_LOCKS = frozenset(
    """door doors frontdoor backdoor garagedoor gate gates garage alarm safe lock locker padlock entry keypad
    building intercom bikelock unlock lockscreen screenlock tur haustur tor tresor schloss schliessfach
    alarmanlage fahrradschloss entsperren porte portail coffre coffrefort cadenas digicode immeuble puerta
    porton garaje alarma cajafuerte candado cancello allarme cassaforte lucchetto portao garagem alarme
    cofre cadeado deur voordeur poort kluis slot fietsslot combination combo kombination""".split()
)
_LOCK_PHRASES = re.compile(r"\b(?:front door|back door|garage door|bike lock|caja fuerte|coffre fort|lock screen)\b")
#: things whose 4-6 digit number is a PIN: cards, SIMs, phones, laptops (a longer one is a phone number)
_PIN_HOLDERS = frozenset(
    """card debit credit visa mastercard amex maestro atm bank bankcard ec girocard karte bankkarte kreditkarte
    carte cb tarjeta carta bancomat cartao kaart pinpas sim phone iphone android handy telefon telephone
    telefono laptop computer pc tablet ipad""".split()
)
#: keys naming a network whose one-token value is its key ("wifi": "soleil123")
_NETWORKS = frozenset("wifi wi fi wlan router hotspot network netzwerk reseau red rete rede netwerk".split())
#: keys naming an account, whose password-shaped token is its password ("gmail login": "ana Hunter22!")
_ACCOUNTS = frozenset(
    """login logins account accounts credentials creds signin zugang zugangsdaten konto anmeldung identifiants
    compte connexion cuenta acceso credenciales credenziali accesso conta credenciais inloggegevens inlog
    gegevens""".split()
)
#: what is not secret about a network or an account: its name, its speed, its address
_NOT_SECRET_PART = frozenset(
    """name ssid nom nombre naam nome speed provider anbieter band channel ip address adresse standort
    location ort email mail username user benutzer utilisateur usuario utente gebruiker number nummer""".split()
)
#: compounds a key may run together ("wifipasswort", "motdepasse", "garagedoorcode")
_COMPACT = re.compile(
    r"passw|kennwort|motdepasse|contrasen|senha|wachtwoord|zugangscode|pincode|geheimzahl|paroladordine"
    r"|palavrapasse|wlanschlussel|netzwerkschlussel|sicherheitsschlussel|wifisleutel|netwerksleutel"
    r"|passcode|digicode|(?:door|gate|garage|alarm|safe|lock|locker|entry|tur|tor|tresor|porte|portail"
    r"|coffre|deur|poort|kluis|unlock|sim|atm|card)(?:code|pin|combination|combo)"
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_SEPARATORS = re.compile(r"[_.\-/\\:]+")
_EMAIL_OR_URL = re.compile(r"@|://|^www\.")


def key_words(key: str) -> tuple[str, list[str]]:
    """The key folded with its separators and camelCase humps as spaces, and its words."""
    spaced = fold(_SEPARATORS.sub(" ", _CAMEL.sub(" ", key)))
    return spaced, spaced.split()


def names_secret(key: str) -> bool:
    """True for a key that names a credential in any of the seven languages."""
    spaced, _ = key_words(key)
    compact = re.sub(r"[^a-z0-9]", "", spaced)
    return leaks.is_secret_key(key) or secret_words.names_credential(spaced) or _COMPACT.search(compact) is not None


def _token_key(value: str) -> bool:
    """One token of 6+ characters mixing letters with digits or symbols (not an address)."""
    if len(value) < 6 or any(ch.isspace() for ch in value) or _EMAIL_OR_URL.search(value):
        return False
    return any(ch.isalpha() for ch in value) and any(ch.isdigit() or not ch.isalnum() for ch in value)


#: a standalone 3-8 digit number (not part of a time, a date or a decimal)
_CODE_NUMBER = re.compile(r"(?<![\d:./-])\d{3,8}(?![\d:./-]|\s*(?:am|pm|h|uhr)\b)")
_YEAR = re.compile(r"(?:19|20)\d\d")
_YEAR_BEFORE = re.compile(r"\b(?:in|since|from|built|year|seit|im jahr|baujahr|depuis|en|desde|dal|nel|em|desde|sinds|in het jaar) $")
#: the same code keyed in digit by digit: "7-3-9-1", "7 3 9 1"
_KEYED_CODE = re.compile(r"(?<![\d:./-])\d(?:[ -]\d){2,7}(?![\d:./-])")


def _code_in_note(folded: str) -> bool:
    """A short note holding a standalone number: "disarm with 0815", "use 4711 at the side door"."""
    if len(folded.split()) > 12:
        return False
    if _KEYED_CODE.search(folded):
        return True
    # "renovated in 2019": a year after "in", "since", "seit"... is a date, not the code
    return any(not (_YEAR.fullmatch(number.group()) and _YEAR_BEFORE.search(folded[: number.start()]))
               for number in _CODE_NUMBER.finditer(folded))


def _pin(folded: str) -> bool:
    compact = re.sub(r"[\s\-]", "", folded)
    return compact.isdigit() and 4 <= len(compact) <= 6


def key_secret(key: str, value: str) -> str | None:
    """What secret the key says its value is, when the value has that secret's shape; else None."""
    if names_secret(key):
        return "a key that names a secret"
    spaced, words = key_words(key)
    folded = fold(value)
    named = set(words)
    if named & _LOCKS or _LOCK_PHRASES.search(spaced):
        if (secret_values.short_code(folded) or _code_in_note(folded)
                or secret_words.code_after_key(folded) is not None):
            return "a door or lock code"
    if named & _NOT_SECRET_PART:
        return None
    if named & _PIN_HOLDERS and (_pin(folded) or secret_words.code_after_key(folded) is not None):
        return "a card or device PIN"
    if named & _NETWORKS and _token_key(value.strip()):
        return "a network key"
    if named & _ACCOUNTS and any(_token_key(token) or leaks.looks_like_password(token) for token in value.split()):
        return "an account password"
    return None
