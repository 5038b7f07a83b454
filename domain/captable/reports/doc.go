// Package reports builds the cap table's financial reports. Each report is
// a pure function of a company's recorded events as of a day: Build folds
// the entries with captable.Replay's rule (an event whose business date
// falls after the as-of day is left out; undated reference data always
// applies) and lays the result out as titled sections of rows.
//
// Every figure is an exact decimal string computed with num.Num, never a
// float: share counts and other numbers are exact (num.Num's String), money
// and prices are exact with at least two decimals ("80.00", "1.114437"),
// percentages are rounded to four decimals ("53.0387"), and dates are
// YYYY-MM-DD. (A quotient whose decimal expansion never ends, such as 1/3,
// is written to num.MaxPlaces decimals, as num.Num's String does.) Each
// section's rows have one cell per column, in column order.
//
// Entries are the company's stream in order, each with its version, event
// id, type name and decoded event (a pointer, as the event registry
// decodes it: *captable.GrantIssued and so on).
//
// The reports:
//
//   - CAP_TABLE_SUMMARY: the totals (authorized, issued, outstanding awards,
//     unallocated pool, fully diluted), each share class (authorized,
//     issued, outstanding awards, available, fully diluted, ownership),
//     each stakeholder (issued, awards, fully diluted, ownership, with the
//     unallocated pool as the last line) and each stakeholder's securities.
//   - EQUITY_LEDGER: every transaction (grants and their lifecycle, SAFEs,
//     rounds, conversion adjustments, valuations, share class changes) in
//     business-date order, ties by stream version, with the quantity
//     change, price, amount, the grant's or class's balance after it, and
//     the event's version and id.
//   - TAX_SUMMARY: for the calendar year of the as-of day, the exercises and
//     RSU settlements with the fair market value at their date and the
//     spread, the restricted common stock issued (83(b)-relevant), and the
//     awards outstanding on the as-of day with their intrinsic value. It is
//     informational, not tax advice.
//   - INVESTOR_UPDATE: headline figures (fully diluted, issued, pool, latest
//     price per share and implied post-money valuation, capital raised,
//     SAFEs outstanding), ownership by class and by kind of holder, the
//     priced rounds, the SAFEs outstanding, and the quarter's activity.
//   - AUDIT_READY: every figure of the summary with the stream versions
//     behind it, each event's contribution to each figure, a reconciliation
//     that recomputes each figure from those contributions (an independent
//     second computation, not a copy of the fold), and the entries used with
//     their SHA-256 digest (see Digest), so an auditor can prove which
//     events the report rests on.
package reports
