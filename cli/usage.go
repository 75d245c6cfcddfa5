package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/models/config"
)

// plainArgs wraps the argument checks of cmd and of its sub-commands so
// that a wrong number of arguments reads as a sentence with the usage line,
// not as cobra's "accepts between 1 and 2 arg(s), received 0".
func plainArgs(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				given := fmt.Sprintf("%d arguments given", len(args))
				if len(args) == 1 {
					given = "1 argument given"
				}
				return fmt.Errorf("usage: %s (%s; %s --help explains them)", c.UseLine(), given, c.CommandPath())
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		plainArgs(sub)
	}
}

// plainFlagError words a flag value that does not parse without the
// parser's internals ("strconv.ParseFloat: parsing ...").
func plainFlagError(_ *cobra.Command, err error) error {
	var inv *pflag.InvalidValueError
	if !errors.As(err, &inv) {
		return err
	}
	why := errors.Unwrap(err).Error()
	var num *strconv.NumError
	switch typ := inv.GetFlag().Value.Type(); {
	case errors.As(err, &num) && errors.Is(num.Err, strconv.ErrRange):
		why = "out of range"
	case strings.HasPrefix(typ, "float"):
		why = "not a number"
	case strings.HasPrefix(typ, "int"), strings.HasPrefix(typ, "uint"):
		why = "not a whole number"
	case typ == "duration":
		why = "not a duration such as 30s, 5m or 1h"
	case typ == "bool":
		why = "not true or false"
	}
	return fmt.Errorf("invalid value %q for --%s: %s", inv.GetValue(), inv.GetFlag().Name, why)
}

// bound is the range a numeric flag must lie in.
type bound struct {
	flag     string
	min, max float64
}

// atLeast is a flag's lower bound, with no upper one.
func atLeast(flag string, min float64) bound { return bound{flag, min, inf} }

var inf = float64(1 << 62)

// samplingBound is the bound of a flag that sets the sampling parameter
// name, from the one table of ranges (config.SamplingRange).
func samplingBound(flag, name string) bound {
	r, _ := config.SamplingRange(name)
	return bound{flag, r.Lo, min(r.Hi, inf)}
}

// checkBounds refuses numeric flags outside their bounds, before a command
// does any work (a download, a load, starting a server).
func checkBounds(f *pflag.FlagSet, bounds ...bound) error {
	for _, b := range bounds {
		fl := f.Lookup(b.flag)
		if fl == nil {
			continue
		}
		v, err := strconv.ParseFloat(fl.Value.String(), 64)
		if err != nil || (v >= b.min && v <= b.max) {
			continue
		}
		want := fmt.Sprintf("it must be between %g and %g", b.min, b.max)
		switch {
		case b.max == inf && b.min == 0:
			want = "it must be 0 or more"
		case b.max == inf:
			want = fmt.Sprintf("it must be at least %g", b.min)
		}
		return fmt.Errorf("invalid value %s for --%s: %s", fl.Value.String(), b.flag, want)
	}
	return nil
}
