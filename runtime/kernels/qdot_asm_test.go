package kernels

import (
	"fmt"
	"testing"
)

// TestQDotKernelsMatchReference compares every quantized dot kernel in use
// with the reference: 1 to 300+ columns in whole blocks, 1 to 4 activation
// rows, weight and activation bytes starting at unaligned offsets, and guard
// values around the outputs.
func TestQDotKernelsMatchReference(t *testing.T) {
	requireFast(t)
	rng := newRand(23)
	for _, typ := range quantTypes {
		be := typ.blockElems()
		a := typ.act()
		for nb := 1; nb*be <= 320 || nb <= 2; nb++ {
			cols := nb * be
			for _, off := range []int{0, 1, 3, 7} {
				t.Run(fmt.Sprintf("%v/cols=%d/off=%d", typ, cols, off), func(t *testing.T) {
					wm := randomMatrix(t, rng, typ, 1, cols)
					w := append(make([]byte, off), wm.Data...)[off:]
					xs := a.rowBytes(cols) + off // a stride that is not a block multiple
					xq := make([]byte, off+4*xs)[off:]
					x := randFloats(rng, 4*cols, 1)
					for i := range 4 {
						refImpls.quantize[a](xq[i*xs:], x[i*cols:(i+1)*cols])
					}
					wf := dequantMatrix(wm)
					for nrows := 1; nrows <= 4; nrows++ {
						got, check := guarded(nrows, off)
						fastImpls.qdot[typ](w, xq, xs, got)
						check(t)
						want := make([]float32, nrows)
						refImpls.qdot[typ](w, xq, xs, want)
						for i := range want {
							scale := absSum(wf, dequantAct(a, xq[i*xs:], cols))
							if !closeTo(float64(got[i]), float64(want[i]), scale, 1e-5) {
								t.Fatalf("rows=%d row %d: %v, reference %v", nrows, i, got[i], want[i])
							}
						}
					}
				})
			}
		}
	}
}
