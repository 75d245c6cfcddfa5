package runtime

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// qwen3RerankPrompt is Qwen3-Reranker's prompt, with its model card's
// default instruction: the model answers "yes" or "no" after it. It is
// the prompt of a Qwen3 reranker whose file names no "rerank" template.
const qwen3RerankPrompt = "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. " +
	"Note that the answer can only be \"yes\" or \"no\".<|im_end|>\n<|im_start|>user\n<Instruct>: Given a web search query, " +
	"retrieve relevant passages that answer the query\n<Query>: {query}\n<Document>: {document}<|im_end|>\n" +
	"<|im_start|>assistant\n<think>\n\n</think>\n\n"

// decoderRanker reports whether a family reranks as a decoder: from the
// last token's state, with the probability of the first of two labels
// ("yes" against "no") as the score. Other families (encoders) take the
// first token's state and score with the head's one logit, as llama.cpp
// does.
func decoderRanker(arch string) bool { return arch == "qwen3" }

// Reranks reports whether the engine scores query–document pairs
// (Rerank): it has a head to score with, and its pooling is
// config.PoolRank, or the file's own when the model has a classification
// head (a cross-encoder whose file names another pooling).
func (e *Engine) Reranks() bool {
	if _, _, err := e.rankHead(); err != nil {
		return false
	}
	return e.Pooling() == config.PoolRank || e.opt.Pooling == "" && e.model.Labels() > 0
}

// RerankPrompt returns the tokens that Rerank scores for a query and a
// document: the model's "rerank" template with {query} and {document}
// replaced, special tokens in it parsed; Qwen3-Reranker's documented
// prompt for a Qwen3 reranker without one; otherwise the pair of the query
// and the document as the tokenizer frames it (tokenizer.EncodePair), as
// llama-server builds its prompts.
func (e *Engine) RerankPrompt(query, doc string) []int32 {
	tpl := ""
	if ts := e.chat.Templates(); ts != nil && ts.Named["rerank"] != nil {
		tpl = ts.Named["rerank"].Source
	} else if decoderRanker(e.cfg.Arch) {
		tpl = qwen3RerankPrompt
	}
	if tpl != "" {
		return e.tok.Encode(strings.NewReplacer("{query}", query, "{document}", doc).Replace(tpl), false)
	}
	return e.tok.EncodePair(query, doc)
}

// Rerank returns the relevance score of each input, a prompt of
// RerankPrompt: for a decoder, the probability of "yes" against "no" after
// it; for an encoder, its head's logit. Inputs run together as Embed runs
// them. The engine must rerank (Reranks).
func (e *Engine) Rerank(ctx context.Context, inputs [][]int32) ([]float32, error) {
	if !e.Reranks() {
		return nil, fmt.Errorf("%w: the model is not a reranker (its pooling is %s, not rank)", ErrInvalidRequest, e.Pooling())
	}
	out, err := e.Embed(ctx, inputs, config.PoolRank)
	if err != nil {
		return nil, err
	}
	scores := make([]float32, len(out))
	for i, v := range out {
		scores[i] = v[0]
	}
	return scores, nil
}

// rankHead returns the head that rank pooling scores with, and the pooling
// of the state it takes. A Qwen3 reranker's is the last token's, and
// its head the model's (cls.output) or, without one, the rows of "yes" and
// "no" of its output matrix, which is what llama.cpp's converter writes
// into cls.output. Other models (cross-encoders) take the first token's
// state and need a head of their own.
func (e *Engine) rankHead() (*model.Head, string, error) {
	decoder := decoderRanker(e.cfg.Arch)
	if n := e.model.Labels(); n > 0 {
		if decoder && n != 2 {
			return nil, "", fmt.Errorf("%w: a %s reranker needs a head of 2 labels (yes, no), the file has %d", ErrInvalidModel, e.cfg.Arch, n)
		}
		if decoder {
			return e.model.Head, config.PoolLast, nil
		}
		return e.model.Head, config.PoolCLS, nil
	}
	if !decoder {
		return nil, "", fmt.Errorf("%w: rank pooling needs a model with a classification head (a cross-encoder)", ErrInvalidRequest)
	}
	yes, okYes := e.tok.TokenID("yes")
	no, okNo := e.tok.TokenID("no")
	out := e.model.Output
	if !okYes || !okNo || yes >= out.Rows || no >= out.Rows {
		return nil, "", fmt.Errorf("%w: the %s model has no classification head and no \"yes\" and \"no\" tokens to rank with", ErrInvalidRequest, e.cfg.Arch)
	}
	rows, err := out.PickRows(yes, no)
	if err != nil {
		return nil, "", err
	}
	return &model.Head{ClsOut: rows}, config.PoolLast, nil
}

// rankScores returns the scores of a pooled state h: the head's, and for
// a Qwen3 reranker their softmax, as llama.cpp's rank pooling does.
func (e *Engine) rankScores(head *model.Head, h []float32) []float32 {
	s := head.Scores(h)
	if !decoderRanker(e.cfg.Arch) {
		return s
	}
	m := slices.Max(s)
	p := make([]float64, len(s))
	var sum float64
	for i, x := range s {
		p[i] = math.Exp(float64(x - m))
		sum += p[i]
	}
	for i := range s {
		s[i] = float32(p[i] / sum)
	}
	return s
}
