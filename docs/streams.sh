#!/usr/bin/env bash
# Measures what continuous batching gives: one `mlx serve --parallel 8`,
# and `mlx bench serve` runs that alternate 1 stream (REQ1 requests) and 8
# streams (REQ8 requests), each run with prompts of its own (a new --seed:
# a repeated one would find its prompts in the prefix cache). Prints every
# pair's aggregate tokens/s and their ratio (target: 8 streams ≥ 3× one),
# then the mean, median and lowest ratio. With LLAMA_BIN_DIR, it then runs
# llama-server -np 8 and mlx at 8 streams back to back with the same tool
# (target: mlx ≥ 1.2× llama-server).
#
# Usage: docs/streams.sh MODEL.gguf [PAIRS]
#
# PAIRS defaults to 5. Environment: MLX (the mlx binary, default mlx),
# THREADS (2), TOKENS (128 per request), PROMPT (64 tokens), REQ1 (4),
# REQ8 (24), SEED (first seed, default 1000), PORT (8191), LLAMA_BIN_DIR.
# Run it on a quiet machine: the pairs are back to back, but each ratio is
# only as steady as the load.
set -euo pipefail

if [ $# -lt 1 ]; then
	sed -n '/^# Usage/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
fi
model=$1
pairs=${2:-5}
mlx=${MLX:-mlx}
threads=${THREADS:-2}
tokens=${TOKENS:-128}
prompt=${PROMPT:-64}
req1=${REQ1:-4}
req8=${REQ8:-24}
seed=${SEED:-1000}
port=${PORT:-8191}
url=http://127.0.0.1:$port

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

# rate URL CONCURRENCY REQUESTS SEED [ARGS...] prints the aggregate tokens/s
# of one load-tool run.
rate() {
	local u=$1 c=$2 n=$3 s=$4
	shift 4
	"$mlx" bench serve --url "$u" --concurrency "$c" --requests "$n" --max-tokens "$tokens" \
		--prompt-tokens "$prompt" --seed "$s" "$@" | awk '/^throughput/ { print $2 }'
}

# warm URL waits for the server to list its model and runs one request.
warm() {
	"$mlx" bench serve --url "$1" --concurrency 1 --requests 1 --max-tokens 1 --seed "$((seed - 1))" >/dev/null
}

"$mlx" serve "$model" --parallel 8 --threads "$threads" --port "$port" >/dev/null 2>&1 &
pids+=($!)
warm "$url"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
echo
echo "| pair | 1 stream tokens/s | 8 streams tokens/s | ratio |"
echo "|---:|---:|---:|---:|"
ratios=()
for i in $(seq "$pairs"); do
	s=$((seed + 2 * i))
	one=$(rate "$url" 1 "$req1" "$s")
	eight=$(rate "$url" 8 "$req8" "$((s + 1))")
	r=$(awk -v a="$one" -v b="$eight" 'BEGIN { printf "%.2f", b / a }')
	ratios+=("$r")
	echo "| $i | $one | $eight | ${r}× |"
done
echo
printf '%s\n' "${ratios[@]}" | sort -g | awk '
	{ v[NR] = $1; sum += $1 }
	END {
		med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "8 streams against 1 over %d pairs: mean %.2f×, median %.2f×, lowest %.2f×\n", NR, sum / NR, med, v[1]
	}'
kill "${pids[@]}" 2>/dev/null || true
wait 2>/dev/null || true
pids=()

if [ -n "${LLAMA_BIN_DIR:-}" ]; then
	lport=$((port + 1))
	"$LLAMA_BIN_DIR/llama-server" -m "$model" -t "$threads" -np 8 -c 8192 --port "$lport" >/dev/null 2>&1 &
	pids+=($!)
	warm "http://127.0.0.1:$lport"
	llama=$(rate "http://127.0.0.1:$lport" 8 "$req8" "$((seed + 500))")
	kill "${pids[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
	pids=()
	"$mlx" serve "$model" --parallel 8 --threads "$threads" --port "$port" >/dev/null 2>&1 &
	pids+=($!)
	warm "$url"
	ours=$(rate "$url" 8 "$req8" "$((seed + 501))")
	echo
	echo "8 streams, back to back: llama-server -np 8 $llama tokens/s, mlx $ours tokens/s:" \
		"$(awk -v a="$llama" -v b="$ours" 'BEGIN { printf "%.2f", b / a }')×"
fi
