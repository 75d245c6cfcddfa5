package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/hub"
)

func init() { register(newListCmd) }

func newListCmd() *cobra.Command {
	var asJSON, aliases bool
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the models in the Hugging Face cache",
		Long: `List the models in the Hugging Face cache: name, format (gguf, safetensors,
mlx), quantization, size and when they were downloaded. Models that other
Hugging Face tools downloaded are listed too. --aliases lists the short names
that pull, run and rm accept instead.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if aliases {
				return writeAliases(out, asJSON)
			}
			opts, err := hubEnv()
			if err != nil {
				return err
			}
			models, err := hub.Cache{Dir: opts.CacheDir}.List()
			if err != nil {
				return fmt.Errorf("reading the cache %s: %w", opts.CacheDir, err)
			}
			if asJSON {
				if models == nil {
					models = []hub.Model{} // [] rather than null
				}
				return writeJSON(out, models)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tFORMAT\tQUANT\tSIZE\tMODIFIED")
			for _, m := range models {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", m.Name, m.Format, orDash(m.Quant),
					formatBytes(m.Size), ago(time.Since(m.Modified)))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&aliases, "aliases", false, "list the short model names")
	return cmd
}

func writeAliases(w io.Writer, asJSON bool) error {
	list := hub.Aliases()
	if asJSON {
		return writeJSON(w, list)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ALIAS\tMODEL")
	for _, a := range list {
		fmt.Fprintf(tw, "%s\t%s\n", a.Name, a.Target)
	}
	return tw.Flush()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ago writes a duration the way people say it: "3 hours ago".
func ago(d time.Duration) string {
	unit := func(n int, name string) string {
		if n == 1 {
			return "1 " + name + " ago"
		}
		return fmt.Sprintf("%d %ss ago", n, name)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return unit(int(d.Minutes()), "minute")
	case d < 48*time.Hour:
		return unit(int(d.Hours()), "hour")
	case d < 60*24*time.Hour:
		return unit(int(d.Hours()/24), "day")
	}
	return unit(int(d.Hours()/24/30), "month")
}
