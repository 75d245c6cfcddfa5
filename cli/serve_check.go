package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// serverState is what checking a server record finds.
type serverState int

const (
	stateUnknown serverState = iota // alive, but neither /health nor the process list tells
	stateServer                     // the mlx server of the record
	stateStale                      // gone, or another program: the record is stale
)

// healthTimeout bounds the /health request of a check.
const healthTimeout = 2 * time.Second

// checkRecord tells whether the process of a record is still the mlx server
// of its port, since a PID may have been reused by any program: the
// server's /health must report that PID or, when nothing answers there, the
// process's command line (from /proc) must be mlx serve.
func checkRecord(r serverRecord) serverState {
	if !processAlive(r.PID) {
		return stateStale
	}
	if pid, ok := healthPID(r.URL); ok {
		if pid == r.PID {
			return stateServer
		}
		return stateStale // another server has the port now
	}
	args, ok := processArgs(r.PID)
	switch {
	case !ok:
		return stateUnknown
	case isServeCommand(args):
		return stateServer
	}
	return stateStale
}

// healthPID returns the pid the server at url reports on /health.
func healthPID(url string) (int, bool) {
	resp, err := (&http.Client{Timeout: healthTimeout}).Get(url + "/health")
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	var h struct {
		PID int `json:"pid"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&h); err != nil || h.PID <= 0 {
		return 0, false
	}
	return h.PID, true
}

// processArgs returns the command line of a process where /proc shows it.
func processArgs(pid int) ([]string, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return nil, false
	}
	return strings.Split(string(bytes.TrimRight(b, "\x00")), "\x00"), true
}

// isServeCommand reports whether a command line is mlx serve.
func isServeCommand(args []string) bool {
	if len(args) < 2 || !strings.HasPrefix(filepath.Base(args[0]), "mlx") {
		return false
	}
	for _, a := range args[1:] {
		if a == "serve" {
			return true
		}
	}
	return false
}
