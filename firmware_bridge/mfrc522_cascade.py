# ruff: noqa: UP031  (%-formatting on purpose: this module also runs on MicroPython)
"""MFRC522 register driver and the ISO 14443-3 anticollision/select cascade, in one pure module.

Why our own: the ``mfrc522`` package's ``read_id`` runs cascade level 1 only (a 7-byte NTAG uid
comes back as ``88`` plus three bytes, so two stickers can look alike) and its wait loop can make
an empty poll take a second. This module reads full 4-, 7- and 10-byte uids (cascade levels 1-3,
BCC and CRC_A checked) and inventories the few tags in one field (select one, HALT it, ask
again). It talks to the chip only through two callables, ``read_reg(reg) -> int`` and
``write_reg(reg, value)``, so the Pi's SPI backend, the Pico firmware and the emulated chip
(``fake_mfrc522``) all run the same code.

It lives in ``firmware_bridge/`` because it is copied to the bridge as it is (``bridge.py``
imports it as ``mfrc522_cascade``); the Pi's ``scorekeeper.readers.spi`` imports it as
``firmware_bridge.mfrc522_cascade``. Like ``protocol.py`` beside it, it must stay importable on
MicroPython: plain classes, ``%`` formatting, function annotations only, and one import,
``time`` (``ticks_ms``/``ticks_diff`` on MicroPython, ``monotonic`` on CPython).

Hazards:

* waits are bounded by time, never by a count of register reads (fast SPI would give up before
  the chip's timer): a transceive waits for the answer or the chip's own timer (``init``'s
  ``timeout_ms``, 5 ms by default) for at most ``timeout_ms + WAIT_MARGIN_MS``, longer while
  Status1Reg says the chip's timer still runs (the host was slow, up to ``TIMER_CAP_MS``). If
  by then the frame never went out (no TxIRq) the chip is dead: ``ChipTimeout``. If it went out,
  the timer stopped (a reception started) and the reception never ended (several tags answering
  at once, noise) the chip is fine and the poll unsure: ``ReceiveTimeout``, which ``inventory``
  turns into an incomplete result;
* a soft reset is waited out (CommandReg leaves SoftReset, at most ``RESET_WAIT_MS``) and
  ``init`` reads back TModeReg and TxASKReg: writes made during a reset are lost on the chip;
* a REQA nobody answers is not proof of an empty field when tags were there at the last poll
  (three or more tags can drown each other, a tag left READY ignores REQA): when the caller
  says how many it ``had_tags`` and two or more are unread, ``inventory`` asks again with REQAs
  (every second one can be heard: tags that answered unheard are READY and take the next as
  an error), the first request of a poll also with WUPA (twice, for the same reason); a
  silence that outlasts them makes the poll incomplete, for at most ``UNSURE_POLLS`` polls in
  a row, so that lifted tags still go;
* an error after HLTA is noise (only a time-out means the tag took it): it is counted, never
  raised;
* ``CollReg``'s CollPos is read as the datasheet words it (bit position, 1-based, in the received
  frame counting the RxAlign offset); in the first anticollision round (the common case) this
  agrees with every driver we know of; deeper rounds are tested against the emulator only;
* no CRC coprocessor use: CRC_A is computed in software (``crc_a``).
"""

import time as _time

TYPE_CHECKING = False
if TYPE_CHECKING:  # never true on the board: names for the annotations (strings) below
    from collections.abc import Callable

    TicksMs = Callable[[], float]  # a clock in milliseconds (wrapping ints on MicroPython)
    TicksDiff = Callable[[float, float], float]  # (later, earlier) -> milliseconds between
    ReadReg = Callable[[int], int]
    WriteReg = Callable[[int, int], None]

# registers
COMMAND_REG = 0x01
COM_IEN_REG = 0x02
COM_IRQ_REG = 0x04
DIV_IRQ_REG = 0x05
ERROR_REG = 0x06
STATUS1_REG = 0x07
STATUS2_REG = 0x08
FIFO_DATA_REG = 0x09
FIFO_LEVEL_REG = 0x0A
CONTROL_REG = 0x0C
BIT_FRAMING_REG = 0x0D
COLL_REG = 0x0E
MODE_REG = 0x11
TX_MODE_REG = 0x12
RX_MODE_REG = 0x13
TX_CONTROL_REG = 0x14
TX_ASK_REG = 0x15
RF_CFG_REG = 0x26
T_MODE_REG = 0x2A
T_PRESCALER_REG = 0x2B
T_RELOAD_H_REG = 0x2C
T_RELOAD_L_REG = 0x2D
VERSION_REG = 0x37

# commands (CommandReg)
CMD_IDLE = 0x00
CMD_CALC_CRC = 0x03
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
POWER_DOWN = 0x10

# ComIrqReg bits
IRQ_TX = 0x40
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01

T_RUNNING = 0x08  # Status1Reg: the timer is running

# ErrorReg bits
ERR_BUFFER_OVFL = 0x10
ERR_COLL = 0x08
ERR_CRC = 0x04
ERR_PARITY = 0x02
ERR_PROTOCOL = 0x01

COLL_POS_NOT_VALID = 0x20

# PICC commands
PICC_REQA = 0x26
PICC_WUPA = 0x52
PICC_HALT = 0x50
PICC_SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04
NVB_SELECT = 0x70

KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2)

WAIT_MARGIN_MS = 10  # a transceive may last the chip's timer plus this (frame, answer, host)
RESET_WAIT_MS = 50  # the longest a soft reset is waited for (miguelbalboa waits 50 ms)
TIMER_CAP_MS = 1000  # a timer still running this long after a transmission is not believed
REASK_TRIES = 6  # REQAs re-sent when several known tags are missing: each 2nd one can be heard
UNSURE_POLLS = 3  # polls in a row whose silence is doubted; later ones count as empty again
TX_ASK_100 = 0x40  # TxASKReg Force100ASK: type A tags need 100 % ASK
T_MODE_AUTO = 0x80  # TModeReg TAuto: the timer starts when a transmission ends
RX_GAIN_MASK = 0x70  # RFCfgReg's RxGain bits; the others are reserved


def _default_clock() -> "tuple[TicksMs, TicksDiff]":
    """``(ticks_ms, ticks_diff)`` of this interpreter: MicroPython's own, or CPython's
    monotonic clock in milliseconds."""
    ticks_ms = getattr(_time, "ticks_ms", None)
    ticks_diff = getattr(_time, "ticks_diff", None)
    if ticks_ms is not None and ticks_diff is not None:
        return ticks_ms, ticks_diff
    monotonic = _time.monotonic

    def ms() -> float:
        return monotonic() * 1000.0

    return ms, _subtract


def _subtract(a: float, b: float) -> float:
    return a - b


def rf_cfg(value: int, gain: int) -> int:
    """RFCfgReg ``value`` with its RxGain bits set to ``gain`` (0..7), the reserved bits kept."""
    return (value & ~RX_GAIN_MASK & 0xFF) | ((gain & 0x07) << 4)


class ChipError(Exception):
    """Something went wrong talking to the reader chip or the tag; the poll's result is unsure."""


class ChipTimeout(ChipError):
    """The chip never finished a command: it is not responding (unplugged, unpowered, MISO)."""


class ReceiveTimeout(ChipError):
    """The frame went out but no answer and no timer ended the reception: tags answered that the
    chip could not make out (several at once, noise). The chip works; the poll is unsure."""


class TransmissionError(ChipError):
    """The chip reported a parity, protocol or buffer error on a tag's answer."""


class CollisionError(ChipError):
    """A collision the anticollision loop could not resolve (position invalid or not advancing)."""


class UidError(ChipError):
    """A garbled uid: BCC mismatch, bad CRC_A on SAK, a cascade tag where none belongs."""


def crc_a(data: bytes) -> bytes:
    """ISO 14443-A CRC (init 0x6363, reflected 0x1021), two bytes low first, as sent on air."""
    crc = 0x6363
    for b in data:
        b = (b ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def bcc(data: bytes) -> int:
    """The block check character of a cascade level: XOR of its four uid bytes."""
    x = 0
    for b in data:
        x ^= b
    return x


class Response:
    """A tag's answer to ``transceive``: ``data`` as in the FIFO, ``last_bits`` valid bits in the
    last byte (0 = all 8), and ``coll_pos`` (1-based, received-frame position, -1 when the chip
    says the position is not valid) when a collision was detected, else None."""

    def __init__(self, data: bytes, last_bits: int = 0, coll_pos: "int | None" = None) -> None:
        self.data = data
        self.last_bits = last_bits
        self.coll_pos = coll_pos

    def __repr__(self) -> str:
        return "Response(%s, last_bits=%d, coll_pos=%r)" % (
            "".join("%02X" % b for b in self.data),
            self.last_bits,
            self.coll_pos,
        )


class Mfrc522:
    """Register-level driver of one MFRC522 behind ``read_reg``/``write_reg`` callables.

    ``ticks_ms``/``ticks_diff`` are the clock its waits are bounded by (MicroPython's, or
    CPython's monotonic time, by default); a test may hand it the emulated chip's clock. Not
    thread-safe: one poll at a time per chip (the backends poll readers in turn anyway).
    """

    def __init__(
        self,
        read_reg: "ReadReg",
        write_reg: "WriteReg",
        ticks_ms: "TicksMs | None" = None,
        ticks_diff: "TicksDiff | None" = None,
    ) -> None:
        self.read_reg = read_reg
        self.write_reg = write_reg
        if ticks_ms is None:
            ticks_ms, ticks_diff = _default_clock()
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff if ticks_diff is not None else _subtract
        self.timeout_ms = 5
        self.wait_ms = self.timeout_ms + WAIT_MARGIN_MS
        self.unsure_polls = 0  # polls in a row that ended in silence with tags missing

    def _elapsed(self, start: float) -> float:
        return self.ticks_diff(self.ticks_ms(), start)

    def version(self) -> int:
        """VersionReg (0x91/0x92 for genuine chips, 0x88/0xB2 for clones); 0x00 or 0xFF means no
        chip answers on the bus."""
        return self.read_reg(VERSION_REG) & 0xFF

    def responding(self) -> bool:
        v = self.version()
        return v != 0x00 and v != 0xFF

    def init(self, timeout_ms: int = 5, gain: int = 4) -> None:
        """Soft-reset and configure: tag timeout ``timeout_ms``, 100 % ASK, CRC preset 6363,
        receiver gain ``gain`` (0..7), antenna off. Raises ChipTimeout if no chip answers, if
        the reset does not end within ``RESET_WAIT_MS``, or if the chip did not keep the
        settings (read back)."""
        w = self.write_reg
        r = self.read_reg
        w(COMMAND_REG, CMD_SOFT_RESET)
        # The reset runs until CommandReg leaves SoftReset (PowerDown cannot be set meanwhile);
        # whatever is written before that is lost.
        start = self.ticks_ms()
        while True:
            cmd = r(COMMAND_REG)
            if cmd == 0xFF:  # bits 7-6 read 0 on a chip: nothing drives MISO
                raise ChipTimeout("no chip answers (CommandReg reads 0xFF)")
            if cmd & 0x0F != CMD_SOFT_RESET and not cmd & POWER_DOWN:
                break
            if self._elapsed(start) > RESET_WAIT_MS:
                raise ChipTimeout(
                    "chip still in soft reset after %d ms (CommandReg 0x%02X)"
                    % (RESET_WAIT_MS, cmd)
                )
        if not self.responding():
            raise ChipTimeout("no chip answers (VersionReg reads 0x%02X)" % self.version())
        self.set_timer(timeout_ms)
        w(TX_ASK_REG, TX_ASK_100)
        w(MODE_REG, 0x3D)
        w(COLL_REG, 0x00)  # ValuesAfterColl = 0: bits after a collision read as 0
        self.set_gain(gain)
        t_mode = r(T_MODE_REG)
        tx_ask = r(TX_ASK_REG)
        if t_mode != T_MODE_AUTO or not tx_ask & TX_ASK_100:
            raise ChipTimeout(
                "chip did not keep its settings (TModeReg 0x%02X, TxASKReg 0x%02X)"
                % (t_mode, tx_ask)
            )
        self.antenna_off()

    def set_timer(self, timeout_ms: int) -> None:
        """The chip's timer: it fires ``timeout_ms`` after each transmission (a tag that has not
        answered by then is taken as absent), and this driver's waits are bounded by it. Code
        that sets the timer registers itself must call this instead, or the waits will not fit.
        """
        reload = max(1, min(0xFFFF, int(timeout_ms * 40)))  # 40 kHz timer: 25 us per tick
        w = self.write_reg
        w(T_MODE_REG, T_MODE_AUTO)  # TAuto: the timer starts when a transmission ends
        w(T_PRESCALER_REG, 0xA9)  # 13.56 MHz / (2 * 169 + 1) = 40 kHz
        w(T_RELOAD_H_REG, reload >> 8)
        w(T_RELOAD_L_REG, reload & 0xFF)
        self.timeout_ms = timeout_ms
        self.wait_ms = timeout_ms + WAIT_MARGIN_MS

    def set_gain(self, gain: int) -> None:
        """Receiver gain ``gain`` (0..7: 18..48 dB) in RFCfgReg's RxGain bits only."""
        self.write_reg(RF_CFG_REG, rf_cfg(self.read_reg(RF_CFG_REG), gain))

    def antenna_on(self) -> None:
        v = self.read_reg(TX_CONTROL_REG)
        if v & 0x03 != 0x03:
            self.write_reg(TX_CONTROL_REG, v | 0x03)

    def antenna_off(self) -> None:
        v = self.read_reg(TX_CONTROL_REG)
        if v & 0x03:
            self.write_reg(TX_CONTROL_REG, v & ~0x03 & 0xFF)

    def transceive(
        self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0
    ) -> "Response | None":
        """Send ``data`` (last byte has ``tx_last_bits`` bits, 0 = 8) and return the answer, or
        None when no tag answered before the chip's timer ran out."""
        w = self.write_reg
        r = self.read_reg
        framing = ((rx_align & 0x07) << 4) | (tx_last_bits & 0x07)
        w(COMMAND_REG, CMD_IDLE)
        w(COM_IRQ_REG, 0x7F)
        w(FIFO_LEVEL_REG, 0x80)
        for b in data:
            w(FIFO_DATA_REG, b)
        w(BIT_FRAMING_REG, framing)
        w(COMMAND_REG, CMD_TRANSCEIVE)
        w(BIT_FRAMING_REG, framing | 0x80)
        start = self.ticks_ms()
        while True:
            irq = r(COM_IRQ_REG)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                break
            elapsed = self._elapsed(start)
            if elapsed > self.wait_ms:
                irq = r(COM_IRQ_REG)  # one more look: the host may have been away meanwhile
                if irq & (IRQ_RX | IRQ_IDLE | IRQ_TIMER):
                    break
                if irq & IRQ_TX and elapsed < TIMER_CAP_MS and r(STATUS1_REG) & T_RUNNING:
                    continue  # the chip's timer still runs: the host was slow, not the chip
                w(COMMAND_REG, CMD_IDLE)
                if irq & IRQ_TX:
                    raise ReceiveTimeout(
                        "frame sent, reception never ended in %d ms" % self.wait_ms
                    )
                raise ChipTimeout("chip did not send a frame in %d ms" % self.wait_ms)
        w(BIT_FRAMING_REG, framing)
        if not irq & (IRQ_RX | IRQ_IDLE):
            w(COMMAND_REG, CMD_IDLE)
            return None
        err = r(ERROR_REG)
        if err & (ERR_BUFFER_OVFL | ERR_PARITY | ERR_PROTOCOL):
            w(COMMAND_REG, CMD_IDLE)
            raise TransmissionError("chip error register 0x%02X" % err)
        n = r(FIFO_LEVEL_REG) & 0x7F
        out = bytes(r(FIFO_DATA_REG) for _ in range(n))
        last_bits = r(CONTROL_REG) & 0x07
        coll_pos = None
        if err & ERR_COLL:
            coll = r(COLL_REG)
            coll_pos = -1 if coll & COLL_POS_NOT_VALID else ((coll & 0x1F) or 32)
        w(COMMAND_REG, CMD_IDLE)
        return Response(out, last_bits, coll_pos)


# --- ISO 14443-3 type A ---------------------------------------------------------------------------


def request(chip: Mfrc522, wakeup: bool = False) -> "bytes | None":
    """REQA (idle tags) or WUPA (idle and halted tags): the ATQA, or None when no tag answers.

    Several tags answering at once collide in the ATQA; that still means "tags here" and returns
    the (merged) ATQA bytes.
    """
    resp = chip.transceive(bytes((PICC_WUPA if wakeup else PICC_REQA,)), tx_last_bits=7)
    if resp is None:
        return None
    if resp.coll_pos is None and (len(resp.data) != 2 or resp.last_bits):
        raise TransmissionError("ATQA of %d bytes" % len(resp.data))
    return resp.data


def _set_bit(buf: bytearray, pos: int, value: int) -> None:
    if value:
        buf[pos // 8] |= 1 << (pos % 8)
    else:
        buf[pos // 8] &= ~(1 << (pos % 8)) & 0xFF


def anticollision_select(chip: Mfrc522, level: int) -> "tuple[bytes, int] | None":
    """Run anticollision and SELECT at cascade ``level`` (0, 1 or 2, i.e. levels 1-3).

    Returns ``(uid_cl, sak)``: the four uid bytes of this level and the tag's SAK, or None when
    the tag is gone. At a collision it follows the tag with a 1 at the colliding bit.
    """
    sel = PICC_SEL[level]
    known = bytearray(5)
    known_bits = 0
    for _ in range(34):
        if known_bits >= 40:
            break
        nbytes = known_bits // 8
        nbits = known_bits % 8
        nvb = ((2 + nbytes) << 4) | nbits
        frame = bytes((sel, nvb)) + bytes(known[: nbytes + (1 if nbits else 0)])
        resp = chip.transceive(frame, tx_last_bits=nbits, rx_align=nbits)
        if resp is None:
            return None
        data = resp.data
        for i in range(len(data)):
            j = nbytes + i
            if j >= 5:
                break
            if i == 0 and nbits:
                mask = (0xFF << nbits) & 0xFF
                known[j] = (known[j] & ~mask & 0xFF) | (data[0] & mask)
            else:
                known[j] = data[i]
        if resp.coll_pos is None:
            if nbytes + len(data) != 5 or resp.last_bits:
                raise UidError(
                    "anticollision answer of %d bytes at level %d" % (len(data), level + 1)
                )
            known_bits = 40
            break
        if resp.coll_pos < 0:
            raise CollisionError("collision at an invalid position, level %d" % (level + 1))
        pos = nbytes * 8 + resp.coll_pos  # 1-based position in the 40-bit level string
        if pos <= known_bits or pos > 32:
            raise CollisionError(
                "collision position %d does not advance past %d bits" % (pos, known_bits)
            )
        for b in range(pos, 40):
            _set_bit(known, b, 0)
        _set_bit(known, pos - 1, 1)
        known_bits = pos
    else:
        raise CollisionError("anticollision did not converge")
    uid5 = bytes(known)
    if bcc(uid5[:4]) != uid5[4]:
        raise UidError("BCC mismatch at level %d: %s" % (level + 1, _hex(uid5)))
    frame = bytes((sel, NVB_SELECT)) + uid5
    resp = chip.transceive(frame + crc_a(frame))
    if resp is None:
        return None
    if len(resp.data) != 3 or resp.coll_pos is not None:
        raise UidError("SAK of %d bytes at level %d" % (len(resp.data), level + 1))
    if crc_a(resp.data[:1]) != resp.data[1:3]:
        raise UidError("SAK CRC_A mismatch at level %d" % (level + 1))
    return uid5[:4], resp.data[0]


def select_uid(chip: Mfrc522) -> "tuple[bytes, int] | None":
    """After a tag answered REQA/WUPA: run the cascade and return ``(uid, sak)`` with the full
    4-, 7- or 10-byte uid, or None when the tag left. The tag is then ACTIVE (halt it next)."""
    uid = bytearray()
    for level in range(3):
        got = anticollision_select(chip, level)
        if got is None:
            return None
        cl, sak = got
        if sak & SAK_CASCADE:
            if cl[0] != CASCADE_TAG:
                raise UidError(
                    "SAK says uid incomplete but level %d has no cascade tag" % (level + 1)
                )
            uid += cl[1:4]
        else:
            if cl[0] == CASCADE_TAG:
                raise UidError("cascade tag in the last level of a uid")
            uid += cl
            return bytes(uid), sak
    raise UidError("uid longer than three cascade levels")


def halt(chip: Mfrc522) -> None:
    """HLTA: put the ACTIVE tag to sleep so the next REQA finds the others. Only a time-out
    means the tag took it; an answer (noise, an error) is ignored by ``inventory``."""
    frame = bytes((PICC_HALT, 0x00))
    chip.transceive(frame + crc_a(frame))


class Inventory:
    """The result of one poll of one reader: the uids read and what went wrong.

    ``complete`` is False when the inventory cannot vouch for the tags it did not list (an error
    stopped it, a reception never ended, a REQA missed tags that a WUPA then found, a silence
    that may be drowned tags): a caller must not take their absence as a removal. ``errors``
    counts chip-level errors (an error after HLTA among them: noise that changes nothing),
    ``stalls`` receptions that never ended, ``confirmations`` silent requests asked again,
    ``contradicted`` those of them that a second request found tags for (missed reads), and
    ``unsure`` says the poll ended in a silence that several missing tags may have drowned.
    """

    def __init__(self) -> None:
        self.uids = []  # type: list[bytes]
        self.collisions = 0
        self.garbled = 0
        self.errors = 0
        self.stalls = 0
        self.confirmations = 0
        self.contradicted = 0
        self.unsure = False
        self.complete = True

    def __repr__(self) -> str:
        return "Inventory(%s, complete=%r)" % ([_hex(u) for u in self.uids], self.complete)


def inventory(chip: Mfrc522, max_tags: int = 4, had_tags: int = 0) -> Inventory:
    """Read every tag in the field (up to ``max_tags``): REQA, cascade, HALT, repeat.

    The antenna must be on and the field settled. Halted tags wake only after the field has been
    off for ~5 ms, which is why readers keep each field off that long between polls.
    ``had_tags``: how many tags were there at this reader's last poll (True counts as one).
    While fewer have been read, a silent REQA is asked again: with up to ``REASK_TRIES`` REQAs
    when two or more are missing (they may have drowned each other: tags that answered unheard
    are READY and take the next REQA as an error, so every second one can be heard), then, for
    the first request of a poll, with up to two WUPAs (tags a short field gap left halted or
    ACTIVE). A WUPA that finds tags makes the poll incomplete (REQAs cannot see the tags it
    woke and halted again). A silence that outlasts the REQAs while two or more tags are missing
    makes the poll ``unsure`` and incomplete, for at most ``UNSURE_POLLS`` polls in a row of
    this chip: after that its silences count again, so tags that did leave are still reported
    gone (a poll that vouches for its field ends the run; one cut short by an error does not).
    ``ChipTimeout`` (chip dead) propagates; tag-level errors are counted in the result, which
    is then incomplete (an error after HLTA only counts).
    """
    result = Inventory()
    _read(chip, result, max_tags, int(had_tags))
    if result.unsure:
        chip.unsure_polls += 1
        if chip.unsure_polls <= UNSURE_POLLS:
            result.complete = False
    elif result.complete:
        chip.unsure_polls = 0
    return result


def _confirm(chip: Mfrc522, result: Inventory, first: bool, missing: int) -> "bytes | None":
    """A REQA went unanswered while ``missing`` known tags have not been read: ask again (see
    ``inventory``) and return the ATQA a second request got, or None."""
    result.confirmations += 1
    if missing >= 2:
        for _ in range(REASK_TRIES):
            atqa = request(chip)  # not WUPA: it would wake the tags this poll halted
            if atqa is not None:
                result.contradicted += 1
                return atqa
    if first:
        # Tags left READY take the first WUPA as an error (back to IDLE, silent): so two.
        for _ in range(2):
            atqa = request(chip, wakeup=True)
            if atqa is not None:
                result.contradicted += 1
                result.complete = False  # REQA missed tags: later silence proves nothing
                return atqa
    if missing >= 2:
        result.unsure = True
    return None


def _read(chip: Mfrc522, result: Inventory, max_tags: int, known: int) -> None:
    """``inventory``'s loop: fills ``result``."""
    for n in range(max_tags):
        try:
            atqa = request(chip)
            missing = known - len(result.uids)
            if atqa is None and missing > 0 and (n == 0 or missing >= 2):
                atqa = _confirm(chip, result, n == 0, missing)
            if atqa is None:
                return
            got = select_uid(chip)
        except ChipTimeout:
            raise
        except ReceiveTimeout:
            result.stalls += 1
            result.errors += 1
            result.complete = False
            return
        except CollisionError:
            result.collisions += 1
            result.complete = False
            return
        except UidError:
            result.garbled += 1
            result.complete = False
            return
        except ChipError:
            result.errors += 1
            result.complete = False
            return
        if got is None:
            result.complete = False
            return
        uid = got[0]
        if uid not in result.uids:
            result.uids.append(uid)
        try:
            halt(chip)
        except ChipTimeout:
            raise
        except ChipError:  # noise after HLTA: the tag is halted or answers the next REQA
            result.errors += 1
    # max_tags read: there may be more
    try:
        if request(chip) is not None:
            result.complete = False
    except ChipTimeout:
        raise
    except ChipError:
        result.complete = False


def _hex(data: bytes) -> str:
    return "".join("%02X" % b for b in data)
