"""scorekeeper: an RFID companion for physical card and board games."""

__version__ = "0.1.0"
