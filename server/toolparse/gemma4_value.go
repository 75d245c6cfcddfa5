package toolparse

import (
	"encoding/json"
	"strings"
)

// maxGemma4Depth bounds the nesting of a Gemma 4 call's arguments.
const maxGemma4Depth = 64

// gemma4Reader converts the values of a Gemma 4 tool call to JSON, reading
// from the front of s.
type gemma4Reader struct {
	s     string
	depth int
}

func (r *gemma4Reader) space() { r.s = strings.TrimLeft(r.s, " \t\r\n") }

// eat consumes tok (after white space) when it comes next.
func (r *gemma4Reader) eat(tok string) bool {
	r.space()
	rest, ok := strings.CutPrefix(r.s, tok)
	if ok {
		r.s = rest
	}
	return ok
}

// value writes the JSON of the next value.
func (r *gemma4Reader) value(b *strings.Builder) bool {
	r.space()
	switch {
	case strings.HasPrefix(r.s, gemma4Quote):
		text, rest, ok := strings.Cut(r.s[len(gemma4Quote):], gemma4Quote)
		if !ok {
			return false
		}
		q, _ := json.Marshal(text)
		b.Write(q)
		r.s = rest
		return true
	case strings.HasPrefix(r.s, `"`):
		text, ok := r.jsonString()
		if !ok {
			return false
		}
		q, _ := json.Marshal(text)
		b.Write(q)
		return true
	case strings.HasPrefix(r.s, "{"):
		return r.object(b)
	case strings.HasPrefix(r.s, "["):
		return r.list(b)
	}
	// A number, true, false or null: the text up to the next delimiter.
	n := strings.IndexAny(r.s, ",}]")
	if n < 0 {
		n = len(r.s)
	}
	tok := strings.TrimSpace(r.s[:n])
	var v any
	if tok == "" || json.Unmarshal([]byte(tok), &v) != nil {
		return false
	}
	if _, isString := v.(string); isString {
		return false
	}
	b.WriteString(tok)
	r.s = r.s[n:]
	return true
}

// object writes {key:value,…} as a JSON object; a key is bare text or
// quoted with <|"|>.
func (r *gemma4Reader) object(b *strings.Builder) bool {
	if r.depth++; r.depth > maxGemma4Depth || !r.eat("{") {
		return false
	}
	defer func() { r.depth-- }()
	b.WriteByte('{')
	for first := true; !r.eat("}"); first = false {
		if !first && !r.eat(",") {
			return false
		}
		key, ok := r.key()
		if !ok {
			return false
		}
		if !first {
			b.WriteByte(',')
		}
		q, _ := json.Marshal(key)
		b.Write(q)
		b.WriteByte(':')
		if !r.value(b) {
			return false
		}
	}
	b.WriteByte('}')
	return true
}

// key reads an object's key and its colon: bare text, quoted with <|"|>,
// or a JSON string (the arguments a grammar forces are JSON).
func (r *gemma4Reader) key() (string, bool) {
	r.space()
	if strings.HasPrefix(r.s, `"`) {
		k, ok := r.jsonString()
		return k, ok && r.eat(":")
	}
	key, rest, ok := strings.Cut(r.s, ":")
	if !ok || strings.ContainsAny(key, "{}") {
		return "", false
	}
	r.s = rest
	key = strings.TrimSpace(key)
	if k, ok := strings.CutPrefix(key, gemma4Quote); ok {
		key = strings.TrimSuffix(k, gemma4Quote)
	}
	return key, key != ""
}

// jsonString reads a JSON string.
func (r *gemma4Reader) jsonString() (string, bool) {
	dec := json.NewDecoder(strings.NewReader(r.s))
	var s string
	if dec.Decode(&s) != nil {
		return "", false
	}
	r.s = r.s[dec.InputOffset():]
	return s, true
}

// list writes […] as a JSON array.
func (r *gemma4Reader) list(b *strings.Builder) bool {
	if r.depth++; r.depth > maxGemma4Depth || !r.eat("[") {
		return false
	}
	defer func() { r.depth-- }()
	b.WriteByte('[')
	for first := true; !r.eat("]"); first = false {
		if !first {
			if !r.eat(",") {
				return false
			}
			b.WriteByte(',')
		}
		if !r.value(b) {
			return false
		}
	}
	b.WriteByte(']')
	return true
}
