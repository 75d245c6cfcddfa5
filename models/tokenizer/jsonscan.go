package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// jscan walks a tokenizer.json without encoding/json's reflection for the
// bulk of it: it splits the document into its parts and reads the two large
// ones, the vocabulary and the merges; the small parts go to encoding/json.
type jscan struct {
	b []byte
	i int
}

func (s *jscan) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\r' || s.b[s.i] == '\t') {
		s.i++
	}
}

func (s *jscan) errorf(what string) error {
	return fmt.Errorf("%w: %s at byte %d", ErrFormat, what, s.i)
}

// peek skips whitespace and returns the next byte (0 at the end).
func (s *jscan) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// eat consumes c, after whitespace.
func (s *jscan) eat(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// maxDepth bounds the nesting of skipped values.
const maxDepth = 256

// skip passes over one JSON value of any kind.
func (s *jscan) skip(depth int) error {
	if depth > maxDepth {
		return s.errorf("nesting too deep")
	}
	switch c := s.peek(); c {
	case '"':
		_, _, err := s.rawStr()
		return err
	case '{':
		return s.list('{', '}', func() error {
			if _, _, err := s.rawStr(); err != nil {
				return err
			}
			if !s.eat(':') {
				return s.errorf("expected ':'")
			}
			return s.skip(depth + 1)
		})
	case '[':
		return s.list('[', ']', func() error { return s.skip(depth + 1) })
	}
	start := s.i
	for s.i < len(s.b) && strings.IndexByte("+-.0123456789eEtruefalsn", s.b[s.i]) >= 0 {
		s.i++
	}
	if s.i == start {
		return s.errorf("expected a value")
	}
	return nil
}

// fields splits a JSON object into the raw values of its keys.
func (s *jscan) fields() (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	err := s.list('{', '}', func() error {
		key, err := s.str()
		if err != nil {
			return err
		}
		if !s.eat(':') {
			return s.errorf("expected ':'")
		}
		s.ws()
		start := s.i
		if err := s.skip(0); err != nil {
			return err
		}
		out[key] = s.b[start:s.i]
		return nil
	})
	if err == nil && s.peek() != 0 {
		err = s.errorf("data after the end of the object")
	}
	return out, err
}

// rawStr reads a JSON string without decoding it: the bytes between the
// quotes, and whether they hold escapes.
func (s *jscan) rawStr() (raw []byte, escaped bool, err error) {
	if !s.eat('"') {
		return nil, false, s.errorf("expected a string")
	}
	start := s.i
	for {
		q := bytes.IndexByte(s.b[s.i:], '"')
		if q < 0 {
			return nil, false, s.errorf("unterminated string")
		}
		end := s.i + q
		if bytes.IndexByte(s.b[s.i:end], '\\') >= 0 {
			escaped = true
			// The quote is escaped when an odd run of backslashes precedes it.
			n := 0
			for end-n-1 >= start && s.b[end-n-1] == '\\' {
				n++
			}
			if n%2 == 1 {
				s.i = end + 1
				continue
			}
		}
		s.i = end + 1
		return s.b[start:end], escaped, nil
	}
}

// bytes reads a JSON string as bytes, which alias the document unless the
// string has escapes.
func (s *jscan) bytes() ([]byte, error) {
	raw, escaped, err := s.rawStr()
	if err != nil || !escaped {
		return raw, err
	}
	var out string
	if err := json.Unmarshal(s.b[s.i-len(raw)-2:s.i], &out); err != nil {
		return nil, s.errorf("bad string")
	}
	return []byte(out), nil
}

// str reads a JSON string.
func (s *jscan) str() (string, error) {
	b, err := s.bytes()
	return string(b), err
}

// integer reads a non-negative JSON integer below maxVocab.
func (s *jscan) integer() (int, error) {
	s.ws()
	n, digits := 0, 0
	for ; s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9'; s.i++ {
		n = n*10 + int(s.b[s.i]-'0')
		digits++
		if n >= maxVocab {
			return 0, s.errorf("id too large")
		}
	}
	if digits == 0 {
		return 0, s.errorf("expected a non-negative integer id")
	}
	return n, nil
}

// list reads a JSON array or object, calling item for each element (after
// the key, for objects).
func (s *jscan) list(open, close byte, item func() error) error {
	if !s.eat(open) {
		return s.errorf(fmt.Sprintf("expected %q", open))
	}
	if s.eat(close) {
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		if s.eat(close) {
			return nil
		}
		if !s.eat(',') {
			return s.errorf("expected ','")
		}
	}
}

// parseVocab reads the {"token": id, ...} object. The tokens are slices of
// one copy of raw, which saves an allocation per token.
func parseVocab(raw []byte) (map[string]int32, error) {
	s := &jscan{b: raw}
	text := string(raw)
	// An entry has a '":' and takes about 12 bytes ("ab": 123, ); the hint
	// stays below the file's size even when quotes are escaped.
	vocab := make(map[string]int32, min(bytes.Count(raw, []byte(`":`)), len(raw)/12)+16)
	err := s.list('{', '}', func() error {
		b, escaped, err := s.rawStr()
		if err != nil {
			return err
		}
		tok := text[s.i-len(b)-1 : s.i-1]
		if escaped {
			if err := json.Unmarshal(raw[s.i-len(b)-2:s.i], &tok); err != nil {
				return s.errorf("bad string")
			}
		}
		if !s.eat(':') {
			return s.errorf("expected ':'")
		}
		id, err := s.integer()
		if err != nil {
			return fmt.Errorf("token %.80q: %w", tok, err)
		}
		vocab[tok] = int32(id)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("model.vocab: %w", err)
	}
	return vocab, nil
}

// parseMerges reads merges written as "a b" strings or as [a, b] pairs and
// calls add with each pair (the bytes are only valid during the call).
func parseMerges(raw []byte, add func(rank int, a, b []byte) error) error {
	s := &jscan{b: raw}
	if c := s.peek(); c == 0 || c == 'n' {
		return nil
	}
	rank := 0
	err := s.list('[', ']', func() error {
		var a, b []byte
		var err error
		if s.peek() == '[' {
			k := 0
			err = s.list('[', ']', func() error {
				var t []byte
				t, err := s.bytes()
				if k == 0 {
					a = t
				} else {
					b = t
				}
				k++
				return err
			})
			if err == nil && k != 2 {
				err = s.errorf("a merge pair must have two tokens")
			}
		} else {
			var line []byte
			if line, err = s.bytes(); err == nil {
				var ok bool
				if a, b, ok = splitMerge(line); !ok {
					err = fmt.Errorf("%w: merge %d %.80q is not two tokens separated by a space", ErrFormat, rank, line)
				}
			}
		}
		if err == nil {
			err = add(rank, a, b)
		}
		rank++
		return err
	})
	if err != nil {
		return fmt.Errorf("model.merges: %w", err)
	}
	return nil
}

// splitMerge splits "a b" at its single space.
func splitMerge(l []byte) ([]byte, []byte, bool) {
	i := bytes.IndexByte(l, ' ')
	if i < 0 || bytes.IndexByte(l[i+1:], ' ') >= 0 {
		return nil, nil, false
	}
	return l[:i], l[i+1:], true
}
