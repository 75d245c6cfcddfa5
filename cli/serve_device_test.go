package cli

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/catalog"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/gpu/vulkan"
)

// TestServeLoaderSaysDevice checks that mlx serve logs which device
// computes part of a model it loads, and what stays on the CPU.
func TestServeLoaderSaysDevice(t *testing.T) {
	if d, err := vulkan.Open(); err != nil {
		if os.Getenv("MLX_REQUIRE_VULKAN") != "" {
			t.Fatalf("MLX_REQUIRE_VULKAN is set: %v", err)
		}
		t.Skipf("no Vulkan device: %v", err)
	} else {
		d.Close()
	}
	path := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	var logged bytes.Buffer
	l := newServeLoader(runtime.Options{Ctx: 128, Threads: 1, Device: runtime.DeviceVulkan}, nil, catalog.Options{Named: []string{path}})
	l.log = slog.New(slog.NewTextHandler(&logged, nil))
	id, err := l.Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := l.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if s := logged.String(); !strings.Contains(s, "device=\"Vulkan ") || !strings.Contains(s, "on the CPU") {
		t.Errorf("log %q does not say the device and what stays on the CPU", s)
	}
}
