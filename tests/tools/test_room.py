"""mtlearn.tools.room: the room's address and what the terminal shows."""

from __future__ import annotations

import ipaddress

import pytest

from mtlearn.tools import room


def test_lan_address_is_a_usable_address_or_none():
    address = room.lan_address()
    if address is not None:
        parsed = ipaddress.ip_address(address)
        assert not (parsed.is_loopback or parsed.is_unspecified)


def test_lan_address_falls_back_to_the_host_name_when_no_route(monkeypatch):
    class NoRoute:
        def __init__(self, *a):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def connect(self, where):
            raise OSError("Network is unreachable")

    monkeypatch.setattr(room.socket, "socket", NoRoute)
    monkeypatch.setattr(room.socket, "getaddrinfo",
                        lambda *a: [(2, 2, 17, "", ("127.0.1.1", 0)), (2, 2, 17, "", ("192.0.2.9", 0))])
    assert room.lan_address() == "192.0.2.9"
    monkeypatch.setattr(room.socket, "getaddrinfo", lambda *a: [(2, 2, 17, "", ("127.0.1.1", 0))])
    assert room.lan_address() is None


@pytest.mark.parametrize("bad", ["", "localhost", "300.1.1.1", "0.0.0.0:8866"])
def test_check_ip_refuses_what_is_not_an_address(bad):
    with pytest.raises(ValueError, match="--ip: expected an IP address"):
        room.check_ip(bad)


def test_the_message_without_qrcode_says_how_to_get_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_qrcode(name, *a, **k):
        if name == "qrcode":
            raise ImportError(name)
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_qrcode)
    text = room.room_message("http://192.0.2.9:8866/?token=t")
    assert "http://192.0.2.9:8866/?token=t" in text and "pip install qrcode" in text
