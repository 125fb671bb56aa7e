#!/usr/bin/env bash
# Runs a command with a real Secret Service (gnome-keyring) on a private D-Bus session, so keychain
# code is tested against the real thing. The keyring lives in .keyring-home/ (git-ignored).
set -euo pipefail
if [ "${DESK_KEYRING_READY:-}" = 1 ]; then exec "$@"; fi
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  echo "with-keyring: no dbus-run-session/gnome-keyring-daemon here; the app will report 'no keychain'." >&2
  exec "$@"
fi
export XDG_DATA_HOME="${DESK_KEYRING_HOME:-$PWD/.keyring-home}"
mkdir -p "$XDG_DATA_HOME"
exec dbus-run-session -- bash -c '
  printf %s "${DESK_KEYRING_PASSWORD:-campaign-desk-test}" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
  export DESK_KEYRING_READY=1
  exec "$@"' bash "$@"
