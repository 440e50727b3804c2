// Command sdkgen writes the messaging provider's SDKs (sdk/nodejs, sdk/python, sdk/go) with
// Pulumi's own code generators, the functions the language hosts' GeneratePackage calls
// (`pulumi package gen-sdk`). It is a module of its own (go.mod), pinned to the generators'
// release chosen for the SDKs' floors, which need not be the CLI's (../go.mod): the generators
// decide which Pulumi SDKs the generated code needs (docs/languages.md, "Floors"). The hosts
// themselves are not used: the Go module proxy these machines reach does not serve them.
//
//	cd scripts/pulumi-cli/sdkgen && go run . -out ../../../sdk -- node ../../../dist/plugin/main.js
//
// The schema is the one the plugin serves: the command after `--` is started as the engine
// starts a plugin, and asked GetSchema over gRPC. It is written beside the SDKs as schema.json.
//
// What it adds to the generators' output, and why:
//   - the Go SDK's go.mod requires the floor's sdk/v3 (goSDKFloor: the oldest release the Go
//     module proxy serves, which declares go 1.24), and `go mod tidy` writes its go.sum, so
//     `cd sdk/go && go build ./...` works alone;
//   - every SDK gets sdk-readme.md as its README (the generators write the schema's one-line
//     description, and none for Go), also at the Python project's root, where pyproject.toml's
//     `readme` points: the wheel's long description;
//   - each Python resource class gets the resource's description as its docstring, with its
//     secret inputs and outputs (the generator documents only `__init__`'s overloads, which
//     `help()` never shows, so it showed the base class's).
package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// pulumiRelease is the version of pkg/v3 this program was built with: this module's go.mod pin.
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

// goSDKFloor is the sdk/v3 the Go SDK requires: the oldest release the Go module proxy serves
// (v3.213.0; it declares go 1.24.0), with which the generated code compiles and deploys
// (test/languages/floors.test.ts). Go's minimal version selection takes it, or whatever newer
// release the user's module requires.
const goSDKFloor = "v3.213.0"

// goFloor is the go directive of the Go SDK: goSDKFloor's own (`go mod tidy` would raise it if a
// dependency needed more, and the floor test would show it).
const goFloor = "1.24.0"

// pinGoSDK rewrites the Go SDK's go.mod to require sdk/v3 at goSDKFloor: the generator writes
// a fixed release of its own.
func pinGoSDK(files map[string][]byte) error {
	const sdk = "github.com/pulumi/pulumi/sdk/v3"
	mod, err := modfile.Parse("go.mod", files["go.mod"], nil)
	if err != nil {
		return fmt.Errorf("the generated go.mod: %w", err)
	}
	if err := mod.AddRequire(sdk, goSDKFloor); err != nil {
		return err
	}
	// The generator writes the go directive of its own release; the floor's is what a user needs.
	if err := mod.AddGoStmt(goFloor); err != nil {
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

//go:embed sdk-readme.md
var readme []byte

// pythonPackageName is the Python SDK's package folder (`language.python.packageName`).
func pythonPackageName(spec schema.PackageSpec) string {
	var python struct {
		PackageName string `json:"packageName"`
	}
	if err := json.Unmarshal(spec.Language["python"], &python); err == nil && python.PackageName != "" {
		return python.PackageName
	}
	return "pulumi_" + spec.Name
}

var pythonResourceClass = regexp.MustCompile(`(?m)^@pulumi\.type_token\("([^"]+)"\)\nclass \w+\(pulumi\.(?:CustomResource|ProviderResource)\):\n`)

// documentPythonClasses gives each resource class of the Python SDK a docstring: the resource's
// description, and which of its inputs and outputs are secrets.
func documentPythonClasses(files map[string][]byte, spec schema.PackageSpec) error {
	documented := 0
	for name, text := range files {
		if !strings.HasSuffix(name, ".py") {
			continue
		}
		files[name] = pythonResourceClass.ReplaceAllFunc(text, func(class []byte) []byte {
			token := string(pythonResourceClass.FindSubmatch(class)[1])
			var description string
			var inputs, outputs map[string]schema.PropertySpec
			if token == "pulumi:providers:"+spec.Name {
				description, inputs, outputs = spec.Provider.Description, spec.Provider.InputProperties, spec.Provider.Properties
			} else if resource, ok := spec.Resources[token]; ok {
				description, inputs, outputs = resource.Description, resource.InputProperties, resource.Properties
			} else {
				return class
			}
			documented++
			lines := []string{description}
			if secret := secretNames(inputs); secret != "" {
				lines = append(lines, "", "Secret inputs (stored encrypted, shown masked): "+secret+".")
			}
			if secret := secretNames(outputs); secret != "" {
				lines = append(lines, "", "Secret outputs (Pulumi secrets: encrypted in state, masked in output): "+secret+".")
			}
			docstring := strings.ReplaceAll(strings.ReplaceAll(strings.Join(lines, "\n"), `\`, `\\`), `"""`, `\"\"\"`)
			indented := strings.ReplaceAll("    "+strings.ReplaceAll(docstring, "\n", "\n    "), "\n    \n", "\n\n")
			return append(append([]byte{}, class...), "    \"\"\"\n"+indented+"\n    \"\"\"\n"...)
		})
	}
	if documented != len(spec.Resources)+1 {
		return fmt.Errorf("documented %d Python resource classes of %d: the generator's class lines changed", documented, len(spec.Resources)+1)
	}
	return nil
}

// secretNames lists the secret properties, sorted, each in backquotes.
func secretNames(properties map[string]schema.PropertySpec) string {
	var names []string
	for name, property := range properties {
		if property.Secret {
			names = append(names, "`"+name+"`")
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
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
	// Each generator gets a package bound for it alone, as each language host binds its own: the
	// Python generator renames enum values in the bound package (to BASIC), which the Go one would read.
	bind := func() (*schema.Package, error) {
		pkg, diags, err := schema.BindSpec(spec, schema.NewNullLoader(), schema.ValidationOptions{})
		if err != nil {
			return nil, fmt.Errorf("binding the schema: %w", err)
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
			return nil, fmt.Errorf("binding the schema gave %d diagnostic(s):\n%s", len(diags), strings.Join(lines, "\n"))
		}
		return pkg, nil
	}

	// The tool names are the hosts', so the files read as `pulumi package gen-sdk` writes them.
	generators := []struct {
		language string
		generate func(pkg *schema.Package) (map[string][]byte, error)
	}{
		{"nodejs", func(pkg *schema.Package) (map[string][]byte, error) {
			return nodejs.GeneratePackage("pulumi-language-nodejs", pkg, nil, nil, false, noDependencies{})
		}},
		{"python", func(pkg *schema.Package) (map[string][]byte, error) {
			return python.GeneratePackage("pulumi-language-python", pkg, nil, noDependencies{})
		}},
		{"go", func(pkg *schema.Package) (map[string][]byte, error) {
			return gogen.GeneratePackage("pulumi-language-go", pkg, nil)
		}},
	}
	generated := make([]map[string][]byte, len(generators))
	for i, generator := range generators {
		pkg, err := bind()
		if err != nil {
			return err
		}
		files, err := generator.generate(pkg)
		if err != nil {
			return fmt.Errorf("the %s generator failed: %w", generator.language, err)
		}
		generated[i] = files
	}
	if err := pinGoSDK(generated[2]); err != nil {
		return err
	}
	if err := documentPythonClasses(generated[1], spec); err != nil {
		return err
	}
	generated[0]["README.md"] = readme
	generated[1]["README.md"] = readme
	generated[1][filepath.ToSlash(filepath.Join(pythonPackageName(spec), "README.md"))] = readme
	generated[2]["README.md"] = readme
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
	encoder.SetEscapeHTML(false)
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
