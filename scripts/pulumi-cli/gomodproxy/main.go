// Command gomodproxy writes one version of a Go module, from its folder, into a directory laid
// out as the Go module proxy protocol serves it (`GOPROXY=file://<dir>`): the release's Go
// artifact, the zip the proxy would serve for the module's tag.
//
//	go run ./gomodproxy -dir ../../sdk/go -version v0.1.0 -out <proxy dir>
//
// It writes <out>/<escaped module path>/@v/{<version>.info,<version>.mod,<version>.zip,list}.
// The zip is made by golang.org/x/mod/zip, the go command's own code, so it holds exactly
// what `go get` of the tag would (no nested modules, no vendor/, sizes checked).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "the module's folder (holding go.mod)")
	version := flag.String("version", "", "the version, e.g. v0.1.0 (the tag <folder>/v0.1.0 in the repository)")
	out := flag.String("out", "", "the proxy directory to write into")
	flag.Parse()
	if err := run(*dir, *version, *out); err != nil {
		fmt.Fprintf(os.Stderr, "gomodproxy: %v\n", err)
		os.Exit(1)
	}
}

func run(dir, version, out string) error {
	if dir == "" || out == "" || !semver.IsValid(version) {
		return fmt.Errorf("need -dir, -out and a valid -version (got %q)", version)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zipFile, module.Version{Path: path, Version: version}, dir); err != nil {
		zipFile.Close()
		return fmt.Errorf("zipping %s: %w", dir, err)
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(at, version+".mod"), gomod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{version, time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(at, version+".info"), info, 0o644); err != nil {
		return err
	}
	// list: every version in the directory, one a line.
	entries, err := os.ReadDir(at)
	if err != nil {
		return err
	}
	var versions []string
	for _, entry := range entries {
		if v, ok := strings.CutSuffix(entry.Name(), ".info"); ok {
			versions = append(versions, v)
		}
	}
	sort.Slice(versions, func(i, j int) bool { return semver.Compare(versions[i], versions[j]) < 0 })
	if err := os.WriteFile(filepath.Join(at, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Println(filepath.Join(at, version+".zip"))
	return nil
}
