package llamacpp

import (
	"encoding/json"
	"fmt"

	"github.com/mlxrun/mlx/server/openai"
)

// MaxChunks bounds the input_extra files of one /infill request.
const MaxChunks = 1024

// InfillRequest is the body of POST /infill: the code before and after
// the cursor, other files for context, and the sampling fields of a
// completion (n_predict is max_tokens).
type InfillRequest struct {
	openai.Sampling
	openai.Ext
	InputPrefix *string         `json:"input_prefix"`
	InputSuffix *string         `json:"input_suffix"`
	InputExtra  json.RawMessage `json:"input_extra"`
	Prompt      *string         `json:"prompt"`
	NPredict    *int            `json:"n_predict"`

	// Extra are the files of input_extra, filled by ParseInfill.
	Extra []Chunk `json:"-"`
}

// Chunk is a file of input_extra.
type Chunk struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

// Limit returns the most tokens to generate: max_tokens, else n_predict,
// 0 (no limit but the context) when neither is set or n_predict is -1.
func (r *InfillRequest) Limit() int {
	switch {
	case r.MaxTokens != nil:
		return *r.MaxTokens
	case r.NPredict != nil && *r.NPredict > 0:
		return *r.NPredict
	}
	return 0
}

// NoTokens reports whether the request asks for no tokens at all
// (n_predict 0, which editors send to have the context read ahead).
func (r *InfillRequest) NoTokens() bool {
	return r.MaxTokens == nil && r.NPredict != nil && *r.NPredict == 0
}

// ParseInfill decodes and checks an /infill body whose model is set.
func ParseInfill(body []byte) (*InfillRequest, *openai.Error) {
	r := &InfillRequest{}
	if e := openai.ParseBase(body, r, &r.Sampling, &r.Ext); e != nil {
		return nil, e
	}
	switch {
	case r.InputPrefix == nil:
		return nil, openai.Invalid("input_prefix", openai.CodeMissing, "\"input_prefix\" is required.")
	case r.InputSuffix == nil:
		return nil, openai.Invalid("input_suffix", openai.CodeMissing, "\"input_suffix\" is required.")
	case r.Choices() != 1:
		return nil, openai.Invalid("n", openai.CodeUnsupported, "/infill makes one completion; n must be 1.")
	case r.NPredict != nil && *r.NPredict < -1:
		return nil, openai.Invalid("n_predict", openai.CodeInvalidValue, "n_predict must be -1 (no limit) or more, got %d.", *r.NPredict)
	case r.MaxTokens != nil && *r.MaxTokens < 0:
		return nil, openai.Invalid("max_tokens", openai.CodeInvalidValue, "max_tokens must not be negative, got %d.", *r.MaxTokens)
	}
	extra, e := parseChunks(r.InputExtra)
	if e != nil {
		return nil, e
	}
	r.Extra = extra
	return r, nil
}

// parseChunks reads input_extra: an array of {"filename", "text"}, the
// file name "tmp" when it has none, as llama-server takes it.
func parseChunks(raw json.RawMessage) ([]Chunk, *openai.Error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, openai.Invalid("input_extra", openai.CodeInvalidType, "input_extra must be an array of {\"filename\": string, \"text\": string}.")
	}
	if len(items) > MaxChunks {
		return nil, openai.Invalid("input_extra", openai.CodeInvalidValue, "input_extra may hold at most %d files, got %d.", MaxChunks, len(items))
	}
	out := make([]Chunk, len(items))
	for i, it := range items {
		param := fmt.Sprintf("input_extra[%d]", i)
		if json.Unmarshal(it["text"], &out[i].Text) != nil || it["text"] == nil {
			return nil, openai.Invalid(param+".text", openai.CodeInvalidType, "%s must have a \"text\" string.", param)
		}
		out[i].Filename = "tmp"
		if fn, ok := it["filename"]; ok && json.Unmarshal(fn, &out[i].Filename) != nil {
			return nil, openai.Invalid(param+".filename", openai.CodeInvalidType, "%s.filename must be a string.", param)
		}
	}
	return out, nil
}

// Completion is the body of an /infill answer, and each event of its
// stream: the text so far or its next piece, and when Stop is set, how it
// ended.
type Completion struct {
	Index           int    `json:"index"`
	Content         string `json:"content"`
	Stop            bool   `json:"stop"`
	Model           string `json:"model,omitempty"`
	TokensPredicted int    `json:"tokens_predicted,omitempty"`
	TokensEvaluated int    `json:"tokens_evaluated,omitempty"`
	TokensCached    int    `json:"tokens_cached,omitempty"`
	// StopType is "eos", "word" (a stop string) or "limit" on the last.
	StopType     string `json:"stop_type,omitempty"`
	StoppingWord string `json:"stopping_word,omitempty"`
	Truncated    bool   `json:"truncated"`
}
