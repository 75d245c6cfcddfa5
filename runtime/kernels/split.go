package kernels

import "fmt"

// SplitRows returns the matrices of consecutive row ranges of m, of the
// given row counts, which must add up to m.Rows: a fused projection (Phi-3's
// qkv_proj, gate_up_proj) as its parts. The parts share m's stored data;
// each is prepared for the kernels as NewMatrix does.
func (m *Matrix) SplitRows(counts ...int) ([]*Matrix, error) {
	total := 0
	for _, c := range counts {
		if c <= 0 {
			return nil, fmt.Errorf("%w: %v %d×%d: split into %v rows", ErrMatrix, m.Type, m.Rows, m.Cols, counts)
		}
		total += c
	}
	if total != m.Rows {
		return nil, fmt.Errorf("%w: %v %d×%d: split into %v rows, which add up to %d", ErrMatrix, m.Type, m.Rows, m.Cols, counts, total)
	}
	out := make([]*Matrix, len(counts))
	rb, r0 := m.rowBytes(), 0
	sb := 0
	if m.Type == MLXAffine {
		sb = m.Cols / m.GroupSize * m.ScaleType.blockBytes()
	}
	for i, c := range counts {
		part := Matrix{Type: m.Type, Rows: c, Cols: m.Cols, Data: m.Data[r0*rb : (r0+c)*rb],
			Bits: m.Bits, GroupSize: m.GroupSize, ScaleType: m.ScaleType, HalfActs: m.HalfActs, GGMLSums: m.GGMLSums}
		if m.Type == MLXAffine {
			part.Scales, part.Biases = m.Scales[r0*sb:(r0+c)*sb], m.Biases[r0*sb:(r0+c)*sb]
		}
		p, err := NewMatrix(part)
		if err != nil {
			return nil, err
		}
		out[i], r0 = p, r0+c
	}
	return out, nil
}

// PickRows returns a copy of the given rows of m, in their order, stored as
// m stores them (with m's HalfActs and GGMLSums), unpacked: the rows of "yes" and "no"
// of an output matrix as a reranker's head, which then computes as m does.
func (m *Matrix) PickRows(rows ...int) (*Matrix, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: %v %d×%d: no rows picked", ErrMatrix, m.Type, m.Rows, m.Cols)
	}
	rb, sb := m.rowBytes(), 0
	if m.Type == MLXAffine {
		sb = m.Cols / m.GroupSize * m.ScaleType.blockBytes()
	}
	out := Matrix{Type: m.Type, Rows: len(rows), Cols: m.Cols, Data: make([]byte, 0, len(rows)*rb),
		Bits: m.Bits, GroupSize: m.GroupSize, ScaleType: m.ScaleType, HalfActs: m.HalfActs, GGMLSums: m.GGMLSums}
	for _, r := range rows {
		if r < 0 || r >= m.Rows {
			return nil, fmt.Errorf("%w: %v %d×%d: row %d picked", ErrMatrix, m.Type, m.Rows, m.Cols, r)
		}
		out.Data = append(out.Data, m.rowData(r)...)
		if m.Type == MLXAffine {
			out.Scales = append(out.Scales, m.Scales[r*sb:(r+1)*sb]...)
			out.Biases = append(out.Biases, m.Biases[r*sb:(r+1)*sb]...)
		}
	}
	return NewMatrixUnpacked(out)
}
