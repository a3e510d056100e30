package deploy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/api/idtoken"
	"google.golang.org/api/option"

	"github.com/fairboard/fairboard/functions"
)

// The sweep's environment variables (docs/functions.md, "The sweep").
const (
	// EnvSweepInvoker is the email of the one service account whose
	// OIDC tokens may run the sweep: Cloud Scheduler's job runs as it.
	EnvSweepInvoker = "FAIRBOARD_SWEEP_INVOKER"
	// EnvSweepAudience is the audience those tokens carry: the sweep
	// function's URL, as the Scheduler job's --oidc-token-audience sets it.
	EnvSweepAudience = "FAIRBOARD_SWEEP_AUDIENCE"
	// EnvFairDeadline is how long a fair game may stay unfinished (a Go
	// duration: "48h"; "off" never abandons one); unset: the service's
	// default, two days.
	EnvFairDeadline = "FAIRBOARD_FAIR_DEADLINE"
)

// googleIssuers are the issuers of Google-signed OIDC tokens.
var googleIssuers = []string{"https://accounts.google.com", "accounts.google.com"}

// OIDCSweepAuthorizer is the sweep's authorizer in a deployment: the
// request must carry "Authorization: Bearer <token>", a Google-signed
// OIDC ID token (RS256, checked against Google's published keys by
// google.golang.org/api/idtoken), unexpired, issued by Google, for
// audience, of the service account invoker (its email claim, verified).
// That is what Cloud Scheduler sends from a job created with
// --oidc-service-account-email=invoker --oidc-token-audience=audience.
// The function is also deployed so that only that account may invoke it
// (Cloud Run's IAM checks the same token first); this check keeps a
// function deployed --allow-unauthenticated by mistake closed. opts
// configure the client that fetches Google's keys (tests give one that
// serves their own).
func OIDCSweepAuthorizer(ctx context.Context, audience, invoker string, opts ...option.ClientOption) (functions.SweepAuthorizer, error) {
	if audience == "" || invoker == "" {
		return nil, fmt.Errorf("deploy: the sweep needs %s and %s", EnvSweepAudience, EnvSweepInvoker)
	}
	if len(opts) == 0 {
		// Google's public keys need no credentials to fetch.
		opts = []option.ClientOption{option.WithHTTPClient(http.DefaultClient)}
	}
	v, err := idtoken.NewValidator(ctx, opts...)
	if err != nil {
		return nil, err
	}
	return functions.SweepAuthorizerFunc(func(r *http.Request) error {
		h := r.Header.Get("Authorization")
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || tok == "" {
			return errors.New("no bearer token")
		}
		p, err := v.Validate(r.Context(), tok, audience)
		if err != nil {
			return err
		}
		issuer := false
		for _, i := range googleIssuers {
			issuer = issuer || p.Issuer == i
		}
		email, _ := p.Claims["email"].(string)
		verified, _ := p.Claims["email_verified"].(bool)
		switch {
		case !issuer:
			return fmt.Errorf("the token's issuer is %q, not Google", p.Issuer)
		case email != invoker || !verified:
			return fmt.Errorf("the token is %q's (verified %v), not the sweep's invoker", email, verified)
		}
		return nil
	}), nil
}
