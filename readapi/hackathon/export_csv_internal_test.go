package hackathon

import "testing"

// TestSafeCell: cells a spreadsheet would evaluate get a leading
// apostrophe (OWASP CSV injection); plain numbers and text stay as they
// are.
func TestSafeCell(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+1 crew": "'+1 crew", "-cmd": "'-cmd", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx",
		"-1.5": "-1.5", "-2": "-2", "0.25": "0.25", "-": "'-", "-1e5": "'-1e5", "--1": "'--1",
		"": "", "plain": "plain", "a=b": "a=b", " =x": " =x", `{"a":1}`: `{"a":1}`,
	} {
		if got := safeCell(in); got != want {
			t.Errorf("safeCell(%q) = %q, want %q", in, got, want)
		}
	}
}
