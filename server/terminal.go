package server

import (
	"fmt"
	"io"
	"os"
)

// terminalRequest is the request the terminal banner suggests typing.
const terminalRequest = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// announceTerminal says, on stderr, what this program is and how to talk
// to it when a person starts a stdio server by hand (stdin is a terminal):
// otherwise it would sit silently waiting for JSON-RPC. Hosts start it with
// pipes, so they never see this.
func (s *Server) announceTerminal(in *os.File, errOut io.Writer) {
	if !stdinIsTerminal(in) { // terminal_<os>.go
		return
	}
	io.WriteString(errOut, terminalBanner(s.info.Name, s.info.Version))
}

// terminalBanner is the text of announceTerminal.
func terminalBanner(name, version string) string {
	return fmt.Sprintf(`%s %s is a Model Context Protocol server speaking JSON-RPC on stdin/stdout.
An MCP host (Claude Desktop, an IDE, the MCP Inspector) runs it as a command and talks to it;
run it with --help for its flags (e.g. Streamable HTTP). To try it here, paste one request per line:
  %s
Ctrl-D (end of input) stops it.
`, name, version, terminalRequest)
}
