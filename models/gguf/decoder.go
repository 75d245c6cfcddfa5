package gguf

import (
	"encoding/binary"
	"fmt"
)

// Limits on what a file may ask for.
const (
	maxStringLen     = 16 << 20 // bytes in a metadata string or tensor name
	maxKeyLen        = 1<<16 - 1
	maxArrayLen      = 1 << 24 // elements in one metadata array
	maxDepth         = 8       // nesting of arrays in arrays
	maxKVs           = 1 << 20
	maxTensors       = 1 << 20
	maxDims          = 4
	maxAlignment     = 1 << 20
	defaultAlignment = 32
	maxMetadataAlloc = 512 << 20 // bytes the parsed metadata may occupy in memory
)

// decoder reads little-endian GGUF fields from data, checking each length
// against what is left before using it.
type decoder struct {
	name   string
	data   []byte
	off    int
	what   string // what is being read, for errors
	budget int    // bytes of metadata memory still allowed
}

// errorf returns an ErrFormat error naming the file, the current item and
// the byte offset.
func (d *decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s (at byte %d)", ErrFormat, d.name, d.describe(format, args...), d.off)
}

// invalidf is errorf for problems that are not at the read position, such
// as a tensor layout checked after the header was read.
func (d *decoder) invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrFormat, d.name, d.describe(format, args...))
}

// unsupportedf is errorf for ErrUnsupported.
func (d *decoder) unsupportedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrUnsupported, d.name, d.describe(format, args...))
}

func (d *decoder) describe(format string, args ...any) string {
	msg := fmt.Sprintf(format, args...)
	if d.what != "" {
		msg = d.what + ": " + msg
	}
	return msg
}

func (d *decoder) remaining() int { return len(d.data) - d.off }

// take returns the next n bytes.
func (d *decoder) take(n int) ([]byte, error) {
	if n < 0 || n > d.remaining() {
		return nil, d.errorf("file is truncated: need %d bytes, %d left", n, d.remaining())
	}
	b := d.data[d.off : d.off+n : d.off+n]
	d.off += n
	return b, nil
}

// charge accounts for n bytes of memory the parsed metadata will hold.
func (d *decoder) charge(n uint64) error {
	if n > uint64(d.budget) {
		return d.errorf("metadata needs more than %d MiB of memory", maxMetadataAlloc>>20)
	}
	d.budget -= int(n)
	return nil
}

func (d *decoder) u32() (uint32, error) {
	b, err := d.take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (d *decoder) u64() (uint64, error) {
	b, err := d.take(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// str reads a length-prefixed string of at most limit bytes and copies it.
func (d *decoder) str(limit int) (string, error) {
	b, err := d.strBytes(limit)
	if err != nil {
		return "", err
	}
	if err := d.charge(uint64(len(b))); err != nil {
		return "", err
	}
	return string(b), nil
}

// strBytes reads a length-prefixed string of at most limit bytes, without
// copying it.
func (d *decoder) strBytes(limit int) ([]byte, error) {
	n, err := d.u64()
	if err != nil {
		return nil, err
	}
	if n > uint64(limit) {
		return nil, d.errorf("string length %d exceeds the limit of %d bytes", n, limit)
	}
	return d.take(int(n))
}

// count reads a count of items that each take at least minSize bytes in the
// file, and checks it against limit and against the bytes left.
func (d *decoder) count(item string, limit, minSize int) (int, error) {
	n, err := d.u64()
	if err != nil {
		return 0, err
	}
	if n > uint64(limit) {
		return 0, d.errorf("%d %s exceed the limit of %d", n, item, limit)
	}
	if n*uint64(minSize) > uint64(d.remaining()) {
		return 0, d.errorf("file is truncated: %d %s need at least %d bytes, only %d left", n, item, n*uint64(minSize), d.remaining())
	}
	return int(n), nil
}
