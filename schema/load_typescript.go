package schema

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// readTypeScriptBeside reads the schema.ts beside the schema file at path:
// nil when there is none. Only a regular file is read, and at most
// MaxSchemaBytes of it, so that the file Load finds on its own (the caller
// named only the schema) cannot block it (a named pipe, a device) or make
// it read without bound.
func readTypeScriptBeside(path string) ([]byte, error) {
	name := filepath.Join(filepath.Dir(path), "schema.ts")
	info, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, ErrorList{{File: name, Msg: fmt.Sprintf("not a regular file (mode %s): the schema.ts beside a schema must be a plain file; remove or replace it", info.Mode().Type())}}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced since the Stat: check what was opened.
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, ErrorList{{File: name, Msg: "not a regular file"}}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSchemaBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSchemaBytes {
		return nil, ErrorList{{File: name, Msg: fmt.Sprintf("schema.ts larger than %d MB", MaxSchemaBytes>>20)}}
	}
	return data, nil
}
