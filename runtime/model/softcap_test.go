package model_test

import (
	"math"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/gemma3"
)

// gemmaLogits runs 24 tokens of the trained Gemma 3 model, with its config
// changed by edit, and returns the logits of the last one.
func gemmaLogits(t *testing.T, edit func(*config.Model)) []float32 {
	t.Helper()
	m, _ := buildTrained(t, "gemma3", edit)
	return lastLogits(t, m)
}

// lastLogits runs 24 tokens through m in one batch and returns the logits
// of the last.
func lastLogits(t *testing.T, m *model.Model) []float32 {
	t.Helper()
	tokens := make([]int32, 24)
	for i := range tokens {
		tokens[i] = int32(300 + 7*i)
	}
	return run(t, m, tokens, len(tokens))
}

// TestSoftcaps checks Gemma 2's soft-caps on a real model: the final cap
// is c·tanh(logit/c) of the uncapped logits, an attention cap far above
// every score changes nothing, and a tight one changes the result.
func TestSoftcaps(t *testing.T) {
	plain := gemmaLogits(t, func(*config.Model) {})
	capped := gemmaLogits(t, func(c *config.Model) { c.FinalSoftcap = 3 })
	for i, v := range plain {
		if want := 3 * math.Tanh(float64(v)/3); math.Abs(float64(capped[i])-want) > 1e-5 {
			t.Fatalf("logit %d: capped %v, want 3·tanh(%v/3) = %v", i, capped[i], v, want)
		}
	}
	loose := gemmaLogits(t, func(c *config.Model) { c.AttnSoftcap = 1e4 })
	tight := gemmaLogits(t, func(c *config.Model) { c.AttnSoftcap = 0.5 })
	var dLoose, dTight float64
	for i, v := range plain {
		dLoose = max(dLoose, math.Abs(float64(loose[i]-v)))
		dTight = max(dTight, math.Abs(float64(tight[i]-v)))
	}
	if dLoose > 1e-3 || dTight < 0.1 {
		t.Errorf("attention cap 1e4 moves the logits by %v (want ~0), cap 0.5 by %v (want more)", dLoose, dTight)
	}
}
