package deploy

import (
	ff "github.com/GoogleCloudPlatform/functions-framework-go/functions"

	"github.com/fairboard/fairboard/functions"
)

// init registers the functions with the Functions Framework under their
// names (and playConfig, the play page's configuration), so a deployment's --entry-point=createGame (etc.) finds them and
// funcframework.Start serves them.
func init() {
	for _, n := range append(functions.Names, functions.SweepName) {
		ff.HTTP(n, Deployed(n))
	}
	ff.HTTP(PlayConfigName, PlayConfig)
}
