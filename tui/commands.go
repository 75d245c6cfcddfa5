package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// helpText is what /help shows.
const helpText = `Commands:
  /help            this help
  /clear           start a new conversation (the system prompt and settings stay)
  /system TEXT     set the system prompt; /system alone removes it
  /set KEY VALUE   change a setting: temperature, top_p, top_k, max_tokens, seed, think
  /show            the settings and the model
  /save FILE       save the conversation as markdown
  /load FILE       load a conversation saved by /save
  /bye             exit
Keys:
  Enter sends; Alt+Enter, Ctrl+J or a trailing \ adds a line; """ opens and closes a block
  Up/Down browse the history; PgUp/PgDn or the mouse wheel scroll (Shift+drag selects text)
  Ctrl+T shows or hides the reasoning
  Ctrl+C stops the answer; twice in a row exits, as does Ctrl+D on an empty input;
  Ctrl+Z suspends`

// command runs a slash command typed by the person.
func (m *model) command(line string) tea.Cmd {
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "/help", "/?":
		m.addNotice(helpText)
	case "/clear":
		m.messages, m.ctxUsed = nil, 0
		m.transcript.Clear()
		m.addNotice("New conversation.")
	case "/system":
		m.setSystem(arg)
	case "/set":
		m.set(arg)
	case "/show":
		m.addNotice(m.show())
	case "/save":
		return m.save(arg)
	case "/load":
		return m.load(arg)
	case "/bye", "/exit", "/quit":
		return m.quit()
	default:
		m.addError(fmt.Errorf("unknown command %s: /help lists the commands", name))
	}
	return nil
}

func (m *model) setSystem(text string) {
	m.system = text
	if text == "" {
		m.addNotice("System prompt removed.")
		return
	}
	m.addNotice("System prompt set.")
}

func (m *model) set(arg string) {
	if arg == "" {
		var b strings.Builder
		b.WriteString("Usage: /set KEY VALUE, where")
		for _, k := range settingsTable {
			fmt.Fprintf(&b, "\n  %-12s is %s", k.name, k.usage)
		}
		m.addNotice(b.String())
		return
	}
	key, value, _ := strings.Cut(arg, " ")
	if err := applySetting(&m.settings, strings.ToLower(key), strings.TrimSpace(value), m.ctxSize); err != nil {
		m.addError(err)
		return
	}
	m.addNotice(fmt.Sprintf("Set %s to %s.", key, m.settingValue(strings.ToLower(key))))
}

func (m *model) settingValue(key string) string {
	for _, k := range settingsTable {
		if k.name == key {
			return k.show(m.settings)
		}
	}
	return ""
}

// show describes the model, the settings and the conversation.
func (m *model) show() string {
	var b strings.Builder
	row := func(name, value string) { fmt.Fprintf(&b, "\n  %-14s %s", name, value) }
	b.WriteString("Model")
	row("name", m.opt.Model)
	for _, f := range m.opt.Info {
		row(f.Name, f.Value)
	}
	b.WriteString("\nSettings")
	for _, k := range settingsTable {
		row(k.name, k.show(m.settings))
	}
	b.WriteString("\nConversation")
	system := "(none)"
	if m.system != "" {
		system = m.system
	}
	row("system prompt", system)
	row("messages", fmt.Sprint(len(m.messages)))
	if m.ctxSize > 0 {
		row("context", fmt.Sprintf("%d of %d tokens", m.ctxUsed, m.ctxSize))
	}
	return b.String()
}
