package cli

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/mlxrun/mlx/models/info"
)

// Bounds of the template excerpt show prints.
const (
	showTemplateLines = 6
	showLineWidth     = 100
)

// showStyles colours the text on a terminal; each is the identity otherwise.
type showStyles struct {
	title, key, dim, warn func(...string) string
}

func newShowStyles(w io.Writer) showStyles {
	if !isTerminal(w) {
		plain := func(s ...string) string { return strings.Join(s, " ") }
		return showStyles{plain, plain, plain, plain}
	}
	r := lipgloss.NewRenderer(w)
	return showStyles{
		title: r.NewStyle().Bold(true).Render,
		key:   r.NewStyle().Faint(true).Render,
		dim:   r.NewStyle().Faint(true).Italic(true).Render,
		warn:  r.NewStyle().Foreground(lipgloss.Color("3")).Render,
	}
}

// showKeyWidth is the width of the key column, unless a key is longer.
const showKeyWidth = 20

// showWriter writes the sections of show's text.
type showWriter struct {
	w     io.Writer
	st    showStyles
	width int // of the key column in this section
}

// section starts a section whose longest key is keyLen long.
func (s *showWriter) section(title, note string, keyLen int) {
	if note != "" {
		note = "  " + s.st.dim(note)
	}
	s.width = max(showKeyWidth, keyLen+2)
	fmt.Fprintf(s.w, "  %s%s\n", s.st.title(title), note)
}

// row writes a key and its value; an unknown value leaves the row out.
func (s *showWriter) row(key, value string) {
	if value == "" || value == "0" {
		return
	}
	fmt.Fprintf(s.w, "    %s%s\n", s.st.key(fmt.Sprintf("%-*s", s.width, key)), value)
}

func (s *showWriter) line(text string) { fmt.Fprintf(s.w, "    %s\n", text) }

// expertSummary describes a mixture's layout: "128, 8 per token, FFN 768
// each, shared FFN 512"; "" for a dense model.
func expertSummary(e *info.Experts) string {
	if e == nil {
		return ""
	}
	s := fmt.Sprintf("%d, %d per token", e.Count, e.Used)
	if e.FFNLength > 0 {
		s += fmt.Sprintf(", FFN %d each", e.FFNLength)
	}
	if e.SharedFFNLength > 0 {
		s += fmt.Sprintf(", shared FFN %d", e.SharedFFNLength)
	}
	return s
}

// writeShow writes the model's info as text, in sections.
func writeShow(w io.Writer, m shownModel, in *info.Info, st showStyles) error {
	s := &showWriter{w: w, st: st}
	s.section("Model", "", 0)
	arch := in.Architecture
	if in.ArchitectureName != "" && in.ArchitectureName != arch {
		arch += " (" + in.ArchitectureName + ")"
	}
	s.row("architecture", arch)
	s.row("name", in.Name)
	if in.Parameters > 0 {
		s.row("parameters", fmt.Sprintf("%s (%d)", in.ParameterSize, in.Parameters))
	}
	if in.ActiveParameters > 0 {
		s.row("active parameters", fmt.Sprintf("%s (%d) per token", in.ActiveParameterSize, in.ActiveParameters))
	}
	s.row("experts", expertSummary(in.Experts))
	s.row("quantization", in.Quantization)
	s.row("tensors", tensorSummary(in))
	s.row("context length", strconv.Itoa(in.ContextLength))
	s.row("embedding length", strconv.Itoa(in.EmbeddingLength))
	s.row("layers", strconv.Itoa(in.Layers))
	if in.Heads > 0 {
		s.row("heads", fmt.Sprintf("%d (%d KV, head size %d)", in.Heads, in.KVHeads, in.HeadDim))
	}
	s.row("vocabulary", strconv.Itoa(in.VocabSize))
	s.row("format", in.Format)
	if !in.Supported {
		s.row("runtime", st.warn("this architecture is not supported by mlx"))
	}
	if m.repo != "" {
		s.row("source", fmt.Sprintf("%s@%s (commit %.12s)", m.repo, m.revision, m.commit))
	}
	if !in.Generation.Empty() {
		fmt.Fprintln(w)
		s.section("Parameters", "generation defaults", 0)
		writeGeneration(s, in.Generation)
	}
	fmt.Fprintln(w)
	writeTemplate(s, m.arg, in)
	fmt.Fprintln(w)
	s.section("License", in.LicenseOrigin, 0)
	s.line(orDefault(in.License, st.dim("not stated")))
	fmt.Fprintln(w)
	longest := 0
	for _, f := range in.Files {
		longest = max(longest, len(f.Name))
	}
	s.section("Files", m.path, longest)
	for _, f := range in.Files {
		s.row(f.Name, formatBytes(f.Size))
	}
	if len(in.Files) > 1 {
		s.row("total", formatBytes(in.Size))
	}
	if len(in.Warnings) > 0 {
		fmt.Fprintln(w)
		s.section("Warnings", "", 0)
		for _, msg := range in.Warnings {
			s.line(st.warn(msg))
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// tensorSummary says how many tensors of each type the model has, most
// common first; "" when it has none.
func tensorSummary(in *info.Info) string {
	if in.Tensors == 0 {
		return ""
	}
	types := make([]string, 0, len(in.TensorTypes))
	for t := range in.TensorTypes {
		types = append(types, t)
	}
	// most common first, then by name
	slices.SortFunc(types, func(a, b string) int {
		return cmp.Or(cmp.Compare(in.TensorTypes[b], in.TensorTypes[a]), strings.Compare(a, b))
	})
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%d %s", in.TensorTypes[t], t)
	}
	return fmt.Sprintf("%d (%s)", in.Tensors, strings.Join(parts, ", "))
}

func writeGeneration(s *showWriter, g info.Generation) {
	f := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'g', -1, 64)
	}
	i := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	s.row("temperature", f(g.Temperature))
	s.row("top_p", f(g.TopP))
	s.row("top_k", i(g.TopK))
	s.row("min_p", f(g.MinP))
	s.row("repetition_penalty", f(g.RepetitionPenalty))
	if g.DoSample != nil {
		s.row("do_sample", strconv.FormatBool(*g.DoSample))
	}
	s.row("max_new_tokens", i(g.MaxNewTokens))
	s.row("bos_token_id", i(g.BOS))
	if len(g.EOS) > 0 {
		s.row("eos_token_id", strings.Trim(fmt.Sprint(g.EOS), "[]"))
	}
}

// writeTemplate writes the first lines of the chat template.
func writeTemplate(s *showWriter, arg string, in *info.Info) {
	s.section("Template", in.TemplateOrigin, 0)
	if in.ChatTemplate == "" {
		s.line(s.st.dim("none: the model has no chat template"))
		return
	}
	lines := strings.Split(strings.TrimRight(in.ChatTemplate, "\n"), "\n")
	clipped := false
	for _, l := range lines[:min(len(lines), showTemplateLines)] {
		l = strings.ReplaceAll(l, "\t", "    ")
		c := clip(l, showLineWidth)
		clipped = clipped || c != l
		s.line(c)
	}
	switch more := len(lines) - showTemplateLines; {
	case more > 0:
		s.line(s.st.dim(fmt.Sprintf("… %d more lines: mlx show --template %s", more, arg)))
	case clipped:
		s.line(s.st.dim("… the whole template: mlx show --template " + arg))
	}
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
