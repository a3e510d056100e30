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

// allowRead is an allow statement that covers reads; its condition.
var allowRead = regexp.MustCompile(`allow [a-z, ]*read[a-z, ]*: if ([^;]*);`)

// WeakRules returns the rules text with the rule of each match (a match
// statement's path as the rules file writes it, "/links/{id}") replaced
// by one that lets every signed-in user read. It fails unless each match
// statement is found exactly once with a body that denies: a control must
// weaken the rule its test relies on, not a rule that has moved.
func WeakRules(rules string, matches ...string) (string, error) {
	for _, m := range matches {
		re := regexp.MustCompile(`match ` + regexp.QuoteMeta(m) + ` \{[^{}]*\}`)
		found := re.FindAllStringIndex(rules, -1)
		if len(found) != 1 {
			return "", fmt.Errorf("emulator: the rules have %d match %s statements, want 1", len(found), m)
		}
		old := rules[found[0][0]:found[0][1]]
		reads := allowRead.FindAllStringSubmatch(old, -1)
		if len(reads) == 0 {
			return "", fmt.Errorf("emulator: the rule of %s says nothing of reads: %s", m, old)
		}
		for _, r := range reads {
			if strings.TrimSpace(r[1]) != "false" {
				return "", fmt.Errorf("emulator: the rule of %s lets some read already: %s", m, old)
			}
		}
		rules = rules[:found[0][0]] + "match " + m + " {\n        allow read: if request.auth != null; // weakened: a positive control\n      }" + rules[found[0][1]:]
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
