package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// The poolings of a model's embeddings, as Model.Pooling names them.
const (
	PoolNone = "none" // one vector per token
	PoolMean = "mean" // the mean of the tokens' vectors
	PoolCLS  = "cls"  // the first token's vector
	PoolLast = "last" // the last token's vector
	PoolRank = "rank" // a classification head's score (rerankers)
)

// ggufPoolings are the names of llama.cpp's pooling_type values, by value.
var ggufPoolings = [...]string{PoolNone, PoolMean, PoolCLS, PoolLast, PoolRank}

// ggufPooling reads {arch}.pooling_type: "" when absent.
func ggufPooling(g *ggufReader) string {
	v := g.uint("pooling_type", -1, false)
	if v < 0 {
		return ""
	}
	if v >= len(ggufPoolings) {
		g.fail(g.arch+".pooling_type", "%d is not a pooling type (0 to %d)", v, len(ggufPoolings)-1)
		return ""
	}
	return ggufPoolings[v]
}

// ggufLabels reads the number of outputs of a classification head, of an
// encoder (bge-reranker) or a decoder (Qwen3-Reranker: yes, no): the
// length of {arch}.classifier.output_labels, else 1 when the file has
// cls.output.weight, else 0.
func ggufLabels(g *ggufReader) int {
	if v, ok := g.f.Lookup(g.arch + ".classifier.output_labels"); ok {
		return min(v.Len(), maxLabels+1)
	}
	if g.has("cls.output.weight") {
		return 1
	}
	return 0
}

// sentenceTransformersPooling reads the pooling of a sentence-transformers
// directory from 1_Pooling/config.json: "" when the file is absent.
func sentenceTransformersPooling(dir string) (string, error) {
	path := filepath.Join(dir, "1_Pooling", "config.json")
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var p struct {
		Mean bool `json:"pooling_mode_mean_tokens"`
		CLS  bool `json:"pooling_mode_cls_token"`
		Last bool `json:"pooling_mode_lasttoken"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return "", fmt.Errorf("%s: %w: %w", path, ErrInvalid, err)
	}
	switch {
	case p.CLS:
		return PoolCLS, nil
	case p.Mean:
		return PoolMean, nil
	case p.Last:
		return PoolLast, nil
	}
	return "", fmt.Errorf("%s: %w: no pooling mode this runtime knows (cls, mean tokens, last token)", path, ErrUnsupported)
}
