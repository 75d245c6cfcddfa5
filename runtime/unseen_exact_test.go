package runtime

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/fixture/variant"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// unseenExactGolden holds llama-server's greedy tokens and top
// log-probabilities on the F32 copies of the unseen fixtures, computed on
// its exact path, by variant.
const unseenExactGolden = "testdata/unseen-exact-llama-server.json"

// unseenExactTol bounds |Δ log-probability| on the exact paths: float32
// weights, float32 KV caches, and llama-server without flash attention
// (whose half-precision rounding of queries mlx follows only in part).
// What is left is the order of float32 sums; the variants agree to 1e-4.
const unseenExactTol = 1e-3

// unseenExactVariants are the unseen variants compared on the exact path:
// those whose F16 comparison leaves room for a structural error to hide
// in the roundings (hybrid and mixture-of-experts models, where a
// rounding moves a recurrent state or a router's choice).
var unseenExactVariants = []string{"qwen3.5-27b", "qwen3.5-0.8b", "qwen3.5-35b-a3b", "qwen3-30b-a3b"}

// TestUnseenExactMatchesLlamaServer compares mlx with llama-server on
// F32 copies of the unseen fixtures' F16 files (the same values), both on
// their exact paths: the same greedy tokens and every top log-probability
// llama-server reports within unseenExactTol. The references are stored
// in testdata; with LLAMA_BIN_DIR naming a build with llama-server they
// are also made live (and rewritten with -update).
func TestUnseenExactMatchesLlamaServer(t *testing.T) {
	dir, golden, server := unseenFixtures(t, unseenExactGolden)
	for _, v := range unseenExactVariants {
		t.Run(v, func(t *testing.T) {
			f32 := filepath.Join(t.TempDir(), v+"-F32.gguf")
			variant.WidenGGUF(t, filepath.Join(dir, v+"-F16.gguf"), f32)
			prompt := unseenPromptTokens(t, f32, 256)
			refs := unseenRefs(t, golden, v, prompt, server != "", func() unseenRef {
				return llamaServerTop(t, server, f32, prompt, "-ctk", "f32", "-ctv", "f32", "-fa", "off")
			})
			for source, ref := range refs {
				got := unseenLogprobs(t, f32, kvcache.F32, unseenDefaultCtx, append(slices.Clone(prompt), ref.Tokens...), len(prompt)-1)
				worst := 0.0
				for i, top := range ref.Top {
					if a := argmax(got[i]); a != int(ref.Tokens[i]) {
						t.Errorf("%s, token %d: mlx's greedy token %d, llama-server's %d", source, i, a, ref.Tokens[i])
					}
					for id, lp := range top {
						worst = max(worst, math.Abs(float64(got[i][id])-lp))
					}
				}
				if worst > unseenExactTol {
					t.Errorf("%s: largest |Δ log-probability| %.4g, want ≤ %v", source, worst, unseenExactTol)
				}
				t.Logf("%s: tokens %v, largest |Δ log-probability| %.3g", source, ref.Tokens, worst)
			}
		})
	}
	if *update {
		writeUnseenGolden(t, unseenExactGolden, golden)
	}
}

// unseenMLXCopies are the unseen variants that models/fixture/unseen.py
// also writes as mlx-lm converts them, and the directories of the copies.
var unseenMLXCopies = map[string]string{"qwen3.5-35b-a3b": "qwen3.5-35b-a3b-mlx"}

// TestUnseenMLXLayout checks that an unseen variant's directory in
// mlx-lm's layout (language_model.model. names, no MTP or vision tensors,
// MLX's convolution layout, norms stored shifted, experts split into
// switch_mlp projections) computes as the directory it was made from: the
// same values in another arrangement, so every log-probability of the
// prompt within unseenExactTol.
func TestUnseenMLXLayout(t *testing.T) {
	dir, _, _ := unseenFixtures(t, unseenExactGolden)
	for v, copyDir := range unseenMLXCopies {
		t.Run(v, func(t *testing.T) {
			ref := filepath.Join(dir, v)
			prompt := unseenPromptTokens(t, ref, 256)
			want := unseenLogprobs(t, ref, kvcache.F32, unseenDefaultCtx, prompt, 0)
			got := unseenLogprobs(t, filepath.Join(dir, copyDir), kvcache.F32, unseenDefaultCtx, prompt, 0)
			worst := 0.0
			for i := range want {
				for j := range want[i] {
					worst = max(worst, math.Abs(float64(got[i][j]-want[i][j])))
				}
			}
			if worst > unseenExactTol {
				t.Errorf("largest |Δ log-probability| %.4g over %d positions, want ≤ %v", worst, len(want), unseenExactTol)
			}
			t.Logf("%d positions, largest |Δ log-probability| %.3g", len(want), worst)
		})
	}
}
