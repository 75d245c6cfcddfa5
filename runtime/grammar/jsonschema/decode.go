package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// object is a JSON object that keeps its key order, since properties are
// generated in the order the schema declares them.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// maxSchemaSize bounds the schema text.
const maxSchemaSize = 1 << 20

// maxNesting bounds the nesting of the schema document.
const maxNesting = 128

// decode parses JSON into *object, []any, string, json.Number, bool and nil.
func decode(data []byte) (any, error) {
	if len(data) > maxSchemaSize {
		return nil, fmt.Errorf("%w: %d bytes (at most %d)", ErrSchema, len(data), maxSchemaSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSchema, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the schema", ErrSchema)
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("nested deeper than %d", maxNesting)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			if _, dup := o.vals[k]; !dup {
				o.keys = append(o.keys, k)
			}
			o.vals[k] = v
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		var a []any
		for dec.More() {
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if a == nil {
			a = []any{}
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}

// encode writes a decoded value back as compact JSON, keys in order and
// non-ASCII text unescaped.
func encode(buf *bytes.Buffer, v any) {
	switch x := v.(type) {
	case *object:
		buf.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeString(buf, k)
			buf.WriteByte(':')
			encode(buf, x.vals[k])
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			encode(buf, e)
		}
		buf.WriteByte(']')
	case string:
		encodeString(buf, x)
	case json.Number:
		buf.WriteString(x.String())
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	default:
		buf.WriteString("null")
	}
}

func encodeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	buf.Truncate(buf.Len() - 1) // the encoder's newline
}
