package skills

import (
	"strconv"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// What a request answers is read from one catalog, judged by
// Options.Visible while that catalog's files are the server's resources.
// Reload registers the new files before it swaps the catalog and
// unregisters the dropped ones after, so a catalog's files are all
// resources for as long as it is the current one; but a request that read
// the catalog just before a Reload swapped it may ask about a dropped file
// after it was unregistered, and a file the server does not serve counts
// as visible (server.ResourceVisible). So a request whose catalog was
// replaced while it ran reads again from the new one: an answer is only
// kept when the catalog it was read from was current from start to end
// (every Reload stores a new catalog, so an unchanged pointer means no
// Reload swapped in between).

// maxCatalogReads bounds how often one request reads again because Reloads
// kept replacing the catalog under it.
const maxCatalogReads = 8

// fromCurrent runs read on the current catalog until it returns while
// that catalog is still current, at most maxCatalogReads times; after that
// it fails with -32603 (the caller may retry).
func fromCurrent[T any](k *Skills, read func(c *catalog) (T, error)) (T, error) {
	for range maxCatalogReads {
		c := k.cur.Load()
		v, err := read(c)
		if k.cur.Load() == c {
			return v, err
		}
	}
	var zero T
	return zero, jsonrpc.NewError(jsonrpc.CodeInternalError, "Internal error: the skills were reloaded "+
		strconv.Itoa(maxCatalogReads)+" times while this request read them; retry it", nil)
}
