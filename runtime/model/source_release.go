package model

import (
	"fmt"

	"github.com/mlxrun/mlx/models/mmap"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// newMatrix is kernels.NewMatrix for the sources. When the kernels made their
// own packed copy of the weights, the file's pages of them are given back to
// the system (mmap.Release): matmuls no longer read them, so keeping them
// resident would count the weights twice. They stay readable (Row, the
// reference kernels) and come back from the file if read. A packed MLX
// matrix holds its own copy of the group scales and biases too, so their
// pages go back as well.
func newMatrix(m kernels.Matrix, where, name string) (*kernels.Matrix, error) {
	out, err := kernels.NewMatrix(m)
	if err != nil {
		return nil, fmt.Errorf("%s: tensor %s: %w", where, name, err)
	}
	if out.Packed() {
		if err := releaseFile(&m); err != nil {
			return nil, fmt.Errorf("%s: tensor %s: %w", where, name, err)
		}
	}
	return out, nil
}

// releaseFile gives back the file's pages of the words, scales and biases
// of w (nothing for bytes that are not a mapped file's).
func releaseFile(w *kernels.Matrix) error {
	for _, b := range [][]byte{w.Data, w.Scales, w.Biases} {
		if _, err := mmap.Release(b); err != nil {
			return err
		}
	}
	return nil
}

// releasePacked gives back the file's pages of every packed matrix of m once
// all of them are bound. Releasing each one right after packing is not
// enough while tensors are packed in parallel: the system maps in the pages
// around each page fault (fault-around), among them pages of neighbouring
// tensors already packed and released — tens of MiB on a model of a few
// hundred tensors.
func (m *Model) releasePacked() error {
	ws := []*kernels.Matrix{m.Embed, m.Output}
	for _, l := range m.Layers {
		lw := l.Matrices()
		ws = append(ws, lw[:]...)
	}
	for _, w := range ws {
		if w != nil && w.Packed() {
			if err := releaseFile(w); err != nil {
				return err
			}
		}
	}
	return nil
}
