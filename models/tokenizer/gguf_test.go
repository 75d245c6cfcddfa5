package tokenizer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/gguf"
)

// ggufKV is one metadata entry for ggufBytes: a string, []string, []int32,
// []float32, uint32 or bool.
type ggufKV struct {
	key string
	val any
}

// ggufBytes writes a GGUF v3 file with metadata only.
func ggufBytes(kvs []ggufKV) []byte {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { w(uint64(len(s))); b.WriteString(s) }
	b.WriteString("GGUF")
	w(uint32(3))
	w(uint64(0))
	w(uint64(len(kvs)))
	for _, kv := range kvs {
		str(kv.key)
		switch v := kv.val.(type) {
		case string:
			w(uint32(gguf.TypeString))
			str(v)
		case uint32:
			w(uint32(gguf.TypeUint32))
			w(v)
		case bool:
			w(uint32(gguf.TypeBool))
			w(v)
		case []string:
			w(uint32(gguf.TypeArray))
			w(uint32(gguf.TypeString))
			w(uint64(len(v)))
			for _, s := range v {
				str(s)
			}
		case []int32:
			w(uint32(gguf.TypeArray))
			w(uint32(gguf.TypeInt32))
			w(uint64(len(v)))
			w(v)
		case []float32:
			w(uint32(gguf.TypeArray))
			w(uint32(gguf.TypeFloat32))
			w(uint64(len(v)))
			w(v)
		}
	}
	for b.Len()%32 != 0 {
		b.WriteByte(0)
	}
	return b.Bytes()
}

// byteLevelVocab returns the 256 byte-level tokens and a few merges.
func byteLevelVocab() ([]string, []string) {
	toks := append([]string(nil), byteChar[:]...)
	merges := []string{"Ġ t", "h e", "Ġt he", "i n", "Ġ a"}
	toks = append(toks, "Ġt", "he", "Ġthe", "in", "Ġa", "<|end|>")
	return toks, merges
}

func parseGGUF(t *testing.T, kvs []ggufKV) (*Tokenizer, error) {
	t.Helper()
	f, err := gguf.Parse(ggufBytes(kvs), "test.gguf")
	if err != nil {
		t.Fatalf("test file: %v", err)
	}
	return FromGGUF(f)
}

func TestGGUFSynthetic(t *testing.T) {
	toks, merges := byteLevelVocab()
	types := make([]int32, len(toks))
	for i := range types {
		types[i] = ggufNormal
	}
	types[len(toks)-1] = ggufControl
	tok, err := parseGGUF(t, []ggufKV{
		{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.pre", "qwen2"},
		{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges},
		{"tokenizer.ggml.token_type", types}, {"tokenizer.ggml.eos_token_id", uint32(len(toks) - 1)},
		{"tokenizer.ggml.add_eos_token", true}, {"tokenizer.ggml.bos_token_id", uint32(1 << 30)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tok.BOS() != -1 || tok.EOS() != len(toks)-1 || !tok.AddEOS() || !tok.IsSpecial(tok.EOS()) {
		t.Errorf("bos %d eos %d addEOS %v", tok.BOS(), tok.EOS(), tok.AddEOS())
	}
	for _, text := range differentialInputs(t, 300) {
		ids := tok.Encode(text+"<|end|>", true)
		if got := tok.Decode(ids, true); got != lossy(text) {
			t.Fatalf("round trip of %q gave %q", text, got)
		}
	}
	if ids := tok.Encode(" the", false); len(ids) != 1 || tok.Token(int(ids[0])) != "Ġthe" {
		t.Errorf("merges not applied: %v", ids)
	}
}

func TestGGUFErrors(t *testing.T) {
	toks, merges := byteLevelVocab()
	base := func(extra ...ggufKV) []ggufKV {
		return append([]ggufKV{{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges}}, extra...)
	}
	for _, tc := range []struct {
		kvs  []ggufKV
		want error
		name string
	}{
		{base(), ErrFormat, "tokenizer.ggml.model"},
		{base(ggufKV{"tokenizer.ggml.model", "rwkv"}), ErrUnsupported, `"rwkv"`},
		{base(ggufKV{"tokenizer.ggml.model", "t5"}), ErrFormat, "scores"},
		{base(ggufKV{"tokenizer.ggml.model", "gpt2"}, ggufKV{"tokenizer.ggml.pre", "martian"}), ErrUnsupported, `"martian"`},
		{base(ggufKV{"tokenizer.ggml.model", "gpt2"}, ggufKV{"tokenizer.ggml.token_type", []int32{1}}), ErrFormat, "token types"},
		{base(ggufKV{"tokenizer.ggml.model", "llama"}), ErrFormat, "scores"},
		{[]ggufKV{{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.tokens", toks}}, ErrFormat, "merges"},
		{[]ggufKV{{"tokenizer.ggml.model", "gpt2"}}, ErrFormat, "tokens"},
	} {
		_, err := parseGGUF(t, tc.kvs)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.name) || !strings.Contains(err.Error(), "test.gguf") {
			t.Errorf("got %v, want %v naming %s and the file", err, tc.want, tc.name)
		}
	}
}

// TestGGUFSentencePieceMergeBudget checks that a SentencePiece vocabulary
// whose pieces are too long to derive merges from in reasonable time is
// refused: finding the merges hashes every split of every piece, which is
// quadratic in the piece length.
func TestGGUFSentencePieceMergeBudget(t *testing.T) {
	long := strings.Repeat("a", 70000) // 70000² bytes hashed exceeds the budget
	toks := []string{"<unk>", "<s>", "</s>", "a", long}
	_, err := parseGGUF(t, []ggufKV{{"tokenizer.ggml.model", "llama"},
		{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.scores", make([]float32, len(toks))}})
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "test.gguf") || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("got %v, want ErrFormat naming the file and the long pieces", err)
	}
}

// TestLoadDirGlobCharacters loads the one GGUF file of a folder whose name
// holds glob metacharacters.
func TestLoadDirGlobCharacters(t *testing.T) {
	toks, merges := byteLevelVocab()
	dir := filepath.Join(t.TempDir(), "[m]*?")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data := ggufBytes([]ggufKV{{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.pre", "qwen2"},
		{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges}})
	if err := os.WriteFile(filepath.Join(dir, "model.gguf"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	tok, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tok.VocabSize() != len(toks) {
		t.Fatalf("vocabulary of %d tokens, want %d", tok.VocabSize(), len(toks))
	}
}
