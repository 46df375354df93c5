#!/usr/bin/env bash
# Runs a Kotlin/Native test program of this build on this host, directly or under the emulator its target needs,
# and exits with the program's exit code.
#
#   run-native.sh <host | qemu | wine> <program> [arguments...]
#
# host: a linuxX64 program. qemu: a linuxArm64 program, under qemu-aarch64-static with Debian's aarch64 libraries
# as its root for the dynamic loader and libc (Debian does not register qemu with binfmt, so the program is
# started through it). wine: a mingwX64 program, under 64-bit Wine, in the Wine prefix $WINEPREFIX (the POM puts
# it under target/, so a run never touches ~/.wine); Wine creates it on first use, which takes a few seconds.
# FORAGE_CONTRACT_REPORTS, when set, is created first: the programs write their JUnit reports into it.
set -euo pipefail
runner="$1"
shift
[[ -n "${FORAGE_CONTRACT_REPORTS:-}" ]] && mkdir -p "$FORAGE_CONTRACT_REPORTS"
case "$runner" in
    host)
        exec "$@"
        ;;
    qemu)
        exec qemu-aarch64-static -L /usr/aarch64-linux-gnu "$@"
        ;;
    wine)
        wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
        : "${WINEPREFIX:?WINEPREFIX must name a scratch folder for the Wine prefix}"
        mkdir -p "$WINEPREFIX"
        export WINEPREFIX WINEDEBUG="${WINEDEBUG:--all}" WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
        status=0
        "$wine" "$@" || status=$?
        # Wine leaves its server running for a few seconds after the program ends: stop it, so that the build ends
        # with no process of its own left behind.
        "$(dirname "$wine")/wineserver" -k 2>/dev/null || wineserver -k 2>/dev/null || true
        exit "$status"
        ;;
    *)
        echo "ERROR: unknown runner $runner (host, qemu, wine)" >&2
        exit 1
        ;;
esac
