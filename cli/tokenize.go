package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/bounded"
	"github.com/mlxrun/mlx/models/tokenizer"
)

// maxTokenizeInput bounds the text read from standard input.
const maxTokenizeInput = 64 << 20

func init() { register(newTokenizeCmd) }

func newTokenizeCmd() *cobra.Command {
	var ids string
	var special, tokens, plain bool
	cmd := &cobra.Command{
		Use:   "tokenize MODEL [TEXT]",
		Short: "Show the token ids of a text, or the text of token ids",
		Long: `Print the token ids of TEXT (standard input when TEXT is absent or "-"),
space-separated, as the model's own tokenizer gives them. Special tokens
written in the text, such as <|im_start|>, are recognised.

MODEL is a .gguf file, a model directory, a tokenizer.json, or a model
reference as mlx run takes it (org/name, org/name:QUANT, an alias),
downloaded into the cache when missing. With --ids, decode the given ids
back to text instead.`,
		Example: `  mlx tokenize ./Qwen3-0.6B "The capital of France is"
  mlx tokenize --tokens model.gguf "Hello, world"
  mlx tokenize --ids 785,6722,315 ./Qwen3-0.6B`,
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: completeModel,
		PreRunE:           resolveModelArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			tok, err := tokenizer.Load(args[0])
			if err != nil {
				return err
			}
			out := bufio.NewWriter(cmd.OutOrStdout())
			defer out.Flush()
			if cmd.Flags().Changed("ids") {
				list, err := parseTokenIDs(ids, tok.VocabSize())
				if err != nil {
					return err
				}
				if tokens {
					writeTokenLines(out, tok, list)
				}
				_, err = fmt.Fprintln(out, tok.Decode(list, false))
				return err
			}
			text, err := tokenizeInput(cmd.InOrStdin(), args[1:])
			if err != nil {
				return err
			}
			list := tok.Encode(text, special)
			if plain {
				list = tok.EncodePlain(text)
			}
			if tokens {
				writeTokenLines(out, tok, list)
			}
			strs := make([]string, len(list))
			for i, id := range list {
				strs[i] = strconv.Itoa(int(id))
			}
			_, err = fmt.Fprintln(out, strings.Join(strs, " "))
			return err
		},
	}
	cmd.Flags().StringVar(&ids, "ids", "", "decode these token ids (comma- or space-separated) instead")
	cmd.Flags().BoolVar(&special, "special", false, "add BOS/EOS as the model's tokenizer config says")
	cmd.Flags().BoolVar(&tokens, "tokens", false, "also print each token: id, vocabulary entry, text")
	cmd.Flags().BoolVar(&plain, "plain", false, "treat special tokens written in TEXT as plain text")
	cmd.MarkFlagsMutuallyExclusive("plain", "special")
	return cmd
}

// tokenizeInput returns the text argument, or standard input.
func tokenizeInput(stdin io.Reader, args []string) (string, error) {
	if len(args) == 1 && args[0] != "-" {
		return args[0], nil
	}
	b, err := bounded.Read(stdin, maxTokenizeInput)
	if errors.Is(err, bounded.ErrTooLarge) {
		return "", fmt.Errorf("standard input is larger than %d MiB", maxTokenizeInput>>20)
	}
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	return string(b), nil
}

// parseTokenIDs reads "1,2,3" or "1 2 3" and checks every id against the
// vocabulary size.
func parseTokenIDs(s string, vocab int) ([]int32, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	ids := make([]int32, 0, len(fields))
	for _, f := range fields {
		id, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("--ids: %q is not a token id", f)
		}
		if id < 0 || id >= vocab {
			return nil, fmt.Errorf("--ids: token id %d is out of range (the vocabulary has ids 0 to %d)", id, vocab-1)
		}
		ids = append(ids, int32(id))
	}
	return ids, nil
}

// writeTokenLines prints one line per token: id, vocabulary entry and text.
func writeTokenLines(w io.Writer, tok *tokenizer.Tokenizer, ids []int32) {
	for _, id := range ids {
		fmt.Fprintf(w, "%d\t%s\t%s\n", id, strconv.Quote(tok.Token(int(id))), strconv.Quote(tok.Decode([]int32{id}, false)))
	}
}
