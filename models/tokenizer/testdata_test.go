package tokenizer

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// vocabCase is one conformance vector of testdata/vocab.
type vocabCase struct {
	text string
	ids  []int32
}

// readVocabCases reads NAME.gguf.inp and NAME.gguf.out of testdata/vocab.
func readVocabCases(t *testing.T, name string) []vocabCase {
	t.Helper()
	return readVectors(t, fixture.Path(t, "vocab", name+".gguf"))
}

// readVectors reads the vectors GGUF.inp and GGUF.out next to a
// vocabulary file.
func readVectors(t *testing.T, gguf string) []vocabCase {
	t.Helper()
	inp, err := os.ReadFile(gguf + ".inp")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(gguf + ".out")
	if err != nil {
		t.Fatal(err)
	}
	// Inputs end with a separator line, except that the last one may end
	// at the end of the file instead.
	texts := strings.Split(string(inp), "\n__ggml_vocab_test__\n")
	if texts[len(texts)-1] == "" {
		texts = texts[:len(texts)-1]
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(texts) != len(lines) {
		t.Fatalf("%s: %d inputs but %d outputs", gguf, len(texts), len(lines))
	}
	cases := make([]vocabCase, len(texts))
	for i, text := range texts {
		cases[i] = vocabCase{text: text, ids: parseIDs(t, lines[i])}
	}
	return cases
}

func parseIDs(t *testing.T, line string) []int32 {
	t.Helper()
	var ids []int32
	for _, f := range strings.Fields(line) {
		var id int32
		for _, c := range f {
			if c < '0' || c > '9' {
				t.Fatalf("bad id %q", f)
			}
			id = id*10 + int32(c-'0')
		}
		ids = append(ids, id)
	}
	return ids
}

func texts(cases []vocabCase) []string {
	out := make([]string, len(cases))
	for i, c := range cases {
		out[i] = c.text
	}
	return out
}

var (
	loadedMu sync.Mutex
	loaded   = map[string]*Tokenizer{}
)

// cachedLoad loads a tokenizer once per test binary: loading the large
// vocabularies is the slowest part of the tests.
func cachedLoad(tb testing.TB, path string) *Tokenizer {
	tb.Helper()
	loadedMu.Lock()
	defer loadedMu.Unlock()
	if tok, ok := loaded[path]; ok {
		return tok
	}
	tok, err := Load(path)
	if err != nil {
		tb.Fatal(err)
	}
	loaded[path] = tok
	return tok
}
