"""Reader backends: turn RFID hardware (or a script) into debounced ``Sighting`` values.

``open_readers("sim" | "serial:PORT[?baud=N]" | "spi:BUS.CS[,...]" | "mfrc522:", **options)``
builds one; see ``readers.base``. Backends themselves are imported lazily by ``open_readers``.
"""

from scorekeeper.readers.base import ReaderBackend, ReaderHealth, format_uid, open_readers

__all__ = ["ReaderBackend", "ReaderHealth", "format_uid", "open_readers"]
