package jsonrpc

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// AppendJSONText appends text as a JSON string: the same bytes as
// AppendString for every input, by a loop made for text that is itself
// JSON (a tool's result as its text content): ASCII, with a quote every
// few bytes and the odd backslash of an escape inside a string, where
// AppendString pays a copy, an append and a new 8-byte scan for each.
//
// While dst has room for the next block's longest escaping (every byte a
// quote, and a block written ahead) it writes the text 8 bytes at a time
// straight into that room and finds every quote and backslash of a block at once
// (textBlock); for each of them a backslash is written and the block from
// that byte on again behind it, so an escape costs a few instructions,
// not a call. At a control character or a byte >= 0x80 (UTF-8 to check)
// it hands the rest to AppendString's loop (appendEscaped: everything
// before was ASCII, so the rest starts at a character), and likewise
// where the room runs short. A text shorter than a block is
// AppendString's; it allocates only when and as AppendString would. Unlike append, it may write into dst's
// spare capacity beyond the bytes it returns; a text that lies in that
// capacity (which the blocks would overwrite before it is read) is
// AppendString's too.
func AppendJSONText(dst, text []byte) []byte {
	if len(text) < 8 || cap(dst)-len(dst) < 1+2*8+jsonTextSlack-1 || inSpareRoom(dst, text) {
		return AppendString(dst, text)
	}
	const msb = 0x8080808080808080
	buf, o := dst[:cap(dst)], len(dst)
	buf[o] = '"'
	o++
	for i := 0; i < len(text); {
		// The next 8 bytes, or the n < 8 left in the low bytes of x (the
		// last 8 read and shifted down; live leaves out the zeros above).
		var x uint64
		n, live := 8, uint64(msb)
		if left := len(text) - i; left >= 8 {
			x = loadBlock(text, i)
		} else {
			shift := uint(8-left) * 8
			x = loadBlock(text, len(text)-8) >> shift
			n, live = left, msb>>shift
		}
		if len(buf)-o < 2*n+jsonTextSlack-1 {
			// Not the room for this block with every byte escaped (a
			// buffer sized for the escapes one expects, not for the
			// worst): the rest is AppendString's, which grows it if it
			// must.
			return append(appendEscaped(buf[:o], text[i:]), '"')
		}
		stop := textBlock(x) & live
		// Each escape's backslash is written at its byte's place and the
		// block from that byte on behind it: with every byte escaped the
		// last write ends at o+2*n+jsonTextSlack-1, within the room
		// checked above, which leaves one byte for the closing quote.
		storeBlock(buf, o, x)
		for stop != 0 {
			shift := bits.TrailingZeros64(stop) & 56
			at := o + int(shift/8) // where the byte is, after the escapes before it
			if c := byte(x >> shift); c != '"' && c != '\\' {
				// Not plain ASCII: the rest is AppendString's.
				return append(appendEscaped(buf[:at], text[i+int(shift/8):]), '"')
			}
			storeByte(buf, at, '\\')
			storeBlock(buf, at+1, x>>shift)
			o++
			stop &= stop - 1
		}
		o += n
		i += n
	}
	buf[o] = '"'
	return buf[:o+1]
}

// inSpareRoom reports whether text shares a byte with dst's capacity
// beyond its length (dst has some: the caller checked the room).
func inSpareRoom(dst, text []byte) bool {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	t := uintptr(unsafe.Pointer(unsafe.SliceData(text)))
	return t < base+uintptr(cap(dst)) && t+uintptr(len(text)) > base+uintptr(len(dst))
}

// jsonTextSlack is the room a block of n bytes needs beyond 2*n, from
// where AppendJSONText writes it: with every byte escaped, the last
// backslash is at 2*n-2 and the block of 8 written behind it ends at
// 2*n+7; one byte more is left for the closing quote.
const jsonTextSlack = 8

// textBlock marks the bytes of a block x that AppendJSONText must look
// at, with the top bit of each: a quote, a backslash, a control character
// or a byte >= 0x80. Each byte is tested on its own low 7 bits (no carry
// or borrow crosses bytes), so every mark is exact.
func textBlock(x uint64) uint64 {
	const low7, msb = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	const lsb = 0x0101010101010101
	t := x & low7
	// A byte of (t^c)+0x7f has its top bit clear only when t^c is 0;
	// t+0x60 has its top bit set when t >= 0x20.
	quoteOrBackslash := ((t ^ lsb*'"') + low7) & ((t ^ lsb*'\\') + low7)
	return (^(quoteOrBackslash & (t + lsb*0x60)) | x) & msb
}

// loadBlock is the eight bytes of s from i (0 <= i, i+8 <= len(s), which
// the caller checks) as a little-endian number, read without a bounds
// check (jsonscan's block).
func loadBlock(s []byte, i int) uint64 {
	b := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), i))
	return binary.LittleEndian.Uint64(b[:])
}

// storeBlock writes x's eight bytes, little-endian, to buf from o (0 <= o,
// o+8 <= len(buf), which the caller checks), without a bounds check.
func storeBlock(buf []byte, o int, x uint64) {
	b := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), o))
	binary.LittleEndian.PutUint64(b[:], x)
}

// storeByte writes c to buf at o (0 <= o < len(buf), which the caller
// checks), without a bounds check.
func storeByte(buf []byte, o int, c byte) {
	*(*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), o)) = c
}
