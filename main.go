// Command mlx runs large language models locally: an interactive chat, a
// pipe filter, an OpenAI-compatible server and a Hugging Face downloader.
package main

import "github.com/mlxrun/mlx/cli"

// version and commit are set at build time through -ldflags.
var (
	version = "dev"
	commit  = "none"
)

func main() { cli.Execute(version, commit) }
