package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/chat"
)

func init() { register(newTemplateCmd) }

func newTemplateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "template",
		Short: "Show and render a model's chat template",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newTemplateRenderCmd(), newTemplateShowCmd())
	return cmd
}

type templateFlags struct {
	model, template, name   string
	messages, tools, kwargs string
	bos, eos                string
	noGenerationPrompt      bool
}

func newTemplateRenderCmd() *cobra.Command {
	var f templateFlags
	cmd := &cobra.Command{
		Use:   "render (--model MODEL | --template FILE) --messages M.json",
		Short: "Print the prompt a chat template makes of a conversation",
		Long: "Render a conversation with a chat template exactly as Hugging Face transformers does and\n" +
			"print the prompt as is, without a trailing newline.\n\n" +
			"MODEL is what mlx run takes (a .gguf file, a model directory, org/name, an alias; downloaded\n" +
			"when missing) or a tokenizer_config.json. FILE (a .jinja file, a JSON file with a\n" +
			"chat_template, or a .gguf) overrides the model's template; the special tokens still come\n" +
			"from MODEL, then from --bos and --eos. M.json is a JSON array of\n" +
			"messages (or an object with \"messages\"), T.json an array of tools, K.json an object of\n" +
			"extra template variables such as {\"enable_thinking\": false}.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out, err := renderTemplate(cmd, &f)
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), out)
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.model, "model", "", "model as mlx run takes it, or a tokenizer_config.json")
	fl.StringVar(&f.template, "template", "", "chat template file overriding the model's")
	fl.StringVar(&f.name, "name", "", "named template to use (e.g. tool_use); default picks as transformers does")
	fl.StringVar(&f.messages, "messages", "", "JSON file with the messages")
	fl.StringVar(&f.tools, "tools", "", "JSON file with the tool definitions")
	fl.StringVar(&f.kwargs, "kwargs", "", "JSON file with extra template variables")
	fl.StringVar(&f.bos, "bos", "", "bos_token to pass (overrides the model's)")
	fl.StringVar(&f.eos, "eos", "", "eos_token to pass (overrides the model's)")
	fl.BoolVar(&f.noGenerationPrompt, "no-generation-prompt", false, "do not open an assistant turn at the end")
	_ = cmd.MarkFlagRequired("messages")
	_ = cmd.RegisterFlagCompletionFunc("model", completeModels)
	return cmd
}

func newTemplateShowCmd() *cobra.Command {
	var model, name string
	cmd := &cobra.Command{
		Use:   "show --model MODEL",
		Short: "Print a model's chat template and where it was found",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := resolveModel(cmd.Context(), cmd.ErrOrStderr(), model)
			if err != nil {
				return err
			}
			srcs, err := chat.FindTemplates(path)
			if err != nil {
				return err
			}
			for _, s := range srcs {
				if s.Name == name || (name == "" && s.Name == "default") {
					fmt.Fprintln(cmd.ErrOrStderr(), "template:", s.Origin)
					_, err := fmt.Fprint(cmd.OutOrStdout(), s.Text)
					return err
				}
			}
			return fmt.Errorf("%w named %q in %s", chat.ErrNoTemplate, name, model)
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model as mlx run takes it, or a tokenizer_config.json")
	cmd.Flags().StringVar(&name, "name", "", "named template to show (e.g. tool_use)")
	_ = cmd.MarkFlagRequired("model")
	_ = cmd.RegisterFlagCompletionFunc("model", completeModels)
	return cmd
}

func renderTemplate(cmd *cobra.Command, f *templateFlags) (string, error) {
	if f.model == "" && f.template == "" {
		return "", errors.New("give --model MODEL or --template FILE")
	}
	if f.model != "" {
		path, err := resolveModel(cmd.Context(), cmd.ErrOrStderr(), f.model)
		if err != nil {
			return "", err
		}
		f.model = path
	}
	ts, err := loadTemplates(f)
	if err != nil {
		return "", err
	}
	in := chat.Input{AddGenerationPrompt: !f.noGenerationPrompt, Now: time.Now,
		Tokens: chat.SpecialTokens{BOS: f.bos, EOS: f.eos}}
	if in.Messages, err = readMessages(f.messages); err != nil {
		return "", err
	}
	if f.tools != "" {
		if err := readJSONFile(f.tools, "tools", &in.Tools); err != nil {
			return "", err
		}
		if in.Tools == nil {
			in.Tools = []json.RawMessage{}
		}
	}
	if f.kwargs != "" {
		var kw map[string]json.RawMessage
		if err := readJSONFile(f.kwargs, "kwargs", &kw); err != nil {
			return "", err
		}
		in.Kwargs = map[string]any{}
		for k, v := range kw {
			in.Kwargs[k] = v
		}
	}
	t, err := ts.Select(f.name, in.Tools != nil)
	if err != nil {
		return "", err
	}
	in.Tokens = ts.Tokens.Merge(in.Tokens)
	return t.Render(cmd.Context(), in)
}

// loadTemplates compiles the template file, or the model's templates, and
// reads the model's special tokens.
func loadTemplates(f *templateFlags) (*chat.Templates, error) {
	if f.template == "" {
		return chat.Load(f.model)
	}
	srcs, err := chat.FindTemplates(f.template)
	if err != nil {
		return nil, err
	}
	ts, err := chat.CompileAll(srcs)
	if err != nil {
		return nil, err
	}
	if f.model != "" {
		if ts.Tokens, err = chat.LoadTokens(f.model); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

func readJSONFile(path, what string, dst any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, dst); err != nil {
		return fmt.Errorf("%s file %s: %w", what, path, err)
	}
	return nil
}

// readMessages reads a JSON array of messages, or an object holding one
// under "messages".
func readMessages(path string) ([]chat.Message, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var wrapped struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(data, &wrapped); err == nil && wrapped.Messages != nil {
		data = wrapped.Messages
	}
	msgs, err := chat.ParseMessages(data)
	if err != nil {
		return nil, fmt.Errorf("messages file %s: %w", path, err)
	}
	return msgs, nil
}
