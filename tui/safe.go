package tui

import tea "github.com/charmbracelet/bubbletea"

// errMsg reports an error from a Cmd.
type errMsg struct{ err error }

// safeCmd runs fn as a Cmd that turns a panic into an errMsg, so that a bug
// in rendering or file handling shows as an error instead of ending the
// program.
func safeCmd(where string, fn func() tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = errMsg{recovered(where, r)}
			}
		}()
		return fn()
	}
}
