package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// foldParams has fields whose names have Unicode case-fold variants other
// than ASCII case: "s" folds with U+017F (ſ), "k" with U+212A (the Kelvin
// sign).
type foldParams struct {
	TaskID string `json:"taskId"`
	Kind   string `json:"kind"`
}

// TestCheckMembersUnicodeFolds: every member encoding/json would store in a
// field under another name than the field's own is refused, whatever the
// folding (ASCII case, ſ, K, written raw or escaped); exact names pass.
func TestCheckMembersUnicodeFolds(t *testing.T) {
	typ := reflect.TypeFor[foldParams]()
	cases := []struct {
		params string
		field  string // "" when the params are fine
	}{
		{`{"taskId":"a","kind":"b"}`, ""},
		{`{"task\u0049d":"a"}`, ""}, // an escape of the exact name is the exact name
		{`{"TASKID":"a"}`, "taskId"},
		{`{"taſkId":"a"}`, "taskId"},
		{`{"ta\u017fkId":"a"}`, "taskId"},
		{`{"tas\u212aId":"a"}`, "taskId"},
		{`{"\u212aind":"b"}`, "kind"},
		{`{"taskId":"decoy","taſkId":"victim"}`, "taskId"},
	}
	for _, c := range cases {
		err := checkMembers([]byte(c.params), typ, "params", 0)
		var p foldParams
		if jerr := json.Unmarshal([]byte(c.params), &p); jerr != nil {
			t.Fatalf("%s: encoding/json: %v", c.params, jerr)
		}
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.params, err)
			}
			continue
		}
		// The oracle: encoding/json does fill the field from the variant,
		// so a check reading only the exact name would see another value.
		if p == (foldParams{}) {
			t.Fatalf("%s: encoding/json filled no field; the case proves nothing", c.params)
		}
		if err == nil {
			t.Errorf("%s: accepted, but encoding/json reads it into %q (%+v)", c.params, c.field, p)
		} else if !strings.Contains(err.Error(), `"`+c.field+`"`) {
			t.Errorf("%s: %v does not name the field %q", c.params, err, c.field)
		}
	}
}

// TestTaskIDFoldCannotBypassMcpName: a tasks/cancel whose body names the
// task "decoy" as taskId and the victim as "taſkId" (which encoding/json
// would read into taskId) is refused; the victim keeps running.
func TestTaskIDFoldCannotBypassMcpName(t *testing.T) {
	s := newTaskServer(t)
	victim := createTask(t, s, "sleeper", `{"ms":60000}`)
	h := s.HTTPHandler(HTTPOptions{})

	body := `{"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"taskId":"decoy","ta\u017fkId":"` + victim + `","_meta":` + tasksMeta + `}}`
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tasks/cancel")
	req.Header.Set("Mcp-Name", "decoy")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)

	var r struct {
		Error *struct {
			Code    int64
			Message string
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil || r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("HTTP %d %s: want a -32602 error", w.Code, w.Body)
	}
	if got := resultMap(t, taskRPC(t, s, "tasks/get", victim, "")); got["status"] != TaskWorking {
		t.Fatalf("the victim task is %v after a request naming \"decoy\"", got["status"])
	}
}

type foldBase struct {
	Task string `json:"task"` // shadowed by foldShadow.Task, as encoding/json shadows it
}

type foldShadow struct {
	foldBase
	Task foldParams `json:"task"`
}

type foldDash struct {
	//lint:ignore SA5008 the member named "-", as encoding/json reads this tag
	Dash foldParams `json:"-,"`
}

// TestCheckMembersFollowsEncodingJSONFields: the check descends into the
// field encoding/json fills (the shallower of two named alike; the member
// "-" of `json:"-,"`), so a folded name in there is refused too.
func TestCheckMembersFollowsEncodingJSONFields(t *testing.T) {
	cases := []struct {
		typ    reflect.Type
		params string
	}{
		{reflect.TypeFor[foldShadow](), `{"task":{"taſkId":"victim"}}`},
		{reflect.TypeFor[foldDash](), `{"-":{"taſkId":"victim"}}`},
	}
	for _, c := range cases {
		// The oracle: encoding/json fills the nested taskId from the variant.
		v := reflect.New(c.typ)
		if err := json.Unmarshal([]byte(c.params), v.Interface()); err != nil {
			t.Fatalf("%s: encoding/json: %v", c.params, err)
		}
		if !strings.Contains(fmt.Sprintf("%+v", v.Elem().Interface()), "victim") {
			t.Fatalf("%s into %v: encoding/json did not read the variant; the case proves nothing", c.params, c.typ)
		}
		if err := checkMembers([]byte(c.params), c.typ, "params", 0); err == nil || !strings.Contains(err.Error(), `"taskId"`) {
			t.Errorf("%s into %v: %v, want the folded taskId refused", c.params, c.typ, err)
		}
	}
}
