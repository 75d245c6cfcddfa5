package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server"
	"github.com/mlxrun/mlx/server/toolparse"
)

// engineModel adapts a runtime.Engine to server.Model.
type engineModel struct {
	e   *runtime.Engine
	tok *tokenizer.Tokenizer
	ts  *chat.Templates // nil when the model has no chat template
	// tokens are the special tokens a template given with a request sees.
	tokens chat.SpecialTokens
	info   server.ModelInfo
}

func newEngineModel(e *runtime.Engine, path string) (*engineModel, error) {
	ts, err := chat.Load(path)
	var tokens chat.SpecialTokens
	switch {
	case errors.Is(err, chat.ErrNoTemplate):
		ts = nil
		tokens, err = chat.LoadTokens(path)
	case err == nil:
		tokens = ts.Tokens
	}
	if err != nil {
		return nil, err
	}
	in := e.Info()
	m := &engineModel{e: e, tok: e.Tokenizer(), ts: ts, tokens: tokens}
	m.info = server.ModelInfo{Path: in.Path, Format: in.Format, Quantization: in.WeightType, Arch: in.Arch,
		Parameters: in.Params, Context: in.Context, VocabSize: e.Config().VocabSize,
		Memory: in.WeightBytes + in.KVBytes + in.StateBytes, LoadTime: in.LoadTime, Parallel: in.Parallel,
		Defaults: generationDefaults(e.Generation()), ToolFormat: toolparse.Detect(templateText(ts, e))}
	if st, err := os.Stat(path); err == nil {
		m.info.Created = st.ModTime()
	}
	return m, nil
}

// templateText is the source of the templates the model renders tools with.
func templateText(ts *chat.Templates, e *runtime.Engine) string {
	if ts == nil {
		return e.ChatTemplate()
	}
	var b strings.Builder
	if ts.Default != nil {
		b.WriteString(ts.Default.Source)
	}
	if t := ts.Named["tool_use"]; t != nil {
		b.WriteString(t.Source)
	}
	return b.String()
}

// generationDefaults applies a model's generation_config.json to the
// default sampling parameters, as vLLM does for requests that set nothing.
func generationDefaults(g config.Generation) sample.Params {
	p := sample.Defaults()
	if g.Temperature != nil {
		p.Temperature = *g.Temperature
	}
	if g.TopP != nil && *g.TopP > 0 {
		p.TopP = *g.TopP
	}
	if g.TopK != nil {
		p.TopK = max(*g.TopK, 0)
	}
	if g.MinP != nil {
		p.MinP = *g.MinP
	}
	if g.RepetitionPenalty != nil && *g.RepetitionPenalty > 0 {
		p.RepetitionPenalty = *g.RepetitionPenalty
	}
	if g.DoSample != nil && !*g.DoSample {
		p.Temperature = 0
	}
	if p.Validate() != nil {
		return sample.Defaults() // a config outside the API's ranges
	}
	return p
}

// Info implements server.Model.
func (m *engineModel) Info() server.ModelInfo { return m.info }

// Generate implements server.Model.
func (m *engineModel) Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	return m.e.Generate(ctx, req, emit)
}

// Busy implements server.Admitter: an error wrapping runtime.ErrBusy
// while the engine's queue is full.
func (m *engineModel) Busy() error { return m.e.Busy() }

// Stats implements server.StatsReporter with the engine's load.
func (m *engineModel) Stats() runtime.Stats { return m.e.Stats() }

// Tokenize implements server.Model.
func (m *engineModel) Tokenize(text string, addSpecial bool) []int32 {
	ids := m.tok.Encode(text, addSpecial)
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}

// Detokenize implements server.Model.
func (m *engineModel) Detokenize(ids []int32, skipSpecial bool) string {
	in := make([]int, len(ids))
	for i, id := range ids {
		in[i] = int(id)
	}
	return m.tok.Decode(in, skipSpecial)
}

// TokenPiece implements server.Piecer.
func (m *engineModel) TokenPiece(id int32) string { return m.tok.Piece(int(id)) }

// Close implements server.Model.
func (m *engineModel) Close() error { return m.e.Close() }

// RenderChat implements server.Model with the model's chat template, or
// the one that came with the request.
func (m *engineModel) RenderChat(msgs []server.ChatMessage, opt server.ChatOptions) (string, error) {
	if m.ts == nil && opt.Template == "" {
		return "", fmt.Errorf("%w: the model has none; use /v1/completions, or use_raw_prompt", chat.ErrNoTemplate)
	}
	data, err := json.Marshal(msgs)
	if err != nil {
		return "", err
	}
	cm, err := chat.ParseMessages(data)
	if err != nil {
		return "", err
	}
	in := chat.Input{Messages: cm, AddGenerationPrompt: opt.AddGenerationPrompt && !opt.ContinueFinalMessage, Kwargs: opt.Kwargs}
	for _, t := range opt.Tools {
		b, err := json.Marshal(t)
		if err != nil {
			return "", err
		}
		in.Tools = append(in.Tools, b)
	}
	var text string
	if opt.Template != "" {
		text, err = chat.RenderSource(context.Background(), opt.Template, m.tokens, in)
	} else {
		text, err = m.ts.Render(context.Background(), in)
	}
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

// openFinal cuts the rendered conversation right after the last message's
// content, so that the model continues it (as transformers does for
// continue_final_message).
func openFinal(text string, last server.ChatMessage) string {
	content := strings.TrimSpace(last.Content)
	if content == "" {
		return text
	}
	if i := strings.LastIndex(text, content); i >= 0 {
		return text[:i+len(content)]
	}
	return text
}

// PromptLogprobs implements server.Scorer: entry i is the log-probability
// of ids[i+1] after ids[:i+1], with the top alternatives.
func (m *engineModel) PromptLogprobs(ctx context.Context, ids []int32, top int) ([]runtime.Logprob, error) {
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
