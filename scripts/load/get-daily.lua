-- scripts/load-test: GET /v1/daily-metrics for a week at a time across the uploaded range
-- (issue 37 §3 measures this route beside /v1/readiness).
local counter = 0
request = function()
  counter = counter + 1
  local first = 1577836800 + (100 + counter % 3500) * 86400
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
  return wrk.format("GET", "/v1/daily-metrics?from=" .. os.date("!%Y-%m-%d", first) .. "&to="
    .. os.date("!%Y-%m-%d", first + 6 * 86400))
end

-- Requests, errors and latency percentiles (run from the repository root).
dofile("scripts/load/report.lua")
