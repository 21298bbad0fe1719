"""Secret numbers recognised by their format: US social security numbers and IBANs.

Payment cards (Luhn) stay in ``leaks.has_card_number``. Each format carries its own validity
rule so that ordinary numbers do not trip it: an SSN's area is never 000, 666 or 900-999 (nor
its group 00 or serial 0000); an IBAN has a known country code, that country's length and a
mod-97 check of 1 (ISO 13616), so a random "AB12..." token passes one time in 97 at most.
python-stdnum has both rules, but it is not a dependency and the two checks are short.
"""

from __future__ import annotations

import re

#: NNN-NN-NNNN, or the same groups apart by spaces or dots ("521 48 7390" as people dictate it);
#: the 3-2-4 grouping is not how phone numbers or prices are written
_SSN = re.compile(r"(?<![\d.-])(\d{3})([- .])(\d{2})\2(\d{4})(?![\d-]|\.\d)")

#: one character at a time with an optional separator: linear, and the trailing words a greedy
#: match picks up are cut off by the country's length below
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ \-]?[A-Za-z0-9]){11,34}")

#: ISO 13616 registry: country code and IBAN length
_IBAN_LENGTHS: dict[str, int] = {
    code: int(length)
    for code, length in (
        pair.split(":")
        for pair in """AD:24 AE:23 AL:28 AT:20 AZ:28 BA:20 BE:16 BG:22 BH:22 BI:27 BR:29 BY:28 CH:21 CR:22
        CY:28 CZ:24 DE:22 DJ:27 DK:18 DO:28 EE:20 EG:29 ES:24 FI:18 FK:18 FO:18 FR:27 GB:22 GE:22 GI:23
        GL:18 GR:27 GT:28 HR:21 HU:28 IE:22 IL:23 IQ:23 IS:26 IT:27 JO:30 KW:30 KZ:20 LB:28 LC:32 LI:21
        LT:20 LU:20 LV:21 LY:25 MC:27 MD:24 ME:22 MK:19 MN:20 MR:27 MT:31 MU:30 NI:28 NL:18 NO:15 OM:23
        PK:24 PL:28 PS:29 PT:25 QA:29 RO:24 RS:22 RU:33 SA:24 SC:31 SD:18 SE:24 SI:19 SK:24 SM:27 SO:23
        ST:25 SV:28 TL:23 TN:24 TR:26 UA:29 VA:22 VG:24 XK:20""".split()
    )
}


def has_ssn(text: str) -> bool:
    """A US social security number written NNN-NN-NNNN (or with spaces) that could have been issued."""
    for match in _SSN.finditer(text):
        area, _sep, group, serial = match.groups()
        if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
            continue
        return True
    return False


def _iban_valid(compact: str) -> bool:
    length = _IBAN_LENGTHS.get(compact[:2])
    if length is None or len(compact) < length:
        return False
    iban = compact[:length]
    if not iban[2:4].isdigit():
        return False
    rearranged = iban[4:] + iban[:4]
    try:
        number = int("".join(str(int(ch, 36)) for ch in rearranged))
    except ValueError:
        return False
    return number % 97 == 1


def has_iban(text: str) -> bool:
    """An IBAN (any of the registry's countries) with a valid check, spaced or not."""
    for match in _IBAN.finditer(text):
        compact = re.sub(r"[ \-]", "", match.group()).upper()
        if _iban_valid(compact):
            return True
    return False
