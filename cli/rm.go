package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/hub"
)

func init() { register(newRmCmd) }

func newRmCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rm MODEL...",
		Short: "Remove models from the Hugging Face cache",
		Long: `Remove models from the Hugging Face cache, without asking. org/name removes
every revision of the repo; org/name@revision one revision; org/name:QUANT or
org/name/file.gguf one GGUF file. Files another revision still uses are kept.`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeModels,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := hubEnv()
			if err != nil {
				return err
			}
			cache := hub.Cache{Dir: opts.CacheDir}
			for _, arg := range args {
				r, err := hub.ParseRef(arg)
				if err != nil {
					return hubHint(err)
				}
				res, err := cache.Remove(r)
				if err != nil {
					return err
				}
				what := fmt.Sprintf("%d files", res.Files)
				if res.All {
					what = "all of it"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "removed %s (%s): %s freed\n", r, what, formatBytes(res.Freed))
			}
			return nil
		},
	}
}
