package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/chatmodel"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/toolparse"
)

// EngineModel serves a loaded runtime.Engine: prompts render and tokenize
// through the engine's chat model, the one pipe mode and the terminal chat
// use too.
type EngineModel struct {
	e    *runtime.Engine
	chat *chatmodel.Model
	info ModelInfo
}

// NewEngineModel adapts e to Model. It fails when the model's chat
// templates were found but do not compile.
func NewEngineModel(e *runtime.Engine) (*EngineModel, error) {
	cm := e.Chat()
	if err := cm.Err(); err != nil {
		return nil, err
	}
	in := e.Info()
	m := &EngineModel{e: e, chat: cm}
	m.info = ModelInfo{Path: in.Path, Format: in.Format, Quantization: in.WeightType, Arch: in.Arch,
		Parameters: in.Params, Context: in.Context, VocabSize: e.Config().VocabSize,
		Memory: in.WeightBytes + in.KVBytes + in.StateBytes, LoadTime: in.LoadTime, Parallel: in.Parallel,
		Defaults: cm.Defaults(), ToolFormat: toolparse.Detect(cm.Source()),
		ToolResponses: toolparse.ReadsToolResponses(cm.Source())}
	if st, err := os.Stat(in.Path); err == nil {
		m.info.Created = st.ModTime()
	}
	return m, nil
}

// Info implements Model.
func (m *EngineModel) Info() ModelInfo { return m.info }

// Generate implements Model.
func (m *EngineModel) Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	return m.e.Generate(ctx, req, emit)
}

// Reserve implements Admitter with a place in the engine's queue.
func (m *EngineModel) Reserve(ctx context.Context) (*runtime.Reservation, error) {
	return m.e.Reserve(ctx)
}

// Stats implements StatsReporter with the engine's load.
func (m *EngineModel) Stats() runtime.Stats { return m.e.Stats() }

// Tokenize implements Model.
func (m *EngineModel) Tokenize(text string, addSpecial bool) []int32 {
	return m.chat.Tokenizer().Encode(text, addSpecial)
}

// EncodePrompt implements Model with the chat model's rule for BOS.
func (m *EngineModel) EncodePrompt(text string) []int32 { return m.chat.Encode(text) }

// Detokenize implements Model.
func (m *EngineModel) Detokenize(ids []int32, skipSpecial bool) string {
	return m.chat.Tokenizer().Decode(ids, skipSpecial)
}

// TokenPiece implements Piecer.
func (m *EngineModel) TokenPiece(id int32) string { return m.chat.Tokenizer().Piece(int(id)) }

// Close implements Model.
func (m *EngineModel) Close() error { return m.e.Close() }

// RenderChat implements Model with the model's chat template, or the one
// that came with the request.
func (m *EngineModel) RenderChat(ctx context.Context, msgs []ChatMessage, opt ChatOptions) (string, error) {
	return renderChat(ctx, m.chat, msgs, opt)
}

// renderChat renders messages with a chat model's templates.
func renderChat(ctx context.Context, cm *chatmodel.Model, msgs []ChatMessage, opt ChatOptions) (string, error) {
	parsed, err := templateMessages(msgs)
	if err != nil {
		return "", err
	}
	in := chat.Input{Messages: parsed, AddGenerationPrompt: opt.AddGenerationPrompt && !opt.ContinueFinalMessage, Kwargs: opt.Kwargs,
		Tools: opt.Tools}
	if cm.Templates() == nil && opt.Template == "" && cm.Err() == nil {
		return "", fmt.Errorf("%w: the model has none; use /v1/completions, or use_raw_prompt", chat.ErrNoTemplate)
	}
	text, err := cm.Render(ctx, in, opt.Template)
	if err != nil {
		if msg, ok := chat.RaisedMessage(err); ok {
			return "", errors.New(msg)
		}
		return "", err
	}
	if opt.ContinueFinalMessage && len(msgs) > 0 {
		text = openFinal(text, msgs[len(msgs)-1])
	}
	return text, nil
}

// templateMessages converts messages for a chat template, their keys in the
// order of ChatMessage's JSON encoding.
func templateMessages(msgs []ChatMessage) ([]chat.Message, error) {
	out := make([]chat.Message, len(msgs))
	for i, m := range msgs {
		cm := chat.Message{Role: m.Role, Content: chat.Text(m.Content), Name: m.Name, ToolCallID: m.ToolCallID,
			ReasoningContent: m.ReasoningContent}
		keys := []string{"role", "content"}
		if m.Name != "" {
			keys = append(keys, "name")
		}
		if len(m.ToolCalls) > 0 {
			keys = append(keys, "tool_calls")
		}
		for _, tc := range m.ToolCalls {
			cm.ToolCalls = append(cm.ToolCalls, chat.ToolCall{ID: tc.ID, Type: tc.Type,
				Function: chat.FunctionCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments}})
		}
		if m.ToolCallID != "" {
			keys = append(keys, "tool_call_id")
		}
		if m.ReasoningContent != "" {
			keys = append(keys, "reasoning_content")
		}
		if m.Thinking != "" {
			b, _ := json.Marshal(m.Thinking) // a string always encodes
			cm.Extra = map[string]json.RawMessage{"thinking": b}
			keys = append(keys, "thinking")
		}
		if len(m.ToolResponses) > 0 {
			b, err := json.Marshal(m.ToolResponses)
			if err != nil {
				return nil, fmt.Errorf("%w: tool responses: %w", chat.ErrInput, err)
			}
			if cm.Extra == nil {
				cm.Extra = map[string]json.RawMessage{}
			}
			cm.Extra["tool_responses"] = b
			keys = append(keys, "tool_responses")
		}
		out[i] = cm.InOrder(keys...)
	}
	return out, nil
}

// openFinal cuts the rendered conversation right after the last message's
// content, so that the model continues it (as transformers does for
// continue_final_message).
func openFinal(text string, last ChatMessage) string {
	content := strings.TrimSpace(last.Content)
	if content == "" {
		return text
	}
	if i := strings.LastIndex(text, content); i >= 0 {
		return text[:i+len(content)]
	}
	return text
}

// PromptLogprobs implements Scorer: entry i is the log-probability of
// ids[i+1] after ids[:i+1], with the top alternatives.
func (m *EngineModel) PromptLogprobs(ctx context.Context, ids []int32, top int) ([]runtime.Logprob, error) {
	out := make([]runtime.Logprob, 0, len(ids)-1)
	var ls []float32
	var best []sample.TokenLogit
	err := m.e.Score(ctx, ids, 0, func(i int, logits []float32) error {
		if i+1 >= len(ids) {
			return nil
		}
		ls = sample.LogSoftmax(ls, logits)
		next := ids[i+1]
		lp := runtime.Logprob{ID: next, Logprob: ls[next]}
		best = sample.TopK(best, ls, top)
		for _, b := range best {
			lp.Top = append(lp.Top, sample.TokenLogprob{ID: b.ID, Logprob: b.Logit})
		}
		out = append(out, lp)
		return nil
	})
	return out, err
}

// TokenizeText implements TextTokenizer: parseSpecial false takes special
// tokens written in the text as plain text.
func (m *EngineModel) TokenizeText(text string, addSpecial, parseSpecial bool) []int32 {
	if parseSpecial {
		return m.Tokenize(text, addSpecial)
	}
	tok := m.chat.Tokenizer()
	plain := tok.EncodePlain(text)
	out := make([]int32, 0, len(plain)+2)
	if addSpecial && tok.AddBOS() {
		out = append(out, int32(tok.BOS()))
	}
	out = append(out, plain...)
	if addSpecial && tok.AddEOS() {
		out = append(out, int32(tok.EOS()))
	}
	return out
}

// FIM implements Filler with the vocabulary's fill-in-the-middle tokens.
func (m *EngineModel) FIM() FIMTokens {
	tok := m.chat.Tokenizer()
	f := tok.FIM()
	bos := int32(-1)
	if tok.AddBOS() {
		bos = int32(tok.BOS())
	}
	return FIMTokens{Pre: int32(f.Pre), Suf: int32(f.Suf), Mid: int32(f.Mid), Pad: int32(f.Pad),
		Rep: int32(f.Rep), Sep: int32(f.Sep), BOS: bos}
}
