-- wrk script: every request comes "through a trusted proxy" from a different client address, set in
-- X-Forwarded-For (IPv4 addresses counted up from 11.0.0.0 + offset). Loopback only: the addresses are
-- header values, no packet leaves the machine.
-- Arguments (after --): offset (default 0). wrk calls request() once before it starts sending and drops that
-- request, so the addresses sent are numbers offset+1, offset+2, … (see floodAddress in bench/flood.ts).
local counter = 0

function init(args)
  counter = tonumber(args[1] or "0")
end

local function address(n)
  n = n + 0x0B000000
  return string.format("%d.%d.%d.%d", math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
end

function request()
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["X-Forwarded-For"] = address(counter)
  counter = counter + 1
  return wrk.format(nil, nil, headers)
end
