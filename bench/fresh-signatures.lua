-- wrk script: each request carries the next line of a file written by bench/lib/fresh-signatures.ts
-- (Signature-Input TAB Signature), so no signature is sent twice. Argument (after --): the file. Past the last
-- line it sends the last one again (the service then refuses it as replayed; the file is written with more lines
-- than a run sends).
local lines = {}
local next_line = 1
local last = 0

function init(args)
  for line in io.lines(args[1]) do lines[#lines + 1] = line end
  last = #lines
end

function request()
  local line = lines[next_line]
  if next_line < last then next_line = next_line + 1 end
  local tab = string.find(line, "\t", 1, true)
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["Signature-Input"] = string.sub(line, 1, tab - 1)
  headers["Signature"] = string.sub(line, tab + 1)
  return wrk.format(nil, nil, headers)
end
