package kernels

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDotLanesOrder checks the order of DotLanes on sums that other
// orders round otherwise: lane 0 keeps the low bits of a product that a
// separate multiply would round away (a fused multiply-add), and lanes 0,
// 4 and 2 add as (l0+l4) + (l2+l6), which loses the 1 that a sum from the
// left keeps.
func TestDotLanesOrder(t *testing.T) {
	e := float32(1 + 0x1p-12)
	for _, c := range []struct {
		name string
		a, b []float32
		want float32
	}{
		{"fused", []float32{-1, 0, 0, 0, 0, 0, 0, 0, e, 0, 0, 0, 0, 0, 0, 0}, []float32{1, 0, 0, 0, 0, 0, 0, 0, e, 0, 0, 0, 0, 0, 0, 0}, 0x1p-11 + 0x1p-24},
		{"lanes", []float32{1e8, 0, -1e8, 0, 1, 0, 0, 0}, []float32{1, 1, 1, 1, 1, 1, 1, 1}, 0},
	} {
		for _, ref := range []bool{false, true} {
			SetReference(ref)
			if got := DotLanes(c.a, c.b); got != c.want {
				t.Errorf("%s (reference %v): %g, want %g", c.name, ref, got, c.want)
			}
		}
		SetReference(false)
	}
}

// TestDotLanesKernels checks the assembly of DotLanes and ScoresF16Seq
// bit for bit against their reference code, and that an F32 matrix with
// GGMLSums multiplies (also split into parts) as DotLanes sums.
func TestDotLanesKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vec := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	for _, n := range []int{8, 64, 96, 768} {
		a, b := vec(n), vec(n)
		if got, want := DotLanes(a, b), dotLanesRef(a, b); got != want {
			t.Errorf("DotLanes of %d: %g, reference %g", n, got, want)
		}
	}
	for _, hd := range []int{16, 64} {
		for _, n := range []int{5, 8, 37, 64} {
			q, k := vec(hd), make([]uint16, hd*64)
			F32ToF16(k, vec(hd*64))
			got, want := make([]float32, n), make([]float32, n)
			ScoresF16Seq(got, q, k, 64)
			scoresF16SeqRef(want, q, k, 64)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("ScoresF16Seq hd %d n %d: score %d %g, reference %g", hd, n, i, got[i], want[i])
				}
			}
		}
	}
	rows, cols, n := 24, 64, 3
	w, x := vec(rows*cols), vec(n*cols)
	data := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
	}
	m, err := NewMatrix(Matrix{Type: F32, Rows: rows, Cols: cols, Data: data, GGMLSums: true})
	if err != nil {
		t.Fatal(err)
	}
	parts, err := m.SplitRows(8, 16)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(2)
	defer p.Close()
	out := make([]float32, n*rows)
	p.MatMul(m, x, n, out)
	for i := range n {
		for r := range rows {
			if want := DotLanes(w[r*cols:(r+1)*cols], x[i*cols:(i+1)*cols]); out[i*rows+r] != want {
				t.Fatalf("MatMul row %d, output %d: %g, DotLanes %g", i, r, out[i*rows+r], want)
			}
		}
	}
	if !parts[0].GGMLSums || !parts[1].GGMLSums {
		t.Error("SplitRows drops GGMLSums")
	}
}

// TestExpShiftGGML checks ggml's exp against math.Exp (within 2 units in
// the last place on softmax inputs, 0 for −Inf) and the grouping of its
// sum: lanes of one group add in float32, groups in float64.
func TestExpShiftGGML(t *testing.T) {
	for x := float32(-87); x <= 0; x += 0.0137 {
		got, want := expGGML(x), math.Exp(float64(x))
		if math.Abs(float64(got)-want) > 2*want*0x1p-23 {
			t.Fatalf("expGGML(%g) = %g, e^x = %g", x, got, want)
		}
	}
	if got := expGGML(float32(math.Inf(-1))); got != 0 {
		t.Errorf("expGGML(-Inf) = %g", got)
	}
	small := float32(-30 * math.Ln2)
	one := ExpShiftGGML([]float32{0, small}, 0, 0)
	two := ExpShiftGGML([]float32{0, small}, 0, 7)
	if tiny := float64(expGGML(small)); one != 1 || two != 1+tiny {
		t.Errorf("one group: sum %g, want 1; two groups: %g, want %g", one, two, 1+tiny)
	}
}

// TestExpShiftGGMLKernel checks the assembly of ExpShiftGGML bit for bit
// against the reference code, on softmax inputs, on ones far enough below
// the maximum to take ggml's large-|x| path, and on −Inf, from every lane.
func TestExpShiftGGMLKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := make([]float32, 203)
	for i := range x {
		x[i] = float32(-rng.ExpFloat64() * 20)
		if i%17 == 3 {
			x[i] = float32(-90 - rng.Float64()*60)
		}
	}
	x[50] = float32(math.Inf(-1))
	for lane := range 8 {
		for _, n := range []int{1, 7, 8, 64, 203} {
			got, want := append([]float32(nil), x[:n]...), append([]float32(nil), x[:n]...)
			gs := ExpShiftGGML(got, 0.5, lane)
			SetReference(true)
			ws := ExpShiftGGML(want, 0.5, lane)
			SetReference(false)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("lane %d n %d: e^(%g) = %g, reference %g", lane, n, x[i]-0.5, got[i], want[i])
				}
			}
			if gs != ws {
				t.Fatalf("lane %d n %d: sum %g, reference %g", lane, n, gs, ws)
			}
		}
	}
}

// TestLayerNormGGML checks the float32 LayerNorm against the float64 one.
func TestLayerNormGGML(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{13, 64, 384} {
		x, w, b := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], w[i], b[i] = float32(rng.NormFloat64()*3+1), float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		got, want := make([]float32, n), make([]float32, n)
		LayerNormGGML(got, x, w, b, 1e-5)
		LayerNorm(want, x, w, b, 1e-5)
		for i := range got {
			if math.Abs(float64(got[i]-want[i])) > 1e-5 {
				t.Fatalf("n %d: element %d %g, float64 LayerNorm %g", n, i, got[i], want[i])
			}
		}
	}
}
