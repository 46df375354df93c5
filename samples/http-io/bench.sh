#!/usr/bin/env bash
# Loads the same HTTP/1.1 service on several backends with wrk, over loopback, alternating the backends in one run:
#   forage-io         Forage IO workers: one pool for accept, IO and compute
#   netty-epoll       Netty's event loops on its native epoll transport (the anchor)
#   netty-nio         Netty's event loops on the JDK's NIO selector
#   ktor-cio          Ktor's CIO engine, default configuration
#   selector+default  a selector thread handing readiness to Dispatchers.Default (not in the default list)
# Each backend runs in a JVM of its own (its CPU time is the server's alone), all of a round's at once, each idle
# while another is loaded. Per round and backend: a warm-up, requests/s at saturation, p50/p99 latency at a fixed
# moderate rate, p99 with long requests mixed in, and the server's CPU per request at a fixed low rate, each phase
# measured in short windows interleaved across the backends. Then the medians over the rounds; every window's value
# is kept too (target/bench/windows.txt, and the results file), for the docs' comparison of each window with the
# same window of each Netty transport. Bounded: every wrk run has a duration.
#
# Usage (from anywhere): samples/http-io/bench.sh [rounds]     (default 3 rounds; about 60 s per backend and round)
# Environment: MVN_FLAGS (e.g. -o), THREADS (Forage IO workers and Netty event loops; default: the machine's
# processors), ROUNDS_HASH (SHA-256 rounds per request, default 20), BACKENDS (space-separated, default
# "forage-io forage-io-takeover netty-epoll netty-nio ktor-cio"; forage-io-base is forage-io on the dispatcher-jvm
# jar BASE_JAR, for a change against the build before), WRITE_RESULTS=1 (also write
# docs/results/http-io.tsv, from which the docs' IO tables are generated, and draw docs/benchmarks-io.png from it:
# see docs/benchmarks.md, "Where the numbers come from").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS="${1:-3}"
HASH_ROUNDS="${ROUNDS_HASH:-20}"
THREADS="${THREADS:-$(nproc)}"
WARM_S=10; SAT_BURSTS=5; SAT_BURST_S=2; WINDOW_S=2; MOD_WINDOWS=5; MIX_WINDOWS=5; LOW_WINDOWS=5; LOW_WINDOW_S=3
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
ENGINE_JAR="$(tr ':' '\n' <<< "$CP" | grep '/dispatcher-jvm/target/dispatcher-jvm-[^/]*\.jar$')" # forage-io-base swaps it
LUA="samples/http-io/paced.lua"
MIX_LUA="samples/http-io/mixed.lua"
OUT="samples/http-io/target/bench"
rm -rf "$OUT"; mkdir -p "$OUT" # every file in it is this run's

# The servers' threads' time on CPU so far: one line "pid tid nanoseconds" per thread of each pid given (schedstat's
# first field, exact to the nanosecond; the process's own totals in /proc/<pid>/stat count 10 ms ticks).
cpu_snapshot() {
    local pid f ns
    for pid in "$@"; do
        [[ -d /proc/$pid ]] || { echo "server process $pid is gone (its output is in $OUT)" >&2; return 1; }
        for f in /proc/"$pid"/task/*/schedstat; do
            { read -r ns _ < "$f"; } 2>/dev/null || continue # the thread ended between the glob and the read
            f=${f%/schedstat}
            echo "$pid ${f##*/} $ns"
        done
    done
}
# The CPU time, in microseconds, each server used between a first snapshot (file $1) and the last of later ones (file
# $2), threads that ended meanwhile included: each thread counts from its first reading (zero for a thread started
# meanwhile) to its last. The snapshots come a second apart, so a thread that ends is read at most a second before:
# Forage ends only threads that were idle for a second or more (a monitor after its linger, a retired worker or
# stand-in), whose last second used next to nothing, where a sum over the threads alive at the end drops all the CPU
# they ever used. Prints "pid microseconds" per server.
cpu_used_us() {
    awk 'FNR == NR { first[$1, $2] = $3; pids[$1]; next }
         { last[$1, $2] = $3; pids[$1] }
         END { for (k in last) { split(k, p, SUBSEP); used[p[1]] += last[k] - ((k in first) ? first[k] : 0) }
               for (pid in pids) printf "%s %d\n", pid, used[pid] / 1000 }' "$1" "$2"
}
rps() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }
# The mean of a metric ($1: rps) over the equal-length windows $2<k>, k from 0 to $3 - 1.
mean_of() {
    local k
    for (( k = 0; k < $3; k++ )); do "$1" "$2$k"; echo; done | awk '{ s += $1; c++ } END { printf "%.0f", s / c }'
}
# The latency percentile $1 (50, 99), in microseconds, of the windows whose distributions (histogram.lua: a first
# line "requests N", then the latency at every 0.05 %) are the files after it: each line stands for N / 2,000
# requests, and the percentile is the smallest latency with that share of all the windows' requests at or below it.
pooled_pct() {
    local p="$1"; shift
    awk 'FNR == 1 { w = $2 / 2000; next } { print $1, w }' "$@" | sort -g -k1,1 \
        | awk -v p="$p" -v total="$(awk 'FNR == 1 { t += $2 } END { print t }' "$@")" \
            '{ cum += $2; if (cum >= p / 100 * total - 1e-9) { printf "%.0f", $1; exit } }'
}
total() { awk '/requests in/ { print $1 }' "$1"; }

# Starts one backend's server on port $2 in a JVM of its own (its CPU time is the server's alone); prints its pid.
start_server() {
    local backend="$1" port="$2" log="$3" serve="$1" flags=() cp="$CP"
    if [[ "$backend" == forage-io-takeover ]]; then # the same server with selector takeover on (docs/io.md section 6)
        serve=forage-io; flags=(-Dforage.io.takeoverMillis=1)
    elif [[ "$backend" == forage-io-base ]]; then # the same server on another build of the engine (BASE_JAR)
        [[ -f "${BASE_JAR:-}" ]] || { echo "forage-io-base needs BASE_JAR, a dispatcher-jvm jar" >&2; exit 1; }
        serve=forage-io; cp="${CP//$ENGINE_JAR/$BASE_JAR}"
    fi
    java -Xms256m -Xmx256m "${flags[@]}" -cp "$cp" dev.forage.samples.httpio.MainKt "$serve" "$port" "$THREADS" \
        > "$log.server" 2>&1 &
    echo $!
}
url_of() { echo "http://127.0.0.1:$1/hash?rounds=$HASH_ROUNDS"; }
# The windows of a phase at the moderate rate, called by run_round, whose round, n, backends and ports it reads:
# $1 the phase (mod, mix), $2 how many windows, $3 wrk's script, then environment settings for it. Window k starts
# with backend k + round - 1 (mod n).
paced_windows() {
    local phase="$1" count="$2" script="$3" k j i; shift 3
    for (( k = 0; k < count; k++ )); do
        for (( j = 0; j < n; j++ )); do
            i=$(( (j + k + round - 1) % n ))
            env "$@" WRK_HIST="$OUT/${backends[i]}-$round.$phase$k.hist" WRK_DELAY_MS=$MOD_DELAY_MS \
                wrk -t1 -c"$MOD_CONNS" -d"${WINDOW_S}s" -s "$script" "$(url_of "${ports[i]}")" \
                > "$OUT/${backends[i]}-$round.$phase$k"
        done
    done
}

# One round: every backend's server runs from the start to the end of the round, each on a port of its own, idle
# while another is loaded. Saturation is measured in short bursts interleaved across the backends, so that a
# change of the host's placement of the two virtual CPUs during the round (it halves or doubles the cost of
# moving a cache line between them, and requests/s at saturation follows it) falls on every backend alike; the
# other phases run in windows interleaved the same way.
run_round() {
    local round="$1"; shift
    local backends=("$@") n=$# i j k
    local pids=() ports=()
    for (( i = 0; i < n; i++ )); do
        ports[i]=$((PORT + i))
        if curl -s -o /dev/null "$(url_of "${ports[i]}")"; then
            echo "port ${ports[i]} already answers HTTP: another server (an earlier run's?) would be measured" >&2
            exit 1
        fi
        pids[i]=$(start_server "${backends[i]}" "${ports[i]}" "$OUT/${backends[i]}-$round")
        SERVERS+=("${pids[i]}")
    done
    for (( i = 0; i < n; i++ )); do
        for _ in $(seq 100); do
            curl -s -o /dev/null "$(url_of "${ports[i]}")" && break
            sleep 0.1
        done
        if ! kill -0 "${pids[i]}" 2>/dev/null || ! curl -s -o /dev/null "$(url_of "${ports[i]}")"; then
            echo "${backends[i]} did not start on port ${ports[i]}; its output:" >&2
            cat "$OUT/${backends[i]}-$round.server" >&2
            exit 1
        fi
    done
    for (( i = 0; i < n; i++ )); do
        wrk -t2 -c"$SAT_CONNS" -d"${WARM_S}s" "$(url_of "${ports[i]}")" > "$OUT/${backends[i]}-$round.warm"
    done
    # One unmeasured burst of each backend first: the bursts that follow the other backends' warm-ups ran up to
    # half as fast as the later ones, for every backend, and the very first of them fell on one backend per round
    # (the run of 2026-12-01 03:27 UTC: 35,642 and 40,619 requests/s against 71,986 to 83,463 later).
    for (( i = 0; i < n; i++ )); do
        wrk -t2 -c"$SAT_CONNS" -d"${SAT_BURST_S}s" "$(url_of "${ports[i]}")" > "$OUT/${backends[i]}-$round.settle"
    done
    for (( k = 0; k < SAT_BURSTS; k++ )); do # burst k starts with backend k mod n: no backend is always first
        for (( j = 0; j < n; j++ )); do
            i=$(( (j + k) % n ))
            wrk -t2 -c"$SAT_CONNS" -d"${SAT_BURST_S}s" "$(url_of "${ports[i]}")" \
                > "$OUT/${backends[i]}-$round.sat$k"
        done
    done
    # The other phases in windows, interleaved across the backends as the saturation bursts are: a change of
    # placement during the round falls on every backend alike (measured backend after backend, 10 s each, the
    # moderate rate's p50 of one build ranged from 79 to 109 us across the rounds of one run). Window k starts with
    # backend k + r - 1 (mod n) in round r. Each window opens its own connections; latency is pooled over a
    # backend's windows (histogram.lua), CPU and requests summed over them.
    local w
    paced_windows mod "$MOD_WINDOWS" "$LUA"
    paced_windows mix "$MIX_WINDOWS" "$MIX_LUA" WRK_HEAVY_EVERY=$MIX_HEAVY_EVERY WRK_HEAVY_ROUNDS=$MIX_HEAVY_ROUNDS
    sleep 1
    # The low rate: every server's threads read before, every second during (cpu_used_us) and after each window.
    local self_us=() others_us=() windows=() used t load
    for (( i = 0; i < n; i++ )); do self_us[i]=0; others_us[i]=0; windows[i]=""; done
    for (( k = 0; k < LOW_WINDOWS; k++ )); do
        for (( j = 0; j < n; j++ )); do
            i=$(( (j + k + round - 1) % n ))
            w="$OUT/${backends[i]}-$round.low$k"
            cpu_snapshot "${pids[@]}" > "$w.cpu-first"
            : > "$w.cpu-later"
            WRK_DELAY_MS=$LOW_DELAY_MS wrk -t1 -c"$LOW_CONNS" -d"${LOW_WINDOW_S}s" -s "$LUA" \
                "$(url_of "${ports[i]}")" > "$w" &
            load=$!
            for (( t = 1; t < LOW_WINDOW_S; t++ )); do
                sleep 1
                cpu_snapshot "${pids[@]}" >> "$w.cpu-later"
            done
            wait "$load"
            cpu_snapshot "${pids[@]}" >> "$w.cpu-later"
            used=$(cpu_used_us "$w.cpu-first" "$w.cpu-later")
            t=$(awk -v p="${pids[i]}" '$1 == p { print $2 }' <<< "$used")
            self_us[i]=$(( self_us[i] + t ))
            awk -v t="$t" -v n="$(total "$w")" 'BEGIN { printf "%.1f\n", t / n }' > "$w.cpu_us_per_req"
            windows[i]+=" $(< "$w.cpu_us_per_req")"
            t=$(awk -v p="${pids[i]}" '$1 != p { s += $2 } END { print s + 0 }' <<< "$used")
            others_us[i]=$(( others_us[i] + t ))
        done
    done
    for (( i = 0; i < n; i++ )); do
        local log="$OUT/${backends[i]}-$round" low_n mod_hists=() mix_hists=()
        for (( k = 0; k < MOD_WINDOWS; k++ )); do mod_hists+=("$log.mod$k.hist"); done
        for (( k = 0; k < MIX_WINDOWS; k++ )); do mix_hists+=("$log.mix$k.hist"); done
        low_n=$(for (( k = 0; k < LOW_WINDOWS; k++ )); do total "$log.low$k"; done | awk '{ s += $1 } END { print s }')
        printf "%s %s %s %s %s %s %s %s %s\n" "$round" "${backends[i]}" "$(mean_of rps "$log.sat" "$SAT_BURSTS")" \
            "$(pooled_pct 50 "${mod_hists[@]}")" "$(pooled_pct 99 "${mod_hists[@]}")" \
            "$(mean_of rps "$log.mod" "$MOD_WINDOWS")" "$(( self_us[i] / low_n ))" \
            "$(mean_of rps "$log.low" "$LOW_WINDOWS")" "$(pooled_pct 99 "${mix_hists[@]}")" | tee -a "$OUT/results.txt"
        # Window by window, for the comparison of windows run back to back (IoRecord's paired ratios): saturation's
        # bursts, the moderate and mixed windows' percentiles, the low rate's CPU per request.
        {
            for (( k = 0; k < SAT_BURSTS; k++ )); do echo "$round ${backends[i]} sat_rps $k $(rps "$log.sat$k")"; done
            for (( k = 0; k < MOD_WINDOWS; k++ )); do
                echo "$round ${backends[i]} mod_p50_us $k $(pooled_pct 50 "$log.mod$k.hist")"
                echo "$round ${backends[i]} mod_p99_us $k $(pooled_pct 99 "$log.mod$k.hist")"
            done
            for (( k = 0; k < MIX_WINDOWS; k++ )); do
                echo "$round ${backends[i]} mix_p99_us $k $(pooled_pct 99 "$log.mix$k.hist")"
            done
            for (( k = 0; k < LOW_WINDOWS; k++ )); do
                echo "$round ${backends[i]} low_cpu_us_per_req $k $(cat "$log.low$k.cpu_us_per_req")"
            done
        } >> "$OUT/windows.txt"
        # The idle servers' CPU while this one was measured at the low rate: they must not disturb it.
        echo "  (the other servers used $(( others_us[i] / 1000 )) ms of CPU during its" \
            "$(( LOW_WINDOWS * LOW_WINDOW_S )) s at the low rate; its windows' CPU per request, in us:${windows[i]})"
    done
    stop_servers
}
# The servers of the round in progress; stopped at the round's end, and on any exit (an error, Ctrl-C).
SERVERS=()
stop_servers() {
    local pid
    for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; done
    # Not our children (each was started in a command substitution): wait for them to be gone, so that the next
    # round finds its ports free; a server that has not ended after 10 s is killed.
    for pid in "${SERVERS[@]}"; do
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    SERVERS=()
}
trap stop_servers EXIT

: > "$OUT/results.txt"; : > "$OUT/windows.txt"
START_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
START_LOAD="$(uptime | sed 's/.*load average: //; s/,.*//')"
echo "start: $(uptime)"
echo "$(nproc) processors; Forage IO workers and Netty event loops: $THREADS; SHA-256 rounds per request: $HASH_ROUNDS; $ROUNDS rounds"
echo "saturation: $SAT_CONNS connections, $SAT_BURSTS bursts of ${SAT_BURST_S}s interleaved across the backends after one unmeasured burst of each;" \
    "moderate: $MOD_CONNS connections, ${MOD_DELAY_MS} ms pause, $MOD_WINDOWS windows of ${WINDOW_S}s;" \
    "mixed: as moderate, every ${MIX_HEAVY_EVERY}th request $MIX_HEAVY_ROUNDS rounds, $MIX_WINDOWS windows of ${WINDOW_S}s;" \
    "low: $LOW_CONNS connections, ${LOW_DELAY_MS} ms pause, $LOW_WINDOWS windows of ${LOW_WINDOW_S}s; windows interleaved across the backends"
COLUMNS_LINE="round backend sat_rps mod_p50_us mod_p99_us mod_rps low_cpu_us_per_req low_rps mix_p99_us"
echo "$COLUMNS_LINE"
read -r -a ORDER <<< "${BACKENDS:-forage-io forage-io-takeover netty-epoll netty-nio ktor-cio}"
for r in $(seq "$ROUNDS"); do
    list=("${ORDER[@]}")
    if (( r % 2 == 0 )); then # every other round in reverse order, so drift of the machine hits all backends alike
        list=(); for (( i = ${#ORDER[@]} - 1; i >= 0; i-- )); do list+=("${ORDER[i]}"); done
    fi
    run_round "$r" "${list[@]}"
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
        echo "load	$HASH_ROUNDS SHA-256 rounds per request; saturation: $SAT_CONNS connections, $SAT_BURSTS bursts of ${SAT_BURST_S} s per backend interleaved across the backends, after a ${WARM_S} s warm-up and an unmeasured ${SAT_BURST_S} s burst of each; moderate rate: $MOD_CONNS connections pausing $MOD_DELAY_MS ms, $MOD_WINDOWS windows of ${WINDOW_S} s; mixed: the moderate rate with every ${MIX_HEAVY_EVERY}th request of $MIX_HEAVY_ROUNDS rounds, $MIX_WINDOWS windows of ${WINDOW_S} s; low rate: $LOW_CONNS connections pausing $LOW_DELAY_MS ms, $LOW_WINDOWS windows of ${LOW_WINDOW_S} s; the windows of each phase interleaved across the backends"
        echo "columns	$COLUMNS_LINE"
        sed 's/ /\t/g' "$OUT/results.txt"
        sed 's/^/window /; s/ /\t/g' "$OUT/windows.txt"
    } > "$RESULTS_FILE"
    echo "written: $RESULTS_FILE"
    # The results page's IO chart, drawn from the file just written by the benchmarks jar (JFreeChart, headless).
    mvn -B -ntp -q ${MVN_FLAGS:-} -pl benchmarks -am package -DskipTests -Djcstress.skip=true -Ddokka.skip=true \
        -Dmaven.javadoc.skip=true
    java -jar benchmarks/target/benchmarks.jar --charts-from docs --charts io
fi
