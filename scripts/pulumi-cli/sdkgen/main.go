// Command sdkgen writes the messaging provider's SDKs (sdk/nodejs, sdk/python, sdk/go) with
// Pulumi's own code generators, the functions the language hosts' GeneratePackage calls
// (`pulumi package gen-sdk`). It lives in the module that pins the CLI, so the CLI and the
// generators are one Pulumi release. The hosts themselves are not used: the Go module proxy
// these machines reach does not serve them (docs/languages.md).
//
//	go run ./sdkgen -out ../../sdk -- node ../../dist/plugin/main.js
//
// The schema is the one the plugin serves: the command after `--` is started as the engine
// starts a plugin, and asked GetSchema over gRPC. It is written beside the SDKs as schema.json.
//
// The Go SDK's go.mod is then pinned to the sdk/v3 release this program was built with (the
// generator writes a fixed, older one), and `go mod tidy` writes its go.sum, so
// `cd sdk/go && go build ./...` works alone.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func main() {
	out := flag.String("out", "sdk", "directory that receives schema.json, nodejs/, python/ and go/")
	flag.Parse()
	fmt.Printf("sdkgen: Pulumi %s code generators (github.com/pulumi/pulumi/pkg/v3)\n", pulumiRelease())
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

// pulumiRelease is the version of pkg/v3 this program was built with: go.mod's pin.
func pulumiRelease() string { return dependencyVersion("github.com/pulumi/pulumi/pkg/v3") }

// dependencyVersion is the version of module path this program was built with.
func dependencyVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == path {
				return dep.Version
			}
		}
	}
	return "(unknown release)"
}

// pinGoSDK rewrites the Go SDK's go.mod to require the sdk/v3 this program was built with, the
// CLI's pin: the generator writes v3.269.0 whatever its own release.
func pinGoSDK(files map[string][]byte) error {
	const sdk = "github.com/pulumi/pulumi/sdk/v3"
	mod, err := modfile.Parse("go.mod", files["go.mod"], nil)
	if err != nil {
		return fmt.Errorf("the generated go.mod: %w", err)
	}
	if err := mod.AddRequire(sdk, dependencyVersion(sdk)); err != nil {
		return err
	}
	mod.Cleanup()
	formatted, err := mod.Format()
	if err != nil {
		return err
	}
	files["go.mod"] = formatted
	return nil
}

// tidy runs `go mod tidy` in the written Go SDK: it writes go.sum.
func tidy(dir string) error {
	command := exec.Command("go", "mod", "tidy")
	command.Dir = dir
	if output, err := command.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %w\n%s", dir, err, output)
	}
	return nil
}

func run(out string, pluginCommand []string) error {
	if len(pluginCommand) == 0 {
		return errors.New("no plugin command: pass it after --, e.g. -- node dist/plugin/main.js")
	}
	raw, err := servedSchema(pluginCommand)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("the plugin's schema is not a package schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, schema.NewNullLoader(), schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("binding the schema: %w", err)
	}
	// Any diagnostic fails, warnings included: each names a schema fix to make.
	if len(diags) > 0 {
		lines := make([]string, 0, len(diags))
		for _, d := range diags {
			line := "  " + d.Summary
			if d.Detail != "" {
				line += ": " + d.Detail
			}
			lines = append(lines, line)
		}
		return fmt.Errorf("binding the schema gave %d diagnostic(s):\n%s", len(diags), strings.Join(lines, "\n"))
	}

	// The tool names are the hosts', so the files read as `pulumi package gen-sdk` writes them.
	generators := []struct {
		language string
		generate func() (map[string][]byte, error)
	}{
		{"nodejs", func() (map[string][]byte, error) {
			return nodejs.GeneratePackage("pulumi-language-nodejs", pkg, nil, nil, false, noDependencies{})
		}},
		{"python", func() (map[string][]byte, error) {
			return python.GeneratePackage("pulumi-language-python", pkg, nil, noDependencies{})
		}},
		{"go", func() (map[string][]byte, error) { return gogen.GeneratePackage("pulumi-language-go", pkg, nil) }},
	}
	generated := make([]map[string][]byte, len(generators))
	for i, generator := range generators {
		files, err := generator.generate()
		if err != nil {
			return fmt.Errorf("the %s generator failed: %w", generator.language, err)
		}
		generated[i] = files
	}
	if err := pinGoSDK(generated[2]); err != nil {
		return err
	}
	// Written only once every generator succeeded: a failure leaves the committed SDKs as they were.
	for i, generator := range generators {
		if err := writeTree(filepath.Join(out, generator.language), generated[i]); err != nil {
			return err
		}
		if generator.language == "go" {
			if err := tidy(filepath.Join(out, "go")); err != nil {
				return err
			}
		}
		fmt.Printf("  %s: %d files\n", generator.language, len(generated[i]))
	}
	var pretty strings.Builder
	encoder := json.NewEncoder(&pretty)
	encoder.SetIndent("", "  ")
	var value any
	if err := json.Unmarshal(raw, &value); err != nil {
		return err
	}
	if err := encoder.Encode(value); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "schema.json"), []byte(pretty.String()), 0o644)
}

// servedSchema starts the plugin as the engine does (it prints its port on the first line of
// stdout) and returns its GetSchema answer.
func servedSchema(command []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	plugin := exec.CommandContext(ctx, command[0], command[1:]...)
	plugin.Stderr = os.Stderr
	stdout, err := plugin.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := plugin.Start(); err != nil {
		return nil, fmt.Errorf("starting the plugin (%s): %w", strings.Join(command, " "), err)
	}
	defer func() {
		_ = plugin.Process.Kill()
		_ = plugin.Wait()
	}()
	port, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("the plugin (%s) printed no port: %w", strings.Join(command, " "), err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	answer, err := pulumirpc.NewResourceProviderClient(conn).GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("GetSchema: %w", err)
	}
	return []byte(answer.GetSchema()), nil
}

// writeTree replaces dir with exactly files (paths relative to it), so a file the generator no
// longer writes does not linger.
func writeTree(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noDependencies is the reference loader of a schema that depends on no other package: the
// generators ask it only for the schema's `dependencies`, and ours has none.
type noDependencies struct{}

func (noDependencies) fail(name string) error {
	return fmt.Errorf("the messaging schema depends on no other package, yet %s was asked for", name)
}

func (l noDependencies) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.fail(name)
}

func (l noDependencies) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.fail(d.Name)
}

func (l noDependencies) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.fail(name)
}

func (l noDependencies) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, l.fail(d.Name)
}
