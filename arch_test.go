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

// TestDefaultBuildHasNoGPU checks that a build without the vulkan tag links
// no GPU code: neither the Vulkan driver and its kernels nor purego, which
// loads libvulkan; with the tag, the binary has them.
func TestDefaultBuildHasNoGPU(t *testing.T) {
	gpuCode := func(tags string) []string {
		out, err := exec.Command("go", "list", "-tags", tags, "-deps", ".").Output()
		if err != nil {
			t.Fatalf("go list -tags %q: %v", tags, err)
		}
		var found []string
		for _, pkg := range strings.Fields(string(out)) {
			if within(pkg, "runtime/gpu") || strings.HasPrefix(pkg, "github.com/ebitengine/purego") {
				found = append(found, pkg)
			}
		}
		return found
	}
	if found := gpuCode(""); len(found) > 0 {
		t.Errorf("the default build links %v", found)
	}
	if found := gpuCode("vulkan"); len(found) == 0 {
		t.Error("the build with -tags vulkan links no GPU code: the check above proves nothing")
	}
}
