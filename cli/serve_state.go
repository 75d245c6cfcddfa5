package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// serverRecord is what a running mlx serve writes to the state directory,
// so that mlx ps and mlx stop find it.
type serverRecord struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Port    int       `json:"port"`
	URL     string    `json:"url"`
	Log     string    `json:"log,omitempty"`
	Started time.Time `json:"started"`
	Version string    `json:"version"`
	Models  []string  `json:"models,omitempty"`
}

// stateDir returns the mlx state directory: $MLX_HOME, else ~/.mlx.
func stateDir() (string, error) {
	if d := os.Getenv("MLX_HOME"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home folder for the state of mlx (set MLX_HOME): %w", err)
	}
	return filepath.Join(home, ".mlx"), nil
}

// serveDir returns the folder of the server records and logs, created.
func serveDir() (string, error) {
	d, err := stateDir()
	if err != nil {
		return "", err
	}
	d = filepath.Join(d, "serve")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", fmt.Errorf("state folder: %w", err)
	}
	return d, nil
}

func recordPath(dir string, port int) string {
	return filepath.Join(dir, strconv.Itoa(port)+".json")
}

// logPath returns the log file of a detached server on port.
func logPath(dir string, port int) string {
	return filepath.Join(dir, strconv.Itoa(port)+".log")
}

// writeRecord writes r atomically.
func writeRecord(dir string, r serverRecord) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := recordPath(dir, r.Port) + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("server record: %w", err)
	}
	return os.Rename(tmp, recordPath(dir, r.Port))
}

// removeRecord removes the record of port if it is pid's.
func removeRecord(dir string, port, pid int) {
	path := recordPath(dir, port)
	if r, err := readRecord(path); err == nil && r.PID == pid {
		os.Remove(path)
	}
}

// maxRecordBytes bounds a record file.
const maxRecordBytes = 64 << 10

func readRecord(path string) (serverRecord, error) {
	var r serverRecord
	st, err := os.Stat(path)
	if err != nil {
		return r, err
	}
	if st.Size() > maxRecordBytes {
		return r, fmt.Errorf("%s: %d bytes, not a server record", path, st.Size())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	if r.PID <= 0 || r.Port <= 0 || r.URL == "" {
		return r, fmt.Errorf("%s: incomplete server record", path)
	}
	return r, nil
}

// runningServers returns the records of the servers still running, sorted
// by port, and removes the stale ones: of a process that is gone or is not
// the mlx server of its port (see checkRecord).
func runningServers() ([]serverRecord, error) {
	dir, err := serveDir()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir) // not Glob: the directory may hold glob characters
	if err != nil {
		return nil, err
	}
	var out []serverRecord
	for _, ent := range entries {
		if ent.IsDir() || !strings.HasSuffix(ent.Name(), ".json") {
			continue
		}
		p := filepath.Join(dir, ent.Name())
		r, err := readRecord(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || checkRecord(r) == stateStale {
			os.Remove(p)
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Port < out[j].Port })
	return out, nil
}
