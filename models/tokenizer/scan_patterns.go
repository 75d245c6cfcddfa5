package tokenizer

import "unicode"

// The split patterns that have hand scanners, in the spellings found in
// tokenizer.json files and in llama.cpp. TestScannersMatchRegex proves each
// scanner splits exactly like the regex engine does with the pattern.
const (
	patGPT2       = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
	patGPT2Strict = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)`
	llamaTail     = `|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	qwenTail      = `|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	contrHF       = `(?i:'s|'t|'re|'ve|'m|'ll|'d)`
	contrCPP      = `(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])`
	patLlama3     = contrHF + llamaTail
	patLlama3CPP  = contrCPP + llamaTail
	patQwen2      = contrHF + qwenTail
	patQwen2CPP   = contrCPP + qwenTail
)

var (
	gpt2Matcher = scanMatcher{gpt2Scan(false)}

	knownPatterns = map[string]matcher{
		patGPT2:                      gpt2Matcher,
		patGPT2Strict:                scanMatcher{gpt2Scan(true)},
		patLlama3:                    scanMatcher{llama3Scan(3)},
		patLlama3CPP:                 scanMatcher{llama3Scan(3)},
		patQwen2:                     scanMatcher{llama3Scan(1)},
		patQwen2CPP:                  scanMatcher{llama3Scan(1)},
		`\p{N}`:                      scanMatcher{numberScan(1)},
		`\p{N}+`:                     scanMatcher{numberScan(0)},
		`\p{N}{1,3}`:                 scanMatcher{numberScan(3)},
		`[0-9][0-9][0-9]`:            scanMatcher{asciiDigits3},
		patO200k:                     scanMatcher{o200kScan(true, 3)},
		patTekken:                    scanMatcher{o200kScan(false, 1)},
		patQwen35:                    scanMatcher{qwen35Scan},
		patDSV3:                      scanMatcher{deepseekV3Scan},
		patCJKKana:                   scanMatcher{runeRanges(0x4E00, 0x9FA5, 0x3040, 0x309F, 0x30A0, 0x30FF)},
		patCJK:                       scanMatcher{runeRanges(0x4E00, 0x9FA5, 0x0800, 0x4E00, 0xAC00, 0xD7FF)},
		"[\\p{P}\\$\\+<=>\\^~\\|`]+": scanMatcher{classRun(punctOr("$+<=>^~|`"), true, false)},
		`[\p{P}\$\+<=>\^~\|]+`:       scanMatcher{classRun(punctOr("$+<=>^~|"), true, false)},
		`[\r\n]`:                     scanMatcher{classRun(func(r rune) bool { return r == '\r' || r == '\n' }, false, false)},
		`\s?\p{L}+`:                  scanMatcher{classRun(unicode.IsLetter, true, true)},
		`\s?\p{P}+`:                  scanMatcher{classRun(unicode.IsPunct, true, true)},
	}
)

// gpt2Scan scans the GPT-2 pattern; strict drops its final `\s+`.
func gpt2Scan(strict bool) scanFunc {
	return func(s string, i int) int {
		r, cl, _ := at(s, i)
		if r == '\'' {
			if e := contraction(s, i+1, false); e > 0 {
				return e
			}
		}
		st, c := i, cl
		if r == ' ' && i+1 < len(s) {
			st = i + 1
			_, c, _ = at(s, st)
		}
		if c != clSpace {
			return spanClass(s, st, c)
		}
		return spanWhitespace(s, i, strict)
	}
}

// llama3Scan scans the Llama-3 pattern (maxDigits 3) and the Qwen2 one
// (maxDigits 1), which differ only in the length of digit runs.
func llama3Scan(maxDigits int) scanFunc {
	return func(s string, i int) int {
		r, cl, n := at(s, i)
		if r == '\'' {
			if e := contraction(s, i+1, true); e > 0 {
				return e
			}
		}
		switch cl {
		case clLetter:
			return spanClass(s, i+n, clLetter)
		case clNumber:
			return spanClassMax(s, i, clNumber, maxDigits)
		}
		// [^\r\n\p{L}\p{N}]?\p{L}+ with the optional rune present.
		if r != '\r' && r != '\n' && i+n < len(s) {
			if _, c2, n2 := at(s, i+n); c2 == clLetter {
				return spanClass(s, i+n+n2, clLetter)
			}
		}
		// ` ?[^\s\p{L}\p{N}]+[\r\n]*`
		st := i
		if r == ' ' {
			st = i + 1
		}
		if st < len(s) {
			if _, c2, _ := at(s, st); c2 == clOther {
				return spanNewlines(s, spanClass(s, st, clOther))
			}
		}
		if cl != clSpace {
			return -1
		}
		return spanSpaceNewline(s, i)
	}
}

// spanSpaceNewline scans `\s*[\r\n]+|\s+(?!\S)|\s+` at a space: up to the
// last newline of the whitespace run, else as spanWhitespace.
func spanSpaceNewline(s string, i int) int {
	lastNL := -1
	for j := i; j < len(s); {
		r, c, n := at(s, j)
		if c != clSpace {
			break
		}
		j += n
		if r == '\r' || r == '\n' {
			lastNL = j
		}
	}
	if lastNL > i {
		return lastNL
	}
	return spanWhitespace(s, i, false)
}

// spanNewlines extends i over any \r and \n.
func spanNewlines(s string, i int) int {
	for i < len(s) && (s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// numberScan scans \p{N}{1,max} (max 0: \p{N}+).
func numberScan(max int) scanFunc {
	return func(s string, i int) int {
		if _, cl, _ := at(s, i); cl != clNumber {
			return -1
		}
		return spanClassMax(s, i, clNumber, max)
	}
}

// asciiDigits3 scans [0-9][0-9][0-9].
func asciiDigits3(s string, i int) int {
	if i+3 > len(s) {
		return -1
	}
	for k := i; k < i+3; k++ {
		if s[k] < '0' || s[k] > '9' {
			return -1
		}
	}
	return i + 3
}
