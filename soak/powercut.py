"""The power-cut campaign: cut the power under a playing server, again and again, and check
that every input the store acknowledged is still there, unchanged, at the next start.

The database directory is mounted through ``soak/fusecut.py``, a FUSE layer that keeps every
write not yet fsync'd in memory. Each cycle forks a writer from a process that has imported
scorekeeper already. The writer starts the way ``scorekeeper serve`` does (the database lock,
``Hub.open``, the organiser token) and first checks what the previous cut left behind: the
start must not be refused, every table must load, every acknowledged input must be present
with identical content, every acknowledged table status must hold and the organiser token file
must still open the organiser's door. Then it plays real games of Angels & Demons (the
simulator's inputs, through ``Hub.submit``, ending each game's table and creating the next),
and reports each input to this process the moment the store's ``append`` has returned its seq.
At a random moment this process cuts the power: SIGKILL the writer (power gone: processes
gone), then ``cut()`` the FUSE layer, which throws away all, or a random part, of the writes
that were never fsync'd (half of the cuts also tear some of the writes they keep: only some
of their 512-byte sectors land). Where the cuts land: after a random number of acknowledged inputs
and a random fraction of an append (mid-commit, mid-fsync); during a start (WAL recovery,
the checks, the marker); or inside one of SQLite's checkpoints (a trap in the FUSE layer holds
the writer inside its n-th write to the database file, where a random time almost never
lands). One kill in ten is a crash only: no cut, so what was not fsync'd stays in the
modelled page cache, visible to the next start and lost only at a later cut (a server that
crashed, then lost power). The next cycle's writer goes on with the same database; a last one
only checks.

``run()`` does the campaign in a fresh single-threaded interpreter (``python -m
soak.powercut``): forking is safe there, whatever threads the caller has.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from soak.fusecut import FuseUnavailable, Mount, why_fuse_cannot_mount

GAME = "angels-and-demons"
SEATS = ("Ann", "Bea", "Cid")
CYCLE_TIMEOUT = 30.0  # a writer silent this long is hung: counted as a problem, then killed
MOST_ACKS_BEFORE_CUT = 60
START_CUTS = 0.1  # the share of cuts that land during a start (recovery, checks, marker)
CHECKPOINT_TRAP = 60  # a cut is armed to land at a random write, up to this, of a checkpoint
TRAP_POLL = 0.005  # how often a silent writer is checked for being held by the trap
CRASHES = 0.1  # the share of kills that are crashes only: no cut, the page cache stays
TORN_CUTS = 0.5  # the share of cuts that may also tear the writes they keep (sector by sector)
PROBLEMS_KEPT = 40  # problems listed in full; beyond that only counted
# A table's status only moves forward: an acknowledged one must hold (or be overtaken).
STATUS_ORDER = {"created": 0, "running": 1, "paused": 1, "ended": 2}
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class CutResult:
    """What a campaign found.

    ``acknowledged``: inputs the store acknowledged over the whole campaign; ``lost`` and
    ``altered``: acknowledged inputs a later start did not find, or found changed;
    ``refused_starts``: starts after a cut that refused the database (each one a failure);
    ``problems``: each failure in words (seed, cut, table, seq); ``dropped``: writes the cuts
    threw away (never fsync'd), so a campaign that dropped nothing tested nothing;
    ``detail``: ``fsyncs``, ``dropped`` and ``torn`` per file name (the database file's own
    fsyncs are SQLite's checkpoints; the writes the cuts threw away from each file, and those
    that landed only in part) and ``cuts``: where they landed (``start``, ``play``,
    ``checkpoint``), and how many kills were crashes only.
    """

    cuts: int
    acknowledged: int
    lost: int
    altered: int
    refused_starts: int
    seconds: float
    problems: tuple[str, ...]
    dropped: int = 0
    detail: dict[str, dict[str, int]] = field(default_factory=dict)


def run(
    cuts: int,
    *,
    seed: int = 1,
    workdir: Path | None = None,
    progress: Callable[[str], None] | None = None,
    fsync_lies: bool = False,
) -> CutResult:
    """Cut the power ``cuts`` times under a playing server; see the module docstring.

    ``workdir`` (default: a temporary folder, removed after) holds the backing directory and
    the mount point. ``fsync_lies``: the disk acknowledges fsync and keeps nothing, which the
    campaign must catch (its own test). Raises FuseUnavailable, saying why and what to
    install, where FUSE cannot mount; RuntimeError if the campaign itself breaks down.
    """
    reason = why_fuse_cannot_mount()
    if reason is not None:
        raise FuseUnavailable(f"the power-cut campaign needs FUSE: {reason}")
    began = time.monotonic()
    args = [sys.executable, "-m", "soak.powercut", "--cuts", str(cuts), "--seed", str(seed)]
    if workdir is not None:
        args += ["--workdir", str(workdir)]
    if fsync_lies:
        args.append("--fsync-lies")
    proc = subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stderr is not None
    result: dict[str, Any] | None = None
    unavailable = None
    try:
        for line in proc.stdout:
            kind, _, text = line.rstrip("\n").partition(" ")
            if kind == "progress" and progress is not None:
                progress(text)
            elif kind == "result":
                result = json.loads(text)
            elif kind == "unavailable":
                unavailable = text
        err = proc.stderr.read()
        proc.wait()
    finally:
        if proc.poll() is None:  # interrupted: the campaign unmounts on SIGTERM
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    if unavailable is not None:
        raise FuseUnavailable(unavailable)
    if result is None:
        raise RuntimeError(
            f"the power-cut campaign stopped with exit code {proc.returncode} "
            f"and no result: {err.strip()[-2000:]}"
        )
    result["seconds"] = round(time.monotonic() - began, 2)
    result["problems"] = tuple(result["problems"])
    return CutResult(**result)


# -- the campaign process ---------------------------------------------------------------------


def _world(seed: int, table_id: str) -> list[Any]:
    """The simulator's inputs of the whole game played at ``table_id`` (one seed per table)."""
    from scorekeeper.sim import find_world

    world = find_world(GAME)(len(SEATS), {}, seed * 1000 + int(table_id[1:]))
    out: list[Any] = []
    while batch := world.next_inputs():
        out.extend(batch)
    return out


def _warm_up() -> None:
    """Import everything a writer will use, before any fork (a child then imports nothing):
    one short game through a hub on an in-memory store."""
    from scorekeeper.service.hub import Hub
    from scorekeeper.store import Store
    from scorekeeper.store.lock import DatabaseLock  # noqa: F401

    hub = Hub(Store("sqlite:///:memory:"))
    table_id = hub.create_table(GAME, list(SEATS))
    hub.start(table_id)
    for inp in _world(0, table_id)[:20]:
        hub.submit(table_id, inp)
    hub.summaries(archived=True)
    hub.end(table_id)
    hub.close()


class _Lines:
    """Complete lines from a pipe, with a timeout; a line cut short by a kill never counts."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""
        self.lines: list[str] = []
        self.eof = False

    def next(self, timeout: float) -> str | None:
        """The next complete line; None at end of file or when ``timeout`` passes first."""
        deadline = time.monotonic() + max(timeout, 0.0)
        while not self.lines and not self.eof:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
                break
            self.buffer += chunk
            *done, self.buffer = self.buffer.split(b"\n")
            self.lines.extend(line.decode() for line in done)
        return self.lines.pop(0) if self.lines else None


class Campaign:
    """The parent's side: forks writers, cuts the power, keeps what was acknowledged."""

    def __init__(self, db: Path, disk: Mount, seed: int, say: Callable[[str], None]) -> None:
        self.db, self.disk, self.seed, self.say = db, disk, seed, say
        self.rng = random.Random(seed)
        # What the store acknowledged, as the writer reported it: table -> seq -> record.
        self.expected: dict[str, dict[int, dict[str, Any]]] = {}
        self.statuses: dict[str, str] = {}  # table -> the last status acknowledged
        self.worlds: dict[str, list[Any]] = {}
        self.cuts = self.acknowledged = self.lost = self.altered = 0
        self.refused = self.dropped = self.verified = 0
        self.problems: list[str] = []
        self.kinds: dict[str, int] = {}  # where the cuts landed: start, play, checkpoint
        self.gone: dict[str, list[tuple[int, dict[str, Any]]]] = {}  # lost in this cycle
        self.start_seconds = 0.2  # how long a start takes (learnt): where a start cut lands

    def problem(self, text: str) -> None:
        if len(self.problems) < PROBLEMS_KEPT:
            self.problems.append(f"seed {self.seed}, cut {self.cuts}: {text}")
        elif len(self.problems) == PROBLEMS_KEPT:
            self.problems.append("(more problems, not listed)")

    def cycle(self, verify_only: bool = False) -> bool:
        """One start, check and play, ended by a power cut (or, ``verify_only``, by the
        writer itself once it has checked). False when the campaign cannot go on (a start
        was refused)."""
        highest = max((int(t[1:]) for t in self.statuses), default=0)
        for number in (highest, highest + 1):  # the writer inherits them: no time spent there
            if number and f"t{number}" not in self.worlds:
                self.worlds[f"t{number}"] = _world(self.seed, f"t{number}")
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the writer
            code = 0
            try:
                os.close(read_end)
                self.disk.forget_in_child()
                _writer(
                    self.db,
                    write_end,
                    self.expected,
                    self.statuses,
                    self.worlds,
                    self.seed,
                    verify_only,
                )
            except BaseException:  # noqa: BLE001 - told to the parent, which counts it
                code = 1
                text = traceback.format_exc().replace("\n", " | ")
                os.write(write_end, f"problem the writer failed: {text[-1500:]}\n".encode())
            finally:
                os._exit(code)
        os.close(write_end)
        try:
            return self._watch(pid, _Lines(read_end), verify_only)
        finally:
            os.close(read_end)

    def _watch(self, pid: int, lines: _Lines, verify_only: bool) -> bool:
        during_start = not verify_only and self.rng.random() < START_CUTS
        start_cut_at = self.rng.uniform(0, self.start_seconds)
        wanted = self.rng.randint(0, MOST_ACKS_BEFORE_CUT)
        # The database file itself is written only by SQLite's checkpoints (the WAL takes the
        # commits): a trap on its n-th write cuts the power in the middle of one, a moment a
        # random time almost never hits (a checkpoint runs inside one append).
        trap_at = self.rng.randint(1, CHECKPOINT_TRAP) if not (verify_only or during_start) else 0
        if trap_at:
            self.disk.arm(self.db.name, trap_at)
        forked = time.monotonic()
        started, acks, going_on = False, 0, True
        while True:
            now = time.monotonic()
            if now - forked > CYCLE_TIMEOUT:
                self.problem(f"the writer was silent for {CYCLE_TIMEOUT:.0f} s (hung?)")
                break
            if started and acks >= wanted and not verify_only:
                break
            wait = (
                forked + start_cut_at - now
                if during_start and not started
                else forked + CYCLE_TIMEOUT - now
            )
            line = lines.next(min(wait, TRAP_POLL) if trap_at else wait)
            if line is None:
                if lines.eof:
                    if not verify_only and going_on:
                        self.problem("the writer stopped before the power was cut")
                    break
                if during_start and not started and time.monotonic() >= forked + start_cut_at:
                    break  # cut the power in the middle of the start
                if trap_at and self.disk.trapped():
                    break  # the writer is held inside a checkpoint's write
                continue
            kind, _, rest = line.partition(" ")
            if kind == "started":
                started = True
                self.start_seconds = 0.8 * self.start_seconds + 0.2 * (time.monotonic() - forked)
            elif kind == "a":
                acks += 1
            going_on = self._take(kind, rest) and going_on
        delay = self.rng.uniform(0, 0.002)  # anywhere: mid-append, mid-fsync
        if not verify_only and not (trap_at and self.disk.trapped()):
            time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        where = (
            "start"
            if during_start and not started
            else "checkpoint"
            if trap_at and self.disk.trapped()
            else "play"
        )
        self.disk.release()  # a held write must return for the killed writer to go
        os.waitpid(pid, 0)
        while (line := lines.next(5.0)) is not None:  # what it said before it died
            kind, _, rest = line.partition(" ")
            going_on = self._take(kind, rest) and going_on
        for table_id, lost in self.gone.items():
            seqs = [seq for seq, _ in lost]
            self.problem(
                f"table {table_id}: {len(seqs)} acknowledged input"
                f"{'s are' if len(seqs) > 1 else ' is'} gone (seq {_spans(seqs)}; the "
                f"first was {lost[0][1]})"
            )
        self.gone.clear()
        if not verify_only:
            if not self._cut():
                where = "crash only (no cut)"
            self.kinds[where] = self.kinds.get(where, 0) + 1
        return going_on

    def _take(self, kind: str, rest: str) -> bool:
        """Take one line from the writer into the books; False if the start was refused."""
        if kind == "a":  # acknowledged: "a <table> <seq> <record JSON>"
            table_id, seq_text, text = rest.split(" ", 2)
            seq, record = int(seq_text), json.loads(text)
            known = self.expected.setdefault(table_id, {})
            if seq in known and known[seq] != record:
                self.problem(
                    f"table {table_id}: seq {seq} was acknowledged twice, for "
                    f"{known[seq]} and then for {record} (an earlier one vanished "
                    "without a start noticing)"
                )
            known[seq] = record
            self.acknowledged += 1
        elif kind == "s":  # a table's status acknowledged: "s <table> <status>"
            table_id, status = rest.split(" ")
            self.statuses[table_id] = status
        elif kind == "lost":  # "lost <table> <seq>": told in one problem per table, at the end
            table_id, seq_text = rest.split(" ")
            record = self.expected[table_id].pop(int(seq_text))
            self.lost += 1
            self.gone.setdefault(table_id, []).append((int(seq_text), record))
        elif kind == "altered":  # "altered <table> <seq> <stored JSON>"
            table_id, seq_text, text = rest.split(" ", 2)
            seq = int(seq_text)
            before, self.expected[table_id][seq] = self.expected[table_id][seq], json.loads(text)
            self.altered += 1
            self.problem(
                f"table {table_id}: acknowledged input {seq} was {before}, the store "
                f"now holds {text}"
            )
        elif kind == "verified":
            self.verified += int(rest)
        elif kind == "refused":
            self.refused += 1
            self.problem(f"the start after the cut refused the database: {rest}")
            return False
        elif kind == "problem":
            self.problem(rest)
        return True

    def _cut(self) -> bool:
        """Throw away what was not fsync'd, all of it or a random part; or, now and then, let
        the kill be only a crash: what was not fsync'd stays in the (modelled) page cache, as
        volatile as before, for the next start to read and a later cut to drop. False then."""
        draw = self.rng.random()
        if draw > 1 - CRASHES:
            return False
        keep = 0.0 if draw < 0.3 else self.rng.random()
        tear = self.rng.random() if self.rng.random() < TORN_CUTS else 0.0
        _kept, dropped = self.disk.cut(self.rng.randrange(1 << 30), keep, tear)
        self.dropped += dropped
        self.cuts += 1
        return True

    def result(self, seconds: float) -> CutResult:
        return CutResult(
            self.cuts,
            self.acknowledged,
            self.lost,
            self.altered,
            self.refused,
            round(seconds, 2),
            tuple(self.problems),
            self.dropped,
            {**self.disk.stats(), "cuts": dict(self.kinds)},
        )


def _spans(numbers: list[int]) -> str:
    """``1-4, 9``: sorted numbers as runs."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in runs)


def _writer(
    db: Path,
    out: int,
    expected: dict[str, dict[int, dict[str, Any]]],
    statuses: dict[str, str],
    worlds: dict[str, list[Any]],
    seed: int,
    verify_only: bool,
) -> None:
    """The forked writer: start as ``scorekeeper serve`` does, check, then play until killed."""
    import logging

    from scorekeeper.errors import StoreError
    from scorekeeper.service.hub import Hub
    from scorekeeper.store.lock import DatabaseLock

    logging.disable(logging.CRITICAL)  # what matters is reported below, not logged

    def say(text: str) -> None:
        os.write(out, (text.replace("\n", " ") + "\n").encode())

    lock = DatabaseLock(db)
    try:
        lock.acquire()
        hub = Hub.open(db)
        hub.tokens.ensure_organiser_token(hub.token_file)
    except StoreError as exc:
        say(f"refused {exc}")
        return
    _check(hub, expected, statuses, say)
    say("started")
    if verify_only:
        hub.close()
        lock.release()
        return
    _play(hub, worlds, seed, say)


def _check(
    hub: Any,
    expected: dict[str, dict[int, dict[str, Any]]],
    statuses: dict[str, str],
    say: Callable[[str], None],
) -> None:
    """Compare the store, as a start found it, with what was acknowledged before the cut."""
    from scorekeeper.errors import AuthError, NotFound, StoreError
    from scorekeeper.service.tokens import ORGANISER_IDENTITY

    checked = 0
    for table_id, acked in expected.items():
        stored: dict[int, dict[str, Any]] = {}
        try:
            for seq, record in hub.store.records(table_id):
                stored[seq] = record
        except NotFound:
            say(f"problem table {table_id} is not in the store any more")
        except StoreError as exc:  # a broken chain: what follows it is not trusted
            say(f"problem {exc}")
        for seq, record in acked.items():
            checked += 1
            found = stored.get(seq)
            if found is None:
                say(f"lost {table_id} {seq}")
            elif found != record:
                say(f"altered {table_id} {seq} {json.dumps(found, separators=(',', ':'))}")
    for table_id, status in statuses.items():
        try:
            now = str(hub.status(table_id))
        except NotFound:
            now = "no table at all"
        if STATUS_ORDER.get(now, -1) < STATUS_ORDER[status]:
            say(f"problem table {table_id} was acknowledged {status}, the store says {now}")
    for summary in hub.summaries(archived=True):
        if summary.get("error"):
            say(f"problem {summary['error']}")
    try:
        token = hub.token_file.read_text().strip()
        if hub.tokens.identify(token) != ORGANISER_IDENTITY:
            say(f"problem the organiser token file {hub.token_file} opens another door")
    except (OSError, AuthError) as exc:
        say(
            f"problem the organiser token file {hub.token_file} no longer lets the organiser "
            f"in: {exc}"
        )
    say(f"verified {checked}")


def _play(hub: Any, worlds: dict[str, list[Any]], seed: int, say: Callable[[str], None]) -> None:
    """Play games table after table, reporting each input once the store acknowledged it."""
    store = hub.store
    append = store.append

    def acknowledged(table_id: str, record: dict[str, Any], *rest: Any, **named: Any) -> int:
        seq = int(append(table_id, record, *rest, **named))
        say(f"a {table_id} {seq} {json.dumps(record, separators=(',', ':'))}")
        return seq

    store.append = acknowledged  # every log append of every table goes through here
    while True:
        table_id = None
        for candidate in reversed(hub.table_ids()):
            summary = hub.summary(candidate)
            if summary.get("status") in ("created", "running", "paused") and not summary.get(
                "error"
            ):
                table_id = candidate
                break
        if table_id is None:
            table_id = hub.create_table(GAME, list(SEATS))
            say(f"s {table_id} created")
        if hub.status(table_id) != "running":
            hub.start(table_id)
            say(f"s {table_id} running")
        inputs = worlds.get(table_id) or _world(seed, table_id)
        for index in range(hub.inputs_seen(table_id), len(inputs)):
            result = hub.submit(table_id, inputs[index])
            if not result.accepted:
                say(
                    f"problem table {table_id}: the game's input {index + 1} was refused "
                    f"({result.rejection}); the campaign's inputs no longer fit its log"
                )
        hub.end(table_id)
        say(f"s {table_id} ended")


def _campaign(
    cuts: int, seed: int, workdir: Path, say: Callable[[str], None], fsync_lies: bool = False
) -> CutResult:
    began = time.monotonic()
    _warm_up()
    with Mount(workdir / "disk", workdir / "mnt", fsync_lies=fsync_lies) as disk:
        campaign = Campaign(workdir / "mnt" / "scorekeeper.db", disk, seed, say)
        while campaign.cuts < cuts:
            if not campaign.cycle():
                break
            if campaign.cuts % 20 == 0 or campaign.problems:
                say(
                    f"{campaign.cuts}/{cuts} cuts, {campaign.acknowledged} inputs "
                    f"acknowledged, {campaign.lost} lost, {campaign.altered} altered, "
                    f"{campaign.dropped} unsynced writes dropped, "
                    f"{time.monotonic() - began:.1f} s"
                )
        else:
            campaign.cycle(verify_only=True)  # the last cut is checked by one more start
        result = campaign.result(time.monotonic() - began)
        for what, counts in result.detail.items():
            say(f"{what}: " + ", ".join(f"{name} {n}" for name, n in sorted(counts.items())))
        return result


def main(argv: list[str] | None = None) -> int:
    """``python -m soak.powercut``: one campaign; prints progress lines and a result line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument(
        "--fsync-lies",
        action="store_true",
        help="a disk whose fsync keeps nothing: the campaign must fail",
    )
    args = parser.parse_args(argv)

    def say(text: str) -> None:
        print(f"progress {text}", flush=True)

    def stop(_signo: int, _frame: Any) -> None:
        raise SystemExit(1)  # unwinds: the writer is killed and the mount closed

    signal.signal(signal.SIGTERM, stop)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="powercut-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        result = _campaign(args.cuts, args.seed, workdir, say, args.fsync_lies)
    except FuseUnavailable as exc:
        print(f"unavailable {exc}", flush=True)
        return 1
    finally:
        if args.workdir is None and not os.path.ismount(workdir / "mnt"):
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"result {json.dumps(asdict(result))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
