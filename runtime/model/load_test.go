package model

import (
	"errors"
	"testing"
)

func TestBinderParallel(t *testing.T) {
	errA, errB := errors.New("a"), errors.New("b")
	tests := []struct {
		name      string
		errs      []error // the error of each job, nil for none
		workers   int
		wantErr   error
		wantBytes int64
	}{
		{"no errors", []error{nil, nil, nil}, 2, nil, 3},
		{"first error in job order", []error{nil, errB, errA, nil}, 3, errB, 4},
		{"one worker", []error{errA, errB}, 1, errA, 2},
		{"more workers than jobs", []error{nil}, 8, nil, 1},
		{"no workers asked", []error{nil, nil}, 0, nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs := make([]func(*binder), len(tt.errs))
			for i, err := range tt.errs {
				jobs[i] = func(b *binder) { b.bytes, b.err = 1, err }
			}
			var b binder
			b.parallel(jobs, tt.workers)
			if b.err != tt.wantErr || b.bytes != tt.wantBytes {
				t.Errorf("err %v, bytes %d; want %v, %d", b.err, b.bytes, tt.wantErr, tt.wantBytes)
			}
		})
	}
}
