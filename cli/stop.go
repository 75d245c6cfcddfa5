package cli

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func init() { register(newStopCmd) }

func newStopCmd() *cobra.Command {
	var all bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "stop [PORT|HOST:PORT|URL]",
		Short: "Stop a running mlx server gracefully",
		Long: `stop sends the server SIGTERM: it stops accepting requests, lets those in
progress finish (see mlx serve --shutdown-timeout), unloads its models and
exits. With one server running, no argument is needed.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			recs, err := runningServers()
			if err != nil {
				return err
			}
			targets, err := pickServers(recs, args, all)
			if err != nil {
				return err
			}
			for _, r := range targets {
				if err := stopServer(r, timeout); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "stopped %s (pid %d)\n", r.URL, r.PID)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "stop every running server")
	cmd.Flags().DurationVar(&timeout, "timeout", 60*time.Second, "how long to wait for the server to exit")
	return cmd
}

// pickServers chooses the servers an mlx stop command means.
func pickServers(recs []serverRecord, args []string, all bool) ([]serverRecord, error) {
	switch {
	case len(recs) == 0:
		return nil, fmt.Errorf("no mlx server is running")
	case all:
		return recs, nil
	case len(args) == 0 && len(recs) == 1:
		return recs, nil
	case len(args) == 0:
		var urls []string
		for _, r := range recs {
			urls = append(urls, r.URL)
		}
		return nil, fmt.Errorf("%d servers are running (%s): name one by port, or use --all", len(recs), strings.Join(urls, ", "))
	}
	port, err := portOf(args[0])
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Port == port {
			return []serverRecord{r}, nil
		}
	}
	return nil, fmt.Errorf("no mlx server runs on port %d (mlx ps lists them)", port)
}

// portOf reads a port from "8080", "127.0.0.1:8080" or a URL.
func portOf(s string) (int, error) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "http://"), "https://")
	s = strings.TrimSuffix(s, "/")
	if _, p, err := net.SplitHostPort(s); err == nil {
		s = p
	}
	port, err := strconv.Atoi(s)
	if err != nil || port <= 0 || port > 65535 {
		return 0, fmt.Errorf("%q is not a port, HOST:PORT or URL", s)
	}
	return port, nil
}

// stopServer sends SIGTERM, once checkRecord confirms that the process is
// the mlx server of the record, and waits for it to exit.
func stopServer(r serverRecord, timeout time.Duration) error {
	switch checkRecord(r) {
	case stateStale:
		if dir, err := serveDir(); err == nil {
			removeRecord(dir, r.Port, r.PID)
		}
		return fmt.Errorf("no mlx server runs on port %d any more (pid %d is gone or another program); removed its record", r.Port, r.PID)
	case stateUnknown:
		return fmt.Errorf("pid %d does not answer on %s and cannot be confirmed to be its mlx server: not stopping it", r.PID, r.URL)
	}
	if err := terminate(r.PID); err != nil {
		return fmt.Errorf("stopping pid %d: %w", r.PID, err)
	}
	deadline := time.Now().Add(timeout)
	for processAlive(r.PID) {
		if time.Now().After(deadline) {
			return fmt.Errorf("pid %d (%s) still runs after %v", r.PID, r.URL, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}
