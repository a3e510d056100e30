package match

import (
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// SavedFormat returns the format and the game a saved tuning run names
// (NTBEAFormat or GridFormat), to pick its loader; an error if data is
// not JSON with a format.
func SavedFormat(data []byte) (format, gameName string, err error) {
	var head struct {
		Format string `json:"format"`
		Game   string `json:"game"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", "", fmt.Errorf("not a saved tuning run (corrupt?): %v", err)
	}
	if head.Format == "" {
		return "", "", fmt.Errorf("not a saved tuning run: no format")
	}
	return head.Format, head.Game, nil
}

// LoadNTBEA reads an NTBEA run of def saved as JSON (NTBEARun.JSON) and
// resumes it with its own settings, on workers goroutines: the run is
// built again from them (NewNTBEA), so a state whose settings the game
// refuses, or whose search state does not hold together, is an error
// (ResumeNTBEA's), as is one of another game or format.
func LoadNTBEA(data []byte, def game.Definition, workers int) (*NTBEARun, error) {
	var saved NTBEARun
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("not a saved tuning run (corrupt?): %v", err)
	}
	s := runSettings{saved.Game, saved.Rules, saved.Seed, saved.Games, saved.Seats, saved.Bots, saved.Target}
	tc, err := s.config(def, saved.Format, NTBEAFormat, workers)
	if err != nil {
		return nil, err
	}
	for _, p := range saved.Params {
		tc.Params = append(tc.Params, TuneParam{Path: p.Path, Lo: p.Lo, Hi: p.Hi})
	}
	fresh, err := NewNTBEA(tc, saved.Budget)
	if err != nil {
		return nil, fmt.Errorf("the run's settings: %w", err)
	}
	return ResumeNTBEA(data, fresh)
}
