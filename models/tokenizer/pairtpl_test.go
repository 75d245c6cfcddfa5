package tokenizer

import (
	"errors"
	"strings"
	"testing"
)

// pairJSON is a WordPiece tokenizer.json with the given post-processor.
func pairJSON(post string) []byte {
	return []byte(`{"added_tokens": [{"id": 1, "content": "[CLS]", "special": true}, {"id": 2, "content": "[SEP]", "special": true}],
	 "normalizer": {"type": "BertNormalizer", "lowercase": true},
	 "pre_tokenizer": {"type": "BertPreTokenizer"},
	 "post_processor": ` + post + `,
	 "decoder": {"type": "WordPiece"},
	 "model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hello": 3, "world": 4}}}`)
}

// TestEncodePairTemplate checks that a tokenizer.json frames a pair as
// its post-processor's pair template says: TemplateProcessing (inside a
// Sequence too), RobertaProcessing and BertProcessing; an empty pair
// template keeps the framing of a single text around each.
func TestEncodePairTemplate(t *testing.T) {
	specials := `"special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [1]}, "[SEP]": {"id": "[SEP]", "ids": [2]}}`
	single := `"single": [{"SpecialToken": {"id": "[CLS]"}}, {"Sequence": {"id": "A"}}, {"SpecialToken": {"id": "[SEP]"}}]`
	template := `{"type": "TemplateProcessing", ` + single + `, "pair": [{"SpecialToken": {"id": "[CLS]"}}, {"Sequence": {"id": "A"}},
	  {"SpecialToken": {"id": "[SEP]"}}, {"Sequence": {"id": "B", "type_id": 1}}, {"SpecialToken": {"id": "[SEP]", "type_id": 1}}], ` + specials + `}`
	for _, tt := range []struct {
		name, post, want string
	}{
		{"TemplateProcessing", template, "[CLS] hello [SEP] world [SEP]"},
		{"Sequence", `{"type": "Sequence", "processors": [{"type": "ByteLevel"}, ` + template + `]}`, "[CLS] hello [SEP] world [SEP]"},
		{"RobertaProcessing", `{"type": "RobertaProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 1]}`, "[CLS] hello [SEP] [SEP] world [SEP]"},
		{"BertProcessing", `{"type": "BertProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 1]}`, "[CLS] hello [SEP] world [SEP]"},
		{"empty pair template", `{"type": "TemplateProcessing", ` + single + `, "pair": [], ` + specials + `}`, "hello world"},
	} {
		tok, err := ParseJSON(pairJSON(tt.post), nil, "pair.json")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, id := range tok.EncodePair("Hello", "WORLD") {
			got = append(got, tok.Token(int(id)))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: pair %q, want %q", tt.name, strings.Join(got, " "), tt.want)
		}
	}
}

// TestPairTemplateRefused checks the errors of bad pair templates.
func TestPairTemplateRefused(t *testing.T) {
	specials := `"special_tokens": {"[CLS]": {"id": "[CLS]", "ids": [1]}, "[BIG]": {"id": "[BIG]", "ids": [99]}}`
	for _, pair := range []string{
		`[{"Sequence": {"id": "C"}}]`,
		`[{"SpecialToken": {"id": "[NONE]"}}]`,
		`[{"Other": {"id": "A"}}]`,
		`[{"SpecialToken": {"id": "[BIG]"}}, {"Sequence": {"id": "A"}}]`,
	} {
		post := `{"type": "TemplateProcessing", "single": [{"Sequence": {"id": "A"}}], "pair": ` + pair + `, ` + specials + `}`
		if _, err := ParseJSON(pairJSON(post), nil, "pair.json"); !errors.Is(err, ErrFormat) {
			t.Errorf("pair %s: error %v, want ErrFormat", pair, err)
		}
	}
}
