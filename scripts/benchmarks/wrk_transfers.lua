-- wrk script for scripts/bench_http: each connection creates a transfer (POST
-- /api/v1/transfers, seller's token, a fresh Idempotency-Key); a later request on its
-- thread has the buyer confirm it (POST /transfers/<id>/confirm, buyer's token; PRODUCT.md
-- 8.2) and the next approves it (POST /transfers/<id>/approve, EDA's token).
-- Settings come from the environment: BENCH_SELLER, BENCH_EDA, BENCH_BODY, and
-- BENCH_BUYER (unset for an app without the buyer's step: created goes to approval).
local seller = "Bearer " .. os.getenv("BENCH_SELLER")
local eda = "Bearer " .. os.getenv("BENCH_EDA")
local buyer = os.getenv("BENCH_BUYER")
if buyer then buyer = "Bearer " .. buyer end
local body = os.getenv("BENCH_BODY")
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("tid", counter)
  table.insert(threads, thread)
end

local created, confirmed = {}, {}
sent, bad, approved = 0, 0, 0  -- globals: done() reads them with thread:get

function request()
  local id = table.remove(confirmed)
  if id then
    return wrk.format("POST", "/api/v1/transfers/" .. id .. "/approve",
      {["Authorization"] = eda, ["Content-Type"] = "application/json"}, "{}")
  end
  id = table.remove(created)
  if id then
    return wrk.format("POST", "/api/v1/transfers/" .. id .. "/confirm",
      {["Authorization"] = buyer, ["Content-Type"] = "application/json"}, "{}")
  end
  sent = sent + 1
  return wrk.format("POST", "/api/v1/transfers",
    {["Authorization"] = seller, ["Content-Type"] = "application/json",
     ["Idempotency-Key"] = "bench-" .. tid .. "-" .. sent}, body)
end

function response(status, headers, response_body)
  if status == 201 then
    local id = response_body:match('"id"%s*:%s*"([^"]+)"')
    if not id then bad = bad + 1
    elseif buyer then table.insert(created, id)
    else table.insert(confirmed, id) end
  elseif status == 200 then
    local id = response_body:match('"id"%s*:%s*"([^"]+)"')
    if response_body:match('"status"%s*:%s*"approved"') then approved = approved + 1
    elseif id and response_body:match('"status"%s*:%s*"pending_approval"') then
      table.insert(confirmed, id)
    else bad = bad + 1 end
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
