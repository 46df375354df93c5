-- wrk script: each connection waits WRK_DELAY_MS between the answer to one request and the next request, which
-- fixes the request rate at about connections * 1000 / (WRK_DELAY_MS + latency) per second. wrk's own latency
-- figures count from each request's send, not from the pause.
local pause = tonumber(os.getenv("WRK_DELAY_MS") or "0")

function delay()
    return pause
end

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "") .. "histogram.lua")
