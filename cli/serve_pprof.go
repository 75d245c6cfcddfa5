package cli

import (
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/spf13/pflag"
)

// registerPprof adds the hidden --pprof flag: an address (loopback, e.g.
// 127.0.0.1:6060) where mlx serve exposes the Go profiler, to find where
// the time of a loaded server goes.
func registerPprof(f *pflag.FlagSet, addr *string) {
	f.StringVar(addr, "pprof", "", "serve the Go profiler (/debug/pprof/) on this address")
	_ = f.MarkHidden("pprof") // the flag was just defined
}

// startPprof serves the profiler on addr in the background; a failure is
// logged, not fatal: the profiler is a debugging aid.
func startPprof(addr string, log *slog.Logger) {
	if addr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil {
			log.Warn("profiler stopped", "addr", addr, "err", err)
		}
	}()
}
