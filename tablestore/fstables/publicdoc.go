package fstables

import (
	"slices"

	"github.com/fairboard/fairboard/table"
)

// The table's public document, games/{id} (the package doc's layout).

// seatDoc is one seat of the public document.
type seatDoc struct {
	UID     string   `firestore:"uid"`
	Options []string `firestore:"options"`
}

// outcomeDoc is a finished table's outcome.
type outcomeDoc struct {
	Abandoned bool      `firestore:"abandoned"`
	Winners   []int64   `firestore:"winners"`
	Payoffs   []float64 `firestore:"payoffs"`
	// Reason and Missing are table.Outcome's (a table ended before its
	// end: "unopened" with the seats that did not open, ...), absent
	// when empty.
	Reason  string  `firestore:"reason,omitempty"`
	Missing []int64 `firestore:"missing,omitempty"`
}

// fairnessDoc is a fair table's protocol as every reader sees it
// (table.Fairness): the commitment, and once finished what opens it.
type fairnessDoc struct {
	CommitmentHex    string   `firestore:"commitmentHex"`
	ServerSeedHex    string   `firestore:"serverSeedHex,omitempty"`
	ContributionsHex []string `firestore:"contributionsHex,omitempty"`
	GameSeedHex      string   `firestore:"gameSeedHex,omitempty"`
	// Openings is a fair table's with openings (table.Openings), so
	// that a page following it by listeners opens its seat's
	// contribution once every seat is taken; absent without.
	Openings *openingsDoc `firestore:"openings,omitempty"`
}

// openingsDoc is table.Openings: each seat's commitment ("" while free)
// and whether it opened, the time the seats have once the first opened,
// and that deadline (unix ms, 0 when no opening is awaited).
type openingsDoc struct {
	DeadlineMs     int64    `firestore:"deadlineMs"`
	Deadline       int64    `firestore:"deadline"`
	CommitmentsHex []string `firestore:"commitmentsHex"`
	Opened         []bool   `firestore:"opened"`
}

// publicDoc is games/{id}: the table's public part (table.Table.Public).
type publicDoc struct {
	Game       string      `firestore:"game"`
	Mode       string      `firestore:"mode"`
	OwnerUID   string      `firestore:"ownerUid"`
	Phase      string      `firestore:"phase"`
	Version    int64       `firestore:"version"`
	Seats      []seatDoc   `firestore:"seats"`
	PlayerUIDs []string    `firestore:"playerUids"`
	ToMove     int64       `firestore:"toMove"`
	Rules      string      `firestore:"rules"`
	RulesHash  string      `firestore:"rulesHash"`
	State      string      `firestore:"state,omitempty"`
	Outcome    *outcomeDoc `firestore:"outcome,omitempty"`
	// Fairness is a fair table's (absent in other modes), so that a page
	// following the table by listeners shows the commitment and checks
	// the reveal as it would from getView.
	Fairness *fairnessDoc `firestore:"fairness,omitempty"`
	// TableDueAt is table.Table.DueAt (a trustless table's pending
	// round's deadline, unix ms), absent when 0: the one indexed field
	// the sweep queries (Due). Not the dungeon's dueAt, which its own
	// sweep queries over the same collection.
	TableDueAt int64 `firestore:"tableDueAt,omitempty"`
	// TableActedAt is the time of the table's last applied action (unix
	// ms; table.Action.At, the create's table.CreateRequest.At), absent
	// once finished or when the action carried no time: the idle sweep's
	// query (Idle), with phase.
	TableActedAt int64 `firestore:"tableActedAt,omitempty"`
}

// publicOf is the public document of a table, from its public view.
func publicOf(v *table.View) publicDoc {
	d := publicDoc{Game: v.Game, Mode: string(v.Mode), OwnerUID: v.Owner, Phase: string(v.Phase),
		Version: int64(v.Version), ToMove: int64(v.ToMove), Rules: string(v.Rules), RulesHash: v.RulesHash,
		State: string(v.State), PlayerUIDs: []string{}}
	for _, st := range v.Seats {
		d.Seats = append(d.Seats, seatDoc{UID: st.UID, Options: slices.Clone(st.Options)})
		if st.UID != "" {
			d.PlayerUIDs = append(d.PlayerUIDs, st.UID)
		}
	}
	if f := v.Fairness; f != nil {
		d.Fairness = &fairnessDoc{CommitmentHex: f.CommitmentHex, ServerSeedHex: f.ServerSeedHex,
			ContributionsHex: slices.Clone(f.ContributionsHex), GameSeedHex: f.GameSeedHex}
		if op := f.Openings; op != nil {
			d.Fairness.Openings = &openingsDoc{DeadlineMs: int64(op.DeadlineMs), Deadline: op.Deadline,
				CommitmentsHex: slices.Clone(op.Commitments), Opened: slices.Clone(op.Opened)}
		}
	}
	if o := v.Outcome; o != nil {
		d.Outcome = &outcomeDoc{Abandoned: o.Abandoned, Payoffs: slices.Clone(o.Payoffs), Winners: []int64{}, Reason: o.Reason}
		for _, m := range o.Missing {
			d.Outcome.Missing = append(d.Outcome.Missing, int64(m))
		}
		for _, w := range o.Winners {
			d.Outcome.Winners = append(d.Outcome.Winners, int64(w))
		}
	}
	return d
}
