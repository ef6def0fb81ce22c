package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

type framedOracleOut struct {
	S   string            `json:"s"`
	N   int               `json:"n"`
	L   []string          `json:"l,omitempty"`
	M   map[string]string `json:"m,omitempty"`
	Raw json.RawMessage   `json:"raw,omitempty"`
}

func framedOracleResult(t *testing.T, v any, meta []byte) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dst := []byte(`{"content":[{"type":"text","text":`)
	dst = jsonrpc.AppendString(dst, b)
	dst = append(dst, `}],"structuredContent":`...)
	dst = append(dst, b...)
	dst = append(dst, `,"resultType":"complete","_meta":`...)
	dst = append(dst, meta...)
	return append(dst, '}')
}

func framedOracleValue(r *rand.Rand) framedOracleOut {
	alph := []string{`"`, `\`, "\x01", "\n", "é", "<", ">", "&", "a", "\u2028", "\xff", "\x7f", "日本"}
	n := []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 100, 1000, 5000}[r.Intn(12)]
	var sb strings.Builder
	mode := r.Intn(4)
	for i := 0; i < n; i++ {
		switch mode {
		case 0:
			sb.WriteString(alph[r.Intn(len(alph))])
		case 1:
			sb.WriteByte('"')
		case 2:
			sb.WriteByte(byte(r.Intn(32)))
		default:
			sb.WriteByte('a' + byte(r.Intn(26)))
		}
	}
	v := framedOracleOut{S: sb.String(), N: r.Intn(1000)}
	if r.Intn(3) == 0 {
		v.L = []string{sb.String()[:len(sb.String())/2], `""""`}
	}
	if r.Intn(4) == 0 {
		v.Raw = json.RawMessage("{\n \"a\" : [1, \"\\n\"]\r\n}")
	}
	return v
}

// TestStructuredResultMatchesEncodingJSON: a structured Out's result,
// framed in place or not, one value after another of the same tool (room
// learned from results that grow and shrink, escape much or little), is
// byte for byte the one built from encoding/json's encoding of the value
// and AppendString (the text), independently of the encoder's own paths.
func TestStructuredResultMatchesEncodingJSON(t *testing.T) {
	meta := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`)
	for _, ptr := range []bool{false, true} {
		typ := reflect.TypeFor[framedOracleOut]()
		if ptr {
			typ = reflect.TypeFor[*framedOracleOut]()
		}
		o := newOutEncoder(typ)
		r := rand.New(rand.NewSource(1))
		for i := 0; i < 800; i++ {
			v := framedOracleValue(r)
			var out any = v
			if ptr {
				out = &v
			}
			var scratch toolText
			var f resultFrame
			res, err := o.toolOutput(out, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			got := res.(*toolText).encodeIn(&f, meta)
			want := framedOracleResult(t, out, meta)
			if !bytes.Equal(got, want) {
				t.Fatalf("%d: got\n%q\nwant\n%q", i, got, want)
			}
			id := jsonrpc.IntID(int64(i))
			if resp := f.response(id, f.result); resp != nil {
				if !bytes.Equal(resp, jsonrpc.AppendResult(nil, id, want)) {
					t.Fatalf("%d: resp %q", i, resp)
				}
			}
		}
	}
}

// TestStructuredResultConcurrentCallsMatchEncodingJSON: concurrent calls
// of one tool, sharing the room it learns, each get their own result.
func TestStructuredResultConcurrentCallsMatchEncodingJSON(t *testing.T) {
	meta := []byte(`{"io.modelcontextprotocol/serverInfo":{"name":"t"}}`)
	o := newOutEncoder(reflect.TypeFor[framedOracleOut]())
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(g)))
			for i := 0; i < 60; i++ {
				v := framedOracleValue(r)
				var scratch toolText
				var f resultFrame
				res, err := o.toolOutput(v, &scratch)
				if err != nil {
					t.Error(err)
					return
				}
				got := res.(*toolText).encodeIn(&f, meta)
				want := framedOracleResult(t, v, meta)
				if !bytes.Equal(got, want) {
					t.Errorf("g%d %d: got\n%q\nwant\n%q", g, i, got, want)
					return
				}
				id := jsonrpc.StringID(fmt.Sprint(g, "-", i))
				if resp := f.response(id, f.result); resp != nil && !bytes.Equal(resp, jsonrpc.AppendResult(nil, id, want)) {
					t.Errorf("resp")
					return
				}
			}
		}(g)
	}
	wg.Wait()
}
