#!/usr/bin/env bash
# Compares mlx with llama.cpp at depth: prefill and decode after DEPTH tokens
# of context already in the KV cache (llama-bench -d, flash attention on),
# for each KV cache type, back to back, and prints a markdown table.
#
# Usage: docs/performance-depth.sh MODEL.gguf LLAMA_BIN_DIR [DEPTH]
#
# DEPTH defaults to 16384. Environment: MLX (the mlx binary, default mlx),
# THREADS (2), P (prompt tokens, 512), N (generated tokens, 128), REPS (1),
# KV_TYPES ("f16 q8_0 q4_0"), OUT (a directory for the JSON results). Each
# run computes the depth once, untimed. Needs jq. Run it on a quiet machine.
set -euo pipefail

if [ $# -lt 2 ]; then
	sed -n '/^# Usage/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
fi
model=$1
llama_bench=$2/llama-bench
depth=${3:-16384}
mlx=${MLX:-mlx}
threads=${THREADS:-2} p=${P:-512} n=${N:-128} reps=${REPS:-1}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
for tool in jq "$mlx" "$llama_bench"; do
	command -v "$tool" >/dev/null || { echo "performance-depth.sh: $tool not found" >&2; exit 1; }
done
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
load_start=$(loadavg)

# rate FILE TEST: avg_ts of the pp (TEST=p) or tg (TEST=n) row of a JSON list.
rate() {
	[ -s "$1" ] || return 0
	jq -r --arg t "$2" '.[] | select(if $t == "p" then .n_gen == 0 else .n_gen > 0 end) | .avg_ts' "$1" | head -n 1
}

echo "| KV cache | prefill t/s mlx / llama | ratio | decode t/s mlx / llama | ratio |"
echo "| --- | ---: | ---: | ---: | ---: |"
for kv in ${KV_TYPES:-f16 q8_0 q4_0}; do
	m=$out/mlx-$kv.json l=$out/llama-$kv.json
	"$mlx" bench "$model" -d "$depth" -p "$p" -n "$n" -r "$reps" -t "$threads" --kv-type "$kv" --read-mib 0 --json >"$m" ||
		echo "mlx failed for $kv" >&2
	"$llama_bench" -m "$model" -d "$depth" -p "$p" -n "$n" -r "$reps" -t "$threads" -fa 1 -ctk "$kv" -ctv "$kv" -o json >"$l" 2>/dev/null ||
		echo "llama-bench failed for $kv" >&2
	awk -v kv="$kv" -v pm="$(rate "$m" p)" -v pl="$(rate "$l" p)" -v tm="$(rate "$m" n)" -v tl="$(rate "$l" n)" 'BEGIN {
		r1 = (pl > 0) ? sprintf("%.2f×", pm / pl) : "–"; r2 = (tl > 0) ? sprintf("%.2f×", tm / tl) : "–"
		printf "| %s | %.1f / %.1f | %s | %.2f / %.2f | %s |\n", kv, pm, pl, r1, tm, tl, r2 }'
done
echo
echo "$(basename "$model"), -d $depth -p $p -n $n -r $reps, $threads threads; load average $load_start at the start, $(loadavg) at the end; JSON in $out"
