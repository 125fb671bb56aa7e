#!/usr/bin/env bash
# Sets up a fresh Debian-like machine for Campaign Desk: system packages (when missing and root),
# then the npm packages. The npm package `node` pins Node 24 for every npm script.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing+=(gnome-keyring)
command -v dbus-run-session >/dev/null 2>&1 || missing+=(dbus dbus-x11)
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb xauth)
command -v secret-tool >/dev/null 2>&1 || missing+=(libsecret-tools)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing ${missing[*]}; install them with your package manager (this needs root)." >&2
  fi
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "setup: ready (Node $(npm exec -- node --version 2>/dev/null || echo '?') for npm scripts)"
