package kernels

import (
	"math"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/gguf"
)

// decodeTensor decodes a whole tensor of f with Decode.
func decodeTensor(t *testing.T, f *gguf.File, ti *gguf.TensorInfo) []float32 {
	t.Helper()
	typ, ok := FromGGML(uint32(ti.Type))
	if !ok {
		t.Fatalf("%s: no kernel format for %v", ti.Name, ti.Type)
	}
	out := make([]float32, ti.Elements())
	if err := Decode(typ, f.TensorData(ti), out); err != nil {
		t.Fatalf("%s: %v", ti.Name, err)
	}
	return out
}

// quantBound is the largest error llama.cpp's reference quantizer can make
// on one block of original values w (see quantize_row_*_ref): Q8_0 rounds
// to a step of amax/127, Q4_0 to a step of amax/8 with the top value
// clipped one step; both store the step as F16 (relative error 2⁻¹¹).
func quantBound(typ DType, w []float32) float64 {
	var amax float64
	for _, x := range w {
		amax = math.Max(amax, math.Abs(float64(x)))
	}
	const f16 = 1.0 / 2048
	switch typ {
	case F32:
		return 0
	case F16:
		return amax*f16 + 0x1p-25 // round to nearest: relative error 2⁻¹¹, subnormal step 2⁻²⁴
	case Q8_0:
		return amax / 127 * (0.5 + 127*f16) * 1.001
	case Q4_0:
		return amax / 8 * (1 + 8*f16) * 1.001
	}
	return math.Inf(1)
}

// TestDecodeAgainstF32 dequantizes every tensor of the F16, Q8_0 and
// Q4_0 llama-tiny files and compares it with the F32 original, block by
// block, against the quantizer's error bound.
func TestDecodeAgainstF32(t *testing.T) {
	ref := openGGUF(t, "llama-tiny-F32.gguf")
	for _, file := range []string{"llama-tiny-F16", "llama-tiny-Q8_0", "llama-tiny-Q4_0"} {
		f := openGGUF(t, file+".gguf")
		worst := map[gguf.TensorType]float64{} // largest relative RMS error per type
		for i := range f.Tensors {
			ti := &f.Tensors[i]
			rt, ok := ref.Tensor(ti.Name)
			if !ok || rt.Elements() != ti.Elements() {
				t.Fatalf("%s: %s has no F32 twin", file, ti.Name)
			}
			got, want := decodeTensor(t, f, ti), decodeTensor(t, ref, rt)
			typ, _ := FromGGML(uint32(ti.Type))
			bs := typ.blockElems()
			for b := 0; b < len(want); b += bs {
				bound := quantBound(typ, want[b:b+bs])
				for j := b; j < b+bs; j++ {
					if d := math.Abs(float64(got[j] - want[j])); d > bound {
						t.Fatalf("%s %s [%d]: %g, want %g ± %g", file, ti.Name, j, got[j], want[j], bound)
					}
				}
			}
			worst[ti.Type] = math.Max(worst[ti.Type], relRMS(got, want))
		}
		t.Logf("%s: worst relative RMS error per type: %v", file, worst)
	}
}

// relRMS is ‖a-b‖/‖b‖.
func relRMS(a, b []float32) float64 {
	var num, den float64
	for i := range a {
		d := float64(a[i] - b[i])
		num += d * d
		den += float64(b[i]) * float64(b[i])
	}
	return math.Sqrt(num / den)
}

// moments returns the mean and standard deviation.
func moments(x []float32) (mean, std float64) {
	for _, v := range x {
		mean += float64(v)
	}
	mean /= float64(len(x))
	for _, v := range x {
		std += (float64(v) - mean) * (float64(v) - mean)
	}
	return mean, math.Sqrt(std / float64(len(x)))
}

// generatorMoments is the distribution the fixture generator drew a
// llama-k256 tensor from (testdata README): embeddings N(0, (2.5/√hidden)²),
// linear layers N(0, (2/√fan_in)²), RMSNorm weights 1 + N(0, 0.1²).
func generatorMoments(ti *gguf.TensorInfo, hidden int) (mean, std float64) {
	switch {
	case ti.Name == "token_embd.weight":
		return 0, 2.5 / math.Sqrt(float64(hidden))
	case strings.HasSuffix(ti.Name, "norm.weight"):
		return 1, 0.1
	}
	return 0, 2 / math.Sqrt(float64(ti.Dims[0]))
}

// k256Hidden is the hidden size of llama-k256 (testdata README).
const k256Hidden = 256

// TestDecodeKQuants checks the llama-k256 K-quant files: each tensor's
// dequantized values must follow the generator's distribution, and the
// Q4_K_M and Q6_K dequantizations of the same tensor must agree to within
// 4-bit quantization noise.
func TestDecodeKQuants(t *testing.T) {
	q6 := openGGUF(t, "llama-k256-Q6_K.gguf")
	q4 := openGGUF(t, "llama-k256-Q4_K_M.gguf")
	worst := map[gguf.TensorType]float64{}
	for i := range q6.Tensors {
		t6 := &q6.Tensors[i]
		t4, ok := q4.Tensor(t6.Name)
		if !ok {
			t.Fatalf("%s missing from Q4_K_M", t6.Name)
		}
		a, b := decodeTensor(t, q6, t6), decodeTensor(t, q4, t4)
		wantMean, wantStd := generatorMoments(t6, k256Hidden)
		mean, std := moments(a)
		n := float64(len(a))
		if math.Abs(std/wantStd-1) > 4/math.Sqrt(2*n)+0.01 || math.Abs(mean-wantMean) > 5*wantStd/math.Sqrt(n)+0.005*wantStd {
			t.Errorf("%s (%s): mean %.4f std %.4f, generator drew mean %.4f std %.4f", t6.Name, t6.Type, mean, std, wantMean, wantStd)
		}
		diff := relRMS(b, a)
		worst[t4.Type] = math.Max(worst[t4.Type], diff)
		if t4.Type == t6.Type && diff != 0 {
			t.Errorf("%s: both %s but they differ (%g)", t6.Name, t6.Type, diff)
		}
		if diff > 0.1 {
			t.Errorf("%s: %s vs %s relative RMS difference %.4f", t6.Name, t4.Type, t6.Type, diff)
		}
	}
	t.Logf("worst relative RMS difference from the Q6_K file, by Q4_K_M tensor type: %v", worst)
}
