package sipptest

import (
	"encoding/binary"
	"fmt"
	"os"
)

// RTP is one RTP packet of a capture: its payload type and payload.
type RTP struct {
	PayloadType uint8
	Payload     []byte
}

// PCAP reads the RTP packets of a capture file of SIPp's kind (classic
// little-endian pcap, Ethernet, IPv4, UDP), in file order.
func PCAP(path string) ([]RTP, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < 24 || binary.LittleEndian.Uint32(data) != 0xa1b2c3d4 || binary.LittleEndian.Uint32(data[20:]) != 1 {
		return nil, fmt.Errorf("%s: not a little-endian Ethernet pcap", path)
	}
	var out []RTP
	for off := 24; off+16 <= len(data); {
		n := int(binary.LittleEndian.Uint32(data[off+8:]))
		if off+16+n > len(data) {
			return nil, fmt.Errorf("%s: truncated record at %d", path, off)
		}
		pkt := data[off+16 : off+16+n]
		off += 16 + n
		if len(pkt) < 14+20 {
			return nil, fmt.Errorf("%s: short frame", path)
		}
		ip := pkt[14:]
		ihl := int(ip[0]&15) * 4
		if ip[0]>>4 != 4 || ip[9] != 17 || len(ip) < ihl+8+12 {
			return nil, fmt.Errorf("%s: not IPv4/UDP/RTP", path)
		}
		rtp := ip[ihl+8:]
		hdr := 12 + 4*int(rtp[0]&15)
		if len(rtp) < hdr {
			return nil, fmt.Errorf("%s: short RTP header", path)
		}
		out = append(out, RTP{PayloadType: rtp[1] & 0x7f, Payload: rtp[hdr:]})
	}
	return out, nil
}

// AudioSamples counts the G.711 samples (one a payload byte) of a
// capture's PCMU (0) and PCMA (8) packets: what a recording of it holds.
func AudioSamples(pkts []RTP) int {
	n := 0
	for _, p := range pkts {
		if p.PayloadType == 0 || p.PayloadType == 8 {
			n += len(p.Payload)
		}
	}
	return n
}
