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

// ErrUnsupported is wrapped by MatMul's error for a weight format that has
// no kernel on the device yet.
var ErrUnsupported = errors.New("not implemented on the GPU")

// groupSize is the workgroup size of the kernels (index.glsl).
const groupSize = 64

// maxGroupsX is the number of workgroups a dispatch's first dimension is
// guaranteed to allow; more go in the second. Tests lower it to reach the
// second dimension with small matrices.
var maxGroupsX = 65535

// Activation roundings: the block formats' products take the activations
// rounded to ggml's 8-bit grid, as the CPU kernels quantize them.
const (
	actFloat = iota // float32 activations as they are
	actQ8_0         // Q8_0 blocks of 32 (for Q8_0 and Q4_0 weights)
	actQ8_K         // Q8_K blocks of 256 (for the K-quants)
)

// kernelSources are the matrix kernels of the weight formats and the
// rounding of their activations, in the order Formats lists them.
var kernelSources = []struct {
	t   kernels.DType
	spv []byte
	act int
}{
	{kernels.F32, shaders.MatMulF32, actFloat},
	{kernels.F16, shaders.MatMulF16, actFloat},
	{kernels.BF16, shaders.MatMulBF16, actFloat},
	{kernels.Q8_0, shaders.MatMulQ8_0, actQ8_0},
	{kernels.Q4_0, shaders.MatMulQ4_0, actQ8_0},
	{kernels.Q4_K, shaders.MatMulQ4_K, actQ8_K},
	{kernels.Q6_K, shaders.MatMulQ6_K, actQ8_K},
}

// actBlock is the values per block of each activation rounding.
var actBlock = [...]int{actQ8_0: 32, actQ8_K: 256}

// Formats lists the weight formats MatMul has kernels for.
func Formats() []kernels.DType {
	ts := make([]kernels.DType, len(kernelSources))
	for i, s := range kernelSources {
		ts[i] = s.t
	}
	return ts
}

// MatMul computes products of weight matrices with one or more vectors on a
// Device: the matrix–vector products of decoding and the matrix–matrix ones
// of prompt chunks and batches. Each weight matrix is uploaded once, in its
// stored format, on its first product, and kept until Close; the input and
// output vectors are copied per call. The activations of the block formats
// are rounded on the device, in the same command buffer, to the 8-bit
// values the CPU kernels quantize them to, so both sum the same products.
type MatMul struct {
	dev     *Device
	mu      sync.Mutex
	kernels map[kernels.DType]*Kernel
	acts    map[kernels.DType]int
	round   [3]*Kernel // by activation rounding; nil for actFloat
	weights map[*kernels.Matrix]*Buffer
	x, y    *Buffer
}

// NewMatMul builds the matrix kernels on d.
func NewMatMul(d *Device) (*MatMul, error) {
	m := &MatMul{dev: d, kernels: map[kernels.DType]*Kernel{}, acts: map[kernels.DType]int{}, weights: map[*kernels.Matrix]*Buffer{}}
	for _, s := range kernelSources {
		k, err := d.NewKernel(s.spv, 3, 3)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("matrix kernel for %v: %w", s.t, err)
		}
		m.kernels[s.t], m.acts[s.t] = k, s.act
	}
	for act, spv := range map[int][]byte{actQ8_0: shaders.QuantQ8_0, actQ8_K: shaders.QuantQ8_K} {
		k, err := d.NewKernel(spv, 1, 1)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("activation kernel: %w", err)
		}
		m.round[act] = k
	}
	return m, nil
}

// Supports reports whether t has a kernel.
func (m *MatMul) Supports(t kernels.DType) bool { return m.kernels[t] != nil }

// maxVectors bounds n in one MatMul call so that the input and output
// buffers stay within maxBuffer.
func maxVectors(w *kernels.Matrix) int { return maxBuffer / 4 / max(w.Rows, w.Cols) }

// MatMul computes out[i*w.Rows + r] = Σ_k W[r,k]·x[i*w.Cols + k] for i < n;
// the weights are dequantised in the kernel.
func (m *MatMul) MatMul(w *kernels.Matrix, x []float32, n int, out []float32) error {
	k := m.kernels[w.Type]
	if k == nil {
		return fmt.Errorf("%w: product of %v weights", ErrUnsupported, w.Type)
	}
	if w.Cols%32 != 0 {
		return fmt.Errorf("%w: %v %d×%d: the kernels take whole blocks of 32 columns", ErrUnsupported, w.Type, w.Rows, w.Cols)
	}
	if n < 1 || len(x) < n*w.Cols || len(out) < n*w.Rows {
		return fmt.Errorf("%w: %v %d×%d with n=%d, len(x)=%d, len(out)=%d", ErrVulkan, w.Type, w.Rows, w.Cols, n, len(x), len(out))
	}
	if uint64(len(w.Data)) > maxBuffer || w.Rows > math.MaxUint32 || w.Cols > math.MaxUint32 || n > maxVectors(w) {
		return fmt.Errorf("%w: %v %d×%d with n=%d is larger than one buffer", ErrVulkan, w.Type, w.Rows, w.Cols, n)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	wb, err := m.upload(w)
	if err != nil {
		return err
	}
	if m.x, err = m.grow(m.x, 4*n*w.Cols); err != nil {
		return err
	}
	if m.y, err = m.grow(m.y, 4*n*w.Rows); err != nil {
		return err
	}
	copy(m.x.Bytes(), floatBytes(x[:n*w.Cols]))
	var ds []Dispatch
	if act := m.acts[w.Type]; act != actFloat {
		blocks := n * w.Cols / actBlock[act]
		gx, gy := groups(blocks)
		ds = append(ds, Dispatch{Kernel: m.round[act], Bufs: []*Buffer{m.x}, Push: []uint32{uint32(blocks)}, GX: gx, GY: gy})
	}
	gx, gy := groups(w.Rows)
	ds = append(ds, Dispatch{Kernel: k, Bufs: []*Buffer{wb, m.x, m.y}, Push: []uint32{uint32(w.Rows), uint32(w.Cols), uint32(n)}, GX: gx, GY: gy})
	if err := m.dev.Run(ds...); err != nil {
		return err
	}
	copy(floatBytes(out[:n*w.Rows]), m.y.Bytes())
	return nil
}

// upload returns w's buffer, making it on first use.
func (m *MatMul) upload(w *kernels.Matrix) (*Buffer, error) {
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
func (m *MatMul) grow(b *Buffer, size int) (*Buffer, error) {
	if b != nil && len(b.Bytes()) >= size {
		return b, nil
	}
	b.Free()
	return m.dev.NewBuffer(size)
}

// Close frees the kernels and every uploaded matrix.
func (m *MatMul) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range m.kernels {
		k.Free()
	}
	for _, k := range m.round {
		k.Free()
	}
	for _, b := range m.weights {
		b.Free()
	}
	m.x.Free()
	m.y.Free()
	m.kernels, m.weights, m.x, m.y = nil, nil, nil, nil
	m.round = [3]*Kernel{}
}

// floatBytes views f as its bytes (the kernels read little-endian floats,
// the byte order of every target mlx builds for).
func floatBytes(f []float32) []byte {
	if len(f) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&f[0])), 4*len(f))
}
