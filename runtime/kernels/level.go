package kernels

import (
	"errors"
	"fmt"
	"strings"
)

// ErrLevel is returned by Cap for an instruction set it does not know or
// that this CPU (or a build without assembly) cannot run.
var ErrLevel = errors.New("bad instruction-set cap")

// Levels returns the instruction-set levels Cap accepts on this platform,
// lowest first, then "native": on amd64 generic, avx2 (with FMA and F16C),
// avx512 (F16/BF16 tiles) and avx512vnni (integer tiles); on arm64
// generic, neon and dotprod (SDOT). generic is the plain Go reference, as
// the build tag noasm gives.
func Levels() []string {
	return append(append([]string(nil), archLevels...), "native")
}

// NativeLevel returns the highest level this CPU runs.
func NativeLevel() string { return archLevels[detectedLevel()] }

// Cap limits the kernels to the instruction-set level named (see Levels),
// so that a lower level's kernels run on a CPU that has more. A level
// above what the CPU has, or an unknown name, is an error wrapping
// ErrLevel, and the kernels stay as they were. Like SetReference it is
// meant to be called once at start-up, before any model loads: weights
// are packed for the kernels in use when they load.
func Cap(level string) error {
	top := detectedLevel()
	lvl := top
	if level != "native" {
		lvl = -1
		for i, name := range archLevels {
			if name == level {
				lvl = i
			}
		}
	}
	switch {
	case lvl < 0:
		return fmt.Errorf("%w: unknown instruction set %q (this build knows %s)", ErrLevel, level, strings.Join(Levels(), ", "))
	case lvl > top:
		return fmt.Errorf("%w: this CPU cannot run %s kernels (it runs up to %s)", ErrLevel, level, archLevels[top])
	case lvl == 0 && level != "native":
		fastKernels = newRefKernelSet()
		fastKernels.name = archLevels[0]
		fastKernels.compose()
	default:
		fastKernels = buildKernelSet(lvl)
	}
	current.Store(&fastKernels)
	return nil
}
