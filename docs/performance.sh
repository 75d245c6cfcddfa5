#!/usr/bin/env bash
# Compares mlx with llama.cpp on the CPU, back to back, and prints a markdown
# table of the ratios against the performance targets:
#
#   decode (tg128)  ≥ 1.0× llama.cpp for Q8_0, Q4_0, Q4_K_M; ≥ 0.9× for F16 and BF16
#   prefill (pp512) ≥ 0.8× llama.cpp
#   MLX 4-bit       within 10% of llama.cpp's Q4_0 of the same shape (≥ 0.9×)
#   peak RSS        ≤ model file + KV cache + 10%
#   start-up        ≤ 1.5× llama.cpp's, to the first token of a one-token prompt
#
# Usage: docs/performance.sh BENCH_DIR LLAMA_BIN_DIR [SHAPE...]
#
# BENCH_DIR holds SHAPE-{F16,Q8_0,Q4_0,Q4_K_M,MXFP4_MOE}.gguf and the directories
# SHAPE-hf (BF16 safetensors, compared with SHAPE-F16.gguf) and SHAPE-mlx4
# (MLX 4-bit, compared with SHAPE-Q4_0.gguf); missing ones are skipped.
# SHAPE defaults to smollm2-135m qwen3-0.6b llama3.2-1b. LLAMA_BIN_DIR holds
# llama-bench. Environment: MLX (the mlx binary, default mlx), THREADS (2),
# REPS (3), STARTUP_RUNS (5; 0 skips the start-up test), OUT (a directory for the JSON results,
# default a new temporary one), TABLE_ONLY=1 (print the table of the results
# already in OUT without measuring). Needs jq. Run it on a quiet machine: every
# pair is measured back to back, but the ratios are only as steady as the
# load.
set -euo pipefail

if [ $# -lt 2 ]; then
	sed -n '/^# Usage/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
fi
bench_dir=$1
llama_bench=$2/llama-bench
shift 2
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(smollm2-135m qwen3-0.6b llama3.2-1b)
mlx=${MLX:-mlx}
threads=${THREADS:-2}
reps=${REPS:-3}
startup_runs=${STARTUP_RUNS:-5}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
for tool in jq "$mlx" "$llama_bench"; do
	command -v "$tool" >/dev/null || { echo "performance.sh: $tool not found" >&2; exit 1; }
done

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*average[s]*: //'; }
load_start=$(loadavg)

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# speed NAME MODEL REF: mlx bench of MODEL, then llama-bench of REF (a GGUF
# file), each to its JSON file; a failure leaves an error file instead.
speed() {
	local name=$1 model=$2 ref=$3
	log "$name: mlx bench"
	if ! "$mlx" bench "$model" -p 512 -n 128 -t "$threads" -r "$reps" --json >"$out/$name.mlx.json" 2>"$out/$name.mlx.err"; then
		log "$name: mlx bench failed: $(tail -n 1 "$out/$name.mlx.err")"
		rm -f "$out/$name.mlx.json"
		return
	fi
	if [ ! -s "$out/$(basename "$ref" .gguf).llama.json" ]; then
		log "$name: llama-bench"
		"$llama_bench" -m "$ref" -p 512 -n 128 -t "$threads" -r "$reps" -o json \
			>"$out/$(basename "$ref" .gguf).llama.json" 2>/dev/null || log "$name: llama-bench failed"
	fi
}

# wall_ms CMD...: the milliseconds CMD takes, its output discarded.
wall_ms() {
	local start=$(date +%s%N)
	"$@" </dev/null >/dev/null 2>&1 || return 1
	echo $((($(date +%s%N) - start) / 1000000))
}

# startup NAME MODEL: the median start-up of mlx (mlx bench --startup) and of
# llama.cpp (llama-bench loading MODEL and computing one token, no warm-up),
# after one untimed run of each to warm the page cache.
startup() {
	local name=$1 model=$2 ms=()
	[ "$startup_runs" -gt 0 ] || return 0
	log "$name: start-up"
	"$mlx" bench --startup "$startup_runs" -t "$threads" --json "$model" >"$out/$name.startup.json" 2>/dev/null ||
		{ rm -f "$out/$name.startup.json"; return; }
	wall_ms "$llama_bench" -m "$model" -p 1 -n 0 -r 1 --no-warmup -t "$threads" >/dev/null || return
	for _ in $(seq "$startup_runs"); do
		ms+=("$(wall_ms "$llama_bench" -m "$model" -p 1 -n 0 -r 1 --no-warmup -t "$threads")") || return
	done
	printf '%s\n' "${ms[@]}" | sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}' >"$out/$name.startup.llama"
}

rows=() # name, kind, reference GGUF name
for shape in "${shapes[@]}"; do
	for q in F16 Q8_0 Q4_0 Q4_K_M MXFP4_MOE; do
		f=$bench_dir/$shape-$q.gguf
		[ -f "$f" ] || continue
		[ -n "${TABLE_ONLY:-}" ] || { speed "$shape-$q" "$f" "$f" && startup "$shape-$q" "$f"; }
		rows+=("$shape-$q $q $shape-$q")
	done
	for d in hf:F16:BF16 mlx4:Q4_0:MLX4; do
		IFS=: read -r suffix ref kind <<<"$d"
		[ -d "$bench_dir/$shape-$suffix" ] && [ -f "$bench_dir/$shape-$ref.gguf" ] || continue
		[ -n "${TABLE_ONLY:-}" ] || speed "$shape-$suffix" "$bench_dir/$shape-$suffix" "$bench_dir/$shape-$ref.gguf"
		rows+=("$shape-$suffix $kind $shape-$ref")
	done
done

# field FILE TEST KEY: KEY of the pp (TEST=p) or tg (TEST=n) row of a JSON list.
field() {
	[ -s "$1" ] || return 0
	jq -r --arg t "$2" --arg k "$3" \
		'.[] | select(if $t == "p" then .n_gen == 0 else .n_gen > 0 end) | .[$k] // empty' "$1" | head -n 1
}

# ratio A B TARGET OP: "A/B ✅" or "A/B ❌" against TARGET (OP ge or le); "–" without numbers.
ratio() {
	awk -v a="$1" -v b="$2" -v t="$3" -v op="$4" 'BEGIN {
		if (a == "" || b == "" || b + 0 == 0) { print "–"; exit }
		r = a / b; ok = (op == "ge") ? r >= t : r <= t
		printf "%.2f× %s", r, ok ? "✅" : "❌" }'
}

echo
echo "mlx vs llama.cpp, $threads threads, -p 512 -n 128 -r $reps; load average $load_start at the start, $(loadavg) at the end; JSON in $out"
echo
echo "| model | prefill t/s mlx / llama | prefill (≥0.8×) | decode t/s mlx / llama | decode (target) | weight reads / bandwidth | peak RSS / file+KV (≤1.10×) | start-up ms mlx / llama (≤1.5×) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for row in "${rows[@]}"; do
	read -r name kind ref <<<"$row"
	m=$out/$name.mlx.json l=$out/$ref.llama.json
	if [ ! -s "$m" ]; then
		echo "| $name | mlx failed: $(tail -n 1 "$out/$name.mlx.err" | cut -c1-80) | | | | | | |"
		continue
	fi
	pp_m=$(field "$m" p avg_ts) pp_l=$(field "$l" p avg_ts)
	tg_m=$(field "$m" n avg_ts) tg_l=$(field "$l" n avg_ts)
	case $kind in F16 | BF16) t=0.9 ;; MLX4) t=0.9 ;; *) t=1.0 ;; esac
	wbps=$(field "$m" n weight_read_bps) rbps=$(field "$m" n mem_read_bps)
	bw=$(awk -v a="$wbps" -v b="$rbps" 'BEGIN { if (b > 0) printf "%.1f / %.1f GB/s (%.0f%%)", a/1e9, b/1e9, 100*a/b; else print "–" }')
	rss=$(field "$m" n peak_rss_bytes) file=$(field "$m" n file_bytes) kv=$(field "$m" n kv_bytes)
	mem=$(awk -v r="$rss" -v f="$file" -v k="$kv" 'BEGIN { if (r > 0) printf "%.0f / %.0f MiB", r/1048576, (f+k)/1048576; else print "–" }')
	st_m="" st_l=""
	if [ -s "$out/$name.startup.json" ] && [ -s "$out/$name.startup.llama" ]; then
		st_m=$(jq -r '.[0].startup_median_ms' "$out/$name.startup.json") st_l=$(cat "$out/$name.startup.llama")
	fi
	st="–"
	[ -z "$st_m" ] || st="$(printf '%.0f / %.0f' "$st_m" "$st_l") $(ratio "$st_m" "$st_l" 1.5 le)"
	printf '| %s | %.1f / %.1f | %s | %.2f / %.2f | %s (≥%s×) | %s | %s %s | %s |\n' "$name" "${pp_m:-0}" "${pp_l:-0}" \
		"$(ratio "$pp_m" "$pp_l" 0.8 ge)" "${tg_m:-0}" "${tg_l:-0}" "$(ratio "$tg_m" "$tg_l" "$t" ge)" "$t" "$bw" \
		"$mem" "$(ratio "$rss" "$(awk -v f="$file" -v k="$kv" 'BEGIN { print f + k }')" 1.1 le)" "$st"
done
