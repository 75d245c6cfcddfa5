package ollama

// PullRequest is the body of POST /api/pull.
type PullRequest struct {
	Named
	Insecure bool  `json:"insecure,omitempty"`
	Stream   *bool `json:"stream,omitempty"`
}

// ProgressResponse is one status line of a pull.
type ProgressResponse struct {
	Status    string `json:"status"`
	Digest    string `json:"digest,omitempty"`
	Total     int64  `json:"total,omitempty"`
	Completed int64  `json:"completed,omitempty"`
}
