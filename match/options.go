package match

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/fairboard/fairboard/game"
)

// DealOptions returns the seats of game i of a simulation of def with n
// seats: each seat option's values rotate over the seats and the games,
// so that over any run of consecutive games whose length is a multiple of
// the number of values every seat plays every value equally often. With
// options o = 0, 1, ... of k_0, k_1, ... values, seat j of game i takes
// value (i_o + j) mod k_o of option o, where i_0 = i and i_(o+1) =
// floor(i_o / k_o): a second option turns once the first has made a full
// turn. A game without options gets seats without options.
func DealOptions(def game.Definition, i int64, n int) []game.Seat {
	seats := make([]game.Seat, n)
	for o, idx := range dealIndexes(def.Seats().Options, i, n) {
		values := def.Seats().Options[o].Values
		for j := range seats {
			seats[j].Options = append(seats[j].Options, values[idx[j]])
		}
	}
	return seats
}

// dealIndexes returns, for each option, each seat's value index (see
// DealOptions).
func dealIndexes(opts []game.SeatOption, i int64, n int) [][]int {
	out := make([][]int, len(opts))
	for o, opt := range opts {
		k := int64(len(opt.Values))
		out[o] = make([]int, n)
		for j := range n {
			out[o][j] = int((i + int64(j)) % k)
		}
		i /= k
	}
	return out
}

// PlayersHeaderOf returns players.csv's header for def: the common columns
// (PlayersHeader) with a column per seat option, named as the option,
// after uid. For a game without options it is PlayersHeader.
func PlayersHeaderOf(def game.Definition) string {
	opts := def.Seats().Options
	if len(opts) == 0 {
		return PlayersHeader
	}
	names := make([]string, len(opts))
	for o, opt := range opts {
		names[o] = opt.Name
	}
	head, tail, _ := strings.Cut(PlayersHeader, ",bot,")
	return head + "," + strings.Join(names, ",") + ",bot," + tail
}

// OptionTally is one seat option's results in a simulation, by value:
// the seat-games that played it, their wins and their payoffs' sum.
type OptionTally struct {
	Name   string
	Values []string
	Games  []int64
	Wins   []int64
	Payoff []float64
}

func newOptionTallies(opts []game.SeatOption) []OptionTally {
	out := make([]OptionTally, len(opts))
	for o, opt := range opts {
		k := len(opt.Values)
		out[o] = OptionTally{Name: opt.Name, Values: opt.Values, Games: make([]int64, k), Wins: make([]int64, k), Payoff: make([]float64, k)}
	}
	return out
}

// writeOptions writes each option's win rate by value, over the seats
// that played it, against the fair share 1/seats.
func writeOptions(w io.Writer, tallies []OptionTally, seats int) {
	fair := 1 / float64(seats)
	for _, t := range tallies {
		fmt.Fprintf(w, "\nwin rate by %s (over the seats that played it; fair share %.1f%%; edge in percentage points)\n", t.Name, 100*fair)
		width := 0
		for _, v := range t.Values {
			width = max(width, len(v))
		}
		for v, name := range t.Values {
			k, n := t.Wins[v], t.Games[v]
			lo, hi := Wilson(k, n)
			rate := 0.0
			if n > 0 {
				rate = float64(k) / float64(n)
			}
			fmt.Fprintf(w, "  %-*s  %5.1f%%  95%% [%.1f, %.1f]  (%d/%d)  edge %+.1f  mean payoff %.4f\n",
				width, name, 100*rate, 100*lo, 100*hi, k, n, 100*(rate-fair), t.Payoff[v]/math.Max(1, float64(n)))
		}
	}
}
