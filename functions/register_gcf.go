//go:build gcf

package functions

import ff "github.com/GoogleCloudPlatform/functions-framework-go/functions"

// With the gcf build tag (set GOFLAGS=-tags=gcf in the build environment),
// the functions register themselves with the Functions Framework under
// their names, so --entry-point=createGame etc. find them. The tag keeps
// the framework (and its cloudevents dependency, not yet in go.sum) out of
// ordinary builds.
func init() {
	for _, n := range Names {
		ff.HTTP(n, Deployed(n))
	}
}
