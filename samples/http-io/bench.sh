#!/usr/bin/env bash
# Loads the same HTTP/1.1 service on several backends with wrk, over loopback, alternating the backends in one run:
#   forage-io         Forage IO workers: one pool for accept, IO and compute
#   netty-epoll       Netty's event loops on its native epoll transport (the anchor)
#   netty-nio         Netty's event loops on the JDK's NIO selector
#   ktor-cio          Ktor's CIO engine, default configuration
#   selector+default  a selector thread handing readiness to Dispatchers.Default (not in the default list)
# Each backend runs in a JVM of its own (its CPU time is the server's alone). Per round and backend: a warm-up,
# requests/s at saturation, p50/p99 latency at a fixed moderate rate, and the server's CPU per request at a fixed
# low rate. Then the medians over the rounds and the ratios to the best Netty transport. Bounded: every wrk run
# has a duration.
#
# Usage (from anywhere): samples/http-io/bench.sh [rounds]     (default 3 rounds; about 50 s per backend and round)
# Environment: MVN_FLAGS (e.g. -o), THREADS (Forage IO workers and Netty event loops; default: the machine's
# processors), ROUNDS_HASH (SHA-256 rounds per request, default 20), BACKENDS (space-separated, default
# "forage-io netty-epoll netty-nio ktor-cio"), WRITE_RESULTS=1 (also write docs/results/http-io.tsv, from which
# the docs' IO tables are generated, and draw docs/benchmarks-io.png from it: see docs/benchmarks.md, "Where the
# numbers come from").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS="${1:-3}"
HASH_ROUNDS="${ROUNDS_HASH:-20}"
THREADS="${THREADS:-$(nproc)}"
WARM_S=10; SAT_S=10; MOD_S=10; MIX_S=10; LOW_S=15
SAT_CONNS=32; MOD_CONNS=8; MOD_DELAY_MS=4; LOW_CONNS=2; LOW_DELAY_MS=10
MIX_HEAVY_EVERY=200; MIX_HEAVY_ROUNDS=50000
PORT=18080

# wrk: find it, else install Debian's package (as root), else stop with what to do.
if command -v wrk >/dev/null 2>&1; then
    echo "wrk: using $(command -v wrk) ($(wrk -v 2>&1 | head -1))"
elif [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "wrk: not found; installing the Debian package (apt-get install -y wrk)"
    apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
else
    echo "wrk not found and not installable here; install it (Debian/Ubuntu: apt-get install wrk) and run again" >&2
    exit 1
fi

echo "building samples/http-io"
mvn -B -ntp -q ${MVN_FLAGS:-} -pl samples/http-io -am package -DskipTests -Djcstress.skip=true -Ddokka.skip=true \
    -Dmaven.javadoc.skip=true
CP="samples/http-io/target/classes:$(cat samples/http-io/target/classpath.txt)"
LUA="samples/http-io/paced.lua"
MIX_LUA="samples/http-io/mixed.lua"
URL="http://127.0.0.1:$PORT/hash?rounds=$HASH_ROUNDS"
OUT="samples/http-io/target/bench"
mkdir -p "$OUT"

# Server CPU time in microseconds: the sum over its threads of the time on CPU (schedstat, nanoseconds).
cpu_us() {
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d", s / 1000 }'
}
# wrk's latency percentile ($2: 50% or 99%) in microseconds.
pct_us() {
    awk -v p="$2" '$1 == p { v = $2; u = v; gsub(/[0-9.]/, "", u); gsub(/[a-z]/, "", v);
        f = (u == "us") ? 1 : (u == "ms") ? 1000 : 1000000; printf "%.0f", v * f }' "$1"
}
rps() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }
total() { awk '/requests in/ { print $1 }' "$1"; }

run_backend() {
    local backend="$1" round="$2" log="$OUT/$1-$2" serve="$1" flags=()
    if [[ "$backend" == forage-io-takeover ]]; then # the same server with selector takeover on (docs/io.md section 6)
        serve=forage-io; flags=(-Dforage.io.takeoverMillis=1)
    fi
    java -Xms256m -Xmx256m "${flags[@]}" -cp "$CP" dev.forage.samples.httpio.MainKt "$serve" "$PORT" "$THREADS" \
        > "$log.server" 2>&1 &
    local pid=$!
    for _ in $(seq 100); do
        curl -s -o /dev/null "$URL" && break
        sleep 0.1
    done
    wrk -t2 -c"$SAT_CONNS" -d"${WARM_S}s" "$URL" > "$log.warm"
    wrk -t2 -c"$SAT_CONNS" -d"${SAT_S}s" "$URL" > "$log.sat"
    WRK_DELAY_MS=$MOD_DELAY_MS wrk -t1 -c"$MOD_CONNS" -d"${MOD_S}s" --latency -s "$LUA" "$URL" > "$log.mod"
    WRK_DELAY_MS=$MOD_DELAY_MS WRK_HEAVY_EVERY=$MIX_HEAVY_EVERY WRK_HEAVY_ROUNDS=$MIX_HEAVY_ROUNDS \
        wrk -t1 -c"$MOD_CONNS" -d"${MIX_S}s" --latency -s "$MIX_LUA" "$URL" > "$log.mix"
    sleep 1
    local before after
    before=$(cpu_us "$pid")
    WRK_DELAY_MS=$LOW_DELAY_MS wrk -t1 -c"$LOW_CONNS" -d"${LOW_S}s" -s "$LUA" "$URL" > "$log.low"
    after=$(cpu_us "$pid")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    local n; n=$(total "$log.low")
    printf "%s %s %s %s %s %s %s %s %s\n" "$round" "$backend" "$(rps "$log.sat")" "$(pct_us "$log.mod" 50%)" \
        "$(pct_us "$log.mod" 99%)" "$(rps "$log.mod")" "$(( (after - before) / n ))" "$(rps "$log.low")" \
        "$(pct_us "$log.mix" 99%)" | tee -a "$OUT/results.txt"
}

: > "$OUT/results.txt"
START_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
START_LOAD="$(uptime | sed 's/.*load average: //; s/,.*//')"
echo "start: $(uptime)"
echo "$(nproc) processors; Forage IO workers and Netty event loops: $THREADS; SHA-256 rounds per request: $HASH_ROUNDS; $ROUNDS rounds"
echo "saturation: $SAT_CONNS connections ${SAT_S}s; moderate: $MOD_CONNS connections, ${MOD_DELAY_MS} ms pause, ${MOD_S}s;" \
    "low: $LOW_CONNS connections, ${LOW_DELAY_MS} ms pause, ${LOW_S}s;" \
    "mixed: as moderate, every ${MIX_HEAVY_EVERY}th request $MIX_HEAVY_ROUNDS rounds"
COLUMNS_LINE="round backend sat_rps mod_p50_us mod_p99_us mod_rps low_cpu_us_per_req low_rps mix_p99_us"
echo "$COLUMNS_LINE"
read -r -a ORDER <<< "${BACKENDS:-forage-io forage-io-takeover netty-epoll netty-nio ktor-cio}"
for r in $(seq "$ROUNDS"); do
    list=("${ORDER[@]}")
    if (( r % 2 == 0 )); then # every other round in reverse order, so drift of the machine hits all backends alike
        list=(); for (( i = ${#ORDER[@]} - 1; i >= 0; i-- )); do list+=("${ORDER[i]}"); done
    fi
    for b in "${list[@]}"; do run_backend "$b" "$r"; done
done
END_UPTIME="$(uptime)"
echo "end: $END_UPTIME"

# The console summary: medians over the rounds per backend. The docs' tables (ratios to the best Netty transport)
# are generated from the results file by the benchmarks module, not from this summary.
echo
echo "Medians over $ROUNDS rounds (requests/s higher is better, the rest lower):"
awk '
function median(arr, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
    return (n % 2) ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2 }
{ k = $2; if (!(k in n)) order[++names] = k; n[k]++; sat[k, n[k]] = $3; p50[k, n[k]] = $4; p99[k, n[k]] = $5; cpu[k, n[k]] = $7
  mix[k, n[k]] = $9 }
END {
    printf "%-22s %12s %10s %10s %14s %12s\n", "backend", "sat req/s", "p50 us", "p99 us", "CPU us/req", "mix p99 us"
    for (i = 1; i <= names; i++) { k = order[i]; m = n[k]
        for (j = 1; j <= m; j++) { a[j] = sat[k, j] } S = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = p50[k, j] } P5 = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = p99[k, j] } P9 = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = cpu[k, j] } C = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = mix[k, j] } X = median(a, m)
        printf "%-22s %12d %10d %10d %14d %12d\n", k, S, P5, P9, C, X } }
' "$OUT/results.txt" | tee "$OUT/table.txt"

if [[ "${WRITE_RESULTS:-0}" == 1 ]]; then
    RESULTS_FILE="docs/results/http-io.tsv"
    mkdir -p "$(dirname "$RESULTS_FILE")"
    {
        echo "# Written by samples/http-io/bench.sh (WRITE_RESULTS=1); the docs' IO tables are generated from it."
        echo "command	WRITE_RESULTS=1 ${MVN_FLAGS:+MVN_FLAGS=$MVN_FLAGS }samples/http-io/bench.sh $ROUNDS"
        echo "date	$START_DATE"
        echo "jdk	$(java -version 2>&1 | head -1 | sed 's/^[a-z]* version //; s/"//g') ($(java -version 2>&1 | sed -n 2p))"
        echo "wrk	$(wrk -v 2>&1 | head -1 | awk '{ print $1, $2 }')"
        echo "machine	$(nproc) processors; $THREADS Forage IO workers and Netty event loops; load average $START_LOAD at the start, $(echo "$END_UPTIME" | sed 's/.*load average: //; s/,.*//') at the end"
        echo "load	$HASH_ROUNDS SHA-256 rounds per request; saturation: $SAT_CONNS connections for ${SAT_S} s after a ${WARM_S} s warm-up; moderate rate: $MOD_CONNS connections pausing $MOD_DELAY_MS ms, ${MOD_S} s; mixed: the moderate rate with every ${MIX_HEAVY_EVERY}th request of $MIX_HEAVY_ROUNDS rounds, ${MIX_S} s; low rate: $LOW_CONNS connections pausing $LOW_DELAY_MS ms, ${LOW_S} s"
        echo "columns	$COLUMNS_LINE"
        sed 's/ /\t/g' "$OUT/results.txt"
    } > "$RESULTS_FILE"
    echo "written: $RESULTS_FILE"
    # The results page's IO chart, drawn from the file just written by the benchmarks jar (JFreeChart, headless).
    mvn -B -ntp -q ${MVN_FLAGS:-} -pl benchmarks -am package -DskipTests -Djcstress.skip=true -Ddokka.skip=true \
        -Dmaven.javadoc.skip=true
    java -jar benchmarks/target/benchmarks.jar --charts-from docs --charts io
fi
