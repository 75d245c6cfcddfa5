package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSupported checks that the registry lists each family once, sorted,
// and that an unknown name's error lists the registered names.
func TestSupported(t *testing.T) {
	got := Supported()
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) || !slices.Contains(got, "llama") {
		t.Errorf("Supported() = %v, want sorted unique names with llama", got)
	}
	_, err := FromHFJSON(cfg(t, "GPT2LMHeadModel"))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "LlamaForCausalLM, MistralForCausalLM") {
		t.Errorf("error %v, want ErrUnsupported listing the registered classes", err)
	}
}

// TestRegisterTwice checks that a name registered twice panics.
func TestRegisterTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	Register(Family{Arch: "other", HF: []string{"LlamaForCausalLM"}})
}
