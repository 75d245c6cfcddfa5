package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/models/catalog"
	"github.com/mlxrun/mlx/models/hub"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/server"
)

func init() { register(newServeCmd) }

// serveOptions are the flags of mlx serve.
type serveOptions struct {
	host, apiKey, kvType    string
	pooling                 string
	modelsDir               string
	allowPull, allowPaths   bool
	pprof                   string
	port                    int
	cors, allowedHosts      []string
	maxBody                 int
	sseKeepAlive, keepAlive time.Duration
	maxLoaded, maxConns     int
	ctx, threads            int
	detach                  bool
	shutdownTimeout         time.Duration
	readyTimeout            time.Duration
	stores                  storeFlags
	batch                   batchFlags
	upstreams               upstreamFlags
}

func newServeCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:               "serve [MODEL...]",
		ValidArgsFunction: completeModels,
		Short:             "Serve an OpenAI-compatible API on this machine",
		Long: `serve answers the OpenAI API (chat completions, completions, responses,
conversations, embeddings, models) and /health, /metrics and /mlx/models on
loopback.
The models named load at start and stay loaded (hub references are pulled
if needed). A request may also name a model of the Hugging Face cache
(org/name, org/name:QUANT, an alias or an id of GET /v1/models) or a file
of --models-dir; it loads then and unloads after --keep-alive of idleness.
--allow-pull lets requests pull models, --allow-paths name any local path;
any other name is a 404. Bound to loopback, only requests for localhost
or the --host address (and --allowed-hosts) are answered. Responses and
conversations are kept in memory, within the --responses-store-* and
--conversation-store-* bounds.

--upstream NAME=URL adds the models of an OpenAI-compatible server (vLLM,
Dynamo, llama-server, another mlx serve) as NAME/model: their requests
go through the same APIs and stores here, and are forwarded there as
streaming chat completions. Its key comes from the environment variable
that --upstream-key NAME=ENVVAR names, never from a request.

Requests are served --parallel at a time, batched into shared forward
passes; up to --max-queue more wait, and the next ones get 429. The KV
cache (--kv-cache-mem) is shared by all sequences, and keeps what finished
ones computed so that a prompt starting the same way (a chat's earlier
turns) skips that part.

Environment: MLX_HOST, MLX_PORT, MLX_API_KEY, MLX_PARALLEL, MLX_MAX_QUEUE,
MLX_BATCH_TOKENS, MLX_KV_CACHE_MEM, MLX_UPSTREAM, and MLX_RESPONSES_STORE_*,
MLX_CONVERSATION_STORE_* for the store flags; MLX_HOME holds the state
(~/.mlx): the records and logs of the running servers that mlx ps and
mlx stop use.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.fromEnv(cmd.Flags()); err != nil {
				return err
			}
			if err := checkBounds(cmd.Flags(), atLeast("ctx", 0), atLeast("threads", 0),
				atLeast("max-loaded", 0), atLeast("max-body", 1)); err != nil {
				return err
			}
			if err := checkPooling(o.pooling, true); err != nil {
				return err
			}
			if err := applyKernelEnv(); err != nil {
				return err
			}
			if o.detach {
				return detachServe(cmd, o)
			}
			return runServe(cmd, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.host, "host", "127.0.0.1", "address to listen on (env MLX_HOST); loopback by default")
	f.IntVar(&o.port, "port", 8080, "port to listen on (env MLX_PORT)")
	f.StringVar(&o.modelsDir, "models-dir", "", "a folder whose .gguf files and model folders requests may name")
	f.BoolVar(&o.allowPull, "allow-pull", false, "let a request name a hub model that is not in the cache (it is pulled)")
	f.BoolVar(&o.allowPaths, "allow-paths", false, "let a request name any local model file or folder by its path")
	f.StringVar(&o.apiKey, "api-key", "", "require 'Authorization: Bearer KEY' or 'x-api-key: KEY' (env MLX_API_KEY)")
	f.StringSliceVar(&o.cors, "cors-origin", nil, "origins allowed to call from a browser ('*' for all)")
	f.StringSliceVar(&o.allowedHosts, "allowed-hosts", nil, "Host names answered besides localhost and the --host address ('*' for any)")
	f.IntVar(&o.maxConns, "max-conns", 0, "most open connections (0: from the open-file limit); beyond it the longest idle one closes")
	f.IntVar(&o.maxBody, "max-body", server.DefaultMaxBody, "largest request body in bytes")
	f.DurationVar(&o.sseKeepAlive, "sse-keepalive", server.DefaultSSEKeepAlive, "idle time before a stream gets a keep-alive comment")
	f.DurationVar(&o.keepAlive, "keep-alive", server.DefaultKeepAlive, "how long an idle model stays loaded (negative: forever)")
	f.IntVar(&o.maxLoaded, "max-loaded", 2, "most models loaded at once (0: no limit); the least recently used unloads first")
	f.IntVar(&o.ctx, "ctx", 0, "context length in tokens (0: the model's, at most 4096)")
	f.IntVar(&o.threads, "threads", 0, "compute threads (0: one per physical core)")
	addKVTypeFlag(f, &o.kvType)
	f.StringVar(&o.pooling, "pooling", "", servePoolingUsage)
	f.BoolVarP(&o.detach, "detach", "d", false, "run in the background; returns once the server answers")
	f.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 10*time.Second, "how long a stop waits for requests in progress")
	f.DurationVar(&o.readyTimeout, "ready-timeout", 10*time.Minute, "with --detach, how long to wait for the models to load")
	o.stores.register(f)
	o.batch.register(f)
	o.upstreams.register(f)
	addSpecFlags(cmd)
	addDeviceFlag(cmd.Flags())
	registerPprof(f, &o.pprof)
	return cmd
}

// fromEnv applies MLX_HOST, MLX_PORT and MLX_API_KEY where the flags
// were not given.
func (o *serveOptions) fromEnv(f *pflag.FlagSet) error {
	if v := os.Getenv("MLX_HOST"); v != "" && !f.Changed("host") {
		o.host = v
	}
	if v := os.Getenv("MLX_PORT"); v != "" && !f.Changed("port") {
		p, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("MLX_PORT=%q: not a port number", v)
		}
		o.port = p
	}
	if v := os.Getenv("MLX_API_KEY"); v != "" && !f.Changed("api-key") {
		o.apiKey = v
	}
	if err := checkModelsDir(o.modelsDir); err != nil {
		return err
	}
	if o.maxConns < 0 {
		return fmt.Errorf("--max-conns %d: give 0 (from the open-file limit) or a positive count", o.maxConns)
	}
	if o.port < 0 || o.port > 65535 {
		return fmt.Errorf("port %d is outside 0…65535", o.port)
	}
	if err := o.stores.fromEnv(f); err != nil {
		return err
	}
	if err := o.batch.fromEnv(f); err != nil {
		return err
	}
	if err := kvTypeFromEnv(f); err != nil {
		return err
	}
	if err := o.batch.apply(&runtime.Options{}); err != nil {
		return err
	}
	_, _, err := o.stores.options()
	return err
}

// checkNamed checks the models given on the command line before the
// server listens: each is a regular file, a folder, or a hub reference.
func checkNamed(models []string) error {
	for _, m := range models {
		st, err := os.Stat(m)
		if err != nil {
			if _, err := hub.ParseRef(m); err != nil {
				return hubHint(err)
			}
			continue
		}
		if !st.Mode().IsRegular() && !st.IsDir() {
			return fmt.Errorf("%s is not a regular file or a folder", m)
		}
	}
	return nil
}

// checkModelsDir checks --models-dir: empty, or a folder.
func checkModelsDir(dir string) error {
	if dir == "" {
		return nil
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("--models-dir %s: not a folder", dir)
	}
	return nil
}

// hostList is server.Options.AllowedHosts: a server bound to loopback
// answers only loopback names, its own address and --allowed-hosts (a web
// page cannot reach it by rebinding a name); one bound elsewhere checks
// Host only when --allowed-hosts is given.
func (o serveOptions) hostList() []string {
	ip := net.ParseIP(o.host)
	if len(o.allowedHosts) == 0 && o.host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil
	}
	return append([]string{o.host}, o.allowedHosts...)
}

func (o serveOptions) addr() string { return net.JoinHostPort(o.host, strconv.Itoa(o.port)) }

// listen opens the server's port, with a clear message when it is taken.
func listen(o serveOptions) (net.Listener, error) {
	ln, err := net.Listen("tcp", o.addr())
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%s is already in use (another mlx serve? `mlx ps` lists them); choose another --port", o.addr())
	}
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", o.addr(), err)
	}
	return ln, nil
}

func runServe(cmd *cobra.Command, o serveOptions, models []string) error {
	kv, err := kvcache.ParseType(o.kvType)
	if err != nil {
		return err
	}
	respStore, convStore, err := o.stores.options()
	if err != nil {
		return err
	}
	if err := checkNamed(models); err != nil {
		return err
	}
	ups, err := o.upstreams.clients(cmd.Flags())
	if err != nil {
		return err
	}
	ln, err := listen(o)
	if err != nil {
		return err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	url := "http://" + net.JoinHostPort(o.host, strconv.Itoa(port))
	stderr := cmd.ErrOrStderr()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	startPprof(o.pprof, log)
	ropt := runtime.Options{Threads: o.threads, Ctx: o.ctx, KVType: kv, Spec: specOptions(cmd), Pooling: o.pooling, Device: deviceOption(cmd)}
	if err := o.batch.apply(&ropt); err != nil {
		return err
	}
	hc, err := newHubClient(io.Discard, true)
	if err != nil {
		hc = nil
		log.Warn("hub unavailable: only local model files load", "err", err)
	}
	loader := newServeLoader(ropt, hc, catalog.Options{Named: models, ModelsDir: o.modelsDir,
		AllowPaths: o.allowPaths, AllowPull: o.allowPull})
	loader.log = log
	srv := server.New(loader, server.Options{APIKey: o.apiKey, AllowedHosts: o.hostList(), CORSOrigins: o.cors, MaxConns: o.maxConns, MaxBody: o.maxBody,
		SSEKeepAlive: o.sseKeepAlive, MaxLoaded: o.maxLoaded, KeepAlive: o.keepAlive,
		Fingerprint: "fp_mlx_" + build.Version, Version: build.Version, Log: log, ResponseStore: &respStore, ConversationStore: &convStore,
		Upstreams: ups})
	srv.Starting(len(models))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	dir, err := serveDir()
	if err != nil {
		return err
	}
	rec := serverRecord{PID: os.Getpid(), Host: o.host, Port: port, URL: url, Started: time.Now(), Version: build.Version, Models: models}
	if os.Getenv(detachedEnv) != "" {
		rec.Log = logPath(dir, port)
	}
	if err := writeRecord(dir, rec); err != nil {
		return err
	}
	defer removeRecord(dir, port, rec.PID)
	if len(models) == 0 {
		fmt.Fprintf(stderr, "mlx serve: listening on %s\n", url)
	} else { // "listening" only once the models load: a bad one stops the server first
		fmt.Fprintf(stderr, "mlx serve: loading %s\n", strings.Join(models, ", "))
	}

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go watchUpstreams(ctx, ups, log)
	loaded := make(chan error, 1)
	go func() { loaded <- srv.Preload(ctx, models...) }()
	select {
	case err = <-loaded:
		if err == nil && len(models) > 0 {
			fmt.Fprintf(stderr, "mlx serve: listening on %s, ready with %s\n", url, strings.Join(models, ", "))
		}
	case err = <-served:
	}
	if err == nil {
		select {
		case <-ctx.Done():
		case err = <-served:
		}
	}
	stop()
	return shutdown(srv, o.shutdownTimeout, err, stderr)
}

// shutdown stops srv gracefully; a second signal cuts the wait short. A
// server stopping on an error says nothing: the error is said once, after.
func shutdown(srv *server.Server, timeout time.Duration, cause error, w io.Writer) error {
	if cause == nil || errors.Is(cause, context.Canceled) {
		fmt.Fprintln(w, "mlx serve: stopping")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	again, stopAgain := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stopAgain()
	if err := srv.Shutdown(again); err != nil && cause == nil {
		cause = err
	}
	if errors.Is(cause, context.Canceled) {
		cause = nil
	}
	return cause
}
