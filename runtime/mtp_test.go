package runtime

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/safetensors"
)

// writeMTPDir writes the trained Qwen3.5 fixture with a multi-token
// prediction layer of random weights beside its own, as a checkpoint
// holds one: the mtp.* tensors in a second shard listed by the index.
func writeMTPDir(t *testing.T) string {
	t.Helper()
	src := fixturePath(t, "trained", "qwen3.5")
	cfg, err := config.FromHFDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(src, "model.safetensors"), filepath.Join(dir, "model.safetensors")); err != nil {
		t.Fatal(err)
	}
	hid, ff := cfg.HiddenSize, cfg.FFNSize
	q, kv := cfg.Heads*cfg.HeadDim, cfg.KVHeads*cfg.HeadDim
	rng := rand.New(rand.NewPCG(7, 7))
	random := func(scale float64, shape ...int) []byte {
		n := 1
		for _, d := range shape {
			n *= d
		}
		b := make([]byte, 4*n)
		for i := range n {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(rng.NormFloat64()*scale)))
		}
		return b
	}
	layer := "mtp.layers.0."
	shapes := []struct {
		name  string
		shape []int
	}{
		{"mtp.fc.weight", []int{hid, 2 * hid}}, {"mtp.pre_fc_norm_embedding.weight", []int{hid}},
		{"mtp.pre_fc_norm_hidden.weight", []int{hid}}, {"mtp.norm.weight", []int{hid}},
		{layer + "input_layernorm.weight", []int{hid}}, {layer + "post_attention_layernorm.weight", []int{hid}},
		{layer + "self_attn.q_proj.weight", []int{2 * q, hid}}, {layer + "self_attn.k_proj.weight", []int{kv, hid}},
		{layer + "self_attn.v_proj.weight", []int{kv, hid}}, {layer + "self_attn.o_proj.weight", []int{hid, q}},
		{layer + "self_attn.q_norm.weight", []int{cfg.HeadDim}}, {layer + "self_attn.k_norm.weight", []int{cfg.HeadDim}},
		{layer + "mlp.gate_proj.weight", []int{ff, hid}}, {layer + "mlp.up_proj.weight", []int{ff, hid}},
		{layer + "mlp.down_proj.weight", []int{hid, ff}},
	}
	weights := map[string]string{}
	var mtp []namedTensor
	for _, s := range shapes {
		scale := 1 / math.Sqrt(float64(s.shape[len(s.shape)-1]))
		if len(s.shape) == 1 {
			scale = 0.1
		}
		mtp = append(mtp, namedTensor{s.name, "F32", s.shape, random(scale, s.shape...)})
		weights[s.name] = "mtp.safetensors"
	}
	writeTensors(t, filepath.Join(dir, "mtp.safetensors"), mtp)
	base, err := safetensors.Open(filepath.Join(src, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range base.Names() {
		weights[name] = "model.safetensors"
	}
	base.Close()
	writeJSON(t, filepath.Join(dir, safetensors.IndexFile), map[string]any{"metadata": map[string]any{}, "weight_map": weights})
	return dir
}

// mtpPrompts are the trained Qwen3.5 model's first prompts, each with
// up to 24 tokens to generate.
func mtpPrompts(t *testing.T, n int) []Request {
	t.Helper()
	var prompts []Request
	for _, p := range hybridPrompts(t) {
		if len(p.Prompt) > 0 && len(prompts) < n {
			p.Params.MaxTokens = 24
			prompts = append(prompts, p)
		}
	}
	return prompts
}

// TestMTPDraftSameOutput drafts with a multi-token prediction layer of
// random weights, whose guesses the model mostly rejects: greedy decoding
// gives the tokens and log-probabilities of plain decoding, alone and
// two streams at once, and so does a second turn that finds its first in
// the prefix cache (the MTP layer then starts at the first uncached
// position), and seeded sampling.
func TestMTPDraftSameOutput(t *testing.T) {
	dir := writeMTPDir(t)
	prompts := mtpPrompts(t, 4)
	plainEngine, err := Load(t.Context(), dir, Options{Threads: 2, Ctx: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer plainEngine.Close()
	plain := generateAll(plainEngine, prompts)
	for _, parallel := range []int{1, 2} {
		e, err := Load(t.Context(), dir, Options{Threads: 2, Ctx: 256, Parallel: parallel, Spec: SpecOptions{Draft: MTPDraft, DraftTokens: 3}})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		var proposed, accepted int
		for i, o := range generateAll(e, prompts) {
			sameStream(t, "prompt", o, plain[i])
			proposed += o.res.Spec.Proposed
			accepted += o.res.Spec.Accepted
		}
		t.Logf("%d at once: %d of %d proposed tokens accepted", parallel, accepted, proposed)
		if proposed == 0 {
			t.Errorf("%d at once: the MTP layer proposed no token", parallel)
		}
		second := prompts[0]
		second.Prompt = append(slices.Clone(prompts[0].Prompt), prompts[1].Prompt...)
		sameStream(t, "second turn", generateAll(e, []Request{second})[0], generateAll(plainEngine, []Request{second})[0])
		// Sampling with a seed draws every token from the model's own
		// distribution by the same sampler calls: the same tokens.
		sampled := prompts[2]
		seed := int64(3)
		sampled.Params.Temperature, sampled.Params.Seed = 1, &seed
		sameStream(t, "sampled", generateAll(e, []Request{sampled})[0], generateAll(plainEngine, []Request{sampled})[0])
	}
}

// TestMTPDraftRefused checks that --draft mtp on a model without an MTP
// layer is refused at load, naming what is missing.
func TestMTPDraftRefused(t *testing.T) {
	for _, ref := range [][]string{{"trained", "qwen3.5"}, {"gguf", "llama-tiny-F32.gguf"}} {
		_, err := Load(t.Context(), fixturePath(t, ref...), Options{Threads: 2, Ctx: 256, Spec: SpecOptions{Draft: MTPDraft}})
		if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "multi-token prediction") {
			t.Errorf("%v: %v, want ErrOptions naming the multi-token prediction layer", ref, err)
		}
	}
}

// TestMTPDrain checks that a prompt's hidden states do not all wait for
// its first proposal: the MTP layer runs the full chunks of its state's
// rows as they come, keeping fewer than a chunk, and generation with
// small batches gives plain decoding's tokens.
func TestMTPDrain(t *testing.T) {
	dir := writeMTPDir(t)
	e, err := Load(t.Context(), dir, Options{Threads: 2, Ctx: 256, Batch: 8, Spec: SpecOptions{Draft: MTPDraft, DraftTokens: 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	d, hid := e.spec.mtp, e.cfg.HiddenSize
	rows := d.state.MaxRows()
	s := &mtpSeq{cache: d.kv.Arena().NewCache()}
	defer d.kv.Drop(s.cache)
	tokens := make([]int32, 3*rows+2)
	s.keep(make([]float32, (3*rows-1)*hid), 0, hid)
	if !d.drain(s, tokens) || s.done != 2*rows || len(s.hidden) != (rows-1)*hid {
		t.Errorf("after drain: %d rows run, %d kept; want %d and %d", s.done, len(s.hidden)/hid, 2*rows, rows-1)
	}
	prompt := mtpPrompts(t, 1)[0]
	plain, err := Load(t.Context(), dir, Options{Threads: 2, Ctx: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	sameStream(t, "small batches", generateAll(e, []Request{prompt})[0], generateAll(plain, []Request{prompt})[0])
}
