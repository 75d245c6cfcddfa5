package model

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// TestRoute checks both routers against their definitions on one set of
// logits: the experts picked and their weights.
func TestRoute(t *testing.T) {
	logits := []float32{0.5, 2, -1, 1.5, 0}
	probs := make([]float64, len(logits))
	var sum float64
	for i, l := range logits {
		probs[i] = math.Exp(float64(l))
		sum += probs[i]
	}
	e1, e3 := math.Exp(2.0), math.Exp(1.5)
	tests := []struct {
		r    Router
		norm bool
		want []float64
	}{
		{SoftmaxTopK, false, []float64{probs[1] / sum, probs[3] / sum}},
		{SoftmaxTopK, true, []float64{probs[1] / (probs[1] + probs[3]), probs[3] / (probs[1] + probs[3])}},
		{TopKSoftmax, false, []float64{e1 / (e1 + e3), e3 / (e1 + e3)}},
	}
	for _, tt := range tests {
		choice, weight := make([]int32, 2), make([]float32, 2)
		route(tt.r, tt.norm, slices.Clone(logits), choice, weight)
		if !slices.Equal(choice, []int32{1, 3}) {
			t.Errorf("router %d norm %v: experts %v, want [1 3]", tt.r, tt.norm, choice)
		}
		for j := range weight {
			if math.Abs(float64(weight[j])-tt.want[j]) > 1e-6 {
				t.Errorf("router %d norm %v: weights %v, want %v", tt.r, tt.norm, weight, tt.want)
				break
			}
		}
	}
}

// TestRouteGap checks the lead of the chosen experts over the others.
func TestRouteGap(t *testing.T) {
	tests := []struct {
		logits []float32
		k      int
		want   float32
	}{
		{[]float32{0.5, 2, -1, 1.5, 0}, 2, 1},
		{[]float32{0.5, 2, -1, 1.5, 0}, 1, 0.5},
		{[]float32{1, 3, 3, 0}, 1, 0},
		{[]float32{-0.25, -0.5}, 2, float32(math.Inf(1))},
	}
	for _, tt := range tests {
		if got := routeGap(tt.logits, make([]int32, tt.k)); got != tt.want {
			t.Errorf("routeGap(%v, k=%d) = %v, want %v", tt.logits, tt.k, got, tt.want)
		}
	}
}

// TestMoERouteTies checks that RouteTies counts the rows whose experts a
// router picks between equal logits, and none of a router of random rows.
func TestMoERouteTies(t *testing.T) {
	m, l := testMoEModel(t, false)
	pool := kernels.NewPool(2)
	t.Cleanup(pool.Close)
	s, err := m.NewState(pool, 8, 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	x := randFloats(rand.New(rand.NewPCG(5, 5)), 8*m.Config.HiddenSize)
	copy(s.xn, x)
	s.moe(l, 8)
	if got := s.RouteTies(); got != 0 {
		t.Fatalf("random router: %d ties, want 0", got)
	}
	flat, err := kernels.NewMatrix(kernels.Matrix{Type: kernels.F32, Rows: l.Router.Rows, Cols: l.Router.Cols,
		Data: make([]byte, 4*l.Router.Rows*l.Router.Cols)})
	if err != nil {
		t.Fatal(err)
	}
	l.Router = flat
	copy(s.xn, x)
	s.moe(l, 8)
	if got := s.RouteTies(); got != 8 {
		t.Errorf("router of equal rows: %d ties after 8 rows, want 8", got)
	}
}

// TestMoEDirect checks the grouped mixture against a direct computation,
// row by row over the chosen experts, with and without a shared expert, for
// one row, a batch of decode rows and a prefill chunk.
func TestMoEDirect(t *testing.T) {
	for _, shared := range []bool{false, true} {
		m, l := testMoEModel(t, shared)
		pool := kernels.NewPool(2)
		t.Cleanup(pool.Close)
		s, err := m.NewState(pool, 24, 1, 64)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 8, 24} {
			t.Run(fmt.Sprintf("shared=%v/rows=%d", shared, n), func(t *testing.T) {
				hid := m.Config.HiddenSize
				x := randFloats(rand.New(rand.NewPCG(uint64(n), 7)), n*hid)
				copy(s.xn, x)
				s.moe(l, n)
				for i := range n {
					want := directMoE(m, l, x[i*hid:(i+1)*hid])
					for j, w := range want {
						if got := s.xn[i*hid+j]; math.Abs(float64(got)-w) > 1e-4*(1+math.Abs(w)) {
							t.Fatalf("row %d value %d: %v, want %v", i, j, got, w)
						}
					}
				}
			})
		}
	}
}

// offered records the matrices an offload is offered and takes none.
type offered map[*kernels.Matrix]int

func (o offered) MatMul(w *kernels.Matrix, _ []float32, _ int, _ []float32) bool {
	o[w]++
	return false
}

// TestMoERouterStaysOnCPU checks that a GPU offload is offered the
// experts' products but never the router's, whose top-k must pick the
// experts the CPU path picks.
func TestMoERouterStaysOnCPU(t *testing.T) {
	m, l := testMoEModel(t, true)
	pool := kernels.NewPool(2)
	t.Cleanup(pool.Close)
	off := offered{}
	pool.SetOffload(off)
	s, err := m.NewState(pool, 8, 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 8} {
		copy(s.xn, randFloats(rand.New(rand.NewPCG(uint64(n), 3)), n*m.Config.HiddenSize))
		s.moe(l, n)
	}
	if off[l.Router] != 0 {
		t.Errorf("the router's product was offered to the offload %d times", off[l.Router])
	}
	if off[l.Shared.Gate] == 0 {
		t.Error("the shared expert's products were not offered to the offload")
	}
}

// directMoE computes the mixture of one row in float64, from the
// definition: each chosen expert's SwiGLU MLP, weighted, plus the shared
// expert scaled by the sigmoid of its gate.
func directMoE(m *Model, l *MoE, x []float32) []float64 {
	c := m.Config
	e := c.MoE.Experts
	logits := make([]float32, e)
	for r := range e {
		logits[r] = float32(dot(row(l.Router, r), x))
	}
	choice, weight := make([]int32, c.MoE.TopK), make([]float32, c.MoE.TopK)
	route(m.Blocks.Router, m.Blocks.NormTopK, logits, choice, weight)
	out := make([]float64, c.HiddenSize)
	for j, ex := range choice {
		addMLP(out, &l.Experts[ex], x, float64(weight[j]))
	}
	if l.Shared != nil {
		g := 1 / (1 + math.Exp(-dot(l.SharedGate, x)))
		addMLP(out, l.Shared, x, g)
	}
	return out
}

// addMLP adds w·Down(silu(Gate·x)·(Up·x)) to out.
func addMLP(out []float64, ex *Expert, x []float32, w float64) {
	h := make([]float32, ex.Gate.Rows)
	for r := range h {
		g, u := dot(row(ex.Gate, r), x), dot(row(ex.Up, r), x)
		h[r] = float32(g / (1 + math.Exp(-g)) * u)
	}
	for r := range out {
		out[r] += w * dot(row(ex.Down, r), h)
	}
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func row(w *kernels.Matrix, r int) []float32 {
	v := make([]float32, w.Cols)
	w.Row(r, v)
	return v
}

func randFloats(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// testMoEModel returns a model of one sparse layer of 6 experts, top 2
// renormalised, with F32 weights, and that layer's mixture.
func testMoEModel(t testing.TB, shared bool) (*Model, *MoE) {
	t.Helper()
	sf := 0
	if shared {
		sf = 24
	}
	return newTestMoE(t, moeShape{hidden: 32, experts: 6, topK: 2, ff: 16, sharedFF: sf}, kernels.F32)
}

// moeShape is the shape of a test mixture; sharedFF 0 is none; pack: the
// experts are packed once in use, as a bound model's are.
type moeShape struct {
	hidden, experts, topK, ff, sharedFF int
	pack                                bool
}

// newTestMoE returns a model of one sparse layer of the given shape, its
// experts in type typ (F32 or Q8_0) and the router in F32, with random
// weights, and that layer's mixture.
func newTestMoE(t testing.TB, sh moeShape, typ kernels.DType) (*Model, *MoE) {
	t.Helper()
	hid, ff := sh.hidden, sh.ff
	cfg := &config.Model{HiddenSize: hid, Heads: 1, KVHeads: 1, HeadDim: 32, RopeDim: 32, FFNSize: ff, VocabSize: 8,
		Layers: 1, RMSNormEps: 1e-6, RopeTheta: 10000, ContextLength: 64,
		MoE: config.MoE{Experts: sh.experts, TopK: sh.topK, FFNSize: ff, NormTopK: true, SharedFFNSize: sh.sharedFF}}
	m := &Model{Config: cfg, Blocks: Blocks{Router: SoftmaxTopK, NormTopK: true, SharedExpert: sh.sharedFF > 0}}
	rng := rand.New(rand.NewPCG(1, 2))
	mat := func(typ kernels.DType, rows, cols int) *kernels.Matrix {
		var data []byte
		if typ == kernels.Q8_0 {
			// blocks of a half-precision scale (1/64) and 32 random bytes
			data = make([]byte, rows*cols/32*34)
			for b := 0; b < len(data); b += 34 {
				binary.LittleEndian.PutUint16(data[b:], 0x2400)
				for j := b + 2; j < b+34; j++ {
					data[j] = byte(rng.Uint32())
				}
			}
		} else {
			data = make([]byte, 4*rows*cols)
			for i := range rows * cols {
				binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(rng.NormFloat64()*0.3)))
			}
		}
		w, err := kernels.NewMatrixUnpacked(kernels.Matrix{Type: typ, Rows: rows, Cols: cols, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	l := &MoE{Router: mat(kernels.F32, sh.experts, hid)}
	for range sh.experts {
		l.Experts = append(l.Experts, Expert{Gate: mat(typ, ff, hid), Up: mat(typ, ff, hid), Down: mat(typ, hid, ff)})
	}
	if sf := sh.sharedFF; sf > 0 {
		l.Shared = &Expert{Gate: mat(typ, sf, hid), Up: mat(typ, sf, hid), Down: mat(typ, hid, sf)}
		l.SharedGate = randFloats(rng, hid)
	}
	if sh.pack {
		l.packOnce = make([]sync.Once, sh.experts)
	}
	m.Layers = []Layer{{MoE: l, HeadDim: 32, KVHeads: 1}}
	return m, l
}

// TestMoEPackInUse checks that the experts are packed the first time a
// token is routed to them, and only those, and that the packed experts
// give the results of the unpacked ones.
func TestMoEPackInUse(t *testing.T) {
	sh := moeShape{hidden: 64, experts: 8, topK: 2, ff: 32}
	m, plain := newTestMoE(t, sh, kernels.Q8_0)
	sh.pack = true
	_, packed := newTestMoE(t, sh, kernels.Q8_0)
	pool := kernels.NewPool(2)
	t.Cleanup(pool.Close)
	s, err := m.NewState(pool, 4, 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	n, hid := 2, sh.hidden
	x := randFloats(rand.New(rand.NewPCG(5, 6)), n*hid)
	run := func(l *MoE) []float32 {
		copy(s.xn, x)
		s.moe(l, n)
		return slices.Clone(s.xn[:n*hid])
	}
	want, got := run(plain), run(packed)
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-4*(1+math.Abs(float64(want[i]))) {
			t.Fatalf("value %d: packed %v, unpacked %v", i, got[i], want[i])
		}
	}
	probe, err := kernels.NewMatrix(*plain.Experts[0].Gate)
	if err != nil {
		t.Fatal(err)
	}
	canPack := probe.Packed()
	used := map[int32]bool{}
	for _, x := range s.moeS.choice[:n*sh.topK] {
		used[x] = true
	}
	for x, e := range packed.Experts {
		if e.Gate.Packed() != (canPack && used[int32(x)]) || plain.Experts[x].Gate.Packed() {
			t.Errorf("expert %d (used %v): packed %v, want %v", x, used[int32(x)], e.Gate.Packed(), canPack && used[int32(x)])
		}
	}
}

// TestMoEBatchMatchesRows checks that a batch of rows through a mixture of
// packed experts, each expert computing the rows routed to it together
// with every other expert's in one operation of the pool, gives every row
// the bits it gets alone: a decode step of several sequences gives each
// the output of its own step.
func TestMoEBatchMatchesRows(t *testing.T) {
	sh := moeShape{hidden: 64, experts: 6, topK: 2, ff: 64, pack: true}
	m, l := newTestMoE(t, sh, kernels.Q8_0)
	pool := kernels.NewPool(3)
	t.Cleanup(pool.Close)
	s, err := m.NewState(pool, 24, 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	hid := sh.hidden
	for _, n := range []int{8, 24} {
		x := randFloats(rand.New(rand.NewPCG(uint64(n), 9)), n*hid)
		copy(s.xn, x)
		s.moe(l, n)
		batch := slices.Clone(s.xn[:n*hid])
		for i := range n {
			copy(s.xn, x[i*hid:(i+1)*hid])
			s.moe(l, 1)
			for j := range hid {
				if got, want := batch[i*hid+j], s.xn[j]; math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("%d rows: row %d value %d: %v in the batch, %v alone", n, i, j, got, want)
				}
			}
		}
	}
}
