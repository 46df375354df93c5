#!/usr/bin/env bash
# The README's minimal projects ("Get it"), built and run as a user builds them after the install line for their
# language: each pom.xml exactly as the README shows it, the quick start's programs in its src/main, in a scratch
# folder outside this build (no parent POM, no reactor), with the user's commands (`mvn compile exec:java`).
#
# Each project resolves Forage from a local repository that holds only what its install line installs: the
# modules of that line's reactor (asked of Maven), copied from the local repository, which the full install has
# filled; every other group is linked to it. So a Java project that needed the multiplatform dispatcher or
# forage-context, or an install line whose reactor took in a JS, Wasm or native module, fails here. Checks what
# each program prints and, for Java, that the classpath is Forage's two jars and no Kotlin. Exits 1 at the first
# difference. Extra arguments go to every Maven run (e.g. -o); FORAGE_LOCAL_REPOSITORY names the local repository
# when it is not ~/.m2/repository.
#
#   samples/consumers/run-minimal.sh [maven args...]
set -euo pipefail

consumers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$consumers/../.." && pwd)"
work="$root/target/minimal-consumers"
local_repo="${FORAGE_LOCAL_REPOSITORY:-$HOME/.m2/repository}"
version="$(sed -n 's|^    <version>\(.*\)</version>$|\1|p' "$root/pom.xml" | head -1)"

# The README's install lines, as it shows them, each a whole line (the README's blocks are checked against them).
mapfile -t install_lines <<'LINES'
mvn -B -ntp install -DskipTests -pl forage-bom,dispatcher-jvm,interop-java -am
mvn -B -ntp install -DskipTests -pl forage-bom,dispatcher-jvm -am
LINES
java_line="${install_lines[0]}"
kotlin_line="${install_lines[1]}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# reactor LINE: the artifactIds of the modules that install line builds, one a line.
reactor() {
    local pl
    pl="$(sed -n 's/.* -pl \([^ ]*\) -am$/\1/p' <<<"$1")"
    [[ -n "$pl" ]] || fail "no -pl list in: $1"
    (cd "$root" && mvn -B -ntp -Dstyle.color=never "${@:2}" validate -pl "$pl" -am) \
        | sed -n 's/.*< dev\.forage:\([^ ]*\) >.*/\1/p'
}

# repository DIR LINE MAVEN-ARGS...: a local repository in DIR with what LINE installs of Forage and everything else
# linked to the full one.
repository() {
    local dir=$1 line=$2 modules entry m
    shift 2
    modules="$(reactor "$line" "$@")" || fail "Maven could not list the reactor of: $line"
    echo "$line builds: $(tr '\n' ' ' <<<"$modules")"
    grep -qx 'dispatcher-jvm' <<<"$modules" || fail "no dispatcher-jvm in the reactor of: $line"
    if grep -Ex 'dispatcher|dispatcher-.*|forage-context' <<<"$modules" | grep -vqx 'dispatcher-jvm'; then
        fail "$line builds modules a JVM project does not use: $(tr '\n' ' ' <<<"$modules")"
    fi
    rm -rf "$dir"
    mkdir -p "$dir/dev/forage"
    for entry in "$local_repo"/*; do [[ "${entry##*/}" == dev ]] || ln -s "$entry" "$dir/"; done
    for entry in "$local_repo"/dev/*; do [[ "${entry##*/}" == forage ]] || ln -s "$entry" "$dir/dev/"; done
    while read -r m; do
        [[ -d "$local_repo/dev/forage/$m/$version" ]] || fail "$m $version is not in $local_repo: install first"
        cp -R "$local_repo/dev/forage/$m" "$dir/dev/forage/"
    done <<<"$modules"
}

# project NAME LANG SOURCE...: a fresh project from minimal-NAME/pom.xml with the sources in src/main/LANG.
project() {
    local name=$1 lang=$2 dir="$work/$1"
    shift 2
    rm -rf "$dir"
    mkdir -p "$dir/src/main/$lang"
    cp "$consumers/minimal-$name/pom.xml" "$dir/"
    cp "$@" "$dir/src/main/$lang/"
}

# run NAME MAVEN-ARGS...: Maven in the project NAME on its repository; its quiet mode leaves what the program prints.
# No Kotlin compile daemon: kotlin-maven-plugin starts one by default, and it would outlive the check.
run() {
    local name=$1
    shift
    (cd "$work/$name" && mvn -B -ntp -q -Dstyle.color=never -Dkotlin.compiler.daemon=false \
        -Dmaven.repo.local="$work/repository-$name" "$@") \
        | sed 's/\x1b\[[0-9;]*m//g'
}

echo "--- minimal-java: mvn compile exec:java (Fib), then exec:java -Dexec.mainClass=Futures"
repository "$work/repository-java" "$java_line" "$@"
project java java "$consumers"/java-only/src/main/java/Fib.java "$consumers"/java-only/src/main/java/Futures.java
out="$(run java "$@" compile org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath \
    -Dmdep.outputFile=classpath.txt exec:java)" || fail "minimal-java did not build or Fib failed:"$'\n'"$out"
echo "$out"
[[ "$(head -1 <<<"$out")" == "832040 "* ]] || fail "Fib printed: $out"
jars="$(tr ':' '\n' <"$work/java/classpath.txt" | sed 's|.*/||' | sort | tr '\n' ' ')"
[[ "$jars" == "dispatcher-jvm-$version.jar interop-java-$version.jar " ]] \
    || fail "the Java classpath should be Forage's two jars (no Kotlin, no other Forage module): $jars"
out="$(run java "$@" exec:java -Dexec.mainClass=Futures)" || fail "Futures failed:"$'\n'"$out"
echo "$out"
[[ "$out" == "42 6" ]] || fail "Futures printed: $out"

echo "--- minimal-kotlin: mvn compile exec:java (MainKt)"
repository "$work/repository-kotlin" "$kotlin_line" "$@"
project kotlin kotlin "$consumers"/kotlin/src/main/kotlin/Main.kt
out="$(run kotlin "$@" compile exec:java)" || fail "minimal-kotlin did not build or Main failed:"$'\n'"$out"
echo "$out"
[[ "$out" == $'385\n500500' ]] || fail "Main printed: $out"

echo "--- the minimal projects build and run on what their install lines install"
