-- wrk script for scripts/bench_http's baseline: the same POST shape (JSON body, bearer
-- token) against a bare Flask endpoint that answers 201 with a small JSON body.
local body = os.getenv("BENCH_BODY")
local threads = {}
bad = 0  -- a global: done() reads it with thread:get

function setup(thread)
  table.insert(threads, thread)
end

function request()
  return wrk.format("POST", "/ping",
    {["Authorization"] = "Bearer " .. string.rep("x", 43),
     ["Content-Type"] = "application/json"}, body)
end

function response(status, headers, response_body)
  if status ~= 201 then bad = bad + 1 end
end

function done(summary, latency, requests)
  local wrong = 0
  for _, t in ipairs(threads) do wrong = wrong + t:get("bad") end
  local e = summary.errors
  io.write(string.format(
    'WRK {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"bad_status": %d, "socket_errors": %d, "approved": 0}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    wrong, e.connect + e.read + e.write + e.timeout))
end
