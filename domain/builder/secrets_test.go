package builder_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/domain/builder"
	"github.com/strata-platform/strata/domain/kernel"
)

func rule(t *testing.T, err error) (string, string) {
	t.Helper()
	if err == nil {
		return "", ""
	}
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kernel.KindInvalid {
		t.Fatalf("want an invalid error, got %v", err)
	}
	return ke.Field, ke.Rule
}

func TestCheckSecretName(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(builder.SecretNamePattern)
	for _, c := range []struct {
		name, rule string
	}{
		{"STRIPE_API_KEY", ""},
		{"_PRIVATE", ""},
		{"A", ""},
		{"A1_2", ""},
		{"_", ""},
		{strings.Repeat("A", 64), ""},
		{"", "required"},
		{strings.Repeat("A", 65), "max_length:64"},
		{"1ABC", "pattern"},
		{"stripe_key", "pattern"},
		{"API-KEY", "pattern"},
		{"API KEY", "pattern"},
		{"ÄPI", "pattern"},
		{"API\x00", "pattern"},
		{"PORT", "reserved"},
		{"HOST", "reserved"},
		{"DATA_FILE", "reserved"},
		{"ALLOW_ORIGIN", "reserved"},
		{"NODE_ENV", "reserved"},
		{"PATH", "reserved"},
		{"HOME", "reserved"},
		{"NODE_OPTIONS", "reserved"},
		{"NODE_PATH", "reserved"},
		{"STRATA_MASTER_KEY", "reserved"},
		{"STRATA_", "reserved"},
		{"LD_PRELOAD", "reserved"},
		{"DYLD_INSERT_LIBRARIES", "reserved"},
		{"PORTS", ""},
		{"MY_PORT", ""},
		{"NODEJS", ""},
	} {
		field, r := rule(t, builder.CheckSecretName(c.name))
		if r != c.rule || (r != "" && field != "name") {
			t.Errorf("%q: field %q rule %q, want rule %q", c.name, field, r, c.rule)
		}
		// The hand-written check agrees with the documented pattern.
		if matched := re.MatchString(c.name); matched != (c.rule == "" || c.rule == "reserved") {
			t.Errorf("%q: pattern says %v, check says %q", c.name, matched, c.rule)
		}
	}
}

func TestCheckSecretValue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		label, value, rule string
	}{
		{"one byte", "x", ""},
		{"spaces are a value", "  ", ""},
		{"32 KiB", strings.Repeat("a", 32<<10), ""},
		{"32 KiB of multi-byte text", strings.Repeat("é", 16<<10), ""},
		{"newlines and unicode", "line1\nline2 ✓", ""},
		{"empty", "", "required"},
		{"32 KiB and one byte", strings.Repeat("a", 32<<10+1), "max_bytes:32768"},
		{"invalid UTF-8", "ab\xffcd", "utf8"},
		{"NUL", "ab\x00cd", "no_nul"},
	} {
		err := builder.CheckSecretValue(c.value)
		field, r := rule(t, err)
		if r != c.rule || (r != "" && field != "value") {
			t.Errorf("%s: field %q rule %q, want %q", c.label, field, r, c.rule)
		}
		if err != nil && c.value != "" && strings.Contains(err.Error(), c.value) {
			t.Errorf("%s: the error shows the value", c.label)
		}
	}
}

func fold(evs ...kernel.Event) *builder.Secrets {
	s := &builder.Secrets{}
	for i, e := range evs {
		s.Apply(e, int64(i+1))
	}
	return s
}

// Versions count up per name, deleted versions included; the list is
// sorted by name; each secret remembers the revision that set it.
func TestSecretsFoldAndDecide(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	s := fold()
	if s.Len() != 0 || s.Version != 0 {
		t.Fatalf("empty fold: %+v", s)
	}
	var evs []kernel.Event
	step := func(e kernel.Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
		s = fold(evs...)
	}
	step(builder.SetSecret(s, "chat_1", "ZETA", "v", "u1", at))
	step(builder.SetSecret(s, "chat_1", "ALPHA", "v", "u1", at))
	step(builder.SetSecret(s, "chat_1", "ZETA", "v2", "u2", at.Add(time.Minute)))
	if z, _ := s.Get("ZETA"); z.Version != 2 || z.UpdatedBy != "u2" || !z.UpdatedAt.Equal(at.Add(time.Minute)) || z.Revision != 3 {
		t.Fatalf("ZETA after an edit: %+v", z)
	}
	if l := s.List(); len(l) != 2 || l[0].Name != "ALPHA" || l[1].Name != "ZETA" || l[0].Revision != 2 {
		t.Fatalf("list %+v", l)
	}
	if !s.ChangedAt.Equal(at.Add(time.Minute)) {
		t.Fatalf("changed at %v", s.ChangedAt)
	}
	step(builder.DeleteSecret(s, "chat_1", "ZETA", "u1", at))
	if d := evs[len(evs)-1].(*builder.SecretDeleted); d.Version != 2 || d.Name != "ZETA" || d.DeletedBy != "u1" {
		t.Fatalf("deleted %+v", d)
	}
	if _, ok := s.Get("ZETA"); ok || s.Len() != 1 || s.Version != 4 || !s.ChangedAt.Equal(at) {
		t.Fatalf("after delete: %+v", s.List())
	}
	if _, err := builder.DeleteSecret(s, "chat_1", "ZETA", "u1", at); kernel.KindOf(err) != kernel.KindNotFound {
		t.Fatalf("delete twice: %v", err)
	}
	if _, err := builder.DeleteSecret(s, "chat_1", "bad name", "u1", at); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("delete a malformed name: %v", err)
	}
	// Re-added after a delete: version 3, never 1 again.
	step(builder.SetSecret(s, "chat_1", "ZETA", "v3", "u1", at))
	if z, _ := s.Get("ZETA"); z.Version != 3 {
		t.Fatalf("re-added: %+v", z)
	}
	// A reserved name is refused on write, not on delete (a name reserved
	// later can still be removed).
	if _, err := builder.SetSecret(s, "chat_1", "PORT", "1", "u1", at); kernel.KindOf(err) != kernel.KindInvalid {
		t.Fatalf("reserved: %v", err)
	}
	reserved := fold(&builder.SecretSet{CompanyID: "chat_1", Name: "NODE_OPTIONS", Version: 1})
	if _, err := builder.DeleteSecret(reserved, "chat_1", "NODE_OPTIONS", "u1", at); err != nil {
		t.Fatalf("delete a reserved name: %v", err)
	}
}

func TestSecretsLimit(t *testing.T) {
	t.Parallel()
	var evs []kernel.Event
	for i := 0; i < builder.MaxSecrets; i++ {
		evs = append(evs, &builder.SecretSet{CompanyID: "c", Name: fmt.Sprintf("S%03d", i), Version: 1})
	}
	s := fold(evs...)
	_, err := builder.SetSecret(s, "c", "ONE_MORE", "v", "u", time.Time{})
	if f, r := rule(t, err); f != "name" || r != "max_secrets:100" {
		t.Fatalf("101st: %v", err)
	}
	if _, err := builder.SetSecret(s, "c", "S000", "edited", "u", time.Time{}); err != nil {
		t.Fatalf("editing at the limit: %v", err)
	}
}

// The events carry names, versions, who and when: no field could hold a
// value, its length or a hash of it.
func TestSecretEventsCarryNoValue(t *testing.T) {
	t.Parallel()
	want := map[string][]string{
		"builder.secret_set":     {"at", "company_id", "name", "updated_by", "version"},
		"builder.secret_deleted": {"at", "company_id", "deleted_by", "name", "version"},
	}
	for _, c := range builder.SecretEvents() {
		e := c()
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, ",") != strings.Join(want[e.EventType()], ",") {
			t.Errorf("%s has fields %v", e.EventType(), keys)
		}
	}
}
