package cli

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/hub/hubtest"
)

func init() { register(newHubServeCmd) }

// newHubServeCmd runs the fake hub of the tests on loopback, for end-to-end
// checks of pull from a script. It is hidden from help.
func newHubServeCmd() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:    "hubtest-serve DIR",
		Short:  "Serve DIR/<org>/<name>/... as a fake Hugging Face Hub on loopback",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srv, err := hubtest.Listen(addr, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "HF_ENDPOINT=%s\n", srv.URL)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			srv.Wait(ctx)
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "loopback address to listen on")
	return cmd
}
