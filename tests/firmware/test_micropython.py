"""The bridge firmware's scan loop on real MicroPython, not only on CPython.

The other tests in this directory run the firmware on CPython with a fake ``machine``. Here the
firmware modules go, unchanged and side by side as on the board, into the filesystem of the
MicroPython WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``, which
``make test`` installs into ``.venv/mpy``) running on node. ``tests/firmware/mpy/driver.py``
builds the bridge there with the firmware's own ``main.build`` from the shipped
``config.json``, wires emulated MFRC522 chips to a fake ``machine``, and runs ``Bridge.run()``
while tags are placed and lifted and host commands arrive at scripted clock times, until the
console escape ends it. Back in CPython, the bytes the firmware sent are decoded with the
host's frame codec and fed to the host's serial backend, and compared byte for byte with a
CPython run of the same scenario. The board's entry point, ``main.run()``, runs there too, on
MicroPython's own stdin/stdout, ``select`` and clock; and the committed fuzz corpus is read by
the frame codec and the bridge on both interpreters, which must agree.

A module, syntax or method MicroPython lacks therefore fails here even where every CPython test
passes; the negative controls prove that the run is MicroPython and that such a slip is caught.
Together the MicroPython runs take a few seconds (node and the wasm start in about 0.3 s each).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import bridge as fw_bridge
from firmware_bridge import hw as fw_hw
from firmware_bridge import main as fw_main
from firmware_bridge import protocol as p
from firmware_bridge.config import Config
from fuzz import targets
from scorekeeper.core.inputs import Sighting
from scorekeeper.readers.fake_mfrc522 import ChipClock, FakeMfrc522
from scorekeeper.readers.serial import SerialBackend
from tests.firmware import fake_machine
from tests.firmware.mpy.scenario import Clock, HostLink, Runaway, answer_host, decode_stream

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware_bridge"
RIG = Path(__file__).resolve().parent / "mpy"
PACKAGE = (
    ROOT / ".venv" / "mpy" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
)
INSTALL_HINT = (
    "run `make test`: its set-up step installs the MicroPython WebAssembly port "
    "from npm into .venv/mpy (`make .venv/mpy/.installed-<MPY_VERSION>`, the "
    "version pinned in the Makefile, does that step alone)"
)

RUN_TIMEOUT = 30  # seconds; a run takes about one, a loop that never ends is stopped here
TICKS_PERIOD = 1 << 30  # MicroPython's ticks wrap here on 32-bit ports and in the wasm port

# The scenario, in milliseconds of the firmware's clock. The shipped config.json has four
# readers (chip-selects 17, 20, 21, 22); every reader is polled about every 20 ms.
UID4, UID7A, UID7B, UID10 = "DEADBEEF", "04A1B2C3D4E5F6", "0455AA33CC7780", "0102030405060708090A"
TAGS = [
    (50, "place", 0, UID4),
    (400, "place", 1, UID7A),
    (450, "place", 1, UID7B),  # two tags on one reader: the cascade's anticollision
    (900, "lift", 0, UID4),  # gone after absent_polls and absent_ms (300 ms)
    (1600, "place", 3, UID10),
    (2200, "lift", 1, UID7A),
    (2600, "unplug", 3, ""),  # reader 3 stops answering: its tag is frozen, not lifted
    (3000, "plug", 3, ""),  # and is back at its next retry (retry_ms 1000)
]
END_MS = 4000  # the host sends the console escape here
EXPECTED = [  # (reader id, uid, present) in order, as the host's serial backend reports them
    ("r0", UID4, True),
    ("r1", UID7A, True),
    ("r1", UID7B, True),
    ("r0", UID4, False),
    ("r3", UID10, True),
    ("r1", UID7A, False),
]


def host_bytes() -> list[list[Any]]:
    """What the host sends, and when: commands the firmware must answer, a damaged frame, a
    frame whose payload does not fit its type, and at the end the console escape."""
    seq = p.Sequencer()
    out: list[list[Any]] = [
        [300, (bytes((p.FLAG,)) + seq.encode(p.Command.sync())).hex()],
        [700, seq.encode(p.Command.led(0, 0, 9, 0)).hex()],
        [800, seq.encode(p.Command.buzzer(880, 50)).hex()],
        [1000, p.encode_raw(seq.next_seq, p.COMMAND, bytes((p.CMD_TIMING, 0, 1, 1, 0, 0))).hex()],
        [1100, p.encode_raw(seq.next_seq + 1, p.COMMAND, b"\x7f").hex()],
    ]
    # an LED command with one argument byte instead of four: a good CRC, a payload that does
    # not fit (answered ERROR 1), then a frame whose CRC does not fit (counted, not answered)
    out.append([1400, p.encode_raw(seq.next_seq + 3, p.COMMAND, b"\x01\x00").hex()])
    broken = bytearray(p.encode(seq.next_seq + 2, p.Command.sync()))
    broken[-2] ^= 0x01
    out.append([1500, bytes(broken).hex()])
    out.append([END_MS, (bytes((p.FLAG,)) + b"\r\x03").hex()])
    return out


BEFORE_WRAP_MS = 1500  # the ticks wrap 1.5 s into the run
LIMIT_MS = 10000  # a loop still running then is cut off (the driver's Runaway)
SCENARIO: dict[str, Any] = {
    "before_wrap_ms": BEFORE_WRAP_MS,
    "limit_ms": LIMIT_MS,
    "tags": TAGS,
    "host": host_bytes(),
}

DRIVER_MAIN = """
import sys
sys.path.append("/rig")
import json
import driver
RESULT = driver.run(json.loads(open("/job.json").read()))
"""


# --- running MicroPython -------------------------------------------------------------------------


def run_micropython(
    files: dict[str, str], main: str, stdin: list[list[Any]] | None = None
) -> dict[str, Any]:
    """Write ``files`` into the wasm MicroPython's filesystem, run ``main`` there (its stdin
    gets each ``[ms, hex]`` of ``stdin`` once ``ms`` have passed), and return the runner's
    answer (``ok``, ``result`` or ``type``/``message``, ``output``, ``output_hex``)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail(
            "node is not installed; " + INSTALL_HINT + " (it installs Debian's npm, "
            "which brings node)"
        )
    if not (PACKAGE / "micropython.mjs").is_file():
        pytest.fail(
            f"the MicroPython WebAssembly port is not installed in {PACKAGE}; " + INSTALL_HINT
        )
    job = json.dumps({"files": files, "main": main, "stdin": stdin or []})
    try:
        proc = subprocess.run(
            [node, str(RIG / "run.mjs"), str(PACKAGE), "/dev/stdin"],
            input=job,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"MicroPython was still running after {RUN_TIMEOUT} s: the firmware's loop "
            "never ended (did the console escape stop working?)"
        )
    if proc.returncode != 0 or not proc.stdout.strip():
        pytest.fail(f"the MicroPython runner failed (exit {proc.returncode}):\n{proc.stderr}")
    answer: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return answer


def firmware_files(patch: dict[str, tuple[str, str]] | None = None) -> dict[str, str]:
    """The firmware's modules and config.json at the filesystem root, as on the board;
    ``patch`` replaces ``old`` by ``new`` in one file (the negative controls)."""
    files = {}
    for path in sorted(FIRMWARE.glob("*.py")) + [FIRMWARE / "config.json"]:
        if path.name == "__init__.py":
            continue
        text = path.read_text()
        if patch and path.name in patch:
            old, new = patch[path.name]
            assert old in text, f"{old!r} is no longer in {path.name}; update the control"
            text = text.replace(old, new)
        files["/" + path.name] = text
    return files


def rig_files() -> dict[str, str]:
    return {
        "/rig/machine.py": (RIG / "machine.py").read_text(),
        "/rig/scenario.py": (RIG / "scenario.py").read_text(),
        "/rig/driver.py": (RIG / "driver.py").read_text(),
        "/rig/emulator/fake_mfrc522.py": (
            ROOT / "scorekeeper" / "readers" / "fake_mfrc522.py"
        ).read_text(),
    }


def scan_on_micropython(
    patch: dict[str, tuple[str, str]] | None = None, limit_ms: int = LIMIT_MS
) -> dict[str, Any]:
    """The scenario on MicroPython: the driver's JSON result (``writes``, ``stats``, ...)."""
    files = {**firmware_files(patch), **rig_files()}
    files["/job.json"] = json.dumps({"scenario": {**SCENARIO, "limit_ms": limit_ms}})
    answer = run_micropython(files, DRIVER_MAIN)
    assert answer["ok"], f"{answer.get('type')}: {answer.get('message')}\n{answer['output']}"
    result: dict[str, Any] = json.loads(answer["result"])
    return result


# --- the same scenario on CPython ---------------------------------------------------------------


def ticks_add(a: int, d: int) -> int:
    """MicroPython's ``time.ticks_add`` for CPython runs."""
    return (a + d) % TICKS_PERIOD


def ticks_diff(a: int, b: int) -> int:
    """MicroPython's ``time.ticks_diff`` for CPython runs."""
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


def scan_on_cpython() -> dict[str, Any]:
    """The reference: the same firmware, config, emulator and scenario on CPython."""
    cfg = Config.from_dict(json.loads((FIRMWARE / "config.json").read_text()))
    chips: list[FakeMfrc522] = []

    def event(kind: str, reader: int, uid: str) -> Any:
        def apply() -> None:
            if kind == "place":
                chips[reader].place(uid)
            elif kind == "lift":
                chips[reader].remove(uid)
            else:
                chips[reader].responding = kind == "plug"

        return apply

    clock = Clock(
        ticks_add,
        ticks_diff,
        BEFORE_WRAP_MS,
        LIMIT_MS,
        [(t, event(kind, reader, uid)) for t, kind, reader, uid in TAGS],
    )
    bus_clock = ChipClock()  # as on MicroPython: the chips follow the firmware's clock
    bus_clock.follow_ticks(clock.ticks_ms, clock.ticks_diff)
    chips.extend(FakeMfrc522(clock=bus_clock) for _ in cfg.readers)
    link = HostLink(clock, host_bytes())
    bridge = fw_main.build(cfg, fake_machine.module(), link, clock)
    spi = bridge.readers[0].regs.spi
    assert isinstance(spi, fake_machine.SPI)
    for rd, chip in zip(bridge.readers, chips, strict=True):
        spi.attach(rd.regs.cs, chip)  # type: ignore[arg-type]
        bus_clock.drive(rd.chip)  # as on MicroPython: waits on the chips' clock
    try:
        bridge.run()
    except Runaway as exc:
        raise AssertionError(f"the CPython reference run did not stop: {exc}") from exc
    return {"writes": link.writes, "stats": bridge.stats()}


# --- reading what the firmware sent --------------------------------------------------------------


def wire(result: dict[str, Any]) -> bytes:
    return b"".join(bytes.fromhex(h) for _, h in result["writes"])


def host_sightings(result: dict[str, Any]) -> tuple[list[Sighting], SerialBackend]:
    """The firmware's writes fed, at their clock times, to the host's serial backend."""
    now = {"t": 0.0}
    backend = SerialBackend("/dev/mpy-bridge", clock=lambda: now["t"])
    out: list[Sighting] = []
    backend._outbox.emit = out.append  # what start() sets, without a port and a thread
    for t, h in result["writes"]:
        now["t"] = 100.0 + t / 1000
        backend._handle_bytes(bytes.fromhex(h), now["t"])
    return out, backend


# --- the tests -----------------------------------------------------------------------------------


def test_scan_loop_on_micropython_reports_tags_and_answers_the_host() -> None:
    result = scan_on_micropython()

    assert result["implementation"] == "micropython"
    # imported as on the board: the package imports failed and the flat fallbacks ran
    assert result["firmware_modules"]["bridge.p"] == "protocol"
    assert result["firmware_modules"]["bridge.m"] == "mfrc522_cascade"
    assert result["firmware_modules"]["main.config_mod"] == "config"
    assert result["runaway"] == "", result["runaway"]  # the console escape ended the loop
    assert result["unread_host_bytes"] == 0
    assert END_MS <= result["elapsed_ms"] < END_MS + 50
    assert result["ticks_wrapped"]  # MicroPython's own ticks wrapped during the run
    stats = result["stats"]
    # run() swallows an exception in a step (a table must not stop): a MicroPython-only
    # failure inside the loop shows up here
    assert stats["faults"] == 0, stats["last_fault"]
    assert stats["dropped"] == 0 and stats["commands"] == 5
    assert stats["polls"] > 4 * 150  # every reader polled about every 20 ms for 4 s

    decoder = p.Decoder()
    frames = decoder.feed(wire(result))
    counters = decoder.counters()
    assert counters["crc_errors"] == counters["garbage_bytes"] == counters["malformed"] == 0
    assert counters["truncated"] == counters["lost"] == counters["unknown_types"] == 0
    assert counters["restarts"] == 2  # the HELLO at boot and the one answering SYNC
    assert frames[-1].seq == stats["sent"] - 1  # every frame it counted as sent arrived
    msgs = [f.message for f in frames]

    # HELLO first, and again after SYNC; each HEARTBEAT is followed by the four readers' health
    hellos = [m for m in msgs if isinstance(m, p.Hello)]
    assert hellos == [p.Hello((1, 0, 0), 4)] * 2 and msgs[0] == hellos[0]
    beats = [m for m in msgs if isinstance(m, p.Heartbeat)]
    for i, m in enumerate(msgs):
        if isinstance(m, p.Heartbeat):
            assert [
                r.reader for r in msgs[i + 1 : i + 5] if isinstance(r, p.ReaderHealthReport)
            ] == [0, 1, 2, 3]
    uptimes = [b.uptime_ms for b in beats]
    # one at boot, one answering the SYNC at 300 ms, then one a second until the escape
    assert len(beats) == 5 and uptimes[0] < 300 <= uptimes[1] < 320
    assert all(1000 <= b - a <= 1030 for a, b in zip(uptimes[1:], uptimes[2:], strict=False))
    assert [b.rx_errors for b in beats] == [0, 0, 0, 2, 2]  # the misfit and the bad CRC
    assert all(b.dropped == 0 for b in beats)
    polls = [b.polls for b in beats]
    assert polls == sorted(polls) and polls[-1] > polls[2] > polls[1] > 0

    # the host commands were answered in order
    answers = [
        (type(m).__name__, m.seq, getattr(m, "code", None))
        for m in msgs
        if isinstance(m, p.Ack | p.Error)
    ]
    assert answers == [
        ("Ack", 1, None),
        ("Ack", 2, None),
        ("Error", 3, p.ERR_BAD_ARGS),
        ("Error", 4, p.ERR_UNKNOWN_COMMAND),
        ("Error", 6, p.ERR_BAD_FRAME),
    ]
    # the buzzer: off at build, 880 Hz on the command, off after its 50 ms, off at the end
    assert result["buzzer"] == [[0, 0], [880, 32768], [880, 0], [880, 0]]
    assert result["reset_pin"] == [0, 1]

    # reader 3 went silent and came back: its health said so, and its tag was never lifted
    status3 = [m.status for m in msgs if isinstance(m, p.ReaderHealthReport) and m.reader == 3]
    assert p.STATUS_NOT_RESPONDING in status3 and status3[-1] == p.STATUS_OK
    assert stats["readers"][3]["online"] and stats["readers"][3]["tags"] == [UID10]

    # the host's serial backend turns the bytes into exactly the expected sightings
    sightings, backend = host_sightings(result)
    assert [(s.reader, s.uid, s.present) for s in sightings] == EXPECTED
    assert backend.stats()["bridge_errors"] == 3 and backend.stats()["acks"] == 2
    assert backend.online

    # and CPython, running the same firmware in the same world, sent the very same bytes
    reference = scan_on_cpython()
    assert result["writes"] == reference["writes"]
    assert result["stats"] == reference["stats"]


MAIN_RUN = """
import sys
sys.path.append("/rig")
import json
import driver
RESULT = driver.run_main({"tags": [[0, "DEADBEEF"], [2, "04A1B2C3D4E5F6"]], "left_for_repl": 2})
"""


def test_main_run_on_micropython_speaks_frames_on_stdout_until_the_console_escape() -> None:
    # The board's entry point as it runs after boot: host bytes on sys.stdin (select.poll),
    # frames on sys.stdout.buffer, real time; mpremote's "\r\x03" ends it, "\r\x01" is left.
    # The host's bytes arrive 300 and 600 ms after the bridge's first byte (its HELLO): the
    # first poll of every reader takes some 30 ms, ten times that leaves room for a slow machine.
    seq = p.Sequencer()
    flag = bytes((p.FLAG,))
    stdin = [
        [300, (flag + seq.encode(p.Command.sync()) + seq.encode(p.Command.led(0, 0, 9, 0))).hex()],
        [600, (flag + b"\r\x03\r\x01").hex()],
    ]
    answer = run_micropython({**firmware_files(), **rig_files()}, MAIN_RUN, stdin)
    assert answer["ok"], f"{answer.get('type')}: {answer.get('message')}\n{answer['output']}"
    result = json.loads(answer["result"])
    assert result["stats"] is not None and result["stats"]["faults"] == 0, result["stats"]
    assert result["firmware_modules"]["bridge.p"] == "protocol"
    assert result["left_for_repl"] == "0d01"  # the rest of the escape stays for the REPL

    output = bytes.fromhex(answer["output_hex"])
    goodbye = b"scorekeeper bridge stopped; bridge.stats() shows its counters"
    assert output.count(goodbye) == 1 and output.endswith(b"restarts it\n")
    decoder = p.Decoder()
    msgs = [f.message for f in decoder.feed(output[: output.index(goodbye)])]
    counters = decoder.counters()
    assert counters["crc_errors"] == counters["garbage_bytes"] == counters["lost"] == 0
    hellos = [i for i, m in enumerate(msgs) if isinstance(m, p.Hello)]
    assert len(hellos) == 2 and hellos[0] == 0 and msgs[0] == p.Hello((1, 0, 0), 4)
    held = {
        p.TagPresent(0, bytes.fromhex("DEADBEEF")),
        p.TagPresent(2, bytes.fromhex("04A1B2C3D4E5F6")),
    }
    assert {m for m in msgs[: hellos[1]] if isinstance(m, p.TagPresent)} == held
    # the SYNC's answer: HELLO, the inventory, a HEARTBEAT; then the LED command's ACK
    after = msgs[hellos[1] + 1 :]
    assert set(after[:2]) == held and isinstance(after[2], p.Heartbeat)
    assert p.Ack(1) in after and not any(isinstance(m, p.Error | p.TagGone) for m in msgs)


CORPUS_MAIN = """
import sys
sys.path.append("/rig")
import json
import driver
RESULT = driver.corpus(json.loads(open("/job.json").read()))
"""
# Beyond the corpus: host ERROR frames whose text is not ASCII. MicroPython's
# bytes.decode("ascii") took the UTF-8 one, so the bridge on the board counted it as a good frame
# where CPython (and PROTOCOL.md) call it malformed and the bridge answers ERROR 1.
NOT_ASCII = [
    p.encode_raw(5, p.ERROR, b"\x01\x02caf\xc3\xa9"),
    p.encode_raw(6, p.ERROR, b"\x01\x02\xff"),
]


def _shaped(data: bytes) -> tuple[int, bytes]:
    """A fuzz input as its target sees it: the chunk size and the (repaired) byte stream."""
    size, fix, stream = targets.split_control(data)
    return size, targets.repair(stream) if fix else stream


def test_fuzz_corpus_reads_alike_on_micropython_and_cpython() -> None:
    # Every committed codec input through the frame codec, every firmware input into a bridge,
    # on both interpreters: the same frames, counters, answers and settings.
    corpus = ROOT / "fuzz" / "corpus"
    codec = [_shaped(f.read_bytes()) for f in sorted((corpus / "codec").iterdir())]
    codec += [(7, frame) for frame in NOT_ASCII]
    firmware = [_shaped(f.read_bytes())[1] for f in sorted((corpus / "firmware").iterdir())]
    firmware += NOT_ASCII
    assert len(codec) > 20 and len(firmware) > 20
    files = {
        **firmware_files(),
        **rig_files(),
        "/job.json": json.dumps(
            {
                "codec": [[size, data.hex()] for size, data in codec],
                "firmware": [data.hex() for data in firmware],
            }
        ),
    }
    answer = run_micropython(files, CORPUS_MAIN)
    assert answer["ok"], f"{answer.get('type')}: {answer.get('message')}\n{answer['output']}"
    mpy = json.loads(answer["result"])

    ref_codec = [decode_stream(p, data, size) for size, data in codec]
    ref_firmware = [
        answer_host(
            fw_bridge,
            fw_hw,
            fake_machine.module(),
            Clock(ticks_add, ticks_diff, 0, 1 << 24, []),
            data,
        )
        for data in firmware
    ]
    ref = json.loads(json.dumps({"codec": ref_codec, "firmware": ref_firmware}))
    for name, inputs in (("codec", codec), ("firmware", firmware)):
        assert len(mpy[name]) == len(inputs)
        for i, (got, want) in enumerate(zip(mpy[name], ref[name], strict=True)):
            assert got == want, f"{name} input {i} reads differently on MicroPython"
    assert all(r["faults"] == 0 for r in mpy["firmware"])
    # the non-ASCII ERROR frames: malformed on the board too, and answered ERROR 1 "bad frame"
    for r in mpy["codec"][-2:]:
        assert r["frames"] == [] and r["counters"]["malformed"] == 1
    for r in mpy["firmware"][-2:]:
        assert r["counters"]["malformed"] == 1
        answers = p.Decoder().feed(bytes.fromhex(r["wrote"]))
        assert isinstance(answers[-1].message, p.Error)
        assert answers[-1].message.code == p.ERR_BAD_FRAME


def test_the_run_is_micropython_and_catches_what_cpython_allows() -> None:
    # CPython-only modules and syntax fail there, with MicroPython's errors
    answer = run_micropython({}, "import dataclasses\n")
    assert not answer["ok"] and answer["type"] == "ImportError"
    assert "no module named 'dataclasses'" in answer["message"]
    answer = run_micropython({}, "match 1:\n    case 1:\n        pass\n")
    assert not answer["ok"] and answer["type"] == "SyntaxError"

    # a firmware slip that CPython runs happily (bytearray.clear) fails the scan loop here: run()
    # counts it as a fault at every host frame, and the console escape never gets through
    patched = scan_on_micropython(
        {"bridge.py": ('seg[:] = b""', "seg.clear()")}, limit_ms=END_MS + 500
    )
    assert patched["stats"]["faults"] > 0
    assert "AttributeError" in patched["stats"]["last_fault"]
    assert "clear" in patched["stats"]["last_fault"]
    assert patched["runaway"]


def test_a_missing_micropython_port_fails_and_names_the_install_step(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    with pytest.raises(pytest.fail.Exception, match="make test") as failed:
        run_micropython({}, "RESULT = 1\n")
    assert str(tmp_path) in str(failed.value) and ".venv/mpy" in str(failed.value)
