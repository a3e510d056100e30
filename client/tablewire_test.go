package client_test

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/functions"
)

// jsonNames lists the JSON names of a struct type's exported fields, by
// their tags ("-" and untagged fields by their Go names, as encoding/json
// does).
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// wireDrift names the JSON fields the server's type answers that the
// client's type does not read, and those the client reads that the
// server never sends.
func wireDrift(server, client reflect.Type) (unread, unsent []string) {
	s, c := map[string]bool{}, map[string]bool{}
	for _, n := range jsonNames(server) {
		s[n] = true
	}
	for _, n := range jsonNames(client) {
		c[n] = true
	}
	for n := range s {
		if !c[n] {
			unread = append(unread, n)
		}
	}
	for n := range c {
		if !s[n] {
			unsent = append(unsent, n)
		}
	}
	sort.Strings(unread)
	sort.Strings(unsent)
	return unread, unsent
}

// TestTableWireTypesAgree: the Go client decodes the functions' table
// answers into its own types (it does not import the server), so each
// field the functions answer must be one the client reads, and the
// client must read nothing the server does not send. The server's
// declarations are the independent side. Control: a client type missing
// a field, and one with a field of its own, are both caught.
func TestTableWireTypesAgree(t *testing.T) {
	pairs := []struct{ server, client any }{
		{functions.TableView{}, client.TableView{}},
		{functions.TableResult{}, client.TableResult{}},
		{functions.TableSeat{}, client.TableSeat{}},
		{functions.TableOutcome{}, client.TableOutcome{}},
	}
	for _, p := range pairs {
		st, ct := reflect.TypeOf(p.server), reflect.TypeOf(p.client)
		unread, unsent := wireDrift(st, ct)
		require.Empty(t, unread, "%s answers fields %s does not read", st, ct)
		require.Empty(t, unsent, "%s reads fields %s never sends", ct, st)
	}

	// The controls.
	type missing struct {
		Abandoned bool      `json:"abandoned"`
		Winners   []int     `json:"winners"`
		Payoffs   []float64 `json:"payoffs"`
		Reason    string    `json:"reason,omitempty"`
	}
	unread, _ := wireDrift(reflect.TypeOf(functions.TableOutcome{}), reflect.TypeOf(missing{}))
	require.Equal(t, []string{"missing"}, unread)
	type extra struct {
		UID     string   `json:"uid"`
		Options []string `json:"options"`
		Colour  string   `json:"colour"`
	}
	_, unsent := wireDrift(reflect.TypeOf(functions.TableSeat{}), reflect.TypeOf(extra{}))
	require.Equal(t, []string{"colour"}, unsent)
}
