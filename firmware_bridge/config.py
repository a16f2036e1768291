# ruff: noqa: UP031  (%-formatting on purpose: MicroPython's f-strings are limited)
"""The bridge's settings: defaults, and the checks that turn ``config.json`` into a ``Config``.

``load(path)`` reads the JSON file on the board; ``Config.from_dict`` checks every field and
raises ``ConfigError`` naming the first bad one (``main.py`` shows it on the REPL and blinks
the LED). Runs on MicroPython and CPython: plain classes, ``%`` formatting, no typing at run time.
The fields are described in docs/firmware.md, "The config file".
"""

MAX_READERS = 8
MIN_SETTLE_MS = 5
# ISO/IEC 14443-3: a field off (or unmodulated) for at least ~5 ms resets every tag, halted ones
# included. Less, and a tag halted by the last poll stays halted and ignores the next REQA.
MIN_FIELD_OFF_MS = 5
DEFAULT_FIELD_OFF_MS = 10


class ConfigError(ValueError):
    """A configuration value that the bridge cannot run with; the text says which and why."""


# --- configuration -------------------------------------------------------------------------------


def _int(
    d: "dict[str, object]", key: str, default: object, lo: int, hi: int, where: str = ""
) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ConfigError(
            "%s%s must be a whole number from %d to %d, not %r" % (where, key, lo, hi, v)
        )
    return v


def _pin(d: "dict[str, object]", key: str, where: str = "", optional: bool = True) -> object:
    v = d.get(key)
    if v is None and optional:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, str)) or v == "":
        raise ConfigError(
            '%s%s must be a GPIO number (or a pin name like "LED"), not %r' % (where, key, v)
        )
    return v


class ReaderConfig:
    """One reader: its chip-select pin, whether it is polled, and its receiver gain (0..7)."""

    def __init__(self, cs: object, enabled: bool = True, gain: int = 4) -> None:
        self.cs = cs
        self.enabled = enabled
        self.gain = gain


class Config:
    """Validated bridge settings; ``Config.from_dict(json.loads(text))`` reads config.json.

    Times are in milliseconds. ``absent_polls`` is at least 2, so a single missed read can never
    produce TAG_GONE; ``settle_ms`` is at least 5 (the field and the tags need it to power up);
    ``field_off_ms`` (at least 5) is the least time a reader's field stays off between two of
    its polls, so that the tags its last poll halted are reset and answer the next REQA.
    """

    def __init__(self) -> None:
        self.spi_id = 0
        self.sck = 18  # type: object
        self.mosi = 19  # type: object
        self.miso = 16  # type: object
        self.baudrate = 1000000
        self.readers = []  # type: list[ReaderConfig]
        self.reset_pin = None  # type: object
        self.led_pins = []  # type: list[object]
        self.buzzer_pin = None  # type: object
        self.settle_ms = MIN_SETTLE_MS
        self.field_off_ms = DEFAULT_FIELD_OFF_MS
        self.present_polls = 1
        self.absent_polls = 3
        self.absent_ms = 300
        self.heartbeat_ms = 1000
        self.retry_ms = 1000
        self.max_tags = 4
        self.chip_timeout_ms = 5

    @classmethod
    def from_dict(cls, d: object) -> "Config":
        """Check and convert a decoded config.json; ConfigError names the first bad field."""
        if not isinstance(d, dict):
            raise ConfigError("the configuration must be a JSON object")
        known = (
            "spi",
            "readers",
            "reset_pin",
            "led_pins",
            "buzzer_pin",
            "timing",
            "max_tags",
            "chip_timeout_ms",
            "comment",
        )
        for key in d:
            if key not in known:
                raise ConfigError("unknown setting %r (known: %s)" % (key, ", ".join(known)))
        c = cls()
        spi = d.get("spi", {})
        if not isinstance(spi, dict):
            raise ConfigError("spi must be an object with id, sck, mosi, miso, baudrate")
        c.spi_id = _int(spi, "id", 0, 0, 2, "spi.")
        c.sck = _pin(spi, "sck", "spi.", False) if "sck" in spi else c.sck
        c.mosi = _pin(spi, "mosi", "spi.", False) if "mosi" in spi else c.mosi
        c.miso = _pin(spi, "miso", "spi.", False) if "miso" in spi else c.miso
        c.baudrate = _int(spi, "baudrate", 1000000, 100000, 10000000, "spi.")
        readers = d.get("readers")
        if not isinstance(readers, list) or not 1 <= len(readers) <= MAX_READERS:
            raise ConfigError("readers must be a list of 1 to %d readers" % MAX_READERS)
        seen = []  # type: list[object]
        for i, r in enumerate(readers):
            where = "readers[%d]." % i
            if not isinstance(r, dict):
                raise ConfigError('%s: a reader is an object like {"cs": 17}' % where[:-1])
            cs = _pin(r, "cs", where, False)
            if cs in seen:
                raise ConfigError("%scs %r is used by another reader" % (where, cs))
            seen.append(cs)
            enabled = r.get("enabled", True)
            if not isinstance(enabled, bool):
                raise ConfigError("%senabled must be true or false" % where)
            c.readers.append(ReaderConfig(cs, enabled, _int(r, "gain", 4, 0, 7, where)))
        c.reset_pin = _pin(d, "reset_pin")
        leds = d.get("led_pins", [])
        if not isinstance(leds, list):
            raise ConfigError("led_pins must be a list of GPIOs (the first is the status LED)")
        c.led_pins = [_pin({"led": x}, "led", "led_pins: ", False) for x in leds]
        c.buzzer_pin = _pin(d, "buzzer_pin")
        t = d.get("timing", {})
        if not isinstance(t, dict):
            raise ConfigError("timing must be an object")
        c.settle_ms = _int(t, "settle_ms", MIN_SETTLE_MS, MIN_SETTLE_MS, 1000, "timing.")
        c.field_off_ms = _int(
            t, "field_off_ms", DEFAULT_FIELD_OFF_MS, MIN_FIELD_OFF_MS, 1000, "timing."
        )
        c.present_polls = _int(t, "present_polls", 1, 1, 20, "timing.")
        c.absent_polls = _int(t, "absent_polls", 3, 2, 100, "timing.")
        c.absent_ms = _int(t, "absent_ms", 300, 0, 60000, "timing.")
        c.heartbeat_ms = _int(t, "heartbeat_ms", 1000, 100, 2500, "timing.")
        c.retry_ms = _int(t, "retry_ms", 1000, 50, 60000, "timing.")
        c.max_tags = _int(d, "max_tags", 4, 1, 8)
        c.chip_timeout_ms = _int(d, "chip_timeout_ms", 5, 1, 50)
        return c


def load(path: str = "config.json") -> Config:
    """Read and check the JSON config file at ``path`` (ConfigError when it is missing or bad)."""
    import json

    try:
        with open(path) as f:
            data = json.loads(f.read())
    except OSError as exc:
        raise ConfigError("cannot read %s: %s" % (path, exc)) from exc
    except ValueError as exc:
        raise ConfigError("%s is not valid JSON: %s" % (path, exc)) from exc
    return Config.from_dict(data)
