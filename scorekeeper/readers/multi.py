"""Several reader backends serving one table, e.g. two bridges under a four-player mat.

One bridge drives up to eight readers; a four-player Angels & Demons mat has fifteen zones. A
spec joined with ``+`` (``serial:/dev/bridge-a+serial:/dev/bridge-b``) opens each part and
reports its readers as ``<part>/<reader>``: ``0/r3`` is reader r3 of the first bridge, ``1/r0``
the first reader of the second. Zone layouts name readers that way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from scorekeeper.core.inputs import Sighting
from scorekeeper.readers.base import Emit, ReaderBackend, ReaderHealth

SEPARATOR = "/"


def part_reader(part: int, reader: str) -> str:
    """The table-wide id of reader ``reader`` of part ``part``."""
    return f"{part}{SEPARATOR}{reader}"


class MultiBackend(ReaderBackend):
    """The parts' readers as one backend; a part that fails to start stops the ones before it."""

    name = "multi"

    def __init__(self, parts: Sequence[ReaderBackend]) -> None:
        self.parts = tuple(parts)

    @property
    def reader_ids(self) -> tuple[str, ...]:
        # Computed each time: a serial part learns its readers from the bridge's HELLO.
        return tuple(part_reader(i, r) for i, p in enumerate(self.parts) for r in p.reader_ids)

    def start(self, emit: Emit) -> None:
        started: list[ReaderBackend] = []
        try:
            for index, part in enumerate(self.parts):
                part.start(self._relay(index, emit))
                started.append(part)
        except BaseException:
            for part in started:
                part.stop()
            raise

    @staticmethod
    def _relay(index: int, emit: Emit) -> Emit:
        def relay(sighting: Sighting) -> None:
            emit(Sighting(part_reader(index, sighting.reader), sighting.uid, sighting.present))

        return relay

    def stop(self) -> None:
        for part in self.parts:
            part.stop()

    def health(self) -> dict[str, ReaderHealth]:
        out: dict[str, ReaderHealth] = {}
        for index, part in enumerate(self.parts):
            for reader, health in part.health().items():
                rid = part_reader(index, reader)
                out[rid] = dataclasses.replace(health, reader=rid)
        return out

    def signal_refusal(self, reader: str) -> None:
        """Pass the refusal to the part that owns ``reader`` (``1/r0`` -> part 1's r0)."""
        index, sep, inner = reader.partition(SEPARATOR)
        if sep and index.isdigit() and int(index) < len(self.parts):
            self.parts[int(index)].signal_refusal(inner)

    def stats(self) -> dict[str, Any]:
        return {"backend": self.name, "parts": [p.stats() for p in self.parts]}
