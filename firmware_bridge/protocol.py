"""The frame codec shared by the reader bridge (MicroPython) and the host (``readers/serial``).

One pure module: no I/O, no clock, no imports beyond ``struct``. It must stay importable on
MicroPython, so it uses plain classes (no dataclasses), ``%`` formatting (no f-strings), function
annotations only (no variable annotations, no ``typing`` at run time) and nothing newer than
``struct.pack``/``unpack`` and ``int.from_bytes``. ``PROTOCOL.md`` beside it is the byte-level spec.

A frame on the wire is ``7E  stuffed(LEN SEQ TYPE PAYLOAD CRC_HI CRC_LO)  7E``: HDLC-style byte
stuffing (``7E`` and ``7D`` inside the frame are sent as ``7D`` followed by the byte XOR ``20``), so
a decoder that starts mid-stream or meets garbage resynchronises at the next ``7E``. Every frame
starts *and* ends with ``7E``; an empty segment between two flags is ignored, so garbage between
frames never swallows the next frame. The CRC is CRC-16/CCITT-FALSE over LEN..PAYLOAD. With byte
stuffing every single-bit error is caught (it changes at most 16 consecutive bits, or the length).

Hazard: ``SEQ`` is 8 bits and wraps; a gap of 256 frames or more is invisible, and a gap is only
counted when the next good frame arrives. Lost frames are counted, never guessed.
"""

# ruff: noqa: UP031  (%-formatting on purpose: MicroPython's f-strings are limited)

import struct

PROTOCOL_VERSION = 1

FLAG = 0x7E
ESC = 0x7D
ESC_XOR = 0x20
MAX_PAYLOAD = 255
HEADER_LEN = 3  # LEN SEQ TYPE
CRC_LEN = 2
MIN_BODY = HEADER_LEN + CRC_LEN
MAX_BODY = MIN_BODY + MAX_PAYLOAD

# Message types, bridge -> host
HELLO = 0x01
TAG_PRESENT = 0x02
TAG_GONE = 0x03
HEARTBEAT = 0x04
READER_HEALTH = 0x05
# host -> bridge
COMMAND = 0x10
# either direction, in answer to a frame
ACK = 0x11
ERROR = 0x12

TYPE_NAMES = {
    HELLO: "HELLO",
    TAG_PRESENT: "TAG_PRESENT",
    TAG_GONE: "TAG_GONE",
    HEARTBEAT: "HEARTBEAT",
    READER_HEALTH: "READER_HEALTH",
    COMMAND: "COMMAND",
    ACK: "ACK",
    ERROR: "ERROR",
}

UID_LENGTHS = (4, 7, 10)

# READER_HEALTH status
STATUS_OK = 0
STATUS_NOT_RESPONDING = 1

# COMMAND codes (first payload byte of a COMMAND frame) and their argument layout
CMD_SYNC = 0x00  # no args: send HELLO, a TAG_PRESENT per tag in field, then a HEARTBEAT
CMD_LED = 0x01  # index u8, r u8, g u8, b u8
CMD_BUZZER = 0x02  # frequency Hz u16, duration ms u16
CMD_READER = 0x03  # reader u8, enabled u8 (0/1), antenna gain u8 (0..7)
CMD_TIMING = 0x04  # settle ms u16, present polls u8, absent ms u16
COMMAND_ARGS = {
    CMD_SYNC: "",
    CMD_LED: ">BBBB",
    CMD_BUZZER: ">HH",
    CMD_READER: ">BBB",
    CMD_TIMING: ">HBH",
}

# ERROR codes
ERR_BAD_FRAME = 0x01
ERR_UNKNOWN_COMMAND = 0x02
ERR_BAD_ARGS = 0x03
ERR_BUSY = 0x04


class ProtocolError(ValueError):
    """A payload that does not fit its message type, or a message that cannot be encoded.

    Decoding catches it (a frame that does not fit is counted and dropped, on the host as on
    the bridge); encoding raises it to the caller, whose message was built wrong. Not under
    scorekeeper's exception root: this module also runs on the bridge, under MicroPython, and
    cannot import scorekeeper.
    """


# --- CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) ------------------


def _make_crc_table() -> "list[int]":
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (check value of b"123456789" is 0x29B1)."""
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ b) & 0xFF]
    return crc


# --- messages ------------------------------------------------------------------------------------


class Message:
    """Base of every message: a type code, a payload layout and value equality."""

    TYPE = -1
    FIELDS = ()  # type: tuple[str, ...]

    def payload(self) -> bytes:
        raise NotImplementedError

    @classmethod
    def from_payload(cls, payload: bytes) -> "Message":
        """The message a payload of this type holds (each message type reads its own)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return False
        return all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self.TYPE,) + tuple(getattr(self, f) for f in self.FIELDS))

    def __repr__(self) -> str:
        parts = []
        for f in self.FIELDS:
            v = getattr(self, f)
            v = "0x" + hex_bytes(v) if isinstance(v, bytes) else repr(v)
            parts.append("%s=%s" % (f, v))
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))


def hex_bytes(data: bytes) -> str:
    """``data`` as upper-case hex without separators (the form a Sighting uid takes)."""
    return "".join("%02X" % b for b in data)


def _check_u(value: int, bits: int, name: str) -> int:
    if not isinstance(value, int) or value < 0 or value >= (1 << bits):
        raise ProtocolError("%s must be an unsigned %d-bit integer, not %r" % (name, bits, value))
    return value


def _check_uid(uid: bytes) -> bytes:
    uid = bytes(uid)
    if len(uid) not in UID_LENGTHS:
        raise ProtocolError("a uid has 4, 7 or 10 bytes, not %d" % len(uid))
    return uid


class Hello(Message):
    """Bridge -> host after boot or a SYNC command: who is talking and how many readers it has.

    A HELLO restarts sequence tracking (the bridge may have rebooted) and opens an inventory
    window that the next HEARTBEAT closes (see PROTOCOL.md, "Resync").
    """

    TYPE = HELLO
    FIELDS = ("protocol", "firmware", "reader_count")

    def __init__(
        self,
        firmware: "tuple[int, ...]" = (0, 0, 0),
        reader_count: int = 0,
        protocol: int = PROTOCOL_VERSION,
    ) -> None:
        self.protocol = _check_u(protocol, 8, "protocol")
        fw = tuple(firmware)
        if len(fw) != 3:
            raise ProtocolError("firmware version is (major, minor, patch)")
        for part in fw:
            _check_u(part, 8, "firmware version part")
        self.firmware = fw
        self.reader_count = _check_u(reader_count, 8, "reader_count")

    def payload(self) -> bytes:
        return struct.pack(
            ">BBBBB",
            self.protocol,
            self.firmware[0],
            self.firmware[1],
            self.firmware[2],
            self.reader_count,
        )

    @classmethod
    def from_payload(cls, payload: bytes) -> "Hello":
        if len(payload) != 5:
            raise ProtocolError("HELLO payload has 5 bytes, not %d" % len(payload))
        p, a, b, c, n = struct.unpack(">BBBBB", payload)
        return cls((a, b, c), n, p)


class _TagMessage(Message):
    FIELDS = ("reader", "uid")

    def __init__(self, reader: int, uid: bytes) -> None:
        self.reader = _check_u(reader, 8, "reader")
        self.uid = _check_uid(uid)

    def payload(self) -> bytes:
        return bytes((self.reader,)) + self.uid

    @classmethod
    def from_payload(cls, payload: bytes) -> "_TagMessage":
        if len(payload) - 1 not in UID_LENGTHS:
            raise ProtocolError(
                "%s payload is a reader byte and a 4/7/10-byte uid, not %d bytes"
                % (TYPE_NAMES[cls.TYPE], len(payload))
            )
        return cls(payload[0], bytes(payload[1:]))


class TagPresent(_TagMessage):
    """Bridge -> host: reader ``reader`` (0-based index) now has tag ``uid`` (after the bridge's
    own presence hysteresis)."""

    TYPE = TAG_PRESENT


class TagGone(_TagMessage):
    """Bridge -> host: tag ``uid`` left reader ``reader`` (after the bridge's hysteresis)."""

    TYPE = TAG_GONE


class Heartbeat(Message):
    """Bridge -> host, about once a second: alive, and its own counters.

    ``dropped``: frames the bridge could not send (its output buffer was full); ``rx_errors``:
    host frames it could not decode. Counters wrap at their width.
    """

    TYPE = HEARTBEAT
    FIELDS = ("uptime_ms", "polls", "dropped", "rx_errors")

    def __init__(
        self, uptime_ms: int, polls: int = 0, dropped: int = 0, rx_errors: int = 0
    ) -> None:
        self.uptime_ms = _check_u(uptime_ms, 32, "uptime_ms")
        self.polls = _check_u(polls, 32, "polls")
        self.dropped = _check_u(dropped, 16, "dropped")
        self.rx_errors = _check_u(rx_errors, 16, "rx_errors")

    def payload(self) -> bytes:
        return struct.pack(">IIHH", self.uptime_ms, self.polls, self.dropped, self.rx_errors)

    @classmethod
    def from_payload(cls, payload: bytes) -> "Heartbeat":
        if len(payload) != 12:
            raise ProtocolError("HEARTBEAT payload has 12 bytes, not %d" % len(payload))
        return cls(*struct.unpack(">IIHH", payload))


class ReaderHealthReport(Message):
    """Bridge -> host: one reader's status and cumulative counters since the bridge booted."""

    TYPE = READER_HEALTH
    FIELDS = ("reader", "status", "reads", "misses", "collisions")

    def __init__(
        self,
        reader: int,
        status: int = STATUS_OK,
        reads: int = 0,
        misses: int = 0,
        collisions: int = 0,
    ) -> None:
        self.reader = _check_u(reader, 8, "reader")
        if status not in (STATUS_OK, STATUS_NOT_RESPONDING):
            raise ProtocolError("reader status is 0 (ok) or 1 (not responding), not %r" % status)
        self.status = status
        self.reads = _check_u(reads, 32, "reads")
        self.misses = _check_u(misses, 32, "misses")
        self.collisions = _check_u(collisions, 32, "collisions")

    def payload(self) -> bytes:
        return struct.pack(
            ">BBIII", self.reader, self.status, self.reads, self.misses, self.collisions
        )

    @classmethod
    def from_payload(cls, payload: bytes) -> "ReaderHealthReport":
        if len(payload) != 14:
            raise ProtocolError("READER_HEALTH payload has 14 bytes, not %d" % len(payload))
        return cls(*struct.unpack(">BBIII", payload))


class Command(Message):
    """Host -> bridge: one command code and its packed arguments (see ``COMMAND_ARGS``).

    Build one with ``sync()``, ``led()``, ``buzzer()``, ``reader_settings()`` or ``timing()``;
    ``values()`` unpacks the arguments again.
    """

    TYPE = COMMAND
    FIELDS = ("code", "args")

    def __init__(self, code: int, args: bytes = b"") -> None:
        self.code = _check_u(code, 8, "command code")
        self.args = bytes(args)
        fmt = COMMAND_ARGS.get(self.code)
        if fmt is not None and len(self.args) != (struct.calcsize(fmt) if fmt else 0):
            raise ProtocolError(
                "command 0x%02X takes %d argument bytes, not %d"
                % (code, struct.calcsize(fmt) if fmt else 0, len(self.args))
            )

    def values(self) -> "tuple[int, ...]":
        fmt = COMMAND_ARGS.get(self.code)
        if fmt is None:
            raise ProtocolError("unknown command 0x%02X" % self.code)
        return struct.unpack(fmt, self.args) if fmt else ()

    def payload(self) -> bytes:
        return bytes((self.code,)) + self.args

    @classmethod
    def from_payload(cls, payload: bytes) -> "Command":
        if len(payload) < 1:
            raise ProtocolError("COMMAND payload needs a command code")
        return cls(payload[0], bytes(payload[1:]))

    @classmethod
    def sync(cls) -> "Command":
        return cls(CMD_SYNC)

    @classmethod
    def led(cls, index: int, r: int, g: int, b: int) -> "Command":
        return cls(CMD_LED, _pack(">BBBB", index, r, g, b))

    @classmethod
    def buzzer(cls, frequency_hz: int, duration_ms: int) -> "Command":
        return cls(CMD_BUZZER, _pack(">HH", frequency_hz, duration_ms))

    @classmethod
    def reader_settings(cls, reader: int, enabled: bool = True, gain: int = 4) -> "Command":
        if not 0 <= gain <= 7:
            raise ProtocolError("antenna gain is 0..7, not %r" % gain)
        return cls(CMD_READER, _pack(">BBB", reader, 1 if enabled else 0, gain))

    @classmethod
    def timing(cls, settle_ms: int, present_polls: int, absent_ms: int) -> "Command":
        return cls(CMD_TIMING, _pack(">HBH", settle_ms, present_polls, absent_ms))


def _pack(fmt: str, *values: int) -> bytes:
    try:
        return struct.pack(fmt, *values)
    except (struct.error, OverflowError, ValueError, TypeError) as exc:
        raise ProtocolError("bad command arguments %r: %s" % (values, exc)) from exc


class Ack(Message):
    """Answer to a frame: ``seq`` is the sequence number of the frame being acknowledged."""

    TYPE = ACK
    FIELDS = ("seq",)

    def __init__(self, seq: int) -> None:
        self.seq = _check_u(seq, 8, "seq")

    def payload(self) -> bytes:
        return bytes((self.seq,))

    @classmethod
    def from_payload(cls, payload: bytes) -> "Ack":
        if len(payload) != 1:
            raise ProtocolError("ACK payload has 1 byte, not %d" % len(payload))
        return cls(payload[0])


class Error(Message):
    """Refusal of frame ``seq``: an error code and a short ASCII text (at most 200 bytes)."""

    TYPE = ERROR
    FIELDS = ("seq", "code", "text")

    def __init__(self, seq: int, code: int, text: str = "") -> None:
        self.seq = _check_u(seq, 8, "seq")
        self.code = _check_u(code, 8, "error code")
        raw = text.encode() if isinstance(text, str) else bytes(text)
        if len(raw) > 200:
            raise ProtocolError("ERROR text is at most 200 bytes")
        self.text = _ascii(raw)

    def payload(self) -> bytes:
        return bytes((self.seq, self.code)) + self.text.encode("ascii")

    @classmethod
    def from_payload(cls, payload: bytes) -> "Error":
        if len(payload) < 2:
            raise ProtocolError("ERROR payload needs a seq and a code")
        return cls(payload[0], payload[1], _ascii(bytes(payload[2:])))


def _ascii(raw: bytes) -> str:
    """``raw`` as text when every byte is ASCII, else ProtocolError. Checked byte by byte:
    MicroPython's ``decode("ascii")`` takes any UTF-8, so on the board a host ERROR frame with
    "caf\u00e9" in it passed as a good frame where CPython refuses it (tests/firmware/
    test_micropython.py compares the two)."""
    for b in raw:
        if b > 0x7F:
            raise ProtocolError("ERROR text is not ASCII")
    return raw.decode()


MESSAGE_CLASSES = {
    HELLO: Hello,
    TAG_PRESENT: TagPresent,
    TAG_GONE: TagGone,
    HEARTBEAT: Heartbeat,
    READER_HEALTH: ReaderHealthReport,
    COMMAND: Command,
    ACK: Ack,
    ERROR: Error,
}  # type: dict[int, type[Message]]


def parse_message(msg_type: int, payload: bytes) -> Message:
    """The message object for a type code and payload; ProtocolError when they do not fit."""
    cls = MESSAGE_CLASSES.get(msg_type)
    if cls is None:
        raise ProtocolError("unknown message type 0x%02X" % msg_type)
    msg = cls.from_payload(bytes(payload))
    return msg


# --- frames --------------------------------------------------------------------------------------


class Frame:
    """One frame that passed its CRC: sequence number, type code, raw payload and, when the type
    is known and the payload fits it, the parsed ``message`` (else None)."""

    def __init__(
        self, seq: int, msg_type: int, payload: bytes, message: "Message | None" = None
    ) -> None:
        self.seq = seq
        self.type = msg_type
        self.payload = payload
        self.message = message

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Frame)
            and self.seq == other.seq
            and self.type == other.type
            and self.payload == other.payload
        )

    def __hash__(self) -> int:
        return hash((self.seq, self.type, self.payload))

    def __repr__(self) -> str:
        return "Frame(seq=%d, type=%s, message=%r)" % (
            self.seq,
            TYPE_NAMES.get(self.type, "0x%02X" % self.type),
            self.message,
        )


def encode_raw(seq: int, msg_type: int, payload: bytes) -> bytes:
    """The wire bytes of one frame (flags included) for any type code and payload."""
    _check_u(seq, 8, "seq")
    _check_u(msg_type, 8, "type")
    payload = bytes(payload)
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("payload is at most %d bytes, not %d" % (MAX_PAYLOAD, len(payload)))
    body = bytes((len(payload), seq, msg_type)) + payload
    crc = crc16(body)
    body = body + bytes(((crc >> 8) & 0xFF, crc & 0xFF))
    out = bytearray((FLAG,))
    for b in body:
        if b in (FLAG, ESC):
            out.append(ESC)
            out.append(b ^ ESC_XOR)
        else:
            out.append(b)
    out.append(FLAG)
    return bytes(out)


def encode(seq: int, message: Message) -> bytes:
    """The wire bytes of ``message`` sent with sequence number ``seq`` (0..255)."""
    return encode_raw(seq, message.TYPE, message.payload())


class Sequencer:
    """The sending side's 8-bit wrapping sequence counter: ``encode(msg)`` numbers and frames."""

    def __init__(self, start: int = 0) -> None:
        self.next_seq = start & 0xFF

    def encode(self, message: Message) -> bytes:
        seq = self.next_seq
        self.next_seq = (seq + 1) & 0xFF
        return encode(seq, message)


# Counter names of Decoder.counters(), in the order PROTOCOL.md lists them.
COUNTER_NAMES = (
    "frames",
    "garbage_bytes",
    "crc_errors",
    "truncated",
    "malformed",
    "unknown_types",
    "seq_gaps",
    "lost",
    "restarts",
)


class Decoder:
    """Streaming decoder: ``feed(chunk)`` takes any bytes, in any chunking, and returns the frames
    completed by them, in order. It never raises on input and never returns a frame whose CRC
    failed.

    Everything it throws away is counted (``counters()``):

    * ``garbage_bytes`` -- wire bytes between flags that cannot be (part of) a frame;
    * ``truncated`` -- a frame whose header promises more bytes than arrived before the next flag
      (a cut-off frame, or the stream ended inside it, see ``flush``);
    * ``crc_errors`` -- the length fits but the CRC does not (corrupted bytes);
    * ``malformed`` -- CRC fine but the payload does not fit its (known) type;
    * ``unknown_types`` -- CRC fine, type unknown: returned anyway with ``message`` None;
    * ``seq_gaps`` / ``lost`` -- sequence numbers skipped between good frames, and how many;
      a jump of 128 or more (or going back) counts as a ``restarts`` instead, as does a HELLO.

    Hazard: not thread-safe; one decoder per byte stream, fed from one thread.
    """

    def __init__(self, track_sequence: bool = True) -> None:
        self.track_sequence = track_sequence
        self._buf = bytearray()
        self._esc = False
        self._overflow = 0  # wire bytes dropped from an over-long segment
        self._wire = 0  # wire bytes in the current segment
        self._last_seq = -1
        self.frames = 0
        self.garbage_bytes = 0
        self.crc_errors = 0
        self.truncated = 0
        self.malformed = 0
        self.unknown_types = 0
        self.seq_gaps = 0
        self.lost = 0
        self.restarts = 0

    def counters(self) -> "dict[str, int]":
        """A snapshot of the counters as a plain dict (names in ``COUNTER_NAMES``)."""
        return {name: getattr(self, name) for name in COUNTER_NAMES}

    def reset(self) -> None:
        """Forget a partial frame and the sequence history (after a reconnect); keep counters.

        A partial frame thrown away here is counted as truncated (or garbage).
        """
        self.flush()
        self._last_seq = -1

    def flush(self) -> None:
        """The stream ended (or was cut): count and drop whatever partial frame is buffered."""
        if self._buf or self._overflow or self._esc:
            self._classify_bad(bytes(self._buf), self._wire, cut=True)
        self._start_segment()

    def _start_segment(self) -> None:
        self._buf = bytearray()
        self._esc = False
        self._overflow = 0
        self._wire = 0

    def feed(self, data: bytes) -> "list[Frame]":
        """Decode ``data`` (any length, any split) and return the list of completed frames."""
        out = []
        buf = self._buf
        for b in data:
            if b == FLAG:
                if self._esc:
                    # ESC FLAG is an abort: the sender gave up on this frame
                    self._classify_bad(bytes(buf), self._wire + 1, cut=True)
                elif buf or self._overflow:
                    frame = self._finish(bytes(buf), self._wire)
                    if frame is not None:
                        out.append(frame)
                self._start_segment()
                buf = self._buf
                continue
            self._wire += 1
            if self._overflow or len(buf) >= MAX_BODY:
                self._overflow += 1
                continue
            if self._esc:
                buf.append(b ^ ESC_XOR)
                self._esc = False
            elif b == ESC:
                self._esc = True
            else:
                buf.append(b)
        return out

    def _classify_bad(self, body: bytes, wire: int, cut: bool = False) -> None:
        cut_header = (
            len(body) >= HEADER_LEN
            and body[2] in MESSAGE_CLASSES
            and (len(body) < body[0] + MIN_BODY)
        )
        if cut_header or (cut and 0 < len(body) < HEADER_LEN):
            self.truncated += 1
        else:
            self.garbage_bytes += wire

    def _finish(self, body: bytes, wire: int) -> "Frame | None":
        if self._overflow or len(body) < MIN_BODY or len(body) != body[0] + MIN_BODY:
            self._classify_bad(body, wire)
            return None
        crc = (body[-2] << 8) | body[-1]
        if crc16(body[:-2]) != crc:
            self.crc_errors += 1
            return None
        seq = body[1]
        msg_type = body[2]
        payload = body[HEADER_LEN:-CRC_LEN]
        message = None
        if msg_type in MESSAGE_CLASSES:
            try:
                message = parse_message(msg_type, payload)
            except ProtocolError:
                self.malformed += 1
                self._track(seq, False)
                return None
        else:
            self.unknown_types += 1
        self._track(seq, msg_type == HELLO)
        self.frames += 1
        return Frame(seq, msg_type, payload, message)

    def _track(self, seq: int, restart: bool) -> None:
        if not self.track_sequence:
            return
        if self._last_seq >= 0 and not restart:
            gap = (seq - self._last_seq - 1) & 0xFF
            if gap >= 128:
                self.restarts += 1
            elif gap:
                self.seq_gaps += 1
                self.lost += gap
        elif restart:
            self.restarts += 1
        self._last_seq = seq
