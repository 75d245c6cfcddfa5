package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/hub"
)

func init() { register(newPullCmd) }

func newPullCmd() *cobra.Command {
	var revision string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "pull MODEL",
		Short: "Download a model from the Hugging Face Hub",
		Long: `Download a model from the Hugging Face Hub into the cache the Hugging Face
tools share ($HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub).

MODEL is org/name (safetensors or MLX weights, or the Q4_K_M file of a GGUF
repo), org/name:QUANT (a GGUF quantization, e.g. Q8_0), org/name/file.gguf,
with an optional @revision, or an alias (mlx list --aliases).

An interrupted download resumes where it stopped. The path of the model is
printed on stdout. HF_TOKEN (or the token file of huggingface-cli) opens gated
models; HF_ENDPOINT chooses another hub.`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeModel,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := hub.ParseRef(args[0])
			if err != nil {
				return hubHint(err)
			}
			if revision != "" {
				r.Revision = revision
			}
			c, err := newHubClient(cmd.ErrOrStderr(), quiet)
			if err != nil {
				return err
			}
			if !quiet && !c.Offline() {
				fmt.Fprintf(cmd.ErrOrStderr(), "mlx: pulling %s from %s\n", r, c.Endpoint())
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			s, err := c.Pull(ctx, r)
			if errors.Is(err, context.Canceled) {
				return interrupted(fmt.Errorf("pull of %s interrupted: run the same command to resume", r))
			}
			if err != nil {
				return hubHint(err)
			}
			if !quiet {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s at %s (commit %.12s)\n", r, s.Revision, s.Commit)
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), s.Path)
			return err
		},
	}
	cmd.Flags().StringVar(&revision, "revision", "", "branch, tag or commit to download (default main)")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print no progress")
	return cmd
}
