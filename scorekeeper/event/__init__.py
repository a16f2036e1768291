"""Event mode: many tables, one event (docs/events.md).

Each table's Pi stays the authority for its game and replicates its log over MQTT to the hub
(``scorekeeper hub``), which keeps the event in PostgreSQL: players, rounds, pods, results and
standings. The pure parts (seating, standings, the event's own record fold) import nothing
from the network or the database.
"""
