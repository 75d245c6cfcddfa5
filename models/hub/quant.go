package hub

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// quantToken matches a quantization name as GGUF converters put it in file
// names: Q4_K_M, Q8_0, IQ4_XS, TQ1_0, F16, BF16, FP16, MXFP4.
var quantToken = regexp.MustCompile(`^(I?Q[1-8](_[0-9A-Z]+)*|TQ[1-2]_0|F16|F32|FP16|FP32|BF16|MXFP4(_MOE)?)$`)

// splitPart matches the suffix of one part of a split GGUF file.
var splitPart = regexp.MustCompile(`(?i)-(\d{5})-of-(\d{5})\.gguf$`)

// QuantOf returns the quantization named in a GGUF file name, upper-cased
// ("Q4_K_M", "UD-Q4_K_XL", "BF16"), or "" when the name holds none.
func QuantOf(file string) string {
	base := path.Base(splitStem(file))
	if len(base) > 5 && strings.EqualFold(base[len(base)-5:], ".gguf") {
		base = base[:len(base)-5]
	}
	tokens := strings.FieldsFunc(strings.ToUpper(base), func(r rune) bool { return r == '-' || r == '.' })
	for i := len(tokens) - 1; i >= 0; i-- {
		if quantToken.MatchString(tokens[i]) {
			if i > 0 && tokens[i-1] == "UD" {
				return "UD-" + tokens[i]
			}
			return tokens[i]
		}
	}
	return ""
}

// splitStem returns the file name with the split suffix replaced by
// ".gguf": "m-Q4_K_M-00001-of-00003.gguf" gives "m-Q4_K_M.gguf".
func splitStem(file string) string {
	if loc := splitPart.FindStringIndex(file); loc != nil {
		return file[:loc[0]] + ".gguf"
	}
	return file
}

// splitInfo returns the part number and count of a split GGUF file, or 0, 0.
func splitInfo(file string) (part, count int) {
	m := splitPart.FindStringSubmatch(file)
	if m == nil {
		return 0, 0
	}
	part, _ = strconv.Atoi(m[1])
	count, _ = strconv.Atoi(m[2])
	return part, count
}

// ggufGroup is one GGUF model of a repo: a single file or all parts of a
// split file, in order.
type ggufGroup struct {
	Stem  string   // the path without the split suffix
	Quant string   // from the file name; may be ""
	Files []string // sorted parts
}

// complete reports whether a split group holds all its parts.
func (g ggufGroup) complete() bool {
	_, count := splitInfo(g.Files[0])
	if count == 0 {
		return len(g.Files) == 1
	}
	if len(g.Files) != count {
		return false
	}
	for i, f := range g.Files {
		if p, c := splitInfo(f); p != i+1 || c != count {
			return false
		}
	}
	return true
}

// ggufGroups groups the GGUF files of a listing, leaving out vision
// projectors (mmproj*), in the order of their first file.
func ggufGroups(files []string) []ggufGroup {
	var groups []ggufGroup
	index := map[string]int{}
	for _, f := range sortedCopy(files) {
		if !isGGUF(f) || strings.HasPrefix(strings.ToLower(path.Base(f)), "mmproj") {
			continue
		}
		stem := splitStem(f)
		i, ok := index[stem]
		if !ok {
			i = len(groups)
			index[stem] = i
			groups = append(groups, ggufGroup{Stem: stem, Quant: QuantOf(f)})
		}
		groups[i].Files = append(groups[i].Files, f)
	}
	return groups
}
