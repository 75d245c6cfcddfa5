package runtime

import (
	"errors"
	"fmt"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/model"
)

// textSide is the tokenizer and chat template of a model.
type textSide struct {
	tok  *tokenizer.Tokenizer
	tmpl string
	err  error
}

// loadTextSide starts loading the tokenizer (unless tok is already given)
// and the chat template of ref on a goroutine of its own: for a vocabulary
// of 128k–151k tokens that takes a noticeable part of a model's start-up,
// and it runs while the weights are bound. A GGUF file's tokenizer and chat
// template are read from src's already parsed metadata rather than
// parsed a second time.
func loadTextSide(ref string, src model.Source, tok *tokenizer.Tokenizer) <-chan textSide {
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
			var err error
			if isGGUF {
				r.tmpl, _, err = chat.GGUFTemplate(g.F)
			} else {
				r.tmpl, _, err = chat.FindTemplate(ref)
			}
			if err != nil && !errors.Is(err, chat.ErrNoTemplate) {
				r.err = err
			}
		}
		out <- r
	}()
	return out
}
