#!/usr/bin/env bash
# Compares the embedding throughput of mlx with llama-server's on the same
# GGUF file: N inputs of P random tokens in one request (mlx bench --embed,
# which times Engine.Embed as /v1/embeddings runs it, against a POST to
# llama-server --embedding's /v1/embeddings with the same token counts).
# The two alternate, REPS times, after one warm-up each, so that both see
# the same load. Prints a markdown row: embeddings per second of both
# (means) and their ratio.
#
# Usage: docs/embed-bench.sh MODEL.gguf LLAMA_BIN_DIR [N [P]]
#
# N defaults to 16 and P to 128. Environment: MLX (the mlx binary, default
# mlx), THREADS (2), REPS (3), POOLING (last), BATCH (512: the tokens of one
# forward pass on both sides, llama-server's -ub), VOCAB (31000: the requests
# to llama-server use token ids 1000 to VOCAB-1; set it to at most the
# model's vocabulary size, e.g. 30522 for BERT). Needs curl and jq. Run it
# on a quiet machine and note the load average.
set -euo pipefail

if [ $# -lt 2 ]; then
	sed -n '/^# Usage/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
fi
model=$1
server=$2/llama-server
n=${3:-16}
p=${4:-128}
mlx=${MLX:-mlx}
threads=${THREADS:-2}
reps=${REPS:-3}
pooling=${POOLING:-last}
batch=${BATCH:-512}
vocab=${VOCAB:-31000}
for tool in jq curl "$mlx" "$server"; do
	command -v "$tool" >/dev/null || { echo "embed-bench: $tool not found" >&2; exit 1; }
done

work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
"$server" -m "$model" --embedding --pooling "$pooling" --host 127.0.0.1 --port "$port" -t "$threads" \
	-np "$n" -c $((n * p)) -b $((n * p)) -ub "$batch" --no-webui >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 600); do
	curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
	sleep 0.2
done
# body R writes a request of N inputs of P token ids, other ones for every
# R: llama-server keeps a slot's tokens and would compute a repeated input
# again only from its last token. (mlx bench draws random tokens; the
# speed does not depend on which.)
body() {
	jq -nc --argjson n "$n" --argjson p "$p" --argjson r "$1" --argjson v "$((vocab - 1000))" \
		'{input: [range($n) as $i | [range($p) as $k | (($r * 104723 + $i * 7919 + $k * 104729) % $v) + 1000]]}' >"$work/body.json"
}
post() {
	curl -sf -o /dev/null -w '%{time_total}' -H 'Content-Type: application/json' \
		--data @"$work/body.json" "http://127.0.0.1:$port/v1/embeddings"
}
body 0
post >/dev/null
mlx_rates=() llama_rates=()
for r in $(seq "$reps"); do
	mlx_rates+=("$("$mlx" bench "$model" --embed "$n" -p "$p" -r 1 -t "$threads" -b "$batch" --json | jq '.[0].avg_embd_s')")
	body "$r"
	t=$(post)
	llama_rates+=("$(awk -v n="$n" -v t="$t" 'BEGIN {print n / t}')")
done
mean() { printf '%s\n' "$@" | awk '{s += $1} END {printf "%.2f", s / NR}'; }
mlx_rate=$(mean "${mlx_rates[@]}")
llama_rate=$(mean "${llama_rates[@]}")
echo "embed-bench: mlx ${mlx_rates[*]}; llama-server ${llama_rates[*]} embeddings/s" >&2
printf '| %s | %d × %d | %.2f / %.2f | %.2f× |\n' "$(basename "$model" .gguf)" "$n" "$p" "$mlx_rate" "$llama_rate" \
	"$(echo "$mlx_rate $llama_rate" | awk '{print $1 / $2}')"
