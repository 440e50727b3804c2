// The tests' driver of examples/go, copied beside the example's main.go (same package) into a
// scratch copy: `<binary> --inline-request <request.json>` runs one Pulumi operation on the
// example's own `program` as an Automation API inline program (the Go language host cannot be
// built here), and writes the result. The request and the result are those of
// test/support/harness/inline-program.ts (InlineRequest, InlineResult). Without the flag, the binary
// is the example, unchanged.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

type inlineRequest struct {
	Op         string            `json:"op"`
	WorkDir    string            `json:"workDir"`
	StackName  string            `json:"stackName"`
	CliRoot    string            `json:"cliRoot"`
	Env        map[string]string `json:"env"`
	ResultFile string            `json:"resultFile"`
	Options    struct {
		ExpectNoChanges     bool `json:"expectNoChanges"`
		Refresh             bool `json:"refresh"`
		ClearPendingCreates bool `json:"clearPendingCreates"`
	} `json:"options"`
}

type step struct {
	Op       string   `json:"op"`
	URN      string   `json:"urn"`
	Type     string   `json:"type"`
	Name     string   `json:"name"`
	ID       string   `json:"id,omitempty"`
	Replaces []string `json:"replaces,omitempty"`
	Failed   bool     `json:"failed,omitempty"`
}

type diagnostic struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	URN      string `json:"urn,omitempty"`
}

// outputValue is auto.OutputValue as InlineResult spells it (auto's has no JSON names).
type outputValue struct {
	Value  any  `json:"value"`
	Secret bool `json:"secret"`
}

type inlineResult struct {
	OK              bool                   `json:"ok"`
	Error           string                 `json:"error,omitempty"`
	ResourceChanges map[string]int         `json:"resourceChanges,omitempty"`
	Outputs         map[string]outputValue `json:"outputs,omitempty"`
	Steps           []step                 `json:"steps"`
	Diagnostics     []diagnostic           `json:"diagnostics"`
}

func init() {
	if len(os.Args) == 3 && os.Args[1] == "--inline-request" {
		if err := runInline(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// report gathers steps and diagnostics from the engine's events.
type report struct {
	mu     sync.Mutex
	result inlineResult
}

func (r *report) listen(ch <-chan events.EngineEvent) {
	for event := range ch {
		r.mu.Lock()
		if pre := event.ResourcePreEvent; pre != nil {
			m := pre.Metadata
			s := step{Op: string(m.Op), URN: m.URN, Type: m.Type, Name: m.URN[strings.LastIndex(m.URN, "::")+2:], Replaces: m.Keys}
			if state := m.New; state != nil && state.ID != "" {
				s.ID = state.ID
			} else if state := m.Old; state != nil && state.ID != "" {
				s.ID = state.ID
			}
			r.result.Steps = append(r.result.Steps, s)
		}
		if failed := event.ResOpFailedEvent; failed != nil {
			for i := len(r.result.Steps) - 1; i >= 0; i-- {
				if r.result.Steps[i].URN == failed.Metadata.URN {
					r.result.Steps[i].Failed = true
					break
				}
			}
		}
		if d := event.DiagnosticEvent; d != nil {
			r.result.Diagnostics = append(r.result.Diagnostics, diagnostic{Severity: d.Severity, Message: strings.TrimRight(d.Message, " \n"), URN: d.URN})
		}
		r.mu.Unlock()
	}
}

func runInline(requestFile string) error {
	raw, err := os.ReadFile(requestFile)
	if err != nil {
		return err
	}
	var request inlineRequest
	if err := json.Unmarshal(raw, &request); err != nil {
		return err
	}
	rep := &report{result: inlineResult{Steps: []step{}, Diagnostics: []diagnostic{}}}
	ch := make(chan events.EngineEvent)
	listened := make(chan struct{})
	go func() {
		rep.listen(ch)
		close(listened)
	}()

	changes, outputs, err := operate(context.Background(), request, ch)
	// The Automation API closes the channel when the engine's event stream ends; an operation
	// refused before it started (a locked stack, say) never opens one.
	select {
	case <-listened:
	case <-time.After(5 * time.Second):
	}
	rep.mu.Lock()
	result := rep.result
	rep.mu.Unlock()
	result.OK = err == nil
	result.ResourceChanges = changes
	if outputs != nil {
		result.Outputs = map[string]outputValue{}
		for name, output := range outputs {
			result.Outputs[name] = outputValue{Value: output.Value, Secret: output.Secret}
		}
	}
	if err != nil {
		result.Error = fmt.Sprintf("pulumi %s failed: %v", request.Op, err)
	}
	out, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return os.WriteFile(request.ResultFile, out, 0o644)
}

// operate runs the operation on the example's `program`, inline.
func operate(ctx context.Context, request inlineRequest, ch chan events.EngineEvent) (map[string]int, auto.OutputMap, error) {
	project, err := workspace.LoadProject(filepath.Join(request.WorkDir, "Pulumi.yaml"))
	if err != nil {
		return nil, nil, err
	}
	command, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: request.CliRoot, SkipVersionCheck: true})
	if err != nil {
		return nil, nil, err
	}
	stack, err := auto.SelectStackInlineSource(ctx, request.StackName, string(project.Name), program,
		auto.WorkDir(request.WorkDir), auto.EnvVars(request.Env), auto.Pulumi(command))
	if err != nil {
		return nil, nil, err
	}
	switch request.Op {
	case "preview":
		options := []optpreview.Option{optpreview.EventStreams(ch), optpreview.ProgressStreams(os.Stdout)}
		if request.Options.ExpectNoChanges {
			options = append(options, optpreview.ExpectNoChanges())
		}
		if request.Options.Refresh {
			options = append(options, optpreview.Refresh())
		}
		result, err := stack.Preview(ctx, options...)
		summary := map[string]int{}
		for op, n := range result.ChangeSummary {
			summary[string(op)] = n
		}
		return summary, nil, err
	case "up":
		options := []optup.Option{optup.EventStreams(ch), optup.ProgressStreams(os.Stdout)}
		if request.Options.ExpectNoChanges {
			options = append(options, optup.ExpectNoChanges())
		}
		if request.Options.Refresh {
			options = append(options, optup.Refresh())
		}
		result, err := stack.Up(ctx, options...)
		return changes(result.Summary.ResourceChanges), result.Outputs, err
	case "refresh":
		options := []optrefresh.Option{optrefresh.EventStreams(ch), optrefresh.ProgressStreams(os.Stdout)}
		if request.Options.ClearPendingCreates {
			options = append(options, optrefresh.ClearPendingCreates())
		}
		result, err := stack.Refresh(ctx, options...)
		return changes(result.Summary.ResourceChanges), nil, err
	default:
		result, err := stack.Destroy(ctx, optdestroy.EventStreams(ch), optdestroy.ProgressStreams(os.Stdout))
		return changes(result.Summary.ResourceChanges), nil, err
	}
}

func changes(summary *map[string]int) map[string]int {
	if summary == nil {
		return map[string]int{}
	}
	return *summary
}
