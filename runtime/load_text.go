package runtime

import (
	"errors"
	"fmt"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/chatmodel"
	"github.com/mlxrun/mlx/runtime/model"
)

// textSide is the tokenizer and chat model of a model.
type textSide struct {
	tok  *tokenizer.Tokenizer
	chat *chatmodel.Model
	err  error
}

// loadTextSide starts loading the tokenizer (unless tok is already given)
// and the chat templates of ref on a goroutine of its own: for a vocabulary
// of 128k–151k tokens that takes a noticeable part of a model's start-up,
// and it runs while the weights are bound. A GGUF file's tokenizer, chat
// templates and special tokens are read from src's already parsed metadata
// rather than parsed a second time.
func loadTextSide(ref string, src model.Source, tok *tokenizer.Tokenizer, gen config.Generation) <-chan textSide {
	out := make(chan textSide, 1) // the goroutine never blocks, even if no one waits
	go func() {
		r := textSide{tok: tok}
		g, isGGUF := src.(model.GGUFSource)
		isGGUF = isGGUF && g.F.Path == ref
		if r.tok == nil {
			if isGGUF {
				r.tok, r.err = tokenizer.FromGGUF(g.F)
			} else {
				r.tok, r.err = tokenizer.Load(ref)
			}
			if r.err != nil {
				r.err = fmt.Errorf("%s: %w", ref, r.err) // the tokenizer's errors say "tokenizer:"
			}
		}
		if r.err == nil {
			r.chat, r.err = loadChat(ref, g, isGGUF, r.tok, gen)
		}
		out <- r
	}()
	return out
}

// loadChat compiles the chat templates of ref and reads its special
// tokens. A model without templates has a chat model that only tokenizes;
// templates that fail to compile are kept as the chat model's error, so
// that the model still completes text.
func loadChat(ref string, g model.GGUFSource, isGGUF bool, tok *tokenizer.Tokenizer, gen config.Generation) (*chatmodel.Model, error) {
	var srcs []chat.Source
	var tokens chat.SpecialTokens
	var err error
	if isGGUF {
		srcs, err = chat.GGUFTemplates(g.F)
		tokens = chat.GGUFTokens(g.F)
	} else {
		srcs, err = chat.FindTemplates(ref)
		var terr error
		if tokens, terr = chat.LoadTokens(ref); terr != nil && err == nil {
			err = terr
		}
	}
	if errors.Is(err, chat.ErrNoTemplate) {
		return chatmodel.New(tok, nil, tokens, gen, nil), nil
	}
	if err != nil {
		return nil, err
	}
	ts, err := chat.CompileAll(srcs)
	if err != nil {
		return chatmodel.New(tok, nil, tokens, gen, err), nil
	}
	return chatmodel.New(tok, ts, tokens, gen, nil), nil
}
