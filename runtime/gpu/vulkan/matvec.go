package vulkan

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/mlxrun/mlx/runtime/gpu/shaders"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// ErrUnsupported is wrapped by MatVec's error for a weight format that has
// no kernel on the device yet.
var ErrUnsupported = errors.New("not implemented on the GPU")

// rowsPerGroup is the workgroup size of the kernels, one row per
// invocation.
const rowsPerGroup = 64

// maxGroupsX is the number of workgroups a dispatch's first dimension is
// guaranteed to allow; more go in the second. Tests lower it to reach the
// second dimension with small matrices.
var maxGroupsX = 65535

// MatVec computes matrix–vector products on a Device. Each weight matrix is
// uploaded once, in its stored format, on its first product, and kept until
// Close; the input and output vectors are copied per call.
type MatVec struct {
	dev     *Device
	mu      sync.Mutex
	kernels map[kernels.DType]*Kernel
	weights map[*kernels.Matrix]*Buffer
	x, y    *Buffer
}

// Formats lists the weight formats MatVec has kernels for.
func Formats() []kernels.DType { return []kernels.DType{kernels.F16, kernels.Q8_0} }

// NewMatVec builds the matrix–vector kernels on d.
func NewMatVec(d *Device) (*MatVec, error) {
	m := &MatVec{dev: d, kernels: map[kernels.DType]*Kernel{}, weights: map[*kernels.Matrix]*Buffer{}}
	for t, spv := range map[kernels.DType][]byte{kernels.F16: shaders.MatVecF16, kernels.Q8_0: shaders.MatVecQ8_0} {
		k, err := d.NewKernel(spv, 3, 2)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("matrix–vector kernel for %v: %w", t, err)
		}
		m.kernels[t] = k
	}
	return m, nil
}

// Supports reports whether t has a kernel.
func (m *MatVec) Supports(t kernels.DType) bool { return m.kernels[t] != nil }

// MatVec computes out[r] = Σ_k W[r,k]·x[k] for the rows of w, with the
// float32 activations (the weights are dequantised in the kernel).
func (m *MatVec) MatVec(w *kernels.Matrix, x, out []float32) error {
	k := m.kernels[w.Type]
	if k == nil {
		return fmt.Errorf("%w: matrix–vector product of %v weights", ErrUnsupported, w.Type)
	}
	if len(x) < w.Cols || len(out) < w.Rows {
		return fmt.Errorf("%w: %v %d×%d with len(x)=%d, len(out)=%d", ErrVulkan, w.Type, w.Rows, w.Cols, len(x), len(out))
	}
	if uint64(len(w.Data)) > maxBuffer || w.Rows > math.MaxUint32 || w.Cols > math.MaxUint32 {
		return fmt.Errorf("%w: %v %d×%d is larger than one buffer", ErrVulkan, w.Type, w.Rows, w.Cols)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	wb, err := m.upload(w)
	if err != nil {
		return err
	}
	if m.x, err = m.grow(m.x, 4*w.Cols); err != nil {
		return err
	}
	if m.y, err = m.grow(m.y, 4*w.Rows); err != nil {
		return err
	}
	copy(m.x.Bytes(), floatBytes(x[:w.Cols]))
	groups := (w.Rows + rowsPerGroup - 1) / rowsPerGroup
	gx := uint32(min(groups, maxGroupsX))
	gy := uint32((groups + maxGroupsX - 1) / maxGroupsX)
	if err := m.dev.Run(k, []*Buffer{wb, m.x, m.y}, []uint32{uint32(w.Rows), uint32(w.Cols)}, gx, gy); err != nil {
		return err
	}
	copy(floatBytes(out[:w.Rows]), m.y.Bytes())
	return nil
}

// upload returns w's buffer, making it on first use.
func (m *MatVec) upload(w *kernels.Matrix) (*Buffer, error) {
	if b := m.weights[w]; b != nil {
		return b, nil
	}
	b, err := m.dev.NewBuffer(len(w.Data))
	if err != nil {
		return nil, fmt.Errorf("upload of %v %d×%d: %w", w.Type, w.Rows, w.Cols, err)
	}
	copy(b.Bytes(), w.Data)
	m.weights[w] = b
	return b, nil
}

// grow returns b, or a new buffer when b is smaller than size bytes.
func (m *MatVec) grow(b *Buffer, size int) (*Buffer, error) {
	if b != nil && len(b.Bytes()) >= size {
		return b, nil
	}
	b.Free()
	return m.dev.NewBuffer(size)
}

// Close frees the kernels and every uploaded matrix.
func (m *MatVec) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range m.kernels {
		k.Free()
	}
	for _, b := range m.weights {
		b.Free()
	}
	m.x.Free()
	m.y.Free()
	m.kernels, m.weights, m.x, m.y = nil, nil, nil, nil
}

// floatBytes views f as its bytes (the kernels read little-endian floats,
// the byte order of every target mlx builds for).
func floatBytes(f []float32) []byte {
	if len(f) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), 4*len(f))
}
