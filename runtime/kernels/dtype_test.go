package kernels

import (
	"testing"

	"github.com/mlxrun/mlx/models/gguf"
)

// TestFormatsMatchGGUF checks the kernels' table of formats against the gguf
// package's table of ggml types: the same names and block geometry, and
// FromGGML finding each format by its number.
func TestFormatsMatchGGUF(t *testing.T) {
	for d, f := range formats {
		if f.ggml < 0 {
			if DType(d) != MLXAffine {
				t.Errorf("%v has no ggml type", DType(d))
			}
			continue
		}
		gt := gguf.TensorType(f.ggml)
		if gt.String() != f.name || gt.BlockSize() != f.elems || gt.TypeSize() != f.bytes {
			t.Errorf("%v: %d values in %d bytes, gguf says %v: %d in %d", DType(d), f.elems, f.bytes, gt, gt.BlockSize(), gt.TypeSize())
		}
		if got, ok := FromGGML(uint32(f.ggml)); !ok || got != DType(d) {
			t.Errorf("FromGGML(%d) = %v, %v", f.ggml, got, ok)
		}
	}
	for _, n := range []uint32{9, 10, 15, 20, 28, 1000} { // Q8_1, Q2_K, Q8_K, IQ4_NL, F64, unknown
		if d, ok := FromGGML(n); ok {
			t.Errorf("FromGGML(%d) = %v, want no kernel format", n, d)
		}
	}
	if q8K != gguf.TypeQ8_K.TypeSize() || q8_1 != gguf.TypeQ8_1.TypeSize() {
		t.Errorf("activation blocks: Q8_K %d, Q8_1 %d bytes; gguf says %d, %d", q8K, q8_1, gguf.TypeQ8_K.TypeSize(), gguf.TypeQ8_1.TypeSize())
	}
}
