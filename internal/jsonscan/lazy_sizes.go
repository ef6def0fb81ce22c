package jsonscan

// The sizes from which a tool's arguments are read lazily. They are
// variables only so that the tests of the packages above (jsonrpc,
// argcheck, server) can lower them all at once (SetLazySizesForTest):
// small inputs then take the paths of large ones, and a fuzzer runs them
// a thousand times faster. Nothing else changes them.
var (
	// largeArgsMessage is LargeArgsMessage's size.
	largeArgsMessage = 1 << 20
	// lazyArrayMin is LazyMin's size: ParseLazy's, and that of the arrays
	// an Opaque with Spans records.
	lazyArrayMin = LazyArrayMin
	// windowNodes is about how many nodes one window of a lazy array's
	// elements holds (at least one element, however large).
	windowNodes = 4096
)

// LargeArgsMessage is the size of a message from which its
// params.arguments stay off its tape, only checked (jsonrpc.Decode): 1 MiB.
func LargeArgsMessage() int { return largeArgsMessage }

// LazyMin is the size from which ParseLazy keeps an array's elements off
// the tape, and from which arguments are parsed lazily: LazyArrayMin.
func LazyMin() int { return lazyArrayMin }

// LazySizes are sizes for SetLazySizesForTest; a zero field keeps the
// size it names.
type LazySizes struct {
	Message, Array, WindowNodes int
}

// SetLazySizesForTest sets the sizes of the lazy paths (LargeArgsMessage,
// LazyMin, the nodes of a window) for a test; restore puts the previous
// ones back. Only tests call it, never while anything parses.
func SetLazySizesForTest(s LazySizes) (restore func()) {
	old := LazySizes{largeArgsMessage, lazyArrayMin, windowNodes}
	if s.Message > 0 {
		largeArgsMessage = s.Message
	}
	if s.Array > 0 {
		lazyArrayMin = s.Array
	}
	if s.WindowNodes > 0 {
		windowNodes = s.WindowNodes
	}
	return func() { largeArgsMessage, lazyArrayMin, windowNodes = old.Message, old.Array, old.WindowNodes }
}
