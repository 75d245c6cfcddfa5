package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits applied to every file, whatever its size.
const (
	// MaxHeaderSize bounds the JSON header of one file.
	MaxHeaderSize = 100 << 20
	// MaxRank bounds the number of dimensions of a tensor.
	MaxRank = 8
	// MaxTensors bounds the number of tensors in one file.
	MaxTensors = 1 << 20
)

// maxDim bounds each dimension of an empty tensor's shape (the dimensions
// of a non-empty one are bounded by the file's size).
const maxDim = math.MaxInt32

// Errors returned (wrapped) by this package.
var (
	// ErrFormat reports a file or index that breaks the safetensors format.
	ErrFormat = errors.New("invalid safetensors")
	// ErrUnsupported reports a valid file this package cannot use, such as
	// one holding F64 tensors.
	ErrUnsupported = errors.New("unsupported safetensors")
	// ErrNotFound reports a directory with no safetensors weights.
	ErrNotFound = errors.New("no safetensors weights")
)

const metadataKey = "__metadata__"

// Parse reads a safetensors file held in memory. The tensors' Data slices
// point into data, which must stay unchanged while they are used. name is
// used in errors and as each Tensor's File.
func Parse(data []byte, name string) (*File, error) {
	tab, err := parse(data, name)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %s: %w", name, err)
	}
	return &File{Path: name, table: tab}, nil
}

func parse(data []byte, name string) (table, error) {
	if len(data) < 8 {
		return table{}, fmt.Errorf("%w: file is %d bytes, shorter than the 8-byte header length", ErrFormat, len(data))
	}
	n := binary.LittleEndian.Uint64(data)
	if n > MaxHeaderSize {
		return table{}, fmt.Errorf("%w: header length %d exceeds the limit of %d bytes", ErrFormat, n, MaxHeaderSize)
	}
	if n > uint64(len(data)-8) {
		return table{}, fmt.Errorf("%w: header length %d exceeds the %d bytes after it", ErrFormat, n, len(data)-8)
	}
	header := data[8 : 8+n]
	body := data[8+n:]
	if !utf8.Valid(header) {
		return table{}, fmt.Errorf("%w: header is not valid UTF-8", ErrFormat)
	}
	tab, spans, err := decodeHeader(header, body, name)
	if err != nil {
		return table{}, err
	}
	if err := checkOverlap(spans); err != nil {
		return table{}, err
	}
	return tab, nil
}

// span is the byte range [start, end) of a tensor in the data section.
type span struct {
	start, end uint64
	name       string
}

// entry is one tensor's header record.
type entry struct {
	DType       *string   `json:"dtype"`
	Shape       *uintList `json:"shape"`
	DataOffsets *uintList `json:"data_offsets"`
}

// decodeHeader walks the header object key by key, so that duplicate names
// are caught and nothing but the top-level object is accepted.
func decodeHeader(header, body []byte, file string) (table, []span, error) {
	dec := json.NewDecoder(bytes.NewReader(header))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return table{}, nil, fmt.Errorf("%w: header is not a JSON object", ErrFormat)
	}
	tab := table{byName: map[string]*Tensor{}}
	var spans []span
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return table{}, nil, fmt.Errorf("%w: header JSON: %v", ErrFormat, jsonErr(err))
		}
		key := tok.(string) // object keys are always strings
		if _, dup := tab.byName[key]; dup || (key == metadataKey && tab.meta != nil) {
			return table{}, nil, fmt.Errorf("%w: header names %.80q twice", ErrFormat, key)
		}
		if key == metadataKey {
			if err := dec.Decode(&tab.meta); err != nil {
				return table{}, nil, fmt.Errorf("%w: %s must map strings to strings: %v", ErrFormat, metadataKey, jsonErr(err))
			}
			if tab.meta == nil {
				tab.meta = map[string]string{}
			}
			continue
		}
		if len(tab.byName) >= MaxTensors {
			return table{}, nil, fmt.Errorf("%w: more than %d tensors", ErrFormat, MaxTensors)
		}
		var e entry
		if err := dec.Decode(&e); err != nil {
			return table{}, nil, fmt.Errorf("%w: tensor %.80q: %v", ErrFormat, key, jsonErr(err))
		}
		t, sp, err := newTensor(key, e, body, file)
		if err != nil {
			return table{}, nil, fmt.Errorf("tensor %.80q: %w", key, err)
		}
		tab.byName[key] = t
		tab.names = append(tab.names, key)
		spans = append(spans, sp)
	}
	if _, err := dec.Token(); err != nil {
		return table{}, nil, fmt.Errorf("%w: header JSON: %v", ErrFormat, jsonErr(err))
	}
	if rest := header[dec.InputOffset():]; len(bytes.TrimRight(rest, " \t\r\n")) != 0 {
		return table{}, nil, fmt.Errorf("%w: data after the header object", ErrFormat)
	}
	slices.Sort(tab.names)
	return tab, spans, nil
}

// jsonErr words a JSON decoding error, naming a cut-short header as such.
func jsonErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("header JSON is cut short")
	}
	return err
}

// newTensor checks one header record against the data section and returns
// the tensor with its zero-copy data.
func newTensor(name string, e entry, body []byte, file string) (*Tensor, span, error) {
	if e.DType == nil || e.Shape == nil || e.DataOffsets == nil {
		return nil, span{}, fmt.Errorf("%w: needs dtype, shape and data_offsets", ErrFormat)
	}
	dt, err := parseDType(*e.DType)
	if err != nil {
		return nil, span{}, err
	}
	if len(*e.Shape) > MaxRank {
		return nil, span{}, fmt.Errorf("%w: rank %d exceeds %d", ErrFormat, len(*e.Shape), MaxRank)
	}
	if len(*e.DataOffsets) != 2 {
		return nil, span{}, fmt.Errorf("%w: data_offsets has %d values, want 2", ErrFormat, len(*e.DataOffsets))
	}
	start, end := (*e.DataOffsets)[0], (*e.DataOffsets)[1]
	if start > end || end > uint64(len(body)) {
		return nil, span{}, fmt.Errorf("%w: data_offsets [%d, %d] outside the %d-byte data section", ErrFormat, start, end, len(body))
	}
	size, ok := byteSize(*e.Shape, dt)
	if !ok || size != end-start {
		return nil, span{}, fmt.Errorf("%w: shape %v of %s needs %s bytes, data_offsets give %d",
			ErrFormat, []uint64(*e.Shape), dt, sizeText(size, ok), end-start)
	}
	shape := make([]int, len(*e.Shape))
	for i, d := range *e.Shape {
		// A dim of a non-empty tensor is at most its byte size, so at most
		// len(body); an empty tensor's other dims are bounded here, so that
		// no caller sees a negative or absurd dimension.
		if size == 0 && d > maxDim {
			return nil, span{}, fmt.Errorf("%w: dimension %d of shape %v exceeds %d", ErrFormat, d, []uint64(*e.Shape), maxDim)
		}
		shape[i] = int(d)
	}
	t := &Tensor{Name: name, File: file, DType: dt, Shape: shape, Data: body[start:end:end]}
	return t, span{start, end, name}, nil
}

// byteSize returns the bytes needed by a tensor, false on overflow.
func byteSize(shape []uint64, dt DType) (uint64, bool) {
	n := uint64(dt.Size())
	for _, d := range shape {
		hi, lo := bits.Mul64(n, d)
		if hi != 0 {
			return 0, false
		}
		n = lo
	}
	return n, true
}

func sizeText(n uint64, ok bool) string {
	if !ok {
		return "more than 2^64"
	}
	return strconv.FormatUint(n, 10)
}

// checkOverlap reports two tensors sharing bytes of the data section.
func checkOverlap(spans []span) error {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return cmpU64(a.start, b.start)
		}
		return cmpU64(a.end, b.end)
	})
	var prev span
	for _, s := range spans {
		if s.start == s.end {
			continue
		}
		if s.start < prev.end {
			return fmt.Errorf("%w: tensors %.80q [%d, %d] and %.80q [%d, %d] overlap",
				ErrFormat, prev.name, prev.start, prev.end, s.name, s.start, s.end)
		}
		prev = s
	}
	return nil
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// uintList is a JSON array of non-negative integers, decoded without
// allocating more than its text.
type uintList []uint64

// maxListLen bounds the values a uintList decodes; more makes an error.
const maxListLen = MaxRank

// UnmarshalJSON decodes an array of at most maxListLen non-negative integers.
func (l *uintList) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return fmt.Errorf("want an array of integers, got %.40s", s)
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	*l = (*l)[:0]
	if inner == "" {
		*l = uintList{}
		return nil
	}
	parts := strings.SplitN(inner, ",", maxListLen+1)
	if len(parts) > maxListLen {
		return fmt.Errorf("array has more than %d values", maxListLen)
	}
	for _, p := range parts {
		v, err := strconv.ParseUint(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return fmt.Errorf("want a non-negative integer, got %.40q", strings.TrimSpace(p))
		}
		*l = append(*l, v)
	}
	return nil
}
