package tokenizer

import "fmt"

// maxGrowth bounds how many times longer than its input the text may get
// through the normalizers, through the pre-tokenizers, or through the
// decoders. Real tokenizers stay within a few times (a space becomes the
// three bytes of ▁, NFKC makes UTF-8 at most 11 times longer); a chain of
// replacements that each double the text would otherwise grow it
// exponentially.
const maxGrowth = 64

// checkGrowth refuses a spec whose normalizers, pre-tokenizers or
// decoders can make text more than maxGrowth times longer.
func checkGrowth(s *spec) error {
	pre := product(s.pre, preGrowth)
	for _, part := range []struct {
		name string
		g    float64
	}{{"normalizer", normGrowth(s.norm)}, {"pre_tokenizer", pre}, {"decoder", decGrowth(s.dec)}} {
		if part.g > maxGrowth {
			return fmt.Errorf("%s: %w: the %s can make text %.3g times longer (at most %d)",
				s.source, ErrFormat, part.name, part.g, maxGrowth)
		}
	}
	return nil
}

// product multiplies the growths of the steps of a chain.
func product[T any](steps []T, growth func(T) float64) float64 {
	g := 1.0
	for _, s := range steps {
		g *= growth(s)
	}
	return g
}

// normGrowth bounds len(n.normalize(s)) / len(s) for a non-empty s.
func normGrowth(n normalizer) float64 {
	switch n := n.(type) {
	case normSequence:
		return product(n, normGrowth)
	case unicodeNorm:
		if n.form.String("\ufdfa") != "\ufdfa" {
			return 11 // compatibility forms
		}
		return 3
	case lowercase:
		return 1.5
	case prepend:
		return 1 + float64(len(n.prefix))
	case replace:
		return replaceGrowth(n)
	case byteLevelNorm:
		return 2
	case bertNorm:
		return 5.0 / 3 * 3 * 1.5 // CJK set apart, NFD, lower case
	case spmNorm:
		return 3 * charsmapGrowth // the charsmap, then spaces become ▁
	case charsmapNorm:
		return charsmapGrowth
	}
	return 1 // nil, strip, stripAccents: never longer
}

// replaceGrowth is the growth of replacing every match by r.content: a
// regex match may be one byte long.
func replaceGrowth(r replace) float64 {
	from := 1
	if lit, ok := r.m.(literalMatcher); ok && lit.lit != "" {
		from = len(lit.lit)
	}
	return max(1, float64(len(r.content))/float64(from))
}

// preGrowth bounds the growth of the text through one pre-tokenizer.
func preGrowth(p preTokenizer) float64 {
	switch p := p.(type) {
	case *byteLevelPre:
		g := 1.0
		if p.addPrefixSpace {
			g = 2 // one byte more than a non-empty text
		}
		if p.mapChars {
			g *= 2 // two bytes at most per byte
		}
		return g
	case *metaspacePre:
		return 2 * float64(len(p.repl)) // each space replaced, one prepended
	}
	return 1 // splits only cut the text
}

// decGrowth bounds the growth of a token's text through the decoders.
func decGrowth(d decoder) float64 {
	switch d := d.(type) {
	case decSequence:
		return product(d, decGrowth)
	case replaceDec:
		return replaceGrowth(d.r)
	}
	return 1
}
