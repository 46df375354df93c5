#!/usr/bin/env bash
# The clang that Kotlin/Native calls for a mingw_x64 program's C stubs (konan-offline.sh installs it as bin/clang of
# the LLVM the mingw links use). The compiler compiles the stubs to bitcode with `-emit-llvm -c` and reads that back
# with its own LLVM 19; Debian's clang 22 always writes a `!llvm.dbg.cu` entry into that bitcode, which LLVM 19
# cannot read ("Invalid record"). So for bitcode output this writes text IR instead, drops that one metadata line
# and assembles the rest into bitcode for the same target. Every other call goes to clang 22 unchanged, under the
# name it was called by (installed as clang and clang++: the links need clang++'s C++ libraries).
set -euo pipefail
clang="/usr/lib/llvm-22/bin/$(basename "$0")"

emit_llvm=false out="" args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        -emit-llvm) emit_llvm=true; args+=("$1") ;;
        -o) out="$2"; shift ;;
        *) args+=("$1") ;;
    esac
    shift
done
if [[ "$emit_llvm" != true || -z "$out" ]]; then
    exec "$clang" "${args[@]}" ${out:+-o "$out"}
fi

target=""
for ((i = 0; i < ${#args[@]}; i++)); do
    [[ "${args[$i]}" == -target ]] && target="${args[$((i + 1))]}"
done
ir="$(mktemp --suffix=.ll)"
trap 'rm -f "$ir" "$ir.clean"' EXIT
"$clang" "${args[@]}" -S -o "$ir"
grep -v '^!llvm\.dbg\.cu = ' "$ir" > "$ir.clean"
"$clang" ${target:+-target "$target"} -x ir -c -emit-llvm -o "$out" "$ir.clean"
