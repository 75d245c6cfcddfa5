package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/hub"
	"github.com/mlxrun/mlx/models/info"
)

func init() { register(newShowCmd) }

// errNoModel reports a MODEL argument that names nothing mlx can find.
var errNoModel = errors.New("no such model")

func newShowCmd() *cobra.Command {
	var asJSON, template bool
	cmd := &cobra.Command{
		Use:   "show MODEL",
		Short: "Show a model's architecture, size, quantization, chat template and license",
		Long: `Show what a model is: architecture, parameter count (from the tensor shapes),
quantization, context length, sizes, vocabulary, chat template, license,
generation defaults and files.

MODEL is a .gguf file, a model folder (config.json and safetensors, MLX too),
or a model reference (org/name, org/name:QUANT, an alias) already in the
Hugging Face cache: show never downloads. --template prints the whole chat
template as it is; --json prints everything as one JSON object.`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeModel,
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := locateModel(args[0])
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if template {
				text, _, err := chat.FindTemplate(m.path)
				if err != nil {
					return err
				}
				_, err = io.WriteString(out, text)
				return err
			}
			in, err := info.Load(m.path)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(out, showJSON{Model: args[0], Repo: m.repo, Commit: m.commit, Info: in})
			}
			return writeShow(out, m, in, newShowStyles(out))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&template, "template", false, "print only the chat template, verbatim")
	cmd.MarkFlagsMutuallyExclusive("json", "template")
	return cmd
}

// showJSON is the JSON show prints: the model's info and where it was found.
type showJSON struct {
	Model  string `json:"model"`  // the argument given
	Repo   string `json:"repo"`   // the hub repo, "" for a local path
	Commit string `json:"commit"` // the snapshot's commit, "" for a local path
	*info.Info
}

// shownModel is where a MODEL argument was found.
type shownModel struct {
	arg, path    string
	repo, commit string // set for a hub snapshot
	revision     string
}

// locateModel finds a local file or folder, else the snapshot of a model
// reference in the hub cache, without any download.
func locateModel(arg string) (shownModel, error) {
	_, err := os.Stat(arg)
	if err == nil {
		return shownModel{arg: arg, path: arg}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return shownModel{}, err
	}
	r, perr := hub.ParseRef(arg)
	switch {
	case perr != nil && looksLocal(arg):
		return shownModel{}, fmt.Errorf("%w: %s: no such file or folder", errNoModel, arg)
	case perr != nil:
		return shownModel{}, fmt.Errorf("%w: %s is neither a file or folder nor a model reference "+
			"(org/name, org/name:QUANT, or an alias: mlx list --aliases)", errNoModel, arg)
	}
	opts, err := hubEnv()
	if err != nil {
		return shownModel{}, err
	}
	s, err := hub.Cache{Dir: opts.CacheDir}.Find(r)
	if err != nil {
		also := ""
		if looksLocal(arg) {
			also = " (and is not a local file)"
		}
		return shownModel{}, fmt.Errorf("%s is not downloaded%s: run mlx pull %s (%w)", arg, also, arg, err)
	}
	return shownModel{arg: arg, path: s.Path, repo: s.Repo, commit: s.Commit, revision: s.Revision}, nil
}

// looksLocal reports whether arg was probably meant as a path.
func looksLocal(arg string) bool {
	return filepath.IsAbs(arg) || strings.HasPrefix(arg, ".") || strings.HasPrefix(arg, "~") ||
		strings.HasSuffix(strings.ToLower(arg), ".gguf")
}
