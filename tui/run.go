package tui

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Options configure Run.
type Options struct {
	Model       string      // the model's name, for the status line and /show
	Info        []InfoField // what /show lists about the model
	Settings    Settings    // the starting settings
	System      string      // the starting system prompt, "" for none
	ContextSize int         // tokens the context holds, shown before the first answer
	Input       io.Reader   // the keyboard; nil means os.Stdin
	Output      io.Writer   // the screen; nil means os.Stdout
}

// InfoField is one line of /show about the model.
type InfoField struct {
	Name, Value string
}

// stopWait bounds how long Run waits for an answer to stop when it exits.
const stopWait = 5 * time.Second

// Run runs the chat until the person leaves (/bye, Ctrl+D, Ctrl+C twice)
// or ctx ends, then restores the terminal and writes the conversation to
// its normal screen, where it stays in the scrollback. An answer still being generated
// is stopped, and Run waits for gen to return from it. A panic in the
// program is returned as an *Error.
func Run(ctx context.Context, gen Generator, opt Options) error {
	in, out := opt.Input, opt.Output
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	r := lipgloss.NewRenderer(out)
	st := newStyles(r, r.HasDarkBackground())
	genCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := newModel(gen, opt, st, func() (context.Context, context.CancelFunc) { return context.WithCancel(genCtx) })
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out),
		tea.WithAltScreen(), tea.WithMouseCellMotion())
	final, err := p.Run()
	cancel()
	fm, ok := final.(*model)
	if ok && fm.stream != nil {
		fm.stream.wait(stopWait)
	}
	if ok && !errors.Is(err, tea.ErrProgramPanic) {
		io.WriteString(out, fm.scrollback())
	}
	switch {
	case err == nil, errors.Is(err, tea.ErrInterrupted):
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return &Error{Msg: "the chat stopped on an internal error", Err: err}
	case ctx.Err() != nil:
		return context.Cause(ctx)
	}
	return err
}
