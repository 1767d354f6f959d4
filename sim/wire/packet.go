package wire

import (
	"encoding/binary"
	"fmt"
	"io"
)

// adbd packet commands.
const (
	cmdCNXN = 0x4e584e43
	cmdAUTH = 0x48545541
	cmdOPEN = 0x4e45504f
	cmdOKAY = 0x59414b4f
	cmdCLSE = 0x45534c43
	cmdWRTE = 0x45545257
)

// Protocol versions and limits.
const (
	// versionSkipChecksum is the first protocol version whose packets need no checksum.
	versionSkipChecksum = 0x01000001
	versionMin          = 0x01000000
	// maxPayload is the largest packet payload the device face accepts or sends.
	maxPayload = 1 << 20
)

// Auth packet types.
const (
	authToken     = 1
	authSignature = 2
)

const headerSize = 24

// packet is one adbd protocol message.
type packet struct {
	cmd, arg0, arg1 uint32
	data            []byte
}

func cmdName(c uint32) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], c)
	for _, x := range b {
		if x < 'A' || x > 'Z' {
			return fmt.Sprintf("%#08x", c)
		}
	}
	return string(b[:])
}

func checksum(data []byte) uint32 {
	var sum uint32
	for _, b := range data {
		sum += uint32(b)
	}
	return sum
}

// appendPacket encodes p; sums are only computed for versions that check them.
func appendPacket(buf []byte, p packet, version uint32) []byte {
	var h [headerSize]byte
	binary.LittleEndian.PutUint32(h[0:], p.cmd)
	binary.LittleEndian.PutUint32(h[4:], p.arg0)
	binary.LittleEndian.PutUint32(h[8:], p.arg1)
	binary.LittleEndian.PutUint32(h[12:], uint32(len(p.data)))
	if version < versionSkipChecksum {
		binary.LittleEndian.PutUint32(h[16:], checksum(p.data))
	}
	binary.LittleEndian.PutUint32(h[20:], p.cmd^0xffffffff)
	buf = append(buf, h[:]...)
	return append(buf, p.data...)
}

// readPacket reads one packet, rejecting a bad magic or a payload above maxData.
func readPacket(r io.Reader, maxData uint32) (packet, error) {
	var h [headerSize]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return packet{}, err
	}
	p := packet{
		cmd:  binary.LittleEndian.Uint32(h[0:]),
		arg0: binary.LittleEndian.Uint32(h[4:]),
		arg1: binary.LittleEndian.Uint32(h[8:]),
	}
	n := binary.LittleEndian.Uint32(h[12:])
	if magic := binary.LittleEndian.Uint32(h[20:]); magic != p.cmd^0xffffffff {
		return packet{}, fmt.Errorf("packet %s: bad magic %#x: %w", cmdName(p.cmd), magic, errMalformed)
	}
	if n > maxData {
		return packet{}, fmt.Errorf("packet %s of %d bytes (max %d): %w", cmdName(p.cmd), n, maxData, errMalformed)
	}
	if n > 0 {
		p.data = make([]byte, n)
		if _, err := io.ReadFull(r, p.data); err != nil {
			return packet{}, fmt.Errorf("packet %s payload: %w", cmdName(p.cmd), err)
		}
	}
	return p, nil
}
