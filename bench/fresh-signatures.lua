-- wrk script: every request carries another signature (Signature-Input and Signature), read from the file named
-- by the first argument (one "input<TAB>signature" pair per line, made by bench/lib/signing.ts signMany). The
-- pairs are used in turn, wrapping after the last: with more pairs than the service remembers check results
-- for, every request costs the service a public-key check, as a fresh signature per request would.
local pairs_ = {}
local next_ = 1

function init(args)
  for line in io.lines(args[1]) do
    local tab = string.find(line, "\t", 1, true)
    pairs_[#pairs_ + 1] = { string.sub(line, 1, tab - 1), string.sub(line, tab + 1) }
  end
end

function request()
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  local pair = pairs_[next_]
  next_ = next_ % #pairs_ + 1
  headers["Signature-Input"] = pair[1]
  headers["Signature"] = pair[2]
  return wrk.format(nil, nil, headers)
end
