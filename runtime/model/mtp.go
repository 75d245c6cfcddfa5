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

// The MTP input stage's tensors in Hugging Face checkpoints, and in GGUF
// files of layer 0 as mtpLayer presents them (llama.cpp's converter
// writes the layer and its nextn tensors after the model's layers).
var (
	hfMTP   = [...]string{"mtp.fc.weight", "mtp.pre_fc_norm_embedding.weight", "mtp.pre_fc_norm_hidden.weight", "mtp.norm.weight"}
	ggufMTP = [...]string{"blk.0.nextn.eh_proj.weight", "blk.0.nextn.enorm.weight", "blk.0.nextn.hnorm.weight", "blk.0.nextn.shared_head_norm.weight"}
)

// mtpSource returns src as BuildMTP reads it for cfg, with the names of
// the MTP input stage (fc, embedding norm, hidden norm, final norm), or
// false when src has no MTP layer.
func mtpSource(cfg *config.Model, src Source) (Source, [4]string, bool) {
	if cfg.Source == config.SourceGGUF {
		l := mtpLayer{Source: src, prefix: fmt.Sprintf("blk.%d.", cfg.Layers)}
		return l, ggufMTP, l.Has(ggufMTP[0])
	}
	return src, hfMTP, src.Has(hfMTP[0])
}

// BuildMTP binds the multi-token prediction layer of the model cfg
// describes, as a one-layer model of its own (full attention, its own KV
// cache) sharing the embedding and output layer: a forward pass takes each
// row's token with Batch.Hidden, the main model's hidden state. It reads
// Hugging Face checkpoints' mtp.* tensors and GGUF files' layer after the
// model's (blk.N.*, with blk.N.nextn.*).
func BuildMTP(cfg *config.Model, src Source) (*Model, error) {
	src, mtp, ok := mtpSource(cfg, src)
	if !ok {
		name := mtp[0]
		if l, isGGUF := src.(mtpLayer); isGGUF {
			name = l.name(name)
		}
		return nil, fmt.Errorf("%w: %s holds no multi-token prediction layer (%s)", ErrUnsupported, src.Where(), name)
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
	if cfg.Source == config.SourceGGUF {
		gn := *fam.GGUF
		names, m.Rope = &gn, fam.GGUFRope
	}
	names.OutputNorm = mtp[3]
	b := binder{src: src, offset: m.Blocks.NormOffset && cfg.Source != config.SourceGGUF}
	b.bindAll(m, &c, names)
	hid := c.HiddenSize
	m.MTP = &MTPHead{FC: b.matrix(mtp[0], hid, 2*hid), NormEmbed: b.norm(mtp[1], hid), NormHidden: b.norm(mtp[2], hid)}
	if b.err != nil {
		return nil, b.err
	}
	if err := m.releasePacked(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	m.weights = b.bytes
	return m, nil
}

// mtpNames returns n with the layer tensors under mtp.layers; the
// embedding and output layer stay the model's.
func mtpNames(n *Names) *Names {
	out := *n
	v := reflect.ValueOf(&out).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if _, rest, ok := strings.Cut(f.String(), "layers.%d."); ok {
			f.SetString("mtp.layers.%d." + rest)
		}
	}
	return &out
}

// mtpLayer presents the GGUF layer at prefix (blk.N.) as layer 0.
type mtpLayer struct {
	Source
	prefix string
}

func (l mtpLayer) name(n string) string {
	if rest, ok := strings.CutPrefix(n, "blk.0."); ok {
		return l.prefix + rest
	}
	return n
}

func (l mtpLayer) Has(name string) bool { return l.Source.Has(l.name(name)) }

func (l mtpLayer) Matrix(name string, rows, cols int) (*kernels.Matrix, error) {
	return l.Source.Matrix(l.name(name), rows, cols)
}

func (l mtpLayer) Experts(name string, n, rows, cols int) ([]*kernels.Matrix, error) {
	return l.Source.Experts(l.name(name), n, rows, cols)
}

func (l mtpLayer) Vector(name string, n int) ([]float32, error) {
	return l.Source.Vector(l.name(name), n)
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
