package enrich

import "strings"

// Pattern maps a host-name shape to the provider it belongs to.
//
// Glob is matched label by label from the right, case-insensitively, with a
// trailing dot ignored: a leftmost "*" label stands for one or more labels,
// and a label ending in "*" ("awsdns-*") for that label prefix followed by at
// least one character. Matching by label keeps "evil-cloudfront.net.example"
// and "notcloudfront.net" from passing as CloudFront.
type Pattern struct {
	Glob     string
	Provider string
	Detail   string // what the match means, for evidence
}

// NSPatterns are the name servers of known DNS providers.
var NSPatterns = []Pattern{
	{"*.awsdns-*.com", "AWS", "Amazon Route 53 name server"},
	{"*.awsdns-*.net", "AWS", "Amazon Route 53 name server"},
	{"*.awsdns-*.org", "AWS", "Amazon Route 53 name server"},
	{"*.awsdns-*.co.uk", "AWS", "Amazon Route 53 name server"},
	{"*.ns.cloudflare.com", "Cloudflare", "Cloudflare DNS name server"},
	{"ns-cloud-*.googledomains.com", "Google Cloud", "Google Cloud DNS name server"},
	{"*.azure-dns.com", "Azure", "Azure DNS name server"},
	{"*.azure-dns.net", "Azure", "Azure DNS name server"},
	{"*.azure-dns.org", "Azure", "Azure DNS name server"},
	{"*.azure-dns.info", "Azure", "Azure DNS name server"},
	{"*.domaincontrol.com", "GoDaddy", "GoDaddy DNS name server"},
	{"*.vercel-dns.com", "Vercel", "Vercel DNS name server"},
}

// CNAMEPatterns are the alias targets of known hosting services.
var CNAMEPatterns = []Pattern{
	{"*.cloudfront.net", "AWS", "Amazon CloudFront distribution"},
	{"*.amazonaws.com", "AWS", "AWS service endpoint"},
	{"*.vercel-dns.com", "Vercel", "Vercel deployment"},
	{"*.vercel.app", "Vercel", "Vercel deployment"},
	{"*.azurewebsites.net", "Azure", "Azure App Service"},
	{"*.cloudapp.azure.com", "Azure", "Azure cloud service"},
	{"*.azureedge.net", "Azure", "Azure CDN endpoint"},
	{"*.trafficmanager.net", "Azure", "Azure Traffic Manager profile"},
	{"ghs.googlehosted.com", "Google Cloud", "Google-hosted custom domain"},
	{"*.appspot.com", "Google Cloud", "Google App Engine"},
	{"*.run.app", "Google Cloud", "Google Cloud Run"},
	{"*.cdn.cloudflare.net", "Cloudflare", "Cloudflare CDN"},
}

// MatchNS returns the pattern a name server's host name matches.
func MatchNS(host string) (Pattern, bool) { return matchAny(NSPatterns, host) }

// MatchCNAME returns the pattern a CNAME target matches.
func MatchCNAME(target string) (Pattern, bool) { return matchAny(CNAMEPatterns, target) }

func matchAny(ps []Pattern, name string) (Pattern, bool) {
	labels := hostLabels(name)
	if labels == nil {
		return Pattern{}, false
	}
	for _, p := range ps {
		if globMatch(strings.Split(p.Glob, "."), labels) {
			return p, true
		}
	}
	return Pattern{}, false
}

// hostLabels splits a host name into lower-case labels; nil if any label
// is empty.
func hostLabels(name string) []string {
	name = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(name), "."))
	if name == "" {
		return nil
	}
	labels := strings.Split(name, ".")
	for _, l := range labels {
		if l == "" {
			return nil
		}
	}
	return labels
}

func globMatch(glob, labels []string) bool {
	many := glob[0] == "*"
	if many {
		glob = glob[1:]
		if len(labels) <= len(glob) {
			return false
		}
	} else if len(labels) != len(glob) {
		return false
	}
	labels = labels[len(labels)-len(glob):]
	for i, g := range glob {
		if stem, ok := strings.CutSuffix(g, "*"); ok {
			if len(labels[i]) <= len(stem) || !strings.HasPrefix(labels[i], stem) {
				return false
			}
		} else if labels[i] != g {
			return false
		}
	}
	return true
}
