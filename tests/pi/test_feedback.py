"""GPIO feedback (LED, buzzer, confirm and undo buttons) on gpiozero's MockFactory and a Hub."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from scorekeeper.core.inputs import Decision, Seen
from scorekeeper.errors import ConfigError
from scorekeeper.pi import feedback as fb
from scorekeeper.pi.feedback import Feedback, FeedbackConfig, obvious_answer
from scorekeeper.service.hub import Hub
from tests.pi.quiz import find_quiz

LED, BUZZER, CONFIRM, UNDO = 17, 27, 22, 23


def wait_for(cond: Callable[[], bool], timeout: float = 3.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def went_on_then_off(states: list[Any]) -> bool:
    """True when a MockPin's state history holds a True followed (later) by a False."""
    seen_on = False
    for s in list(states):  # a copy: the beep thread appends meanwhile
        if s.state is True:
            seen_on = True
        elif seen_on and s.state is False:
            return True
    return False


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    h = Hub.open(tmp_path / "var" / "scorekeeper.db", find_game=find_quiz)
    yield h
    h.close()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def make(hub: Hub, factory: MockFactory) -> Iterator[Callable[..., Feedback]]:
    made: list[Feedback] = []

    def build(spec: str = "", **overrides: Any) -> Feedback:
        config = FeedbackConfig.parse(spec)
        config = FeedbackConfig(**{**config.__dict__, "poll": 0, **overrides})
        f = Feedback(hub, config, pin_factory=factory)
        f.start()
        made.append(f)
        return f

    yield build
    for f in made:
        f.close()


def table(hub: Hub, readers: str | None = "sim") -> str:
    tid = hub.create_table("quiz", 2, readers=readers)
    hub.start(tid)
    return tid


def play(hub: Hub, tid: str, piece: str) -> bool:
    return hub.submit(tid, Seen("play", piece, True)).accepted


def answers(hub: Hub, tid: str) -> list[str]:
    return list(hub.view(tid, "organiser")["state"]["answers"])


# -- the spec ----------------------------------------------------------------------------------


def test_spec_defaults_and_overrides() -> None:
    assert FeedbackConfig.parse("") == FeedbackConfig(led=17, buzzer=27, confirm=22, undo=23)
    cfg = FeedbackConfig.parse("led=5, buzzer=off,confirm=GPIO6,table=t2,hold=2")
    assert (cfg.led, cfg.buzzer, cfg.confirm, cfg.undo) == (5, None, "GPIO6", 23)
    assert cfg.table == "t2" and cfg.hold == 2.0
    for bad in (
        "led",
        "led=",
        "lamp=3",
        "led=99",
        "led=pin7",
        "led=5,buzzer=5",
        "hold=0.1",
        "led=1,led=2",
    ):
        with pytest.raises(ConfigError):
            FeedbackConfig.parse(bad)


def test_obvious_answer_rules() -> None:
    waiting = [{"id": "waiting", "seat": s, "options": ["yes"]} for s in range(3)]
    claim = {"id": "claim", "seat": None, "options": ["pass"]}
    count = {"id": "draw_count", "seat": 0, "options": ["0", "1", "2"]}
    assert obvious_answer([claim, *waiting]) == ("claim", "pass")
    assert obvious_answer(waiting) is None  # declarations are a player's call
    assert obvious_answer([count, *waiting]) is None  # a real choice
    assert obvious_answer([claim, count]) is None  # two questions: ambiguous
    two = {"id": "claim", "seat": None, "options": ["pass", "mine"]}
    assert obvious_answer([two]) == ("claim", "pass")  # the documented default
    assert obvious_answer([{"id": "x", "seat": None, "options": ["a", "b"]}]) is None


def test_gpiozero_is_not_imported_by_serve_without_feedback() -> None:
    import subprocess
    import sys

    code = (
        "import sys, scorekeeper.cli, scorekeeper.commands.serve, scorekeeper.pi.notify;"
        "print('gpiozero' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == "False", out.stderr


# -- LED -----------------------------------------------------------------------------------------


def test_led_off_steady_blinking(
    hub: Hub, factory: MockFactory, make: Callable[..., Feedback]
) -> None:
    tid = table(hub)
    f = make()
    led = factory.pin(LED)
    assert f.led_mode == fb.OFF and led.state is False  # not serving yet
    f.set_serving(True)
    assert f.led_mode == fb.STEADY and led.state is True

    # a table waiting for a decision: slow blink (the pin really toggles)
    assert play(hub, tid, "CLAIM")
    f.refresh()
    assert f.led_mode == fb.DECISION
    assert wait_for(lambda: led.state is False) and wait_for(lambda: led.state is True)

    # a reader offline wins: fast blink, and one long beep
    backend = hub.readers(tid)
    backend.set_online("r2", False)
    f.refresh()
    assert f.led_mode == fb.PROBLEM and f.beeps[-1] == "offline"
    f.refresh()
    assert f.beeps.count("offline") == 1  # once per going offline, not per poll
    assert wait_for(lambda: led.state is False) and wait_for(lambda: led.state is True)

    backend.set_online("r2", True)
    f.refresh()
    assert f.led_mode == fb.DECISION
    hub.submit(tid, Decision(None, "claim", "pass"))
    f.refresh()
    assert f.led_mode == fb.STEADY and led.state is True

    f.set_serving(False)
    assert f.led_mode == fb.OFF and led.state is False


def test_led_blinks_for_a_reader_offline_at_start_without_beeping(
    hub: Hub, make: Callable[..., Feedback]
) -> None:
    tid = table(hub)
    hub.readers(tid).set_online("r1", False)
    f = make()
    f.set_serving(True)
    assert f.led_mode == fb.PROBLEM
    assert "offline" not in f.beeps  # never seen online: the LED says it, no alarm


def test_close_turns_everything_off(
    hub: Hub, factory: MockFactory, make: Callable[..., Feedback]
) -> None:
    table(hub)
    f = make()
    f.set_serving(True)
    assert factory.pin(LED).state is True
    f.close()
    assert factory.pin(LED).state is False


# -- buzzer --------------------------------------------------------------------------------------


def test_buzzer_beeps_on_a_refused_play(
    hub: Hub, factory: MockFactory, make: Callable[..., Feedback]
) -> None:
    tid = table(hub)
    f = make()
    buzzer = factory.pin(BUZZER)
    buzzer.clear_states()
    driven = drive_log(f.buzzer)
    # Nothing to wait for: with poll=0 the feedback has no thread of its own, and its table
    # listener runs in the submitting thread, so whatever it does on a play is done (the
    # buzzer told to sound) when the play returns.
    assert play(hub, tid, "OK")
    assert f.beeps == [] and driven == []
    assert not play(hub, tid, "BAD")
    assert f.beeps == ["refused"] and driven == ["beep"]
    # the buzzer pin went on, then off again: a beep, then silence (its length is not checked
    # here: MockPin timestamps are deltas, and durations belong in `make bench`)
    assert wait_for(lambda: went_on_then_off(buzzer.states), timeout=5.0), buzzer.states
    assert buzzer.state is False


def drive_log(device: Any) -> list[str]:
    """The names of the calls that drive ``device`` (on, blink, beep), in order, as they are
    made (the pin itself changes later, in gpiozero's blink thread)."""
    calls: list[str] = []
    for name in ("on", "blink", "beep"):
        real = getattr(device, name)

        def spy(*args: Any, _name: str = name, _real: Any = real, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)

        setattr(device, name, spy)
    return calls


def test_tables_created_later_are_heard(hub: Hub, make: Callable[..., Feedback]) -> None:
    f = make()
    tid = table(hub, readers=None)
    f.refresh()
    assert not play(hub, tid, "BAD")
    assert f.beeps == ["refused"]


# -- confirm -------------------------------------------------------------------------------------


def press(factory: MockFactory, pin: int, seconds: float = 0.05) -> None:
    factory.pin(pin).drive_low()  # buttons pull up: pressed = low
    time.sleep(seconds)
    factory.pin(pin).drive_high()


def test_confirm_answers_an_obvious_prompt(
    hub: Hub, factory: MockFactory, make: Callable[..., Feedback]
) -> None:
    tid = table(hub)
    f = make()
    assert play(hub, tid, "CLAIM")  # claim: pass, with every seat's 'waiting' declaration open
    press(factory, CONFIRM)
    assert wait_for(lambda: answers(hub, tid) == ["pass"])
    feed = hub.view(tid, "organiser")["feed"]
    assert feed[-1]["input"] == "decide organiser claim pass" and feed[-1]["accepted"]
    assert "nothing" not in f.beeps

    time.sleep(0.35)  # past the debounce
    assert play(hub, tid, "ONE")  # a table prompt with one answer
    press(factory, CONFIRM)
    assert wait_for(lambda: answers(hub, tid) == ["pass", "yes"])


def test_confirm_does_nothing_when_ambiguous(
    hub: Hub, factory: MockFactory, make: Callable[..., Feedback]
) -> None:
    tid = table(hub)
    f = make()
    seen = hub.inputs_seen(tid)
    press(factory, CONFIRM)  # only declarations are open
    assert wait_for(lambda: f.beeps == ["nothing"])
    assert play(hub, tid, "COUNT")  # a real choice (0, 1 or 2)
    time.sleep(0.35)
    press(factory, CONFIRM)
    assert wait_for(lambda: f.beeps == ["nothing", "nothing"])
    assert play(hub, tid, "CLAIM")  # two open questions
    time.sleep(0.35)
    press(factory, CONFIRM)
    assert wait_for(lambda: f.beeps == ["nothing"] * 3)
    assert hub.inputs_seen(tid) == seen + 2  # only the two plays: no decision was submitted
    assert answers(hub, tid) == []


def test_confirm_with_two_running_tables_needs_a_table_setting(
    hub: Hub, factory: MockFactory, make: Callable[..., Feedback]
) -> None:
    t1, t2 = table(hub, None), table(hub, None)
    assert play(hub, t1, "CLAIM") and play(hub, t2, "CLAIM")
    f = make()
    assert f.current_table() is None
    assert not f.press_confirm()
    f.close()
    g = make(f"table={t2}")
    assert g.press_confirm()
    assert answers(hub, t2) == ["pass"] and answers(hub, t1) == []


# -- undo ----------------------------------------------------------------------------------------


def test_long_press_undoes_and_a_short_press_does_not(
    hub: Hub, factory: MockFactory, make: Callable[..., Feedback]
) -> None:
    tid = table(hub)
    f = make()
    # gpiozero times the hold itself (its hold thread waits for the release, up to hold_time):
    # the feedback's part is to hand it the hold, 1.5 s by default.
    assert f.undo_button.hold_time == FeedbackConfig().hold == 1.5
    assert play(hub, tid, "OK")
    assert hub.view(tid, "public")["state"]["played"] == 1
    press(factory, UNDO)  # short (0.05 s): an accident
    # Nothing to wait for: an undo on the press or the release would have run in this thread
    # (gpiozero calls the handlers of a mock pin's change at once), and a hold fires only
    # while the button is down.
    assert hub.view(tid, "public")["state"]["played"] == 1
    assert hub.view(tid, "organiser")["feed"][-1]["input"] != "undo"

    factory.pin(UNDO).drive_low()
    assert wait_for(lambda: hub.view(tid, "public")["state"]["played"] == 0, 10.0)
    factory.pin(UNDO).drive_high()
    undos = [e["input"] for e in hub.view(tid, "organiser")["feed"] if "undo" in e["input"]]
    assert undos == ["undo (was: +play OK)"]


def test_open_feedback_reports_a_missing_gpio(hub: Hub) -> None:
    errors: list[str] = []

    class Broken:
        def __getattr__(self, name: str) -> Any:
            raise RuntimeError("no GPIO here")

    assert fb.open_feedback(hub, "", on_error=errors.append, pin_factory=Broken()) is None
    assert errors and "running without" in errors[0]
    with pytest.raises(ConfigError):
        fb.open_feedback(hub, "led=banana", on_error=errors.append)
