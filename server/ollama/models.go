package ollama

import "time"

// Details describe a model in /api/tags, /api/show and /api/ps.
type Details struct {
	Format            string   `json:"format"`
	Family            string   `json:"family"`
	Families          []string `json:"families"`
	ParameterSize     string   `json:"parameter_size"`
	QuantizationLevel string   `json:"quantization_level"`
}

// ListModel is an entry of GET /api/tags.
type ListModel struct {
	Name       string    `json:"name"`
	Model      string    `json:"model"`
	ModifiedAt time.Time `json:"modified_at"`
	Size       int64     `json:"size"`
	Digest     string    `json:"digest"`
	Details    Details   `json:"details"`
}

// ListResponse is the body of GET /api/tags.
type ListResponse struct {
	Models []ListModel `json:"models"`
}

// RunningModel is an entry of GET /api/ps.
type RunningModel struct {
	Name          string    `json:"name"`
	Model         string    `json:"model"`
	Size          int64     `json:"size"`
	Digest        string    `json:"digest"`
	Details       Details   `json:"details"`
	ExpiresAt     time.Time `json:"expires_at"`
	SizeVRAM      int64     `json:"size_vram"`
	ContextLength int       `json:"context_length"`
}

// ProcessResponse is the body of GET /api/ps.
type ProcessResponse struct {
	Models []RunningModel `json:"models"`
}

// Named is the model of a request that also takes its older spelling,
// name.
type Named struct {
	Model string `json:"model"`
	Name  string `json:"name"`
}

// ModelName is Model, or Name when Model is empty.
func (n Named) ModelName() string {
	if n.Model != "" {
		return n.Model
	}
	return n.Name
}

// DecodeNamed reads body into v and returns its model; a body without one
// is a BadRequest.
func DecodeNamed(body []byte, v interface{ ModelName() string }) (string, error) {
	if err := Unmarshal(body, v); err != nil {
		return "", err
	}
	if v.ModelName() == "" {
		return "", bad("model is required")
	}
	return v.ModelName(), nil
}

// ShowRequest is the body of POST /api/show.
type ShowRequest struct {
	Named
	Verbose bool `json:"verbose"`
}

// ShowResponse is the body of POST /api/show.
type ShowResponse struct {
	Modelfile    string         `json:"modelfile"`
	Parameters   string         `json:"parameters"`
	Template     string         `json:"template"`
	Details      Details        `json:"details"`
	ModelInfo    map[string]any `json:"model_info"`
	Capabilities []string       `json:"capabilities"`
	ModifiedAt   time.Time      `json:"modified_at"`
}

// VersionResponse is the body of GET /api/version.
type VersionResponse struct {
	Version string `json:"version"`
}

// CopyRequest is the body of POST /api/copy.
type CopyRequest struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

// DeleteRequest is the body of DELETE /api/delete.
type DeleteRequest struct {
	Named
}
