package memory

import "testing"

func TestCheckNamespaceAcceptsTwinNamespaces(t *testing.T) {
	for _, tc := range []struct {
		ns string
		ok bool
	}{
		{"global", true}, {"session:abc", true}, {"project:x-1", true},
		{"twin_0b0e7f5e-2f1c-4c55-9e7a-7d1c2b3a4f5e", true},
		{"twin_0B0E7F5E-2F1C-4C55-9E7A-7D1C2B3A4F5E", false},
		{"twin_", false}, {"twin_abc", false}, {"twin_0b0e7f5e-2f1c-4c55-9e7a-7d1c2b3a4f5", false},
		{"twin_0b0e7f5e-2f1c-4c55-9e7a-7d1c2b3a4f5g", false}, {"twin_0b0e7f5e+2f1c-4c55-9e7a-7d1c2b3a4f5e", false},
		{"twins_0b0e7f5e-2f1c-4c55-9e7a-7d1c2b3a4f5e", false}, {"", false}, {"session:", false},
	} {
		err := CheckNamespace("namespace", tc.ns)
		if (err == nil) != tc.ok {
			t.Errorf("CheckNamespace(%q) = %v, want ok=%v", tc.ns, err, tc.ok)
		}
	}
}
