package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/runtime"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1048576", 1 << 20, true},
		{"512MiB", 512 << 20, true},
		{"2G", 2 << 30, true},
		{"1.5GB", 1_500_000_000, true},
		{" 64 KiB ", 64 << 10, true},
		{"", 0, false},
		{"-1G", 0, false},
		{"lots", 0, false},
		{"9999999TB", 0, false},
	}
	for _, tt := range tests {
		got, err := parseBytes(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("parseBytes(%q) = %d, %v", tt.in, got, err)
		}
	}
}

// TestBatchFlags checks the defaults, the environment and bad values of
// the flags that size the engine.
func TestBatchFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    runtime.Options
		errWord string
	}{
		{"defaults", nil, nil, runtime.Options{Parallel: defaultParallel, Queue: runtime.DefaultQueue, Batch: runtime.DefaultBatch}, ""},
		{"flags", []string{"--parallel", "8", "--max-queue", "2", "--batch-tokens", "64", "--kv-cache-mem", "1MiB"}, nil,
			runtime.Options{Parallel: 8, Queue: 2, Batch: 64, KVMem: 1 << 20}, ""},
		{"environment", []string{"--parallel", "3"}, map[string]string{"MLX_PARALLEL": "9", "MLX_MAX_QUEUE": "5", "MLX_KV_CACHE_MEM": "2KiB"},
			runtime.Options{Parallel: 3, Queue: 5, Batch: runtime.DefaultBatch, KVMem: 2 << 10}, ""},
		{"zero parallel", []string{"--parallel", "0"}, nil, runtime.Options{}, "--parallel"},
		{"bad memory", []string{"--kv-cache-mem", "big"}, nil, runtime.Options{}, "--kv-cache-mem"},
		{"bad environment", nil, map[string]string{"MLX_MAX_QUEUE": "many"}, runtime.Options{}, "MLX_MAX_QUEUE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			var b batchFlags
			f := pflag.NewFlagSet("serve", pflag.ContinueOnError)
			b.register(f)
			if err := f.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			var got runtime.Options
			err := b.fromEnv(f)
			if err == nil {
				err = b.apply(&got)
			}
			if tt.errWord != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errWord) {
					t.Errorf("error %v, want one naming %s", err, tt.errWord)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("options %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}
