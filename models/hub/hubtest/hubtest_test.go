package hubtest

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

func TestParseRange(t *testing.T) {
	tests := []struct {
		h           string
		start, end  int64
		partial, ok bool
	}{
		{"", 0, 100, false, true},
		{"bytes=10-", 10, 100, true, true},
		{"bytes=10-19", 10, 20, true, true},
		{"bytes=90-200", 90, 100, true, true},
		{"bytes=-5", 95, 100, true, true},
		{"bytes=100-", 0, 0, false, false},
		{"bytes=5-4", 0, 0, false, false},
		{"bytes=0-1,5-6", 0, 0, false, false},
		{"items=0-1", 0, 0, false, false},
	}
	for _, tc := range tests {
		s, e, p, ok := parseRange(tc.h, 100)
		if s != tc.start || e != tc.end || p != tc.partial || ok != tc.ok {
			t.Errorf("parseRange(%q) = %d, %d, %v, %v", tc.h, s, e, p, ok)
		}
	}
}

// TestLoadDir serves a repo folder and lists it through the revision API.
func TestLoadDir(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "org", "model")
	if err := os.MkdirAll(filepath.Join(repo, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"config.json", "sub/w.gguf", ".hidden"} {
		if err := os.WriteFile(filepath.Join(repo, filepath.FromSlash(f)), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := Start(root)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/models/org/model/revision/main")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info struct {
		SHA      string `json:"sha"`
		Siblings []struct {
			RFilename string `json:"rfilename"`
		} `json:"siblings"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		t.Fatal(err)
	}
	if len(info.SHA) != 40 || len(info.Siblings) != 2 || info.Siblings[0].RFilename != "config.json" ||
		info.Siblings[1].RFilename != "sub/w.gguf" {
		t.Fatalf("revision API: %+v", info)
	}
}

func TestListenRefusesNonLoopback(t *testing.T) {
	if srv, err := Listen("0.0.0.0:0", ""); err == nil {
		srv.Close()
		t.Fatal("listening on every interface was allowed")
	}
}
