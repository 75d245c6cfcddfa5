package kernels

import "testing"

// packedTypes are the weight formats with packed tile kernels.
var packedTypes = []DType{Q4_0, Q8_0, Q4_K, Q6_K, MXFP4}

// kPackedCases covers, for the K-quants, partial groups of rows, one to
// four super-blocks and activation counts around the four-column tiles
// (a last tile one row short is padded), with few activation rows and with
// many (more than groupOuterRows).
var kPackedCases = []packedCase{
	{1, 256, 1}, {3, 512, 2}, {4, 256, 4}, {5, 768, 5}, {7, 256, 9},
	{13, 1024, 8}, {37, 512, 6}, {6, 512, 3}, {9, 768, 7}, {5, 512, 19},
}

// packedCasesFor returns the tile kernel test shapes of typ.
func packedCasesFor(typ DType) []packedCase {
	if typ.blockElems() == qkK {
		return kPackedCases
	}
	return packedCases
}

// TestPackedKNoAlloc checks that a K-quant matmul (decode and prefill
// shapes, both formats sharing one input) allocates nothing once the pool's
// scratch space has grown.
func TestPackedKNoAlloc(t *testing.T) {
	rng := newRand(46)
	p := NewPool(2)
	defer p.Close()
	ws := []*Matrix{randomMatrix(t, rng, Q4_K, 64, 512), randomMatrix(t, rng, Q6_K, 32, 512)}
	for _, n := range []int{1, 5} {
		x := randFloats(rng, n*512, 1)
		outs := [][]float32{make([]float32, n*64), make([]float32, n*32)}
		p.MatMuls(ws, x, n, outs)
		if a := testing.AllocsPerRun(20, func() { p.MatMuls(ws, x, n, outs) }); a != 0 {
			t.Errorf("n=%d: %v allocations per MatMuls", n, a)
		}
	}
}

// TestPackedKQuantBytes checks that the packed Q4_K and Q6_K layouts read
// hardly more bytes than the stored blocks, since a decode step is bound by
// reading the weights: the scales stay halves, and only Q4_K's 6-bit scales
// and mins take a byte each (16 bytes per row and super-block, stored in 12).
func TestPackedKQuantBytes(t *testing.T) {
	for typ, extra := range map[DType]int{Q4_K: 4, Q6_K: 0} {
		if got, want := kGroupBytes(typ), groupRows*(typ.blockBytes()+extra); got != want {
			t.Errorf("%v: a packed group of %d rows takes %d bytes per super-block, want %d", typ, groupRows, got, want)
		}
	}
}
