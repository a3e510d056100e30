package functest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// Docs returns what token reads of the game's documents as a client does
// under the rules (each answer's body, a refusal's included): the game
// document, the log's listener query, every seat document, the seats'
// query. Nil for a store whose clients read no documents (memory).
type Docs func(ctx context.Context, gameID string, seats int, token string) ([]string, error)

// Privacy is the leak check of a table game with private parts, through
// the functions (docs/functions.md, "Table games"): a seeded game of Def
// played to its end by bots, and after every action everything each
// other party can read searched for each seat's private part.
type Privacy struct {
	Client *Client
	Def    game.Definition
	GameID string
	Seed   string
	// Seats holds one token per seat, Seats[0] the owner's; Outsider a
	// signed-in user who holds no seat.
	Seats    []string
	Outsider string
	// Spectators creates the game open to spectators: the Outsider is
	// then a spectator, whose getView must answer the public view
	// (spectating, no seat, the public part once started) at every step,
	// or the check is blind.
	Spectators bool
	// Bots picks the moves (match's random bot).
	Bots *rng.Stream
	// Docs, if set, adds the documents each party reads under the rules.
	Docs Docs
}

// HasPrivateParts reports whether a game of def, at its default seat
// count, has a private part or an event addressed to one seat at some
// point of a seeded game played by random bots to its end (at most
// 10,000 moves).
func HasPrivateParts(def game.Definition) (bool, error) {
	m, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: "privacy-probe", Seats: make([]game.Seat, def.Seats().Default)})
	if err != nil {
		return false, err
	}
	bots, err := rng.NewSeeded("privacy-probe/bots")
	if err != nil {
		return false, err
	}
	bot := match.NewRandom(bots)
	for range 10000 {
		for s := range m.State().NumSeats() {
			if len(m.State().AppendPrivate(nil, s)) > 0 {
				return true, nil
			}
		}
		for _, e := range m.Events() {
			if e.To != game.All {
				return true, nil
			}
		}
		if m.Over() {
			return false, nil
		}
		seat := m.State().ToMove()
		if _, err := m.Apply(bot.Choose(nil, seat, m.State().Legal(seat, nil))); err != nil {
			return false, err
		}
	}
	return false, fmt.Errorf("%s: no end in 10000 moves", def.Name())
}

// Check plays the game and returns the first leak found ("" for none):
// after every action, every text each party reads (its getView answer,
// its act answers, a retry of the mover's act and the same act sent by
// another seat and by the outsider with the same actionId, a refused act
// of each party not awaited, and with Docs its documents) is searched for
// the private part of every other seat, as bytes or as a JSON string
// (any part that seat ever held, from match on the same seed and moves:
// an independent path; unless match's view of the reader shows the same
// bytes, as a showdown may), for an event addressed to another seat, for
// another content than the trace at an addressed event's seq, and for a
// trace holding more than its seq and seat. The game's secret part
// (every one it had, from match) is searched for in everything every
// reader reads, the seats' included, unless match's view of the reader
// shows the same bytes. Its error is a failure to play or a blind check:
// each seat must find its own part in its own getView (and, with Docs,
// its documents) and its own addressed events, as many as match
// addressed to it.
func (p *Privacy) Check(ctx context.Context) (string, error) {
	n := len(p.Seats)
	var more map[string]any
	if p.Spectators {
		more = map[string]any{"spectators": true}
	}
	if err := TableLobbyWith(ctx, p.Client, p.Def, p.GameID, p.Seed, p.Seats, more); err != nil {
		return "", err
	}
	ref, err := match.New(p.Def, match.Config{Mode: rng.ModeSeeded, Seed: p.Seed, Seats: make([]game.Seat, n)})
	if err != nil {
		return "", err
	}
	bot := match.NewRandom(p.Bots)
	readers := append(slices.Clone(p.Seats), p.Outsider) // reader i < n holds seat i
	held := make([]map[string]bool, n+1)                 // every private part each seat held; held[n], every secret part
	for s := range held {
		held[s] = map[string]bool{}
	}
	read := make([][]string, n+1) // the texts each reader read since the last scan
	call := func(r int, fn string, data map[string]any) string {
		a := p.raw(ctx, fn, readers[r], data)
		read[r] = append(read[r], a)
		return a
	}
	for step := 0; ; step++ {
		for s := range n {
			if b := ref.State().AppendPrivate(nil, s); len(b) > 0 {
				held[s][string(b)] = true
			}
		}
		if b := ref.State().AppendSecret(nil); len(b) > 0 {
			held[n][string(b)] = true
		}
		views := make([]*functions.TableView, n)
		viewText, docText := make([]string, n+1), make([]string, n+1)
		for r := range readers {
			v := call(r, "getView", map[string]any{"gameId": p.GameID})
			viewText[r] = v
			if r < n {
				views[r] = &functions.TableView{}
				if err := json.Unmarshal([]byte(v), views[r]); err != nil {
					return "", fmt.Errorf("seat %d's getView %s: %w", r, v, err)
				}
			}
			if p.Docs != nil {
				docs, err := p.Docs(ctx, p.GameID, n, readers[r])
				if err != nil {
					return "", err
				}
				read[r] = append(read[r], docs...)
				docText[r] = strings.Join(docs, "\n")
			}
		}
		if err := p.spectating(ref, viewText[n]); err != nil {
			return "", fmt.Errorf("after action %d: %w", step, err)
		}
		if err := p.control(ref, viewText, docText); err != nil {
			return "", fmt.Errorf("after action %d: %w", step, err)
		}
		if !ref.Over() {
			first := json.RawMessage(`{"kind":"` + p.Def.Kinds()[0].Name + `"}`)
			for r := range readers {
				if r != ref.State().ToMove() {
					call(r, "act", map[string]any{"gameId": p.GameID, "actionId": fmt.Sprintf("x%d", step), "version": views[0].Version, "move": first})
				}
			}
		}
		known := make([]string, n+1) // what match shows each reader: its view, the public part
		for r := range known {
			if r < n {
				known[r] = string(ref.State().AppendView(nil, r))
			} else {
				known[r] = string(ref.State().AppendPublic(nil))
			}
		}
		if leak := p.scan(read, viewText, known, held); leak != "" {
			return fmt.Sprintf("after action %d: %s", step, leak), nil
		}
		for r := range read {
			read[r] = nil
		}
		if ref.Over() {
			return "", nil
		}
		mover := ref.State().ToMove()
		v := views[mover]
		var raws []json.RawMessage
		if err := json.Unmarshal(v.Legal, &raws); err != nil || len(raws) == 0 {
			return "", fmt.Errorf("seat %d awaited with legal %s: %v", mover, v.Legal, err)
		}
		legal := make([]game.Move, len(raws))
		for i, m := range raws {
			if legal[i], err = game.DecodeMove(p.Def.Kinds(), mover, m); err != nil {
				return "", err
			}
		}
		mv := bot.Choose(nil, mover, legal)
		if _, err := ref.Apply(mv); err != nil {
			return "", fmt.Errorf("match refuses %+v: %w", mv, err)
		}
		act := map[string]any{"gameId": p.GameID, "actionId": fmt.Sprintf("m%d", step), "version": v.Version,
			"move": json.RawMessage(game.AppendMoveJSON(nil, p.Def.Kinds(), mv))}
		if a := call(mover, "act", act); !strings.Contains(a, `"replayed":false`) {
			return "", fmt.Errorf("seat %d's act %d: %s", mover, step, a)
		}
		if a := call(mover, "act", act); !strings.Contains(a, `"replayed":true`) {
			return "", fmt.Errorf("seat %d's retry of act %d: %s", mover, step, a)
		}
		// The same action id and content from another caller is its own
		// action (ids belong to their actor), never the stored answer.
		for _, r := range []int{(mover + 1) % n, n} {
			if a := call(r, "act", act); strings.Contains(a, `"replayed":true`) {
				return fmt.Sprintf("action %d: reader %d's act with seat %d's action id got the stored answer: %s", step, r, mover, a), nil
			}
		}
	}
}

// raw calls fn and returns the answer's bytes (the result or the error).
func (p *Privacy) raw(ctx context.Context, fn, token string, data map[string]any) string {
	body, err := json.Marshal(map[string]any{"data": data})
	if err != nil {
		return "marshal: " + err.Error()
	}
	a, err := p.Client.Raw(ctx, fn, token, body)
	switch {
	case err != nil:
		return "call: " + err.Error()
	case a.Error != nil:
		b, _ := json.Marshal(a.Error)
		return string(b)
	}
	return string(a.Result)
}

// escaped is b as it appears inside a JSON string.
func escaped(b string) string {
	q, _ := json.Marshal(b)
	return string(q[1 : len(q)-1])
}

// spectating checks that a spectator's search is not blind: with
// Spectators, the outsider's getView (view) is the public view, its state
// match's public part; without, it is refused as for no game.
func (p *Privacy) spectating(ref *match.Match, view string) error {
	var v functions.TableView
	err := json.Unmarshal([]byte(view), &v)
	if !p.Spectators {
		if err == nil && v.GameID != "" {
			return fmt.Errorf("control: the outsider reads a game not open to spectators: %s", view)
		}
		return nil
	}
	if err != nil || !v.Spectating || v.Seat != table.NoSeat {
		return fmt.Errorf("control: the spectator's getView is not a spectator's view: %s", view)
	}
	if pub := ref.State().AppendPublic(nil); !strings.Contains(view, string(pub)) && !strings.Contains(view, escaped(string(pub))) {
		return fmt.Errorf("control: the spectator's getView lacks the public part %s: %s", pub, view)
	}
	return nil
}

// control checks that the search is not blind: each seat reads its own
// current private part in its getView (view[s]) and, with Docs, in its
// documents (docs[s]), and its own addressed events, as many as match's.
func (p *Privacy) control(ref *match.Match, view, docs []string) error {
	for s := range p.Seats {
		own := string(ref.State().AppendPrivate(nil, s))
		if own != "" && !strings.Contains(view[s], own) {
			return fmt.Errorf("control: seat %d's getView lacks its own part %s: %s", s, own, view[s])
		}
		if p.Docs != nil && own != "" && !strings.Contains(docs[s], escaped(own)) {
			return fmt.Errorf("control: seat %d's documents lack its own part %s", s, own)
		}
		want := 0
		for _, e := range ref.Events() {
			if e.To == s {
				want++
			}
		}
		got := 0
		for _, e := range events(view[s]) {
			if to, ok := e["to"].(float64); ok && int(to) == s {
				got++
			}
		}
		if got != want {
			return fmt.Errorf("control: seat %d's getView holds %d events addressed to it; match addressed %d", s, got, want)
		}
	}
	return nil
}

// scan returns the first leak in what each reader read: another seat's
// private part (ever held, unless the reader held the same or match's
// view of it, known, shows it: a showdown), an event
// addressed to another seat, another content than the trace at the seq
// of an event addressed to another seat (the seqs from the addressee's
// own getView, view[s]), a trace with more than its seq and seat.
func (p *Privacy) scan(read [][]string, view, known []string, held []map[string]bool) string {
	addressed := map[int]int{} // seq → seat
	for s := range p.Seats {
		for _, e := range events(view[s]) {
			if to, ok := e["to"].(float64); ok && int(to) == s {
				addressed[int(e["seq"].(float64))] = s
			}
		}
	}
	for r, texts := range read {
		for _, text := range texts {
			for s, parts := range held {
				for part := range parts {
					if s == r && s < len(p.Seats) || r < len(p.Seats) && held[r][part] || strings.Contains(known[r], part) {
						continue // its own, or shown to it (a showdown) by match's own view of it
					}
					if strings.Contains(text, part) || strings.Contains(text, escaped(part)) {
						if s == len(p.Seats) {
							return fmt.Sprintf("reader %d reads the game's secret part %s in %s", r, part, text)
						}
						return fmt.Sprintf("reader %d reads seat %d's private part %s in %s", r, s, part, text)
					}
				}
			}
			for _, e := range events(text) {
				seq, _ := e["seq"].(float64)
				to, hasTo := e["to"].(float64)
				s, isAddressed := addressed[int(seq)]
				switch {
				case hasTo && int(to) != r:
					return fmt.Sprintf("reader %d reads an event addressed to seat %d: %v", r, int(to), e)
				case isAddressed && s != r && e["type"] != table.TypeAddressed:
					return fmt.Sprintf("reader %d reads seq %d, addressed to seat %d, as %v", r, int(seq), s, e)
				case e["type"] == table.TypeAddressed && len(e) != 3:
					return fmt.Sprintf("reader %d reads a trace with more than its seq and seat: %v", r, e)
				}
			}
		}
	}
	return ""
}
