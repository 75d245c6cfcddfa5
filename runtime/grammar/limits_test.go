package grammar

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// nested returns a grammar whose root is "a" inside n parentheses.
func nested(n int) string {
	return "root ::= " + strings.Repeat("(", n) + `"a"` + strings.Repeat(")", n)
}

// TestParseNesting checks that groups nested up to maxNest parse and that
// deeper ones are refused with ErrTooComplex instead of growing the stack.
func TestParseNesting(t *testing.T) {
	if _, err := Parse(nested(maxNest)); err != nil {
		t.Fatalf("nesting %d: %v", maxNest, err)
	}
	for _, n := range []int{maxNest + 1, 2_000_000} {
		_, err := Parse(nested(n))
		if !errors.Is(err, ErrTooComplex) || !strings.Contains(err.Error(), "nested") {
			t.Fatalf("nesting %d: got %v, want ErrTooComplex about nesting", n, err)
		}
	}
}

// TestParseNestingMemory checks that refusing a deeply nested grammar
// allocates little beyond its source.
func TestParseNestingMemory(t *testing.T) {
	src := nested(2_000_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := Parse(src); err == nil {
		t.Fatal("a grammar nested 2M deep parsed")
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("parse allocated %d bytes, want under 1 MiB", got)
	}
	if after.StackInuse > 64<<20 {
		t.Errorf("stack in use %d bytes after the parse", after.StackInuse)
	}
}

// TestParseLongLiteral checks that one literal longer than the element
// bound is refused.
func TestParseLongLiteral(t *testing.T) {
	src := `root ::= "x" "` + strings.Repeat("a", maxElems) + `"`
	if _, err := Parse(src); !errors.Is(err, ErrTooComplex) {
		t.Fatalf("got %v, want ErrTooComplex", err)
	}
}
