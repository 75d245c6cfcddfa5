package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestSentenceTransformersPooling reads 1_Pooling/config.json beside a
// config.json, and refuses what it cannot pool.
func TestSentenceTransformersPooling(t *testing.T) {
	tests := []struct {
		name, pooling, want string
		err                 error
	}{
		{"absent", "", "", nil},
		{"mean", `{"word_embedding_dimension": 64, "pooling_mode_mean_tokens": true}`, PoolMean, nil},
		{"cls", `{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false}`, PoolCLS, nil},
		{"last", `{"pooling_mode_lasttoken": true}`, PoolLast, nil},
		{"max", `{"pooling_mode_max_tokens": true}`, "", ErrUnsupported},
		{"bad json", `{"pooling_mode_cls_token": 1`, "", ErrInvalid},
	}
	cfg, err := os.ReadFile(filepath.Join(fixture.Path(t, "models", "llama-tiny"), "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeText(t, filepath.Join(dir, "config.json"), string(cfg))
			if tt.pooling != "" {
				writeText(t, filepath.Join(dir, "1_Pooling", "config.json"), tt.pooling)
			}
			m, err := FromHFDir(dir)
			if !errors.Is(err, tt.err) {
				t.Fatalf("got %v, want %v", err, tt.err)
			}
			if err == nil && m.Pooling != tt.want {
				t.Errorf("pooling %q, want %q", m.Pooling, tt.want)
			}
		})
	}
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
