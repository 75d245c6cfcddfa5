package grammar

import (
	"fmt"
	"testing"
)

// maskPoints are the places in a JSON text where the mask is measured:
// between members of an object, and inside a string (nearly every token
// allowed).
var maskPoints = []struct{ name, prefix string }{
	{"object", `{"name": "x", "age": 3,`},
	{"string", `{"name": "hello wor`},
	{"number", `{"age": 12`},
}

// BenchmarkMask measures one mask, cold (a fresh matcher: no memoized
// transitions or masks) and warm (the same state again).
func BenchmarkMask(b *testing.B) {
	for _, name := range []string{"qwen3", "smollm2"} {
		tv := loadVocab(b, name)
		g := mustParse(b, jsonGBNF)
		for _, pt := range maskPoints {
			bits := make([]uint64, tv.v.Words())
			b.Run(fmt.Sprintf("%s/%s/cold", name, pt.name), func(b *testing.B) {
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					b.StopTimer()
					// a new grammar gets a new machine: nothing memoized
					m := mustMatcher(b, mustParse(b, jsonGBNF), tv.v, pt.prefix)
					b.StartTimer()
					if err := m.Mask(bits); err != nil {
						b.Fatal(err)
					}
					n = countBits(bits)
				}
				b.ReportMetric(float64(n), "allowed")
			})
			b.Run(fmt.Sprintf("%s/%s/warm", name, pt.name), func(b *testing.B) {
				b.ReportAllocs()
				m := mustMatcher(b, g, tv.v, pt.prefix)
				if err := m.Mask(bits); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if err := m.Mask(bits); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
