#!/usr/bin/env bash
# Prepares a Kotlin/Native data folder (KONAN_DATA_DIR) that links executables for a target without downloading
# anything. The compiler looks its dependencies up by these folder names under dependencies/ and skips the download
# of those listed in dependencies/.extracted; each stand-in below is a Debian package's files under the name the
# compiler asks for.
#
#   konan-offline.sh <KONAN_DATA_DIR> <linux_x64 | linux_arm64 | mingw_x64>
#
# Every target: the compiler's LLVM is Debian's clang/lld 22 (clang-19 cannot read the compiler's bitcode, "Invalid
# record"), and the linux_x64 sysroot is the host's own root, so linuxX64 programs link against the host's glibc.
# lldb and libffi are not used for executables, but must exist and not be empty.
# linux_arm64: Debian's aarch64 cross toolchain stands in for the compiler's sysroot and gcc; its programs run under
# qemu-aarch64-static. mingw_x64: Debian's mingw-w64 (posix threads) stands in for the compiler's msys2, and the C
# stubs go through mingw-stub-clang.sh (see there).
#
# Several modules share one data folder and may run one after another: each run adds its names to .extracted (the
# union of all stand-ins prepared so far) and leaves the others in place. Running it again changes nothing.
set -euo pipefail
data="$1"
target="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
deps="$data/dependencies"

# need <file> <Debian packages>: stops with the packages to install when a file is missing.
need() {
    if [[ ! -e "$1" ]]; then
        echo "ERROR: $1 is needed to link Kotlin/Native programs for $target: apt-get install --no-install-recommends $2" >&2
        exit 1
    fi
}

# extracted <name>...: adds names to dependencies/.extracted, keeping those already listed.
extracted() {
    local list="$deps/.extracted"
    { [[ -f "$list" ]] && cat "$list"; printf '%s\n' "$@"; } | sort -u > "$list.tmp"
    mv "$list.tmp" "$list"
}

llvm=/usr/lib/llvm-22
need "$llvm/bin/clang" "clang-22 lld-22"
need "$llvm/bin/ld.lld" "clang-22 lld-22"
mkdir -p "$deps"
ln -sfn "$llvm" "$deps/llvm-19-x86_64-linux-essentials-103"
sysroot="$deps/x86_64-unknown-linux-gnu-gcc-8.3.0-glibc-2.19-kernel-4.9-2/x86_64-unknown-linux-gnu"
mkdir -p "$sysroot"
ln -sfn / "$sysroot/sysroot"
for d in lldb-4-linux libffi-3.2.1-2-linux-x86-64; do
    mkdir -p "$deps/$d"
    echo "not used: linking needs no $d" > "$deps/$d/README"
done
extracted llvm-19-x86_64-linux-essentials-103 x86_64-unknown-linux-gnu-gcc-8.3.0-glibc-2.19-kernel-4.9-2 \
    lldb-4-linux libffi-3.2.1-2-linux-x86-64

case "$target" in
    linux_x64)
        ;;
    linux_arm64)
        cross=/usr/aarch64-linux-gnu
        gcc=/usr/lib/gcc-cross/aarch64-linux-gnu/12
        need "$cross/lib/libc.so.6" "libc6-dev-arm64-cross"
        need "$gcc/libgcc.a" "gcc-aarch64-linux-gnu"
        need "$gcc/libstdc++.a" "libstdc++-12-dev-arm64-cross"
        need /usr/bin/qemu-aarch64-static "qemu-user-static"
        tc="$deps/aarch64-unknown-linux-gnu-gcc-8.3.0-glibc-2.25-kernel-4.9-2"
        root="$tc/aarch64-unknown-linux-gnu/sysroot"
        mkdir -p "$root/usr" "$root/stub" "$tc/lib/gcc/aarch64-unknown-linux-gnu"
        ln -sfn "$cross/lib" "$root/lib"
        ln -sfn "$cross/lib" "$root/usr/lib"
        # Debian's libc.so is a linker script naming /usr/aarch64-linux-gnu/lib/libc.so.6, which the linker looks
        # for inside the sysroot.
        ln -sfn "$cross" "$root/usr/aarch64-linux-gnu"
        ln -sfn "$gcc" "$tc/lib/gcc/aarch64-unknown-linux-gnu/8.3.0"
        # platform.posix links -lcrypt, which Debian 12 has no arm64 cross package for; nothing here calls it, so an
        # empty archive (in the stub folder the POM adds to abiSpecificLibraries.linux_arm64) satisfies the linker.
        [[ -f "$root/stub/libcrypt.a" ]] || printf '!<arch>\n' > "$root/stub/libcrypt.a"
        mkdir -p "$deps/qemu-aarch64-static-5.1.0-linux-2"
        ln -sfn /usr/bin/qemu-aarch64-static "$deps/qemu-aarch64-static-5.1.0-linux-2/qemu-aarch64"
        extracted aarch64-unknown-linux-gnu-gcc-8.3.0-glibc-2.25-kernel-4.9-2 qemu-aarch64-static-5.1.0-linux-2
        ;;
    mingw_x64)
        need /usr/x86_64-w64-mingw32/lib/libwinpthread.a "mingw-w64-x86-64-dev"
        need /usr/lib/gcc/x86_64-w64-mingw32/12-posix/libgcc.a "gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix"
        need /usr/lib/gcc/x86_64-w64-mingw32/12-posix/libstdc++.a "g++-mingw-w64-x86-64-posix"
        msys="$deps/msys2-mingw-w64-x86_64-2"
        mkdir -p "$msys/lib/gcc/x86_64-w64-mingw32"
        ln -sfn /usr/x86_64-w64-mingw32 "$msys/x86_64-w64-mingw32"
        ln -sfn /usr/lib/gcc/x86_64-w64-mingw32/12-posix "$msys/lib/gcc/x86_64-w64-mingw32/12.2.0"
        # The host LLVM for mingw links only (the POM points llvm.linux_x64.user at it): Debian's LLVM 22, but with
        # clang replaced by mingw-stub-clang.sh, which makes the C stubs' bitcode readable by the compiler's LLVM 19.
        stubs="$deps/llvm-22-mingw-stubs"
        mkdir -p "$stubs/bin"
        for f in "$llvm"/*; do
            [[ "$(basename "$f")" == bin ]] || ln -sfn "$f" "$stubs/$(basename "$f")"
        done
        for f in "$llvm"/bin/*; do
            ln -sfn "$f" "$stubs/bin/$(basename "$f")"
        done
        for c in clang clang++; do
            rm -f "$stubs/bin/$c"
            cp "$here/mingw-stub-clang.sh" "$stubs/bin/$c"
            chmod 755 "$stubs/bin/$c"
        done
        extracted msys2-mingw-w64-x86_64-2 llvm-22-mingw-stubs
        ;;
    *)
        echo "ERROR: no offline stand-ins for $target (linux_x64, linux_arm64, mingw_x64)" >&2
        exit 1
        ;;
esac
echo "Kotlin/Native data folder ready (offline, $target): $data"
