package tokenizer

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// roundTripSubjects are tokenizers whose decode(encode(x)) must give x
// back (after NFC for the ones that normalize to it).
func roundTripSubjects(t *testing.T) map[string]*Tokenizer {
	t.Helper()
	subjects := map[string]*Tokenizer{}
	for _, name := range []string{"qwen3", "llama3", "smollm2"} {
		subjects[name+".json"] = loadJSON(t, name)
	}
	for _, name := range vocabNames {
		subjects[name+".gguf"] = loadVocab(t, name)
	}
	return subjects
}

func TestRoundTrip(t *testing.T) {
	text := norm.NFC.String(mixedText(64<<10, 7))
	inputs := append(strings.Split(text, "\n"), text)
	for name, tok := range roundTripSubjects(t) {
		t.Run(name, func(t *testing.T) {
			for _, in := range inputs {
				ids := tok.Encode(in, false)
				if got := tok.Decode(ids, false); got != in {
					t.Fatalf("round trip of %q gave %q", short(in), short(got))
				}
			}
		})
	}
}

// short trims long strings in failure messages.
func short(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// TestConcurrentUse encodes and decodes from several goroutines at once
// (run with -race): a Tokenizer is shared by all requests of a server.
func TestConcurrentUse(t *testing.T) {
	tok := loadJSON(t, "qwen3")
	lines := strings.Split(norm.NFC.String(mixedText(16<<10, 8)), "\n")
	want := make([][]int32, len(lines))
	for i, l := range lines {
		want[i] = tok.Encode(l, false)
	}
	tok.model.cache.init()
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			for i := g; i < len(lines); i += 2 {
				got := tok.Encode(lines[i], false)
				if !slices.Equal(got, want[i]) || tok.Decode(got, false) != lines[i] {
					errs <- lines[i]
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if bad := <-errs; bad != "" {
			t.Errorf("concurrent encoding of %q differs", bad)
		}
	}
}
