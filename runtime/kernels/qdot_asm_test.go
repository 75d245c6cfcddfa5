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
						refKernels.quantize[a](xq[i*xs:], x[i*cols:(i+1)*cols])
					}
					wf := dequantMatrix(wm)
					for nrows := 1; nrows <= 4; nrows++ {
						got, check := guarded(nrows, off)
						fastKernels.qdot[typ](w, xq, xs, got)
						check(t)
						want := make([]float32, nrows)
						refKernels.qdot[typ](w, xq, xs, want)
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

// TestQuantizeKernelsMatchReference checks the activation quantizers in use
// byte for byte against the reference, with guard bytes after the output.
func TestQuantizeKernelsMatchReference(t *testing.T) {
	requireFast(t)
	rng := newRand(24)
	for _, a := range []actKind{actQ8_0, actQ8_1, actQ8_K, actPair} {
		for cols := 0; cols <= 1024; cols += 32 {
			if a == actQ8_K && cols%qkK != 0 {
				continue
			}
			for _, off := range []int{0, 1, 5} {
				x := randFloats(rng, cols+off, 1+rng.Float64()*100)[off:]
				if cols >= 64 {
					clear(x[32:64]) // a zero block
					x[3] = 1e-30
				}
				n := a.rowBytes(cols)
				got := make([]byte, off+n+guard)
				for i := range got {
					got[i] = 0xa5
				}
				fastKernels.quantize[a](got[off:off+n], x)
				want := make([]byte, n)
				refKernels.quantize[a](want, x)
				if string(got[off:off+n]) != string(want) {
					t.Fatalf("act %d cols=%d off=%d: quantized bytes differ from the reference", a, cols, off)
				}
				for i, v := range got {
					if (i < off || i >= off+n) && v != 0xa5 {
						t.Fatalf("act %d cols=%d off=%d: byte %d outside the output was written", a, cols, off, i-off)
					}
				}
			}
		}
	}
}

// TestAffineGroupsKernelsMatchReference checks the MLX group sums in use
// against the reference for both bit widths and every group size.
func TestAffineGroupsKernelsMatchReference(t *testing.T) {
	requireFast(t)
	rng := newRand(25)
	for _, bits := range []int{4, 8} {
		for _, gsize := range []int{32, 64, 128} {
			for groups := 0; groups*gsize <= 640; groups++ {
				for _, off := range []int{0, 3} {
					cols := groups * gsize
					row := make([]byte, off+cols*bits/8)[off:]
					for i := range row {
						row[i] = byte(rng.Uint32())
					}
					x := randFloats(rng, cols+off, 1)[off:]
					got, check := guarded(groups, off)
					fastKernels.affineGroups(row, bits, x, gsize, got)
					check(t)
					want := make([]float32, groups)
					affineGroupsRef(row, bits, x, gsize, want)
					for g := range want {
						var scale float64
						for _, v := range x[g*gsize : (g+1)*gsize] {
							scale += 15 * float64(max(v, -v)) * float64(bits*bits/16)
						}
						if !closeTo(float64(got[g]), float64(want[g]), scale, 1e-6) {
							t.Fatalf("bits=%d gsize=%d groups=%d: group %d = %v, reference %v", bits, gsize, groups, g, got[g], want[g])
						}
					}
				}
			}
		}
	}
}
