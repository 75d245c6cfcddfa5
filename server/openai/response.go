package openai

// Object names of the responses.
const (
	ObjectChat       = "chat.completion"
	ObjectChatChunk  = "chat.completion.chunk"
	ObjectCompletion = "text_completion"
	ObjectList       = "list"
	ObjectModel      = "model"
)

// Usage counts the tokens of a request.
type Usage struct {
	PromptTokens            int                      `json:"prompt_tokens"`
	CompletionTokens        int                      `json:"completion_tokens"`
	TotalTokens             int                      `json:"total_tokens"`
	PromptTokensDetails     *PromptTokensDetails     `json:"prompt_tokens_details,omitempty"`
	CompletionTokensDetails *CompletionTokensDetails `json:"completion_tokens_details,omitempty"`
}

// PromptTokensDetails details the prompt tokens.
type PromptTokensDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

// CompletionTokensDetails details the generated tokens.
type CompletionTokensDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

// Add adds u2 to u.
func (u *Usage) Add(u2 Usage) {
	u.PromptTokens += u2.PromptTokens
	u.CompletionTokens += u2.CompletionTokens
	u.TotalTokens += u2.TotalTokens
	if d := u2.PromptTokensDetails; d != nil {
		if u.PromptTokensDetails == nil {
			u.PromptTokensDetails = &PromptTokensDetails{}
		}
		u.PromptTokensDetails.CachedTokens += d.CachedTokens
	}
	if d := u2.CompletionTokensDetails; d != nil {
		if u.CompletionTokensDetails == nil {
			u.CompletionTokensDetails = &CompletionTokensDetails{}
		}
		u.CompletionTokensDetails.ReasoningTokens += d.ReasoningTokens
	}
}

// ChatCompletion is the response of a chat completion, and, with Object
// "chat.completion.chunk", one chunk of its stream.
type ChatCompletion struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Created           int64        `json:"created"`
	Model             string       `json:"model"`
	SystemFingerprint string       `json:"system_fingerprint,omitempty"`
	Choices           []ChatChoice `json:"choices"`
	Usage             *Usage       `json:"usage,omitempty"`
	// PromptLogprobs answers the prompt_logprobs extension (vLLM).
	PromptLogprobs PromptLogprobs `json:"prompt_logprobs,omitempty"`
}

// ChatChoice is one choice: Message in a response, Delta in a chunk.
type ChatChoice struct {
	Index        int              `json:"index"`
	Message      *ResponseMessage `json:"message,omitempty"`
	Delta        *ChatMessage     `json:"delta,omitempty"`
	Logprobs     *ChatLogprobs    `json:"logprobs"`
	FinishReason *string          `json:"finish_reason"`
	// StopReason is the stop string or token id that ended the choice
	// (vLLM), null otherwise.
	StopReason any `json:"stop_reason,omitempty"`
}

// ResponseMessage is the message of a choice of a response: content and
// refusal are null rather than absent.
type ResponseMessage struct {
	Role             string     `json:"role"`
	Content          *string    `json:"content"`
	ReasoningContent *string    `json:"reasoning_content,omitempty"`
	Refusal          *string    `json:"refusal"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
}

// ChatMessage is the delta of a chunk.
type ChatMessage struct {
	Role             string     `json:"role,omitempty"`
	Content          *string    `json:"content,omitempty"`
	ReasoningContent *string    `json:"reasoning_content,omitempty"`
	Refusal          *string    `json:"refusal,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
}

// ChatLogprobs are the log-probabilities of a chat choice.
type ChatLogprobs struct {
	Content []TokenLogprob `json:"content"`
	Refusal []TokenLogprob `json:"refusal"`
}

// TokenLogprob is a token with its log-probability and, for the chosen
// tokens, the most probable alternatives.
type TokenLogprob struct {
	Token       string         `json:"token"`
	Logprob     float64        `json:"logprob"`
	Bytes       []int          `json:"bytes"`
	TopLogprobs []TokenLogprob `json:"top_logprobs,omitempty"`
}

// Completion is the response of a completion, and one chunk of its stream.
type Completion struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	SystemFingerprint string             `json:"system_fingerprint,omitempty"`
	Choices           []CompletionChoice `json:"choices"`
	Usage             *Usage             `json:"usage,omitempty"`
}

// CompletionChoice is one choice of a completion.
type CompletionChoice struct {
	Index        int                 `json:"index"`
	Text         string              `json:"text"`
	Logprobs     *CompletionLogprobs `json:"logprobs"`
	FinishReason *string             `json:"finish_reason"`
	StopReason   any                 `json:"stop_reason,omitempty"`
	// PromptLogprobs answers the prompt_logprobs extension (vLLM).
	PromptLogprobs PromptLogprobs `json:"prompt_logprobs,omitempty"`
}

// PromptLogprobs are the log-probabilities of a prompt's tokens, as vLLM
// reports them: one entry per prompt token, null for the first (nothing
// predicts it), else the token and the most probable alternatives by id.
type PromptLogprobs []map[int32]PromptLogprob

// PromptLogprob is a token of an entry of PromptLogprobs: its
// log-probability, its rank (1: the most probable; null when it is not
// among the alternatives computed) and its text.
type PromptLogprob struct {
	Logprob      float64 `json:"logprob"`
	Rank         *int    `json:"rank"`
	DecodedToken string  `json:"decoded_token"`
}

// CompletionLogprobs are the log-probabilities of a completion choice in
// the legacy format: parallel arrays over the tokens.
type CompletionLogprobs struct {
	Tokens        []string             `json:"tokens"`
	TokenLogprobs []*float64           `json:"token_logprobs"`
	TopLogprobs   []map[string]float64 `json:"top_logprobs"`
	TextOffset    []int                `json:"text_offset"`
}

// Append adds the entries of l2 to l.
func (l *CompletionLogprobs) Append(l2 *CompletionLogprobs) {
	l.Tokens = append(l.Tokens, l2.Tokens...)
	l.TokenLogprobs = append(l.TokenLogprobs, l2.TokenLogprobs...)
	l.TopLogprobs = append(l.TopLogprobs, l2.TopLogprobs...)
	l.TextOffset = append(l.TextOffset, l2.TextOffset...)
}

// Model is an entry of GET /v1/models.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// ModelList is the body of GET /v1/models.
type ModelList struct {
	Object string  `json:"object"`
	Data   []Model `json:"data"`
}
