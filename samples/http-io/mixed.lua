-- wrk script: paced like paced.lua (WRK_DELAY_MS between an answer and the next request), and every
-- WRK_HEAVY_EVERY-th request of each wrk thread asks for WRK_HEAVY_ROUNDS hash rounds instead of the URL's: a few
-- long requests among short ones, so a worker (or an event loop) is busy for milliseconds while the connections it
-- owns get ready. wrk's latency percentiles then count the short requests that waited behind a long one.
local pause = tonumber(os.getenv("WRK_DELAY_MS") or "0")
local every = tonumber(os.getenv("WRK_HEAVY_EVERY") or "200")
local heavy = os.getenv("WRK_HEAVY_ROUNDS") or "5000"
local n = 0
local light, long

function init(args)
    light = wrk.format(nil, wrk.path)
    long = wrk.format(nil, (wrk.path:gsub("rounds=%d+", "rounds=" .. heavy)))
end

function request()
    n = n + 1
    if n % every == 0 then
        return long
    end
    return light
end

function delay()
    return pause
end

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "") .. "histogram.lua")
