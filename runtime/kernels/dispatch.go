package kernels

import (
	"sync/atomic"
	"unsafe"
)

// kernelSet is one complete set of kernel implementations. The reference set is
// plain Go; the fast set starts as a copy of it and the architecture files
// replace entries with assembly at init, depending on the CPU.
type kernelSet struct {
	name string

	dot          func(a, b []float32) float32
	dotLanes     func(a, b []float32) float32                      // DotLanes
	scoresF16Seq func(dst, q []float32, k []uint16, stride int)    // ScoresF16Seq
	expShiftGGML func(x []float32, m float32, sum float64) float64 // ExpShiftGGML on whole groups of 8
	dotF16       func(a []uint16, b []float32) float32
	dotBF16      func(a []uint16, b []float32) float32
	axpy         func(alpha float32, x, y []float32)
	axpyF16      func(alpha float32, x []uint16, y []float32)
	f16ToF32     func(dst []float32, src []uint16)
	f32ToF16     func(dst []uint16, src []float32)
	siluMul      func(gate, up []float32)
	exp          func(x []float32)
	// expShift sets x[i] = e^(x[i]-m) and returns their sum (Softmax).
	expShift func(x []float32, m float32) float64

	// Attention over a cache block (attn.go); compose builds those that
	// an architecture file leaves nil.
	scoresF16 func(dst, q []float32, k []uint16, stride int)
	scoresF32 func(dst, q []float32, k []float32, stride int)
	accumF16  func(dst, p []float32, v []uint16, stride int)
	accumF32  func(dst, p []float32, v []float32, stride int)
	axpyHalf  func(alpha float32, x, y []uint16)
	accumHalf func(acc []uint16, p []float32, v []uint16, stride int)
	scaleHalf func(y []uint16, s float32)
	// Attention over Q8_0 and Q4_0 cache rows (kvquant.go), indexed by
	// format - Q8_0; compose builds those left nil.
	scoresQ [2]func(dst []float32, rows int, q, k []byte, hd int)
	accumQ  [2]func(dst, p []float32, v []byte)
	decodeQ [2]func(dst []float32, src []byte)

	// affineGroups sets out[g] to the dot product of group g of a packed
	// MLX row (bits per value, gsize values per group) with x.
	affineGroups func(row []byte, bits int, x []float32, gsize int, out []float32)
	// affineRow4BF16 is the whole dot product of a 4-bit MLX row with BF16
	// scales and biases (what affineGroups then affineCombine give, summed
	// in another order); nil without assembly.
	affineRow4BF16 func(row []byte, x []float32, gsize int, sc, bi []uint16, xsum []float32) float32

	// quantize converts one activation row to its 8-bit block form.
	quantize [actPairQ8x8 + 1]func(dst []byte, src []float32)
	// qdot holds, per weight format, the dot products of one weight row with
	// len(out) ≤ 4 quantized activation rows spaced xstride bytes apart.
	qdot [MLXAffine + 1]func(w, x []byte, xstride int, out []float32)
	// gemm holds, per weight format, the tile kernels of packed weights
	// (none in the reference set).
	gemm [layoutQ8x8 + 1]gemmSet
	// half holds the tile kernels of F16 and BF16 weights (gemmhalf.go);
	// zero in the reference set.
	half [2]halfSet

	// The bias term of repacked MLX matrices (affine_bias.go):
	// affineBias16x4 is nil without assembly.
	affineBias     biasKernel[float32]
	affineBias16   biasKernel[uint16]
	affineBias16x4 func(b []uint16, xsum []float32, nblk int, out []float32, ostride int)
	// groupSums sets out[g] to the sum of the gsize values of group g of x
	// (the activations' side of the bias term).
	groupSums func(x []float32, gsize int, out []float32)
	// prefetchRows asks for rows runs of n > 0 bytes, the first at p,
	// stride bytes apart, in the cache without waiting for them (a no-op
	// without an instruction for it).
	prefetchRows func(p unsafe.Pointer, rows, n, stride int)
}

// refKernels is the reference set; fastKernels the set chosen for this CPU,
// under the cap of Cap if any.
var (
	refKernels  = newRefKernelSet()
	fastKernels = buildKernelSet(detectedLevel())
	current     atomic.Pointer[kernelSet]
)

func init() {
	refKernels.compose()
	current.Store(&fastKernels)
}

// buildKernelSet returns the kernels of instruction-set level lvl (an index in
// archLevels): the reference ones with the assembly of that level and
// those below it. Level 0 still gets the few kernels that need no more
// than the platform's baseline ("go").
func buildKernelSet(lvl int) kernelSet {
	k := newRefKernelSet()
	k.name = "go"
	if lvl > 0 {
		k.name = archLevels[lvl]
	}
	initArch(&k, lvl) // per-architecture file
	k.compose()
	return k
}

func impl() *kernelSet { return current.Load() }

// SetReference forces the plain Go reference kernels (on = true) or restores
// the fastest ones for this CPU under the cap of Cap (on = false). It is meant to be called once at
// start-up (the cli maps an environment variable to it); calls racing with
// running kernels are safe but give mixed results.
func SetReference(on bool) {
	if on {
		current.Store(&refKernels)
	} else {
		current.Store(&fastKernels)
	}
}

// Implementation names the kernels in use: "reference" (SetReference),
// "generic" (Cap), "go" (no assembly for this CPU or build), or the
// instruction-set level of the assembly ("avx2", "avx512vnni", "dotprod",
// ...).
func Implementation() string { return impl().name }

func newRefKernelSet() kernelSet {
	return kernelSet{
		name:         "reference",
		dot:          dotRef,
		dotLanes:     dotLanesRef,
		scoresF16Seq: scoresF16SeqRef,
		expShiftGGML: expShiftGGMLRef,
		dotF16:       dotF16Ref,
		dotBF16:      dotBF16Ref,
		axpy:         axpyRef,
		axpyF16:      axpyF16Ref,
		f16ToF32:     f16ToF32Ref,
		f32ToF16:     f32ToF16Ref,
		siluMul:      siluMulRef,
		exp:          expRef,
		expShift:     expShiftRef,

		affineGroups: affineGroupsRef,
		affineBias:   affineBiasRef[float32],
		affineBias16: affineBiasRef[uint16],
		groupSums:    groupSumsRef,
		prefetchRows: func(unsafe.Pointer, int, int, int) {},
		quantize: [actPairQ8x8 + 1]func([]byte, []float32){
			actQ8_0:     quantizeQ8_0Ref,
			actQ8_1:     quantizeQ8_1Ref,
			actQ8_K:     quantizeQ8_KRef,
			actPair:     quantizePairsRef,
			actPairQ8x8: summedPairs(quantizePairsRef),
			actQ8_KP:    quantizeKPRef,
		},
		qdot: [MLXAffine + 1]func(w, x []byte, xstride int, out []float32){
			Q8_0:  qdotQ8_0Ref,
			Q4_0:  qdotQ4_0Ref,
			Q4_1:  qdotQ4_1Ref,
			Q5_0:  qdotQ5_0Ref,
			Q5_1:  qdotQ5_1Ref,
			Q4_K:  qdotQ4_KRef,
			Q5_K:  qdotQ5_KRef,
			Q6_K:  qdotQ6_KRef,
			MXFP4: qdotMXFP4Ref,
		},
	}
}
