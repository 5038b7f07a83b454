package briefing_test

import "bytes"

func contains(raw []byte, s string) bool { return bytes.Contains(raw, []byte(s)) }
