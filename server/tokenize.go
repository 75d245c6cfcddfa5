package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/mlxrun/mlx/server/llamacpp"
	"github.com/mlxrun/mlx/server/openai"
)

// TextTokenizer is implemented by models that can tokenize a text with
// special tokens' texts taken as plain text (/tokenize's parse_special).
type TextTokenizer interface {
	TokenizeText(text string, addSpecial, parseSpecial bool) []int32
}

// handleTokenize serves POST /tokenize, llama-server's: the token ids of
// a content (texts and ids), with their pieces on request.
func (s *Server) handleTokenize(c *call) {
	req, perr := llamacpp.ParseTokenize(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	s.answerWith(c, req.Model, func(_ context.Context, m Model) (any, error) {
		ids, err := tokenizeParts(m, req.Content, req.AddSpecial, req.SpecialParsed())
		if err != nil || !req.WithPieces {
			return llamacpp.TokenizeResponse{Tokens: ids}, err
		}
		pieces := make([]llamacpp.Piece, len(ids))
		for i, id := range ids {
			pieces[i] = llamacpp.Piece{ID: id, Piece: llamacpp.Bytes(tokenPiece(m, id))}
		}
		return llamacpp.TokenizeResponse{Tokens: pieces}, nil
	})
}

// tokenizeParts tokenizes texts and checks ids as llama-server does: BOS
// (addSpecial) only when the content starts with a text.
func tokenizeParts(m Model, parts []llamacpp.Part, addSpecial, parseSpecial bool) ([]int32, error) {
	tt, plainOK := m.(TextTokenizer)
	if !parseSpecial && !plainOK {
		return nil, openai.Invalid("parse_special", openai.CodeUnsupported, "This model cannot tokenize with parse_special false.")
	}
	vocab := m.Info().VocabSize
	ids := []int32{}
	for i, p := range parts {
		add := addSpecial && i == 0
		switch {
		case p.IsID:
			if p.ID < 0 || (vocab > 0 && int(p.ID) >= vocab) {
				return nil, openai.Invalid("content", openai.CodeInvalidValue, "content[%d] is token id %d, outside the vocabulary of %d tokens.", i, p.ID, vocab)
			}
			ids = append(ids, p.ID)
		case plainOK:
			ids = append(ids, tt.TokenizeText(p.Text, add, parseSpecial)...)
		default:
			ids = append(ids, m.Tokenize(p.Text, add)...)
		}
	}
	return ids, nil
}

// tokenPiece is the text a token adds: its raw bytes, or for a special
// token, its text.
func tokenPiece(m Model, id int32) string {
	if p, ok := m.(Piecer); ok {
		if s := p.TokenPiece(id); s != "" {
			return s
		}
	}
	return m.Detokenize([]int32{id}, false)
}

// handleDetokenize serves POST /detokenize, llama-server's: the text of
// token ids, special tokens included.
func (s *Server) handleDetokenize(c *call) {
	req, perr := llamacpp.ParseDetokenize(c.rc.PostBody())
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	s.answerWith(c, req.Model, func(_ context.Context, m Model) (any, error) {
		vocab := m.Info().VocabSize
		for i, id := range req.Tokens {
			if id < 0 || (vocab > 0 && int(id) >= vocab) {
				return nil, openai.Invalid("tokens", openai.CodeInvalidValue, "tokens[%d] is token id %d, outside the vocabulary of %d tokens.", i, id, vocab)
			}
		}
		return llamacpp.DetokenizeResponse{Content: m.Detokenize(req.Tokens, false)}, nil
	})
}

// handleApplyTemplate serves POST /apply-template, llama-server's: the
// prompt a chat completions request renders to, without generating.
func (s *Server) handleApplyTemplate(c *call) {
	name, body, ok := s.llamaBody(c)
	if !ok {
		return
	}
	req, perr := openai.ParseChat(body)
	if perr != nil {
		writeError(c.rc, perr)
		return
	}
	s.answerWith(c, name, func(ctx context.Context, m Model) (any, error) {
		r, err := chatPlan(req).renderText(ctx, m)
		if err != nil {
			return nil, chatNames.openai(err)
		}
		return llamacpp.ApplyTemplateResponse{Prompt: r.text}, nil
	})
}

// answerWith answers a request that does not generate with what answer
// makes of its model: the one it names, or the one model loaded when it
// names none. It takes no queue place: tokenizing never waits for
// generation.
func (s *Server) answerWith(c *call, name string, answer func(context.Context, Model) (any, error)) {
	name, err := s.defaultModel(name)
	if err != nil {
		writeError(c.rc, apiError(err))
		return
	}
	m, _, release, err := s.acquireModel(c, name)
	if err != nil {
		writeError(c.rc, apiError(err))
		return
	}
	defer release()
	if rm, ok := m.(*remoteModel); ok {
		writeError(c.rc, openai.Invalid("model", openai.CodeUnsupported, "%s is served by the upstream %s: its tokenizer and template are there, not here.", rm.id, rm.up.Name()))
		return
	}
	ctx, stop := watchClient(s.base, c.rc.Conn())
	v, err := answer(ctx, m)
	stop()
	if err != nil {
		writeError(c.rc, apiError(err))
		return
	}
	writeJSON(c.rc, http.StatusOK, v)
}

// llamaBody returns the body of a request whose parser needs a model,
// with its "model" set to the one loaded when it names none, and that
// name; it answers the error and returns false when there is none.
func (s *Server) llamaBody(c *call) (string, []byte, bool) {
	body := c.rc.PostBody()
	model, perr := llamacpp.ModelOf(body)
	if perr != nil {
		writeError(c.rc, perr)
		return "", nil, false
	}
	name, err := s.defaultModel(model)
	if err != nil {
		writeError(c.rc, apiError(err))
		return "", nil, false
	}
	if name != model {
		body = llamacpp.WithModel(body, name)
	}
	return name, body, true
}

// defaultModel returns name, or when it is empty, the id of the one model
// loaded.
func (s *Server) defaultModel(name string) (string, error) {
	if strings.TrimSpace(name) != "" {
		return name, nil
	}
	loaded := s.models.list()
	if len(loaded) != 1 {
		return "", openai.Invalid("model", openai.CodeMissing, "Name the model: %d models are loaded, and a request without \"model\" needs exactly one.", len(loaded))
	}
	return loaded[0].ID, nil
}
