package model_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/gemma3"
)

// embeddingGemma is a one-layer EmbeddingGemma (gemma-embedding) of random
// weights whose layer slides with a window of 4, and Dense modules of 8.
func embeddingGemma(t *testing.T) *model.Model {
	t.Helper()
	c := &config.Model{Source: config.SourceGGUF, Arch: "gemma-embedding", VocabSize: 64, HiddenSize: 16, Layers: 1,
		Heads: 2, KVHeads: 1, HeadDim: 8, RopeDim: 8, FFNSize: 24, ContextLength: 64, RMSNormEps: 1e-6,
		HiddenAct: "gelu_pytorch_tanh", RopeTheta: 1e6, RopeLocalTheta: 1e4, TieEmbeddings: true, SlidingWindow: 4,
		SlidingPattern: 6, QueryPreAttnScalar: 8, DenseSize: 8, BOS: -1}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	m, err := model.Build(c, randomSource{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// hiddenRows returns the hidden state of every row of tokens computed as
// one sequence in one pass, or the forward pass's error when the batch
// starts at position from.
func hiddenRows(t *testing.T, m *model.Model, tokens []int32, from int) ([]float32, error) {
	t.Helper()
	s, kc := newState(t, m, len(tokens), from+len(tokens))
	b := &model.Batch{}
	for i, tok := range tokens {
		b.Tokens, b.Pos, b.Cache, b.Out = append(b.Tokens, tok), append(b.Pos, from+i), append(b.Cache, kc), append(b.Out, i)
	}
	h, err := s.Hidden(b)
	return slices.Clone(h), err
}

// TestNonCausalWindow checks EmbeddingGemma's attention: a row sees the
// tokens after it (it is not causal), and its sliding window reaches
// half the window on either side, no further; the model embeds, so a
// sequence must come whole.
func TestNonCausalWindow(t *testing.T) {
	m := embeddingGemma(t)
	if !m.Bidirectional() {
		t.Fatal("gemma-embedding is not bidirectional")
	}
	hid := m.Config.HiddenSize
	base := []int32{3, 17, 42, 5, 9, 33, 61, 2}
	h0, err := hiddenRows(t, m, base, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Row 2 sees positions 0 to 4: a change at 4 moves it, one at 5 not.
	for _, c := range []struct {
		pos   int
		moves bool
	}{{4, true}, {5, false}, {0, true}} {
		tokens := slices.Clone(base)
		tokens[c.pos] = 50
		h, err := hiddenRows(t, m, tokens, 0)
		if err != nil {
			t.Fatal(err)
		}
		if moved := !slices.Equal(h[2*hid:3*hid], h0[2*hid:3*hid]); moved != c.moves {
			t.Errorf("a token changed at position %d: row 2 moved %v, want %v", c.pos, moved, c.moves)
		}
	}
	if _, err := hiddenRows(t, m, base[4:], 4); !errors.Is(err, model.ErrBatch) {
		t.Errorf("a sequence from position 4 gave %v, want ErrBatch", err)
	}
}

// TestProject checks that the Dense modules project a pooled embedding
// through their width back to the hidden size.
func TestProject(t *testing.T) {
	m := embeddingGemma(t)
	if len(m.Dense) != 2 {
		t.Fatalf("%d dense projections, want 2", len(m.Dense))
	}
	v := make([]float32, m.Config.HiddenSize)
	for i := range v {
		v[i] = float32(i%5) - 2
	}
	out := m.Project(v)
	if len(out) != len(v) || slices.Equal(out, v) {
		t.Errorf("Project gave %v for %v", out, v)
	}
}
