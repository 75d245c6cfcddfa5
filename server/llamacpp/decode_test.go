package llamacpp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestParseTokenize(t *testing.T) {
	r, e := ParseTokenize([]byte(`{"content":["a",5,"b"],"parse_special":false,"with_pieces":true}`))
	if e != nil {
		t.Fatal(e)
	}
	want := []Part{{Text: "a"}, {ID: 5, IsID: true}, {Text: "b"}}
	if fmt.Sprint(r.Content) != fmt.Sprint(want) || r.SpecialParsed() || !r.WithPieces {
		t.Errorf("parsed %+v", r)
	}
	if r, e := ParseTokenize([]byte(`{"content":"x"}`)); e != nil || !r.SpecialParsed() || len(r.Content) != 1 {
		t.Errorf("a text: %+v %v", r, e)
	}
	if r, e := ParseTokenize([]byte(`{}`)); e != nil || len(r.Content) != 0 {
		t.Errorf("no content: %+v %v", r, e)
	}
	many := "[" + strings.Repeat("1,", MaxContentParts) + "1]"
	for _, bad := range []string{`[]`, `{"content":{}}`, `{"content":[true]}`, `{"content":[1.5]}`, `{"content":` + many + `}`, `{"add_special":"yes"}`} {
		if _, e := ParseTokenize([]byte(bad)); e == nil || e.Status != 400 {
			t.Errorf("%.60s: %v", bad, e)
		}
	}
}

func TestParseInfill(t *testing.T) {
	r, e := ParseInfill([]byte(`{"model":"m","input_prefix":"a","input_suffix":"b","input_extra":[{"text":"x"},{"filename":"f.go","text":"y","time":1}],"n_predict":7}`))
	if e != nil {
		t.Fatal(e)
	}
	if len(r.Extra) != 2 || r.Extra[0] != (Chunk{Filename: "tmp", Text: "x"}) || r.Extra[1] != (Chunk{Filename: "f.go", Text: "y"}) || r.Limit() != 7 || r.NoTokens() {
		t.Errorf("parsed %+v, limit %d", r, r.Limit())
	}
	limits := map[string]int{`"n_predict":-1`: 0, `"max_tokens":3,"n_predict":9`: 3, `"n_predict":0`: 0}
	for fields, want := range limits {
		r, e := ParseInfill([]byte(`{"model":"m","input_prefix":"","input_suffix":"",` + fields + `}`))
		if e != nil || r.Limit() != want || r.NoTokens() != (fields == `"n_predict":0`) {
			t.Errorf("%s: limit %d, want %d (%v)", fields, r.Limit(), want, e)
		}
	}
	for bad, param := range map[string]string{
		`{"model":"m","input_suffix":""}`:                                      "input_prefix",
		`{"model":"m","input_prefix":""}`:                                      "input_suffix",
		`{"model":"m","input_prefix":"","input_suffix":"","n":2}`:              "n",
		`{"model":"m","input_prefix":"","input_suffix":"","n_predict":-5}`:     "n_predict",
		`{"model":"m","input_prefix":"","input_suffix":"","input_extra":[{}]}`: "input_extra[0].text",
		`{"model":"m","input_prefix":"","input_suffix":"","input_extra":"x"}`:  "input_extra",
		`{"model":"m","input_prefix":"","input_suffix":"","prompt":5}`:         "prompt",
		`{"input_prefix":"","input_suffix":""}`:                                "model",
	} {
		if _, e := ParseInfill([]byte(bad)); e == nil || e.Param != param {
			t.Errorf("%s: %v, want an error about %s", bad, e, param)
		}
	}
}

func TestWithModel(t *testing.T) {
	var v map[string]any
	if err := json.Unmarshal(WithModel([]byte(`{"model":"","a":1}`), "q"), &v); err != nil || v["model"] != "q" || v["a"] != 1.0 {
		t.Errorf("WithModel: %v %v", v, err)
	}
	if m, e := ModelOf([]byte(`{"model":"x"}`)); m != "x" || e != nil {
		t.Errorf("ModelOf: %q %v", m, e)
	}
	if _, e := ModelOf([]byte(`[1]`)); e == nil {
		t.Error("ModelOf of an array gives no error")
	}
}
