"""The workshop server's pieces, without a server: the v1 frame reader, the kernels' limits, who a client is.

The server itself (places, websockets, cookies) is driven end to end in
tests/tools/test_workshop_hostile.py.
"""

from __future__ import annotations

import os
import resource
import socket
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1
from traitlets.config import Config

from mtlearn.tools import workshop
from mtlearn.tools.workshop import loopback_uid, set_kernel_limits, v1_parts

PARTS = [b'{"msg_type": "comm_msg"}', b"{}", b"{}", b'{"data": {}}']


def frame(parts=PARTS, channel: str = "shell") -> bytes:
    return serialize_msg_to_ws_v1(list(parts), channel)


def with_offset(whole: bytes, k: int, value: int) -> bytes:
    """``whole`` with its 8-byte word k (0: the count, 1..: the offsets) set to ``value``."""
    return whole[:8 * k] + value.to_bytes(8, "little") + whole[8 * k + 8:]


# --------------------------------------------------------------------------- the v1 frame reader


@pytest.mark.parametrize("buffers", [0, 1, 3])
def test_v1_parts_reads_what_jupyter_server_writes(buffers):
    parts = PARTS + [bytes([k]) * (k + 2) for k in range(buffers)]
    whole = frame(parts, "iopub")
    channel, msg_list = deserialize_msg_from_ws_v1(whole)
    assert v1_parts(whole) == [channel.encode(), *msg_list] == [b"iopub", *parts]


@pytest.mark.parametrize("damage, word, value", [
    ("a count of 1e17 (the hang)", 0, 10**17),
    ("a count beyond the frame", 0, 1000),
    ("fewer parts than a message has", 0, 3),
    ("the first offset inside the offsets", 1, 8),
    ("an offset past the end", 3, 10**6),
    ("offsets going back", 3, 0),
])
def test_v1_parts_refuses_a_frame_whose_layout_does_not_fit(damage, word, value):
    assert v1_parts(with_offset(frame(), word, value)) is None, damage


def test_v1_parts_refuses_short_and_truncated_frames():
    whole = frame()
    assert v1_parts(b"") is None and v1_parts(whole[:40]) is None
    assert v1_parts(whole[:-1]) is None  # the last offset is the frame's end


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.integers(min_value=0, max_value=2**64 - 1))
def test_v1_parts_never_raises_and_reads_only_inside_the_frame(noise, count):
    data = count.to_bytes(8, "little") + noise
    parts = v1_parts(data)
    assert parts is None or b"".join(parts) == data[len(data) - sum(map(len, parts)):]


# --------------------------------------------------------------------------- the kernels' limits


def in_a_child(work) -> str:
    """``work()`` (returning text) in a forked copy of this process, which it may limit as it likes."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        try:
            out = work()
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            out = f"error {error!r}"
        os.write(write, out.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        text = pipe.read().decode()
    os.waitpid(pid, 0)
    return text


def data_in_use() -> int:
    """This process's data memory now (VmData, the amount RLIMIT_DATA bounds)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmData:"):
            return int(line.split()[1]) * 1024
    pytest.skip("needs Linux's /proc/self/status")


def test_a_limited_kernel_gets_a_memory_error_not_the_machines_memory():
    room = data_in_use() + 256 * 2**20  # a kernel's data so far, and 256 MB more

    def work() -> str:
        set_kernel_limits(300, room)
        limits = [resource.getrlimit(r) for r in (resource.RLIMIT_CPU, resource.RLIMIT_DATA,
                                                  resource.RLIMIT_CORE)]
        small = len(bytearray(64 * 2**20))  # still room for what a page needs
        try:
            bytearray(512 * 2**20)
            big = "allocated"
        except MemoryError:
            big = "MemoryError"
        return f"{limits} {small} {big}"

    assert in_a_child(work) == f"{[(300, 310), (room, room), (0, 0)]} {64 * 2**20} MemoryError"


def test_a_lower_limit_already_set_is_kept():
    def work() -> str:
        resource.setrlimit(resource.RLIMIT_CPU, (100, 120))
        set_kernel_limits(1800, 2**40)
        return str(resource.getrlimit(resource.RLIMIT_CPU))

    before = resource.getrlimit(resource.RLIMIT_CPU)
    assert in_a_child(work) == "(100, 120)"
    assert resource.getrlimit(resource.RLIMIT_CPU) == before  # this process is untouched


def test_the_workshops_kernels_are_limited_ones():
    argv = workshop.voila_argv("app.ipynb")
    manager = workshop.CappedKernelManager(config=Config(CappedKernelManager=dict(
        option.removeprefix("--CappedKernelManager.").split("=", 1) for option in argv
        if option.startswith("--CappedKernelManager.kernel_manager_class"))))
    kernel = manager.kernel_manager_factory(parent=manager, kernel_name="python3")
    assert (isinstance(kernel, workshop.LimitedKernelManager)
            and kernel.cpu_seconds == workshop.KERNEL_CPU_SECONDS)


# --------------------------------------------------------------------------- who a client is


def test_the_owner_of_a_loopback_connection_is_found():
    if not Path("/proc/net/tcp").is_file():
        pytest.skip("needs Linux's /proc/net/tcp")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname()) as participant:
            accepted, peer = server.accept()
            with accepted:
                assert loopback_uid(peer, accepted.getsockname()) == os.getuid()
                assert loopback_uid(peer, ("127.0.0.1", 1)) is None  # no such connection
                assert participant.getsockname() == peer


def test_voila_argv_passes_the_places_and_limits():
    argv = workshop.voila_argv("app.ipynb", max_kernels=7, max_kernels_per_client=0, kernel_cpu_seconds=60,
                               kernel_memory_mb=512)
    assert "--CappedKernelManager.max_kernels=7" in argv
    assert "--CappedKernelManager.max_kernels_per_client=0" in argv  # 0: no limit per client
    assert "--LimitedKernelManager.cpu_seconds=60" in argv
    assert f"--LimitedKernelManager.memory_bytes={512 * 2**20}" in argv


def test_the_command_refuses_a_nonsense_limit_in_one_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        workshop.main(["notebooks/workshop.ipynb", "--kernel-memory-mb=0"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "kernel_memory_mb: expected a whole number of at least 1, got 0" in err and "Traceback" not in err


def test_the_command_passes_the_ip_to_voila():
    assert "--Voila.ip=0.0.0.0" in workshop.voila_argv("app.ipynb", ip="0.0.0.0")
    assert "--token" in workshop.voila_argv("app.ipynb", ip="0.0.0.0")  # a room still needs the token


def test_the_command_refuses_a_bad_ip_in_one_line(capsys):
    with pytest.raises(SystemExit) as stopped:
        workshop.main(["notebooks/workshop.ipynb", "--ip=my-laptop"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "--ip: expected an IP address" in err and "'my-laptop'" in err and "Traceback" not in err


def test_serving_a_room_prints_the_lan_url_with_the_token_and_its_qr_code(monkeypatch, capsys):
    import qrcode

    launched, encoded = [], []
    monkeypatch.setattr(workshop.WorkshopVoila, "launch_instance", lambda argv: launched.append(argv))
    monkeypatch.setattr(qrcode.QRCode, "add_data", lambda self, data, *a: encoded.append(data))
    monkeypatch.setattr(qrcode.QRCode, "make", lambda self, fit=True: None)
    monkeypatch.setattr(qrcode.QRCode, "print_ascii", lambda self, out: out.write("[QR]\n"))
    monkeypatch.setattr("mtlearn.tools.room.lan_address", lambda: "192.0.2.44")
    monkeypatch.setenv("JUPYTER_TOKEN", "s3cret")
    assert workshop.main(["notebooks/workshop.ipynb", "--ip=0.0.0.0", "--port=9001"]) == 0
    url = "http://192.0.2.44:9001/?token=s3cret"
    assert encoded == [url]
    out = capsys.readouterr().out
    assert url in out and "[QR]" in out
    assert "--Voila.ip=0.0.0.0" in launched[0] and "--token" in launched[0]


def test_serving_a_room_makes_a_token_when_none_is_set(monkeypatch, capsys):
    monkeypatch.setattr(workshop.WorkshopVoila, "launch_instance", lambda argv: None)
    monkeypatch.setattr("mtlearn.tools.room.lan_address", lambda: None)
    monkeypatch.delenv("JUPYTER_TOKEN", raising=False)
    workshop.main(["notebooks/workshop.ipynb", "--ip=0.0.0.0"])
    token = os.environ["JUPYTER_TOKEN"]  # Voilà takes it from there
    out = capsys.readouterr().out
    assert len(token) >= 32 and f"http://127.0.0.1:8866/?token={token}" in out
    assert "no local network address found" in out


def test_this_machine_only_prints_no_room_url(monkeypatch, capsys):
    monkeypatch.setattr(workshop.WorkshopVoila, "launch_instance", lambda argv: None)
    workshop.main(["notebooks/workshop.ipynb"])
    assert "for the room" not in capsys.readouterr().out
