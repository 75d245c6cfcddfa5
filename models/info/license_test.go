package info

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFrontMatterLicense(t *testing.T) {
	cases := []struct{ name, card, want string }{
		{"plain", "---\nlicense: apache-2.0\nlanguage: en\n---\n", "apache-2.0"},
		{"quoted", "---\nlibrary_name: transformers\nlicense: \"mit\"\n---\n", "mit"},
		{"list", "---\nlicense:\n  - mit\n  - 'cc-by-4.0'\ntags: [x]\n---\n", "mit, cc-by-4.0"},
		{"other with a name", "---\nlicense: other\nlicense_name: llama3\nlicense_link: LICENSE\n---\n", "other (llama3)"},
		{"nested key", "---\nmodel-index:\n  license: wrong\n---\n", ""},
		{"after the front matter", "---\ntags: [x]\n---\nlicense: mit\n", ""},
		{"no front matter", "# Model\nlicense: mit\n", ""},
		{"empty", "", ""},
	}
	for _, c := range cases {
		if got := frontMatterLicense(c.card); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFolderLicense(t *testing.T) {
	long := strings.Repeat("é", maxLicenseLine)
	cases := []struct {
		name         string
		files        map[string]string
		want, origin string
	}{
		{"card first", map[string]string{"README.md": "---\nlicense: mit\n---\n", "LICENSE": "Apache License\n"}, "mit", "README.md"},
		{"card without license", map[string]string{"README.md": "# x\n", "LICENSE.txt": "\n\nApache License\n"}, "Apache License", "LICENSE.txt"},
		{"long first line", map[string]string{"COPYING": long}, long[:maxLicenseLine] + "…", "COPYING"},
		{"none", map[string]string{"notes.txt": "mit"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range c.files {
				writeFile(t, filepath.Join(dir, name), text)
			}
			if got, origin := folderLicense(dir); got != c.want || origin != c.origin {
				t.Errorf("got %q from %q, want %q from %q", got, origin, c.want, c.origin)
			}
		})
	}
}

func TestListFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "config.json"), "{}")
	writeFile(t, filepath.Join(dir, ".cache", "x"), "hidden")
	writeFile(t, filepath.Join(dir, ".hidden"), "hidden")
	writeFile(t, filepath.Join(dir, "additional_chat_templates", "tool_use.jinja"), "{{ x }}")
	writeFile(t, filepath.Join(dir, "a", "b", "c", "d", "deep"), "too deep")
	target := filepath.Join(t.TempDir(), "blob")
	writeFile(t, target, "12345")
	if err := os.Symlink(target, filepath.Join(dir, "model.safetensors")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "broken")); err != nil {
		t.Fatal(err)
	}
	files, err := listFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{{"additional_chat_templates/tool_use.jinja", 7}, {"config.json", 2}, {"model.safetensors", 5}}
	if !slices.Equal(files, want) {
		t.Fatalf("got %v, want %v", files, want)
	}
}
