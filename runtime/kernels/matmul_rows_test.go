package kernels

import (
	"fmt"
	"math"
	"testing"
)

// TestMatMulRowsMatchesMatMul checks that MatMulRows gives every product
// the bits of a MatMul of the product's own rows, for products of one to
// five rows (one-, two- and wide-column tiles, a padded one) and none,
// packed and not, in one pool of several threads and alone.
func TestMatMulRowsMatchesMatMul(t *testing.T) {
	rng := newRand(46)
	const cols, n = 256, 14
	ranges := [][2]int{{0, 1}, {1, 3}, {3, 3}, {3, 6}, {6, 10}, {10, 14}, {2, 7}}
	for _, typ := range []DType{MXFP4, Q4_0, Q8_0, Q4_K, F32} {
		for _, threads := range []int{1, 3} {
			t.Run(fmt.Sprintf("%v/threads=%d", typ, threads), func(t *testing.T) {
				p := NewPool(threads)
				defer p.Close()
				x := randFloats(rng, n*cols, 1)
				var ps []RowProduct
				for i, r := range ranges {
					w := randomMatrix(t, rng, typ, 40+8*i, cols)
					ps = append(ps, RowProduct{W: w, R0: r[0], R1: r[1], Out: make([]float32, (r[1]-r[0])*w.Rows)})
				}
				p.MatMulRows(x, n, ps)
				for i, pr := range ps {
					m := pr.R1 - pr.R0
					if m == 0 {
						continue
					}
					want := make([]float32, m*pr.W.Rows)
					p.MatMul(pr.W, x[pr.R0*cols:pr.R1*cols], m, want)
					for k, v := range want {
						if math.Float32bits(pr.Out[k]) != math.Float32bits(v) {
							t.Fatalf("product %d (rows [%d, %d)), out[%d] = %v, MatMul gives %v", i, pr.R0, pr.R1, k, pr.Out[k], v)
						}
					}
				}
			})
		}
	}
}

// TestMatMulRowsRejectsBadRanges checks that a product outside the rows
// panics with a message, rather than reading past them.
func TestMatMulRowsRejectsBadRanges(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	w := randomMatrix(t, newRand(47), Q8_0, 8, 64)
	for _, r := range [][2]int{{-1, 1}, {0, 3}, {2, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("rows [%d, %d) of 2 did not panic", r[0], r[1])
				}
			}()
			p.MatMulRows(make([]float32, 2*64), 2, []RowProduct{{W: w, R0: r[0], R1: r[1], Out: make([]float32, 64)}})
		}()
	}
}
