package vulkan

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// openDevice opens the Vulkan device or skips; with MLX_REQUIRE_VULKAN set
// (as CI does, with lavapipe installed) a missing device fails the test.
func openDevice(t *testing.T) *Device {
	t.Helper()
	d, err := Open()
	if err != nil {
		if os.Getenv("MLX_REQUIRE_VULKAN") != "" {
			t.Fatalf("MLX_REQUIRE_VULKAN is set: %v", err)
		}
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("Open: %v, want an error wrapping ErrUnavailable", err)
		}
		t.Skipf("no Vulkan device: %v", err)
	}
	t.Cleanup(d.Close)
	info := d.Info()
	t.Logf("device %q (%v, %d MiB device-local)", info.Name, info.Type, info.Memory>>20)
	return d
}

// openMatMul opens the device and its matrix kernels, or skips.
func openMatMul(t *testing.T) *MatMul {
	t.Helper()
	mm, err := NewMatMul(openDevice(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mm.Close)
	return mm
}

// putHalf writes v as an IEEE half at b.
func putHalf(b []byte, v float64) {
	h := []uint16{0}
	kernels.F32ToF16(h, []float32{float32(v)})
	binary.LittleEndian.PutUint16(b, h[0])
}

// blocks are the weights and bytes of a block of each block format.
var blocks = map[kernels.DType][2]int{kernels.Q8_0: {32, 34}, kernels.Q4_0: {32, 18}, kernels.Q4_K: {256, 144}, kernels.Q6_K: {256, 210}}

// randomMatrix makes a rows × cols matrix of type typ with random weights:
// random bytes for the block formats, with scales of the sizes real models
// have.
func randomMatrix(t *testing.T, r *rand.Rand, typ kernels.DType, rows, cols int) *kernels.Matrix {
	t.Helper()
	var data []byte
	switch typ {
	case kernels.F32, kernels.F16, kernels.BF16:
		size := map[kernels.DType]int{kernels.F32: 4, kernels.F16: 2, kernels.BF16: 2}[typ]
		data = make([]byte, size*rows*cols)
		for i := range rows * cols {
			v := float32(r.NormFloat64())
			switch typ {
			case kernels.F32:
				binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(v))
			case kernels.F16:
				putHalf(data[2*i:], float64(v))
			case kernels.BF16:
				binary.LittleEndian.PutUint16(data[2*i:], uint16(math.Float32bits(v)>>16))
			}
		}
	default:
		blk := blocks[typ]
		elems, bytes := blk[0], blk[1]
		data = make([]byte, rows*cols/elems*bytes)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		for o := 0; o < len(data); o += bytes {
			switch typ {
			case kernels.Q8_0, kernels.Q4_0:
				putHalf(data[o:], 0.001+r.Float64()*0.02)
			case kernels.Q4_K:
				putHalf(data[o:], 0.001+r.Float64()*0.02)
				putHalf(data[o+2:], r.Float64()*0.02)
			case kernels.Q6_K:
				putHalf(data[o+208:], 0.001+r.Float64()*0.002)
			}
		}
	}
	m, err := kernels.NewMatrix(kernels.Matrix{Type: typ, Rows: rows, Cols: cols, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// roundActs is what the device does to the activations of typ's products,
// written plainly: the block formats' activations are rounded to the values
// of ggml's Q8_0 (blocks of 32, a half scale amax/127) or Q8_K (blocks of
// 256, the value of largest magnitude at -127) blocks.
func roundActs(typ kernels.DType, x []float32) []float32 {
	out := append([]float32(nil), x...)
	blk, ok := map[kernels.DType]int{kernels.Q8_0: 32, kernels.Q4_0: 32, kernels.Q4_K: 256, kernels.Q6_K: 256}[typ]
	if !ok {
		return out
	}
	for o := 0; o < len(x); o += blk {
		b := out[o : o+blk]
		var amax, big float32
		for _, v := range b {
			if a := float32(math.Abs(float64(v))); a > amax {
				amax, big = a, v
			}
		}
		if amax == 0 {
			continue
		}
		scale, d := 127/amax, amax/127
		if blk == 256 {
			scale = -127 / big
			d = 1 / scale
		} else {
			h := []uint16{0}
			kernels.F32ToF16(h, []float32{d})
			f := []float32{0}
			kernels.F16ToF32(f, h)
			d = f[0]
		}
		for i, v := range b {
			b[i] = d * float32(min(127, math.RoundToEven(float64(v*scale))))
		}
	}
	return out
}

// TestMatMulMatchesCPU checks the GPU products, of one vector and of
// several, against the float64 sums of the dequantised rows with the
// activations rounded as roundActs says, and against the CPU kernels, which
// quantize the activations of the block formats the same way: within 1e-5
// of Σ|w·x| both.
func TestMatMulMatchesCPU(t *testing.T) {
	mm := openMatMul(t)
	pool := kernels.NewPool(2)
	defer pool.Close()
	r := rand.New(rand.NewPCG(1, 2))
	// The shape with maxX 3 has its workgroups in both dimensions of the
	// dispatch; n 11 is more than one tile of vectors.
	shapes := []struct{ rows, cols, n, maxX int }{{1, 256, 1, 65535}, {7, 512, 3, 65535}, {300, 768, 11, 65535}, {1000, 256, 2, 3}}
	defer func(n int) { maxGroupsX = n }(maxGroupsX)
	for _, typ := range Formats() {
		for _, s := range shapes {
			maxGroupsX = s.maxX
			w := randomMatrix(t, r, typ, s.rows, s.cols)
			x := make([]float32, s.n*s.cols)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			got := make([]float32, s.n*s.rows)
			if err := mm.MatMul(w, x, s.n, got); err != nil {
				t.Fatalf("%v %d×%d n=%d: %v", typ, s.rows, s.cols, s.n, err)
			}
			cpu := make([]float32, s.n*s.rows)
			pool.MatMul(w, x, s.n, cpu)
			row := make([]float32, s.cols)
			xr := roundActs(typ, x)
			var worst, worstCPU float64
			for i := range s.rows {
				w.Row(i, row)
				for v := range s.n {
					xv := xr[v*s.cols : (v+1)*s.cols]
					var want, scale float64
					for k, wk := range row {
						want += float64(wk) * float64(xv[k])
						scale += math.Abs(float64(wk) * float64(xv[k]))
					}
					g := float64(got[v*s.rows+i])
					worst = max(worst, math.Abs(g-want)/(scale+1e-6))
					worstCPU = max(worstCPU, math.Abs(g-float64(cpu[v*s.rows+i]))/(scale+1e-6))
				}
			}
			if worst > 1e-5 || math.IsNaN(worst) {
				t.Errorf("%v %d×%d n=%d: relative error %.3g against the float64 sum", typ, s.rows, s.cols, s.n, worst)
			}
			if worstCPU > 1e-5 || math.IsNaN(worstCPU) {
				t.Errorf("%v %d×%d n=%d: relative difference %.3g from the CPU kernel", typ, s.rows, s.cols, s.n, worstCPU)
			}
		}
	}
}

// TestMatMulReusesUpload checks that a matrix is uploaded once, that a
// format without a kernel, or rows that are not whole blocks of 32, get
// ErrUnsupported, and that bad sizes get an error.
func TestMatMulReusesUpload(t *testing.T) {
	mm := openMatMul(t)
	r := rand.New(rand.NewPCG(3, 4))
	w := randomMatrix(t, r, kernels.Q8_0, 16, 64)
	x, out := make([]float32, 2*64), make([]float32, 2*16)
	for n := range 3 {
		if err := mm.MatMul(w, x, 1+n%2, out); err != nil {
			t.Fatal(err)
		}
	}
	if len(mm.weights) != 1 {
		t.Errorf("%d uploads of one matrix, want 1", len(mm.weights))
	}
	if err := mm.MatMul(w, x, 3, out); !errors.Is(err, ErrVulkan) {
		t.Errorf("three vectors in room for two: %v, want ErrVulkan", err)
	}
	q5, err := kernels.NewMatrix(kernels.Matrix{Type: kernels.Q5_0, Rows: 1, Cols: 32, Data: make([]byte, 22)})
	if err != nil {
		t.Fatal(err)
	}
	if err := mm.MatMul(q5, x, 1, out); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Q5_0 matrix: %v, want ErrUnsupported", err)
	}
	narrow := randomMatrix(t, r, kernels.BF16, 4, 16)
	if err := mm.MatMul(narrow, x, 1, out); !errors.Is(err, ErrUnsupported) {
		t.Errorf("BF16 4×16 matrix: %v, want ErrUnsupported", err)
	}
}
