package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/runtime"
)

// addSpecFlags gives cmd the speculative decoding flags --draft,
// --draft-tokens and --lookup; before cmd runs, the --draft reference is
// turned into a local path (pulled when needed). specOptions reads them.
func addSpecFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("draft", "", "a small model with the same vocabulary that proposes tokens for the model to check (speculative decoding; same output, faster when it guesses well), or \"mtp\" for the model's own multi-token prediction layer (Qwen3.5)")
	f.Int("draft-tokens", runtime.DefaultDraftTokens, fmt.Sprintf("tokens the draft model proposes per step (1…%d; requests may set num_assistant_tokens)", runtime.MaxSpecTokens))
	f.Int("lookup", 0, fmt.Sprintf("prompt lookup: propose up to this many tokens that followed the last few tokens earlier in the prompt or answer (0 off, at most %d; requests may set prompt_lookup_num_tokens)", runtime.MaxSpecTokens))
	pre := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if pre != nil {
			if err := pre(cmd, args); err != nil {
				return err
			}
		}
		return resolveDraft(cmd)
	}
}

// resolveDraft replaces the --draft reference with the path of its files.
func resolveDraft(cmd *cobra.Command) error {
	f := cmd.Flags()
	ref, _ := f.GetString("draft")
	if ref == "" || ref == runtime.MTPDraft {
		return nil
	}
	path, err := resolveModel(cmd.Context(), cmd.ErrOrStderr(), ref)
	if err != nil {
		return fmt.Errorf("--draft %s: %w", ref, err)
	}
	return f.Set("draft", path)
}

// specOptions returns the speculative decoding options that cmd's flags
// (added by addSpecFlags) give.
func specOptions(cmd *cobra.Command) runtime.SpecOptions {
	f := cmd.Flags()
	var o runtime.SpecOptions
	o.Draft, _ = f.GetString("draft")
	o.DraftTokens, _ = f.GetInt("draft-tokens")
	o.Lookup, _ = f.GetInt("lookup")
	return o
}

// writeSpecStats prints how many proposed tokens a generation accepted,
// when speculation proposed any.
func writeSpecStats(w io.Writer, res runtime.Result) {
	if s := res.Spec; s.Proposed > 0 {
		fmt.Fprintf(w, "speculation: %d of %d proposed tokens accepted (%.0f%%)\n", s.Accepted, s.Proposed, 100*s.AcceptRate())
	}
}
