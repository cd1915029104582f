"""The workshop app's server: Voilà with a token, idle kernels culled, places capped, kernels limited.

Every visit of the workshop page starts a kernel of its own (about 150 MB). On a
shared machine that must not be open to anyone who finds the port, nor grow
without bound, nor be stopped by one participant, so ``make workshop`` runs
``python -m mtlearn.tools.workshop``, which starts Voilà (:class:`WorkshopVoila`)
with these settings:

* a token: Voilà generates one (or takes ``$JUPYTER_TOKEN``) and prints the URL
  with it, as JupyterLab does; a request without it is sent to a login page, and no
  kernel starts. The login cookie is ``SameSite=Lax`` and lasts :data:`LOGIN_HOURS`
  hours (jupyter_server's own: 30 days);
* listening on 127.0.0.1 only (``--ip=0.0.0.0``: every interface, for a room; the token
  stays required, and the URL printed uses the machine's LAN address, with a QR code of
  it: :mod:`mtlearn.tools.room`), notebook sources stripped;
* mtlearn's page template (``mtlearn/tools/voila/templates/mtlearn``): Voilà's lab
  template without its links to Font Awesome on a CDN, so an offline room's page
  asks no other host for anything;
* a kernel idle for ``cull_idle_timeout`` seconds and no longer shown in any page
  is shut down (checked every ``cull_interval`` seconds); a student's open page
  keeps its kernel, and closing or reloading the page shuts it down at once: mtlearn's
  template asks for that from the moment the page starts (Voilà's own request is set up
  only once its JavaScript has loaded, seconds later), with the ``_xsrf`` cookie, which
  :func:`prelaunch_hook` sets;
* at most ``max_kernels`` kernels at once, and at most ``max_kernels_per_client``
  for one client (:class:`CappedKernelManager`): one more visit gets "503 Service
  Unavailable" (every place taken) or "429 Too Many Requests" (the client's places
  taken) and a sentence saying why. A client is the address a request comes from;
  on the loopback (where everyone's address is 127.0.0.1) it is the user account
  that opened the connection, as the system's socket table says (:func:`client_of`);
* no kernel for a navigation from another site that does not carry the token
  (the browser's ``Sec-Fetch-Site`` header): another site cannot spend a
  participant's places by sending their browser here;
* every kernel runs with a CPU-time and a memory limit (:class:`LimitedKernelManager`,
  ``setrlimit`` before the kernel starts): a kernel a participant pins stops, not the
  machine;
* kernel websockets speak Jupyter's v1 protocol only
  (:class:`WorkshopKernelWebsocketHandler`): a socket that does not ask for it is
  refused (Voilà reads every frame it sends as v1, and a legacy frame read so
  loops ~1e17 times on the server's only thread), and a frame whose layout does
  not fit in it closes the socket (jupyter_server trusts the count of parts a frame
  states, the same loop).

>>> argv = voila_argv("notebooks/workshop.ipynb", port=8866, max_kernels=3)
>>> [a for a in argv if "max_kernels=" in a or "token" in a or "ip=" in a]
['--token', '--Voila.ip=127.0.0.1', '--CappedKernelManager.max_kernels=3']
>>> "--CappedKernelManager.max_kernels_per_client=3" in argv
True
>>> [a for a in argv if a.startswith("--template")]
['--template=mtlearn']
>>> (TEMPLATE_ROOT / "voila" / "templates" / TEMPLATE / "conf.json").is_file()
True
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import resource
import secrets
import struct
import sys
from collections import Counter
from collections.abc import Sequence
from contextvars import ContextVar
from functools import partial
from pathlib import Path
from typing import Any, Optional

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from tornado import web
from tornado.httputil import HTTPServerRequest
from traitlets import Integer
from voila.app import Voila
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from mtlearn.tools.room import check_ip, room_host, room_message, room_url

__all__ = ["CappedKernelManager", "LimitedKernelManager", "WorkshopKernelWebsocketHandler", "WorkshopVoila",
           "client_of", "prelaunch_hook", "print_room_url", "v1_parts", "voila_argv", "main"]

#: The page's template (mtlearn/tools/voila/templates/mtlearn): Voilà's lab template without links to a CDN.
TEMPLATE = "mtlearn"
TEMPLATE_ROOT = Path(__file__).parent  # holds voila/templates/<TEMPLATE>, as a Jupyter data folder does

#: Defaults: a room of students; ten idle minutes; look once a minute.
MAX_KERNELS = 20
CULL_IDLE_TIMEOUT_S = 600
CULL_INTERVAL_S = 60
#: Places one client may hold: a page, a second tab, a reload before the first page's kernel is gone.
MAX_KERNELS_PER_CLIENT = 3
#: A kernel's limits: CPU seconds in all (a student uses a few minutes in a day; at the limit the
#: kernel is stopped) and memory (a rendered page's kernel holds ~160 MB resident, ~340 MB of data).
KERNEL_CPU_SECONDS = 1800
KERNEL_MEMORY_BYTES = 1024**3
#: The login cookie's life: a workshop day.
LOGIN_HOURS = 12

#: Jupyter's kernel websocket protocol (jupyter_server 2); the legacy one (no subprotocol) is refused.
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: A v1 frame states its number of offsets: channel, header, parent header, metadata, content, buffers.
_V1_MIN_OFFSETS = 6
_V1_MAX_OFFSETS = 1024
#: Sec-Fetch-Site values of a request another site caused (a link, a form, a script's navigation).
_OTHER_SITE = frozenset({"cross-site", "same-site"})

# The client the request being served comes from, for start_kernel (set by prelaunch_hook in the
# same task: a context variable is per request, not a global shared between them).
_REQUEST_CLIENT: ContextVar[Optional[str]] = ContextVar("mtlearn_workshop_client", default=None)


# --------------------------------------------------------------------------- kernels: places and limits


def set_kernel_limits(cpu_seconds: int, memory_bytes: int) -> None:
    """Limit this process (a kernel about to start): CPU seconds, data memory, no core file.

    At ``cpu_seconds`` the process gets SIGXCPU (it stops), ten seconds later SIGKILL;
    beyond ``memory_bytes`` of data an allocation fails (Python raises ``MemoryError``,
    which the explorers show as a message). A limit already lower is kept.
    """
    def lower(wanted: int, current: int) -> int:
        return wanted if current == resource.RLIM_INFINITY else min(wanted, current)

    for which, soft, hard in ((resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 10),
                              (resource.RLIMIT_DATA, memory_bytes, memory_bytes),
                              (resource.RLIMIT_CORE, 0, 0)):
        current_soft, current_hard = resource.getrlimit(which)
        hard = lower(hard, current_hard)
        resource.setrlimit(which, (min(lower(soft, current_soft), hard), hard))


class LimitedKernelManager(ServerKernelManager):
    """jupyter_server's kernel manager whose kernels start with :func:`set_kernel_limits`.

    >>> LimitedKernelManager.cpu_seconds.default_value, LimitedKernelManager.memory_bytes.default_value
    (1800, 1073741824)
    """

    cpu_seconds = Integer(KERNEL_CPU_SECONDS, config=True,
                          help="CPU seconds a kernel may use in all; then it is stopped (RLIMIT_CPU).")
    memory_bytes = Integer(KERNEL_MEMORY_BYTES, config=True,
                           help="Bytes of data a kernel may hold; beyond, allocations fail (RLIMIT_DATA).")

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> Any:
        # jupyter_client's documented place to change how the kernel process starts (a restart too).
        kw.setdefault("preexec_fn", partial(set_kernel_limits, self.cpu_seconds, self.memory_bytes))
        return await super()._async_launch_kernel(kernel_cmd, **kw)


class CappedKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager that caps the kernels, in all and per client.

    ``start_kernel`` counts the kernels running and those still starting (Voilà
    starts one per page request, possibly several at once) and answers HTTP 503
    beyond ``max_kernels``, HTTP 429 beyond ``max_kernels_per_client`` for the
    client :func:`prelaunch_hook` noted (0: no limit per client). :func:`voila_argv`
    makes its kernels :class:`LimitedKernelManager`'s.

    >>> CappedKernelManager.max_kernels.default_value == MAX_KERNELS
    True
    >>> CappedKernelManager.max_kernels_per_client.default_value == MAX_KERNELS_PER_CLIENT
    True
    """

    max_kernels = Integer(MAX_KERNELS, config=True,
                          help="At most this many kernels at once; a request for one more gets HTTP 503.")
    max_kernels_per_client = Integer(
        MAX_KERNELS_PER_CLIENT, config=True,
        help="At most this many kernels for one client (an address; on the loopback, a user account); "
             "one more gets HTTP 429. 0: no limit per client.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # asyncio: one thread, no lock needed. Kernels asked for and not yet listed, per client:
        self._starting: Counter[Optional[str]] = Counter()
        self._client_of: dict[str, str] = {}  # kernel id -> the client it was started for

    def kernels_of(self, client: str) -> int:
        """How many kernels ``client`` holds (running or starting)."""
        running = set(self.list_kernel_ids())
        self._client_of = {k: c for k, c in self._client_of.items() if k in running}  # forget those gone
        return sum(c == client for c in self._client_of.values()) + self._starting[client]

    def _check_places(self, client: Optional[str]) -> None:
        cap = self.max_kernels_per_client
        if client is not None and cap > 0 and self.kernels_of(client) >= cap:
            self.log.warning("refusing a kernel: %s holds %d, the cap per client", client, cap)
            raise web.HTTPError(429, reason=f"You already have {cap} workshop pages open, the most one "
                                            "participant may; close one (its place is "
                                            "freed at once) and reload")
        running = len(self.list_kernel_ids())
        if running + sum(self._starting.values()) >= self.max_kernels:
            self.log.warning("refusing a kernel: %d running, the cap is %d", running, self.max_kernels)
            raise web.HTTPError(503, reason=f"All {self.max_kernels} places are taken; try "
                                            "again in a few minutes")

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """Start a kernel as Jupyter does, unless the places are taken (then HTTP 503 or 429)."""
        if kwargs.get("kernel_id") is not None:  # an existing kernel: no new place
            return await super().start_kernel(*args, **kwargs)
        client = _REQUEST_CLIENT.get()
        self._check_places(client)
        self._starting[client] += 1
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting[client] -= 1
        if client is not None:
            self._client_of[kernel_id] = client
        return kernel_id


# --------------------------------------------------------------------------- who asks


def _proc_address(text: str) -> tuple[str, int]:
    """``"0100007F:1F90"`` (/proc/net/tcp: the address's 32-bit words in host order, then the port) ->
    address, port.

    >>> _proc_address("0100007F:1F90") if sys.byteorder == "little" else ("127.0.0.1", 8080)
    ('127.0.0.1', 8080)
    """
    hex_address, hex_port = text.split(":")
    packed = b"".join(struct.pack("=I", int(hex_address[k:k + 8], 16)) for k in range(0, len(hex_address), 8))
    return _plain(packed), int(hex_port, 16)


def _plain(address: Any) -> str:
    """An address as text, an IPv4 address mapped into IPv6 as the IPv4 one.

    >>> _plain("::ffff:127.0.0.1"), _plain("::1")
    ('127.0.0.1', '::1')
    """
    parsed = ipaddress.ip_address(address)
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return str(parsed)


def loopback_uid(peer: tuple[str, int], local: tuple[str, int],
                 tables: Sequence[str] = ("/proc/net/tcp", "/proc/net/tcp6")) -> Optional[int]:
    """The user id that owns the client end of a loopback TCP connection (Linux), or ``None``.

    ``peer`` is the client's (address, port) as the server sees it, ``local`` the
    server's end; the client's socket is the one listed with them swapped.
    """
    want = (_plain(peer[0]), peer[1]), (_plain(local[0]), local[1])
    for table in tables:
        try:
            with open(table, encoding="ascii") as rows:
                next(rows, None)  # the header line
                for row in rows:
                    fields = row.split()
                    if len(fields) > 7 and (_proc_address(fields[1]), _proc_address(fields[2])) == want:
                        return int(fields[7])
        except (OSError, ValueError):
            continue
    return None


def client_of(request: HTTPServerRequest) -> str:
    """Who ``request`` comes from: its address, and on the loopback the user account that connected.

    Everyone on the machine (and everyone through an SSH tunnel) reaches 127.0.0.1 from
    127.0.0.1, so there the client is the account, read from the kernel's socket table.
    """
    address = request.remote_ip or "unknown"
    try:
        sock = request.connection.stream.socket  # type: ignore[union-attr]
        peer, local = sock.getpeername()[:2], sock.getsockname()[:2]
        loopback = ipaddress.ip_address(_plain(peer[0])).is_loopback
    except (AttributeError, OSError, ValueError):
        return address
    uid = loopback_uid(peer, local) if loopback else None
    return address if uid is None else f"{address} uid {uid}"


def prelaunch_hook(handler: web.RequestHandler, notebook: Any = None, cwd: Any = None) -> None:
    """Voilà calls this before it starts a page's kernel (``VoilaConfiguration.prelaunch_hook``).

    A navigation another site caused (``Sec-Fetch-Site`` cross-site or same-site)
    without the token in the request gets HTTP 403 and starts no kernel. Otherwise
    the request's client (:func:`client_of`) is noted for
    :meth:`CappedKernelManager.start_kernel`, and the ``_xsrf`` cookie is set: the
    page sends it with the shutdown request it makes when closed.
    """
    site = handler.request.headers.get("Sec-Fetch-Site", "").strip().lower()
    if site in _OTHER_SITE and not getattr(handler, "token_authenticated", False):
        raise web.HTTPError(403, reason="A link from another site starts no workshop page; "
                                        "open the workshop's own address (the URL with the token)")
    _REQUEST_CLIENT.set(client_of(handler.request))
    handler.xsrf_token  # noqa: B018 - reading it sets the _xsrf cookie on this response


# --------------------------------------------------------------------------- the kernel websocket


def v1_parts(frame: bytes) -> Optional[list[bytes]]:
    """The parts of a v1 kernel websocket frame (channel, header, parent header, metadata,
    content, buffers), or ``None`` when the frame's layout does not fit in it.

    A v1 frame starts with n (8 bytes, little-endian), then n offsets (8 bytes each);
    part k runs from offset k to offset k + 1, the last offset is the frame's end.
    Everything is checked against the frame's length before anything is read.

    >>> from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
    >>> frame = serialize_msg_to_ws_v1([b'{"msg_type": "status"}', b"{}", b"{}", b"{}"], "iopub")
    >>> v1_parts(frame)[:2]
    [b'iopub', b'{"msg_type": "status"}']
    >>> v1_parts((10**17).to_bytes(8, "little") + frame[8:]) is None  # a count the frame cannot hold
    True
    """
    if len(frame) < 8 * (_V1_MIN_OFFSETS + 1):
        return None
    count = int.from_bytes(frame[:8], "little")
    if not _V1_MIN_OFFSETS <= count <= _V1_MAX_OFFSETS or 8 * (count + 1) > len(frame):
        return None
    offsets = [int.from_bytes(frame[8 * k:8 * k + 8], "little") for k in range(1, count + 1)]
    if offsets[0] != 8 * (count + 1) or offsets[-1] != len(frame) or offsets != sorted(offsets):
        return None
    return [frame[start:end] for start, end in zip(offsets, offsets[1:])]


def _message_type(parts: Optional[list[bytes]]) -> Optional[str]:
    try:
        header = json.loads(parts[1]) if parts else None
    except ValueError:
        return None
    return header.get("msg_type") if isinstance(header, dict) else None


class WorkshopKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """Voilà's kernel websocket, v1 protocol only, every frame's layout checked before it is read.

    The handshake is refused (HTTP 400) unless the client asks for :data:`V1_PROTOCOL`
    (jupyter_server then selects it); a frame from the client that is not a v1 message closes the socket
    (1007); the frames sent are read with :func:`v1_parts` (Voilà drops ``execute_input``).
    """

    async def pre_get(self) -> None:
        """Refuse a socket without the v1 subprotocol, then authorise and connect as jupyter_server does."""
        asked = [p.strip() for p in self.request.headers.get("Sec-WebSocket-Protocol", "").split(",")]
        if V1_PROTOCOL not in asked:
            self.log.warning("refusing a kernel websocket without the %s subprotocol", V1_PROTOCOL)
            raise web.HTTPError(400, reason=f"kernel websockets here speak {V1_PROTOCOL} only")
        await super().pre_get()

    def on_message(self, ws_message: Any) -> None:
        """Pass a v1 message on to the kernel; close the socket on anything else."""
        if not isinstance(ws_message, bytes) or v1_parts(ws_message) is None:
            self.log.warning("closing a kernel websocket: a frame that is not a v1 kernel message")
            self.close(1007, "not a v1 kernel message")
            return
        super().on_message(ws_message)

    def write_message(self, message: Any, binary: bool = False) -> Any:
        """Send ``message`` to the browser, except ``execute_input`` (as Voilà), reading v1 frames safely."""
        if not isinstance(message, bytes):
            return super().write_message(message, binary)
        if _message_type(v1_parts(message)) == "execute_input":
            return None
        return super(VoilaKernelWebsocketHandler, self).write_message(message, binary)  # not Voilà's reader


# --------------------------------------------------------------------------- the app


class WorkshopVoila(Voila):
    """Voilà with :class:`WorkshopKernelWebsocketHandler`, :func:`prelaunch_hook` and a short login cookie."""

    def initialize(self, argv: Any = None) -> None:
        """Voilà's start-up, then the workshop's hook (the only kernel launch hook it runs)."""
        super().initialize(argv)
        self.voila_configuration.prelaunch_hook = prelaunch_hook

    def init_settings(self) -> dict:
        """Voilà's settings; the login cookie SameSite=Lax, valid :data:`LOGIN_HOURS` (unless config says
        otherwise)."""
        settings = super().init_settings()
        provider, days = self.identity_provider, LOGIN_HOURS / 24
        provider.cookie_options = {"samesite": "Lax", "expires_days": days, **provider.cookie_options}
        provider.get_secure_cookie_kwargs = {"max_age_days": days, **provider.get_secure_cookie_kwargs}
        return settings

    def init_handlers(self) -> list:
        """Voilà's handlers, its kernel websocket replaced by :class:`WorkshopKernelWebsocketHandler`."""
        return [(route, WorkshopKernelWebsocketHandler if handler is VoilaKernelWebsocketHandler else handler,
                 *rest) for route, handler, *rest in super().init_handlers()]


def voila_argv(notebook: str, *, port: int = 8866, ip: str = "127.0.0.1", max_kernels: int = MAX_KERNELS,
               max_kernels_per_client: int = MAX_KERNELS_PER_CLIENT,
               cull_idle_timeout: int = CULL_IDLE_TIMEOUT_S, cull_interval: int = CULL_INTERVAL_S,
               kernel_cpu_seconds: int = KERNEL_CPU_SECONDS,
               kernel_memory_mb: int = KERNEL_MEMORY_BYTES // 2**20) -> list[str]:
    """Voilà's command-line options (after ``voila``) for serving ``notebook`` as the workshop app.

    >>> voila_argv("app.ipynb", port=9000)[:3]
    ['app.ipynb', '--token', '--Voila.ip=127.0.0.1']
    >>> voila_argv("app.ipynb", max_kernels_per_client=-1)
    Traceback (most recent call last):
    ...
    ValueError: max_kernels_per_client: expected a whole number of at least 0, got -1
    """
    for name, value, least in (("port", port, 1), ("max_kernels", max_kernels, 1),
                               ("max_kernels_per_client", max_kernels_per_client, 0),
                               ("cull_idle_timeout", cull_idle_timeout, 1),
                               ("cull_interval", cull_interval, 1),
                               ("kernel_cpu_seconds", kernel_cpu_seconds, 1),
                               ("kernel_memory_mb", kernel_memory_mb, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"{name}: expected a whole number of at least {least}, got {value!r}")
    check_ip(ip)
    return [
        notebook,
        "--token",  # Voilà generates a token (or takes $JUPYTER_TOKEN) and prints the URL with it
        f"--Voila.ip={ip}",
        f"--port={port}",
        "--strip_sources=True",
        f"--template={TEMPLATE}",
        f"--VoilaConfiguration.multi_kernel_manager_class={__name__}.CappedKernelManager",
        f"--CappedKernelManager.max_kernels={max_kernels}",
        f"--CappedKernelManager.max_kernels_per_client={max_kernels_per_client}",
        f"--CappedKernelManager.kernel_manager_class={__name__}.LimitedKernelManager",
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_timeout}",
        f"--MappingKernelManager.cull_interval={cull_interval}",
        f"--LimitedKernelManager.cpu_seconds={kernel_cpu_seconds}",
        f"--LimitedKernelManager.memory_bytes={kernel_memory_mb * 2**20}",
    ]


def print_room_url(ip: str, port: int) -> None:
    """Print the room's URL (the LAN address, the token) and its QR code; the token goes to Voilà through
    ``$JUPYTER_TOKEN`` (one is made when it is not set)."""
    token = os.environ.get("JUPYTER_TOKEN") or secrets.token_hex(24)
    os.environ["JUPYTER_TOKEN"] = token
    host, note = room_host(ip)
    print(room_message(room_url(host, port, token), note), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mtlearn.tools.workshop NOTEBOOK``: serve the workshop app (extra options go to Voilà)."""
    parser = argparse.ArgumentParser(
        prog="python -m mtlearn.tools.workshop",
        description="Serve a notebook as the workshop app: Voilà with a token (127.0.0.1 unless --ip), "
                    "idle kernels culled, at most --max-kernels kernels, each with CPU and memory limits.",
    )
    parser.add_argument("notebook", help="the notebook to serve (notebooks/workshop.ipynb)")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--ip", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: "
                             "every interface, for a room: the URL and a QR code for it are printed)")
    parser.add_argument("--max-kernels", type=int, default=MAX_KERNELS,
                        help=f"kernels at most, one per open page (default {MAX_KERNELS})")
    parser.add_argument("--max-kernels-per-client", type=int, default=MAX_KERNELS_PER_CLIENT,
                        help="kernels at most for one client: an address, or on 127.0.0.1 a user account "
                             f"(default {MAX_KERNELS_PER_CLIENT}; 0: no limit, e.g. behind a proxy)")
    parser.add_argument("--cull-idle-timeout", type=int, default=CULL_IDLE_TIMEOUT_S,
                        help="seconds before an idle kernel no page shows is shut down "
                             f"(default {CULL_IDLE_TIMEOUT_S})")
    parser.add_argument("--kernel-cpu-seconds", type=int, default=KERNEL_CPU_SECONDS,
                        help="CPU seconds a kernel may use before it is stopped (default "
                             f"{KERNEL_CPU_SECONDS})")
    parser.add_argument("--kernel-memory-mb", type=int, default=KERNEL_MEMORY_BYTES // 2**20,
                        help=f"megabytes of data a kernel may hold (default {KERNEL_MEMORY_BYTES // 2**20})")
    args, extra = parser.parse_known_args(argv)
    try:
        options = voila_argv(args.notebook, port=args.port, ip=args.ip, max_kernels=args.max_kernels,
                             max_kernels_per_client=args.max_kernels_per_client,
                             cull_idle_timeout=args.cull_idle_timeout,
                             cull_interval=min(CULL_INTERVAL_S, args.cull_idle_timeout),
                             kernel_cpu_seconds=args.kernel_cpu_seconds,
                             kernel_memory_mb=args.kernel_memory_mb)
    except ValueError as error:
        parser.error(str(error))
    # Voilà finds templates on the Jupyter path: mtlearn's own (no CDN links) lives beside this module.
    paths = [str(TEMPLATE_ROOT), os.environ.get("JUPYTER_PATH")]
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, paths))
    if not ipaddress.ip_address(args.ip).is_loopback:
        print_room_url(args.ip, args.port)
    WorkshopVoila.launch_instance(argv=[*options, *extra])
    return 0


if __name__ == "__main__":
    sys.exit(main())
