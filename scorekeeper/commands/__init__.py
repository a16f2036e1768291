"""One module per ``scorekeeper`` sub-command (see ``scorekeeper.cli.COMMANDS``)."""
