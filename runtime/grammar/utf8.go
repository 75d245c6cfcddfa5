package grammar

// partial is the start of a UTF-8 sequence that a matcher has consumed
// but not completed: up to three bytes and the sequence length.
type partial struct {
	b    [3]byte
	n    uint8 // bytes held
	need uint8 // total length of the sequence, 0 when none is pending
}

// step feeds one byte. It returns the code point when the byte completes
// one (done), the new pending state otherwise, and ok=false for a byte that
// cannot continue valid UTF-8 (overlong forms and surrogates included).
func (p partial) step(c byte) (next partial, r rune, done, ok bool) {
	if p.need == 0 {
		switch {
		case c < 0x80:
			return partial{}, rune(c), true, true
		case c >= 0xC2 && c <= 0xDF:
			return partial{b: [3]byte{c}, n: 1, need: 2}, 0, false, true
		case c >= 0xE0 && c <= 0xEF:
			return partial{b: [3]byte{c}, n: 1, need: 3}, 0, false, true
		case c >= 0xF0 && c <= 0xF4:
			return partial{b: [3]byte{c}, n: 1, need: 4}, 0, false, true
		}
		return partial{}, 0, false, false
	}
	lo, hi := byte(0x80), byte(0xBF)
	if p.n == 1 {
		lo, hi = secondByte(p.b[0])
	}
	if c < lo || c > hi {
		return partial{}, 0, false, false
	}
	if p.n+1 < p.need {
		p.b[p.n] = c
		p.n++
		return p, 0, false, true
	}
	r = rune(p.b[0]) & (0x7F >> p.need)
	for i := uint8(1); i < p.n; i++ {
		r = r<<6 | rune(p.b[i]&0x3F)
	}
	return partial{}, r<<6 | rune(c&0x3F), true, true
}

// span returns the code points that can still complete the pending bytes.
func (p partial) span() (lo, hi rune) {
	lo = rune(p.b[0]) & (0x7F >> p.need)
	for i := uint8(1); i < p.n; i++ {
		lo = lo<<6 | rune(p.b[i]&0x3F)
	}
	rest := uint(p.need-p.n) * 6
	lo <<= rest
	hi = min(lo|(1<<rest-1), maxRune)
	return max(lo, minRune[p.need]), hi
}

// minRune is the smallest code point of a UTF-8 sequence of each length.
var minRune = [5]rune{0, 0, 0x80, 0x800, 0x10000}

// secondByte returns the bytes that may follow a lead byte: narrower than
// 80-BF after E0, ED, F0 and F4, which excludes overlong forms, surrogates
// and code points past U+10FFFF.
func secondByte(lead byte) (lo, hi byte) {
	return secondLo[lead&0x3F], secondHi[lead&0x3F]
}

var secondLo, secondHi [64]byte // by lead byte - 0xC0

func init() {
	for i := range secondLo {
		secondLo[i], secondHi[i] = 0x80, 0xBF
	}
	secondLo[0xE0&0x3F] = 0xA0
	secondHi[0xED&0x3F] = 0x9F
	secondLo[0xF0&0x3F] = 0x90
	secondHi[0xF4&0x3F] = 0x8F
}
