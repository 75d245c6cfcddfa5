// Package grammar constrains generation to a context-free grammar.
//
// A grammar is written in GBNF, the notation llama.cpp uses: rules of the
// form `name ::= alternatives`, sequences, groups, string literals,
// character classes (with ranges, negation and escapes up to \U), `.`, and
// the repetitions `?`, `*`, `+` and `{m,n}`. Parse compiles it into a
// Grammar; the start rule is `root`.
//
// A Matcher follows one generation byte by byte with a pushdown automaton
// whose state is a deduplicated set of stacks, in the manner of llama.cpp.
// Character classes match whole code points while the matcher consumes the
// UTF-8 bytes of tokens, so tokens that split a character are handled. The
// token vocabulary is held in a trie (Vocab), so the mask of allowed tokens
// walks the trie once, cuts whole subtrees that the grammar rejects, and
// accepts whole subtrees at once where the grammar loops on a character
// class (inside a JSON string, say). States and their transitions are
// memoized, with hard bounds on their number and on the stacks of a state,
// so a hostile grammar gets ErrTooComplex instead of unbounded work. The
// masks of states are kept too (as the allowed or the refused ids,
// whichever list is shorter), and all matchers of a grammar over a
// vocabulary share these caches, across requests.
//
// The cost of a mask plus an Accept per token along real JSON documents
// is measured by `go test -bench MaskDocument` (mean, 99th percentile and
// worst per token, for a first request and for a later one).
//
// The sub-package jsonschema turns a JSON schema into a grammar.
package grammar
