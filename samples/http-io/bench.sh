#!/usr/bin/env bash
# Loads the same HTTP/1.1 service on three backends with wrk, over loopback, alternating the backends in one run:
#   forage-io         Forage IO workers: one pool for accept, IO and compute
#   selector+default  a selector thread handing readiness to Dispatchers.Default (the conventional shape)
#   ktor-cio          Ktor's CIO engine, the handler's CPU work on Dispatchers.Default
# Each backend runs in a JVM of its own (its CPU time is the server's alone). Per round and backend: a warm-up,
# requests/s at saturation, p50/p99 latency at a fixed moderate rate, and the server's CPU per request at a fixed
# low rate. Then the medians over the rounds and the ratios. Bounded: every wrk run has a duration.
#
# Usage (from anywhere): samples/http-io/bench.sh [rounds]        (default 3 rounds; about 2 minutes per round)
# Environment: MVN_FLAGS (e.g. -o), THREADS (Forage IO workers; default: the machine's processors), ROUNDS_HASH
# (SHA-256 rounds per request, default 20).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS="${1:-3}"
HASH_ROUNDS="${ROUNDS_HASH:-20}"
THREADS="${THREADS:-$(nproc)}"
WARM_S=10; SAT_S=10; MOD_S=10; LOW_S=15
SAT_CONNS=32; MOD_CONNS=8; MOD_DELAY_MS=4; LOW_CONNS=2; LOW_DELAY_MS=10
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
    local backend="$1" round="$2" log="$OUT/$1-$2"
    java -Xms256m -Xmx256m -cp "$CP" dev.forage.samples.httpio.MainKt "$backend" "$PORT" "$THREADS" > "$log.server" 2>&1 &
    local pid=$!
    for _ in $(seq 100); do
        curl -s -o /dev/null "$URL" && break
        sleep 0.1
    done
    wrk -t2 -c"$SAT_CONNS" -d"${WARM_S}s" "$URL" > "$log.warm"
    wrk -t2 -c"$SAT_CONNS" -d"${SAT_S}s" "$URL" > "$log.sat"
    WRK_DELAY_MS=$MOD_DELAY_MS wrk -t1 -c"$MOD_CONNS" -d"${MOD_S}s" --latency -s "$LUA" "$URL" > "$log.mod"
    sleep 1
    local before after
    before=$(cpu_us "$pid")
    WRK_DELAY_MS=$LOW_DELAY_MS wrk -t1 -c"$LOW_CONNS" -d"${LOW_S}s" -s "$LUA" "$URL" > "$log.low"
    after=$(cpu_us "$pid")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    local n; n=$(total "$log.low")
    printf "%s %s %s %s %s %s %s %s\n" "$round" "$backend" "$(rps "$log.sat")" "$(pct_us "$log.mod" 50%)" \
        "$(pct_us "$log.mod" 99%)" "$(rps "$log.mod")" "$(( (after - before) / n ))" "$(rps "$log.low")" \
        | tee -a "$OUT/results.txt"
}

: > "$OUT/results.txt"
echo "start: $(uptime)"
echo "$(nproc) processors; Forage IO workers: $THREADS; SHA-256 rounds per request: $HASH_ROUNDS; $ROUNDS rounds"
echo "saturation: $SAT_CONNS connections ${SAT_S}s; moderate: $MOD_CONNS connections, ${MOD_DELAY_MS} ms pause, ${MOD_S}s;" \
    "low: $LOW_CONNS connections, ${LOW_DELAY_MS} ms pause, ${LOW_S}s"
echo "round backend sat_rps mod_p50_us mod_p99_us mod_rps low_cpu_us_per_req low_rps"
ORDER=(forage-io selector+default ktor-cio)
for r in $(seq "$ROUNDS"); do
    if (( r % 2 == 0 )); then list=("${ORDER[2]}" "${ORDER[1]}" "${ORDER[0]}"); else list=("${ORDER[@]}"); fi
    for b in "${list[@]}"; do run_backend "$b" "$r"; done
done

echo "end: $(uptime)"
echo
echo "Medians over $ROUNDS rounds (ratio: forage-io / other; requests/s higher is better, the rest lower):"
awk '
function median(arr, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
    return (n % 2) ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2 }
{ k = $2; n[k]++; sat[k, n[k]] = $3; p50[k, n[k]] = $4; p99[k, n[k]] = $5; cpu[k, n[k]] = $7; lr[k, n[k]] = $8; mr[k, n[k]] = $6 }
END {
    split("forage-io selector+default ktor-cio", names, " ")
    for (i = 1; i <= 3; i++) { k = names[i]; m = n[k]
        for (j = 1; j <= m; j++) { a[j] = sat[k, j] } S[k] = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = p50[k, j] } P5[k] = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = p99[k, j] } P9[k] = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = cpu[k, j] } C[k] = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = mr[k, j] } MR[k] = median(a, m)
        for (j = 1; j <= m; j++) { a[j] = lr[k, j] } LR[k] = median(a, m) }
    printf "| backend | requests/s at saturation | p50 at ~%d req/s (µs) | p99 (µs) | CPU per request at ~%d req/s (µs) |\n", MR["forage-io"], LR["forage-io"]
    printf "| --- | --- | --- | --- | --- |\n"
    for (i = 1; i <= 3; i++) { k = names[i]; printf "| %s | %d | %d | %d | %d |\n", k, S[k], P5[k], P9[k], C[k] }
    f = "forage-io"
    for (i = 2; i <= 3; i++) { k = names[i]
        printf "| forage-io / %s | %.2f | %.2f | %.2f | %.2f |\n", k, S[f] / S[k], P5[f] / P5[k], P9[f] / P9[k], C[f] / C[k] } }
' "$OUT/results.txt" | tee "$OUT/table.md"
