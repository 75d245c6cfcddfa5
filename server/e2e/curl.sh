#!/usr/bin/env bash
# curl checks of llama-server's endpoints on mlx serve: /tokenize,
# /detokenize, /apply-template, fill-in-the-middle (/infill and suffix on
# /v1/completions) and /v1/responses/input_tokens, with a fixture model
# that has fill-in-the-middle tokens (qwen3-tiny) and one that has none
# (llama-tiny).
#
#   bash server/e2e/curl.sh            (MLX_TESTDATA: the shared fixtures)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
testdata="${MLX_TESTDATA:-$root/../shared/testdata}"
fim="$testdata/models/qwen3-tiny"
nofim="$testdata/models/llama-tiny"
if [ ! -e "$fim" ] || [ ! -e "$nofim" ]; then
	if [ "${MLX_REQUIRE_TESTDATA:-}" = 1 ]; then
		echo "curl: fixture models are missing under $testdata" >&2
		exit 1
	fi
	echo "curl: skipped, no fixture models (set MLX_TESTDATA)"
	exit 0
fi

work="$(mktemp -d)"
export MLX_HOME="$work/home" HF_HUB_OFFLINE=1 HF_HUB_CACHE="$work/hf"
bin="$work/mlx"
port=""
cleanup() {
	if [ -n "$port" ]; then
		"$bin" stop "$port" --timeout 20s >/dev/null 2>&1 || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

(cd "$root" && go build -o "$bin" .)
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$bin" serve "$fim" "$nofim" --detach --port "$port" --ctx 1024 --threads 2 --ready-timeout 2m >/dev/null
url="http://127.0.0.1:$port"

# post PATH BODY [STATUS]: the answer's body, failing unless its status is
# STATUS (200).
post() {
	local out code
	out="$work/out"
	code=$(curl -sS -o "$out" -w '%{http_code}' -H 'Content-Type: application/json' "$url$1" -d "$2")
	if [ "$code" != "${3:-200}" ]; then
		echo "curl: POST $1 $2: status $code, want ${3:-200}: $(cat "$out")" >&2
		exit 1
	fi
	cat "$out"
}
# check NAME PYTHON-EXPRESSION: the expression over the JSON value j (the
# standard input) must hold; w is the JSON value of $W.
check() {
	if ! python3 -c "import json,os,sys; j=json.load(sys.stdin); w=json.loads(os.environ.get('W','null')); sys.exit(0 if ($2) else 1)"; then
		echo "curl: $1 failed" >&2
		exit 1
	fi
	echo "curl: $1 ok"
}

text='def f(x):\n    return x <|im_start|> é'
export W="\"$text\""
ids=$(post /tokenize "{\"model\":\"qwen3-tiny\",\"content\":\"$text\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tokens"])')
post /tokenize "{\"model\":\"qwen3-tiny\",\"content\":\"$text\",\"with_pieces\":true}" |
	check "tokenize with_pieces" "[p['id'] for p in j['tokens']] == $ids and ''.join(p['piece'] for p in j['tokens']) == w"
post /tokenize "{\"model\":\"qwen3-tiny\",\"content\":\"$text\",\"parse_special\":false}" |
	check "tokenize parse_special false" "len(j['tokens']) > len($ids)"
post /detokenize "{\"model\":\"qwen3-tiny\",\"tokens\":$ids}" |
	check "detokenize" "j['content'] == w"
post /detokenize '{"model":"qwen3-tiny","tokens":[-1]}' 400 | check "detokenize of a bad id" "j['error']['param'] == 'tokens'"
post /tokenize '{"content":"hi"}' 400 | check "tokenize without model, two loaded" "j['error']['param'] == 'model'"
post /apply-template '{"model":"qwen3-tiny","messages":[{"role":"user","content":"Hi"}]}' |
	check "apply-template" "j['prompt'].endswith('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n')"

infill='{"model":"qwen3-tiny","input_prefix":"def add(a, b):\n","input_suffix":"\nprint(add(1, 2))\n","input_extra":[{"filename":"util.py","text":"import os\n"}],"n_predict":6,"temperature":0'
res=$(post /infill "$infill}")
check "infill" "j['stop'] is True and isinstance(j['content'], str) and j['tokens_evaluated'] > 0 and j['stop_type'] in ('eos', 'limit')" <<<"$res"
content=$(python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["content"]))' <<<"$res")
curl -sS -N -H 'Content-Type: application/json' "$url/infill" -d "$infill,\"stream\":true}" |
	python3 -c '
import json, sys
events = [json.loads(l[6:]) for l in sys.stdin if l.startswith("data: ")]
assert events and events[-1]["stop"] and not any(e["stop"] for e in events[:-1]), events
assert "".join(e["content"] for e in events) == json.loads(sys.argv[1]), events
' "$content" && echo "curl: infill stream ok"
post /infill '{"model":"qwen3-tiny","input_prefix":"x = ","input_suffix":"\n","n_predict":0}' |
	check "infill warm-up (n_predict 0)" "j['stop'] is True and j['content'] == '' and j['tokens_evaluated'] > 0"
post /v1/completions '{"model":"qwen3-tiny","prompt":"def add(a, b):\n","suffix":"\nprint(add(1, 2))\n","max_tokens":6,"temperature":0}' |
	check "completions with suffix" "j['usage']['prompt_tokens'] > 0 and j['choices'][0]['finish_reason'] in ('stop', 'length')"
post /api/generate '{"model":"qwen3-tiny","prompt":"def add(a, b):\n","suffix":"\nprint(add(1, 2))\n","stream":false,"options":{"num_predict":6,"temperature":0}}' |
	check "ollama generate with suffix" "j['done'] is True and j['prompt_eval_count'] > 0"
post /v1/completions '{"model":"llama-tiny","prompt":"a","suffix":"b"}' 400 |
	check "suffix on a model without FIM tokens" "'fill in the middle' in j['error']['message']"
post /infill '{"model":"llama-tiny","input_prefix":"a","input_suffix":"b"}' 400 |
	check "infill on a model without FIM tokens" "j['error']['param'] == 'input_suffix'"

post /v1/responses/input_tokens '{"model":"qwen3-tiny","instructions":"Be brief.","input":"Hi"}' |
	check "responses input_tokens" "j['object'] == 'response.input_tokens' and j['input_tokens'] > 0"
