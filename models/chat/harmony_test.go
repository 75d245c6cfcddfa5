package chat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestHarmonyTemplate renders the gpt-oss template (from the shared
// fixture) over the cases of testdata/harmony.json: its reasoning_effort,
// model_identity and builtin_tools variables, the developer role, the
// thinking field around tool calls, and its raise_exception checks, each
// expected byte for byte as Python's jinja2 renders it
// (testdata/harmony_render.py made the file).
func TestHarmonyTemplate(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixture.Path(t, "templates"), "openai-gpt-oss-120b.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f fixtureFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	data, err = os.ReadFile(filepath.Join("testdata", "harmony.json"))
	if err != nil {
		t.Fatal(err)
	}
	var local struct {
		TemplateID string        `json:"template_id"`
		Cases      []fixtureCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &local); err != nil {
		t.Fatal(err)
	}
	if local.TemplateID != f.ID || len(local.Cases) == 0 {
		t.Fatalf("testdata/harmony.json is for %q with %d cases", local.TemplateID, len(local.Cases))
	}
	f.Cases = local.Cases
	tpl, err := Compile(f.Template, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Cases {
		checkCase(t, tpl, &f, &f.Cases[i])
	}
}
