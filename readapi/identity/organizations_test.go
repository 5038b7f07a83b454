package identity_test

import (
	"net/http"
	"testing"
)

func TestOrganizationsMembershipAndActingOrganization(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, owner := e.register("owner@corp.example")
	memberID, member := e.register("member@corp.example")
	_, outsider := e.register("outsider@corp.example")

	st, org, _ := e.call("POST", "/api/v1/organizations", map[string]any{"name": "Corp"}, bearerH(owner)...)
	if st != http.StatusCreated || org["role"] != "owner" || len(org["projects"].([]any)) != 1 {
		t.Fatalf("create: %d %v", st, org)
	}
	orgID := org["id"].(string)
	if st, _, _ := e.call("POST", "/api/v1/organizations", map[string]any{"name": " "}, bearerH(owner)...); st != http.StatusBadRequest {
		t.Errorf("blank name: %d", st)
	}

	// Not a member yet: X-Organization-ID is refused.
	if st := e.whoami(append(bearerH(member), "X-Organization-ID", orgID)...); st != http.StatusForbidden {
		t.Errorf("non-member acting in the org: %d", st)
	}
	st, invited, _ := e.call("POST", "/api/v1/organizations/"+orgID+"/members", map[string]any{"email": "MEMBER@corp.example", "role": "member"}, bearerH(owner)...)
	if st != http.StatusAccepted || invited["status"] != "pending" {
		t.Fatalf("invite member: %d %v", st, invited)
	}
	_, token := e.invitation(1)
	st, joined, _ := e.call("POST", "/api/v1/organizations/invitations/accept", map[string]any{"token": token}, bearerH(member)...)
	if st != http.StatusOK || joined["id"] != orgID || joined["role"] != "member" {
		t.Fatalf("accept: %d %v", st, joined)
	}
	_, who, _ := e.call("GET", "/test/whoami", nil, append(bearerH(member), "X-Organization-ID", orgID)...)
	if who["org"] != orgID {
		t.Errorf("member acting in the org: %v", who)
	}
	// A member cannot manage members; an outsider does not see the org.
	if st, _, _ := e.call("POST", "/api/v1/organizations/"+orgID+"/members", map[string]any{"email": "outsider@corp.example"}, bearerH(member)...); st != http.StatusForbidden {
		t.Errorf("member adding a member: %d", st)
	}
	if st, _, _ := e.call("GET", "/api/v1/organizations/"+orgID+"/members", nil, bearerH(outsider)...); st != http.StatusNotFound {
		t.Errorf("outsider listing members: %d", st)
	}
	if st, b, _ := e.call("POST", "/api/v1/organizations/"+orgID+"/members", map[string]any{"email": "ghost@corp.example"}, bearerH(owner)...); st != http.StatusAccepted {
		t.Errorf("an address without an account is invited like any other: %d %v", st, b)
	}
	if st, b, _ := e.call("POST", "/api/v1/organizations/"+orgID+"/members", map[string]any{"email": "outsider@corp.example", "role": "owner"}, bearerH(owner)...); st != http.StatusBadRequest || b["field"] != "role" {
		t.Errorf("bad role: %d %v", st, b)
	}
	st, members, _ := e.call("GET", "/api/v1/organizations/"+orgID+"/members", nil, bearerH(member)...)
	if list := members["list"].([]any); st != http.StatusOK || len(list) != 2 || list[0].(map[string]any)["role"] != "owner" {
		t.Errorf("members: %d %v", st, members)
	}
	st, orgs, _ := e.call("GET", "/api/v1/organizations", nil, bearerH(member)...)
	if list := orgs["list"].([]any); st != http.StatusOK || len(list) != 2 {
		t.Errorf("member's organizations: %d %v", st, orgs)
	}
	// Removal: the owner stays; the member goes and loses access at once.
	ownerID := org["owner_id"].(string)
	if st, _, _ := e.call("DELETE", "/api/v1/organizations/"+orgID+"/members/"+ownerID, nil, bearerH(owner)...); st != http.StatusConflict {
		t.Errorf("removing the owner: %d", st)
	}
	if st, _, _ := e.call("DELETE", "/api/v1/organizations/"+orgID+"/members/"+memberID, nil, bearerH(owner)...); st != http.StatusNoContent {
		t.Errorf("remove member: %d", st)
	}
	if st := e.whoami(append(bearerH(member), "X-Organization-ID", orgID)...); st != http.StatusForbidden {
		t.Errorf("removed member acting in the org: %d", st)
	}
	// An API key acts only in its own organization.
	key, _ := e.newKey(owner, map[string]any{"name": "k"})
	if st := e.whoami("X-API-Key", key, "X-Organization-ID", orgID); st != http.StatusForbidden {
		t.Errorf("key with another org: %d", st)
	}
}

func TestKeysAreIssuedInTheActingOrganization(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, owner := e.register("boss@corp.example")
	_, org, _ := e.call("POST", "/api/v1/organizations", map[string]any{"name": "Corp"}, bearerH(owner)...)
	orgID := org["id"].(string)
	project := org["projects"].([]any)[0].(map[string]any)["id"].(string)
	st, key, _ := e.call("POST", "/api/v1/api-keys", map[string]any{"name": "corp"}, append(bearerH(owner), "X-Organization-ID", orgID)...)
	if st != http.StatusCreated || key["project_id"] != project {
		t.Fatalf("key in the acting org: %d %v", st, key)
	}
	_, who, _ := e.call("GET", "/test/whoami", nil, "X-API-Key", key["api_key"].(string))
	if who["org"] != orgID {
		t.Errorf("the key acts in %v, want %s", who["org"], orgID)
	}
}
