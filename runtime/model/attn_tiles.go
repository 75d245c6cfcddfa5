package model

import (
	"math"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// ggmlTile is the number of keys in a tile of ggml's tiled CPU flash
// attention, counted from the batch's first row.
const ggmlTile = 64

// ggmlTiles reports whether the rows of the run take flashTiles: those
// of a GGUF encoder (without softcap or sinks), whose documents
// llama.cpp runs together in a batch of 64 rows and more, where its flash
// attention takes its tiled float32 path.
func (a *attnJob) ggmlTiles() bool {
	c := a.s.m.Config
	return a.s.ends != nil && c.Source == config.SourceGGUF && kernels.GGMLOrder() && c.AttnSoftcap == 0 && a.s.m.Layers[a.layer].Sinks == nil
}

// flashTiles is attention over a half-precision cache as ggml's tiled
// flash attention computes it: the keys in tiles of ggmlTile batch rows
// (base is the batch row of the sequence's position 0); for each tile the
// scores (kernels.ScoresF16Seq), scaled, their maximum, the weights
// e^(s−max) and their sum (kernels.ExpShiftGGML), and the values weighted
// by them added to a float32 sum in order of position, which is rescaled
// when the maximum grows; that sum divided by the weights' at the end.
// A batch of fewer rows takes the tiles too, where ggml takes its row
// path, so that an input's result does not depend on the inputs beside it
// beyond the last bits.
func (sp *span) flashTiles(sc []float32, base int) {
	sp.blocks(func(bi, lo, hi int) {
		k, _ := f16Block(sp.kc, sp.layer, sp.kvh, bi)
		kernels.ScoresF16Seq(sc[lo-sp.start:hi-sp.start], sp.q, k[lo-bi*sp.bs:], sp.bs)
	})
	kernels.Scale(sc, sp.scale)
	clear(sp.out)
	m, l := float32(math.Inf(-1)), float32(0)
	for lo := sp.start; lo <= sp.end; {
		hi := min(sp.end+1, ((base+lo)/ggmlTile+1)*ggmlTile-base)
		w := sc[lo-sp.start : hi-sp.start]
		if mt := maxFrom(m, w); mt > m {
			r := float32(math.Exp(float64(m - mt)))
			kernels.Scale(sp.out, r)
			l *= r
			m = mt
		}
		l = float32(float64(l) + kernels.ExpShiftGGML(w, m, (base+lo)%8))
		sp.accumRange(w, lo, hi)
		lo = hi
	}
	kernels.Scale(sp.out, 1/l)
}

// accumRange adds the values of positions [lo, hi) of a half-precision
// cache, weighted by w, to sp.out in order of position.
func (sp *span) accumRange(w []float32, lo, hi int) {
	for bi := lo / sp.bs; bi*sp.bs < hi; bi++ {
		a, b := max(lo, bi*sp.bs), min(hi, (bi+1)*sp.bs)
		_, v := f16Block(sp.kc, sp.layer, sp.kvh, bi)
		kernels.AccumF16(sp.out, w[a-lo:b-lo], v[(a-bi*sp.bs)*sp.dim+sp.kvo:], sp.dim)
	}
}
