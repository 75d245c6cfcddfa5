package grammar

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that any source either compiles or is refused with one
// of the package's errors, without a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		jsonGBNF,
		`root ::= "a" b* | [^x-z]{2,5}` + "\nb ::= (\"c\" | \"d\")+ .?",
		"root ::= ( \"a\"\n  | \"b\" )\n| \"c\" # comment",
		`root ::= "\x41\u00e9\U0001F600\n" [\]\\-]`,
		nested(40),
		`root ::= "a"{0,3} ("b"{2})*`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := Parse(src)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrTooComplex) {
				t.Fatalf("Parse(%q): error %v wraps none of the package's errors", src, err)
			}
			return
		}
		if g.Rules() < 1 || !strings.Contains(g.String(), "root ::=") {
			t.Fatalf("Parse(%q): a grammar without its root:\n%s", src, g.String())
		}
	})
}
