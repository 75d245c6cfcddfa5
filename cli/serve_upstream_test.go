package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// upstreamSet parses args as mlx serve's upstream flags.
func upstreamSet(t *testing.T, args ...string) (*upstreamFlags, *pflag.FlagSet) {
	t.Helper()
	var u upstreamFlags
	f := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	u.register(f)
	if err := f.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &u, f
}

func TestUpstreamFlags(t *testing.T) {
	t.Setenv("MLX_UPSTREAM", "")
	t.Setenv("UP_TEST_KEY", "s3")
	cfg := filepath.Join(t.TempDir(), "upstreams.json")
	os.WriteFile(cfg, []byte(`{"upstreams": [{"name": "vllm", "url": "http://10.0.0.5:8000/v1", "key_env": "UP_TEST_KEY"}]}`), 0o600)
	u, f := upstreamSet(t, "--upstream", "ls=http://127.0.0.1:8081", "--upstream-config", cfg)
	ups, err := u.clients(f)
	if err != nil || len(ups) != 2 || ups[0].Name() != "ls" || ups[1].Name() != "vllm" || ups[1].URL() != "http://10.0.0.5:8000" {
		t.Fatalf("%v %v", ups, err)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--upstream", "nourl"}, "give NAME=URL"},
		{[]string{"--upstream", "a=http://h", "--upstream", "a=http://g"}, "given twice"},
		{[]string{"--upstream", "a=ftp://h"}, "must be http(s)"},
		{[]string{"--upstream", "a=http://h", "--upstream-key", "a=UP_TEST_UNSET"}, "UP_TEST_UNSET is not set"},
		{[]string{"--upstream", "a=http://h", "--upstream-key", "b=UP_TEST_KEY"}, "no --upstream is named b"},
		{[]string{"--upstream-config", filepath.Join(t.TempDir(), "absent.json")}, "no such file"},
	} {
		u, f := upstreamSet(t, tc.args...)
		if _, err := u.clients(f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
	bad := filepath.Join(t.TempDir(), "key.json")
	os.WriteFile(bad, []byte(`{"upstreams": [{"name": "a", "url": "http://h", "key": "s3"}]}`), 0o600)
	u, f = upstreamSet(t, "--upstream-config", bad)
	if _, err := u.clients(f); err == nil || !strings.Contains(err.Error(), "keys come from the environment") {
		t.Errorf("a key in the file: %v", err)
	}
	t.Setenv("MLX_UPSTREAM", "x=http://h1, y=http://h2")
	u, f = upstreamSet(t)
	if ups, err := u.clients(f); err != nil || len(ups) != 2 || ups[1].Name() != "y" {
		t.Errorf("MLX_UPSTREAM: %v %v", ups, err)
	}
}
