package model

import "github.com/mlxrun/mlx/runtime/kernels"

// splitGate splits row i of gated attention's projection (s.qg: per head,
// HeadDim queries then HeadDim gate values, plus the bias if any) into its
// queries (s.q) and its output gate (s.ag).
func (s *State) splitGate(l *Layer, i int) {
	hd := l.HeadDim
	qd := s.m.Config.Heads * hd
	qg := s.qg[2*i*qd : 2*(i+1)*qd]
	if l.QBias != nil {
		kernels.Add(qg, l.QBias)
	}
	q, g := s.q[i*qd:(i+1)*qd], s.ag[i*qd:(i+1)*qd]
	for h := 0; h < qd; h += hd {
		copy(q[h:h+hd], qg[2*h:2*h+hd])
		copy(g[h:h+hd], qg[2*h+hd:2*h+2*hd])
	}
}

// gateAttention multiplies the attention output of the given rows (all n
// when nil) by the sigmoid of their gate.
func (s *State) gateAttention(l *Layer, n int, rows []int) {
	qd, count := s.m.Config.Heads*l.HeadDim, n
	if rows != nil {
		count = len(rows)
	}
	for k := range count {
		r := k
		if rows != nil {
			r = rows[k]
		}
		att, g := s.att[r*qd:(r+1)*qd], s.ag[r*qd:(r+1)*qd]
		// The gate's last use: it becomes e^-g in place.
		for e, x := range g {
			g[e] = -x
		}
		kernels.Exp(g)
		for e, x := range g {
			att[e] /= 1 + x
		}
	}
}
