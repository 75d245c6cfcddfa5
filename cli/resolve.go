package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/hub"
)

// resolveModelArg is a PreRunE that replaces the MODEL argument with the
// local path resolveModel gives, so that a command takes the same model
// references as run.
func resolveModelArg(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	path, err := resolveModel(cmd.Context(), cmd.ErrOrStderr(), args[0])
	if err != nil {
		return err
	}
	args[0] = path
	return nil
}

// resolveModel turns a model reference into a local path: a file or folder
// that exists is used as it is; anything else is looked up in the Hugging
// Face cache and downloaded when missing, saying so on progress first, with
// the progress of the download after.
func resolveModel(ctx context.Context, progress io.Writer, ref string) (string, error) {
	if _, err := os.Stat(ref); err == nil {
		return ref, nil
	}
	r, err := hub.ParseRef(ref)
	if err != nil {
		return "", hubHint(err)
	}
	c, err := newHubClient(progress, false)
	if err != nil {
		return "", err
	}
	if s, err := c.Cache().Find(r); err == nil {
		return s.Path, nil
	}
	if !c.Offline() {
		name := r.String()
		if name != ref {
			name = ref + " (" + name + ")"
		}
		fmt.Fprintf(progress, "mlx: %s is not in the cache %s; downloading it from %s\n", name, c.Cache().Dir, c.Endpoint())
	}
	s, err := c.Pull(ctx, r)
	if err != nil {
		return "", hubHint(err)
	}
	return s.Path, nil
}
