package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/toolparse"
)

// handleOllamaTags serves GET /api/tags: the loaded models, then the ones
// the server would load.
func (s *Server) handleOllamaTags(c *call) {
	out := ollama.ListResponse{Models: []ollama.ListModel{}}
	seen := map[string]bool{}
	onDisk := map[string]Available{}
	for _, a := range s.available() {
		onDisk[a.ID] = a
	}
	for _, lm := range s.models.list() {
		seen[lm.ID], seen[lm.Info.Path] = true, true
		a := onDisk[lm.ID]
		size := a.Size
		if size == 0 {
			size = lm.Info.Memory
		}
		modified := a.Modified
		if modified.IsZero() {
			modified = lm.Loaded
		}
		out.Models = append(out.Models, ollama.ListModel{Name: lm.ID, Model: lm.ID, ModifiedAt: modified, Size: size,
			Digest: digest(lm.ID, lm.Info.Path), Details: infoDetails(lm.Info)})
	}
	for _, a := range s.available() {
		if seen[a.ID] || (a.Path != "" && seen[a.Path]) {
			continue
		}
		out.Models = append(out.Models, ollama.ListModel{Name: a.ID, Model: a.ID, ModifiedAt: a.Modified, Size: a.Size,
			Digest: digest(a.ID, a.Path), Details: ollama.Details{Format: a.Format, Families: []string{}, QuantizationLevel: a.Quantization}})
	}
	byName := map[string]ollama.ListModel{}
	for _, lm := range out.Models {
		byName[lm.Name] = lm
	}
	for _, cp := range s.models.copyList() {
		if lm, ok := byName[cp[1]]; ok {
			lm.Name, lm.Model = cp[0], cp[0]
			out.Models = append(out.Models, lm)
		}
	}
	writeJSON(c.rc, http.StatusOK, out)
}

// handleOllamaPs serves GET /api/ps: the loaded models.
func (s *Server) handleOllamaPs(c *call) {
	out := ollama.ProcessResponse{Models: []ollama.RunningModel{}}
	for _, lm := range s.models.list() {
		out.Models = append(out.Models, ollama.RunningModel{Name: lm.ID, Model: lm.ID, Size: lm.Info.Memory,
			Digest: digest(lm.ID, lm.Info.Path), Details: infoDetails(lm.Info), ExpiresAt: lm.Expires, ContextLength: lm.Info.Context})
	}
	writeJSON(c.rc, http.StatusOK, out)
}

// handleOllamaVersion serves GET /api/version.
func (s *Server) handleOllamaVersion(c *call) {
	v := s.opt.Version
	if v == "" {
		v = "0.0.0"
	}
	writeJSON(c.rc, http.StatusOK, ollama.VersionResponse{Version: v})
}

// handleOllamaShow serves POST /api/show. It loads the model, whose
// details come from what the loader read.
func (s *Server) handleOllamaShow(c *call) {
	var req ollama.ShowRequest
	name, err := ollama.DecodeNamed(c.rc.PostBody(), &req)
	if err != nil {
		writeOllamaError(c.rc, err)
		return
	}
	m, id, release, err := s.acquire(c, name)
	if err != nil {
		writeOllamaError(c.rc, ollamaNotFound(name, err))
		return
	}
	defer release()
	info := m.Info()
	out := ollama.ShowResponse{Details: infoDetails(info), Parameters: parameterLines(info.Defaults),
		Capabilities: []string{"completion"}, ModelInfo: map[string]any{
			"general.architecture":        info.Arch,
			"general.parameter_count":     info.Parameters,
			info.Arch + ".context_length": info.Context,
		}}
	if info.Format == remoteFormat {
		// Its defaults, template and size are the upstream's, unknown
		// here; tools are forwarded.
		out.Parameters, out.ModelInfo = "", map[string]any{}
		out.Capabilities = append(out.Capabilities, "tools")
	}
	if canFill(m) {
		out.Capabilities = append(out.Capabilities, "insert") // suffix on /api/generate
	}
	if info.ToolFormat != toolparse.FormatNone {
		out.Capabilities = append(out.Capabilities, "tools")
	}
	if t, ok := m.(Templater); ok {
		out.Template = t.ChatTemplate()
	}
	if info.ToolFormat == toolparse.FormatHarmony || strings.Contains(out.Template, "enable_thinking") || strings.Contains(out.Template, "<think>") {
		out.Capabilities = append(out.Capabilities, "thinking")
	}
	if lm, ok := s.models.lookup(id); ok {
		out.ModifiedAt = lm.Loaded
	}
	out.Modelfile = "FROM " + id + "\n" + modelfileParameters(out.Parameters)
	writeJSON(c.rc, http.StatusOK, out)
}

// Templater is implemented by models that show their chat template.
type Templater interface {
	// ChatTemplate returns the Jinja source of the default template, ""
	// when the model has none.
	ChatTemplate() string
}

// ChatTemplate implements Templater.
func (m *EngineModel) ChatTemplate() string { return m.e.ChatTemplate() }

// infoDetails are the details of a loaded model.
func infoDetails(info ModelInfo) ollama.Details {
	d := ollama.Details{Format: info.Format, Family: info.Arch, Families: []string{}, QuantizationLevel: info.Quantization,
		ParameterSize: parameterSize(info.Parameters)}
	if info.Arch != "" {
		d.Families = []string{info.Arch}
	}
	return d
}

// parameterSize writes a parameter count as Ollama does: "7.6B", "494.0M".
func parameterSize(n int64) string {
	switch {
	case n <= 0:
		return ""
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + "B"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	}
	return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "K"
}

// parameterLines are the model's sampling defaults, one "name value" a
// line, under Ollama's option names.
func parameterLines(p sample.Params) string {
	var b strings.Builder
	line := func(name string, v float64, unset float64) {
		if v != unset {
			fmt.Fprintf(&b, "%-15s %s\n", name, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	line("temperature", p.Temperature, -1)
	line("top_k", float64(p.TopK), 0)
	line("top_p", p.TopP, 1)
	line("min_p", p.MinP, 0)
	line("repeat_penalty", p.RepetitionPenalty, 1)
	return b.String()
}

// modelfileParameters turns parameter lines into Modelfile PARAMETER lines.
func modelfileParameters(lines string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		if l != "" {
			b.WriteString("PARAMETER " + l + "\n")
		}
	}
	return b.String()
}

// digest identifies a model in the lists: a hash of its id and its path,
// which change together with the files a name refers to.
func digest(id, path string) string {
	h := sha256.Sum256([]byte(id + "\x00" + path))
	return hex.EncodeToString(h[:])
}
