"""Links and addresses in search queries and typed text: schemes, UNC shares, data in URLs.

A search helper that ever opens its argument as a URL would run ``javascript:`` or launch a
``ms-msdt:`` handler (Follina); the executor must URL-encode queries into a fixed search URL,
and this is the second line. Like the WHATWG URL parser, TAB/LF/CR are removed anywhere and
C0 controls and spaces trimmed at the ends before the scheme is read, so ``java\\nscript:``
is ``javascript:``.
"""

from __future__ import annotations

import re

from anovax.safety.canon import plain

_WHATWG_REMOVED = str.maketrans("", "", "\t\n\r")
_LEADING_JUNK = " \"'<([{`"
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")
#: schemes that run script even with a space after the colon
_SCRIPT_SCHEMES = frozenset({"javascript", "vbscript", "livescript", "jscript"})
#: the body of a data: URL ("data:text/html,...", "data:,..."), as opposed to "Data: 5 rows"
_DATA_BODY = re.compile(r"\A\s*(?:[a-z]+/[\w.+-]+)?(?:;[\w=.-]+)*[;,]")

#: schemes that run code, open local files or hand the text to an OS protocol handler
DANGEROUS_SCHEMES = frozenset(
    """javascript vbscript livescript jscript data file filesystem blob mhtml mk its ms-its hcp jar view-source
    search-ms search ms-search shell smb cifs nfs afp webdav dav ftp ftps sftp ssh telnet tn3270 rlogin
    ldap ldaps gopher dict tftp jnlp intent chrome chrome-extension edge about res ie.http callto sip
    vscode vscode-insiders steam zoommtg msteams mailto x-apple.systempreferences macappstore itms-services
    ssh-keygen cmd powershell""".split()
)
_ANYWHERE = re.compile(
    r"(?<![\w.+\-])(?:javascript|vbscript|livescript|jscript|search-ms|ms-[a-z0-9-]+|mhtml|view-source|hcp|shell):(?!\s)"
    r"|(?<![\w.+\-])(?:file|smb|nfs|afp|jar):/|(?<![\w.+\-])data:[a-z]+/[a-z0-9.+-]+[;,]"
)
_UNC = re.compile(r"\\\\[^\\\s]+\\|\\\\[?.]\\|^//[^/\s]+/")
#: gaps bounded by the query cap (300): unbounded, every address in a run of them re-read the run
_URL_WITH_QUERY = re.compile(
    r"(?:https?://|(?<![\w@.-])(?:[\w-]+\.)+[a-z]{2,}(?::\d+)?/)[^\s?#]{0,300}\?[^\s#]{0,300}=", re.I
)
#: a query that is one path (no words after it) or ends in a file name with an extension
_LONE_PATH = re.compile(r"^\S+$|\.\w{1,5}$")
_URL_USERINFO = re.compile(r"https?://[^\s/@]+@", re.I)
_URLISH = re.compile(
    r"https?://|\bwww\.|(?<![\w@.-])(?:[\w-]+\.)+[a-z]{2,}(?::\d+)?/|\?[\w.-]+=|\b\d{1,3}(?:\.\d{1,3}){3}\b", re.I
)


def _url_text(text: str) -> str:
    stripped = plain(text).translate(_WHATWG_REMOVED)
    return stripped.strip("".join(map(chr, range(0x21)))).casefold()


def scheme_problem(text: str, *, query: bool) -> str | None:
    """A scheme that must not be opened, at the start (as a URL parser reads it) or anywhere."""
    url = _url_text(text).lstrip(_LEADING_JUNK)
    match = _SCHEME.match(url)
    if match:
        scheme = match.group(1)
        rest = url[match.end(1) + 1 :]
        if scheme in _SCRIPT_SCHEMES or (scheme == "data" and _DATA_BODY.match(rest)):
            return f"{scheme}: link"  # browsers run "javascript: alert(1)" despite the space
        dangerous = scheme in DANGEROUS_SCHEMES or scheme.startswith("ms-")
        if scheme in ("http", "https") or (rest[:1].isspace() or (not rest and not dangerous)):
            pass  # a web link, or prose such as "Note: buy milk"
        elif dangerous or rest.startswith("//"):
            return f"{scheme}: link"
        elif query and len(scheme) == 1 and rest[0] in "\\/" and _LONE_PATH.search(url):
            # C:\Windows\System32\cmd.exe handed to a URL opener; a question that starts with a
            # path ("C:\Windows\System32 is huge, why") is only text in the URL-encoded query
            return "local file path"
    if not query:
        # typed text: every line is submitted by its Enter, so check each line's start too
        for line in plain(text).splitlines()[1:]:
            problem = scheme_problem(line, query=False) if line.strip() else None
            if problem:
                return problem
    if query:
        # the executor URL-encodes queries, so only the start is ever read as a link;
        # "what does javascript:void(0) do" is a fair question
        return None
    found = _ANYWHERE.search(_url_text(text))
    return f"{found.group()} link" if found else None


#: a local file or folder typed where an address goes: C:\x, C:/x, /etc, ~/x, %APPDATA%, $HOME, ./x
_LOCAL_PATH = re.compile(r"^(?:[a-z]:[\\/]|[\\/]|~[\\/]|%\w+%|\$\w+|\.{1,2}[\\/])")


def local_problem(text: str) -> str | None:
    """"local file path" for an address-bar entry that opens a file or folder of this computer."""
    return "local file path" if _LOCAL_PATH.match(_url_text(text).lstrip(_LEADING_JUNK)) else None


def unc_problem(text: str) -> bool:
    """True for a UNC path (\\\\host\\share): opening one leaks the NTLM hash to that host."""
    return bool(_UNC.search(plain(text).translate(_WHATWG_REMOVED)))


def credentials_in_url(text: str) -> bool:
    """``https://user:password@host/``: a login handed to whatever the address names."""
    return bool(_URL_USERINFO.search(plain(text)))


def carries_data(query: str) -> bool:
    """True when a search query holds a URL with a query string (data sent to a third party)."""
    text = plain(query)
    return bool(_URL_WITH_QUERY.search(text) or _URL_USERINFO.search(text))


def is_urlish(text: str) -> bool:
    """True for text that looks like a web address (for the address-bar + paste rule)."""
    return bool(_URLISH.search(plain(text)))
