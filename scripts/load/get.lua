-- scripts/load-test: GET /v1/readiness for dates across the uploaded range.
local counter = 0
request = function()
  counter = counter + 1
  local date = os.date("!%Y-%m-%d", 1577836800 + (100 + counter % 3500) * 86400)
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
  return wrk.format("GET", "/v1/readiness?date=" .. date)
end

-- Requests, errors and latency percentiles (run from the repository root).
dofile("scripts/load/report.lua")
