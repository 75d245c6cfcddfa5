package info

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxLicenseRead bounds what is read of a README.md or LICENSE file.
const maxLicenseRead = 64 << 10

// maxLicenseLine bounds the license line kept from a LICENSE file.
const maxLicenseLine = 200

// licenseFiles are the names of license texts in a model repo.
var licenseFiles = []string{"LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "license", "license.md", "license.txt", "COPYING"}

// folderLicense finds a model's license in a Hugging Face repo folder: the
// license key of README.md's front matter (the hub's model card), else the
// first line of a LICENSE file.
func folderLicense(dir string) (license, origin string) {
	if text, err := readHead(filepath.Join(dir, "README.md")); err == nil {
		if l := frontMatterLicense(text); l != "" {
			return l, "README.md"
		}
	}
	for _, name := range licenseFiles {
		text, err := readHead(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		for line := range strings.Lines(text) {
			if line = strings.TrimSpace(line); line != "" {
				return truncate(line, maxLicenseLine), name
			}
		}
	}
	return "", ""
}

// frontMatterLicense reads "license:" (a value or a list) from the YAML front
// matter of a model card, with license_name for "other".
func frontMatterLicense(text string) string {
	sc := bufio.NewScanner(strings.NewReader(text))
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != "---" {
		return ""
	}
	var license []string
	var name string
	inList := false
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "---" || line == "..." {
			break
		}
		if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok && inList {
			license = append(license, unquote(item))
			continue
		}
		inList = false
		key, val, ok := strings.Cut(line, ":")
		switch {
		case !ok || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"):
		case key == "license" && strings.TrimSpace(val) == "":
			inList = true
		case key == "license":
			license = append(license, unquote(val))
		case key == "license_name":
			name = unquote(val)
		}
	}
	l := strings.Join(license, ", ")
	if l == "other" && name != "" {
		l += " (" + name + ")"
	}
	return l
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	}
	return s
}

// readHead reads at most maxLicenseRead bytes of a regular file.
func readHead(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLicenseRead))
	return string(b), err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 { // do not cut a UTF-8 sequence
		n--
	}
	return s[:n] + "…"
}
