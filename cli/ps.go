package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/server"
	"github.com/mlxrun/mlx/server/upstream"
)

func init() { register(newPsCmd) }

func newPsCmd() *cobra.Command {
	var asJSON bool
	var apiKey string
	cmd := &cobra.Command{
		Use:   "ps",
		Short: "List the running mlx servers and their loaded models",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if apiKey == "" {
				apiKey = os.Getenv("MLX_API_KEY")
			}
			recs, err := runningServers()
			if err != nil {
				return err
			}
			views := make([]psView, 0, len(recs))
			for _, r := range recs {
				v := psView{Server: r}
				v.Models, v.Error = loadedModels(r.URL, apiKey)
				if v.Error == "" {
					v.Upstreams = upstreamHealth(r.URL)
				}
				views = append(views, v)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(views)
			}
			return writePs(cmd.OutOrStdout(), views)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&apiKey, "api-key", "", "API key of the servers (env MLX_API_KEY)")
	return cmd
}

// psView is one server as mlx ps shows it.
type psView struct {
	Server serverRecord      `json:"server"`
	Models []server.MLXModel `json:"models"`
	Error  string            `json:"error,omitempty"`
	// Upstreams are the servers whose models it forwards to, as its
	// /health reports them.
	Upstreams []upstream.Health `json:"upstreams,omitempty"`
}

// upstreamHealth asks a server for the state of its upstreams (nil when
// it has none or does not say).
func upstreamHealth(url string) []upstream.Health {
	resp, err := (&http.Client{Timeout: 3 * time.Second}).Get(url + "/health")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var h struct {
		Upstreams []upstream.Health `json:"upstreams"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, maxModelsBody)).Decode(&h) != nil {
		return nil
	}
	return h.Upstreams
}

// maxModelsBody bounds the answer of /mlx/models.
const maxModelsBody = 4 << 20

// loadedModels asks a server for its loaded models.
func loadedModels(url, apiKey string) ([]server.MLXModel, string) {
	req, err := http.NewRequest(http.MethodGet, url+"/mlx/models", nil)
	if err != nil {
		return nil, err.Error()
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := (&http.Client{Timeout: 3 * time.Second}).Do(req)
	if err != nil {
		return nil, "not answering: " + err.Error()
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Sprintf("GET /mlx/models: %s", resp.Status)
	}
	var list server.MLXModelList
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxModelsBody)).Decode(&list); err != nil {
		return nil, "GET /mlx/models: " + err.Error()
	}
	var out []server.MLXModel
	for _, m := range list.Data {
		if m.Loaded {
			out = append(out, m)
		}
	}
	return out, ""
}

func writePs(w io.Writer, views []psView) error {
	if len(views) == 0 {
		_, err := fmt.Fprintln(w, "no mlx server is running (start one with mlx serve --detach)")
		return err
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "URL\tPID\tUPTIME\tMODEL\tFORMAT\tQUANT\tCONTEXT\tMEMORY\tUNTIL")
	for _, v := range views {
		up := time.Since(v.Server.Started).Round(time.Second).String()
		if v.Error != "" {
			fmt.Fprintf(tw, "%s\t%d\t%s\t(%s)\t\t\t\t\t\n", v.Server.URL, v.Server.PID, up, v.Error)
			continue
		}
		if len(v.Models) == 0 && len(v.Upstreams) == 0 {
			fmt.Fprintf(tw, "%s\t%d\t%s\t-\t\t\t\t\t\n", v.Server.URL, v.Server.PID, up)
		}
		for _, m := range v.Models {
			until := "forever"
			if m.ExpiresAt != nil {
				until = time.Until(*m.ExpiresAt).Round(time.Second).String()
			}
			if m.Requests > 0 {
				until = fmt.Sprintf("busy (%d)", m.Requests)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", v.Server.URL, v.Server.PID, up, m.ID, m.Format,
				m.Quantization, m.Context, sizeLabel(m.Memory), until)
		}
		for _, u := range v.Upstreams {
			state := fmt.Sprintf("ok, %d models", u.Models)
			if !u.OK {
				state = "down: " + u.Error
				if u.Error == "" {
					state = "not checked yet"
				}
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s/* (%s)\tupstream\t\t\t\t%s\n", v.Server.URL, v.Server.PID, up, u.Name, u.URL, state)
		}
	}
	return tw.Flush()
}
