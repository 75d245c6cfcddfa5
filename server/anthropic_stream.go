package server

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/anthropic"
	"github.com/mlxrun/mlx/server/toolparse"
)

// messagesGen is the Messages encoder of a plan's stream: it builds the
// content blocks of the message and, when streamed, sends each change as
// an event.
type messagesGen struct {
	resp     anthropic.Response
	st       *genStream
	send     func(event string, v any) error // nil: not streamed
	blocks   []any                           // *TextBlock, *ThinkingBlock, *ToolUseBlock
	open     string                          // the type of the open block, "" when none
	space    string                          // white space held back before a text block opens
	stopSeqs []string
}

// start sends message_start and a ping.
func (g *messagesGen) start() error {
	if g.send == nil {
		return nil
	}
	head := g.resp
	head.Content = []any{}
	head.Usage = anthropic.Usage{InputTokens: g.st.usage().prompt}
	if err := g.send(anthropic.EventMessageStart, anthropic.MessageStart{Type: anthropic.EventMessageStart, Message: head}); err != nil {
		return err
	}
	return g.send(anthropic.EventPing, anthropic.Ping{Type: anthropic.EventPing})
}

// encodeDelta implements encoder: it adds what the parser gave:
// reasoning, text, then tool calls.
func (g *messagesGen) encodeDelta(_ int, d toolparse.Delta, _ runtime.Event) error {
	if d.Reasoning != "" {
		if err := g.thinking(d.Reasoning); err != nil {
			return err
		}
	}
	if d.Content != "" {
		if err := g.text(d.Content); err != nil {
			return err
		}
	}
	for _, c := range d.Calls {
		if err := g.toolUse(c); err != nil {
			return err
		}
	}
	return nil
}

// thinking adds reasoning to the open thinking block, or opens one.
func (g *messagesGen) thinking(s string) error {
	if err := g.ensure(anthropic.BlockThinking); err != nil {
		return err
	}
	b := g.blocks[len(g.blocks)-1].(*anthropic.ThinkingBlock)
	b.Thinking += s
	return g.sendDelta(anthropic.ThinkingDelta{Type: "thinking_delta", Thinking: s})
}

// text adds text to the open text block, or opens one; white space alone
// opens none, so that the space between reasoning and a tool call makes
// no empty block.
func (g *messagesGen) text(s string) error {
	if g.open != anthropic.BlockText {
		if strings.TrimSpace(s) == "" {
			g.space += s
			return nil
		}
		s, g.space = strings.TrimLeft(g.space+s, " \t\r\n"), ""
		if err := g.ensure(anthropic.BlockText); err != nil {
			return err
		}
	}
	b := g.blocks[len(g.blocks)-1].(*anthropic.TextBlock)
	b.Text += s
	return g.sendDelta(anthropic.TextDelta{Type: "text_delta", Text: s})
}

// toolUse adds a whole tool_use block.
func (g *messagesGen) toolUse(c toolparse.Call) error {
	if err := g.closeBlock(); err != nil {
		return err
	}
	g.space = ""
	input := json.RawMessage(strings.TrimSpace(c.Arguments))
	if len(input) == 0 || input[0] != '{' || !json.Valid(input) {
		input = json.RawMessage("{}")
	}
	b := &anthropic.ToolUseBlock{Type: anthropic.BlockToolUse, ID: newID("toolu_", 24), Name: c.Name, Input: input}
	g.blocks = append(g.blocks, b)
	if g.send == nil {
		return nil
	}
	i := len(g.blocks) - 1
	head := *b
	head.Input = json.RawMessage("{}")
	if err := g.send(anthropic.EventContentBlockStart, anthropic.ContentBlockStart{Type: anthropic.EventContentBlockStart, Index: i, ContentBlock: head}); err != nil {
		return err
	}
	if err := g.sendDelta(anthropic.InputJSONDelta{Type: "input_json_delta", PartialJSON: string(input)}); err != nil {
		return err
	}
	return g.send(anthropic.EventContentBlockStop, anthropic.ContentBlockStop{Type: anthropic.EventContentBlockStop, Index: i})
}

// ensure opens a block of type typ unless one is open.
func (g *messagesGen) ensure(typ string) error {
	if g.open == typ {
		return nil
	}
	if err := g.closeBlock(); err != nil {
		return err
	}
	var b any = &anthropic.TextBlock{Type: typ}
	if typ == anthropic.BlockThinking {
		b = &anthropic.ThinkingBlock{Type: typ}
	}
	g.blocks = append(g.blocks, b)
	g.open = typ
	if g.send == nil {
		return nil
	}
	return g.send(anthropic.EventContentBlockStart, anthropic.ContentBlockStart{Type: anthropic.EventContentBlockStart,
		Index: len(g.blocks) - 1, ContentBlock: b})
}

// closeBlock closes the open block.
func (g *messagesGen) closeBlock() error {
	if g.open == "" {
		return nil
	}
	g.open = ""
	if g.send == nil {
		return nil
	}
	return g.send(anthropic.EventContentBlockStop, anthropic.ContentBlockStop{Type: anthropic.EventContentBlockStop, Index: len(g.blocks) - 1})
}

func (g *messagesGen) sendDelta(d any) error {
	if g.send == nil {
		return nil
	}
	return g.send(anthropic.EventContentBlockDelta, anthropic.ContentBlockDelta{Type: anthropic.EventContentBlockDelta,
		Index: len(g.blocks) - 1, Delta: d})
}

// encodeEnd implements encoder: it closes the content and the message.
func (g *messagesGen) encodeEnd(_ int, res runtime.Result) error {
	if err := g.closeBlock(); err != nil {
		return err
	}
	u := g.st.usage()
	reason, seq := g.stopReason(res)
	g.resp.StopReason, g.resp.StopSequence = &reason, seq
	g.resp.Content = g.blocks
	if g.resp.Content == nil {
		g.resp.Content = []any{}
	}
	g.resp.Usage = anthropic.Usage{InputTokens: u.prompt - u.cached, OutputTokens: u.completion, CacheReadInputTokens: u.cached}
	if g.send == nil {
		return nil
	}
	if err := g.send(anthropic.EventMessageDelta, anthropic.MessageDelta{Type: anthropic.EventMessageDelta,
		Delta: anthropic.StopDelta{StopReason: &reason, StopSequence: seq}, Usage: g.resp.Usage}); err != nil {
		return err
	}
	return g.send(anthropic.EventMessageStop, anthropic.MessageStop{Type: anthropic.EventMessageStop})
}

// encodeFinish implements encoder: encodeEnd ended the message.
func (g *messagesGen) encodeFinish() error { return nil }

// stopReason says why the message ended, with the stop sequence that
// ended it.
func (g *messagesGen) stopReason(res runtime.Result) (string, *string) {
	switch {
	case res.Finish == runtime.FinishLength:
		return anthropic.StopMaxTokens, nil
	case g.st.choices[0].calls > 0:
		return anthropic.StopToolUse, nil
	case res.StopString != "" && slices.Contains(g.stopSeqs, res.StopString):
		s := res.StopString
		return anthropic.StopSequence, &s
	}
	return anthropic.StopEndTurn, nil
}
