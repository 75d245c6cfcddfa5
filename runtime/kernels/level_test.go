package kernels

import (
	"errors"
	"slices"
	"testing"
)

// restoreLevel puts back the kernels in use when the test ends.
func restoreLevel(t *testing.T) {
	saved := fastKernels
	t.Cleanup(func() {
		fastKernels = saved
		current.Store(&fastKernels)
	})
}

// TestCapSelectsLevel checks that each level this CPU runs puts its own
// kernels in use, and that the level named is what Implementation reports.
func TestCapSelectsLevel(t *testing.T) {
	restoreLevel(t)
	top := slices.Index(archLevels, NativeLevel())
	for i, level := range archLevels[:top+1] {
		if err := Cap(level); err != nil {
			t.Fatalf("Cap(%q): %v", level, err)
		}
		if got := Implementation(); got != level {
			t.Errorf("Cap(%q): Implementation() = %q", level, got)
		}
		if k := impl(); i == 0 && (k.gemm[Q4_0].one != nil || k.half[0].one != nil || k.affineBias16x4 != nil) {
			t.Errorf("Cap(%q) left assembly tile kernels in use", level)
		}
		checkLevelKernels(t, level)
	}
	if err := Cap("native"); err != nil {
		t.Fatal(err)
	}
	if want := NativeLevel(); top > 0 && Implementation() != want {
		t.Errorf("Cap(native): Implementation() = %q, want %q", Implementation(), want)
	}
}

// TestCapRejects checks that unknown names and levels above this CPU's
// are errors that leave the kernels in use alone.
func TestCapRejects(t *testing.T) {
	restoreLevel(t)
	before := Implementation()
	bad := []string{"", "AVX2", "sse4", "avx2 ", "neonx"}
	if top := slices.Index(archLevels, NativeLevel()); top+1 < len(archLevels) {
		bad = append(bad, archLevels[top+1:]...)
	}
	for _, level := range bad {
		err := Cap(level)
		if !errors.Is(err, ErrLevel) {
			t.Errorf("Cap(%q) = %v, want an error wrapping ErrLevel", level, err)
		}
		if Implementation() != before {
			t.Errorf("Cap(%q) changed the kernels to %q", level, Implementation())
		}
	}
}

// TestCapReferenceRestores checks that SetReference(false) returns to the
// capped kernels, not to the CPU's best ones.
func TestCapReferenceRestores(t *testing.T) {
	restoreLevel(t)
	if err := Cap("generic"); err != nil {
		t.Fatal(err)
	}
	SetReference(true)
	SetReference(false)
	if got := Implementation(); got != "generic" {
		t.Errorf("after SetReference(false) under Cap(generic): %q", got)
	}
}
