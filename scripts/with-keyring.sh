#!/usr/bin/env bash
# Runs a command with a real Secret Service (gnome-keyring) on a private D-Bus session, so keychain
# code is tested against the real thing. Each run gets a fresh keyring folder (DESK_KEYRING_HOME
# overrides), so no state leaks between runs.
set -euo pipefail
if [ "${DESK_KEYRING_READY:-}" = 1 ]; then exec "$@"; fi
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  echo "with-keyring: no dbus-run-session/gnome-keyring-daemon here; the app will report 'no keychain'." >&2
  exec "$@"
fi
export XDG_DATA_HOME="${DESK_KEYRING_HOME:-$(mktemp -d "${TMPDIR:-/tmp}/desk-keyring.XXXXXX")}"
mkdir -p "$XDG_DATA_HOME"
# A private runtime folder too: gnome-keyring puts its control socket in $XDG_RUNTIME_DIR/keyring, so
# two runs sharing one folder replace each other's daemon and the first run's keychain calls hang.
export XDG_RUNTIME_DIR="$(mktemp -d "${TMPDIR:-/tmp}/desk-runtime.XXXXXX")"
chmod 700 "$XDG_RUNTIME_DIR"
exec dbus-run-session -- bash -c '
  printf %s "${DESK_KEYRING_PASSWORD:-campaign-desk-test}" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
  # The daemon creates and unlocks its login keyring asynchronously: wait for a real round trip
  # before the tests start, or the first parallel writers race its creation.
  if command -v secret-tool >/dev/null; then
    ready=0
    for _ in $(seq 1 100); do
      if printf probe | secret-tool store --label=campaign-desk-probe service campaign-desk-probe username probe 2>/dev/null &&
        [ "$(secret-tool lookup service campaign-desk-probe username probe 2>/dev/null)" = probe ]; then
        secret-tool clear service campaign-desk-probe username probe 2>/dev/null || true
        ready=1
        break
      fi
      sleep 0.1
    done
    [ "$ready" = 1 ] || echo "with-keyring: the Secret Service did not answer within 10 s" >&2
  fi
  export DESK_KEYRING_READY=1
  exec "$@"' bash "$@"
