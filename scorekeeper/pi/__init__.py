"""The Raspberry Pi side of scorekeeper: systemd notification and GPIO feedback.

``notify`` (systemd's sd_notify protocol, standard library only) is always cheap to import.
``feedback`` imports gpiozero and is imported only when ``scorekeeper serve --feedback`` asks
for it: a Pi Zero 2 W pays for every import at start-up.
"""
