package cli

import (
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime"
)

// chatReply is the part of a chat completion the cache tests read.
type chatReply struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int `json:"prompt_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

// responseReply is the part of a response the cache tests read.
type responseReply struct {
	ID    string `json:"id"`
	Usage struct {
		InputTokens        int `json:"input_tokens"`
		InputTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"input_tokens_details"`
	} `json:"usage"`
}

var longSystem = "You are a careful assistant. " + strings.Repeat("Answer with facts about the weather, the sea and the mountains, and say where they come from. ", 6)

// TestChatTurnsHitThePrefixCache sends a second chat turn, then the same
// request again, and a Responses chain: each reports as cached at least
// 90% of the prompt it shares with the request before.
func TestChatTurnsHitThePrefixCache(t *testing.T) {
	s := startLive(t, runtime.Options{Parallel: 2})
	msgs := []map[string]string{{"role": "system", "content": longSystem}, {"role": "user", "content": "What is the weather like at sea?"}}
	chat := func(msgs []map[string]string) chatReply {
		var r chatReply
		s.post(t, "/v1/chat/completions", map[string]any{"model": s.model, "messages": msgs, "max_tokens": 12, "temperature": 0}, &r)
		return r
	}
	first := chat(msgs)
	if first.Usage.PromptTokens < 64 || first.Usage.PromptTokensDetails.CachedTokens != 0 {
		t.Fatalf("first turn usage %+v, want a long prompt and nothing cached", first.Usage)
	}
	msgs = append(msgs, map[string]string{"role": "assistant", "content": first.Choices[0].Message.Content},
		map[string]string{"role": "user", "content": "And in the mountains?"})
	second := chat(msgs)
	again := chat(msgs)
	tests := []struct {
		name           string
		cached, shared int
	}{
		{"second turn", second.Usage.PromptTokensDetails.CachedTokens, first.Usage.PromptTokens},
		{"repeated turn", again.Usage.PromptTokensDetails.CachedTokens, second.Usage.PromptTokens},
	}
	var r1, r2 responseReply
	s.post(t, "/v1/responses", map[string]any{"model": s.model, "instructions": longSystem, "input": "Tell me about the sea.", "max_output_tokens": 8, "temperature": 0}, &r1)
	s.post(t, "/v1/responses", map[string]any{"model": s.model, "previous_response_id": r1.ID, "instructions": longSystem, "input": "And the mountains?", "max_output_tokens": 8, "temperature": 0}, &r2)
	tests = append(tests, struct {
		name           string
		cached, shared int
	}{"previous_response_id", r2.Usage.InputTokensDetails.CachedTokens, r1.Usage.InputTokens})
	for _, tt := range tests {
		t.Logf("%s: %d of %d shared prompt tokens cached", tt.name, tt.cached, tt.shared)
		if tt.cached*10 < tt.shared*9 {
			t.Errorf("%s: %d cached tokens of a shared prefix of %d, want at least 90%%", tt.name, tt.cached, tt.shared)
		}
	}
	s.waitIdle(t)
}
