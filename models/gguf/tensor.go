package gguf

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// TensorInfo describes one tensor.
type TensorInfo struct {
	Name   string
	Dims   []uint64 // ggml order: Dims[0] is the fastest-varying (row length)
	Type   TensorType
	Offset uint64 // relative to File.DataOffset
	Size   uint64 // bytes
}

// Elements returns the number of elements (the product of Dims; 1 for a
// tensor without dimensions).
func (t *TensorInfo) Elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// tensorInfos reads n tensor descriptions into f.Tensors.
func (d *decoder) tensorInfos(f *File, n int) error {
	f.Tensors = make([]TensorInfo, n)
	f.names = make(map[string]int, n)
	for i := range f.Tensors {
		d.what = fmt.Sprintf("tensor %d", i)
		t := &f.Tensors[i]
		if err := d.tensorInfo(t); err != nil {
			return err
		}
		if _, dup := f.names[t.Name]; dup {
			return d.errorf("duplicate tensor name")
		}
		f.names[t.Name] = i
	}
	d.what = ""
	return nil
}

func (d *decoder) tensorInfo(t *TensorInfo) error {
	var err error
	if t.Name, err = d.str(maxStringLen); err != nil {
		return err
	}
	d.what = fmt.Sprintf("tensor %.80q", t.Name)
	nd, err := d.u32()
	if err != nil {
		return err
	}
	if nd > maxDims {
		return d.errorf("%d dimensions, at most %d allowed", nd, maxDims)
	}
	t.Dims = make([]uint64, nd)
	for j := range t.Dims {
		if t.Dims[j], err = d.u64(); err != nil {
			return err
		}
		if t.Dims[j] == 0 || t.Dims[j] > math.MaxInt64 {
			return d.errorf("dimension %d is %d", j, t.Dims[j])
		}
	}
	typ, err := d.u32()
	if err != nil {
		return err
	}
	t.Type = TensorType(typ)
	if t.Offset, err = d.u64(); err != nil {
		return err
	}
	return d.tensorSize(t)
}

// tensorSize computes t.Size, overflow-safe, after checking that rows hold
// whole blocks.
func (d *decoder) tensorSize(t *TensorInfo) error {
	bs, ts := t.Type.BlockSize(), t.Type.TypeSize()
	if bs == 0 || ts == 0 {
		if _, named := typeInfos[t.Type]; !named {
			return d.unsupportedf("unknown tensor type %d", uint32(t.Type))
		}
		return d.unsupportedf("tensor type %s (%d) has no known block layout", t.Type, uint32(t.Type))
	}
	n := uint64(1)
	for _, dim := range t.Dims {
		hi, lo := bits.Mul64(n, dim)
		if hi != 0 || lo > math.MaxInt64 {
			return d.errorf("element count overflows (dims %v)", t.Dims)
		}
		n = lo
	}
	row := uint64(1)
	if len(t.Dims) > 0 {
		row = t.Dims[0]
	}
	if row%uint64(bs) != 0 {
		return d.errorf("row length %d is not a multiple of the %s block size %d", row, t.Type, bs)
	}
	hi, size := bits.Mul64(n/uint64(bs), uint64(ts))
	if hi != 0 || size > math.MaxInt64 {
		return d.errorf("byte size overflows (dims %v, type %s)", t.Dims, t.Type)
	}
	t.Size = size
	return nil
}

// checkLayout checks that every tensor's data is aligned, inside the file
// and not overlapping another tensor's.
func (d *decoder) checkLayout(f *File) error {
	if len(f.Tensors) == 0 {
		return nil
	}
	var avail uint64
	if f.DataOffset <= uint64(len(d.data)) {
		avail = uint64(len(d.data)) - f.DataOffset
	}
	order := make([]int, len(f.Tensors))
	for i := range f.Tensors {
		t := &f.Tensors[i]
		d.what = fmt.Sprintf("tensor %.80q", t.Name)
		if t.Offset%f.Alignment != 0 {
			return d.invalidf("data offset %d is not a multiple of the alignment %d", t.Offset, f.Alignment)
		}
		if t.Offset > avail || t.Size > avail-t.Offset {
			return d.invalidf("file is truncated: data [%d, +%d bytes) lies outside the file's %d bytes of tensor data (data section at byte %d)",
				t.Offset, t.Size, avail, f.DataOffset)
		}
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Compare(f.Tensors[a].Offset, f.Tensors[b].Offset)
	})
	for k := 1; k < len(order); k++ {
		prev, cur := &f.Tensors[order[k-1]], &f.Tensors[order[k]]
		if cur.Offset < prev.Offset+prev.Size {
			d.what = fmt.Sprintf("tensor %.80q", cur.Name)
			return d.invalidf("data at offset %d overlaps tensor %.80q [%d, +%d bytes)", cur.Offset, prev.Name, prev.Offset, prev.Size)
		}
	}
	d.what = ""
	return nil
}
