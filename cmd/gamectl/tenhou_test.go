package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// tenhouGame is Tenhou's published validation game, as kept in
// rng/tenhou/testdata.
type tenhouGame struct {
	SeedB64 string `json:"seed_base64"`
	LogAttr string `json:"log_shuffle_attribute"`
	Round1  struct {
		Wall []int `json:"wall136"`
		Dice []int `json:"dice_0_based"`
	} `json:"round1"`
}

func loadTenhouGame(t *testing.T) tenhouGame {
	t.Helper()
	var g tenhouGame
	rngLoadJSON(t, "../../rng/tenhou/testdata/2016022509gm-0009-0000-b327da61.json", &g)
	return g
}

func TestTenhouPublishedRound(t *testing.T) {
	g := loadTenhouGame(t)
	for _, seed := range []string{g.SeedB64, g.LogAttr} {
		for _, args := range [][]string{
			{"tenhou", "--seed", seed},
			{"tenhou", "--seed", seed, "--round", "1"},
		} {
			lines := rngOK(t, args...)
			if len(lines) != 1 {
				t.Fatalf("want one JSON line, got %d", len(lines))
			}
			var out struct {
				Wall []int `json:"wall"`
				Dice []int `json:"dice"`
			}
			dec := json.NewDecoder(strings.NewReader(lines[0]))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&out); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out.Wall, g.Round1.Wall) || !slices.Equal(out.Dice, g.Round1.Dice) {
				t.Fatalf("round 1: %s", lines[0])
			}
			if !strings.HasPrefix(lines[0], `{"wall":[22,91,36,115,`) || !strings.HasSuffix(lines[0], `],"dice":[5,1]}`) {
				t.Fatalf("format: %s", lines[0])
			}
		}
	}
	// Later rounds are other walls, still permutations of 0..135.
	r2 := rngOK(t, "tenhou", "--seed", g.SeedB64, "--round", "2")
	var out struct {
		Wall []int `json:"wall"`
	}
	if err := json.Unmarshal([]byte(r2[0]), &out); err != nil {
		t.Fatal(err)
	}
	if slices.Equal(out.Wall, g.Round1.Wall) || !slices.Equal(slices.Sorted(slices.Values(out.Wall)), tenhouIDs(136)) {
		t.Fatalf("round 2: %s", r2[0])
	}
}

func tenhouIDs(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestTenhouBadFlags(t *testing.T) {
	g := loadTenhouGame(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "--seed"},
		{[]string{"--seed", "!!!"}, "--seed"},
		{[]string{"--seed", g.SeedB64[:64]}, "--seed"},
		{[]string{"--seed", g.SeedB64, "--round", "0"}, "--round"},
		{[]string{"--seed", g.SeedB64, "--round", "-3"}, "--round"},
		{[]string{"--seed", g.SeedB64, "--round", "x"}, "round"},
		{[]string{"--seed", g.SeedB64, "more"}, "more"},
	} {
		args := append([]string{"tenhou"}, c.args...)
		out, errs, code := rngRun(t, args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("gamectl %.60q: exit %d, stdout %q, stderr %q; want exit 2 naming %q", args, code, out, errs, c.want)
		}
	}
}
