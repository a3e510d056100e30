package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The positive controls of the secrecy tests: a test that shows a client
// cannot read a document makes the same read under rules weakened on
// purpose (the document's rule opened to every signed-in user) and
// requires it to succeed, so that the rules, not something else, are what
// refuse it. The weakened rules are loaded into a project of their own on
// the suite's emulator (the emulator keeps rules and data per project),
// so the tests that share the emulator keep the real rules.

// allowStmt is an allow statement of a rules file.
var allowStmt = regexp.MustCompile(`allow [a-z, ]+:[^;]*;`)

// ownEnd finds the end of a match statement's own allow statements: its
// first nested match, or its closing brace.
var ownEnd = regexp.MustCompile(`(?m)^\s*(match |\})`)

// weakAllow is the statement WeakRules puts in place of a match's own.
const weakAllow = "allow read, write: if request.auth != null; // weakened: a positive control"

// WeakRules returns the rules text with the allow statements of each
// match (a match statement's path as the rules file writes it,
// "/links/{id}"; its own statements, not those of the matches nested in
// it) replaced by one that lets every signed-in user read and write. It
// fails unless each match statement is found exactly once, with allow
// statements that do not let every signed-in user in already: a control
// must weaken the rule its test relies on, not a rule that has moved.
func WeakRules(rules string, matches ...string) (string, error) {
	for _, m := range matches {
		head := "match " + m + " {"
		if n := strings.Count(rules, head); n != 1 {
			return "", fmt.Errorf("emulator: the rules have %d match %s statements, want 1", n, m)
		}
		start := strings.Index(rules, head) + len(head)
		end := len(rules)
		if loc := ownEnd.FindStringIndex(rules[start+1:]); loc != nil {
			end = start + 1 + loc[0]
		}
		own := rules[start:end]
		stmts := allowStmt.FindAllStringIndex(own, -1)
		if len(stmts) == 0 {
			return "", fmt.Errorf("emulator: match %s allows nothing of its own to weaken", m)
		}
		if strings.Contains(own, "if request.auth != null;") {
			return "", fmt.Errorf("emulator: match %s lets every signed-in user in already", m)
		}
		weak := own[:stmts[0][0]] + weakAllow
		for k := 1; k < len(stmts); k++ {
			weak += strings.TrimRight(own[stmts[k-1][1]:stmts[k][0]], " \t\n")
		}
		weak += own[stmts[len(stmts)-1][1]:]
		rules = rules[:start] + weak + rules[end:]
	}
	return rules, nil
}

// LoadRules makes the emulator enforce rules (a rules file's text) for
// the end-user requests of f's project.
func (f *Firestore) LoadRules(ctx context.Context, rules string) error {
	body, err := json.Marshal(map[string]any{"rules": map[string]any{"files": []any{map[string]any{"name": "firestore.rules", "content": rules}}}})
	if err != nil {
		return err
	}
	url := "http://" + f.Host + "/emulator/v1/projects/" + f.ProjectID + ":securityRules"
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("emulator: loading rules: %w", err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("emulator: loading rules into %s: HTTP %d %s", f.ProjectID, resp.StatusCode, out)
	}
	return nil
}

// Project returns a handle on the same emulator for another project: its
// documents, REST and clients are that project's.
func (f *Firestore) Project(id string) *Firestore {
	c := *f
	c.ProjectID = id
	return &c
}

// Weakened returns the suite's Firestore emulator under another project,
// "<project>-weak-<n>", whose rules are the suite's rules file weakened
// at each match (WeakRules; no match: the rules as they are, the control
// of the control), and whose documents are copies of the suite's
// project's documents at copy (paths such as "games/g1"; the rest of the
// project is empty). It fails the test if anything fails. The weakened
// project is the test's own: it is cleared when the test ends.
func (s *Suite) Weakened(t testing.TB, matches []string, copy ...string) *Firestore {
	t.Helper()
	weak, err := s.Weaken(context.Background(), matches, copy...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { weak.Reset(context.Background()) })
	return weak
}

// Weaken is Weakened for a caller that is not the test's goroutine: it
// returns the error, and the caller clears the project (Reset) when done.
func (s *Suite) Weaken(ctx context.Context, matches []string, copy ...string) (*Firestore, error) {
	if s.cfg.Rules == "" {
		return nil, errors.New("emulator: the suite has no rules file to weaken")
	}
	path, err := resolvePath(s.cfg.Rules)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rules, err := WeakRules(string(b), matches...)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.weak++
	id := fmt.Sprintf("%s-weak-%d", s.cfg.ProjectID, s.weak)
	s.mu.Unlock()
	weak := s.fs.Project(id)
	if err := weak.LoadRules(ctx, rules); err != nil {
		return nil, err
	}
	from, err := s.fs.Client(ctx)
	if err != nil {
		return nil, err
	}
	defer from.Close()
	to, err := weak.Client(ctx)
	if err != nil {
		return nil, err
	}
	defer to.Close()
	for _, p := range copy {
		snap, err := from.Doc(strings.TrimPrefix(p, "/")).Get(ctx)
		if err != nil {
			return nil, fmt.Errorf("emulator: reading %s to copy it: %w", p, err)
		}
		if _, err := to.Doc(strings.TrimPrefix(p, "/")).Set(ctx, snap.Data()); err != nil {
			return nil, fmt.Errorf("emulator: copying %s: %w", p, err)
		}
	}
	return weak, nil
}
