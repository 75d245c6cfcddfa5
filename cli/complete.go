package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/hub"
)

// completeModel completes the first argument of a command that takes one
// MODEL (then PROMPT or TEXT, which get no completion).
func completeModel(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return completeModels(cmd, args, toComplete)
}

// completeModels completes a MODEL with the models in the Hugging Face cache
// and the aliases (with their targets as descriptions); the shell adds local
// files and folders.
func completeModels(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var out []string
	add := func(name, desc string) {
		if strings.HasPrefix(strings.ToLower(name), strings.ToLower(toComplete)) {
			out = append(out, name+"\t"+desc)
		}
	}
	if opts, err := hubEnv(); err == nil {
		models, _ := hub.Cache{Dir: opts.CacheDir}.List()
		for _, m := range models {
			add(m.Name, "in the cache, "+formatBytes(m.Size))
		}
	}
	for _, a := range hub.Aliases() {
		add(a.Name, a.Target)
	}
	return out, cobra.ShellCompDirectiveDefault
}
