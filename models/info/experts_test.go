package info

import (
	"reflect"
	"testing"
)

// TestExpertsHF checks the expert layout and the active parameters of the
// trained Qwen3-MoE model: every parameter but the experts a token is not
// routed to, which a config without a shared expert does not show.
func TestExpertsHF(t *testing.T) {
	in := loadFixture(t, "trained/qwen3-moe")
	want := &Experts{Count: 4, Used: 2, FFNLength: 64}
	if !reflect.DeepEqual(in.Experts, want) {
		t.Fatalf("experts %+v, want %+v", in.Experts, want)
	}
	// Each layer has 4 experts of gate, up and down, 64 × 64 each; a token
	// uses 2 of them.
	perExpert := int64(3 * 64 * 64)
	unused := int64(in.Layers) * 2 * perExpert
	if in.ActiveParameters != in.Parameters-unused || in.ActiveParameterSize == "" {
		t.Errorf("active parameters %d (%q) of %d, want %d", in.ActiveParameters, in.ActiveParameterSize, in.Parameters, in.Parameters-unused)
	}
}

// TestExpertsGGUF checks a GGUF file of an architecture the runtime does
// not know: the layout from its expert keys, the routed experts from the
// stacked tensors, and a shared expert kept apart.
func TestExpertsGGUF(t *testing.T) {
	dir := t.TempDir()
	path := writeGGUF(t, dir, "moe.gguf", meta{"general.architecture", "mymoe", "mymoe.block_count", uint32(1),
		"mymoe.expert_count", uint32(8), "mymoe.expert_used_count", uint32(2), "mymoe.expert_feed_forward_length", uint32(16),
		"mymoe.expert_shared_feed_forward_length", uint32(32)},
		shape{"token_embd.weight", []uint64{32, 10}},
		shape{"blk.0.ffn_gate_inp.weight", []uint64{32, 8}},
		shape{"blk.0.ffn_gate_exps.weight", []uint64{32, 16, 8}},
		shape{"blk.0.ffn_up_exps.weight", []uint64{32, 16, 8}},
		shape{"blk.0.ffn_down_exps.weight", []uint64{16, 32, 8}},
		shape{"blk.0.ffn_up_shexp.weight", []uint64{32, 32}})
	in, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := (&Experts{Count: 8, Used: 2, FFNLength: 16, SharedFFNLength: 32}); !reflect.DeepEqual(in.Experts, want) {
		t.Fatalf("experts %+v, want %+v", in.Experts, want)
	}
	routed := int64(3 * 32 * 16 * 8)
	if want := in.Parameters - routed + routed/4; in.ActiveParameters != want {
		t.Errorf("active parameters %d, want %d", in.ActiveParameters, want)
	}
	dense := writeGGUF(t, dir, "dense.gguf", meta{"general.architecture", "mydense"}, shape{"token_embd.weight", []uint64{32, 10}})
	in, err = Load(dense)
	if err != nil {
		t.Fatal(err)
	}
	if in.Experts != nil || in.ActiveParameters != 0 {
		t.Errorf("a dense model: experts %+v, active parameters %d", in.Experts, in.ActiveParameters)
	}
}
