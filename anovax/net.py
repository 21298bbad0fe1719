"""Network facts about this machine, shared by the phone remote and the doctor (no dependencies)."""

from __future__ import annotations

import socket

#: TEST-NET-1 (RFC 5737): never routed anywhere, so a "connect" to it only picks a route
ROUTE_PROBE = ("192.0.2.1", 9)


def lan_address(route_probe: tuple[str, int] = ROUTE_PROBE) -> str | None:
    """This machine's IPv4 address on the LAN (the one a default route would use), or None.

    A UDP connect sends no packet; it only asks the kernel which source address it would pick.
    None, never 127.0.0.1, when there is no such address: a phone cannot reach loopback, so each
    caller says what that means (the remote binds to loopback, the doctor says "no LAN address").
    ``route_probe`` is the address whose route is asked for (tests point it elsewhere)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(route_probe)
        address = probe.getsockname()[0]
    except OSError:  # no default route (offline, or only loopback)
        return None
    finally:
        probe.close()
    return None if not address or address.startswith(("127.", "0.")) else address


def url_host(host: str) -> str:
    """A host as it goes in a URL: an IPv6 literal in brackets (``http://[::1]:8765/``)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
