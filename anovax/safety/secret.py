"""Is there a secret in this text, or in this fact? The one place the secret rules meet.

Layers, each its own module: token formats (``leaks``: API keys, private keys, JWTs), numbers by
format (cards by Luhn in ``leaks``; SSNs and IBANs in ``secret_numbers``), recovery phrases
(``seed``) and credentials named in words (``secret_words``). ``in_text`` is for text that leaves
the machine or is said aloud (searches, speech, an address bar); ``in_fact`` adds what only a
memory fact can say: a key that names the secret or its holder (``secret_keys``:
``wifi_password``, ``garage``, ``visa``) and notes written without a verb ("PIN 4821"). Text
typed into an editor is *not* screened here beyond token formats: a person may dictate their
own password into a login field. Secrets already in memory are ``stored``'s job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from anovax.safety import leaks, secret_keys, secret_numbers, secret_words, seed
from anovax.safety.canon import fold, plain


@dataclass(frozen=True)
class Finding:
    """What kind of secret was found, and the secret itself when it can be cut out of the text."""

    kind: str
    #: the value ("hunter2" in "my password is hunter2"); empty when the whole text is the secret
    value: str = ""


#: a sort code with an account number ("30-90-89 87654321"), or an identity or bank number named and
#: given in one breath ("passport number 123456789", "routing no. 021000021")
_IDENTITY_NUMBER = re.compile(
    r"(?<!\d)\d{2}[- ]\d{2}[- ]\d{2}(?!\d)\D{0,24}(?<!\d)\d{8}(?!\d)"
    r"|\b(?:passport|account|acct|licen[cs]e|national insurance|insurance|tax|medicare|medicaid|nhs|"
    r"social security|member(?:ship)?)\s*(?:number|no|num|code|#)?\.?\s*(?:is\s+|:\s*|=\s*)?[a-z]{0,2}\d(?:[ -]?\d){7,}(?!\d)"
)


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
    if _IDENTITY_NUMBER.search(fold(text)):
        return Finding("bank or identity number")
    if seed.has_seed_phrase(text):  # its own normal form: zero-width gaps still part words
        return Finding("recovery phrase")
    return None


@lru_cache(maxsize=4096)
def in_fact(key: str, value: str) -> Finding | None:
    """A secret in a fact a plan asks to remember (or one already remembered)."""
    # ``bare`` below finds everything in_text's words would, and more: one pass over the value
    found = _by_format(value) or in_text(key)
    if found:
        return found
    kind = secret_keys.key_secret(key, value)
    if kind:
        return Finding(kind, value)
    named = secret_words.named_secret(fold(value), bare=True)
    if named:
        return Finding(f"{named.noun} with a value", named.value)
    if leaks.looks_like_password(value):
        return Finding("a password-like value", value)
    return None
