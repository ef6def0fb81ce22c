package mcpgenpeer

import (
	"context"
	"errors"
)

// InProcess is mcpgen's in-memory path: Server.HandleBytes on the raw
// request (decode, dispatch, validate, run, encode), reply bytes out.
type InProcess struct{}

// Name describes the path.
func (InProcess) Name() string { return "mcpgen Server.HandleBytes" }

// Setup builds a fresh server.
func (InProcess) Setup() (func([]byte) ([]byte, error), func(), error) {
	s, err := New()
	if err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	call := func(req []byte) ([]byte, error) {
		resp := s.HandleBytes(ctx, req, nil)
		if resp.Body == nil {
			return nil, errors.New("mcpgen: no response")
		}
		return resp.Body, nil
	}
	return call, func() {}, nil
}

// Start builds the server with tools tools (the start-up rows).
func (InProcess) Start(tools int) error {
	_, err := NewWithTools(tools)
	return err
}
