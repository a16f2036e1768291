"""The bridge firmware's own loop on CPython: emulated RC522 chips behind a fake ``machine.SPI``,
a fake clock, and a scripted host decoding the frames it writes."""

from __future__ import annotations

import pytest

from firmware_bridge import mfrc522_cascade as m
from firmware_bridge import protocol as p
from firmware_bridge.config import Config, ConfigError
from scorekeeper.readers.fake_mfrc522 import FakeMfrc522
from tests.firmware.rig import Rig, health, tags

NTAG = "04A1B2C3D4E5F6"
NTAG_TWIN = "04A1B2C3D4E5F7"
MIFARE = "DEADBEEF"


def test_boot_sends_hello_inventory_and_heartbeat() -> None:
    rig = Rig(3)
    msgs = rig.host.take()
    assert msgs[0] == p.Hello((1, 2, 3), 3)
    assert isinstance(msgs[1], p.Heartbeat)
    assert [h.reader for h in msgs[2:]] == [0, 1, 2]
    assert all(h.status == p.STATUS_OK for h in msgs[2:])
    assert rig.host.decoder.crc_errors == 0 and rig.host.decoder.lost == 0


def test_a_tag_placed_and_removed_gives_one_present_and_one_gone() -> None:
    rig = Rig(2)
    rig.chips[0].place(MIFARE)
    rig.cycles(10)
    assert tags(rig.host.messages()) == [("+", 0, MIFARE)]
    rig.chips[0].remove(MIFARE)
    rig.run_ms(1000)
    rig.chips[0].place(MIFARE)
    rig.cycles(5)
    assert tags(rig.host.messages()) == [("+", 0, MIFARE), ("-", 0, MIFARE), ("+", 0, MIFARE)]
    assert rig.bridge.readers[0].misses == 0  # a removal is not a run of missed reads


def test_antennas_take_turns_and_settle_before_the_first_request() -> None:
    rig = Rig(3)
    events: list[tuple[str, int, int]] = []
    for i, chip in enumerate(rig.chips):
        chip.place(MIFARE if i else NTAG)
        write, transmit = chip.write_reg, chip._transmit

        def hooked_write(
            reg: int, value: int, chip: FakeMfrc522 = chip, i: int = i, write: object = write
        ) -> None:
            was = chip.field_on
            write(reg, value)  # type: ignore[operator]
            if chip.field_on and not was:
                on = [c for c in rig.chips if c.field_on]
                assert on == [chip], "two fields on at once"
                events.append(("on", i, rig.time.t))

        def hooked_transmit(framing: int, i: int = i, transmit: object = transmit) -> None:
            events.append(("tx", i, rig.time.t))
            transmit(framing)  # type: ignore[operator]

        chip.write_reg = hooked_write  # type: ignore[method-assign]
        chip._transmit = hooked_transmit  # type: ignore[method-assign]
    rig.cycles(4)
    assert [c.field_cycles for c in rig.chips] == [4, 4, 4]
    assert not any(c.field_on for c in rig.chips)
    last_on: dict[int, int] = {}
    for kind, i, t in events:
        if kind == "on":
            last_on[i] = t
        else:
            assert t - last_on[i] >= 5  # the field settled for settle_ms before talking
    assert sorted(tags(rig.host.messages())) == [("+", 0, NTAG), ("+", 1, MIFARE), ("+", 2, MIFARE)]


def test_a_seven_byte_uid_arrives_whole() -> None:
    rig = Rig(1)
    rig.chips[0].place(NTAG)
    rig.cycles(2)
    present = [msg for msg in rig.host.messages() if isinstance(msg, p.TagPresent)]
    assert len(present) == 1 and present[0].uid == bytes.fromhex(NTAG)


def test_several_tags_on_one_reader_are_all_inventoried() -> None:
    rig = Rig(2)
    rig.chips[1].place(NTAG)
    rig.chips[1].place(NTAG_TWIN)  # same cascade level 1: a level-1 read could not tell them
    rig.chips[1].place(MIFARE)
    rig.cycles(3)
    assert sorted(tags(rig.host.messages())) == sorted(
        [("+", 1, NTAG), ("+", 1, NTAG_TWIN), ("+", 1, MIFARE)]
    )
    assert rig.bridge.readers[1].collisions == 0


def test_missed_reads_never_produce_tag_gone() -> None:
    rig = Rig(1, timing={"absent_polls": 3, "absent_ms": 0})
    chip = rig.chips[0]
    chip.place(NTAG)
    rig.cycles(1)
    for _ in range(20):  # a miss now and then, and two in a row
        chip.miss(1)
        rig.cycles(2)
        chip.miss(2)
        rig.cycles(3)
    assert tags(rig.host.messages()) == [("+", 0, NTAG)]
    # a poll whose REQA went unanswered asks again with WUPA, which finds the tag: one miss each
    assert rig.bridge.readers[0].misses == 40
    rig.run_ms(1100)
    assert health(rig.host.messages(), 0)[-1].misses == 40


def test_absence_needs_both_polls_and_time() -> None:
    rig = Rig(1, timing={"absent_polls": 2, "absent_ms": 400})
    chip = rig.chips[0]
    chip.place(MIFARE)
    rig.cycles(1)
    chip.remove(MIFARE)
    rig.cycles(10)  # 10 polls x 5 ms settle = 50 ms: enough polls, not enough time
    assert tags(rig.host.messages()) == [("+", 0, MIFARE)]
    rig.run_ms(400)
    assert tags(rig.host.messages()) == [("+", 0, MIFARE), ("-", 0, MIFARE)]


def test_a_reader_that_stops_responding_is_reported_and_the_others_go_on() -> None:
    rig = Rig(2)
    dead, alive = rig.chips
    dead.place(MIFARE)
    rig.cycles(2)
    rig.host.take()
    dead.responding = False
    rig.cycles(2)
    msgs = rig.host.take()
    assert [h.status for h in health(msgs, 0)] == [p.STATUS_NOT_RESPONDING]
    alive.place(NTAG)
    rig.run_ms(3000)  # a long outage: its tag is not reported gone
    msgs = rig.host.take()
    assert tags(msgs) == [("+", 1, NTAG)]
    assert all(h.status == p.STATUS_NOT_RESPONDING for h in health(msgs, 0))
    assert all(h.status == p.STATUS_OK for h in health(msgs, 1))
    assert "ChipTimeout" in rig.bridge.stats()["readers"][0]["error"]
    dead.responding = True
    rig.run_ms(1500)
    msgs = rig.host.take()
    assert health(msgs, 0)[-1].status == p.STATUS_OK
    assert tags(msgs) == []  # the tag never left: nothing to report


class HungChip(FakeMfrc522):
    """Answers its version register but never finishes a command (ComIrqReg stays 0)."""

    hung = False

    def read_reg(self, reg: int) -> int:
        if self.hung and reg & 0x3F == m.COM_IRQ_REG:
            return 0
        return super().read_reg(reg)


def test_a_chip_that_times_out_is_not_responding() -> None:
    hung = HungChip()
    rig = Rig(chips=[hung, FakeMfrc522()])
    hung.place(MIFARE)
    rig.cycles(1)
    hung.hung = True
    rig.cycles(1)
    assert health(rig.host.messages(), 0)[-1].status == p.STATUS_NOT_RESPONDING
    assert not any(c.field_on for c in rig.chips)  # the field was switched off after the error
    hung.hung = False
    rig.run_ms(1200)
    assert health(rig.host.messages(), 0)[-1].status == p.STATUS_OK
    assert tags(rig.host.messages()) == [("+", 0, MIFARE)]


def test_a_dead_reader_at_boot_and_a_bus_fault_do_not_stop_the_bridge() -> None:
    chips = [FakeMfrc522(), FakeMfrc522()]
    chips[0].responding = False
    rig = Rig(chips=chips)
    assert [h.status for h in health(rig.host.messages(), 0)] == [p.STATUS_NOT_RESPONDING]
    chips[1].place(MIFARE)
    rig.cycles(2)
    rig.spi.fail = OSError("SPI bus fault")
    rig.run_ms(500)
    rig.spi.fail = None
    chips[0].responding = True
    rig.run_ms(1500)
    assert all(not r["error"] for r in rig.bridge.stats()["readers"])
    assert tags(rig.host.messages()) == [("+", 1, MIFARE)]


def test_collisions_and_garbled_uids_are_counted_never_reported() -> None:
    rig = Rig(1, timing={"absent_polls": 2, "absent_ms": 0})
    chip = rig.chips[0]
    chip.garble(3)  # a fresh tag read garbled three times
    chip.place(NTAG)
    rig.cycles(3)
    assert tags(rig.host.messages()) == []
    rig.cycles(1)
    assert tags(rig.host.messages()) == [("+", 0, NTAG)]
    for _ in range(5):  # faults while it lies there: no removal, no phantom tag
        chip.collide(1)
        rig.cycles(1)
        chip.garble(1)
        rig.cycles(1)
    assert tags(rig.host.messages()) == [("+", 0, NTAG)]
    rd = rig.bridge.readers[0]
    assert (rd.collisions, rd.garbled, rd.misses) == (5, 8, 0)
    rig.run_ms(1100)
    last = health(rig.host.messages(), 0)[-1]
    assert last.collisions == 5 and last.misses == 8  # garbled reads count as failed reads


def test_sync_gets_hello_inventory_and_heartbeat() -> None:
    rig = Rig(3)
    rig.chips[0].place(MIFARE)
    rig.chips[2].place(NTAG)
    rig.chips[2].place(NTAG_TWIN)
    rig.cycles(2)
    rig.chips[2].responding = False  # a frozen reader's tags are still listed
    rig.cycles(1)
    rig.host.take()
    rig.host.send_raw(b"\x7e")
    rig.host.send(p.Command.sync())
    rig.bridge.service_host()
    msgs = rig.host.take()
    assert msgs[0] == p.Hello((1, 2, 3), 3)
    assert sorted(tags(msgs[1:4])) == [("+", 0, MIFARE), ("+", 2, NTAG), ("+", 2, NTAG_TWIN)]
    assert isinstance(msgs[4], p.Heartbeat)
    assert [h.reader for h in msgs[5:]] == [0, 1, 2]
    assert msgs[7].status == p.STATUS_NOT_RESPONDING
    assert not any(isinstance(x, p.Ack | p.Error) for x in msgs)


def test_heartbeat_about_every_second_with_counters() -> None:
    rig = Rig(2)
    rig.host.take()
    rig.run_ms(3500)
    beats = [x for x in rig.host.take() if isinstance(x, p.Heartbeat)]
    assert len(beats) == 3
    assert [b.uptime_ms // 100 for b in beats] == [10, 20, 30]
    assert beats[0].polls < beats[-1].polls


def test_ticks_wrap_around_without_a_hiccup() -> None:
    rig = Rig(1, start=(1 << 30) - 300)
    rig.chips[0].place(MIFARE)
    rig.run_ms(2100)  # crosses the wrap of the 30-bit ticks
    assert tags(rig.host.messages()) == [("+", 0, MIFARE)]
    assert 2100 <= rig.bridge.uptime_ms <= 2130  # one poll: field off 10 ms, settle 5 ms
    beats = [x for x in rig.host.messages() if isinstance(x, p.Heartbeat)]
    assert len(beats) == 3


def test_led_buzzer_and_reader_commands_are_applied_and_acked() -> None:
    rig = Rig(2)
    host = rig.host
    host.take()
    s1 = host.send(p.Command.led(0, 255, 0, 0))
    s2 = host.send(p.Command.buzzer(440, 100))
    s3 = host.send(p.Command.reader_settings(1, enabled=False, gain=4))
    s4 = host.send(p.Command.reader_settings(0, enabled=True, gain=7))
    s5 = host.send(p.Command.timing(8, 2, 500))
    rig.bridge.service_host()
    assert host.take() == [p.Ack(s) for s in (s1, s2, s3, s4, s5)]
    assert rig.led_pin.level == 1
    assert rig.pwm.playing and rig.pwm.freq() == 440
    assert rig.chips[0].regs[m.RF_CFG_REG] == 0x78  # RxGain 7; reserved bit 3 kept as reset
    assert rig.chips[0].reserved_writes == []
    assert (rig.bridge.settle_ms, rig.bridge.present_polls, rig.bridge.absent_ms) == (8, 2, 500)
    cycles = rig.chips[1].field_cycles
    rig.chips[0].place(MIFARE)
    rig.chips[1].place(NTAG)
    rig.bridge.step()
    assert tags(host.messages()) == []  # present_polls is 2 now
    rig.run_ms(200)
    assert not rig.pwm.playing  # 100 ms are up
    assert rig.led_pin.level == 1  # the host owns the status LED now
    assert rig.chips[1].field_cycles == cycles  # reader 1 is disabled: never polled
    assert tags(host.messages()) == [("+", 0, MIFARE)]
    host.send(p.Command.reader_settings(1, enabled=True))
    rig.run_ms(100)
    assert tags(host.messages()) == [("+", 0, MIFARE), ("+", 1, NTAG)]
    host.send(p.Command.led(0, 0, 0, 0))
    rig.bridge.service_host()
    assert rig.led_pin.level == 0


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (p.Command(0x42, b"\x01"), p.ERR_UNKNOWN_COMMAND),
        (p.Command.led(5, 1, 1, 1), p.ERR_BAD_ARGS),
        (p.Command.reader_settings(9), p.ERR_BAD_ARGS),
        (p.Command(p.CMD_READER, bytes((0, 1, 9))), p.ERR_BAD_ARGS),
        (p.Command(p.CMD_READER, bytes((0, 2, 4))), p.ERR_BAD_ARGS),
        (p.Command.timing(1, 1, 100), p.ERR_BAD_ARGS),
        (p.Command.timing(5, 0, 100), p.ERR_BAD_ARGS),
        (p.Command.buzzer(5, 100), p.ERR_BAD_ARGS),
    ],
)
def test_bad_commands_get_error(frame: p.Command, code: int) -> None:
    rig = Rig(2)
    rig.host.take()
    seq = rig.host.send(frame)
    rig.bridge.service_host()
    answer = rig.host.take()
    assert len(answer) == 1 and isinstance(answer[0], p.Error)
    assert (answer[0].seq, answer[0].code) == (seq, code) and answer[0].text


def test_malformed_and_corrupt_frames() -> None:
    rig = Rig(1)
    rig.host.take()
    rig.host.send_raw(p.encode_raw(7, p.COMMAND, bytes((p.CMD_LED, 0))))  # args too short
    bad = bytearray(p.encode(8, p.Command.led(0, 1, 1, 1)))
    bad[5] ^= 0x10  # CRC fails: no answer (the seq itself is not to be trusted)
    rig.host.send_raw(bytes(bad) + b"noise")
    rig.host.send(p.Command.sync())
    rig.bridge.service_host()
    msgs = rig.host.take()
    assert msgs[0] == p.Error(7, p.ERR_BAD_FRAME, msgs[0].text)
    assert isinstance(msgs[1], p.Hello)
    beat = next(x for x in msgs if isinstance(x, p.Heartbeat))
    assert beat.rx_errors == 3  # one malformed, one CRC error, one burst of noise
    assert not rig.bridge._status_led_host  # the corrupt LED command was not applied


def test_console_escape_ends_the_loop_but_frames_never_trigger_it() -> None:
    rig = Rig(1)
    for seq in range(256):  # every sequence number, with 0x03 bytes in the frames
        rig.host.seq.next_seq = seq
        rig.host.send(p.Command.led(0, 3, 3, 3))
        rig.host.send(p.Command.reader_settings(0, True, 3))
        rig.host.send(p.Command.buzzer(3, 3))
    while rig.host.inbox:
        rig.bridge.service_host()
    assert not rig.bridge.exit_requested
    rig.host.send_raw(b"\r\x03\r\x01")  # what mpremote sends to get the raw REPL
    rig.bridge.step()
    assert rig.bridge.exit_requested


def test_run_returns_on_the_console_escape_with_fields_and_outputs_off() -> None:
    rig = Rig(2, boot=False)
    rig.chips[0].place(MIFARE)
    rig.host.send_raw(b"\x7e\x03\x03")  # Ctrl-C twice in mpremote repl
    rig.bridge.run()
    assert isinstance(rig.host.messages()[0], p.Hello)
    assert not any(c.field_on for c in rig.chips)
    assert rig.led_pin.level == 0 and not rig.pwm.playing


def test_write_failures_are_counted_as_dropped() -> None:
    rig = Rig(1)
    rig.host.fail_writes = True
    rig.chips[0].place(MIFARE)
    rig.run_ms(1100)
    rig.host.fail_writes = False
    rig.run_ms(1000)
    beat = [x for x in rig.host.messages() if isinstance(x, p.Heartbeat)][-1]
    assert beat.dropped == 3  # the TAG_PRESENT, a heartbeat and its health report
    rig.host.send(p.Command.sync())
    rig.bridge.service_host()
    assert ("+", 0, MIFARE) in tags(rig.host.take())  # SYNC recovers what was lost


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"timing": {"absent_polls": 1}}, "absent_polls"),
        ({"timing": {"settle_ms": 2}}, "settle_ms"),
        ({"readers": [{"cs": i} for i in range(9)]}, "1 to 8"),
        ({"readers": [{"cs": 5}, {"cs": 5}]}, "another reader"),
        ({"readers": [{"cs": 5, "gain": 8}]}, "gain"),
        ({"readers": [{"cs": 5, "enabled": "yes"}]}, "enabled"),
        ({"speed": 3}, "unknown setting"),
        ({"led_pins": 25}, "led_pins"),
        ({"spi": {"sck": True}}, "spi.sck"),
    ],
)
def test_bad_configs_are_refused_with_the_field_named(change: dict, words: str) -> None:
    cfg = {"readers": [{"cs": 17}]}
    cfg.update(change)
    with pytest.raises(ConfigError, match=words):
        Config.from_dict(cfg)


def test_the_shipped_config_loads() -> None:
    from pathlib import Path

    from firmware_bridge import config

    cfg = config.load(str(Path(config.__file__).with_name("config.json")))
    assert len(cfg.readers) == 4 and cfg.settle_ms >= 5 and cfg.absent_polls >= 2
    with pytest.raises(ConfigError, match="cannot read"):
        config.load("/nonexistent/config.json")
