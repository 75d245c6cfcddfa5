package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mlxrun/mlx/runtime"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addDeviceFlag adds --device, whose default comes from MLX_DEVICE.
func addDeviceFlag(f *pflag.FlagSet) {
	f.String("device", runtime.DeviceAuto, "where to compute: auto (a discrete GPU if there is one, else the CPU), cpu or vulkan; default $MLX_DEVICE, else auto")
}

// deviceOption is the device asked for: --device when given, else
// MLX_DEVICE, else auto.
func deviceOption(cmd *cobra.Command) string {
	f := cmd.Flags().Lookup("device")
	if f != nil && f.Changed {
		return strings.ToLower(f.Value.String())
	}
	if env := os.Getenv("MLX_DEVICE"); env != "" {
		return strings.ToLower(env)
	}
	return runtime.DeviceAuto
}

// reportDevice says on w which GPU computes and what stays on the CPU,
// when a GPU computes part of the forward pass.
func reportDevice(w io.Writer, info runtime.Info) {
	if info.Offload != "" {
		fmt.Fprintf(w, "device: %s; %s\n", info.Device, info.Offload)
	}
}

// backendLabel is the backend column of mlx bench.
func backendLabel(info runtime.Info) string {
	if info.Offload != "" {
		return "Vulkan"
	}
	return "CPU"
}
