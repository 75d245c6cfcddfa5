package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mlxrun/mlx/runtime"
)

// benchExtra are the keys of mlx bench --json beyond llama-bench's: the
// memory of the run on every row, the bandwidth on the generation row.
type benchExtra struct {
	FileBytes int64  `json:"file_bytes,omitempty"`     // the model's weight files on disk
	KVBytes   int64  `json:"kv_bytes,omitempty"`       // the KV cache
	KVType    string `json:"kv_type,omitempty"`        // its element type
	KVToken   int64  `json:"kv_token_bytes,omitempty"` // bytes of one position over all layers
	PeakRSS   int64  `json:"peak_rss_bytes,omitempty"` // peak resident memory (Linux), 0 when unknown
	LoadMs    int64  `json:"load_ms"`                  // time to load the model
	// WeightBytes is what one decode step reads; WeightBps that times the
	// tokens per second, and ReadBps the streaming-read bandwidth measured
	// with the same threads.
	WeightBytes int64   `json:"weight_bytes_per_token,omitempty"`
	WeightBps   float64 `json:"weight_read_bps,omitempty"`
	ReadBps     float64 `json:"mem_read_bps,omitempty"`
	// StartupMs are the start-up times to the first token of mlx bench
	// --startup, StartupMedianMs their median.
	StartupMs       []float64 `json:"startup_ms,omitempty"`
	StartupMedianMs float64   `json:"startup_median_ms,omitempty"`
}

// addExtra fills in the memory of the run, read before the bandwidth test
// (which takes o.readMiB of its own), then that test for generation rows.
func addExtra(ctx context.Context, e *runtime.Engine, ref string, o benchOptions, rows []benchRow) error {
	info := e.Info()
	x := benchExtra{FileBytes: weightFileBytes(ref), KVBytes: info.KVBytes, KVType: info.KVType.String(), KVToken: info.KVPerToken, PeakRSS: peakRSSBytes(), LoadMs: info.LoadTime.Milliseconds()}
	var bps float64
	if o.readMiB > 0 && o.gen > 0 {
		var err error
		if bps, err = runtime.ReadBandwidth(ctx, o.threads, o.readMiB<<20); err != nil {
			return err
		}
	}
	for i := range rows {
		rows[i].benchExtra = x
		if rows[i].Gen > 0 && bps > 0 {
			rows[i].WeightBytes = e.DecodeWeightBytes()
			rows[i].WeightBps = rows[i].AvgTs * float64(rows[i].WeightBytes)
			rows[i].ReadBps = bps
		}
	}
	return nil
}

// writeExtra ends the text report: the peak memory against the file and
// the KV cache, then decode's weight reads against the bandwidth.
func writeExtra(w io.Writer, rows []benchRow) {
	if len(rows) == 0 {
		return
	}
	x := rows[0].benchExtra
	rss := "n/a"
	if x.PeakRSS > 0 {
		rss = fmt.Sprintf("%s (file %s + KV cache = %.2fx)", sizeLabel(x.PeakRSS), sizeLabel(x.FileBytes),
			float64(x.PeakRSS)/float64(x.FileBytes+x.KVBytes))
	}
	fmt.Fprintf(w, "peak RSS: %s\n", rss)
	for _, r := range rows {
		if r.ReadBps > 0 {
			fmt.Fprintf(w, "decode: %s of weights per token, %.2f GB/s read at %.2f t/s; streaming read with %d threads: %.2f GB/s (%.0f%%)\n",
				sizeLabel(r.WeightBytes), r.WeightBps/1e9, r.AvgTs, r.Threads, r.ReadBps/1e9, 100*r.WeightBps/r.ReadBps)
		}
	}
}

// weightFileBytes returns the size of a model file, or of the weight files
// (.safetensors, .gguf) of a model directory; 0 when it cannot tell.
func weightFileBytes(ref string) int64 {
	st, err := os.Stat(ref)
	if err != nil {
		return 0
	}
	if !st.IsDir() {
		return st.Size()
	}
	var n int64
	entries, _ := os.ReadDir(ref)
	for _, d := range entries {
		if ext := filepath.Ext(d.Name()); ext != ".safetensors" && ext != ".gguf" {
			continue
		}
		if fi, err := os.Stat(filepath.Join(ref, d.Name())); err == nil && fi.Mode().IsRegular() { // hub snapshots hold links
			n += fi.Size()
		}
	}
	return n
}

// peakRSSBytes returns the peak resident memory from /proc/self/status
// (VmHWM), 0 where that file does not exist.
func peakRSSBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
