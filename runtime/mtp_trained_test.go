package runtime

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"
)

// mtpFixture returns MLX_MTP_FIXTURE, the trained Qwen3.5 model with a
// trained MTP layer (models/fixture/mtp-fixture.sh), skipping the test
// when it is not set.
func mtpFixture(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MLX_MTP_FIXTURE")
	if dir == "" {
		t.Skip("MLX_MTP_FIXTURE is not set: models/fixture/mtp-fixture.sh trains the MTP fixture")
	}
	return dir
}

// mtpGGUF is the fixture's conversion by llama.cpp's converter, MTP layer
// kept (mtp-fixture.sh writes it when the converter is there).
const mtpGGUF = "qwen3_5-mtp-F32.gguf"

// mtpRefs returns the fixture's directory and its GGUF conversion, if
// made.
func mtpRefs(t *testing.T, dir string) []string {
	refs := []string{dir}
	if _, err := os.Stat(filepath.Join(dir, mtpGGUF)); err == nil {
		refs = append(refs, filepath.Join(dir, mtpGGUF))
	} else {
		t.Logf("no %s: the GGUF file's MTP layer is not checked", mtpGGUF)
	}
	return refs
}

// TestMTPTrainedReference computes the trained MTP layer's rows over one
// conversation, with the hidden states it was trained on, and compares
// each row's most probable token and its logit with the PyTorch layer
// that trained it (mtp-report.json): from the directory, and from its
// GGUF conversion (blk.N.nextn.* and the layer's tensors at blk.N).
func TestMTPTrainedReference(t *testing.T) {
	dir := mtpFixture(t)
	for _, ref := range mtpRefs(t, dir) {
		t.Run(filepath.Base(ref), func(t *testing.T) { mtpReference(t, dir, ref) })
	}
}

// mtpReference runs the reference check of TestMTPTrainedReference on
// the model at ref.
func mtpReference(t *testing.T, dir, path string) {
	var rep struct {
		Reference struct {
			IDs    []int32   `json:"ids"`
			Hidden []float32 `json:"hidden"`
			Top    []int32   `json:"top"`
			Logit  []float32 `json:"logit"`
		} `json:"reference"`
	}
	readJSON(t, filepath.Join(dir, "mtp-report.json"), &rep)
	o, err := openRef(path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	cfg := o.cfg
	m, err := model.BuildMTP(cfg, o.src)
	if err != nil {
		t.Fatal(err)
	}
	ref, hid := rep.Reference, cfg.HiddenSize
	n := len(ref.IDs) - 1
	if len(ref.Top) != n || len(ref.Hidden) != len(ref.IDs)*hid {
		t.Fatalf("reference of %d ids, %d rows, %d hidden values", len(ref.IDs), len(ref.Top), len(ref.Hidden))
	}
	pool := kernels.NewPool(2)
	defer pool.Close()
	s, err := m.NewState(pool, n, n, n)
	if err != nil {
		t.Fatal(err)
	}
	arena, err := kvcache.NewArenaShapes(kvcache.F32, m.KVShapes(), BlockSize, (n+BlockSize-1)/BlockSize)
	if err != nil {
		t.Fatal(err)
	}
	kv := kvcache.NewPool(arena)
	c := arena.NewCache()
	if !kv.Grow(c, n) {
		t.Fatal("cache full")
	}
	b := model.Batch{Hidden: ref.Hidden[:n*hid]}
	fillBatch(&b, c, ref.IDs[1:], 0)
	b.Out = b.Out[:0]
	for i := range n {
		b.Out = append(b.Out, i)
	}
	logits, err := s.Forward(&b)
	if err != nil {
		t.Fatal(err)
	}
	v := cfg.VocabSize
	for i := range n {
		id, _ := best(logits[i*v:(i+1)*v], v, nil)
		got := logits[i*v+int(id)]
		if id != ref.Top[i] || math.Abs(float64(got-ref.Logit[i])) > 1e-3*max(1, math.Abs(float64(ref.Logit[i]))) {
			t.Errorf("row %d: top token %d with logit %g, PyTorch %d with %g", i, id, got, ref.Top[i], ref.Logit[i])
		}
	}
}

// TestMTPTrainedAcceptance answers every case greedily with the trained
// MTP layer as draft, from the directory and from its GGUF conversion:
// the answers are those of plain decoding, and most proposed tokens are
// accepted.
func TestMTPTrainedAcceptance(t *testing.T) {
	dir := mtpFixture(t)
	for _, ref := range mtpRefs(t, dir) {
		t.Run(filepath.Base(ref), func(t *testing.T) { mtpAcceptance(t, dir, ref) })
	}
}

// mtpAcceptance runs TestMTPTrainedAcceptance on the model at ref.
func mtpAcceptance(t *testing.T, dir, ref string) {
	plain, err := Load(t.Context(), ref, Options{Threads: 2, Ctx: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	e, err := Load(t.Context(), ref, Options{Threads: 2, Ctx: 512, Spec: SpecOptions{Draft: MTPDraft}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var proposed, accepted int
	for i, ids := range casePrompts(t, plain, dir) {
		req := Request{Prompt: ids, Params: greedy(128)}
		want := generateAll(plain, []Request{req})[0]
		got := generateAll(e, []Request{req})[0]
		sameStream(t, "case", got, want)
		if got.res.Spec.Proposed == 0 && len(got.ids) > 2 {
			t.Errorf("case %d: nothing proposed over %d tokens", i, len(got.ids))
		}
		proposed += got.res.Spec.Proposed
		accepted += got.res.Spec.Accepted
	}
	rate := float64(accepted) / float64(max(proposed, 1))
	t.Logf("%d of %d proposed tokens accepted (%.0f%%)", accepted, proposed, 100*rate)
	if rate < 0.5 {
		t.Errorf("%.0f%% of the proposed tokens accepted: the trained MTP layer should guess most", 100*rate)
	}
}

// TestMTPTrainedDepth answers every case greedily with the trained MTP
// layer proposing exactly k tokens a step (confidence 0), k = 1…4, and
// logs the tokens each verifying step yields: with the costs of the steps
// on a real shape (BenchmarkRealShapeStep), the speed-up drafting gives
// (docs/performance.md). The answers are those of plain decoding.
func TestMTPTrainedDepth(t *testing.T) {
	dir := mtpFixture(t)
	plain, err := Load(t.Context(), dir, Options{Threads: 2, Ctx: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	e, err := Load(t.Context(), dir, Options{Threads: 2, Ctx: 512, Spec: SpecOptions{Draft: MTPDraft}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	prompts := casePrompts(t, plain, dir)
	want := make([]outcome, len(prompts))
	for i, ids := range prompts {
		want[i] = generateAll(plain, []Request{{Prompt: ids, Params: greedy(128)}})[0]
	}
	for k := 1; k <= 4; k++ {
		var proposed, accepted, tokens int
		for i, ids := range prompts {
			conf := 0.0
			req := Request{Prompt: ids, Params: greedy(128), Spec: Speculation{DraftTokens: &k, Confidence: &conf}}
			got := generateAll(e, []Request{req})[0]
			sameStream(t, "case", got, want[i])
			proposed, accepted, tokens = proposed+got.res.Spec.Proposed, accepted+got.res.Spec.Accepted, tokens+len(got.ids)
		}
		// Each step but an answer's first (the prompt's) proposes k
		// tokens, or fewer near its end: steps ≥ proposed/k.
		steps := (proposed + k - 1) / k
		t.Logf("k=%d: %d of %d proposed accepted (%.1f%%), %d tokens, about %.2f tokens per verifying step",
			k, accepted, proposed, 100*float64(accepted)/float64(max(proposed, 1)), tokens, float64(steps+accepted)/float64(max(steps, 1)))
		if accepted == 0 {
			t.Errorf("k=%d: no proposed token accepted", k)
		}
	}
}
