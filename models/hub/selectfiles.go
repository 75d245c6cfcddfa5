package hub

import (
	"fmt"
	"slices"
	"strings"
)

// Formats of the weights a snapshot holds.
const (
	FormatGGUF        = "gguf"
	FormatSafetensors = "safetensors"
	FormatMLX         = "mlx" // safetensors quantized by MLX
)

// metaFiles are the files, besides the weights, that a safetensors model
// needs: configuration, tokenizer and chat template.
var metaFiles = []string{
	"config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json",
	"special_tokens_map.json", "chat_template.jinja", "chat_template.json", "tokenizer.model",
	"model.safetensors.index.json",
}

// defaultQuants is the order in which a GGUF file is chosen when the
// reference names none.
var defaultQuants = []string{"Q4_K_M", "UD-Q4_K_XL", "Q4_K_S", "Q4_0", "Q5_K_M", "Q6_K", "Q8_0"}

// selection is what a reference needs from a repo.
type selection struct {
	Format string   // FormatGGUF or FormatSafetensors
	Files  []string // repo paths to fetch
	Main   string   // the first GGUF file; "" for safetensors (the snapshot directory)
}

// selectFiles picks from a repo listing the files that r needs.
func selectFiles(r Ref, files []string) (selection, error) {
	groups := ggufGroups(files)
	switch {
	case r.File != "":
		i := slices.IndexFunc(groups, func(g ggufGroup) bool { return slices.Contains(g.Files, r.File) })
		if i < 0 {
			return selection{}, fmt.Errorf("%s: file %s is not in the repo (GGUF files: %s): %w",
				r.Repo, r.File, listFiles(groups), ErrNotFound)
		}
		return ggufSelection(r.Repo, groups[i])
	case r.Quant != "":
		g, err := pickQuant(r.Repo, r.Quant, groups)
		if err != nil {
			return selection{}, err
		}
		return ggufSelection(r.Repo, g)
	}
	if s, ok := safetensorsSelection(files); ok {
		return s, nil
	}
	if len(groups) == 0 {
		return selection{}, fmt.Errorf("%s: the repo holds %d files, none of them .safetensors or .gguf: %w",
			r.Repo, len(files), ErrNoWeights)
	}
	if len(groups) == 1 {
		return ggufSelection(r.Repo, groups[0])
	}
	for _, q := range defaultQuants {
		if g, err := pickQuant(r.Repo, q, groups); err == nil {
			return ggufSelection(r.Repo, g)
		}
	}
	return selection{}, fmt.Errorf("%s holds several GGUF files and none of %s: name one as %s:QUANT (available: %s): %w",
		r.Repo, strings.Join(defaultQuants[:2], ", "), r.Repo, listQuants(groups), ErrNoQuant)
}

// safetensorsSelection picks the metadata and weight files at the root of
// the repo. A consolidated.safetensors next to sharded weights duplicates
// them and is left out.
func safetensorsSelection(files []string) (selection, bool) {
	var weights, meta []string
	for _, f := range files {
		switch {
		case strings.Contains(f, "/"):
		case slices.Contains(metaFiles, f):
			meta = append(meta, f)
		case strings.HasSuffix(f, ".safetensors"):
			weights = append(weights, f)
		}
	}
	if len(weights) == 0 {
		return selection{}, false
	}
	if len(weights) > 1 {
		weights = slices.DeleteFunc(weights, func(f string) bool { return strings.HasPrefix(f, "consolidated") })
	}
	all := sortedCopy(append(meta, weights...))
	return selection{Format: FormatSafetensors, Files: all}, true
}

// ggufSelection checks that a group holds all its parts.
func ggufSelection(repo string, g ggufGroup) (selection, error) {
	if !g.complete() {
		return selection{}, fmt.Errorf("%s: split GGUF %s lacks parts (found %s): %w",
			repo, g.Stem, strings.Join(g.Files, ", "), ErrProtocol)
	}
	return selection{Format: FormatGGUF, Files: g.Files, Main: g.Files[0]}, nil
}

// pickQuant returns the one group with quantization want (case-insensitive;
// "Q4_K_XL" also finds "UD-Q4_K_XL").
func pickQuant(repo, want string, groups []ggufGroup) (ggufGroup, error) {
	var hits []ggufGroup
	for _, loose := range []bool{false, true} {
		for _, g := range groups {
			q := g.Quant
			if loose {
				q = strings.TrimPrefix(q, "UD-")
			}
			if q != "" && strings.EqualFold(q, want) {
				hits = append(hits, g)
			}
		}
		if len(hits) > 0 {
			break
		}
	}
	switch len(hits) {
	case 0:
		return ggufGroup{}, fmt.Errorf("%s has no GGUF file with quantization %s (available: %s): %w",
			repo, want, listQuants(groups), ErrNoQuant)
	case 1:
		return hits[0], nil
	}
	return ggufGroup{}, fmt.Errorf("%s: several GGUF files have quantization %s (%s): name the file as %s/FILE.gguf: %w",
		repo, want, listFiles(hits), repo, ErrAmbiguous)
}

// listQuants names the quantizations of the groups, or the files of those
// whose name holds none.
func listQuants(groups []ggufGroup) string {
	var names []string
	for _, g := range groups {
		n := g.Quant
		if n == "" {
			n = g.Files[0]
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func listFiles(groups []ggufGroup) string {
	var names []string
	for _, g := range groups {
		names = append(names, g.Files[0])
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
