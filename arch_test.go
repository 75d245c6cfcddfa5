package main

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/mlxrun/mlx"

// forbidden lists, for each layer (a package path prefix), the layers it must
// not import. It is the dependency direction of ARCHITECTURE.md.
var forbidden = map[string][]string{
	"models":     {"runtime", "server", "tui", "cli", "store"},
	"models/hub": {"runtime", "server", "tui", "cli", "store"},
	"store":      {"runtime", "server", "tui", "cli", "models"},
	"runtime":    {"server", "tui", "cli", "store"},
	"tui":        {"server", "cli", "store"},
	"server":     {"tui", "cli"},
}

func within(pkg, layer string) bool {
	p := module + "/" + layer
	return pkg == p || strings.HasPrefix(pkg, p+"/")
}

// TestDependencyDirection checks every package's transitive imports with go
// list -deps against the allowed direction cli → tui/server → runtime → models.
func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, deps := fields[0], fields[1:]
		for layer, bad := range forbidden {
			if !within(pkg, layer) {
				continue
			}
			checked++
			for _, d := range deps {
				for _, b := range bad {
					if within(d, b) && !within(d, layer) {
						t.Errorf("%s imports %s: %s must not depend on %s", pkg, d, layer, b)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package checked")
	}
}
