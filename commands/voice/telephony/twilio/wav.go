package twilio

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/strata-platform/strata/commands/voice/telephony"
)

// parseWAV reads a RIFF WAVE file's format and data chunks into a
// Recording. Twilio's recordings are 16-bit linear PCM (format 1) at
// 8 kHz, and Twilio does not say which G.711 law the call used, so Codec is
// set only for a G.711 WAV (format 7: PCMU, 6: PCMA).
func parseWAV(b []byte) (*telephony.Recording, error) {
	if len(b) < 12 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, errors.New("twilio: recording is not a WAV file")
	}
	var format, channels, blockAlign uint16
	var rate uint32
	haveFmt := false
	for off := 12; off+8 <= len(b); {
		id := string(b[off : off+4])
		size := int(binary.LittleEndian.Uint32(b[off+4 : off+8]))
		body := b[off+8:]
		if size < 0 || size > len(body) {
			size = len(body) // a streamed WAV leaves the size unset
		}
		switch id {
		case "fmt ":
			if size < 16 {
				return nil, errors.New("twilio: WAV fmt chunk too short")
			}
			format = binary.LittleEndian.Uint16(body[0:2])
			channels = binary.LittleEndian.Uint16(body[2:4])
			rate = binary.LittleEndian.Uint32(body[4:8])
			blockAlign = binary.LittleEndian.Uint16(body[12:14])
			haveFmt = true
		case "data":
			if !haveFmt || channels == 0 || blockAlign == 0 || rate == 0 {
				return nil, errors.New("twilio: WAV data before a valid fmt chunk")
			}
			rec := &telephony.Recording{WAV: b, SampleRate: int(rate), Samples: size / int(blockAlign)}
			switch format {
			case 7:
				rec.Codec = "PCMU"
			case 6:
				rec.Codec = "PCMA"
			case 1:
			default:
				return nil, fmt.Errorf("twilio: WAV format %d not supported", format)
			}
			return rec, nil
		}
		off += 8 + size + size%2
	}
	return nil, errors.New("twilio: WAV without a data chunk")
}
