package runtime

import "testing"

// TestDecodeWeightBytes checks the bytes a decode step reads: every layer
// matrix and the output matrix of a dense model (whose layers lack some
// matrices), and of a mixture only the share of the experts a token uses.
func TestDecodeWeightBytes(t *testing.T) {
	for _, name := range []string{"gemma3", "qwen3-moe"} {
		t.Run(name, func(t *testing.T) {
			e, _ := loadTrained(t, name)
			m := e.model
			dense, experts := int64(len(m.Output.Data)), int64(0)
			for _, l := range m.Layers {
				for _, w := range l.Matrices() {
					if w != nil {
						dense += int64(len(w.Data))
					}
				}
				if l.MoE != nil {
					for _, w := range l.MoE.Matrices(nil) {
						experts += int64(len(w.Data))
					}
				}
			}
			moe := m.Config.MoE
			want := dense
			if moe.Experts > 0 {
				want += experts * int64(moe.TopK) / int64(moe.Experts)
			}
			if got := e.DecodeWeightBytes(); got != want {
				t.Errorf("DecodeWeightBytes %d, want %d", got, want)
			}
		})
	}
}
