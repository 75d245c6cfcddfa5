package runtime

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainedMultimodalLayout loads the trained Gemma models as the
// multimodal checkpoints of their families store a text model
// (Gemma3ForConditionalGeneration with transformers 4's tensor names,
// Gemma4ForConditionalGeneration with transformers 5's; the config in
// text_config) and checks that they compute the same logits as the plain
// directories.
func TestTrainedMultimodalLayout(t *testing.T) {
	for _, tt := range []struct{ name, class, prefix, typ string }{
		{"gemma3", "Gemma3ForConditionalGeneration", "language_model.model.", "gemma3"},
		{"gemma4", "Gemma4ForConditionalGeneration", "model.language_model.", "gemma4"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := fixturePath(t, "trained", tt.name)
			dir := t.TempDir()
			var text map[string]any
			readJSON(t, filepath.Join(src, "config.json"), &text)
			writeJSON(t, filepath.Join(dir, "config.json"), map[string]any{
				"architectures": []string{tt.class}, "model_type": tt.typ, "text_config": text,
				"eos_token_id": text["eos_token_id"], "tie_word_embeddings": true})
			renameTensors(t, filepath.Join(src, "model.safetensors"), filepath.Join(dir, "model.safetensors"), tt.prefix)
			for _, f := range []string{"tokenizer.json", "tokenizer_config.json", "generation_config.json"} {
				data, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tokens := []int32{1, 9690, 198, 2683, 359, 253, 5356, 5646, 11173, 3365}
			want, got := lastLogits(t, src, tokens), lastLogits(t, dir, tokens)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("logit %d: %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// lastLogits loads a model and returns the logits after tokens.
func lastLogits(t *testing.T, ref string, tokens []int32) []float32 {
	t.Helper()
	e, err := Load(context.Background(), ref, Options{Threads: 2, Ctx: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var out []float32
	err = e.Score(context.Background(), tokens, len(tokens)-1, func(_ int, logits []float32) error {
		out = append(out, logits...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// renameTensors copies a safetensors file, the tensors under "model." moved
// under prefix.
func renameTensors(t *testing.T, from, to, prefix string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint64(data)
	var header map[string]json.RawMessage
	if err := json.Unmarshal(data[8:8+n], &header); err != nil {
		t.Fatal(err)
	}
	renamed := map[string]json.RawMessage{}
	for k, v := range header {
		if rest, ok := strings.CutPrefix(k, "model."); ok {
			k = prefix + rest
		}
		renamed[k] = v
	}
	h, err := json.Marshal(renamed)
	if err != nil {
		t.Fatal(err)
	}
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(append(out, h...), data[8+n:]...)
	if err := os.WriteFile(to, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeJSON writes v as JSON.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
