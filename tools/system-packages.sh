#!/usr/bin/env bash
# Makes sure the Debian packages that `make test` needs are here, before any test runs.
#
# As root with apt-get available, it installs what is missing (one `apt-get update`, then one
# `apt-get install`). Otherwise it installs nothing, names what is missing and prints the one
# command to run, and exits 1 so that the tests never start half-equipped.
#
#   - chromium: the browser tests drive Debian's Chromium through Playwright (never a download)
#   - tests/systemd checks systemd/install.sh with shellcheck
#   - systemd: tests/systemd verifies the unit with systemd-analyze
#   - npm: installs axe-core (the accessibility audit of the browser tests) from the registry
#   - fuse3: fusermount3 and libfuse3, which the power-cut tests mount their FUSE layer with
#     (tests/store/test_power_cut.py, through mfusepy)
#   - mosquitto and postgresql: the event tests start private instances of the broker and the
#     database on free ports (scorekeeper/event/servers.py)
set -euo pipefail

# With the argument "event", only what make event-demo needs (the broker and the database).
missing=()
have() { command -v "$1" >/dev/null 2>&1; }
if [ "${1:-}" != "event" ]; then
    have chromium || missing+=(chromium)
    have shellcheck || missing+=(shellcheck)
    have systemd-analyze || missing+=(systemd)
    have npm || missing+=(npm)
    have fusermount3 || missing+=(fuse3)
fi
have mosquitto || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

install=(apt-get install -y -q --no-install-recommends "${missing[@]}")
if [ "$(id -u)" -eq 0 ] && have apt-get; then
    echo "make test: installing the system packages the tests need: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    "${install[@]}" >&2
    exit 0
fi

echo "make test: the tests need these system packages, which are missing: ${missing[*]}" >&2
if have apt-get; then
    echo "Install them with this one command, then run make test again:" >&2
    echo "    sudo ${install[*]}" >&2
else
    echo "Install them with your system's package manager, then run make test again." >&2
fi
exit 1
