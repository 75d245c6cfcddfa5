package ollama

import "encoding/json"

// MaxEmbedInputs bounds the inputs of one /api/embed request.
const MaxEmbedInputs = 2048

// EmbedRequest is the body of POST /api/embed.
type EmbedRequest struct {
	Model      string          `json:"model"`
	Input      json.RawMessage `json:"input"`
	Truncate   *bool           `json:"truncate,omitempty"`
	Dimensions int             `json:"dimensions,omitempty"`
	KeepAlive  json.RawMessage `json:"keep_alive,omitempty"`
	Options    Options         `json:"options"`
}

// EmbedResponse is the body of its answer.
type EmbedResponse struct {
	Model           string      `json:"model"`
	Embeddings      [][]float32 `json:"embeddings"`
	TotalDuration   int64       `json:"total_duration,omitempty"`
	LoadDuration    int64       `json:"load_duration,omitempty"`
	PromptEvalCount int         `json:"prompt_eval_count,omitempty"`
}

// DecodeEmbed reads and checks the body of POST /api/embed; inputs are
// its texts (input as one text or a list of them).
func DecodeEmbed(body []byte) (req *EmbedRequest, inputs []string, truncate bool, err error) {
	req = &EmbedRequest{}
	if err := Unmarshal(body, req); err != nil {
		return nil, nil, false, err
	}
	if req.Model == "" {
		return nil, nil, false, bad("model is required")
	}
	if _, err := DecodeKeepAlive(req.KeepAlive); err != nil {
		return nil, nil, false, err
	}
	var one string
	if json.Unmarshal(req.Input, &one) == nil {
		inputs = []string{one}
	} else if json.Unmarshal(req.Input, &inputs) != nil {
		return nil, nil, false, bad("input must be a text or a list of texts")
	}
	switch {
	case len(inputs) == 0:
		return nil, nil, false, bad("input is required")
	case len(inputs) > MaxEmbedInputs:
		return nil, nil, false, bad("input has %d texts, more than the %d one request may embed", len(inputs), MaxEmbedInputs)
	case req.Dimensions < 0:
		return nil, nil, false, bad("dimensions must be positive, got %d", req.Dimensions)
	}
	return req, inputs, req.Truncate == nil || *req.Truncate, nil
}
