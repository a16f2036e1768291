"""``python -m fuzz.seeds``: write the hand-made seed inputs into ``fuzz/corpus/<target>/``.

Seeds give the fuzzer well-formed conversations to mutate (a boot, tags arriving and leaving,
every host command), which it would take long to find from nothing. Each seed is named
``seed-<what>`` and starts with the control byte (see ``fuzz/__init__.py``). Idempotent.
"""

from __future__ import annotations

import sys
from pathlib import Path

from firmware_bridge import protocol as p

UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("04A1B2C3D4E57E")  # a 7E inside: the seed carries an escape


def _stream(*messages: p.Message, start: int = 0) -> bytes:
    seq = p.Sequencer(start)
    return b"".join(seq.encode(m) for m in messages)


def bridge_seeds() -> dict[str, bytes]:
    """What a bridge sends the host: a boot, tags, health, a gap, garbage, a cut frame."""
    boot = _stream(
        p.Hello((1, 0, 0), 2),
        p.Heartbeat(10, 1, 0, 0),
        p.ReaderHealthReport(0),
        p.ReaderHealthReport(1, p.STATUS_NOT_RESPONDING),
    )
    tags = _stream(
        p.TagPresent(0, UID4),
        p.TagPresent(1, UID7),
        p.Heartbeat(1000, 9),
        p.TagGone(0, UID4),
        start=4,
    )
    resync = _stream(p.Hello((1, 0, 0), 2), p.TagPresent(1, UID7), p.Heartbeat(5))
    cut = tags[:9] + tags[20:]
    return {
        "boot": boot,
        "tags": boot + tags,
        "resync": boot + tags + resync,
        "gap-and-garbage": boot + b"\x00garbage\x7d" + tags[9:] + b"\x7e\x7d\x7e",
        "cut": boot + cut,
        "answers": _stream(p.Ack(3), p.Error(4, p.ERR_BAD_ARGS, "no LED 9")),
        "unknown-type": p.encode_raw(0, 0x42, b"hello") + p.encode_raw(1, p.HELLO, b"\x01"),
    }


def host_seeds() -> dict[str, bytes]:
    """What a host sends the bridge: every command, good and bad arguments, a SYNC."""
    cmds = _stream(
        p.Command.sync(),
        p.Command.led(0, 255, 0, 0),
        p.Command.led(9, 1, 1, 1),
        p.Command.buzzer(440, 180),
        p.Command.buzzer(5, 10),
        p.Command.reader_settings(1, False, 3),
        p.Command.reader_settings(1, True, 7),
        p.Command.timing(20, 2, 500),
        p.Command.timing(1, 0, 65000),
    )
    odd = (
        p.encode_raw(9, p.COMMAND, b"\x09\x01")
        + p.encode_raw(10, p.COMMAND, b"")
        + p.encode_raw(11, p.COMMAND, b"\x01\x00")
        + p.encode_raw(12, p.HELLO, b"\x01")
    )
    return {"commands": cmds, "odd-commands": odd, "escape": cmds[:12] + b"\x7e\x0d\x03"}


def write_seeds(root: Path) -> None:
    """Write every seed, with the plain and the LEN/CRC-repairing control byte."""
    sets = {
        "codec": {**bridge_seeds(), **host_seeds()},
        "serial": bridge_seeds(),
        "firmware": host_seeds(),
    }
    for target, seeds in sets.items():
        folder = root / target
        folder.mkdir(parents=True, exist_ok=True)
        for name, stream in seeds.items():
            (folder / f"seed-{name}").write_bytes(b"\x07" + stream)
            (folder / f"seed-{name}-repaired").write_bytes(b"\x85" + stream)


if __name__ == "__main__":
    write_seeds(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "corpus")
