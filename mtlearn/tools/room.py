"""Serving the workshop to a room: the address participants type, and a QR code of it.

``python -m mtlearn.tools.workshop --ip=0.0.0.0`` (``make workshop HOST=0.0.0.0``) listens
on every interface; the URL printed for the room uses this machine's LAN address
(:func:`lan_address`: the address of the interface the default route leaves by, found
without sending anything) and carries the token, and :func:`room_message` adds a QR
code of it for phones and laptops to scan.

>>> room_host("192.168.1.20", lan=lambda: None)
('192.168.1.20', None)
>>> room_host("0.0.0.0", lan=lambda: "10.0.0.7")
('10.0.0.7', None)
>>> room_host("0.0.0.0", lan=lambda: None)[0]
'127.0.0.1'
>>> room_url("10.0.0.7", 8866, "abc")
'http://10.0.0.7:8866/?token=abc'
>>> room_url("fe80::1", 8866, "abc")
'http://[fe80::1]:8866/?token=abc'
"""

from __future__ import annotations

import io
import ipaddress
import socket
from collections.abc import Callable
from typing import Optional

__all__ = ["check_ip", "lan_address", "room_host", "room_message", "room_url"]

#: A private address the default route leads to: connecting a UDP socket to it sends nothing.
_PROBE = ("10.255.255.255", 1)


def check_ip(text: str) -> str:
    """``text`` if it is an IP address to listen on, else ``ValueError`` saying so.

    >>> check_ip("0.0.0.0")
    '0.0.0.0'
    >>> check_ip("my laptop")
    Traceback (most recent call last):
    ...
    ValueError: --ip: expected an IP address of this machine (0.0.0.0: every interface), got 'my laptop'
    """
    try:
        ipaddress.ip_address(text)
    except ValueError:
        raise ValueError("--ip: expected an IP address of this machine (0.0.0.0: every interface), "
                         f"got {text!r}") from None
    return text


def _usable(address: str) -> bool:
    parsed = ipaddress.ip_address(address)
    return not (parsed.is_loopback or parsed.is_unspecified or parsed.is_link_local)


def lan_address() -> Optional[str]:
    """This machine's address on the local network, or ``None`` when it has none.

    First the address of the interface the default route uses (a UDP socket
    "connected" to a private address: the system picks the interface, no packet
    is sent), then the addresses the host name resolves to.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = probe.getsockname()[0]
        if _usable(address):
            return address
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((info[4][0] for info in infos if _usable(info[4][0])), None)


def room_host(ip: str, lan: Optional[Callable[[], Optional[str]]] = None) -> tuple[str, Optional[str]]:
    """The host for the printed URL when listening on ``ip``, and a note when it falls back to 127.0.0.1."""
    if not ipaddress.ip_address(ip).is_unspecified:
        return ip, None
    address = (lan or lan_address)()
    if address is None:
        return "127.0.0.1", ("no local network address found: the URL below works on this machine only; "
                             "participants need this machine's address in its place")
    return address, None


def room_url(host: str, port: int, token: str) -> str:
    """The workshop's URL with the token."""
    shown = f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    return f"http://{shown}:{port}/?token={token}"


def room_message(url: str, note: Optional[str] = None) -> str:
    """What the terminal shows the instructor: the URL for the room and a QR code of it.

    >>> text = room_message("http://10.0.0.7:8866/?token=abc")
    >>> text.splitlines()[1]
    '    http://10.0.0.7:8866/?token=abc'
    """
    lines = ["The workshop, for the room (anyone with this URL, token included, can open it):", f"    {url}"]
    if note:
        lines.append(f"Note: {note}")
    try:
        import qrcode  # the workshop's dependency (pyproject: notebooks)
    except ImportError:
        lines.append("(no QR code: the qrcode package is not installed; pip install qrcode)")
        return "\n".join(lines)
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out)
    return "\n".join([*lines, out.getvalue()])
