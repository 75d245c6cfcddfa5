package openai

import "encoding/json"

// MaxEmbeddingInputs bounds the inputs of one embeddings request, as at
// OpenAI.
const MaxEmbeddingInputs = 2048

// MaxDimensions bounds the dimensions parameter.
const MaxDimensions = 1 << 16

// EmbeddingRequest is the body of POST /v1/embeddings.
type EmbeddingRequest struct {
	Model          string          `json:"model"`
	InputRaw       json.RawMessage `json:"input"`
	EncodingFormat string          `json:"encoding_format"`
	Dimensions     *int            `json:"dimensions"`
	User           string          `json:"user"`
	// Truncate cuts an input longer than the context to its first tokens
	// instead of refusing it (an extension, as in llama-server).
	Truncate bool `json:"truncate"`

	// Inputs are the texts or token ids to embed (filled by
	// ParseEmbedding).
	Inputs []Prompt `json:"-"`
}

// The encoding formats of embeddings.
const (
	EncodingFloat  = "float"
	EncodingBase64 = "base64"
)

// ParseEmbedding decodes and validates an embeddings body.
func ParseEmbedding(body []byte) (*EmbeddingRequest, *Error) {
	r := &EmbeddingRequest{}
	if e := decode(body, r, ""); e != nil {
		return nil, e
	}
	if r.Model == "" {
		return nil, Invalid("model", CodeMissing, "you must provide a model parameter")
	}
	switch r.EncodingFormat {
	case "":
		r.EncodingFormat = EncodingFloat
	case EncodingFloat, EncodingBase64:
	default:
		return nil, Invalid("encoding_format", CodeInvalidValue, "encoding_format must be 'float' or 'base64', got %q.", r.EncodingFormat)
	}
	if d := r.Dimensions; d != nil && (*d < 1 || *d > MaxDimensions) {
		return nil, Invalid("dimensions", CodeInvalidValue, "dimensions must be between 1 and %d, got %d.", MaxDimensions, *d)
	}
	inputs, e := parseTexts(r.InputRaw, "input", MaxEmbeddingInputs)
	if e != nil {
		return nil, e
	}
	for _, in := range inputs {
		if in.IDs == nil && in.Text == "" {
			return nil, Invalid(in.Param, CodeInvalidValue, "%s must not be an empty string.", in.Param)
		}
	}
	r.Inputs = inputs
	return r, nil
}

// Embedding is one vector of an embeddings response: a list of floats, or
// a base64 string of little-endian float32 values.
type Embedding struct {
	Object    string `json:"object"` // "embedding"
	Index     int    `json:"index"`
	Embedding any    `json:"embedding"`
}

// EmbeddingList is the body of an embeddings response.
type EmbeddingList struct {
	Object string         `json:"object"` // "list"
	Data   []Embedding    `json:"data"`
	Model  string         `json:"model"`
	Usage  EmbeddingUsage `json:"usage"`
}

// EmbeddingUsage counts the tokens embedded.
type EmbeddingUsage struct {
	PromptTokens int `json:"prompt_tokens"`
	TotalTokens  int `json:"total_tokens"`
}
