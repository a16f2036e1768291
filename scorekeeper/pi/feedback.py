"""Physical feedback at the table: a status LED, a buzzer and two buttons on the Pi's GPIO.

Enabled by ``scorekeeper serve --feedback`` (default pins) or ``--feedback
"led=17,buzzer=27,confirm=22,undo=23"`` (BCM numbers; ``off`` leaves a part out). gpiozero is
imported only when a ``Feedback`` is built, and everything goes through gpiozero's pin-factory
mechanism: on a Pi the default factory (lgpio through rpi-lgpio on a Pi 5), in tests
``gpiozero.pins.mock.MockFactory`` (or ``GPIOZERO_PIN_FACTORY=mock`` for a whole process).

What the parts do:

- **LED** — off: the server is not running (or not answering yet); steady: serving and every
  reader online; slow blink (0.5 s on/off): a table waits for a decision; fast blink (0.15 s):
  a reader is offline (this wins over a decision).
- **buzzer** — one short beep (0.1 s): a play was refused; one long beep (0.8 s): a reader went
  offline; two very short blips: a button press did nothing (no obvious answer, no table).
- **confirm** — answers the pending decision when exactly one answer is obviously right: among
  the table's open questions there is exactly one, and it has exactly one legal answer or a
  documented default (``DEFAULT_ANSWERS``: ``claim`` -> ``pass``; a game may add its own with a
  ``default_answers`` mapping). The answer is given as the organiser. Declarations — a prompt
  for one seat with a single answer, such as Angels & Demons' ``waiting: yes``, which a player
  may make at any time — are a player's own choice: never answered by the button, and not
  counted as questions.
- **undo** — a long press (``hold`` seconds, default 1.5, against accidents) submits an Undo as
  the organiser; a short press does nothing.

The buttons act on the table named by ``table=ID`` in the spec, else on the one running table;
with none or several running they do nothing (two blips). Buttons are wired from the GPIO to
GND (internal pull-ups); LED and buzzer from the GPIO through their resistor/transistor to GND.

How it follows the hub (nothing was added to ``hub.py``): a listener on each ``Table.listeners``
(through ``Hub.table``/``Hub.locked``) beeps on a refused play at once; a poll thread (every
``poll`` s, 0.25 by default) reads each table's status, pending prompts and reader health
through the hub's public methods and sets the LED, beeping when a reader goes from online to
offline. Hazard: table listeners run under the table's lock in the submitting thread, so the
one here only starts a background beep.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.inputs import Decision, Undo
from scorekeeper.errors import ConfigError, ScorekeeperError

log = logging.getLogger("scorekeeper.feedback")

DEFAULT_ANSWERS: Mapping[str, str] = {"claim": "pass"}
PIN_KEYS = ("led", "buzzer", "confirm", "undo")
DEFAULT_PINS = {"led": 17, "buzzer": 27, "confirm": 22, "undo": 23}
_PIN_NAME = re.compile(r"^(GPIO|BCM|BOARD|WPI|J8:)\d+$", re.IGNORECASE)
SPEC_HELP = (
    'write key=value pairs separated by commas, e.g. "led=17,buzzer=27,confirm=22,'
    'undo=23" (BCM numbers; a part set to off is left out; also table=ID, hold=SECONDS)'
)

# LED modes, in increasing priority.
OFF, STEADY, DECISION, PROBLEM = "off", "steady", "decision", "problem"
SLOW_BLINK = (0.5, 0.5)
FAST_BLINK = (0.15, 0.15)
REFUSED_BEEP = 0.1
OFFLINE_BEEP = 0.8
NOTHING_BLIP = 0.05


@dataclass(frozen=True)
class FeedbackConfig:
    """Pins (BCM number or a gpiozero pin name; None: not fitted) and button behaviour."""

    led: int | str | None = DEFAULT_PINS["led"]
    buzzer: int | str | None = DEFAULT_PINS["buzzer"]
    confirm: int | str | None = DEFAULT_PINS["confirm"]
    undo: int | str | None = DEFAULT_PINS["undo"]
    table: str | None = None
    hold: float = 1.5
    poll: float = 0.25
    extra_defaults: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, spec: str | None) -> FeedbackConfig:
        """``""``/None: the defaults; ``"led=17,buzzer=off,table=t1,hold=2"``; ConfigError."""
        values: dict[str, Any] = {}
        text = (spec or "").strip()
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, eq, value = part.partition("=")
            key, value = key.strip().lower(), value.strip()
            if not eq or not value:
                raise ConfigError(f"bad --feedback setting {part!r}: {SPEC_HELP}")
            if key in values:
                raise ConfigError(f"--feedback sets {key} twice")
            if key in PIN_KEYS:
                values[key] = _pin(key, value)
            elif key == "table":
                values[key] = value
            elif key == "hold":
                try:
                    hold = float(value)
                except ValueError:
                    hold = -1.0
                if not 0.5 <= hold <= 10:
                    raise ConfigError(f"--feedback hold must be 0.5 to 10 seconds, not {value!r}")
                values[key] = hold
            else:
                raise ConfigError(f"unknown --feedback setting {key!r}: {SPEC_HELP}")
        pins = [values.get(k, DEFAULT_PINS[k]) for k in PIN_KEYS]
        used = [str(p).upper() for p in pins if p is not None]
        if len(set(used)) != len(used):
            raise ConfigError(f"--feedback uses one pin for two parts: {text!r}")
        return cls(**values)


def _pin(key: str, value: str) -> int | str | None:
    if value.lower() in ("off", "none", "-"):
        return None
    if value.isdigit():
        number = int(value)
        if not 0 <= number <= 27:
            raise ConfigError(f"--feedback {key}={value}: the Pi's GPIO numbers are 0 to 27")
        return number
    if _PIN_NAME.match(value):
        return value.upper()
    raise ConfigError(
        f"--feedback {key}={value!r} is not a pin: write a BCM number such as 17, "
        "a name such as GPIO17 or BOARD11, or off"
    )


def is_declaration(prompt: Mapping[str, Any]) -> bool:
    """A prompt for one seat with a single answer: that player's own call, never a question
    the table is stuck on (Angels & Demons' ``waiting``)."""
    return prompt.get("seat") is not None and len(prompt.get("options") or ()) == 1


def open_questions(prompts: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The prompts the table is waiting on (declarations left out)."""
    return [p for p in prompts if not is_declaration(p)]


def obvious_answer(
    prompts: Iterable[Mapping[str, Any]], defaults: Mapping[str, str] = DEFAULT_ANSWERS
) -> tuple[str, str] | None:
    """``(prompt id, answer)`` when exactly one answer is obviously right, else None.

    Obvious: exactly one open question, with exactly one legal answer or a documented default
    among its answers. Anything else (no question, two questions, a real choice) is ambiguous.
    """
    questions = open_questions(prompts)
    if len(questions) != 1:
        return None
    prompt = questions[0]
    options = [str(o) for o in prompt.get("options") or ()]
    if len(options) == 1:
        return str(prompt["id"]), options[0]
    default = defaults.get(str(prompt["id"]))
    if default is not None and default in options:
        return str(prompt["id"]), default
    return None


class Feedback:
    """LED, buzzer and buttons bound to a Hub; see the module docstring.

    ``pin_factory``: a gpiozero pin factory (None: gpiozero's default, which is
    ``$GPIOZERO_PIN_FACTORY`` or the Pi's own). ``start()`` starts the poll thread;
    ``set_serving(True)`` once the server answers; ``close()`` turns everything off and releases
    the pins. ``refresh()`` is one poll round (tests call it directly). Raises gpiozero's errors
    (BadPinFactory off a Pi, GPIOPinInUse) from the constructor: the caller decides.
    """

    def __init__(
        self,
        hub: Any,
        config: FeedbackConfig | None = None,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import LED, Button, Buzzer  # only when feedback is enabled

        self.hub = hub
        self.config = config or FeedbackConfig()
        self.clock = clock
        self.defaults = {**DEFAULT_ANSWERS, **self.config.extra_defaults}
        self.led_mode = OFF
        self.serving = False
        self.beeps: list[str] = []  # what was sounded, newest last (bounded; for tests/logs)
        self._lock = threading.RLock()
        self._online: dict[tuple[str, str], bool] = {}
        self._hooked: dict[str, Any] = {}  # table id -> the Table its listener is on
        self._last_confirm = -1.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._devices: list[Any] = []
        cfg = self.config
        try:
            self.led = self._device(LED, cfg.led, pin_factory=pin_factory)
            self.buzzer = self._device(Buzzer, cfg.buzzer, pin_factory=pin_factory)
            self.confirm_button = self._device(
                Button, cfg.confirm, pull_up=True, pin_factory=pin_factory
            )
            self.undo_button = self._device(
                Button, cfg.undo, pull_up=True, hold_time=cfg.hold, pin_factory=pin_factory
            )
        except Exception:
            self._close_devices()
            raise
        if self.confirm_button is not None:
            self.confirm_button.when_pressed = lambda *_: self.press_confirm()
        if self.undo_button is not None:
            self.undo_button.when_held = lambda *_: self.hold_undo()

    def _device(self, cls: Any, pin: int | str | None, **kwargs: Any) -> Any:
        if pin is None:
            return None
        device = cls(pin, **kwargs)
        self._devices.append(device)
        return device

    # -- life cycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Hook the tables and start the poll thread."""
        cfg = self.config
        log.info(
            "GPIO feedback on",
            extra={"led": cfg.led, "buzzer": cfg.buzzer, "confirm": cfg.confirm, "undo": cfg.undo},
        )
        self.refresh()
        if self._thread is None and self.config.poll > 0:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="gpio-feedback", daemon=True)
            self._thread.start()

    def set_serving(self, serving: bool) -> None:
        """The server answers (True) or is stopping (False); the LED follows at once."""
        self.serving = serving
        self.refresh()

    def close(self) -> None:
        """Stop polling, unhook the tables, turn LED and buzzer off, release the pins."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        self.serving = False
        for table_id, table in list(self._hooked.items()):
            with contextlib.suppress(Exception), self.hub.locked(table_id):
                table.listeners.remove(self._on_entry)
        self._hooked.clear()
        self._set_led(OFF)
        self._close_devices()

    def _close_devices(self) -> None:
        for device in self._devices:
            with contextlib.suppress(Exception):
                device.close()
        self._devices.clear()

    def _run(self) -> None:
        while not self._stop.wait(self.config.poll):
            try:
                self.refresh()
            except Exception:  # noqa: BLE001 - feedback must never stop; log and go on
                log.exception("feedback refresh failed")

    # -- one poll round ------------------------------------------------------------------------

    def refresh(self) -> None:
        """Hook new tables, notice readers going offline, set the LED mode."""
        with self._lock:
            problem = decision = False
            for table_id in self.hub.table_ids():
                self._hook(table_id)
                for reader, online in self._readers(table_id).items():
                    key = (table_id, reader)
                    was = self._online.get(key)
                    self._online[key] = online
                    if not online:
                        problem = True
                        if was:
                            log.warning(
                                "reader offline: long beep",
                                extra={"table": table_id, "reader": reader},
                            )
                            self._beep("offline", OFFLINE_BEEP)
                if self.hub.status(table_id) == "running" and open_questions(
                    self._prompts(table_id)
                ):
                    decision = True
            if not self.serving:
                mode = OFF
            elif problem:
                mode = PROBLEM
            elif decision:
                mode = DECISION
            else:
                mode = STEADY
            self._set_led(mode)

    def _hook(self, table_id: str) -> None:
        try:
            table = self.hub.table(table_id)
        except ScorekeeperError:
            return  # a table that could not be loaded has no inputs to beep about
        if self._hooked.get(table_id) is table:
            return
        with self.hub.locked(table_id):
            table.listeners.append(self._on_entry)
        self._hooked[table_id] = table

    def _readers(self, table_id: str) -> dict[str, bool]:
        health = self.hub.reader_health(table_id)
        if "error" in health and not isinstance(health["error"], dict):
            return {"(backend)": False}
        return {
            str(r): bool(info.get("online", True)) if isinstance(info, dict) else True
            for r, info in health.items()
        }

    def _prompts(self, table_id: str) -> list[dict[str, Any]]:
        try:
            table = self.hub.table(table_id)
        except ScorekeeperError:
            return []
        with self.hub.locked(table_id):
            return [p.to_dict() for p in table.game.pending(table.state)]

    def _set_led(self, mode: str) -> None:
        if mode == self.led_mode:
            return
        self.led_mode = mode
        led = self.led
        if led is None or led.closed:
            return
        if mode == OFF:
            led.off()
        elif mode == STEADY:
            led.on()
        else:
            on, off = FAST_BLINK if mode == PROBLEM else SLOW_BLINK
            led.blink(on_time=on, off_time=off, background=True)
        log.debug("status LED", extra={"mode": mode})

    def _beep(self, kind: str, seconds: float, times: int = 1) -> None:
        self.beeps.append(kind)
        del self.beeps[:-50]
        buzzer = self.buzzer
        if buzzer is not None and not buzzer.closed:
            buzzer.beep(on_time=seconds, off_time=max(seconds, 0.1), n=times, background=True)

    def _on_entry(self, _table: Any, entry: Any) -> None:
        """Table listener (under the table's lock): a short beep when a play is refused."""
        if not entry.accepted:
            self._beep("refused", REFUSED_BEEP)

    # -- buttons -------------------------------------------------------------------------------

    def current_table(self) -> str | None:
        """The table the buttons act on: ``table=`` from the spec, else the one running table."""
        if self.config.table is not None:
            return self.config.table if self.config.table in self.hub.table_ids() else None
        running = [t for t in self.hub.table_ids() if self.hub.status(t) == "running"]
        return running[0] if len(running) == 1 else None

    def press_confirm(self) -> bool:
        """The confirm button: answer the obvious decision; True when an answer was submitted."""
        now = self.clock()
        if now - self._last_confirm < 0.3:  # contact bounce: one press, one answer
            return False
        self._last_confirm = now
        table_id = self.current_table()
        answer = obvious_answer(self._prompts(table_id), self.defaults) if table_id else None
        if table_id is None or answer is None:
            log.info("confirm pressed: nothing obvious to answer", extra={"table": table_id})
            self._beep("nothing", NOTHING_BLIP, times=2)
            return False
        prompt, value = answer
        return self._submit(table_id, Decision(None, prompt, value), "confirm")

    def hold_undo(self) -> bool:
        """The undo button held long enough: take back the last input as the organiser."""
        table_id = self.current_table()
        if table_id is None:
            log.info("undo held: no single table to act on")
            self._beep("nothing", NOTHING_BLIP, times=2)
            return False
        return self._submit(table_id, Undo(), "undo")

    def _submit(self, table_id: str, inp: Decision | Undo, button: str) -> bool:
        try:
            done = self.hub.submit(table_id, inp)
        except ScorekeeperError as exc:
            log.warning(
                "button input not taken",
                extra={"table": table_id, "button": button, "error": str(exc)},
            )
            self._beep("nothing", NOTHING_BLIP, times=2)
            return False
        log.info(
            "button input",
            extra={
                "table": table_id,
                "button": button,
                "input": inp.to_str(),
                "accepted": done.accepted,
            },
        )
        self.refresh()
        return bool(done.accepted)


def open_feedback(
    hub: Any, spec: str | None, *, on_error: Callable[[str], None], pin_factory: Any = None
) -> Feedback | None:
    """Build and start a Feedback for ``serve``; on a GPIO problem call ``on_error`` with plain
    words and return None (the server runs on without feedback: an LED must not stop a game).
    ConfigError (a bad spec) is raised: that is the person's to fix before starting."""
    config = FeedbackConfig.parse(spec)
    try:
        feedback = Feedback(hub, config, pin_factory=pin_factory)
    except ImportError:
        on_error(
            "--feedback needs gpiozero: pip install 'scorekeeper[pi]'; running without "
            "LED, buzzer and buttons"
        )
        return None
    except Exception as exc:  # noqa: BLE001 - gpiozero raises many kinds; all mean "no GPIO"
        on_error(
            f"--feedback could not use the GPIO pins ({type(exc).__name__}: {exc}); is this "
            "a Raspberry Pi, and is the user in the gpio group? running without LED, "
            "buzzer and buttons"
        )
        return None
    feedback.start()
    return feedback


__all__: Sequence[str] = (
    "DEFAULT_ANSWERS",
    "Feedback",
    "FeedbackConfig",
    "obvious_answer",
    "open_feedback",
    "open_questions",
)
