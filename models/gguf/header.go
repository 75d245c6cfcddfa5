package gguf

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

const magic = "GGUF"

// Legacy formats that came before GGUF, as their magic appears on disk.
var legacyMagic = map[string]string{
	"lmgg": "GGML", "fmgg": "GGMF", "tjgg": "GGJT",
}

// header parses everything before the tensor data into f.
func (d *decoder) header(f *File) error {
	if err := d.magic(); err != nil {
		return err
	}
	v, err := d.version()
	if err != nil {
		return err
	}
	f.Version = v
	d.what = "header"
	nTensors, err := d.count("tensors", maxTensors, minTensorInfoSize)
	if err != nil {
		return err
	}
	nKV, err := d.count("metadata entries", maxKVs, minKVSize)
	if err != nil {
		return err
	}
	d.what = ""
	if err := d.metadata(f, nKV); err != nil {
		return err
	}
	if f.Alignment, err = d.alignment(f); err != nil {
		return err
	}
	if err := d.tensorInfos(f, nTensors); err != nil {
		return err
	}
	f.DataOffset = alignUp(uint64(d.off), f.Alignment)
	return d.checkLayout(f)
}

func (d *decoder) magic() error {
	if len(d.data) == 0 {
		return d.invalidf("file is empty")
	}
	if len(d.data) < 4 {
		return d.invalidf("file of %d bytes is too short to be GGUF", len(d.data))
	}
	head := d.data[:4]
	if string(head) == magic {
		d.off = 4
		return nil
	}
	if old, ok := legacyMagic[string(head)]; ok {
		return d.unsupportedf("legacy %s format (before GGUF); convert the model to GGUF", old)
	}
	return d.invalidf("not a GGUF file: starts with %q, want %q", printable(head), magic)
}

func (d *decoder) version() (uint32, error) {
	v, err := d.u32()
	if err != nil {
		return 0, err
	}
	switch {
	case v == 2 || v == 3:
		return v, nil
	case v == 1:
		return 0, d.unsupportedf("GGUF version 1 is not supported (only versions 2 and 3); re-convert the model with a current llama.cpp")
	case v != 0 && v&0xffff == 0 && bits.ReverseBytes32(v) <= 3:
		return 0, d.unsupportedf("big-endian GGUF (version %d) is not supported; use a little-endian file", bits.ReverseBytes32(v))
	default:
		return 0, d.unsupportedf("GGUF version %d is not supported (only versions 2 and 3)", v)
	}
}

// alignment returns general.alignment, checked, or the default.
func (d *decoder) alignment(f *File) (uint64, error) {
	v, ok := f.Lookup("general.alignment")
	if !ok {
		return defaultAlignment, nil
	}
	d.what = "general.alignment"
	defer func() { d.what = "" }()
	a, ok := v.uint()
	if !ok {
		return 0, d.invalidf("must be a non-negative integer, got %s", v.Type)
	}
	if a == 0 || a&(a-1) != 0 || a > maxAlignment {
		return 0, d.invalidf("%d is not a power of two between 1 and %d", a, maxAlignment)
	}
	return a, nil
}

func alignUp(n, a uint64) uint64 { return (n + a - 1) &^ (a - 1) }

// printable replaces control and non-ASCII bytes so that a bad magic can be
// shown in an error.
func printable(b []byte) []byte {
	out := bytes.Clone(b)
	for i, c := range out {
		if c < 0x20 || c > 0x7e {
			out[i] = '?'
		}
	}
	return out
}

// le reads a little-endian unsigned integer of len(b) ≤ 8 bytes.
func le(b []byte) uint64 {
	var buf [8]byte
	copy(buf[:], b)
	return binary.LittleEndian.Uint64(buf[:])
}
