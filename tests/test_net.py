"""anovax.net.lan_address: the one copy the phone remote and the doctor share."""

from __future__ import annotations

import ipaddress

from anovax import doctor, net
from anovax.remote import runtime


def test_remote_and_doctor_use_the_same_lan_address():
    assert runtime.lan_address is net.lan_address
    assert doctor.lan_address is net.lan_address
    assert doctor.Probes().lan_address is net.lan_address


def test_no_route_is_none_not_loopback():
    # a UDP connect to the broadcast address is refused (EACCES) without SO_BROADCAST: no route
    assert net.lan_address(("255.255.255.255", 9)) is None


def test_a_loopback_source_address_is_none():
    # the kernel picks 127.0.0.1 to reach 127.0.0.1; a phone could never use that address
    assert net.lan_address(("127.0.0.1", 9)) is None


def test_the_default_route_gives_an_ipv4_lan_address_or_none():
    address = net.lan_address()
    if address is not None:
        parsed = ipaddress.ip_address(address)
        assert parsed.version == 4 and not parsed.is_loopback and not parsed.is_unspecified
