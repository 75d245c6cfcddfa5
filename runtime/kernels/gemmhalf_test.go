package kernels

import (
	"fmt"
	"math"
	"testing"
)

// withHalf runs f with the kernels in use but the half tile kernels of
// sets (F16, BF16).
func withHalf(t *testing.T, sets [2]halfSet, f func()) {
	t.Helper()
	k := fastKernels
	k.half = sets
	current.Store(&k)
	defer current.Store(&fastKernels)
	f()
}

func TestHalfGemmAgainstFloat(t *testing.T) {
	rng := newRand(16)
	shapes := []struct{ rows, cols int }{{1, 16}, {5, 16}, {7, 48}, {37, 96}, {70, 64}, {9, 8}, {13, 24}, {6, 20}}
	for name, sets := range halfTestSets() {
		for _, typ := range []DType{F16, BF16} {
			for _, sh := range shapes {
				w := randomMatrix(t, rng, typ, sh.rows, sh.cols)
				wf := dequantMatrix(w)
				for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 40} {
					t.Run(fmt.Sprintf("%s/%v/%dx%d/n=%d", name, typ, sh.rows, sh.cols, n), func(t *testing.T) {
						x := randFloats(rng, n*sh.cols, 1)
						var outs [2][]float32
						withHalf(t, sets, func() {
							for i, threads := range []int{1, 3} {
								outs[i] = make([]float32, n*sh.rows+1)
								outs[i][n*sh.rows] = 12345
								p := NewPool(threads)
								p.MatMul(w, x, n, outs[i])
								p.Close()
								if outs[i][n*sh.rows] != 12345 {
									t.Fatal("MatMul wrote past n*Rows")
								}
							}
						})
						checkMatMul(t, w, wf, x, n, outs[0], matmulBound(typ))
						for k := range outs[0] {
							if outs[0][k] != outs[1][k] {
								t.Fatalf("out[%d] = %v with 1 thread, %v with 3 (chunks must not change a result)", k, outs[0][k], outs[1][k])
							}
						}
					})
				}
			}
		}
	}
}

func TestHalfGemmTileIndependent(t *testing.T) {
	rng := newRand(17)
	const rows, cols = 11, 64
	for name, sets := range halfTestSets() {
		for i, typ := range []DType{F16, BF16} {
			t.Run(fmt.Sprintf("%s/%v", name, typ), func(t *testing.T) {
				hs := &sets[i]
				w := randomMatrix(t, rng, typ, rows, cols)
				wd := asU16(w.Data)
				x := randFloats(rng, 9*cols, 1)
				tiled := make([]float32, 9*halfRows)
				halfTiles(hs, &wd[0], cols, x, 0, 9, cols, tiled, halfRows)
				outs := map[string][]float32{"tile": tiled}
				if hs.wide != nil {
					wf := make([]float32, halfRows*cols)
					F16ToF32(wf, wd[:halfRows*cols])
					outs["wide"] = make([]float32, 9*halfRows)
					wideTiles(hs, wf, x, 0, 9, cols, outs["wide"], halfRows)
				}
				single := make([]float32, halfRows)
				for c := range 9 {
					hs.one(&wd[0], cols, &x[c*cols], cols, &single[0], 1)
					for r, v := range single {
						for kind, out := range outs {
							if got := out[c*halfRows+r]; got != v {
								t.Fatalf("row %d, activation %d: %v in a %s tile, %v alone", r, c, got, kind, v)
							}
						}
					}
				}
			})
		}
	}
}

// BenchmarkHalfGemm reports GFLOP/s of one-thread F16/BF16 prefill matmuls
// with the tile kernels in use (tiles) and without them (rows).
func BenchmarkHalfGemm(b *testing.B) {
	rng := newRand(18)
	for _, typ := range []DType{F16, BF16} {
		for _, s := range []struct{ rows, cols, n int }{{1536, 576, 128}, {576, 1536, 128}, {3072, 1024, 128}, {1024, 3072, 128}} {
			w := randomMatrix(b, rng, typ, s.rows, s.cols)
			x := randFloats(rng, s.n*s.cols, 1)
			out := make([]float32, s.n*s.rows)
			for _, mode := range []string{"tiles", "rows"} {
				b.Run(fmt.Sprintf("%v/%dx%d/n=%d/%s", typ, s.rows, s.cols, s.n, mode), func(b *testing.B) {
					k := fastKernels
					if mode == "rows" {
						k.half = [2]halfSet{}
					}
					current.Store(&k)
					defer current.Store(&fastKernels)
					p := NewPool(1)
					defer p.Close()
					b.ResetTimer()
					for range b.N {
						p.MatMul(w, x, s.n, out)
					}
					b.ReportMetric(float64(2*s.rows*s.cols*s.n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}

// TestHalfDecodeOwned checks that one activation row over F16 or BF16
// weights is an owned job of halfOwnChunk-byte chunks, and several rows a
// job of chunkRows' chunks taken in turn.
func TestHalfDecodeOwned(t *testing.T) {
	const rows, cols = 4096, 64
	p := NewPool(2)
	defer p.Close()
	for _, typ := range []DType{F16, BF16} {
		w := randomMatrix(t, newRand(19), typ, rows, cols)
		for _, c := range []struct {
			n, chunk int
			owned    bool
		}{{1, halfOwnChunk / (cols * 2), true}, {2, chunkRows(rows, 2), false}} {
			p.startJob(w, make([]float32, c.n*cols), c.n, current.Load())
			if got, want := p.addPart(w, make([]float32, c.n*rows), 0, c.n, 0), rows/c.chunk; got != want {
				t.Errorf("%v, %d activation rows: %d chunks, want %d", typ, c.n, got, want)
			}
			if got := p.mm.ownable(); got != c.owned {
				t.Errorf("%v, %d activation rows: ownable = %v, want %v", typ, c.n, got, c.owned)
			}
		}
		p.mm.parts = nil
	}
}

// TestHalfDecodeOwnedSameResults runs one activation row over two F16 or
// BF16 matrices (one job of two parts) in small owned chunks on 1, 2 and 3
// threads, so that ranges cross parts and workers take from each other's
// ranges, and wants the same bits each time, close to the float product.
func TestHalfDecodeOwnedSameResults(t *testing.T) {
	defer func(c int) { halfOwnChunk = c }(halfOwnChunk)
	halfOwnChunk = 8 << 10
	rng := newRand(23)
	const cols = 1024
	for _, typ := range []DType{F16, BF16} {
		ws := []*Matrix{randomMatrix(t, rng, typ, 4099, cols), randomMatrix(t, rng, typ, 517, cols)}
		x := randFloats(rng, cols, 1)
		var first [][]float32
		for _, threads := range []int{1, 2, 3} {
			p := NewPool(threads)
			for call := range 3 {
				outs := [][]float32{make([]float32, 4099), make([]float32, 517)}
				for _, o := range outs {
					for r := range o {
						o[r] = float32(math.NaN()) // a chunk not run stays NaN
					}
				}
				p.MatMuls(ws, x, 1, outs)
				if first == nil {
					first = outs
					for i, w := range ws {
						checkMatMul(t, w, dequantMatrix(w), x, 1, outs[i], matmulBound(typ))
					}
					continue
				}
				for i := range outs {
					for r := range outs[i] {
						if outs[i][r] != first[i][r] {
							t.Fatalf("%v, %d threads, call %d: matrix %d row %d = %v, %v with 1 thread", typ, threads, call, i, r, outs[i][r], first[i][r])
						}
					}
				}
			}
			p.Close()
		}
	}
}
