-- wrk script for scripts/bench_http: each connection creates a transfer (POST
-- /api/v1/transfers, seller's token, a fresh Idempotency-Key) and the next request on
-- its thread approves one created before (POST /transfers/<id>/approve, EDA's token).
-- Settings come from the environment: BENCH_SELLER, BENCH_EDA, BENCH_BODY.
local seller = "Bearer " .. os.getenv("BENCH_SELLER")
local eda = "Bearer " .. os.getenv("BENCH_EDA")
local body = os.getenv("BENCH_BODY")
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("tid", counter)
  table.insert(threads, thread)
end

local created = {}
sent, bad, approved = 0, 0, 0  -- globals: done() reads them with thread:get

function request()
  local id = table.remove(created)
  if id then
    return wrk.format("POST", "/api/v1/transfers/" .. id .. "/approve",
      {["Authorization"] = eda, ["Content-Type"] = "application/json"}, "{}")
  end
  sent = sent + 1
  return wrk.format("POST", "/api/v1/transfers",
    {["Authorization"] = seller, ["Content-Type"] = "application/json",
     ["Idempotency-Key"] = "bench-" .. tid .. "-" .. sent}, body)
end

function response(status, headers, response_body)
  if status == 201 then
    local id = response_body:match('"id"%s*:%s*"([^"]+)"')
    if id then table.insert(created, id) else bad = bad + 1 end
  elseif status == 200 then
    approved = approved + 1
  else
    bad = bad + 1
  end
end

function done(summary, latency, requests)
  local wrong, ok_approvals = 0, 0
  for _, t in ipairs(threads) do
    wrong = wrong + t:get("bad")
    ok_approvals = ok_approvals + t:get("approved")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"bad_status": %d, "socket_errors": %d, "approved": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    wrong, e.connect + e.read + e.write + e.timeout, ok_approvals))
end
