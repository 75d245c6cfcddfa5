package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestServeHostList(t *testing.T) {
	cases := []struct {
		host  string
		extra []string
		want  []string
	}{
		{"127.0.0.1", nil, []string{"127.0.0.1"}},
		{"localhost", nil, []string{"localhost"}},
		{"::1", []string{"box.lan"}, []string{"::1", "box.lan"}},
		{"0.0.0.0", nil, nil},
		{"192.168.1.5", []string{"box.lan"}, []string{"192.168.1.5", "box.lan"}},
	}
	for _, c := range cases {
		got := serveOptions{host: c.host, allowedHosts: c.extra}.hostList()
		if !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("host %s, --allowed-hosts %q: %q, want %q", c.host, c.extra, got, c.want)
		}
	}
}

func TestServeModelsDirMustBeAFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.gguf")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{file, filepath.Join(t.TempDir(), "absent")} {
		if err := checkModelsDir(dir); err == nil || !strings.Contains(err.Error(), "--models-dir") {
			t.Errorf("--models-dir %s: %v", dir, err)
		}
	}
	for _, dir := range []string{"", t.TempDir()} {
		if err := checkModelsDir(dir); err != nil {
			t.Errorf("--models-dir %q: %v", dir, err)
		}
	}
}
