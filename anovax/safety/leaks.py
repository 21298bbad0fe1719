"""Secrets: recognisable tokens and keys, secret-named memory keys, password-like values.

Patterns run on case-preserving ``plain`` text because the token formats are case-sensitive
(``AKIA`` + 16 upper-case characters). A secret must never be typed, searched, spoken or
stored: it would land in a search engine's logs, a window or the memory file that is
replayed into every prompt.
"""

from __future__ import annotations

import re

from anovax.safety.canon import fold, plain

_SECRETS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("AWS access key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[0-9A-Z]{16}\b"),
        ("AWS secret", r"(?i)\baws_?(?:secret_?access_?key|session_?token)\b"),
        ("API key", r"\bsk-(?:proj-|ant-|live-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
        ("Stripe key", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
        ("GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
        ("GitLab token", r"\bglpat-[A-Za-z0-9_\-]{20,}"),
        ("Slack token", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}|hooks\.slack\.com/services/"),
        ("Google API key", r"\bAIza[0-9A-Za-z_\-]{35}"),
        ("private key", r"(?i)-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"),
        ("JWT", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
        ("npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
        ("Hugging Face token", r"\bhf_[A-Za-z0-9]{30,}"),
        ("SendGrid key", r"\bSG\.[\w\-]{16,}\.[\w\-]{16,}"),
        ("Azure key", r"(?i)\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/=]{20,}"),
        ("Discord token", r"\b[MN][A-Za-z\d]{23,25}\.[\w\-]{6}\.[\w\-]{27,}"),
        ("Telegram token", r"\b\d{8,10}:AA[A-Za-z0-9_\-]{33}\b"),
        # from detect-secrets' plugins (Yelp, Apache-2.0): formats the list above lacked
        ("PyPI token", r"\bpypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_\-]{70,}"),
        ("Twilio key", r"\b(?:AC|SK)[a-z0-9]{32}\b"),
        ("Mailchimp key", r"\b[0-9a-f]{32}-us[0-9]{1,2}\b"),
        ("Square OAuth secret", r"\bsq0csp-[0-9A-Za-z_\-]{43}"),
        ("URL credentials", r"://[^\s/?#@:]{1,64}:[^\s/?#@]{1,128}@"),
        # wallet keys: Bitcoin WIF private keys and BIP-32 extended private keys (base58)
        ("wallet private key", r"\b(?:[5KL][1-9A-HJ-NP-Za-km-z]{50,51}|[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,108})\b"),
    )
)

#: "password is X", "pin: 1234", "token=..."
_ASSIGNED = re.compile(
    r"\b(?:password|passwd|pwd|passcode|passphrase|pin(?: code)?|secret|token|api ?key|cvv|cvc)"
    r"\s*(?:is|was|=|:)\s*\S+"
)
#: "password=...", "token: ..." in a search query or URL
_ASSIGNED_STRICT = re.compile(r"\b(?:password|passwd|pwd|passcode|token|secret|api[_ -]?key|access[_ -]?key)\s*[=:]\s*\S{3,}")
_SECRET_KEY_SUBSTR = re.compile(
    r"passw|passwd|passphrase|passcode|secret|credential|apikey|api_key|api key|accesskey|access_key|"
    r"privatekey|private_key|private key|token|seedphrase|seed_phrase|seed phrase|mnemonic|creditcard|"
    r"credit_card|credit card|cardnumber|card_number|card number|securitycode|security_code|recoverycode|"
    r"recovery_code|recovery code|socialsecurity|social_security|social security|bearer"
)
_SECRET_KEY_WORD = re.compile(r"(?:^|[^a-z0-9])(?:pin|pins|pincode|pwd|pw|ssn|cvv|cvv2|cvc|otp|totp|2fa|mfa|iban|creds?)(?:$|[^a-z0-9])")
#: card-shaped numbers: 13-19 digits in one run, or 4-4-4-4(-3) / Amex 4-6-5 groups, with a card prefix
#: (a decimal point next to it means a measurement; a full stop after it ends the sentence)
_CARD = re.compile(r"(?<!\d)(?<!\d\.)(?:[2-6]\d{12,18}|[2-6]\d{3}(?:[ .-]\d{4}){3}(?:[ .-]\d{1,3})?|3\d{3}[ -]\d{6}[ -]\d{5})(?!\d|\.\d)")


def find_secret(text: str) -> str | None:
    """The kind of secret token in ``text``, or None."""
    raw = plain(text)
    for name, pattern in _SECRETS:
        if pattern.search(raw):
            return name
    return None


def assigned_secret(text: str) -> bool:
    """True for prose that states a secret ("my wifi password is X")."""
    return bool(_ASSIGNED.search(fold(text)))


def assigned_in_query(text: str) -> bool:
    """True for "password=..." or "token: ..." (a search would hand the value to a third party)."""
    return bool(_ASSIGNED_STRICT.search(fold(text)))


def is_secret_key(key: str) -> bool:
    """True for a memory key naming a secret (wifi_password, bank pin, api_key, ssn...)."""
    folded = fold(key)
    return bool(_SECRET_KEY_SUBSTR.search(folded) or _SECRET_KEY_WORD.search(folded))


def looks_like_password(value: str) -> bool:
    """One token of 8+ characters mixing upper, lower, digits and symbols (Tr0ub4dor&3)."""
    token = value.strip()
    if len(token) < 8 or any(ch.isspace() for ch in token):
        return False
    classes = (
        any(ch.islower() for ch in token),
        any(ch.isupper() for ch in token),
        any(ch.isdigit() for ch in token),
        any(not ch.isalnum() for ch in token),
    )
    return all(classes)


def has_card_number(text: str) -> bool:
    """True for a 13-19 digit number passing the Luhn check (a payment card)."""
    for match in _CARD.finditer(plain(text)):
        digits = [int(d) for d in match.group() if d.isdigit()]
        if not 13 <= len(digits) <= 19:
            continue
        total = 0
        for i, d in enumerate(reversed(digits)):
            if i % 2:
                d *= 2
                if d > 9:
                    d -= 9
            total += d
        if total % 10 == 0 and len(set(digits)) > 1:
            return True
    return False
