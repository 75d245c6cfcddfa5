package tokenizer

import "strings"

// The GPT-2 byte-level alphabet: every byte maps to one printable rune, the
// printable Latin-1 bytes to themselves and the rest to U+0100 and up.
var (
	byteRune [256]rune
	byteChar [256]string // byteRune as UTF-8
	runeByte [0x144]int16
)

func init() {
	for i := range runeByte {
		runeByte[i] = -1
	}
	next := rune(0x100)
	for b := 0; b < 256; b++ {
		r := rune(b)
		if !(b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE) {
			r = next
			next++
		}
		byteRune[b] = r
		byteChar[b] = string(r)
		runeByte[r] = int16(b)
	}
}

// byteLevelEncode maps every byte of s to its byte-level rune.
func byteLevelEncode(s string) string {
	var b strings.Builder
	b.Grow(2 * len(s))
	for i := 0; i < len(s); i++ {
		b.WriteString(byteChar[s[i]])
	}
	return b.String()
}

// byteLevelDecode maps the byte-level runes of s back to bytes. ok is false
// when s holds a rune outside the alphabet; Hugging Face then keeps the
// token's own bytes, which the caller does.
func byteLevelDecode(s string) (out string, ok bool) {
	buf := make([]byte, 0, len(s))
	for _, r := range s {
		if r < 0 || int(r) >= len(runeByte) || runeByte[r] < 0 {
			return "", false
		}
		buf = append(buf, byte(runeByte[r]))
	}
	return string(buf), true
}

// byteLevelPre is the ByteLevel pre-tokenizer: an optional leading space,
// the GPT-2 split, and the byte-to-rune mapping. When it is the last
// pre-tokenizer the mapping is left to the model, which then works on raw
// bytes (mapChars false); the result is the same and much faster.
type byteLevelPre struct {
	addPrefixSpace bool
	useRegex       bool
	mapChars       bool
	split          matcher
}

func newByteLevelPre(addPrefixSpace, useRegex bool) *byteLevelPre {
	return &byteLevelPre{addPrefixSpace: addPrefixSpace, useRegex: useRegex, mapChars: true, split: gpt2Matcher}
}

func (b *byteLevelPre) stage(next sink) sink {
	st := &byteLevelStage{byteLevelPre: b, next: next}
	if b.mapChars {
		st.next = byteMapStage{next}
	}
	if b.useRegex {
		st.next = (&splitPre{m: b.split, b: isolated}).stage(st.next)
	}
	return st
}

// byteLevelStage adds the prefix space, then splits and maps.
type byteLevelStage struct {
	*byteLevelPre
	next sink
}

func (s *byteLevelStage) push(p piece) {
	if s.addPrefixSpace && !strings.HasPrefix(p.text, " ") {
		p.text = " " + p.text
	}
	s.next.push(p)
}

// byteMapStage maps pieces to the byte-level alphabet.
type byteMapStage struct{ next sink }

func (s byteMapStage) push(p piece) {
	p.text = byteLevelEncode(p.text)
	s.next.push(p)
}

// byteLevelDecoder turns byte-level tokens back into bytes. The result may
// hold invalid UTF-8; the caller replaces it when the decoding is final.
type byteLevelDecoder struct{}

func (byteLevelDecoder) decodeChain(tokens []string, _ decodeMode) []string {
	var b strings.Builder
	for _, t := range tokens {
		if raw, ok := byteLevelDecode(t); ok {
			b.WriteString(raw)
		} else {
			b.WriteString(t)
		}
	}
	return []string{b.String()}
}
