package tui

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTranscriptRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		system string
		msgs   []Message
	}{
		{"empty", "", nil},
		{"system only", "Be brief.", nil},
		{"turns", "You are a pirate.", []Message{
			{Role: RoleUser, Content: "Hi!\n\nTwo paragraphs."},
			{Role: RoleAssistant, Content: "## Arr\n\n- one\n- two\n\n```go\nfmt.Println(1)\n```", Reasoning: "They said hi.\nAnswer."},
			{Role: RoleUser, Content: "and?"},
			{Role: RoleAssistant, Content: "no reasoning here"},
		}},
		{"marker-like lines", "", []Message{
			{Role: RoleUser, Content: "<!-- mlx:assistant -->\n\\<!-- mlx:user -->\n## You"},
			{Role: RoleAssistant, Content: "<!-- mlx chat transcript v1 -->"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := marshalTranscript("tiny", tc.system, tc.msgs)
			system, msgs, err := parseTranscript(data)
			if err != nil {
				t.Fatalf("parse: %v\n%s", err, data)
			}
			if system != tc.system || !reflect.DeepEqual(msgs, tc.msgs) {
				t.Errorf("got %q %#v\nwant %q %#v\nfile:\n%s", system, msgs, tc.system, tc.msgs, data)
			}
		})
	}
}

func TestParseTranscriptErrors(t *testing.T) {
	tests := []struct {
		name, data, errHas string
	}{
		{"no magic", "# Some notes\n\nhello", "the first line is not"},
		{"binary", "\xff\xfe\x00", "not UTF-8"},
		{"unknown role", transcriptMagic + "\n<!-- mlx:tool -->\nx", `line 2: unknown role "tool"`},
		{"late system", transcriptMagic + "\n<!-- mlx:user -->\nhi\n<!-- mlx:system -->\nx", "system prompt must come first"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseTranscript([]byte(tc.data))
			if !errors.Is(err, ErrTranscript) || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("error %v, want ErrTranscript with %q", err, tc.errHas)
			}
		})
	}
}

func TestReadFileBounded(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		check      func(error) bool
	}{
		{"too big", big, func(err error) bool {
			return errors.Is(err, ErrTranscript) && strings.Contains(err.Error(), "100 bytes")
		}},
		{"directory", dir, func(err error) bool { return errors.Is(err, ErrTranscript) }},
		{"missing", filepath.Join(dir, "none.md"), func(err error) bool { return errors.Is(err, os.ErrNotExist) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := readFileBounded(tc.path, 50); !tc.check(err) {
				t.Errorf("error %v", err)
			}
		})
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chat.md")
	for _, content := range []string{"first", "second, longer"} {
		if err := writeFileAtomic(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != content {
			t.Fatalf("read %q, %v; want %q", b, err, content)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files left in the directory, want 1", len(ents))
	}
	if err := writeFileAtomic(filepath.Join(dir, "no", "such", "dir.md"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
