package model

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// MTPHead is the input stage of a multi-token prediction layer (Qwen3.5,
// Qwen3-Next): the token's embedding and the main model's final hidden
// state at the position before, each normalised, side by side, projected
// back to the hidden size. A decoder layer, the final norm and the shared
// output layer follow; its logits guess the token after the next.
type MTPHead struct {
	FC                    *kernels.Matrix // [hidden, 2·hidden]: embedding columns first
	NormEmbed, NormHidden []float32
}

// mtpFC is the name of the MTP projection in Hugging Face checkpoints.
const mtpFC = "mtp.fc.weight"

// HasMTP reports whether src holds a multi-token prediction layer.
func HasMTP(src Source) bool { return src.Has(mtpFC) }

// BuildMTP binds the multi-token prediction layer of the model cfg
// describes, as a one-layer model of its own (full attention, its own KV
// cache) sharing the embedding and output layer: a forward pass takes each
// row's token with Batch.Hidden, the main model's hidden state.
func BuildMTP(cfg *config.Model, src Source) (*Model, error) {
	if cfg.Source == config.SourceGGUF || !HasMTP(src) {
		return nil, fmt.Errorf("%w: %s holds no multi-token prediction layer (%s)", ErrUnsupported, src.Where(), mtpFC)
	}
	fam, err := Lookup(cfg.Arch)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	c := *cfg
	c.Layers, c.DeltaNet, c.KVSharedLayers = 1, nil, 0
	m := &Model{Config: &c, Family: fam, Rope: RopeNeox}
	if err := m.setup(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	names := mtpNames(textModel(fam.HF, src))
	b := binder{src: src, offset: m.Blocks.NormOffset}
	b.bindAll(m, &c, names)
	hid := c.HiddenSize
	m.MTP = &MTPHead{FC: b.matrix(mtpFC, hid, 2*hid),
		NormEmbed: b.norm("mtp.pre_fc_norm_embedding.weight", hid), NormHidden: b.norm("mtp.pre_fc_norm_hidden.weight", hid)}
	if b.err != nil {
		return nil, b.err
	}
	if err := m.releasePacked(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	m.weights = b.bytes
	return m, nil
}

// mtpNames returns n with the layer tensors under mtp.layers and the final
// norm mtp.norm; the embedding and output layer stay the model's.
func mtpNames(n *Names) *Names {
	out := *n
	v := reflect.ValueOf(&out).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if _, rest, ok := strings.Cut(f.String(), "layers.%d."); ok {
			f.SetString("mtp.layers.%d." + rest)
		}
	}
	out.OutputNorm = "mtp.norm.weight"
	return &out
}

// mtpInput replaces the embeddings of the n rows in s.x by the MTP
// layer's input: fc·[norm(embedding), norm(hidden)].
func (s *State) mtpInput(n int, hidden []float32) {
	h, hid := s.m.MTP, s.m.Config.HiddenSize
	eps := s.m.Config.RMSNormEps
	for i := range n {
		in := s.mtpIn[2*i*hid : 2*(i+1)*hid]
		kernels.RMSNorm(in[:hid], s.x[i*hid:(i+1)*hid], h.NormEmbed, eps)
		kernels.RMSNorm(in[hid:], hidden[i*hid:(i+1)*hid], h.NormHidden, eps)
	}
	s.pool.MatMul(h.FC, s.mtpIn[:2*n*hid], n, s.x)
}
