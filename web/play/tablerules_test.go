package play_test

import (
	"encoding/json"
	"net/http"
)

// withRules has the server add rules to the next createGame calls that
// name none: the page's create form offers a table game's seat options,
// never its ruleset, and a test that plays a whole game asks for a short
// one this way (Pig to a goal of 30 rather than 100: the game's record
// then holds that ruleset). A call whose body cannot be read is left as
// it is (the functions refuse it).
func (s *server) withRules(rules string) {
	s.mu.Lock()
	s.createRules = json.RawMessage(rules)
	s.mu.Unlock()
}

// addRules puts the server's createRules into r's createGame data, if set
// and the data names no rules.
func (s *server) addRules(r *http.Request) {
	s.mu.Lock()
	rules := s.createRules
	s.mu.Unlock()
	if rules == nil {
		return
	}
	body, err := readAll(r)
	r.Body = nopCloser(body)
	if err != nil {
		return
	}
	var req map[string]json.RawMessage
	var data map[string]json.RawMessage
	if json.Unmarshal(body, &req) != nil || json.Unmarshal(req["data"], &data) != nil || data == nil || data["rules"] != nil {
		return
	}
	data["rules"] = rules
	if req["data"], err = json.Marshal(data); err != nil {
		return
	}
	if body, err = json.Marshal(req); err != nil {
		return
	}
	r.Body = nopCloser(body)
	r.ContentLength = int64(len(body))
}

// pigGoal is the ruleset of the whole trustless Pig games in two pages,
// and pigHold the turn total at which their players hold: about 20
// clicks a game (14 to 29 in 9 games of 10, simulated), where Pig's
// default goal of 100 with a hold at 20 took about 80. A first turn banks
// 15 at most (a hold once the total reaches 10, by rolls of 6 at most),
// so the game goes on after its sixth click, which the tests need (a
// screenshot; Bob's second reload).
const (
	pigGoal = `{"goal":30,"dieSides":6}`
	pigHold = 10
)
