"""A participant of the workshop server, as the hostile tests play one: pages, cookies, kernel websockets.

Requests go out from a chosen loopback address (127.0.0.2 is another client than
127.0.0.1 to the server) and follow no redirect. A kernel websocket speaks Jupyter's
v1 protocol (what a browser's page asks for) or the legacy one (no subprotocol), and
asks the widgets for their state as a page's widget manager does (a ``comm_open`` on
``jupyter.widget.control``, then ``request_states``); the answer carries the Image
widgets' PNGs as binary buffers.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import time
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any, Optional
from urllib.parse import urlencode, urlsplit

from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

V1 = "v1.kernel.websocket.jupyter.org"
TIMEOUT_S = 60


@dataclass
class Answer:
    """An HTTP answer: status, reason, the cookies it sets, the body as text."""

    status: int
    reason: str
    cookies: SimpleCookie
    body: str
    set_cookie: list[str] = field(default_factory=list)

    @property
    def kernel_id(self) -> Optional[str]:
        """The kernel a Voilà page is connected to (its page config's ``kernelId``)."""
        found = re.search(r'"kernelId": "([0-9a-f-]{36})"', self.body)
        return found.group(1) if found else None


def request(base: str, path: str, *, source: str = "127.0.0.1", method: str = "GET",
            headers: Optional[dict[str, str]] = None, form: Optional[dict[str, str]] = None,
            timeout: float = TIMEOUT_S) -> Answer:
    """One request to ``base + path`` from the address ``source``; redirects are not followed."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=timeout,
                                            source_address=(source, 0))
    body = urlencode(form) if form is not None else None
    sent = dict(headers or {})
    if body is not None:
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        text = response.read().decode("utf-8", errors="replace")
    finally:
        connection.close()
    set_cookie = response.msg.get_all("Set-Cookie") or []
    cookies: SimpleCookie = SimpleCookie()
    for line in set_cookie:
        cookies.load(line)
    return Answer(response.status, response.reason, cookies, text, set_cookie)


def cookie_header(*answers: Answer) -> str:
    """The ``Cookie`` header a browser sends after ``answers`` (name=value of each cookie they set)."""
    jar: dict[str, str] = {}
    for answer in answers:
        jar.update({name: morsel.value for name, morsel in answer.cookies.items()})
    return "; ".join(f"{name}={value}" for name, value in jar.items())


def message(msg_type: str, content: dict, session: str, metadata: Optional[dict] = None) -> dict:
    """A Jupyter message from the browser to the kernel (shell channel)."""
    header = {"msg_id": uuid.uuid4().hex, "username": "", "session": session, "msg_type": msg_type,
              "version": "5.3", "date": "2026-01-01T00:00:00Z"}
    return {"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content}


def encode(msg: dict, v1: bool) -> Any:
    """``msg`` as a websocket frame: v1 (binary, offsets) or legacy (JSON text)."""
    if v1:
        return serialize_msg_to_ws_v1(msg, "shell", pack=lambda part: json.dumps(part).encode())
    return json.dumps({**msg, "channel": "shell", "buffers": []})


async def connect(base: str, token: str, kernel_id: str, *, v1: bool) -> WebSocketClientConnection:
    """A kernel websocket (v1: asking for the v1 subprotocol; else none, the legacy protocol)."""
    session = uuid.uuid4().hex
    url = (f"{base.replace('http', 'ws', 1)}/api/kernels/{kernel_id}/channels"
           f"?session_id={session}&token={token}")
    return await websocket_connect(HTTPRequest(url, request_timeout=TIMEOUT_S), subprotocols=[V1] if v1
                                   else None)


async def request_states(conn: WebSocketClientConnection, *, v1: bool, timeout: float = 30) -> Optional[dict]:
    """Ask the kernel for every widget's state; the ``states`` of its answer, ``None`` if the socket
    closes."""
    session, comm = uuid.uuid4().hex, uuid.uuid4().hex
    opened = message("comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}},
                     session, {"version": "1.0.0"})
    asked = message("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}, session)
    for msg in (opened, asked):
        await conn.write_message(encode(msg, v1), binary=v1)
    deadline = time.monotonic() + timeout
    while True:
        frame = await asyncio.wait_for(conn.read_message(), max(0.1, deadline - time.monotonic()))
        if frame is None:
            return None
        if isinstance(frame, bytes) and v1:
            content = json.loads(deserialize_msg_from_ws_v1(frame)[1][3])
        elif isinstance(frame, str):
            content = json.loads(frame).get("content", {})
        else:
            continue
        data = content.get("data", {}) if isinstance(content, dict) else {}
        if isinstance(data, dict) and data.get("method") == "update_states":
            return data["states"]


async def update_widget(conn: WebSocketClientConnection, model_id: str, state: dict) -> None:
    """Send a widget the "update" message a page sends when a person moves its control."""
    session = uuid.uuid4().hex
    msg = message("comm_msg", {"comm_id": model_id, "data": {"method": "update", "state": state,
                                                            "buffer_paths": []}}, session)
    await conn.write_message(encode(msg, True), binary=True)


def model_with_class(states: dict, css: str) -> str:
    """The id of the widget whose ``_dom_classes`` include ``css`` (exactly one)."""
    (found,) = [k for k, s in states.items() if css in s["state"].get("_dom_classes", ())]
    return found


async def closes_after(conn: WebSocketClientConnection, frame: Any, *, timeout: float = 10) -> Optional[int]:
    """Send ``frame``; the close code if the server closes the socket within ``timeout`` s, else ``None``."""
    await conn.write_message(frame, binary=isinstance(frame, bytes))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got = await asyncio.wait_for(conn.read_message(), max(0.1, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return None
        if got is None:
            return conn.close_code
    return None


def refused_handshake(base: str, token: str, kernel_id: str) -> Optional[int]:
    """Open a legacy (no subprotocol) kernel websocket and ask for the widgets' state.

    The HTTP status if the handshake is refused; else the exchange runs (``None``).
    """
    async def run() -> Optional[int]:
        try:
            conn = await connect(base, token, kernel_id, v1=False)
        except HTTPClientError as error:
            return error.code
        try:
            await request_states(conn, v1=False, timeout=10)
        except asyncio.TimeoutError:
            pass
        finally:
            conn.close()
        return None

    return asyncio.run(run())
