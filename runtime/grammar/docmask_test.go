package grammar_test

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/grammar/internal/cpuclock"
	"github.com/mlxrun/mlx/runtime/grammar/internal/fixturevocab"
	"github.com/mlxrun/mlx/runtime/grammar/jsonschema"
)

// docNames are the schema and document pairs of testdata/docs: what a
// model would write for realistic schemas (nested objects, arrays, enums,
// formats, patterns, bounded and free strings, numbers). Each schema has
// a second document, name.b.json.
var docNames = []string{"order", "review", "tool_call", "person"}

// allDocs returns the names of every document, the second ones included.
func allDocs() []string {
	var out []string
	for _, n := range docNames {
		out = append(out, n, n+".b")
	}
	return out
}

// docTokenizers are the fixture tokenizers the documents are measured with.
var docTokenizers = []string{"smollm2", "qwen3", "llama3"}

var docVocabs sync.Map // tokenizer name -> *docVocab

type docVocab struct {
	tok *tokenizer.Tokenizer
	v   *grammar.Vocab
	eog int
}

func loadDocVocab(tb testing.TB, name string) *docVocab {
	tb.Helper()
	toks := fixturevocab.Load(tb, name)
	if dv, ok := docVocabs.Load(name); ok {
		return dv.(*docVocab)
	}
	if len(toks.EOG) == 0 {
		tb.Fatalf("tokenizer %s: no end-of-generation token", name)
	}
	dv := &docVocab{tok: toks.Tok, v: grammar.NewVocab(toks.Pieces, toks.EOG), eog: toks.EOG[0]}
	docVocabs.Store(name, dv)
	return dv
}

// docCase is a document's grammar source and its tokens, end of
// generation last.
type docCase struct {
	schema []byte
	ids    []int32
}

func loadDoc(tb testing.TB, dv *docVocab, name string) docCase {
	tb.Helper()
	dir := filepath.Join("testdata", "docs")
	schema, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(name, ".b")+".schema.json"))
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	ids := dv.tok.Encode(strings.TrimSpace(string(doc)), false)
	return docCase{schema: schema, ids: append(ids, int32(dv.eog))}
}

func compileDoc(tb testing.TB, c docCase) *grammar.Grammar {
	tb.Helper()
	g, err := jsonschema.Compile(c.schema, jsonschema.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// walkDoc follows the document's tokens with a new matcher, timing what
// the runtime does for each token in thread CPU time (the mask, applied
// to the logits, and the acceptance of the token), and checks that every
// token is allowed by the mask before it is accepted.
func walkDoc(tb testing.TB, g *grammar.Grammar, dv *docVocab, ids []int32, costs []time.Duration) []time.Duration {
	tb.Helper()
	m, err := grammar.NewMatcher(g, dv.v)
	if err != nil {
		tb.Fatal(err)
	}
	mask := make([]uint64, dv.v.Words())
	logits := make([]float32, dv.v.Size())
	for i, id32 := range ids {
		id := int(id32)
		start := cpuclock.Thread()
		if err := m.MaskLogits(logits, mask); err != nil {
			tb.Fatalf("token %d: mask: %v", i, err)
		}
		allowed := mask[id>>6]&(1<<(id&63)) != 0
		err := m.Accept(id)
		costs = append(costs, cpuclock.Thread()-start)
		if !allowed || err != nil {
			tb.Fatalf("token %d (%q): allowed %v, accept: %v", i, dv.tok.Piece(id), allowed, err)
		}
	}
	if !m.Done() {
		tb.Fatal("matcher not done after the end of generation")
	}
	return costs
}

// TestDocumentsFollowed checks that each document's tokenization is
// allowed token by token, end of generation included, with every
// tokenizer.
func TestDocumentsFollowed(t *testing.T) {
	for _, tn := range docTokenizers {
		dv := loadDocVocab(t, tn)
		for _, name := range allDocs() {
			t.Run(tn+"/"+name, func(t *testing.T) {
				c := loadDoc(t, dv, name)
				costs := walkDoc(t, compileDoc(t, c), dv, c.ids, nil)
				if len(costs) != len(c.ids) {
					t.Fatalf("%d costs for %d tokens", len(costs), len(c.ids))
				}
			})
		}
	}
}

// BenchmarkMaskDocument measures mask plus accept per token along real
// documents. cold compiles the schema for each run (the first request
// with a schema: nothing memoized); warm reuses one compiled grammar, as
// the server's grammar cache does for repeated schemas, after the other
// document of the same schema was generated once (a later request with
// other content). It reports the mean, 99th percentile and worst cost
// per token.
func BenchmarkMaskDocument(b *testing.B) {
	for _, tn := range docTokenizers {
		for _, name := range docNames {
			for _, mode := range []string{"cold", "warm"} {
				b.Run(tn+"/"+name+"/"+mode, func(b *testing.B) {
					dv := loadDocVocab(b, tn)
					c := loadDoc(b, dv, name)
					other := loadDoc(b, dv, name+".b")
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					var costs []time.Duration
					for b.Loop() {
						g := compileDoc(b, c)
						if mode == "warm" {
							walkDoc(b, g, dv, other.ids, nil)
						}
						costs = walkDoc(b, g, dv, c.ids, costs)
					}
					reportCosts(b, costs)
				})
			}
		}
	}
}

func reportCosts(b *testing.B, costs []time.Duration) {
	b.Helper()
	slices.Sort(costs)
	var sum time.Duration
	for _, d := range costs {
		sum += d
	}
	n := len(costs)
	b.ReportMetric(float64(sum.Nanoseconds())/float64(n), "ns/token")
	b.ReportMetric(float64(costs[min(n-1, n*99/100)].Nanoseconds()), "p99-ns/token")
	b.ReportMetric(float64(costs[n-1].Nanoseconds()), "max-ns/token")
	b.ReportMetric(float64(n)/float64(b.N), "tokens/doc")
}

// TestDocumentMasksMatchAccept compares, at every few tokens of each
// document, the mask with Accept of every token of the vocabulary (on a
// clone): the shortcuts of the mask must neither miss nor add a token.
func TestDocumentMasksMatchAccept(t *testing.T) {
	const every = 23
	for _, tn := range []string{"smollm2", "qwen3"} {
		dv := loadDocVocab(t, tn)
		for _, name := range docNames {
			t.Run(tn+"/"+name, func(t *testing.T) {
				c := loadDoc(t, dv, name)
				m, err := grammar.NewMatcher(compileDoc(t, c), dv.v)
				if err != nil {
					t.Fatal(err)
				}
				mask := make([]uint64, dv.v.Words())
				for i, id := range c.ids {
					if i%every == every/2 {
						checkMask(t, m, dv, mask, i)
					}
					if err := m.Accept(int(id)); err != nil {
						t.Fatalf("token %d: %v", i, err)
					}
				}
			})
		}
	}
}

func checkMask(t *testing.T, m *grammar.Matcher, dv *docVocab, mask []uint64, at int) {
	t.Helper()
	if err := m.Mask(mask); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for id := range dv.v.Size() {
		allowed := mask[id>>6]&(1<<(id&63)) != 0
		if err := m.Clone().Accept(id); (err == nil) != allowed && bad < 5 {
			bad++
			t.Errorf("after %d tokens, token %d %q: mask %v, Accept %v", at, id, dv.tok.Piece(id), allowed, err)
		}
	}
}
