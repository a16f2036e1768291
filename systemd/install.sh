#!/usr/bin/env bash
# Install scorekeeper as a systemd service on Raspberry Pi OS (Bookworm or newer).
#
#   sudo systemd/install.sh            # from a checkout of the repository
#   sudo systemd/install.sh --spi      # also enable SPI (RC522 readers wired to the Pi)
#   sudo systemd/install.sh --no-start # install and enable, but do not start now
#
# What it does, each step safe to repeat (running it twice changes nothing the second time,
# except reinstalling the package from this checkout, which is how you update):
#   1. checks it runs as root on Debian / Raspberry Pi OS with Python >= 3.11;
#   2. apt-installs python3-venv (and python3-dev + swig only when pip has to build lgpio);
#   3. creates the system user and group "scorekeeper", in the groups spi, gpio and dialout;
#   4. copies this checkout to /opt/scorekeeper/src, creates /opt/scorekeeper/venv and
#      pip-installs it there with the [pi] extra;
#   5. installs the unit (/etc/systemd/system/scorekeeper.service) and the udev rule that names
#      the Pico bridge /dev/scorekeeper-bridge;
#   6. enables SPI when asked (raspi-config nonint do_spi 0);
#   7. systemctl daemon-reload, enable --now, waits until the server answers, and prints the
#      dashboard address and the organiser token.
set -euo pipefail

PREFIX=/opt/scorekeeper
VENV="$PREFIX/venv"
SRC="$PREFIX/src"
STATE=/var/lib/scorekeeper
UNIT=/etc/systemd/system/scorekeeper.service
RULE=/etc/udev/rules.d/99-scorekeeper-bridge.rules
PORT=8000
SERVICE_USER=scorekeeper

ENABLE_SPI=no
START=yes

say() { printf '==> %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
}

while [ "$#" -gt 0 ]; do
    case "$1" in
        --spi) ENABLE_SPI=yes ;;
        --no-start) START=no ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"

# --- 1. where are we ------------------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || die "run me as root: sudo $0 $*"
[ -r /etc/os-release ] || die "cannot read /etc/os-release: this is for Raspberry Pi OS / Debian"
# shellcheck disable=SC1091  # read at run time on the Pi
. /etc/os-release
case " ${ID:-} ${ID_LIKE:-} " in
    *" debian "*|*" raspbian "*) ;;
    *) die "this installer is for Raspberry Pi OS or Debian, not ${PRETTY_NAME:-unknown}" ;;
esac
command -v systemctl >/dev/null || die "systemd is needed (systemctl not found)"
if [ ! -f "$REPO/pyproject.toml" ] || [ ! -d "$REPO/scorekeeper" ]; then
    die "run me from a scorekeeper checkout (no pyproject.toml in $REPO)"
fi
if [ ! -f "$HERE/scorekeeper.service" ] || [ ! -f "$HERE/99-scorekeeper-bridge.rules" ]; then
    die "scorekeeper.service or 99-scorekeeper-bridge.rules missing next to $0"
fi
command -v python3 >/dev/null || die "python3 not found: Raspberry Pi OS ships it; apt-get install python3"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Python 3.11 or newer is needed (Raspberry Pi OS Bookworm has 3.11); found $(python3 -V)"
say "installing scorekeeper from $REPO on ${PRETTY_NAME:-Debian}"

# --- 2. system packages ---------------------------------------------------------------------
apt_updated=no
apt_install() {
    if [ "$apt_updated" = no ]; then
        say "apt-get update"
        apt-get update -q
        apt_updated=yes
    fi
    say "apt-get install $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    apt_install python3-venv
else
    say "python3-venv: already installed"
fi

# --- 3. the service user --------------------------------------------------------------------
for group in spi gpio dialout; do
    if ! getent group "$group" >/dev/null; then
        say "creating group $group (Raspberry Pi OS normally has it)"
        groupadd --system "$group"
    fi
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    say "creating system user $SERVICE_USER"
    useradd --system --user-group --home-dir "$STATE" --no-create-home \
        --shell /usr/sbin/nologin --comment "scorekeeper table server" "$SERVICE_USER"
else
    say "user $SERVICE_USER: already there"
fi
usermod --append --groups spi,gpio,dialout "$SERVICE_USER"

# --- 4. the package -------------------------------------------------------------------------
# A clean copy of the checkout in $SRC (root's, read-only to the service; the home directory
# is hidden from the service by ProtectHome=yes), installed into the venv in editable mode so
# that the web page (webui/, which is not inside the Python package) is found next to it.
install -d -m 0755 "$PREFIX"
if [ "$REPO" != "$SRC" ]; then
    say "copying $REPO to $SRC"
    rm -rf "$SRC.new"
    install -d -m 0755 "$SRC.new"
    tar -C "$REPO" --exclude=./.git --exclude=./.venv --exclude=./var --exclude=__pycache__ \
        --exclude='*.egg-info' -cf - . | tar -C "$SRC.new" --no-same-owner -xf -
    rm -rf "$SRC"
    mv "$SRC.new" "$SRC"
fi
if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip
say "pip install '${SRC}[pi]' (a few minutes on a Pi Zero)"
if ! "$VENV/bin/python" -m pip install --quiet --upgrade --editable "${SRC}[pi]"; then
    # No ready-made lgpio wheel for this Python/architecture: pip builds it, which needs these.
    say "pip could not install a ready-made package; installing build tools and trying again"
    apt_install python3-dev swig build-essential
    "$VENV/bin/python" -m pip install --quiet --upgrade --editable "${SRC}[pi]"
fi
"$VENV/bin/scorekeeper" --version
# The service cannot write __pycache__ into $SRC (root's, and ProtectSystem=strict): without
# this every start compiles the package from source again, which is slower and leaves the
# compiler's garbage in the server's memory (about 1 MB with a table, docs/design.md "Budgets").
say "compiling the package"
"$VENV/bin/python" -m compileall -q "$SRC/scorekeeper" "$SRC/firmware_bridge"

# --- 5. unit and udev rule ------------------------------------------------------------------
say "installing $UNIT and $RULE"
install -m 0644 "$HERE/scorekeeper.service" "$UNIT"
install -m 0644 "$HERE/99-scorekeeper-bridge.rules" "$RULE"
if command -v udevadm >/dev/null; then
    udevadm control --reload-rules
    udevadm trigger --subsystem-match=tty --action=change || true
fi

# --- 6. SPI ---------------------------------------------------------------------------------
reboot_needed=no
if [ "$ENABLE_SPI" = yes ]; then
    if ls /dev/spidev* >/dev/null 2>&1; then
        say "SPI: already enabled"
    elif command -v raspi-config >/dev/null; then
        say "enabling SPI (raspi-config nonint do_spi 0)"
        raspi-config nonint do_spi 0
        ls /dev/spidev* >/dev/null 2>&1 || reboot_needed=yes
    else
        die "--spi: raspi-config not found; add dtparam=spi=on to /boot/firmware/config.txt and reboot"
    fi
fi

# --- 7. start -------------------------------------------------------------------------------
systemctl daemon-reload
if [ "$START" = no ]; then
    systemctl enable scorekeeper.service
    say "installed and enabled; start it with: sudo systemctl start scorekeeper"
    exit 0
fi
say "enabling and (re)starting scorekeeper.service"
systemctl enable scorekeeper.service
systemctl restart scorekeeper.service

say "waiting for the server to answer on port $PORT"
answered=no
for _ in $(seq 1 120); do
    if "$VENV/bin/python" - "$PORT" <<'PY' 2>/dev/null
import sys, urllib.request
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
opener.open(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=2).read()
PY
    then
        answered=yes
        break
    fi
    if systemctl is-failed --quiet scorekeeper.service; then
        break
    fi
    sleep 1
done
if [ "$answered" = no ]; then
    systemctl --no-pager status scorekeeper.service || true
    die "the server did not answer within 2 minutes: see journalctl -u scorekeeper -e"
fi

ip="$(hostname -I 2>/dev/null | awk '{print $1}')"
say "scorekeeper is running"
printf '\n  dashboard:        http://%s:%s/\n' "${ip:-<this Pi>}" "$PORT"
if [ -r "$STATE/organiser-token" ]; then
    printf '  organiser token:  %s\n' "$(cat "$STATE/organiser-token")"
    printf '                    (also in %s, readable by root only)\n' "$STATE/organiser-token"
else
    printf '  organiser token:  not found in %s: the service writes it when it first starts\n' "$STATE"
fi
printf '\n  check the readers: sudo systemctl stop scorekeeper && %s/bin/scorekeeper doctor\n' "$VENV"
printf '  logs:              journalctl -u scorekeeper -f\n'
if [ "$reboot_needed" = yes ]; then
    printf '\n  SPI was enabled: reboot once (sudo reboot) for /dev/spidev* to appear.\n'
fi
