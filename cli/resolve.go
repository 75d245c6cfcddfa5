package cli

import (
	"context"
	"io"
	"os"
)

// resolveModel turns a model reference into a local path: a file or folder
// that exists is used as it is; anything else is looked up in the Hugging
// Face cache and downloaded when missing, with progress on progress.
func resolveModel(ctx context.Context, progress io.Writer, ref string) (string, error) {
	if _, err := os.Stat(ref); err == nil {
		return ref, nil
	}
	c, err := newHubClient(progress, false)
	if err != nil {
		return "", err
	}
	path, err := c.Resolve(ctx, ref)
	if err != nil {
		return "", hubHint(err)
	}
	return path, nil
}
