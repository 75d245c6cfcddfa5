package model

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// bindAll binds the embedding, the output matrix and the layers of m from
// b's source. The kernels repack some formats as they bind them, which is
// most of a model's load time, so the tensors are bound on one goroutine per
// CPU (sources are read-only and safe for that); the result does not depend
// on the order.
func (b *binder) bindAll(m *Model, cfg *config.Model, names *Names) {
	hid, vocab := cfg.HiddenSize, cfg.VocabSize
	m.Layers = make([]Layer, cfg.Layers)
	jobs := []func(*binder){
		func(b *binder) { m.Embed = b.matrix(names.Embed, vocab, hid) },
		func(b *binder) { m.OutputNorm = b.norm(names.OutputNorm, hid) },
	}
	if p := cfg.PerLayerInput; p > 0 {
		jobs = append(jobs,
			func(b *binder) { m.PLEmbed = b.matrix(names.PLEmbed, cfg.PerLayerVocab, cfg.Layers*p) },
			func(b *binder) { m.PLProj = b.matrix(names.PLModelProj, cfg.Layers*p, hid) },
			func(b *binder) { m.PLNorm = b.norm(names.PLProjNorm, p) })
	}
	tied := cfg.TieEmbeddings && !b.src.Has(names.Output)
	if !tied {
		jobs = append(jobs, func(b *binder) { m.Output = b.matrix(names.Output, vocab, hid) })
	}
	for i := range m.Layers {
		jobs = append(jobs, func(b *binder) { m.Layers[i] = b.layer(m, names, i) })
	}
	if cfg.Labels > 0 && names.ClsOut != "" && b.src.Has(names.ClsOut) {
		jobs = append(jobs, func(b *binder) { m.Head = b.head(names, cfg) })
	}
	if d := cfg.DenseSize; d > 0 && names.Dense1 != "" {
		m.Dense = []*kernels.Matrix{nil, nil}
		jobs = append(jobs,
			func(b *binder) { m.Dense[0] = b.matrix(names.Dense1, d, hid) },
			func(b *binder) { m.Dense[1] = b.matrix(names.Dense2, hid, d) })
	}
	b.parallel(jobs, goruntime.GOMAXPROCS(0))
	if tied {
		m.Output = m.Embed
	}
}

// parallel runs the jobs on up to workers goroutines, each job with a binder
// of its own, then adds their byte counts to b and keeps the error of the
// first job, in job order, that failed.
func (b *binder) parallel(jobs []func(*binder), workers int) {
	sub := make([]binder, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, len(jobs))) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(jobs); i = int(next.Add(1) - 1) {
				sub[i].src, sub[i].offset = b.src, b.offset
				jobs[i](&sub[i])
			}
		})
	}
	wg.Wait()
	for _, s := range sub {
		if b.err == nil {
			b.err = s.err
		}
		b.bytes += s.bytes
	}
}
