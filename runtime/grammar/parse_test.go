package grammar

import (
	"errors"
	"strings"
	"testing"
)

func TestParseGood(t *testing.T) {
	tests := []struct {
		name, src string
		match     []string
		reject    []string
	}{
		{"literal", `root ::= "abc"`, []string{"abc"}, []string{"ab", "abcd", ""}},
		{"alternation", `root ::= "a" | "bc"`, []string{"a", "bc"}, []string{"b", "abc"}},
		{"group", `root ::= ("a" | "b") "c"`, []string{"ac", "bc"}, []string{"c", "abc"}},
		{"star", `root ::= "a"*`, []string{"", "a", "aaaa"}, []string{"b"}},
		{"plus", `root ::= [0-9]+`, []string{"0", "123"}, []string{"", "1a"}},
		{"optional", `root ::= "x" "y"?`, []string{"x", "xy"}, []string{"y", "xyy"}},
		{"exact count", `root ::= [a-c]{3}`, []string{"abc", "ccc"}, []string{"ab", "abca"}},
		{"range count", `root ::= "a"{2,4}`, []string{"aa", "aaa", "aaaa"}, []string{"a", "aaaaa"}},
		{"open count", `root ::= "a"{2,}`, []string{"aa", "aaaaaaa"}, []string{"a"}},
		{"upper count", `root ::= "a"{,2}`, []string{"", "a", "aa"}, []string{"aaa"}},
		{"literal repeated whole", `root ::= "ab"{2}`, []string{"abab"}, []string{"abb", "ab"}},
		{"group repeated", `root ::= ("a" | "bc")*`, []string{"", "abca", "bcbc"}, []string{"b", "cb"}},
		{"negated class", `root ::= [^a-z]+`, []string{"A1", "é"}, []string{"a", "Az"}},
		{"dot", `root ::= . .`, []string{"ab", "日本"}, []string{"a", "abc"}},
		{"escapes", `root ::= "\n\t\"\\" [\x41-\x43] "\u00e9" "\U0001F600"`, []string{"\n\t\"\\Bé😀"}, []string{"\n\t\"\\Dé😀"}},
		{"class escapes", `root ::= [\]\[\-^]+`, []string{"][-^"}, []string{"a"}},
		{"trailing dash", `root ::= [a-]+`, []string{"a-a"}, []string{"b"}},
		{"rules and comments", "# a comment\nroot ::= greet \" \" name # trailing\ngreet ::= \"hi\" | \"hello\"\nname ::= [A-Z] [a-z]*\n", []string{"hi Bob", "hello X"}, []string{"hi bob", "hey Bob"}},
		{"continuation lines", "root ::= \"a\"\n  | \"b\"\n  | (\"c\"\n  \"d\")", []string{"a", "b", "cd"}, []string{"c"}},
		{"right recursion", `root ::= "(" root ")" | ""`, []string{"", "()", "((()))"}, []string{"(()", ")"}},
		{"nullable prefix", `root ::= a? a? "x"
a ::= "y"`, []string{"x", "yx", "yyx"}, []string{"yyyx"}},
		{"empty alternative", `root ::= "a" ( | "b")`, []string{"a", "ab"}, []string{"b"}},
		{"dash names", `root ::= my-rule_1
my-rule_1 ::= "ok"`, []string{"ok"}, []string{"o"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustParse(t, tt.src)
			for _, s := range tt.match {
				if !fullMatch(t, g, s) {
					t.Errorf("%q should match", s)
				}
			}
			for _, s := range tt.reject {
				if fullMatch(t, g, s) {
					t.Errorf("%q should not match", s)
				}
			}
		})
	}
}

// fullMatch reports whether the grammar accepts exactly s.
func fullMatch(t *testing.T, g *Grammar, text string) bool {
	t.Helper()
	ok, err := g.Match(text)
	if err != nil {
		t.Fatalf("match %q: %v", text, err)
	}
	return ok
}

func TestParseBad(t *testing.T) {
	tests := []struct {
		name, src string
		want      error
	}{
		{"no root", `main ::= "a"`, ErrInvalid},
		{"undefined rule", `root ::= other`, ErrInvalid},
		{"left recursion", `root ::= root "a" | "b"`, ErrInvalid},
		{"indirect left recursion", "root ::= a\na ::= b? root \"x\"\nb ::= \"y\"", ErrInvalid},
		{"missing ::=", `root = "a"`, ErrSyntax},
		{"unterminated string", `root ::= "abc`, ErrSyntax},
		{"unterminated class", `root ::= [abc`, ErrSyntax},
		{"unclosed group", `root ::= ("a" | "b"`, ErrSyntax},
		{"bad escape", `root ::= "\q"`, ErrSyntax},
		{"short hex", `root ::= "\x4"`, ErrSyntax},
		{"surrogate escape", `root ::= "\uD800"`, ErrSyntax},
		{"reversed range", `root ::= [z-a]`, ErrSyntax},
		{"nothing to repeat", `root ::= *"a"`, ErrSyntax},
		{"bad braces", `root ::= "a"{x}`, ErrSyntax},
		{"max below min", `root ::= "a"{3,2}`, ErrInvalid},
		{"huge count", `root ::= "a"{1,99999999999999999999}`, ErrTooComplex},
		{"defined twice", "root ::= \"a\"\nroot ::= \"b\"", ErrSyntax},
		{"stray character", `root ::= "a" )`, ErrSyntax},
		{"invalid utf8", "root ::= \"\xff\"", ErrSyntax},
		{"too many elements", `root ::= "` + strings.Repeat("abcdefgh", 40) + `"{4000}`, ErrTooComplex},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.src)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse(%q) = %v, want %v", tt.src, err, tt.want)
			}
		})
	}
}

func TestParseTooLong(t *testing.T) {
	src := "root ::= \"" + strings.Repeat("a", maxSourceLen) + "\""
	if _, err := Parse(src); !errors.Is(err, ErrTooComplex) {
		t.Fatalf("got %v, want ErrTooComplex", err)
	}
}

func TestGrammarString(t *testing.T) {
	g := mustParse(t, `root ::= "a" b*
b ::= [x-z]`)
	s := g.String()
	for _, want := range []string{"root ::=", "b ::=", `\U00000078-\U0000007A`} {
		if !strings.Contains(s, want) {
			t.Errorf("String() lacks %q:\n%s", want, s)
		}
	}
	if g.Rules() < 3 {
		t.Errorf("Rules() = %d, want at least 3", g.Rules())
	}
}
