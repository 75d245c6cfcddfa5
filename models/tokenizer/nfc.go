package tokenizer

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The NFC quick check of Unicode (UAX #15): text is in NFC when every
// character has NFC_Quick_Check=Yes and the canonical combining classes of
// consecutive marks do not decrease. It needs one table lookup per rune,
// where a full check decomposes; Qwen's NFC normalizer runs on every input.

var (
	nfcOnce sync.Once
	nfcYes  []uint64 // bit r: NFC_Quick_Check=Yes for r < 0x10000
	nfcCCC  []uint8  // canonical combining class of r < 0x10000
)

func buildNFC() {
	nfcYes = make([]uint64, 0x10000/64)
	nfcCCC = make([]uint8, 0x10000)
	maybe := make([]bool, 0x10000)
	// A rune that follows the first one in the decomposition of a
	// composite may compose with what precedes it: Quick_Check=Maybe.
	// Hangul vowels and trailing consonants compose algorithmically.
	var buf [utf8.UTFMax]byte
	for r := rune(0); r < 0x10000; r++ {
		n := utf8.EncodeRune(buf[:], r)
		dec := norm.NFD.Properties(buf[:n]).Decomposition()
		if dec == nil {
			continue
		}
		d := string(dec)
		if norm.NFC.String(d) != string(buf[:n]) {
			continue
		}
		_, first := utf8.DecodeRuneInString(d)
		for _, m := range d[first:] {
			if m < 0x10000 {
				maybe[m] = true
			}
		}
	}
	for r := rune(0x1161); r <= 0x11C2; r++ {
		maybe[r] = true
	}
	for r := rune(0); r < 0x10000; r++ {
		n := utf8.EncodeRune(buf[:], r)
		nfcCCC[r] = norm.NFC.Properties(buf[:n]).CCC()
		if !maybe[r] && norm.NFC.IsNormal(buf[:n]) {
			nfcYes[r/64] |= 1 << (r % 64)
		}
	}
}

// nfcQuick returns whether r has Quick_Check=Yes and its combining class.
// Above the BMP it is strict: only starters that are normal by themselves,
// with the emoji and CJK planes (none of which decompose) answered at once.
func nfcQuick(r rune) (yes bool, ccc uint8) {
	if r >= 0x1F000 && r <= 0x1FAFF || r >= 0x20000 && r < 0x2F800 || r >= 0x2FA20 && r <= 0x3FFFF {
		return true, 0
	}
	if r >= 0x10000 {
		s := string(r)
		p := norm.NFC.PropertiesString(s)
		return p.CCC() == 0 && p.BoundaryBefore() && norm.NFC.IsNormalString(s), 0
	}
	nfcOnce.Do(buildNFC)
	return nfcYes[r/64]&(1<<(r%64)) != 0, nfcCCC[r]
}

// quickNFC reports whether s is certainly in NFC; false means "run the full
// normalization".
func quickNFC(s string) bool {
	last := uint8(0)
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			last = 0
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		yes, ccc := nfcQuick(r)
		if !yes || ccc != 0 && last > ccc {
			return false
		}
		last = ccc
		i += n
	}
	return true
}
