#!/usr/bin/env bash
# End-to-end tests of mlx serve with the official OpenAI, Anthropic and Cohere Node
# SDKs, the Vercel AI SDK, LangChain's OpenAIEmbeddings and the Ollama client
# (ollama-js): installs them (npm ci), builds mlx, starts it in the background on a
# free loopback port with a fixture model, a second one allowed to pull from a fake
# hub (for Ollama's /api/pull) and a third that reranks with the Qwen3 GGUF fixture,
# runs the suite (node --test), checks mlx ps, and stops the servers with mlx stop.
#
#   bash server/e2e/run.sh            (MLX_TESTDATA: the shared fixtures)
#   MLX_E2E_MODEL_PATH=/path/to/model bash server/e2e/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
testdata="${MLX_TESTDATA:-$root/../shared/testdata}"
model_path="${MLX_E2E_MODEL_PATH:-$testdata/models/qwen3-tiny}"

if [ ! -e "$model_path" ]; then
	if [ "${MLX_REQUIRE_TESTDATA:-}" = 1 ]; then
		echo "e2e: fixture model $model_path is missing" >&2
		exit 1
	fi
	echo "e2e: skipped, no fixture model at $model_path (set MLX_TESTDATA)"
	exit 0
fi

work="$(mktemp -d)"
export MLX_HOME="$work/home"
# No network in tests: unknown models must be a quick 404, not a download.
export HF_HUB_OFFLINE=1 HF_HUB_CACHE="$work/hf"
bin="$work/mlx"
key="e2e-$RANDOM$RANDOM"
port=""
pull_port=""
rerank_port=""
hub_pid=""

cleanup() {
	for p in "$port" "$pull_port" "$rerank_port"; do
		if [ -n "$p" ]; then
			"$bin" stop "$p" --timeout 20s >/dev/null 2>&1 || true
		fi
	done
	if [ -n "$hub_pid" ]; then
		kill "$hub_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

echo "e2e: npm ci"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

echo "e2e: go build"
(cd "$root" && go build -o "$bin" .)

port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
echo "e2e: mlx serve on 127.0.0.1:$port with $model_path"
"$bin" serve "$model_path" --detach --port "$port" --api-key "$key" --ctx 1024 --threads 2 --sse-keepalive 2s --ready-timeout 2m

# Ollama's /api/pull: a second server, allowed to pull, downloads from the
# fake hub of the CI pull test (models/hub/hubtest) a GGUF fixture.
pull_gguf="$testdata/gguf/llama-tiny-Q8_0.gguf"
pull_env=()
if [ -e "$pull_gguf" ]; then
	(cd "$root" && go build -o "$work/hubtest-serve" ./models/hub/hubtest/cmd/hubtest-serve)
	mkdir -p "$work/hub/test/tiny-GGUF"
	ln -s "$pull_gguf" "$work/hub/test/tiny-GGUF/"
	"$work/hubtest-serve" "$work/hub" > "$work/hub.out" &
	hub_pid=$!
	for _ in $(seq 50); do grep -q '^HF_ENDPOINT=' "$work/hub.out" && break; sleep 0.1; done
	pull_port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
	HF_ENDPOINT="$(sed -n 's/^HF_ENDPOINT=//p' "$work/hub.out")" HF_HUB_OFFLINE= HF_HUB_CACHE="$work/pulled" HF_TOKEN= \
		"$bin" serve --allow-pull --detach --port "$pull_port" --threads 1 --ctx 256 --ready-timeout 2m >/dev/null
	pull_env=(MLX_E2E_PULL_URL="http://127.0.0.1:$pull_port" MLX_E2E_PULL_MODEL="test/tiny-GGUF:Q8_0")
fi

# Reranking (Cohere's SDK, /v1/rerank): a third server scores with the
# Qwen3 GGUF fixture's "yes" and "no" rows (--pooling rank).
rerank_gguf="$testdata/gguf/qwen3-tiny-F16.gguf"
rerank_env=()
if [ -e "$rerank_gguf" ]; then
	rerank_port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
	"$bin" serve "$rerank_gguf" --pooling rank --detach --port "$rerank_port" --api-key "$key" --ctx 512 --threads 1 --ready-timeout 2m >/dev/null
	rerank_env=(MLX_E2E_RERANK_URL="http://127.0.0.1:$rerank_port" MLX_E2E_RERANK_MODEL="$(basename "$rerank_gguf" .gguf)")
fi

status=0
env "${pull_env[@]}" "${rerank_env[@]}" MLX_E2E_URL="http://127.0.0.1:$port/v1" MLX_E2E_KEY="$key" MLX_E2E_MODEL="$(basename "$model_path" .gguf)" \
	node --test --test-concurrency=1 "$here"/test/*.test.mjs || status=$?

echo "e2e: mlx ps"
ps_out="$(MLX_API_KEY="$key" "$bin" ps)"
echo "$ps_out"
if ! grep -q "127.0.0.1:$port" <<<"$ps_out"; then
	echo "e2e: mlx ps does not list the server" >&2
	status=1
fi

echo "e2e: mlx stop"
"$bin" stop "$port" --timeout 20s
port=""
if [ "$status" != 0 ]; then
	echo "e2e: server log:" >&2
	tail -n 30 "$MLX_HOME/serve/"*.log >&2 || true
fi
exit "$status"
