package jinja

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokType uint8

const (
	tEOF tokType = iota
	tData
	tVarBegin
	tVarEnd
	tBlockBegin
	tBlockEnd
	tName
	tString
	tInt
	tFloat
	tOp
)

type token struct {
	typ  tokType
	val  string // text, name, decoded string, operator or number source
	line int
}

// lexer splits a template into tokens as jinja2's lexer does with
// trim_blocks and lstrip_blocks enabled.
type lexer struct {
	src     string
	pos     int
	line    int
	toks    []token
	balance []byte
	// lineStart is true when the previous match ended with a newline, as
	// jinja2's line_starting.
	lineStart bool
}

// maxTokens bounds the token count of one template.
const maxTokens = 1 << 22

// normalizeSource turns every \r\n and \r into \n and drops one trailing
// newline (keep_trailing_newline=False).
func normalizeSource(src string) string {
	if strings.IndexByte(src, '\r') >= 0 {
		src = strings.ReplaceAll(src, "\r\n", "\n")
		src = strings.ReplaceAll(src, "\r", "\n")
	}
	return strings.TrimSuffix(src, "\n")
}

func tokenize(src string) ([]token, error) {
	lx := &lexer{src: normalizeSource(src), line: 1, lineStart: true}
	if err := lx.run(); err != nil {
		return nil, err
	}
	lx.toks = append(lx.toks, token{typ: tEOF, line: lx.line})
	return lx.toks, nil
}

func (lx *lexer) emit(typ tokType, val string, line int) error {
	if len(lx.toks) >= maxTokens {
		return limitErr("template has more than %d tokens", maxTokens)
	}
	lx.toks = append(lx.toks, token{typ: typ, val: val, line: line})
	return nil
}

// advance moves to end, counting lines, and records whether the consumed
// match ended a line.
func (lx *lexer) advance(end int) {
	lx.line += strings.Count(lx.src[lx.pos:end], "\n")
	if end > lx.pos {
		lx.lineStart = lx.src[end-1] == '\n'
	}
	lx.pos = end
}

func (lx *lexer) run() error {
	for lx.pos < len(lx.src) {
		i := findTagStart(lx.src, lx.pos)
		if i < 0 {
			if err := lx.emit(tData, lx.src[lx.pos:], lx.line); err != nil {
				return err
			}
			lx.advance(len(lx.src))
			return nil
		}
		if err := lx.tag(i); err != nil {
			return err
		}
	}
	return nil
}

// findTagStart returns the index of the next "{{", "{%" or "{#".
func findTagStart(s string, from int) int {
	for i := from; ; {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 || i+j+1 >= len(s) {
			return -1
		}
		i += j
		if c := s[i+1]; c == '{' || c == '%' || c == '#' {
			return i
		}
		i++
	}
}

// tag handles the text before the tag starting at i, and the tag itself.
func (lx *lexer) tag(i int) error {
	kind := lx.src[i+1]
	sign := byte(0)
	if i+2 < len(lx.src) && (lx.src[i+2] == '-' || lx.src[i+2] == '+') {
		sign = lx.src[i+2]
	}
	rawEnd := -1
	if kind == '%' {
		rawEnd = matchRawBegin(lx.src, i)
	}
	text := stripBefore(lx.src[lx.pos:i], sign, kind != '{', lx.lineStart)
	if text != "" {
		if err := lx.emit(tData, text, lx.line); err != nil {
			return err
		}
	}
	lx.line += strings.Count(lx.src[lx.pos:i], "\n")
	lx.pos = i
	start := i + 2
	if sign != 0 {
		start++
	}
	switch {
	case rawEnd >= 0:
		lx.advance(rawEnd)
		return lx.raw()
	case kind == '#':
		lx.advance(start)
		return lx.comment()
	case kind == '%':
		line := lx.line
		lx.advance(start)
		if err := lx.emit(tBlockBegin, "", line); err != nil {
			return err
		}
		return lx.inside(true)
	default:
		line := lx.line
		lx.advance(start)
		if err := lx.emit(tVarBegin, "", line); err != nil {
			return err
		}
		return lx.inside(false)
	}
}

// stripBefore applies whitespace control to the text before a tag: "-"
// strips all trailing whitespace; otherwise, for blocks and comments,
// lstrip_blocks removes spaces between the line start and the tag.
func stripBefore(text string, sign byte, lstrip, lineStart bool) string {
	if sign == '-' {
		return strings.TrimRightFunc(text, isSpace)
	}
	if sign == '+' || !lstrip {
		return text
	}
	l := strings.LastIndexByte(text, '\n') + 1
	if l > 0 || lineStart {
		rest := text[l:]
		if rest != "" && strings.TrimLeftFunc(rest, isSpace) == "" {
			return text[:l]
		}
	}
	return text
}

// isSpace is Python's str.isspace for one character (the \s of re).
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// skipSpace returns the index after the whitespace starting at i.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isSpace(r) {
			break
		}
		i += n
	}
	return i
}

// matchRawBegin matches `{%[-+]?\s*raw\s*(-%}\s*|%})` at i and returns the
// index after it, or -1.
func matchRawBegin(s string, i int) int {
	j := i + 2
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		j++
	}
	j = skipSpace(s, j)
	if !strings.HasPrefix(s[j:], "raw") {
		return -1
	}
	j = skipSpace(s, j+3)
	switch {
	case strings.HasPrefix(s[j:], "-%}"):
		return skipSpace(s, j+3)
	case strings.HasPrefix(s[j:], "%}"):
		return j + 2
	}
	return -1
}

// raw emits the text up to {% endraw %} verbatim.
func (lx *lexer) raw() error {
	for i := lx.pos; ; {
		k := strings.Index(lx.src[i:], "{%")
		if k < 0 {
			return syntaxErr(lx.line, "Missing end of raw directive")
		}
		k += i
		j := k + 2
		sign := byte(0)
		if j < len(lx.src) && (lx.src[j] == '-' || lx.src[j] == '+') {
			sign = lx.src[j]
			j++
		}
		j = skipSpace(lx.src, j)
		if !strings.HasPrefix(lx.src[j:], "endraw") {
			i = k + 2
			continue
		}
		end := matchBlockEnd(lx.src, skipSpace(lx.src, j+6))
		if end < 0 {
			i = k + 2
			continue
		}
		text := stripBefore(lx.src[lx.pos:k], sign, true, lx.lineStart)
		if text != "" {
			if err := lx.emit(tData, text, lx.line); err != nil {
				return err
			}
		}
		lx.advance(end)
		return nil
	}
}

// matchBlockEnd matches `+%}`, `-%}\s*` or `%}\n?` at i.
func matchBlockEnd(s string, i int) int {
	switch {
	case strings.HasPrefix(s[i:], "+%}"):
		return i + 3
	case strings.HasPrefix(s[i:], "-%}"):
		return skipSpace(s, i+3)
	case strings.HasPrefix(s[i:], "%}"):
		if i+2 < len(s) && s[i+2] == '\n' {
			return i + 3
		}
		return i + 2
	}
	return -1
}

// comment skips a comment up to its end tag.
func (lx *lexer) comment() error {
	for i := lx.pos; ; {
		k := strings.Index(lx.src[i:], "#}")
		if k < 0 {
			return syntaxErr(lx.line, "Missing end of comment tag")
		}
		k += i
		end := k + 2
		switch {
		case k > lx.pos && lx.src[k-1] == '-':
			end = skipSpace(lx.src, end)
		case k > lx.pos && lx.src[k-1] == '+':
		case end < len(lx.src) && lx.src[end] == '\n':
			end++
		}
		lx.advance(end)
		return nil
	}
}
