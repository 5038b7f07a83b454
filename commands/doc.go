// Package commands is the home of Strata's command handlers, one package per
// bounded context (commands/<context>) and one file per command
// (issue_grant.go). A handler loads its stream, asks the domain to decide,
// and appends the resulting events with eventstore.Store.Append (or AppendTx
// plus eventstore.Claim for set validation); it never reads another context's
// read model to decide. The first contexts land with their issues.
package commands
