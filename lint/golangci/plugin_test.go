package golangci

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/fairboard/fairboard/lint"
)

func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("randlint")
	if err != nil {
		t.Fatal(err)
	}
	flags := lint.Analyzer.Flags
	old := map[string]string{}
	for _, name := range []string{"allow", "rng", "reducers", "drivers", "transport"} {
		old[name] = flags.Lookup(name).Value.String()
	}
	t.Cleanup(func() {
		for name, v := range old {
			flags.Set(name, v)
		}
	})

	p, err := newPlugin(map[string]any{
		"allow":    []any{"example.com/x/rng/...", "example.com/x/seed"},
		"rng":      "example.com/x/rng",
		"reducers": []any{"example.com/x/rules/..."},
		"drivers":  []any{"example.com/x/rules/*/tools/..."},
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"allow":     "example.com/x/rng/...,example.com/x/seed",
		"rng":       "example.com/x/rng",
		"reducers":  "example.com/x/rules/...",
		"drivers":   "example.com/x/rules/*/tools/...",
		"transport": old["transport"], // not set: keeps its default
	} {
		if got := flags.Lookup(name).Value.String(); got != want {
			t.Errorf("-%s = %q, want %q", name, got, want)
		}
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != 1 || as[0] != lint.Analyzer {
		t.Errorf("BuildAnalyzers() = %v, %v; want [lint.Analyzer]", as, err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q", got)
	}
	if _, err := newPlugin(map[string]any{"allow": 42}); err == nil {
		t.Error("settings with a number for allow decoded without error")
	}
}
