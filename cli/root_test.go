package cli

import (
	"bytes"
	"strings"
	"testing"
)

// run executes the root command with args and returns stdout.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := NewRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&bytes.Buffer{})
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestVersion(t *testing.T) {
	out, err := run(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, "mlx dev (commit none") {
		t.Fatalf("version output %q", out)
	}
}

func TestUnknownCommand(t *testing.T) {
	if _, err := run(t, "no-such-command"); err == nil {
		t.Fatal("unknown command accepted")
	}
}
