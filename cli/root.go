// Package cli holds the cobra commands of mlx, one file per command. It is the
// only package that reads flags and environment variables and wires the other
// packages together.
package cli

import (
	"os"

	"github.com/spf13/cobra"
)

// buildInfo is what main.go passes in from the linker flags.
type buildInfo struct {
	Version string
	Commit  string
}

var build = buildInfo{Version: "dev", Commit: "none"}

// commands lists the constructors of the sub-commands; each command file adds
// its own from init so that adding a command touches one file.
var commands []func() *cobra.Command

func register(c func() *cobra.Command) { commands = append(commands, c) }

// NewRoot builds the root command with every registered sub-command.
func NewRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "mlx",
		Short: "Run large language models locally",
		Long: "mlx runs large language models on your own machine: an interactive chat,\n" +
			"a pipe filter, an OpenAI-compatible server and a Hugging Face downloader.\n\n" +
			"MODEL is a .gguf file, a model directory, a Hugging Face reference (org/name,\n" +
			"org/name:QUANT) or an alias (mlx list --aliases), downloaded on first use.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, c := range commands {
		root.AddCommand(c())
	}
	plainArgs(root)
	root.SetFlagErrorFunc(plainFlagError)
	return root
}

// Execute runs the command line and exits non-zero with a one-line message on
// failure (status 130 when Ctrl+C stopped it, 1 otherwise).
func Execute(version, commit string) {
	build = buildInfo{Version: version, Commit: commit}
	if err := NewRoot().Execute(); err != nil {
		os.Exit(report(os.Stderr, isTerminal(os.Stderr), err))
	}
}
