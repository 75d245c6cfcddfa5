package jsonschema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// nestedArrays returns a schema of arrays of arrays, n deep.
func nestedArrays(n int) string {
	return strings.Repeat(`{"type":"array","items":`, n) + `{"type":"string"}` + strings.Repeat(`}`, n)
}

// TestNestedArraysLinear checks that nested array schemas convert in time
// that grows with the depth, not exponentially: the items schema of every
// level is converted once.
func TestNestedArraysLinear(t *testing.T) {
	start := time.Now()
	g, err := Compile([]byte(nestedArrays(maxGenDepth-1)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("converting %d nested arrays took %v", maxGenDepth-1, d)
	}
	if g.Rules() > 40*maxGenDepth {
		t.Errorf("%d rules for %d nested arrays", g.Rules(), maxGenDepth-1)
	}
}

// doublingRefs returns a schema whose definition k uses definition k-1
// twice, each time merged with a constraint, so that following every use
// doubles the work at each level.
func doublingRefs(n int) string {
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d` + fmt.Sprint(n) + `","$defs":{"d0":{"type":"string"}`)
	for k := 1; k <= n; k++ {
		ref := fmt.Sprintf(`{"$ref":"#/$defs/d%d","description":"x","type":"object"}`, k-1)
		if k == 1 {
			ref = `{"$ref":"#/$defs/d0","maxLength":3}`
		}
		fmt.Fprintf(&b, `,"d%d":{"type":"object","properties":{"a":%s,"b":%s},"required":["a","b"]}`, k, ref, ref)
	}
	b.WriteString(`}}`)
	return b.String()
}

// TestConversionBudget checks that a schema whose conversion work doubles
// with each level is refused once it passes the bound on conversions,
// quickly and with a clear error.
func TestConversionBudget(t *testing.T) {
	if _, err := Compile([]byte(doublingRefs(4)), Options{}); err != nil {
		t.Fatalf("a small schema of merged references: %v", err)
	}
	start := time.Now()
	_, err := GBNF([]byte(doublingRefs(28)), Options{})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "conversions") {
		t.Fatalf("got %v, want ErrUnsupported about conversions", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("refusing took %v", d)
	}
}
