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
MicroPython: plain classes, ``%`` formatting, function annotations only, no imports.

Hazards:

* the poll loop in ``transceive`` is bounded by a count (``max_polls``), not a clock: a dead
  chip raises ``ChipTimeout`` after that many register reads; the chip's own timer (set by
  ``init``, default 5 ms) ends a poll that no tag answers;
* ``CollReg``'s CollPos is read as the datasheet words it (bit position, 1-based, in the received
  frame counting the RxAlign offset); in the first anticollision round (the common case) this
  agrees with every driver we know of; deeper rounds are tested against the emulator only;
* no CRC coprocessor use: CRC_A is computed in software (``crc_a``).
"""

# registers
COMMAND_REG = 0x01
COM_IEN_REG = 0x02
COM_IRQ_REG = 0x04
DIV_IRQ_REG = 0x05
ERROR_REG = 0x06
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


class ChipError(Exception):
    """Something went wrong talking to the reader chip or the tag; the poll's result is unsure."""


class ChipTimeout(ChipError):
    """The chip never finished a command: it is not responding (unplugged, unpowered, MISO)."""


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
            "".join("%02X" % b for b in self.data), self.last_bits, self.coll_pos)


class Mfrc522:
    """Register-level driver of one MFRC522 behind ``read_reg``/``write_reg`` callables.

    Not thread-safe: one poll at a time per chip (the backends poll readers in turn anyway).
    """

    def __init__(self, read_reg, write_reg, max_polls: int = 2000) -> None:
        self.read_reg = read_reg
        self.write_reg = write_reg
        self.max_polls = max_polls

    def version(self) -> int:
        """VersionReg (0x91/0x92 for genuine chips, 0x88/0xB2 for clones); 0x00 or 0xFF means no
        chip answers on the bus."""
        return self.read_reg(VERSION_REG) & 0xFF

    def responding(self) -> bool:
        v = self.version()
        return v != 0x00 and v != 0xFF

    def init(self, timeout_ms: int = 5, gain: int = 4) -> None:
        """Soft-reset and configure: tag timeout ``timeout_ms``, 100 % ASK, CRC preset 6363,
        receiver gain ``gain`` (0..7), antenna off. Raises ChipTimeout if no chip answers."""
        w = self.write_reg
        w(COMMAND_REG, CMD_SOFT_RESET)
        for _ in range(self.max_polls):
            if not self.read_reg(COMMAND_REG) & POWER_DOWN:
                break
        else:
            raise ChipTimeout("chip stays in power-down after soft reset")
        if not self.responding():
            raise ChipTimeout("no chip answers (VersionReg reads 0x%02X)" % self.version())
        reload = max(1, min(0xFFFF, int(timeout_ms * 40)))  # 40 kHz timer: 25 us per tick
        w(T_MODE_REG, 0x80)  # TAuto: the timer starts when a transmission ends
        w(T_PRESCALER_REG, 0xA9)
        w(T_RELOAD_H_REG, reload >> 8)
        w(T_RELOAD_L_REG, reload & 0xFF)
        w(TX_ASK_REG, 0x40)
        w(MODE_REG, 0x3D)
        w(COLL_REG, 0x00)  # ValuesAfterColl = 0: bits after a collision read as 0
        w(RF_CFG_REG, (gain & 0x07) << 4)
        self.antenna_off()

    def antenna_on(self) -> None:
        v = self.read_reg(TX_CONTROL_REG)
        if v & 0x03 != 0x03:
            self.write_reg(TX_CONTROL_REG, v | 0x03)

    def antenna_off(self) -> None:
        v = self.read_reg(TX_CONTROL_REG)
        if v & 0x03:
            self.write_reg(TX_CONTROL_REG, v & ~0x03 & 0xFF)

    def transceive(self, data: bytes, tx_last_bits: int = 0,
                   rx_align: int = 0) -> "Response | None":
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
        irq = 0
        for _ in range(self.max_polls):
            irq = r(COM_IRQ_REG)
            if irq & (IRQ_RX | IRQ_IDLE) or irq & IRQ_TIMER:
                break
        else:
            w(COMMAND_REG, CMD_IDLE)
            raise ChipTimeout("chip did not finish a transceive")
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


def anticollision_select(chip: Mfrc522, level: int) -> "tuple | None":
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
        frame = bytes((sel, nvb)) + bytes(known[:nbytes + (1 if nbits else 0)])
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
                raise UidError("anticollision answer of %d bytes at level %d"
                               % (len(data), level + 1))
            known_bits = 40
            break
        if resp.coll_pos < 0:
            raise CollisionError("collision at an invalid position, level %d" % (level + 1))
        pos = nbytes * 8 + resp.coll_pos  # 1-based position in the 40-bit level string
        if pos <= known_bits or pos > 32:
            raise CollisionError("collision position %d does not advance past %d bits"
                                 % (pos, known_bits))
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


def select_uid(chip: Mfrc522) -> "tuple | None":
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
                raise UidError("SAK says uid incomplete but level %d has no cascade tag"
                               % (level + 1))
            uid += cl[1:4]
        else:
            if cl[0] == CASCADE_TAG:
                raise UidError("cascade tag in the last level of a uid")
            uid += cl
            return bytes(uid), sak
    raise UidError("uid longer than three cascade levels")


def halt(chip: Mfrc522) -> None:
    """HLTA: put the ACTIVE tag to sleep so the next REQA finds the others. A tag that
    acknowledges the halt has in fact refused it (ISO 14443-3), which we ignore."""
    frame = bytes((PICC_HALT, 0x00))
    chip.transceive(frame + crc_a(frame))


class Inventory:
    """The result of one poll of one reader: the uids read and what went wrong.

    ``complete`` is False when an error stopped the inventory early: tags not listed may still be
    in the field, so a caller must not take their absence as a removal.
    """

    def __init__(self) -> None:
        self.uids = []  # type: list
        self.collisions = 0
        self.garbled = 0
        self.errors = 0
        self.complete = True

    def __repr__(self) -> str:
        return "Inventory(%s, complete=%r)" % ([_hex(u) for u in self.uids], self.complete)


def inventory(chip: Mfrc522, max_tags: int = 4) -> Inventory:
    """Read every tag in the field (up to ``max_tags``): REQA, cascade, HALT, repeat.

    The antenna must be on and the field settled. Halted tags wake only after the field goes off,
    which is why readers take turns with the field off between polls. ``ChipTimeout`` (chip
    dead) propagates; tag-level errors are counted in the result, which is then incomplete.
    """
    result = Inventory()
    for _ in range(max_tags):
        try:
            if request(chip) is None:
                return result
            got = select_uid(chip)
        except ChipTimeout:
            raise
        except CollisionError:
            result.collisions += 1
            result.complete = False
            return result
        except UidError:
            result.garbled += 1
            result.complete = False
            return result
        except ChipError:
            result.errors += 1
            result.complete = False
            return result
        if got is None:
            result.complete = False
            return result
        uid = got[0]
        if uid not in result.uids:
            result.uids.append(uid)
        halt(chip)
    # max_tags read: there may be more
    try:
        if request(chip) is not None:
            result.complete = False
    except ChipTimeout:
        raise
    except ChipError:
        result.complete = False
    return result


def _hex(data: bytes) -> str:
    return "".join("%02X" % b for b in data)
