package tokenizer

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/mlxrun/mlx/models/fixture"
)

// tinyJSON is a small valid tokenizer.json; the cases below break it.
const tinyJSON = `{"version": "1.0", "added_tokens": [{"id": 5, "content": "<s>", "special": true}],
 "normalizer": null, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false},
 "post_processor": null, "decoder": {"type": "ByteLevel"},
 "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "Ġ": 3, "c": 4}, "merges": ["a b"]}}`

func TestMalformedJSON(t *testing.T) {
	if _, err := ParseJSON([]byte(tinyJSON), nil, "tiny.json"); err != nil {
		t.Fatalf("the valid base does not load: %v", err)
	}
	for _, tc := range []struct {
		old, new string
		want     error
		name     string // must appear in the message
	}{
		{`"type": "BPE"`, `"type": "Martian"`, ErrUnsupported, `"Martian"`},
		{`"type": "BPE"`, `"type": "Unigram"`, ErrFormat, "Unigram model.vocab"},
		{`{"type": "ByteLevel", "add_prefix_space": false}`, `{"type": "Martian"}`, ErrUnsupported, `"Martian"`},
		{`"normalizer": null`, `"normalizer": {"type": "Precompiled", "precompiled_charsmap": "AAA"}`, ErrFormat, "precompiled_charsmap"},
		{`"normalizer": null`, `"normalizer": {"type": "Precompiled", "precompiled_charsmap": "CAAAAA=="}`, ErrFormat, "charsmap trie"},
		{`"decoder": {"type": "ByteLevel"}`, `"decoder": {"type": "CTC"}`, ErrUnsupported, "CTC"},
		{`"post_processor": null`, `"post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<x>"}}], "special_tokens": {}}`, ErrFormat, "<x>"},
		{`["a b"]`, `["a q"]`, ErrFormat, `"q"`},
		{`["a b"]`, `["a b c"]`, ErrFormat, "a b c"},
		{`["a b"]`, `[["a"]]`, ErrFormat, "two tokens"},
		{`"c": 4`, `"c": -4`, ErrFormat, `"c"`},
		{`"c": 4`, `"c": 99999999999`, ErrFormat, `"c"`},
		{`"c": 4`, `"c": "x"`, ErrFormat, `"c"`},
		{`"id": 5`, `"id": -1`, ErrFormat, "<s>"},
		{`"id": 5`, `"id": 9000000`, ErrFormat, "9000000"},
		{`"c": 4`, `"c": 77777`, ErrFormat, "77777"},
		{`{"type": "ByteLevel", "add_prefix_space": false}`, `{"type": "Split", "pattern": {"Regex": "(("}, "behavior": "Isolated", "invert": false}`, ErrFormat, "(("},
		{`{"type": "ByteLevel", "add_prefix_space": false}`, `{"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Sideways"}`, ErrFormat, "Sideways"},
		{`"model": {`, `"model": 3, "x": {`, ErrFormat, "tiny.json"},
		{`{"version"`, `[{"version"`, ErrFormat, "tiny.json"},
	} {
		doc := strings.Replace(tinyJSON, tc.old, tc.new, 1)
		_, err := ParseJSON([]byte(doc), nil, "tiny.json")
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s -> %s: got %v, want %v naming %s", tc.old, tc.new, err, tc.want, tc.name)
		}
	}
}

// TestTruncatedAndGarbage feeds prefixes of a real tokenizer.json and
// random bytes: each must give an error, never a panic.
func TestTruncatedAndGarbage(t *testing.T) {
	data, err := os.ReadFile(fixture.Path(t, "tokenizers", "smollm2", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	for range 40 {
		cut := rng.Intn(len(data))
		if _, err := ParseJSON(data[:cut], nil, "cut.json"); err == nil {
			t.Errorf("prefix of %d bytes loaded", cut)
		}
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	for _, doc := range []string{"", "{", "null", "[]", `{"model": {}}`, `{"model": {"vocab": []}}`,
		`{"model": {"vocab": {"a": 0}, "merges": 7}}`, `{"x": ` + deep + `}`, "\xff\xfe"} {
		if _, err := ParseJSON([]byte(doc), nil, "bad.json"); err == nil {
			t.Errorf("%.40q loaded", doc)
		}
	}
	if _, err := ParseJSON([]byte(tinyJSON), []byte(`{"bos_token": 7}`), "tiny.json"); err == nil {
		t.Error("a config with a numeric bos_token loaded")
	}
}

// TestHostileInputs encodes invalid UTF-8 and decodes random ids, out of
// range ones included: no panic, and the text that comes out is valid UTF-8.
func TestHostileInputs(t *testing.T) {
	tok := loadJSON(t, "qwen3")
	rng := rand.New(rand.NewSource(9))
	for range 300 {
		b := make([]byte, rng.Intn(64))
		rng.Read(b)
		ids := tok.Encode(string(b), true)
		if got := tok.Decode(ids, false); got != norm.NFC.String(lossy(string(b))) {
			t.Fatalf("invalid UTF-8 %q round-tripped to %q", b, got)
		}
		ids = make([]int32, rng.Intn(32))
		for i := range ids {
			ids[i] = int32(rng.Intn(2*tok.VocabSize()) - tok.VocabSize()/2)
		}
		streamed := strings.Join(streamAll(t, tok.NewStreamDecoder(), ids), "")
		if want := tok.Decode(ids, true); streamed != want {
			t.Fatalf("stream of %v gave %q, Decode %q", ids, streamed, want)
		}
	}
	if tok.Token(-1) != "" || tok.Token(1<<30) != "" || tok.IsSpecial(-5) {
		t.Error("out-of-range ids are not handled")
	}
}

// TestSparseIDAllocatesLittle loads a vocabulary whose one token has the
// largest id allowed: refusing it must not first build a table of that
// many entries (16M strings, 256 MiB).
func TestSparseIDAllocatesLittle(t *testing.T) {
	doc := strings.Replace(tinyJSON, `"c": 4`, fmt.Sprintf(`"c": %d`, maxVocab-1), 1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ParseJSON([]byte(doc), nil, "sparse.json")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "sparse.json") {
		t.Fatalf("got %v, want ErrFormat naming the file", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
		t.Fatalf("refusing a 1-token sparse vocabulary allocated %d MiB", n>>20)
	}
}

// TestHostileSizes loads tokenizer.json files of 4 MB made of one huge
// token or merge: the error must stay short (it quoted the whole token),
// and loading must not allocate much more than the file (the map size
// hints counted quotes and went to 68 and 98 MiB).
func TestHostileSizes(t *testing.T) {
	huge := strings.Repeat(`\":`, 4<<20/3)
	for _, tc := range []struct{ name, doc string }{
		{"vocab token", `{"model": {"type": "BPE", "vocab": {"a": 0, "` + huge + `": 1}, "merges": []}}`},
		{"bad vocab token", `{"model": {"type": "BPE", "vocab": {"a": 0, "` + huge + `": -1}, "merges": []}}`},
		{"merge", `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["` + huge + `"]}}`},
		{"merge pair", `{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [["` + huge + `", "a"]]}}`},
		{"component type", `{"decoder": {"type": "` + huge + `"}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`},
		{"model type", `{"model": {"type": "` + huge + `", "vocab": {"a": 0}, "merges": []}}`},
		{"unk token", `{"model": {"type": "BPE", "unk_token": "` + huge + `", "vocab": {"a": 0}, "merges": []}}`},
		{"added token", `{"added_tokens": [{"id": -1, "content": "` + huge + `"}], "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`},
		{"regex", `{"pre_tokenizer": {"type": "Split", "pattern": {"Regex": "((` + huge + `"}}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ParseJSON([]byte(tc.doc), nil, "huge.json")
			runtime.ReadMemStats(&after)
			if err != nil && len(err.Error()) > 1000 {
				t.Errorf("error of %d bytes: %.200s...", len(err.Error()), err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 10*uint64(len(tc.doc)) {
				t.Errorf("a %d MiB file allocated %d MiB", len(tc.doc)>>20, n>>20)
			}
		})
	}
}
