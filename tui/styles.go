package tui

import (
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// styles holds every style of the chat, built once from the renderer of the
// output, so that nothing queries the terminal while the program runs.
type styles struct {
	user        lipgloss.Style // the person's messages
	prompt      lipgloss.Style // ">>> " before them and in the input
	answer      lipgloss.Style // an answer before its markdown is rendered
	reasoning   lipgloss.Style // a reasoning model's thoughts
	reasonHead  lipgloss.Style // the line above (or instead of) them
	notice      lipgloss.Style // output of slash commands
	note        lipgloss.Style // "stopped", "max_tokens reached"
	err         lipgloss.Style // errors
	status      lipgloss.Style // the status line
	statusModel lipgloss.Style // the model's name in it
	statusHint  lipgloss.Style // hints on its right
	statusWarn  lipgloss.Style // "press Ctrl+C again to exit"
	input       textarea.Style // the input, focused or not
	cursor      lipgloss.Style // the input's cursor

	markdown string          // glamour's standard style
	profile  termenv.Profile // glamour's color profile
}

// newStyles builds the styles for r; dark tells the terminal's background.
func newStyles(r *lipgloss.Renderer, dark bool) *styles {
	accent, dim, red, barBG, barFG := "#8a5cf5", "#6c6c6c", "#d7005f", "#d0d0d0", "#303030"
	if dark {
		accent, dim, red, barBG, barFG = "#b294ff", "#8a8a8a", "#ff5f87", "#303030", "#d0d0d0"
	}
	s := &styles{
		user:        r.NewStyle().Bold(true),
		prompt:      r.NewStyle().Foreground(lipgloss.Color(accent)).Bold(true),
		answer:      r.NewStyle(),
		reasoning:   r.NewStyle().Foreground(lipgloss.Color(dim)).Italic(true),
		reasonHead:  r.NewStyle().Foreground(lipgloss.Color(dim)),
		notice:      r.NewStyle().Foreground(lipgloss.Color(dim)),
		note:        r.NewStyle().Foreground(lipgloss.Color(dim)).Italic(true),
		err:         r.NewStyle().Foreground(lipgloss.Color(red)).Bold(true),
		status:      r.NewStyle().Foreground(lipgloss.Color(barFG)).Background(lipgloss.Color(barBG)),
		statusModel: r.NewStyle().Foreground(lipgloss.Color(barFG)).Background(lipgloss.Color(barBG)).Bold(true),
		statusHint:  r.NewStyle().Foreground(lipgloss.Color(dim)).Background(lipgloss.Color(barBG)),
		statusWarn:  r.NewStyle().Foreground(lipgloss.Color(red)).Background(lipgloss.Color(barBG)).Bold(true),
		cursor:      r.NewStyle().Reverse(true),
		profile:     r.ColorProfile(),
		markdown:    "light",
	}
	s.input = textarea.Style{Base: r.NewStyle(), CursorLine: r.NewStyle(), CursorLineNumber: r.NewStyle(),
		EndOfBuffer: r.NewStyle(), LineNumber: r.NewStyle(), Text: r.NewStyle(),
		Placeholder: r.NewStyle().Foreground(lipgloss.Color(dim)), Prompt: s.prompt}
	switch {
	case s.profile == termenv.Ascii:
		s.markdown = "notty"
	case dark:
		s.markdown = "dark"
	}
	return s
}
