package model_test

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/qwen35"
)

// hybrid is the trained Qwen3.5 fixture (three Gated DeltaNet layers, one
// gated full-attention layer) with a state for batches of up to 32 rows,
// all with logits, and a pool of caches with recurrent state.
type hybrid struct {
	m    *model.Model
	s    *model.State
	pool *kvcache.Pool
}

func loadHybrid(t *testing.T) *hybrid {
	t.Helper()
	dir := fixture.Path(t, "trained", "qwen3.5")
	cfg, err := config.FromHFDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := buildHybrid(t, cfg, hybridSource(t))
	m := h.m
	if m.StateElems() == 0 || len(m.KVShapes()) != 1 {
		t.Fatalf("%d state values, %d cache layers: want a recurrent state and one attention layer", m.StateElems(), len(m.KVShapes()))
	}
	var report struct{ Params int64 }
	data, err := os.ReadFile(filepath.Join(dir, "train-report.json"))
	if err == nil {
		err = json.Unmarshal(data, &report)
	}
	if err != nil || m.Params() != report.Params {
		t.Errorf("Params() = %d, transformers counted %d (%v)", m.Params(), report.Params, err)
	}
	return h
}

// hybridSource opens the trained Qwen3.5 fixture's weights.
func hybridSource(t *testing.T) model.SafetensorsSource {
	t.Helper()
	dir := fixture.Path(t, "trained", "qwen3.5")
	st, err := safetensors.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return model.SafetensorsSource{M: st, Dir: dir}
}

// sameLogits checks that x computes the test tokens in one pass with the
// logits h computes one token per pass.
func (h *hybrid) sameLogits(t *testing.T, what string, x *hybrid) {
	t.Helper()
	c := x.pool.Arena().NewCache()
	defer x.pool.Drop(c)
	var rows []row
	for p, tok := range testTokens {
		rows = append(rows, row{c, tok, p})
	}
	got, err := x.forward(t, rows)
	if err != nil {
		t.Fatal(err)
	}
	want := h.oneByOne(t, testTokens)
	for p := range got {
		closeLogits(t, what, got[p], want[p])
	}
}

// buildHybrid binds the model of src with its state and cache pool.
func buildHybrid(t *testing.T, cfg *config.Model, src model.Source) *hybrid {
	t.Helper()
	m, err := model.Build(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	workers := kernels.NewPool(2)
	t.Cleanup(workers.Close)
	s, err := m.NewState(workers, 32, 32, 128)
	if err != nil {
		t.Fatal(err)
	}
	a, err := kvcache.NewArenaShapes(kvcache.F32, m.KVShapes(), 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SetState(m.StateElems()); err != nil {
		t.Fatal(err)
	}
	return &hybrid{m: m, s: s, pool: kvcache.NewPool(a)}
}

// row is one token of a sequence at a position.
type row struct {
	c   *kvcache.Cache
	tok int32
	pos int
}

// forward runs the rows as one batch and returns each row's logits.
func (h *hybrid) forward(t *testing.T, rows []row) ([][]float32, error) {
	t.Helper()
	b := &model.Batch{}
	for i, r := range rows {
		if !h.pool.Grow(r.c, r.pos+1) {
			t.Fatal("cache full")
		}
		b.Tokens, b.Pos, b.Cache, b.Out = append(b.Tokens, r.tok), append(b.Pos, r.pos), append(b.Cache, r.c), append(b.Out, i)
	}
	logits, err := h.s.Forward(b)
	if err != nil {
		return nil, err
	}
	v := h.m.Config.VocabSize
	out := make([][]float32, len(rows))
	for i := range out {
		out[i] = append([]float32(nil), logits[i*v:(i+1)*v]...)
	}
	return out, nil
}

// testTokens are a few ids of the fixture's vocabulary.
var testTokens = []int32{1, 9690, 198, 2683, 359, 253, 5356, 5646, 11173, 3365, 3511, 308, 34519, 28, 7018, 411, 407, 19712, 8182, 2}

// oneByOne returns the logits of every position of tokens computed one
// token per forward pass: the recurrent form, position by position.
func (h *hybrid) oneByOne(t *testing.T, tokens []int32) [][]float32 {
	t.Helper()
	c := h.pool.Arena().NewCache()
	defer h.pool.Drop(c)
	var want [][]float32
	for p, tok := range tokens {
		l, err := h.forward(t, []row{{c, tok, p}})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, l[0])
	}
	return want
}

func closeLogits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	worst := 0.0
	for i := range want {
		worst = max(worst, math.Abs(float64(got[i]-want[i])))
	}
	if worst > 1e-4 {
		t.Errorf("%s: logits differ by up to %g from one token per pass", what, worst)
	}
}

// TestDeltaNetBatches checks that the linear layers' state carries over
// between passes: a prompt computed in one pass, in chunks, or as rows of
// two sequences interleaved in the same batches gives the logits of one
// token per pass.
func TestDeltaNetBatches(t *testing.T) {
	h := loadHybrid(t)
	want := h.oneByOne(t, testTokens)

	c := h.pool.Arena().NewCache()
	var rows []row
	for p, tok := range testTokens {
		rows = append(rows, row{c, tok, p})
	}
	got, err := h.forward(t, rows)
	if err != nil {
		t.Fatal(err)
	}
	for p := range got {
		closeLogits(t, "one pass", got[p], want[p])
	}
	h.pool.Drop(c)

	// Two sequences, A at chunks of 5 and 2 rows, B one behind by 3,
	// their rows interleaved; each chunk crosses the conv's reach.
	a, b := h.pool.Arena().NewCache(), h.pool.Arena().NewCache()
	defer h.pool.Drop(a)
	defer h.pool.Drop(b)
	pa, pb := 0, 0
	for _, n := range []int{5, 2, 1, 4, 3, 5} {
		rows = rows[:0]
		for k := range n {
			rows = append(rows, row{a, testTokens[pa+k], pa + k})
			if pb+k < len(testTokens)-3 && k < n-1 {
				rows = append(rows, row{b, testTokens[pb+k], pb + k})
			}
		}
		got, err := h.forward(t, rows)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			closeLogits(t, "interleaved", got[i], want[r.pos])
		}
		pa += n
		if pb+n-1 <= len(testTokens)-3 {
			pb += n - 1
		} else {
			pb = len(testTokens) - 3
		}
	}
}

// TestDeltaNetPositions checks that a sequence cannot leave out or go
// back over positions its recurrent state has consumed, and that it may
// start over at position 0 with the results of a fresh sequence.
func TestDeltaNetPositions(t *testing.T) {
	h := loadHybrid(t)
	want := h.oneByOne(t, testTokens[:6])
	c := h.pool.Arena().NewCache()
	defer h.pool.Drop(c)
	var rows []row
	for p, tok := range testTokens[:5] {
		rows = append(rows, row{c, tok, p})
	}
	if _, err := h.forward(t, rows); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]row{
		{{c, 7, 3}},            // back over consumed positions
		{{c, 7, 6}},            // skips position 5
		{{c, 7, 5}, {c, 8, 7}}, // a gap inside the batch
	} {
		if _, err := h.forward(t, bad); !errors.Is(err, model.ErrBatch) {
			t.Errorf("rows at %v: error %v, want ErrBatch", bad, err)
		}
	}
	got, err := h.forward(t, []row{{c, testTokens[5], 5}})
	if err != nil {
		t.Fatal(err)
	}
	closeLogits(t, "after refused batches", got[0], want[5])
	if got, err = h.forward(t, []row{{c, testTokens[0], 0}, {c, testTokens[1], 1}}); err != nil {
		t.Fatal(err)
	}
	closeLogits(t, "started over", got[1], want[1])
}

// multimodal presents a Hugging Face directory's tensors as a multimodal
// checkpoint holds its text model: under model.language_model.
type multimodal struct{ model.SafetensorsSource }

// inner returns the name in the directory of a multimodal name, "" for
// names the checkpoint would not have.
func (multimodal) inner(name string) string {
	if rest, ok := strings.CutPrefix(name, "model.language_model."); ok {
		return "model." + rest
	}
	if strings.HasPrefix(name, "model.") {
		return ""
	}
	return name
}

func (s multimodal) Has(name string) bool {
	return s.inner(name) != "" && s.SafetensorsSource.Has(s.inner(name))
}

func (s multimodal) Matrix(name string, rows, cols int) (*kernels.Matrix, error) {
	return s.SafetensorsSource.Matrix(s.inner(name), rows, cols)
}

func (s multimodal) Vector(name string, n int) ([]float32, error) {
	return s.SafetensorsSource.Vector(s.inner(name), n)
}

func (s multimodal) Values(name string, shape []int) ([]float32, error) {
	return s.SafetensorsSource.Values(s.inner(name), shape)
}

// TestDeltaNetMultimodalNames binds the model from the names of a
// multimodal checkpoint (Qwen3_5ForConditionalGeneration), the linear
// layers' included, with the same logits.
func TestDeltaNetMultimodalNames(t *testing.T) {
	h := loadHybrid(t)
	h.sameLogits(t, "multimodal names", buildHybrid(t, h.m.Config, multimodal{hybridSource(t)}))
}
