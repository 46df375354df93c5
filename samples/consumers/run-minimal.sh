#!/usr/bin/env bash
# The README's minimal projects ("Get it"), built and run as a user builds them after the install command: each
# pom.xml exactly as the README shows it, the quick start's programs in its src/main, in a scratch folder outside
# this build (no parent POM, no reactor), with the user's commands (`mvn compile exec:java`). Checks what each
# program prints and, for Java, that the classpath holds Forage's two jars from the local repository and no Kotlin.
# Exits 1 at the first difference. Extra arguments go to every Maven run (e.g. -o).
#
#   samples/consumers/run-minimal.sh [maven args...]
set -euo pipefail

consumers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$consumers/../.." && pwd)"
work="$root/target/minimal-consumers"
mvn_args=(-B -ntp -q -Dstyle.color=never "$@")
version="$(sed -n 's|^    <version>\(.*\)</version>$|\1|p' "$root/pom.xml" | head -1)"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# copy NAME LANG SOURCE...: a fresh project from minimal-NAME/pom.xml with the sources in src/main/LANG; prints its folder.
copy() {
    local name=$1 lang=$2 dir="$work/$1"
    shift 2
    rm -rf "$dir"
    mkdir -p "$dir/src/main/$lang"
    cp "$consumers/minimal-$name/pom.xml" "$dir/"
    cp "$@" "$dir/src/main/$lang/"
    echo "$dir"
}

# run DIR MAVEN-ARGS...: Maven's output in DIR (its quiet mode leaves what the program prints), colour codes dropped.
run() {
    local dir=$1
    shift
    (cd "$dir" && mvn "${mvn_args[@]}" "$@") | sed 's/\x1b\[[0-9;]*m//g'
}

echo "--- minimal-java: mvn compile exec:java (Fib), then exec:java -Dexec.mainClass=Futures"
dir="$(copy java java "$consumers"/java-only/src/main/java/Fib.java "$consumers"/java-only/src/main/java/Futures.java)"
out="$(run "$dir" compile org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath \
    -Dmdep.outputFile=classpath.txt exec:java)" || fail "minimal-java did not build or Fib failed:"$'\n'"$out"
echo "$out"
[[ "$(head -1 <<<"$out")" == "832040 "* ]] || fail "Fib printed: $out"
jars="$(tr ':' '\n' <"$dir/classpath.txt" | sed 's|.*/||' | sort | tr '\n' ' ')"
[[ "$jars" == "dispatcher-jvm-$version.jar interop-java-$version.jar " ]] \
    || fail "the Java classpath should be Forage's two jars (no Kotlin, no other Forage module): $jars"
tr ':' '\n' <"$dir/classpath.txt" | grep -qv "/dev/forage/" && fail "a jar not from the local repository: $(cat "$dir/classpath.txt")"
out="$(run "$dir" exec:java -Dexec.mainClass=Futures)" || fail "Futures failed:"$'\n'"$out"
echo "$out"
[[ "$out" == "42 6" ]] || fail "Futures printed: $out"

echo "--- minimal-kotlin: mvn compile exec:java (MainKt)"
dir="$(copy kotlin kotlin "$consumers"/kotlin/src/main/kotlin/Main.kt)"
out="$(run "$dir" compile exec:java)" || fail "minimal-kotlin did not build or Main failed:"$'\n'"$out"
echo "$out"
[[ "$out" == $'385\n500500' ]] || fail "Main printed: $out"

echo "--- the minimal projects build and run"
