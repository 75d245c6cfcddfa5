package server

import (
	"sort"
	"strings"

	"github.com/mlxrun/mlx/server/openai"
)

// chatAggregator builds a chat.completion from the chunks of its stream.
type chatAggregator struct {
	logprobs bool     // the request asked for logprobs
	gen      *chatGen // for prompt_logprobs
	head     openai.ChatCompletion
	choices  map[int]*aggChoice
	annotations
}

// aggChoice is a choice being assembled.
type aggChoice struct {
	content, reasoning strings.Builder
	hasContent         bool
	calls              []openai.ToolCall
	logprobs           *openai.ChatLogprobs
	finish             *string
	stopReason         any
}

func (a *chatAggregator) send(c *openai.ChatCompletion) error {
	if a.choices == nil {
		a.choices = map[int]*aggChoice{}
	}
	a.head.ID, a.head.Created, a.head.Model, a.head.SystemFingerprint = c.ID, c.Created, c.Model, c.SystemFingerprint
	if c.Usage != nil {
		u := *c.Usage
		a.head.Usage = &u
	}
	for _, ch := range c.Choices {
		ac := a.choices[ch.Index]
		if ac == nil {
			ac = &aggChoice{}
			a.choices[ch.Index] = ac
		}
		ac.add(ch)
	}
	return nil
}

func (ac *aggChoice) add(ch openai.ChatChoice) {
	if d := ch.Delta; d != nil {
		if d.Content != nil {
			ac.content.WriteString(*d.Content)
			ac.hasContent = ac.hasContent || *d.Content != ""
		}
		if d.ReasoningContent != nil {
			ac.reasoning.WriteString(*d.ReasoningContent)
		}
		for _, tc := range d.ToolCalls {
			if tc.Index != nil && *tc.Index < len(ac.calls) {
				ac.calls[*tc.Index].Function.Arguments += tc.Function.Arguments
				continue
			}
			tc.Index = nil
			ac.calls = append(ac.calls, tc)
		}
	}
	if ch.Logprobs != nil {
		if ac.logprobs == nil {
			ac.logprobs = &openai.ChatLogprobs{Content: []openai.TokenLogprob{}}
		}
		ac.logprobs.Content = append(ac.logprobs.Content, ch.Logprobs.Content...)
	}
	if ch.FinishReason != nil {
		ac.finish, ac.stopReason = ch.FinishReason, ch.StopReason
	}
}

// chatResponse is a chat.completion with the annotations extension.
type chatResponse struct {
	openai.ChatCompletion
	Annotations []annotation `json:"annotations,omitempty"`
}

func (a *chatAggregator) result() any {
	out := a.head
	out.Object = openai.ObjectChat
	idx := make([]int, 0, len(a.choices))
	for i := range a.choices {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	if a.gen != nil {
		out.PromptLogprobs = a.gen.promptLP
	}
	out.Choices = make([]openai.ChatChoice, 0, len(idx))
	for _, i := range idx {
		ac := a.choices[i]
		msg := &openai.ResponseMessage{Role: openai.RoleAssistant, ToolCalls: ac.calls}
		if text := ac.content.String(); ac.hasContent || len(ac.calls) == 0 {
			msg.Content = &text
		}
		if r := ac.reasoning.String(); r != "" {
			msg.ReasoningContent = &r
		}
		if a.logprobs && ac.logprobs == nil {
			ac.logprobs = &openai.ChatLogprobs{Content: []openai.TokenLogprob{}}
		}
		out.Choices = append(out.Choices, openai.ChatChoice{Index: i, Message: msg, Logprobs: ac.logprobs,
			FinishReason: ac.finish, StopReason: ac.stopReason})
	}
	return chatResponse{ChatCompletion: out, Annotations: a.annotations.list}
}
