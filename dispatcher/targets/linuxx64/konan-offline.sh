#!/usr/bin/env bash
# Prepares a Kotlin/Native data folder (KONAN_DATA_DIR) that links executables without downloading anything:
# the compiler's LLVM is Debian's clang/lld 22 (apt-get install clang-22 lld-22; clang-19 cannot read the
# compiler's bitcode, "Invalid record"), and its sysroot is the host's own root, so executables link against the
# host's glibc. The compiler looks its dependencies up by these folder names and skips the download of those listed
# in dependencies/.extracted. lldb and libffi are not used for executables, but must exist and not be empty.
#
#   konan-offline.sh <KONAN_DATA_DIR>
set -euo pipefail
data="$1"
llvm=/usr/lib/llvm-22
if [[ ! -x "$llvm/bin/clang" || ! -x "$llvm/bin/ld.lld" ]]; then
    echo "ERROR: $llvm/bin/clang and ld.lld are needed to link Kotlin/Native executables: apt-get install clang-22 lld-22" >&2
    exit 1
fi
deps="$data/dependencies"
mkdir -p "$deps"
ln -sfn "$llvm" "$deps/llvm-19-x86_64-linux-essentials-103"
sysroot="$deps/x86_64-unknown-linux-gnu-gcc-8.3.0-glibc-2.19-kernel-4.9-2/x86_64-unknown-linux-gnu"
mkdir -p "$sysroot"
ln -sfn / "$sysroot/sysroot"
for d in lldb-4-linux libffi-3.2.1-2-linux-x86-64; do
    mkdir -p "$deps/$d"
    echo "not used: linking needs no $d" > "$deps/$d/README"
done
printf '%s\n' llvm-19-x86_64-linux-essentials-103 x86_64-unknown-linux-gnu-gcc-8.3.0-glibc-2.19-kernel-4.9-2 \
    lldb-4-linux libffi-3.2.1-2-linux-x86-64 > "$deps/.extracted"
echo "Kotlin/Native data folder ready (offline): $data"
