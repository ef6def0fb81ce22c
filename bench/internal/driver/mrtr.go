package driver

import (
	"encoding/json"
	"fmt"
)

// confirmAnswer is the client's answer to the multi round-trip row's
// elicitation.
const confirmAnswer = `{"action":"accept","content":{"ok":true}}`

// multiRound wraps one request sender into a multi round-trip exchange for
// c (Call.MultiRound): the first request must be answered with resultType
// input_required carrying c.AnswerKey among its inputRequests and a
// requestState; the same request is then sent again with inputResponses
// and that requestState, and the reply to that is returned. Both rounds
// use the same id (the first has been answered).
func multiRound(p Protocol, c Call, roundTrip func(id int64, req []byte) ([]byte, error)) (func(id int64) ([]byte, error), error) {
	first, err := newEncoder(p, c)
	if err != nil {
		return nil, err
	}
	return func(id int64) ([]byte, error) {
		reply, err := roundTrip(id, first.appendRequest(make([]byte, 0, first.size()), id))
		if err != nil {
			return nil, err
		}
		var m struct {
			Result struct {
				ResultType    string                     `json:"resultType"`
				InputRequests map[string]json.RawMessage `json:"inputRequests"`
				RequestState  *string                    `json:"requestState"`
			} `json:"result"`
		}
		if err := json.Unmarshal(reply, &m); err != nil {
			return nil, fmt.Errorf("first round: %w", err)
		}
		if m.Result.ResultType != "input_required" || m.Result.InputRequests[c.AnswerKey] == nil {
			return nil, fmt.Errorf("first round is not input_required with %q: %.300s", c.AnswerKey, reply)
		}
		second := c
		key, _ := json.Marshal(c.AnswerKey)
		second.extraParams = `,"inputResponses":{` + string(key) + `:` + confirmAnswer + `}`
		if m.Result.RequestState != nil {
			state, _ := json.Marshal(*m.Result.RequestState)
			second.extraParams += `,"requestState":` + string(state)
		}
		enc, err := newEncoder(p, second)
		if err != nil {
			return nil, err
		}
		return roundTrip(id, enc.appendRequest(make([]byte, 0, enc.size()), id))
	}, nil
}
