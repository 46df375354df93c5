-- wrk script part, loaded by paced.lua and mixed.lua: when WRK_HIST names a file, done() writes the run's latency
-- distribution to it, so that bench.sh can pool the windows in which it measures one backend. wrk's scripts can
-- read a distribution only through its percentiles (Debian's wrk 4.1 gives no access to the histogram's buckets),
-- so the file holds the latency at every 0.05 % from 0.05 to 100 % (wrk's microseconds), with the run's request
-- count on its first line: each of those 2,000 latencies stands for a 2,000th of the run's requests.
local histogram_file = os.getenv("WRK_HIST")

function done(summary, latency, requests)
    if not histogram_file or histogram_file == "" then
        return
    end
    local out = assert(io.open(histogram_file, "w"))
    out:write("requests ", summary.requests, "\n")
    for step = 1, 2000 do
        out:write(latency:percentile(step / 20), "\n")
    end
    out:close()
end
