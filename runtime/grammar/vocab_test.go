package grammar

import (
	"strings"
	"testing"
)

// TestTrieHoldsEveryToken walks each piece down the trie and finds its id
// among the node's own tokens.
func TestTrieHoldsEveryToken(t *testing.T) {
	_, pieces := byteVocab()
	pieces = append(pieces, "ab", "b") // duplicates of earlier pieces
	v := NewVocab(pieces, []int{len(pieces) - 3})
	for id, p := range pieces {
		n := int32(0)
		for i := 0; i < len(p); i++ {
			next := int32(-1)
			for c := v.first[n]; c < v.first[n]+int32(v.count[n]); c++ {
				if v.label[c] == p[i] {
					next = c
				}
			}
			if next < 0 {
				t.Fatalf("piece %q: no edge for byte %d", p, i)
			}
			n = next
		}
		own := v.order[v.lo[n] : v.lo[n]+v.own[n]]
		found := false
		for _, x := range own {
			found = found || int(x) == id
		}
		if found != (p != "" && id != len(pieces)-3) {
			t.Errorf("token %d %q: found %v", id, p, found)
		}
	}
	if v.Size() != len(pieces) || v.Words() != (len(pieces)+63)/64 {
		t.Errorf("Size %d Words %d", v.Size(), v.Words())
	}
}

// TestRealVocabMask compares the mask with Accept for every token of the
// fixture vocabularies at points of a JSON text.
func TestRealVocabMask(t *testing.T) {
	cases := []struct {
		src      string
		prefixes []string
	}{
		{jsonGBNF, []string{"", `{`, `{"a`, `{"a": "hé`, `{"a": "\u00`, `{"a": -1`, `{"a": 1.5e`, `{"a": [tr`, `{"a": "日`[:9], `{"a": {}, "b": []`}},
		{`root ::= "\"" ( [^"\\\x00-\x1F] | "\\" ["\\nt] ){0,6} "\"" "!"?`, []string{`"`, `"ab`, `"abcde`, `"ab\`, `"日`[:3], `"abcdef`}},
	}
	for _, name := range []string{"smollm2", "qwen3"} {
		tv := loadVocab(t, name)
		t.Run(name, func(t *testing.T) {
			for _, tc := range cases {
				g := mustParse(t, tc.src)
				for _, prefix := range tc.prefixes {
					m := mustMatcher(t, g, tv.v, prefix)
					bits := make([]uint64, tv.v.Words())
					if err := m.Mask(bits); err != nil {
						t.Fatal(err)
					}
					bad := 0
					for id := range tv.v.Size() {
						allowed := bits[id>>6]&(1<<(id&63)) != 0
						if err := m.Clone().Accept(id); (err == nil) != allowed && bad < 5 {
							bad++
							t.Errorf("prefix %q token %d %q: mask %v, Accept %v", prefix, id, tv.v.pieces[id], allowed, err)
						}
					}
					if countBits(bits) == 0 && !strings.HasSuffix(prefix, "]") {
						t.Errorf("prefix %q: nothing allowed", prefix)
					}
				}
			}
		})
	}
}
