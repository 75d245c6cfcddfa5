// Command hubtest-serve serves DIR/<org>/<name>/... as a fake Hugging Face
// Hub on loopback, for end-to-end checks of mlx pull from a script. It is
// a test tool, built apart from mlx so that the release binary does not
// carry it:
//
//	go run ./models/hub/hubtest/cmd/hubtest-serve [-addr 127.0.0.1:0] DIR
//
// It prints HF_ENDPOINT=<url> once it listens, and serves until
// interrupted.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mlxrun/mlx/models/hub/hubtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: hubtest-serve [-addr ADDR] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	srv, err := hubtest.Listen(*addr, flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hubtest-serve:", err)
		os.Exit(1)
	}
	fmt.Printf("HF_ENDPOINT=%s\n", srv.URL)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv.Wait(ctx)
}
