package reports

import (
	"time"

	"github.com/strata-platform/strata/domain/captable/num"
)

// section starts a section with no rows yet (an empty list, never null).
func section(id, title string, cols ...Column) Section {
	return Section{ID: id, Title: title, Columns: cols, Rows: [][]string{}}
}

// add appends a row.
func (s *Section) add(row ...string) { s.Rows = append(s.Rows, row) }

// note appends a note.
func (s *Section) note(text string) { s.Notes = append(s.Notes, text) }

// Column constructors by kind.
func text(key, title string) Column    { return Column{Key: key, Title: title, Kind: KindText} }
func number(key, title string) Column  { return Column{Key: key, Title: title, Kind: KindNumber} }
func money(key, title string) Column   { return Column{Key: key, Title: title, Kind: KindMoney} }
func date(key, title string) Column    { return Column{Key: key, Title: title, Kind: KindDate} }
func percent(key, title string) Column { return Column{Key: key, Title: title, Kind: KindPercent} }
func ref(key, title string) Column     { return Column{Key: key, Title: title, Kind: KindRef} }

// qty writes a share count or any exact figure.
func qty(n num.Num) string { return n.String() }

// cash writes an amount of money or a price exactly, with at least two
// decimals: 80 is "80.00", 1.114437 stays "1.114437".
func cash(n num.Num) string {
	if n.Round(2).Equal(n) {
		return n.Fixed(2)
	}
	return n.String()
}

// pct writes part/whole as a percentage rounded to four decimals (halves
// away from zero); 0.0000 when whole is zero.
func pct(part, whole num.Num) string {
	if whole.IsZero() {
		return num.Zero.Fixed(4)
	}
	return part.Div(whole).Mul(num.Int(100)).Fixed(4)
}

// fractionPct writes a fraction (0.2) as a percentage (20.0000).
func fractionPct(f num.Num) string { return f.Mul(num.Int(100)).Fixed(4) }

// day writes a date as YYYY-MM-DD ("" for the zero time).
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}
