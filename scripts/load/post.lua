-- scripts/load-test: POST 30-day batches that tile 3660 days (122 windows), in UTC, cycling: after 122
-- requests per thread every day has been sent at least once; the store must then hold
-- exactly 3660 rows for the user.
local counter = 0
local base = 1577836800 -- 2020-01-01T00:00:00Z

function day(n)
  local start = base + n * 86400
  local date = os.date("!%Y-%m-%d", start)
  return string.format(
    '{"local_date":"%s","timezone":"UTC","utc_day_start":"%s","utc_day_end":"%s","steps_normalized":%d,"steps_raw_sum":null,"steps_sources_json":null,"active_energy_kcal":512.5,"sleep_hours":7.5,"resting_hr_bpm":55,"hrv_ms":48.2,"normalization_version":"norm_v1","created_at":"2024-06-01T00:00:00Z","user_id":null}',
    date, os.date("!%Y-%m-%dT%H:%M:%SZ", start), os.date("!%Y-%m-%dT%H:%M:%SZ", start + 86400), 5000 + n)
end

request = function()
  local window = (counter % 122) * 30
  counter = counter + 1
  local items = {}
  for i = 0, 29 do items[#items + 1] = day(window + i) end
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
  wrk.body = "[" .. table.concat(items, ",") .. "]"
  return wrk.format("POST", "/v1/daily-metrics")
end

-- Requests, errors and latency percentiles (run from the repository root).
dofile("scripts/load/report.lua")
