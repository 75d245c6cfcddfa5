package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mlxrun/mlx/models/bounded"
)

// savedMsg reports the end of /save.
type savedMsg struct {
	path string
	n    int
	err  error
}

// loadedMsg carries the conversation /load read.
type loadedMsg struct {
	path     string
	system   string
	messages []Message
	err      error
}

// save writes the conversation to path in a Cmd.
func (m *model) save(path string) tea.Cmd {
	if path == "" {
		m.addError(errors.New("/save needs a file name, as in /save chat.md"))
		return nil
	}
	data, n := marshalTranscript(m.opt.Model, m.system, m.messages), len(m.messages)
	return safeCmd("/save", func() tea.Msg {
		return savedMsg{path: path, n: n, err: writeFileAtomic(path, data)}
	})
}

func (m *model) saved(msg savedMsg) {
	if msg.err != nil {
		m.addError(&Error{Msg: fmt.Sprintf("Could not save to %s: %v", msg.path, msg.err), Err: msg.err})
		return
	}
	m.addNotice(fmt.Sprintf("Saved %d messages to %s.", msg.n, msg.path))
}

// load reads a conversation saved by /save in a Cmd.
func (m *model) load(path string) tea.Cmd {
	if path == "" {
		m.addError(errors.New("/load needs a file name, as in /load chat.md"))
		return nil
	}
	return safeCmd("/load", func() tea.Msg {
		msg := loadedMsg{path: path}
		data, err := readFileBounded(path, maxTranscriptBytes)
		if err == nil {
			msg.system, msg.messages, err = parseTranscript(data)
		}
		if err != nil {
			msg.err = fmt.Errorf("%s: %w", path, err)
		}
		return msg
	})
}

// loaded replaces the conversation with the one read.
func (m *model) loaded(msg loadedMsg) tea.Cmd {
	if msg.err != nil {
		m.addError(&Error{Msg: fmt.Sprintf("Could not load %v", msg.err), Err: msg.err})
		return nil
	}
	m.system, m.messages, m.ctxUsed = msg.system, msg.messages, 0
	m.transcript.Clear()
	var answers []*entry
	for _, msg := range m.messages {
		e := &entry{id: m.newID(), kind: entryUser, text: msg.Content}
		if msg.Role == RoleAssistant {
			e.kind, e.reasoning = entryAnswer, msg.Reasoning
			answers = append(answers, e)
		}
		m.transcript.Add(e)
	}
	m.addNotice(fmt.Sprintf("Loaded %d messages from %s.", len(m.messages), msg.path))
	return m.markdownCmd(answers)
}

// writeFileAtomic writes data to a temporary file beside path, then renames
// it, so that path is never half written.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// readFileBounded reads a regular file of at most limit bytes.
func readFileBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: not a regular file", ErrTranscript)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%w: %d bytes, more than the %d a transcript may have", ErrTranscript, st.Size(), limit)
	}
	return bounded.Read(f, limit)
}
