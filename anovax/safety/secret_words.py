"""Credentials named in words: "the wifi password is hunter2", "Passwort: Sonnenblume7",
"4711 is the garage code", a memory key ``garage_door_code``.

The class is a *credential noun followed by a value*, in English, German, French, Spanish,
Italian, Portuguese and Dutch. A noun alone is talk about credentials ("how do I reset my
password", "password manager reviews") and passes; so does a noun followed by a word that says
something *about* it ("my password is expired", "das Passwort ist falsch"). Matching runs on
``fold`` text, which has already dropped accents (contraseña -> contrasena, è -> e).

Linear by construction: nouns are found with one ``finditer``; the link to a value is matched
on a bounded window after (or before) each noun, never on the rest of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from anovax.safety import secret_values as values
from anovax.safety.canon import unspell

#: credential nouns one text may hold; past that it is refused unread (the scan's time bound)
MAX_NOUNS = 24
_WINDOW = 96  # characters looked at after or before a noun; "PIN for my bank card is 4821" fits

#: qualifiers that make a "code"/"PIN"/"combination" a secret; English, German and Dutch compound
#: them ("garage code", "Garagencode", "garagecode"), Romance languages put them after (below)
_QUAL_BEFORE = (
    r"wi-?fi|wlan|network|netzwerk|router|(?:front |back |garage |house )?doors?|gates?|garagen?|alarms?"
    r"|alarmanlagen?|safes?|locks?|lockers?|padlocks?|entry|access|zugangs|keypad|haustur"
    r"|tur|tor|tresor|schloss|schliessfach|sicherheits|security|verification|bestatigungs|atm|bancomat|sim"
    r"|(?:bank |debit |credit )?card"
    r"|log-?in|sign-?in|anmelde|unlock|entsperr|screen ?lock|lock ?screen|voicemail|mailbox|2fa|one-time"
    r"|otp|auth|authentication|recovery|backup|master|admin|intercom|deur|voordeur|poort|kluis|slot"
    r"|toegangs|beveiligings|verificatie|ontgrendel|inlog|geheim|zahlen"
)
_CODE = r"codes?|pins?|pin-?codes?|combinations?|combo|kombination|passcodes?|nummer"
#: Romance order: "code de la porte", "codigo del garaje", "codice dell'allarme", "code for the gate"
_QUAL_AFTER = (
    r"portes?|portail|garage|alarme|coffre(?:-fort)?|cadenas|acces|securite|verification|deverrouillage"
    r"|immeuble|entree|wi-?fi|puerta|porton|garaje|alarma|caja fuerte|candado|acceso|seguridad|verificacion"
    r"|desbloqueo|edificio|entrada|cancello|portone|allarme|cassaforte|lucchetto|accesso|sicurezza|verifica"
    r"|sblocco|portao|garagem|cofre|cadeado|acesso|seguranca|verificacao|desbloqueio|predio|doors?|gates?"
    r"|alarm|safe|lock|locker|building|house|haus|tur|tor|tresor|deur|poort|kluis|router|network|wlan"
    r"|garagentor|schloss|secret|secreto|segreto|d'acces|d'acceso|d'accesso"
)
_LINKWORD = (
    r"de|du|des|del|della|dello|delle|do|da|dos|das|la|le|les|el|los|il|lo|o|a|the|my|our|your|for|to|of"
    r"|on|at|van|voor|het|fur|vom|von|zum|zur|der|die|den|dem|mein|meine|meiner|meines|unser|unsere|mon|ma"
    r"|notre|mi|nuestro|nuestra|mio|mia|meu|minha|nosso|nossa|mijn|onze|front|back|main|di|per|pour|para"
)
_CODE_WORD = r"code|codes|codigo|codice|pin|combinaison|combinacion|combinazione|combinacao|combinatie|combination"

#: nouns that name a credential on their own
_PLAIN = (
    r"passwor(?:d|ds|t|te|ter)|passworter|passwd|pwd|pw|psw|pswd|pass(?=\s*[:=])|kennwor(?:t|te|ter)"
    r"|(?:wi-?fi|wlan|e-?mail|mail|account) pass|passcodes?|pass[ -]?phrases?|puk(?:[ -]?code)?"
    r"|pin(?:[ -]?codes?| numbers?|-?nummer)?|geheimzahl|geheimnummer|zugangscode|zugangsdaten"
    r"|(?:wi-?fi|wlan|wpa2?|network|netzwerk|router)[ -]?(?:key|schlussel|code|pin)|netzwerkschlussel"
    r"|sicherheitsschlussel|einmalpasswort|entsperrcode|mots? de passe|mdp|cles? (?:wi-?fi|wpa2?|wep|reseau"
    r"|de securite|du wi-?fi)|code secret|code pin|contrasenas?|claves?(?: wi-?fi| de red| de acceso| secreta)?"
    r"|nip|codigo secreto|codigo pin|parola d'ordine|chiave (?:wi-?fi|di rete|di accesso)|codice segreto"
    r"|codice pin|senhas?|palavras?[- ]passe|chave (?:wi-?fi|de rede|de acesso)|wachtwoord(?:en|zin)?"
    r"|pincode|toegangscode|(?:wi-?fi|netwerk|beveiligings)-?sleutel|ssn|social security(?: number)?"
    r"|cvv2?|cvc|security code|api[ _-]?key|access[ _-]?key|secret[ _-]?key|client secret|(?:api|access|auth"
    r"|bearer|refresh) tokens?|tokens?|digicode|otp|one-time (?:code|password)"
    r"|combinations?|combo|kombination|zahlenkombination|combinaison|combinacion|combinazione|combinacao"
    r"|combinatie|private keys?|privater schlussel|cles? privees?|claves? privadas?|chiavi? privat[ae]"
    r"|chaves? privadas?|prive sleutel|(?:seed|recovery|backup|wallet) (?:phrase|words)"
    r"|sozialversicherungsnummer|steuer-?id|steueridentifikationsnummer|numero de securite sociale"
    r"|numero de seguro social|numero de la seguridad social|codice fiscale|burgerservicenummer|bsn"
    r"|(?:key|keys|schlussel|cle|clave|chiave|chave|sleutel)(?=\s*[:=])"
    # "credentials" in the seven languages, and words that name one only before a colon
    # identity and bank details that let someone pass as the user ("my passport number is ...")
    r"|passport (?:numbers?|no)|(?:bank )?account numbers?|sort codes?|routing numbers?"
    r"|driv(?:er'?s|ing) licen[cs]e numbers?|national insurance numbers?|tax (?:id|number)"
    r"|(?:mother'?s |mothers )?maiden names?"
    r"|credentials?|login credentials|anmeldedaten|zugangsdaten|logindaten|identifiants?|credenciales"
    r"|credenziali|credenciais|inloggegevens|(?:secret|logins?|geheimnis|segreto|secreto)(?=\s*[:=])"
)
_QUALIFIED = (
    rf"(?:{_QUAL_BEFORE})[ -]?s?(?:{_CODE})"
    rf"|(?:{_CODE_WORD})(?:\s+(?:(?:{_LINKWORD})\s+|(?:d|l|dell|dall|all|nell)'\s?){{1,3}}(?:[a-z]+\s+)?|[ -])"
    rf"(?:{_QUAL_AFTER})[a-z]*"
)
#: credential nouns whose value must look like a code (digits), not a word: "PIN is blocked"
_CODE_NOUNS = re.compile(
    rf"(?:{_QUALIFIED})|pins?|pin[ -]?codes?|pin numbers?|pin-?nummer|pincode|geheimzahl|geheimnummer|nip|cvv2?|cvc"
    rf"|ssn|social security(?: number)?|digicode|otp|(?:(?<!\w)\w+ )?tokens?|puk(?:[ -]?code)?|combinations?|combo"
    rf"|kombination|zahlenkombination|combinaison|combinacion|combinazione|combinacao|combinatie"
    rf"|sozialversicherungsnummer|steuer-?id|steueridentifikationsnummer|numero de securite sociale"
    rf"|numero de seguro social|numero de la seguridad social|burgerservicenummer|bsn"
    rf"|key|keys|schlussel|cle|clave|chiave|chave|sleutel"
)
_NOUN = re.compile(rf"(?<![\w])(?:{_QUALIFIED}|{_PLAIN})(?![\w])")
#: codes whose digits may follow without a verb in any text ("PIN 4821", "verification code 123456");
#: not combinations or tokens ("combo 1500 calories", "token 2049 Singapore")
_BARE_CODES = re.compile(
    rf"(?:{_QUALIFIED})|pins?|pin[ -]?codes?|pin numbers?|pin-?nummer|pincode|geheimzahl|nip|cvv2?|cvc|ssn"
    rf"|puk(?:[ -]?code)?|otp|digicode"
)
#: any code word, used only when the memory *key* already names a door, gate, garage...
_ANY_CODE = re.compile(rf"(?<![\w-])(?:{_CODE_WORD}|codes|kombination|zahlencode|pin|pins)(?![\w])")

#: "is", "ist", "est", "es", "è"/"é" (folded to "e"), ":" ... and "changed to", "set to"
_COPULA = (
    r"'s|:|=|->|=>|is|was|are|ist|war|lautet|heisst|sind|est|c'est|etait|sont|es|era|son|e|sono|sao|zijn"
    r"|luidt|blijft|bleibt|reste|sigue|resta|continua"
)
_SET_TO = (
    r"(?:changed|set|reset|updated|geandert|gesetzt|change|modifie|cambiad[ao]|cambiat[ao]|impostat[ao]"
    r"|alterad[ao]|mudad[ao]|gewijzigd|veranderd)\s+(?:to|auf|in|zu|en|a|para|naar|op)|to|auf|naar|para|--?"
)
#: a word copula ends at a word boundary ("is" must not match the start of "ist")
_END = r"(?:(?<=\w)(?!\w)|(?<!\w))"
_ADVERB = r"now|still|just|actually|simply|jetzt|nun|noch|maintenant|toujours|ahora|adesso|ancora|agora|nu|nog"
#: after a noun: an optional "for the wifi" / "für das WLAN" / "du wifi" / "you asked for" (or "Gmail"
#: before a colon), then the copula
# Both are matched at the start of a short window (``.match``); the leading ``(?<!\s)`` also keeps
# a search over a long run of spaces linear (each space would otherwise re-read the whole run).
_AFTER = re.compile(
    rf"(?<!\s)(?:,?\s+(?:for|of|to|on|at|in|from|fur|vom|von|zum|zur|im|am|bei|de|du|des|del|della|dello|do|da|dos"
    rf"|das|van|voor|bij|op|per|pour|para|por|di|dell'\w*|d'\w*|that|which|you|i|we|they|he|she|den|die"
    rf"|que|qui|che|dat|wat),?(?:\s+[^\s.,;!?:=]+){{0,4}}?,?"
    # or one or two bare words naming the account, before a colon or "=" ("mot de passe Gmail = X")
    rf"|(?:\s+[^\s.,;!?:=]+){{1,2}}?(?=\s*[:=]))?"
    rf"\s*(?:(?P<set>{_SET_TO})|(?P<cop>{_COPULA})){_END}(?:\s+(?:{_ADVERB}){_END})?\s*(?:[:=]\s*)?(?P<value>\S.*)?$"
)
_MIDDLE = re.compile(r"\s+|\s*[:=]\s*")
_YEAR = re.compile(r"(?:19|20)\d\d")
#: before a noun: "hunter2 is the wifi code", "Sommer2024! ist das neue WLAN-Passwort", "is X a good password"
_DET = (
    r"the|my|our|your|a|an|this|that|de|het|een|mijn|onze|das|der|die|ein|eine|mein|meine|unser|unsere"
    r"|dein|deine|le|la|les|l'|un|une|mon|ma|notre|el|los|mi|nuestro|nuestra|tu|su|il|lo|mio|mia|o|meu"
    r"|minha|nosso|nossa|ta|ton|votre"
)
_COPULA_WORDS = frozenset(_COPULA.split("|"))
#: "use hunter2 as the password", "hunter2 als Passwort", "would X make a good password"
_BEFORE_LINKS = _COPULA_WORDS | frozenset("as als comme como come zoals make makes macht fait hace fa faz maakt".split())
#: with only a determiner between ("is X a good password"), the value must follow a verb
_ASKING = _COPULA_WORDS | frozenset("would could use using make makes try nehme utiliser".split())
_DET_WORDS = frozenset(_DET.split("|"))
_ADJECTIVE = re.compile(r"[a-z]+-?")
_BEFORE_WINDOW = 48
_WORDY = str.maketrans("", "", " -'\n")

#: a noun followed by one of these is a different thing (a manager, a reset form), not a credential
_COMPOUND_TAIL = re.compile(
    r"(?<!\s)\s*(?:managers?|reset|policy|policies|generator|strength|field|box|prompt|requirements?|rules?|hint"
    r"|protected|protection|recovery|change|vault|checker|tips?|ideas?|examples?|list|verwaltung|manager"
    r"|gestionnaire|gestor|generador|generatore|beheerder)\b"
)


@dataclass(frozen=True)
class Named:
    """A credential stated in words: which noun named it and the value it gave."""

    noun: str
    value: str


def _first_value(rest: str, noun: str, *, strong_only: bool) -> str | None:
    """The value a copula or colon introduces, when it is one ("hunter2", "4821", "sunflower")."""
    code_like = bool(_CODE_NOUNS.fullmatch(noun))
    found = values.value_at(rest)
    if found is None:
        return None
    text, strength = found
    if strength is values.Strength.STRONG and "token" in noun and len(text) < 8:
        return None  # tokens are long; "token 2049" is a conference, "the token is 300" a price
    if strength is values.Strength.STRONG:
        return text
    if strength is values.Strength.WORD and not (strong_only or code_like):
        return text
    return None


def _after(text: str, match: re.Match[str] | _Span, *, bare: bool) -> str | None:
    window = text[match.end() : match.end() + _WINDOW]
    if _COMPOUND_TAIL.match(window):
        return None
    noun = match.group()
    link = _AFTER.match(window)
    if link and link.group("value"):
        return _first_value(link.group("value"), noun, strong_only=link.group("set") is not None)
    middle = _MIDDLE.match(window)
    if middle is None:
        return None
    # no verb: memory notes drop it ("wifi password hunter2"); anywhere, a PIN or a named code
    # followed by digits ("PIN 4821", "cvv 123") or any credential followed by something shaped
    # like a password ("is my password Kaffeetasse77 safe") states the value
    value = _first_value(window[middle.end() :], noun, strong_only=True)
    if value is None or bare:
        return value
    if _BARE_CODES.fullmatch(noun) and not (_YEAR.fullmatch(value) or values.trivial_digits(value)):
        return value  # but "pin 2024 calendar" is a year, "default pin 0000" the factory setting
    return value if values.password_shaped(value) else None


def _before(text: str, match: re.Match[str] | _Span) -> str | None:
    """The value in "hunter2 is the wifi code": read backwards over at most two adjectives, a
    determiner and a copula (one of them at least), token by token on a short window."""
    tail = text[match.end() : match.end() + _WINDOW]
    if _COMPOUND_TAIL.match(tail):
        return None
    start = max(0, match.start() - _BEFORE_WINDOW)
    window = text[start : match.start()]
    if window.translate(_WORDY).isalpha():
        return None  # a value before the noun has a digit, a symbol or a quote: none here
    tokens = window.split()
    if start and not text[start - 1].isspace() and tokens:
        tokens = tokens[1:]  # the window cut a token in two
    for adjectives in range(3):
        if adjectives and not _ADJECTIVE.fullmatch(tokens[-adjectives] if len(tokens) >= adjectives else ""):
            break
        rest = tokens[: len(tokens) - adjectives]
        det = 1 if rest and rest[-1] in _DET_WORDS else 0
        cop = 1 if len(rest) > det and rest[-1 - det] in _BEFORE_LINKS else 0
        if not cop and (len(rest) < det + 2 or rest[-2 - det] not in _ASKING):
            continue
        if (det or cop) and len(rest) > det + cop and not rest[-1 - det - cop].isalpha():
            found = values.value_at(rest[-1 - det - cop])
            if found is not None and found[1] is values.Strength.STRONG:
                return found[0]
    return None


#: leetspeak read as letters, one character for one so positions stay put ("p@ssw0rd", "K3nnw0rt")
_LEET = str.maketrans("013457@$", "oieasta" + "s")


@dataclass(frozen=True)
class _Span:
    """A noun found in the leet reading, placed on the text as written (same positions)."""

    text: str
    begin: int
    finish: int

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.finish

    def group(self) -> str:
        return self.text


def named_secret(folded: str, *, bare: bool = False) -> Named | None:
    """A credential noun with its value in ``folded`` text (``canon.fold``), or None: as written,
    then with leetspeak nouns read as words ("p@ssw0rd: x"), then with spelled-out words joined
    ("p a s s w o r d")."""
    found = _named(folded, _NOUN.finditer(folded), bare)
    if found is None:
        leet = folded.translate(_LEET)
        if leet != folded:
            # the noun is read in the leet form; its value is read as written ("pin 4821" stays digits)
            found = _named(folded, (_Span(m.group(), m.start(), m.end()) for m in _NOUN.finditer(leet)
                                    if folded[m.start():m.end()] != m.group()), bare)
    if found is None:
        spelled = unspell(folded)
        # only when the noun itself was spelled out: "combination was 3 5 7" is a lottery draw
        if spelled != folded and len(_NOUN.findall(spelled)) > len(_NOUN.findall(folded)):
            found = _named(spelled, _NOUN.finditer(spelled), bare)
    return found


def _named(folded: str, matches: Iterable[re.Match[str] | _Span], bare: bool) -> Named | None:
    for count, match in enumerate(matches):
        if count == MAX_NOUNS:
            # no ordinary text names a credential this often; checking on would cost the budget
            return Named(match.group(), "")
        value = _after(folded, match, bare=bare) or _before(folded, match)
        if value:
            return Named(match.group(), value)
    return None


def code_after_key(folded_value: str) -> str | None:
    """A code given in a fact whose key names a door, gate, safe...: "code 4711", "the pin is 4711"."""
    for match in _ANY_CODE.finditer(folded_value):
        window = folded_value[match.end() : match.end() + _WINDOW]
        link = _AFTER.match(window) or _MIDDLE.match(window)
        rest = link.group("value") if link is not None and "value" in link.groupdict() else (
            window[link.end():] if link else None)
        found = values.value_at(rest) if rest else None
        if found and found[1] is values.Strength.STRONG:
            return found[0]
    return None


def names_credential(folded_key: str) -> bool:
    """True when a memory key names a credential ("wifi passwort", "garage door code", "mot de passe")."""
    return _NOUN.search(folded_key) is not None
