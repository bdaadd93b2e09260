-- wrk script: an attacker sending Web Bot Auth signatures that cannot verify, all from one client address.
-- Every request carries `count` signatures (labels sig1…) naming the attacker's own key directory and RSA key, each
-- with fresh random bytes, so no two requests are alike and no cache of earlier answers can help the service.
-- Arguments (after --): count, bytes per signature (the RSA modulus size), keyid, Signature-Agent origin, authority.
local count, bytes, keyid, origin, authority
local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

function init(args)
  count = tonumber(args[1])
  bytes = tonumber(args[2])
  keyid = args[3]
  origin = args[4]
  authority = args[5]
  math.randomseed(os.time())
end

local function randomBase64(n)
  local chars = {}
  local length = 4 * math.ceil(n / 3)
  chars[1] = "A" -- a first byte below the modulus's: the service cannot refuse the value as too large before the work
  for i = 2, length do
    local k = math.random(1, 64)
    chars[i] = alphabet:sub(k, k)
  end
  return table.concat(chars)
end

function request()
  local now = os.time()
  local agents, inputs, signatures = {}, {}, {}
  for i = 1, count do
    local label = "sig" .. i
    agents[i] = label .. '="' .. origin .. '"'
    inputs[i] = label .. '=("@authority" "signature-agent";key="' .. label .. '");created=' .. now .. ';expires=' .. (now + 300)
      .. ';keyid="' .. keyid .. '";alg="rsa-pss-sha512";tag="web-bot-auth"'
    signatures[i] = label .. "=:" .. randomBase64(bytes) .. ":"
  end
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["Host"] = authority
  headers["Signature-Agent"] = table.concat(agents, ", ")
  headers["Signature-Input"] = table.concat(inputs, ", ")
  headers["Signature"] = table.concat(signatures, ", ")
  return wrk.format(nil, nil, headers)
end
