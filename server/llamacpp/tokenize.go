package llamacpp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mlxrun/mlx/server/openai"
)

// Limits of request values.
const (
	MaxContentParts = 4096    // parts of a mixed /tokenize content
	MaxTokens       = 1 << 20 // token ids of one /detokenize
)

// TokenizeRequest is the body of POST /tokenize.
type TokenizeRequest struct {
	Model        string          `json:"model"`
	ContentRaw   json.RawMessage `json:"content"`
	AddSpecial   bool            `json:"add_special"`
	ParseSpecial *bool           `json:"parse_special"`
	WithPieces   bool            `json:"with_pieces"`

	// Content is the content, filled by ParseTokenize: texts and token
	// ids in order.
	Content []Part `json:"-"`
}

// Part is one part of a content: a text to tokenize, or a token id taken
// as it is (IsID).
type Part struct {
	Text string
	ID   int32
	IsID bool
}

// SpecialParsed reports whether special tokens written in the text are
// recognised (parse_special, true when unset).
func (r *TokenizeRequest) SpecialParsed() bool { return r.ParseSpecial == nil || *r.ParseSpecial }

// ParseTokenize decodes and checks a /tokenize body. content is a string,
// or an array of strings and token ids; a body without content has none.
func ParseTokenize(body []byte) (*TokenizeRequest, *openai.Error) {
	r := &TokenizeRequest{}
	if e := decodeObject(body, r); e != nil {
		return nil, e
	}
	raw := bytes.TrimSpace(r.ContentRaw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, openai.Invalid("content", openai.CodeInvalidType, "content must be a string: %v.", err)
		}
		r.Content = []Part{{Text: s}}
	case raw[0] == '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, openai.Invalid("content", openai.CodeInvalidType, "content must be a string or an array of strings and token ids: %v.", err)
		}
		if len(items) > MaxContentParts {
			return nil, openai.Invalid("content", openai.CodeInvalidValue, "content may hold at most %d parts, got %d.", MaxContentParts, len(items))
		}
		for i, it := range items {
			var p Part
			if err := json.Unmarshal(it, &p.Text); err != nil {
				if err := json.Unmarshal(it, &p.ID); err != nil {
					return nil, openai.Invalid(fmt.Sprintf("content[%d]", i), openai.CodeInvalidType, "content[%d] must be a string or a token id.", i)
				}
				p.IsID = true
			}
			r.Content = append(r.Content, p)
		}
	default:
		return nil, openai.Invalid("content", openai.CodeInvalidType, "content must be a string or an array of strings and token ids.")
	}
	return r, nil
}

// TokenizeResponse is the body /tokenize answers: token ids, or with
// with_pieces, Pieces.
type TokenizeResponse struct {
	Tokens any `json:"tokens"`
}

// Piece is a token with the text it adds (with_pieces).
type Piece struct {
	ID    int32 `json:"id"`
	Piece Bytes `json:"piece"`
}

// Bytes is a token's text: a JSON string when it is whole UTF-8, else the
// array of its byte values, as llama-server writes it.
type Bytes string

// MarshalJSON implements json.Marshaler.
func (b Bytes) MarshalJSON() ([]byte, error) {
	if utf8.ValidString(string(b)) {
		return json.Marshal(string(b))
	}
	vals := make([]int, len(b))
	for i := range len(b) {
		vals[i] = int(b[i])
	}
	return json.Marshal(vals)
}

// DetokenizeRequest is the body of POST /detokenize.
type DetokenizeRequest struct {
	Model  string  `json:"model"`
	Tokens []int32 `json:"tokens"`
}

// ParseDetokenize decodes and checks a /detokenize body.
func ParseDetokenize(body []byte) (*DetokenizeRequest, *openai.Error) {
	r := &DetokenizeRequest{}
	if e := decodeObject(body, r); e != nil {
		return nil, e
	}
	if len(r.Tokens) > MaxTokens {
		return nil, openai.Invalid("tokens", openai.CodeInvalidValue, "tokens may hold at most %d ids, got %d.", MaxTokens, len(r.Tokens))
	}
	return r, nil
}

// DetokenizeResponse is the body /detokenize answers.
type DetokenizeResponse struct {
	Content string `json:"content"`
}

// ApplyTemplateResponse is the body /apply-template answers: the prompt
// the messages render to.
type ApplyTemplateResponse struct {
	Prompt string `json:"prompt"`
}

// decodeObject decodes a JSON object body into v.
func decodeObject(body []byte, v any) *openai.Error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return openai.Invalid("", openai.CodeInvalidJSON, "The request body must be a JSON object.")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return openai.Invalid(te.Field, openai.CodeInvalidType, "Invalid type for '%s': got %s.", te.Field, te.Value)
		}
		return openai.Invalid("", openai.CodeInvalidJSON, "The request body is not valid JSON: %v.", err)
	}
	return nil
}

// ModelOf returns the "model" of a body, "" when it names none: llama-
// server serves one model, and its clients often leave it out.
func ModelOf(body []byte) (string, *openai.Error) {
	var r struct {
		Model string `json:"model"`
	}
	if e := decodeObject(body, &r); e != nil {
		return "", e
	}
	return r.Model, nil
}

// WithModel returns body, a JSON object, with its "model" set.
func WithModel(body []byte, model string) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil {
		return body // the parser that follows reports it
	}
	b, _ := json.Marshal(model) // a string always encodes
	fields["model"] = b
	out, err := json.Marshal(fields)
	if err != nil {
		return body
	}
	return out
}
