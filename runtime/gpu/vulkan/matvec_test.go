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

// openMatVec opens the device and its matrix–vector kernels, or skips.
func openMatVec(t *testing.T) *MatVec {
	t.Helper()
	mv, err := NewMatVec(openDevice(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mv.Close)
	return mv
}

// randomMatrix makes a rows × cols matrix of type t with random weights.
func randomMatrix(t *testing.T, r *rand.Rand, typ kernels.DType, rows, cols int) *kernels.Matrix {
	t.Helper()
	var data []byte
	switch typ {
	case kernels.F16:
		f := make([]float32, rows*cols)
		for i := range f {
			f[i] = float32(r.NormFloat64())
		}
		h := make([]uint16, len(f))
		kernels.F32ToF16(h, f)
		data = make([]byte, 2*len(h))
		for i, v := range h {
			binary.LittleEndian.PutUint16(data[2*i:], v)
		}
	case kernels.Q8_0:
		nb := rows * cols / 32
		data = make([]byte, 34*nb)
		for b := range nb {
			h := []uint16{0}
			kernels.F32ToF16(h, []float32{float32(r.Float64()*0.02 + 0.001)})
			binary.LittleEndian.PutUint16(data[34*b:], h[0])
			for i := range 32 {
				data[34*b+2+i] = byte(int8(r.IntN(255) - 127))
			}
		}
	}
	m, err := kernels.NewMatrix(kernels.Matrix{Type: typ, Rows: rows, Cols: cols, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMatVecMatchesCPU checks the GPU products against the float64 sums of
// the dequantised rows, and against the CPU kernels (which quantize the
// activations of Q8_0 to 8 bits, so they agree less closely).
func TestMatVecMatchesCPU(t *testing.T) {
	mv := openMatVec(t)
	pool := kernels.NewPool(2)
	defer pool.Close()
	r := rand.New(rand.NewPCG(1, 2))
	// The last shape has its workgroups in both dimensions of the dispatch.
	shapes := []struct{ rows, cols, maxX int }{{1, 32, 65535}, {7, 64, 65535}, {300, 576, 65535}, {1000, 64, 3}}
	defer func(n int) { maxGroupsX = n }(maxGroupsX)
	for _, typ := range Formats() {
		for _, s := range shapes {
			maxGroupsX = s.maxX
			w := randomMatrix(t, r, typ, s.rows, s.cols)
			x := make([]float32, s.cols)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			got := make([]float32, s.rows)
			if err := mv.MatVec(w, x, got); err != nil {
				t.Fatalf("%v %d×%d: %v", typ, s.rows, s.cols, err)
			}
			cpu := make([]float32, s.rows)
			pool.MatMul(w, x, 1, cpu)
			row := make([]float32, s.cols)
			var worst, worstCPU float64
			for i := range s.rows {
				w.Row(i, row)
				var want, scale float64
				for k, v := range row {
					want += float64(v) * float64(x[k])
					scale += math.Abs(float64(v) * float64(x[k]))
				}
				worst = max(worst, math.Abs(float64(got[i])-want)/(scale+1e-6))
				worstCPU = max(worstCPU, math.Abs(float64(got[i])-float64(cpu[i]))/(scale+1e-6))
			}
			if worst > 1e-5 {
				t.Errorf("%v %d×%d: relative error %.3g against the float64 sum", typ, s.rows, s.cols, worst)
			}
			if worstCPU > 1e-2 {
				t.Errorf("%v %d×%d: relative difference %.3g from the CPU kernel", typ, s.rows, s.cols, worstCPU)
			}
		}
	}
}

// TestMatVecReusesUpload checks that a matrix is uploaded once and that a
// format without a kernel gets ErrUnsupported.
func TestMatVecReusesUpload(t *testing.T) {
	mv := openMatVec(t)
	r := rand.New(rand.NewPCG(3, 4))
	w := randomMatrix(t, r, kernels.Q8_0, 16, 64)
	x, out := make([]float32, 64), make([]float32, 16)
	for range 3 {
		if err := mv.MatVec(w, x, out); err != nil {
			t.Fatal(err)
		}
	}
	if len(mv.weights) != 1 {
		t.Errorf("%d uploads of one matrix, want 1", len(mv.weights))
	}
	f32, err := kernels.NewMatrix(kernels.Matrix{Type: kernels.F32, Rows: 1, Cols: 4, Data: make([]byte, 16)})
	if err != nil {
		t.Fatal(err)
	}
	if err := mv.MatVec(f32, x, out); !errors.Is(err, ErrUnsupported) {
		t.Errorf("F32 matrix: %v, want ErrUnsupported", err)
	}
}
