// Package tui is the interactive terminal chat of `mlx run MODEL`: a
// bubbletea program that streams answers from a Generator, renders them as
// markdown, and offers slash commands, input history and a status line.
// It knows nothing of HTTP and nothing of the engine's types: the caller
// adapts its engine to the one-method Generator interface.
package tui

import "context"

// Generator produces one chat answer, streaming it through emit. Chat
// returns when the answer is complete, when ctx is done, or when emit
// returns an error (it then returns that error or the cause of ctx).
type Generator interface {
	Chat(ctx context.Context, req ChatRequest, emit func(Delta) error) (Stats, error)
}

// The roles of a Message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of the conversation.
type Message struct {
	Role    string // RoleSystem, RoleUser or RoleAssistant
	Content string // for an assistant, the answer without its reasoning
	// Reasoning is an assistant's thoughts (from <think>…</think>); chat
	// templates usually leave them out of later turns.
	Reasoning string
}

// Settings are the sampling settings the person can change with /set.
type Settings struct {
	Temperature float64 // [0, 2]; 0 is greedy decoding
	TopP        float64 // (0, 1]; 1 disables
	TopK        int     // ≥ 0; 0 disables
	MaxTokens   int     // ≥ 0; 0 lets the answer run to the end of the context
	Seed        *int64  // nil: a random seed for every answer
	Think       bool    // let a reasoning model think before it answers
}

// ChatRequest is what Chat receives: the whole conversation, the system
// prompt first when there is one, and the settings.
type ChatRequest struct {
	Messages []Message
	Settings Settings
}

// Delta is a piece of the answer. Text is always whole UTF-8 characters; a
// reasoning model's thoughts arrive inside <think>…</think> like any text.
type Delta struct {
	Text   string
	Tokens int // tokens this piece completes, for the live tokens/s
	// PromptTokens is the length of the prompt, sent once before the
	// answer, so that the status line counts the context in use live.
	PromptTokens int
}

// The finish reasons of Stats.
const (
	FinishStop      = "stop"      // the model ended its answer
	FinishLength    = "length"    // max_tokens or the end of the context
	FinishCancelled = "cancelled" // stopped by the person or by an error
)

// Stats describe a finished answer.
type Stats struct {
	PromptTokens     int
	CompletionTokens int
	TokensPerSecond  float64 // generation speed, after the first token
	Finish           string  // FinishStop, FinishLength or FinishCancelled
	ContextUsed      int     // tokens of the context in use after the answer
	ContextSize      int     // tokens the context holds
}
