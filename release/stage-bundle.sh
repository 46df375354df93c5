#!/usr/bin/env bash
# Builds what Maven Central's Portal takes for one Forage release, and checks it; uploads nothing.
#
#   release/stage-bundle.sh [--version V] (--key FINGERPRINT | --throwaway-key)
#   release/stage-bundle.sh --check-tools    (only says whether this machine can stage a release: exit 0 or 1)
#
# 1. Copies the source tree to target/release/src (build outputs and .git left out) and sets the version there
#    (default: the POM's version without -SNAPSHOT), so the working tree's POMs are never edited.
# 2. Builds the published modules with -Prelease and `mvn deploy` into target/release/staging (a Maven repository
#    layout: dev/forage/<artifactId>/<version>/ with jars, flattened POMs, .asc signatures, .md5 and .sha1).
#    Tests are not run here: this stages the sources that `mvn verify` tested. The published target modules are the
#    ones dispatcher/src/build/java/KmpPublication.java lists (the root module's variants point to every one of
#    them), so the machine needs every native target's toolchain (see `native_tools` below): without one the script
#    stops before building anything, since the root module would point to a module not published.
# 3. Zips that layout into target/central-bundle.zip, the file the Portal's upload takes.
# 4. Runs release/check (JUnit) on the zip: Central's requirements, checksums and signatures.
#
# --key signs with a key from the caller's gpg keyring (GNUPGHOME); --throwaway-key makes a new unprotected key in
# target/release/gnupg, valid for one day, so that CI exercises signing and its check (Central would refuse it: it
# is on no key server).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The JDK's jar tool makes and lists the zip (no zip/unzip needed): the one of the JDK that runs Maven.
if [[ -n "${JAVA_HOME:-}" ]]; then JAVA_BIN="$JAVA_HOME/bin"; else JAVA_BIN="$(dirname "$(readlink -f "$(command -v java)")")"; fi
out="$root/target/release"
bundle="$root/target/central-bundle.zip"
# The multiplatform target modules, from the list the root .module is written from (dispatcher-jvm first).
target_modules="$("$JAVA_BIN/java" "$root/dispatcher/src/build/java/KmpPublication.java" modules)"
# Reactor selectors of the published modules, by artifactId (the target modules' folders differ from it).
published_modules="interop-java,forage-context,forage-bom,:dispatcher,:${target_modules//,/,:}"
published_ids="${published_modules//:/}"

usage() { echo "usage: $0 [--version V] (--key FINGERPRINT | --throwaway-key) | --check-tools" >&2; exit 2; }
version=""
key=""
throwaway=false
check_tools_only=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --check-tools) check_tools_only=true; shift ;;
        --version) [[ $# -ge 2 ]] || usage; version="$2"; shift 2 ;;
        --key) [[ $# -ge 2 ]] || usage; key="$2"; shift 2 ;;
        --throwaway-key) throwaway=true; shift ;;
        *) usage ;;
    esac
done
if [[ "$check_tools_only" == false ]] && { [[ -z "$key" && "$throwaway" == false ]] || [[ -n "$key" && "$throwaway" == true ]]; }; then
    usage
fi

# What each native target module needs on the machine beyond the Kotlin/Native compiler (which Maven fetches):
# dispatcher-linuxx64 links with Debian's clang and lld 22 (its `native` profile, konan-offline.sh);
# dispatcher-linuxarm64 and dispatcher-mingwx64 build against the Debian cross toolchains, and their tests run under
# qemu and wine. The Apple targets' klibs need the compiler alone. Without a tool Maven would leave its module out
# of the reactor (or fail in it), and the root .module, which lists every target, would point to a module not
# published; so the check comes before anything is built. Each entry: module, tool, Debian package.
native_tools=(
    "dispatcher-linuxx64 /usr/lib/llvm-22/bin/clang clang-22"
    "dispatcher-linuxx64 /usr/lib/llvm-22/bin/ld.lld lld-22"
    "dispatcher-linuxarm64 aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu"
    "dispatcher-linuxarm64 qemu-aarch64-static qemu-user-static"
    "dispatcher-mingwx64 x86_64-w64-mingw32-gcc mingw-w64"
    "dispatcher-mingwx64 wine wine"
)
missing=()
for entry in "${native_tools[@]}"; do
    read -r module tool package <<<"$entry"
    if [[ ",$target_modules," != *",$module,"* ]]; then
        echo "ERROR: release/stage-bundle.sh names tools for $module, which KmpPublication does not publish." >&2
        exit 1
    fi
    if [[ "$tool" == /* ]]; then found="$([[ -x "$tool" ]] && echo yes || true)"; else found="$(command -v "$tool" || true)"; fi
    [[ -n "$found" ]] || missing+=("$module needs $tool (apt-get install $package)")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "ERROR: a release publishes every target module, and this machine cannot build them all:" >&2
    printf '       %s\n' "${missing[@]}" >&2
    echo "       (Debian 12: clang-22 and lld-22 from bookworm-security.) Nothing was staged." >&2
    exit 1
fi
if [[ "$check_tools_only" == true ]]; then exit 0; fi

pom_version="$(sed -n 's:^    <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -n 1)"
version="${version:-${pom_version%-SNAPSHOT}}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([.-][0-9A-Za-z.-]+)?$ || "$version" == *SNAPSHOT* ]]; then
    echo "ERROR: release version '$version' must look like 1.2.3 or 1.2.3-rc1, and not be a SNAPSHOT." >&2
    exit 2
fi

rm -rf "$out" "$bundle"
mkdir -p "$out/src"

if [[ "$throwaway" == true ]]; then
    export GNUPGHOME="$out/gnupg"
    mkdir -m 700 "$GNUPGHOME"
    # gpg starts an agent for this key ring; end it with the script.
    trap 'gpgconf --kill gpg-agent >/dev/null 2>&1 || true' EXIT
    gpg --batch --quiet --gen-key <<PARAMS
%no-protection
Key-Type: eddsa
Key-Curve: ed25519
Key-Usage: sign
Name-Real: Forage release check (throwaway key)
Name-Email: release-check@forage.invalid
Expire-Date: 1d
%commit
PARAMS
    key="$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')"
fi
gpg --batch --armor --export "$key" > "$out/signing-key.asc"
[[ -s "$out/signing-key.asc" ]] || { echo "ERROR: no public key for '$key' in the gpg key ring." >&2; exit 1; }

echo "=== Staging Forage $version (signing key $key)"
tar -C "$root" --exclude=./.git --exclude=./target --exclude='*/target' --exclude='*/.kotlin' -cf - . \
    | tar -C "$out/src" -xf -
mvn -B -ntp -q -f "$out/src/pom.xml" org.codehaus.mojo:versions-maven-plugin:2.19.1:set \
    -DnewVersion="$version" -DgenerateBackupPoms=false
# Every native target's profile too: the target modules are in the reactor whatever the profiles' activation says
# (the check above made sure that they can be built).
mvn -B -ntp -f "$out/src/pom.xml" -Prelease,native,native-linuxarm64,native-mingwx64,native-klibs deploy \
    -pl "$published_modules" -am \
    -Dmaven.test.skip=true -DskipTests -Djcstress.skip=true \
    -Dgpg.keyname="$key" -Dforage.staging.dir="$out/staging"

# The Portal wants only the component files: the deployer's maven-metadata.xml (and its checksums) stay out.
find "$out/staging" -name 'maven-metadata.xml*' -delete
"$JAVA_BIN/jar" --create --no-manifest --file "$bundle" -C "$out/staging" dev
echo "=== Bundle: $bundle"
"$JAVA_BIN/jar" --list --file "$bundle"

echo "=== Checking the bundle against Central's requirements"
mvn -B -ntp -f "$root/release/check/pom.xml" test \
    -Dforage.bundle="$bundle" -Dforage.version="$version" -Dforage.signingKey="$out/signing-key.asc" \
    -Dforage.published="forage-parent,$published_ids"
