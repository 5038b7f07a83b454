package sip

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// RTP payload types this adapter speaks.
const (
	ptPCMU    = 0
	ptPCMA    = 8
	ptDTMFDef = 101 // telephone-event in our offers
)

// sdpInfo is what we read from (or write into) a session description.
type sdpInfo struct {
	IP        net.IP
	Port      int
	Payloads  []int // m=audio formats, in preference order
	DTMFPT    int   // telephone-event payload type, -1 when not offered
	Direction string
}

// codecName names a G.711 payload type.
func codecName(pt int) string {
	switch pt {
	case ptPCMU:
		return "PCMU"
	case ptPCMA:
		return "PCMA"
	}
	return ""
}

// audioPT is the first G.711 payload type of the description, -1 when none.
func (s sdpInfo) audioPT() int {
	for _, pt := range s.Payloads {
		if pt == ptPCMU || pt == ptPCMA {
			return pt
		}
	}
	return -1
}

// remote is the RTP address of the description.
func (s sdpInfo) remote() *net.UDPAddr {
	if s.IP == nil || s.Port == 0 {
		return nil
	}
	return &net.UDPAddr{IP: s.IP, Port: s.Port}
}

// parseSDP reads the connection address, the first audio stream's port
// and formats, the telephone-event payload type and the direction.
func parseSDP(body []byte) (sdpInfo, error) {
	info := sdpInfo{DTMFPT: -1, Direction: "sendrecv"}
	inAudio, seenAudio := false, false
	var sessionIP, mediaIP net.IP
	for _, line := range strings.Split(string(body), "\n") {
		line = strings.TrimRight(line, "\r ")
		if len(line) < 2 || line[1] != '=' {
			continue
		}
		val := line[2:]
		switch line[0] {
		case 'c':
			f := strings.Fields(val)
			if len(f) == 3 {
				ip := net.ParseIP(f[2])
				if inAudio {
					mediaIP = ip
				} else if !seenAudio {
					sessionIP = ip
				}
			}
		case 'm':
			f := strings.Fields(val)
			inAudio = false
			if len(f) >= 4 && f[0] == "audio" && !seenAudio {
				port, err := strconv.Atoi(f[1])
				if err != nil {
					return info, fmt.Errorf("sdp: bad audio port %q", f[1])
				}
				info.Port = port
				for _, p := range f[3:] {
					if pt, err := strconv.Atoi(p); err == nil {
						info.Payloads = append(info.Payloads, pt)
					}
				}
				inAudio, seenAudio = true, true
			}
		case 'a':
			if !inAudio && seenAudio {
				continue
			}
			switch {
			case val == "sendrecv" || val == "sendonly" || val == "recvonly" || val == "inactive":
				info.Direction = val
			case strings.HasPrefix(val, "rtpmap:"):
				f := strings.Fields(strings.TrimPrefix(val, "rtpmap:"))
				if len(f) == 2 && strings.HasPrefix(strings.ToLower(f[1]), "telephone-event/8000") {
					if pt, err := strconv.Atoi(f[0]); err == nil {
						info.DTMFPT = pt
					}
				}
			}
		}
	}
	if !seenAudio {
		return info, fmt.Errorf("sdp: no audio stream")
	}
	info.IP = mediaIP
	if info.IP == nil {
		info.IP = sessionIP
	}
	return info, nil
}

// buildSDP writes a description offering (or answering with) payloads on
// ip:port; dtmfPT < 0 leaves telephone-event out.
func buildSDP(ip net.IP, port int, sessID, version int64, payloads []int, dtmfPT int, direction string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "v=0\r\no=strata %d %d IN IP4 %s\r\ns=strata\r\nc=IN IP4 %s\r\nt=0 0\r\n", sessID, version, ip, ip)
	fmt.Fprintf(&b, "m=audio %d RTP/AVP", port)
	for _, pt := range payloads {
		fmt.Fprintf(&b, " %d", pt)
	}
	if dtmfPT >= 0 {
		fmt.Fprintf(&b, " %d", dtmfPT)
	}
	b.WriteString("\r\n")
	for _, pt := range payloads {
		fmt.Fprintf(&b, "a=rtpmap:%d %s/8000\r\n", pt, codecName(pt))
	}
	if dtmfPT >= 0 {
		fmt.Fprintf(&b, "a=rtpmap:%d telephone-event/8000\r\na=fmtp:%d 0-16\r\n", dtmfPT, dtmfPT)
	}
	fmt.Fprintf(&b, "a=ptime:20\r\na=%s\r\n", direction)
	return []byte(b.String())
}
